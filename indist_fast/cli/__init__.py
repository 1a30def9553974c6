"""The ``indist-fast`` command: ``demo``, ``evaluate``, ``compare``, ``threshold``,
``losses``, ``resolving-power`` and ``paper``.

Each subcommand parses its options, calls the library's public functions and formats
what they return; one module per subcommand (``evaluate_command``,
``compare_command``, ``threshold_command``; ``commands`` holds the smaller ones), the
options they share in ``arguments``, the rows read into memory in ``file_rows``, and
what is printed or written in ``output`` (``figures`` composes ``evaluate --plot``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import sys
import threading
from typing import Any, Iterator, Sequence

from .. import __version__
from ..io import one_line
from . import commands, compare_command, evaluate_command, threshold_command

__all__ = ["main", "build_parser", "STOP_SIGNALS"]

#: the signals that end a command with one line and a status (128 + the signal's number)
STOP_SIGNALS: dict[int, tuple[str, int]] = {
    signal.SIGINT: ("interrupted", 130), signal.SIGTERM: ("terminated", 143)}


def build_parser() -> argparse.ArgumentParser:
    """The parser of every subcommand (each sets ``run``, the function that runs it)."""
    parser = argparse.ArgumentParser(
        prog="indist-fast",
        description="Evaluate binary classifiers: AUC, curves and C(r_b), the precision "
                    "at the indistinguishability threshold.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    commands.add_demo_parser(sub)
    evaluate_command.add_parser(sub)
    compare_command.add_parser(sub)
    threshold_command.add_parser(sub)
    commands.add_parsers(sub)
    return parser


@contextlib.contextmanager
def _quiet(quiet: bool) -> Iterator[None]:
    """``--quiet``: besides ``progress=False`` where a call takes it, every bar the
    library would draw by default is silenced for the run (its documented switch,
    ``INDIST_FAST_PROGRESS=0``), then the environment is put back."""
    if not quiet:
        yield
        return
    before = os.environ.get("INDIST_FAST_PROGRESS")
    os.environ["INDIST_FAST_PROGRESS"] = "0"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("INDIST_FAST_PROGRESS", None)
        else:
            os.environ["INDIST_FAST_PROGRESS"] = before


def _as_options(message: str) -> str:
    """A library message in the command line's words: the keyword a user of the command
    would pass as an option is named as the option (``pos_label`` -> ``--pos-label``)."""
    return re.sub(r"(?<![\w-])pos_label\b", "--pos-label", message)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``indist-fast`` command."""
    args = build_parser().parse_args(argv)
    interrupted: list[int] = []

    def on_interrupt(signum: int, frame: Any) -> None:
        interrupted.append(signum)
        raise KeyboardInterrupt
    # SIGTERM (a kill, a job scheduler's stop) ends the command as Ctrl-C does: the
    # output being written is dropped, never left half-written or as a temporary file
    main_thread = threading.current_thread() is threading.main_thread()
    before = ({sig: signal.signal(sig, on_interrupt) for sig in STOP_SIGNALS}
              if main_thread else {})
    unraisable = sys.unraisablehook

    def on_unraisable(info: Any) -> None:
        # Our KeyboardInterrupt raised inside a callback Python cannot raise from (a
        # weakref's, a __del__): no "Exception ignored" traceback; the signal is sent
        # again, to land in the command's own code and stop it now
        if isinstance(info.exc_value, KeyboardInterrupt) and interrupted:
            signal.raise_signal(interrupted[-1])
            return
        unraisable(info)
    if main_thread:
        sys.unraisablehook = on_unraisable
    try:
        try:
            with _quiet(args.quiet):
                code = int(args.run(args))
        finally:
            for sig, handler in before.items():
                if handler is not None:     # (None: a handler set outside Python)
                    signal.signal(sig, handler)
            if main_thread:
                sys.unraisablehook = unraisable
        if interrupted:     # raised where Python ignores it (a library's cleanup callback)
            raise KeyboardInterrupt
        return code
    except KeyboardInterrupt:
        # a line, not a traceback; every output is written whole or not at all
        # (``whole_file``), so nothing half-written is left
        sig = interrupted[0] if interrupted else int(signal.SIGINT)
        word, status = STOP_SIGNALS[sig]
        print(f"indist-fast {args.command}: {word}", file=sys.stderr)
        return status
    except BrokenPipeError:
        # The reader went away (``| head``): not an error of the input. Point stdout at
        # devnull so the interpreter's own flush at exit does not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except (ValueError, TypeError, OSError, ImportError) as exc:
        # One line, whatever the message holds (pyarrow's span several): the error
        # is about the input, so a traceback would only hide it.
        print(f"indist-fast {args.command}: error: {_as_options(one_line(exc))}",
              file=sys.stderr)
        return 2
