"""The options the subcommands share, and the argparse types that check a value before
any file is read (refused by argparse, naming the option)."""

from __future__ import annotations

import argparse
import os
from typing import Any

from .._core.validation import check_seed
from ..io import LabelText


def seed_type(text: str) -> int:
    """``--seed`` as an int ``check_seed`` accepts, refused by argparse (naming the
    option) before any file is read."""
    try:
        seed = int(text)
        check_seed(seed, "--seed")
    except (TypeError, ValueError):
        raise argparse.ArgumentTypeError(
            f"--seed must be a non-negative integer, got {text!r}") from None
    return seed


def pos_label_type(text: str) -> LabelText:
    """``--pos-label`` as text: read as a boolean, a number or a string once the label
    column's type is known (``typed_pos_label``), so that ``--pos-label False``
    picks the False rows of a boolean column and ``--pos-label 1`` a text label "1"."""
    return LabelText(text)


def count_type(option: str, minimum: int) -> Any:
    """An integer option of at least ``minimum`` (``--n-boot``), refused by argparse."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise argparse.ArgumentTypeError(
                f"{option} must be an integer >= {minimum}, got {text!r}")
        return value
    return parse


def plot_path(text: str) -> str:
    """``--plot`` checked before any data is read: a writable folder and a file type
    matplotlib can write (refused by argparse, naming the option)."""
    folder = os.path.dirname(os.path.abspath(text))
    ext = os.path.splitext(text)[1].lower().lstrip(".")
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise argparse.ArgumentTypeError(
            "--plot needs matplotlib: pip install 'indist-fast[plot]'") from None
    types = FigureCanvasBase.get_supported_filetypes()
    if ext not in types:
        raise argparse.ArgumentTypeError(
            f"--plot must be a file name ending in one of {', '.join(sorted(types))} (the "
            f"types matplotlib writes), got {text!r}")
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"--plot {text!r} is a folder, not a file name")
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"--plot: no such folder: {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"--plot: folder {folder} is not writable")
    return text


def html_path(text: str) -> str:
    """``--html`` checked before any data is read (refused by argparse, naming it)."""
    from ..html.page import check_path
    try:
        return str(check_path(text, "--html"))
    except (ValueError, TypeError, FileNotFoundError) as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def check_csv_path(path: str | None) -> None:
    """``--csv OUT`` checked before any data is read: a writable folder (a ValueError,
    so the command ends with its one-line error rather than argparse's usage)."""
    if path is None:
        return
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise ValueError(f"--csv: {path} is a folder, not a file name.")
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"--csv: cannot write to {path} (no such folder, or not "
                         "writable).")


class Once(argparse.Action):
    """A column option given once: argparse would silently keep the last of several."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        earlier = getattr(namespace, self.dest, None)
        if earlier is not None:
            parser.error(f"{option_string} given twice ({earlier!r}, then {values!r}): one "
                         "column per run; evaluate several models with evaluate --score "
                         "A --score B, or compare them with compare --score A --score B.")
        setattr(namespace, self.dest, values)


class Distinct(argparse.Action):
    """A column option that may repeat (several models or segment columns), each
    column once."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        earlier = list(getattr(namespace, self.dest, None) or [])
        if values in earlier:
            parser.error(f"{option_string} {values!r} given twice.")
        setattr(namespace, self.dest, earlier + [values])


def add_columns(p: argparse.ArgumentParser, weight: bool = True, several: bool = False
                ) -> None:
    """The file and column arguments every file command takes (``--weight`` where the
    command can use weights: resolving power resamples unweighted rows; ``--score``
    repeated where the command reads several models)."""
    p.add_argument("file", metavar="PATH", help="a file (.parquet, .csv, .csv.gz, .feather, "
                   ".npy, .npz), a folder of them (hive partitions become columns) or a glob; "
                   "local, or a URI in an object store (s3://bucket/logs/, gs://, abfs://, "
                   "credentials from the environment)")
    p.add_argument("--label", required=True, action=Once, help="label column")
    if several:
        p.add_argument("--score", required=True, action=Distinct,
                       help="score column (repeat for several models)")
    else:
        p.add_argument("--score", required=True, action=Once, help="score column")
    if weight:
        p.add_argument("--weight", default=None, action=Once, help="sample-weight column")
    p.add_argument("--pos-label", type=pos_label_type, default=None,
                   help="label of the positive class (needed for text labels)")
    p.add_argument("--drop-nulls", action="store_true",
                   help="skip rows with a missing value in a used column (default: an error)")


def add_by(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--by", action=Distinct, default=[], metavar="COLUMN",
                   help=f"segment column (repeat for combinations): {what}")


def add_quiet(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quiet", "--no-progress", dest="quiet", action="store_true",
                   help="no progress bars")


def add_table_output(p: argparse.ArgumentParser, what: str) -> None:
    """``--json``, ``--csv OUT`` and ``--all-rows``: how a table is shown."""
    p.add_argument("--json", action="store_true", help=f"print the {what} as JSON")
    p.add_argument("--csv", default=None, metavar="OUT",
                   help=f"write the {what} to this CSV file")
    p.add_argument("--all-rows", action="store_true",
                   help="print every row of a long table (by default the first and last "
                        "10 of more than 20)")


def progress(args: argparse.Namespace) -> bool | None:
    """The ``progress`` argument of library calls: False with ``--quiet``, else None
    (a bar when stderr is a terminal)."""
    return False if getattr(args, "quiet", False) else None
