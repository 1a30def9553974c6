"""What every paper writer shares: the output folder, the manifest, matplotlib."""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass, field
from typing import IO, Any, Iterable, Sequence

from ..html.whole_file import save_figure_whole, write_text_whole

#: The source documents by seed file name (``../shared/papers/``).
SUMPTER = "000_c5ed1d39bc699c21"
SUMPTER_2022 = "001_7cd4af87d38093f4"
ORALLO = "002_d5ee42fbb9708b98"
ROC_POST = "003_e1ef94872cf64b37"
BEAM = "004_dc370068215ad919"

MANIFEST_FIELDS = ("file", "paper", "figure", "caption", "replicates")


@dataclass(frozen=True)
class ManifestRow:
    """One written file: its name in the folder, its paper (seed file name), the
    figure or table it reproduces, and a one-line caption.

    Attributes
    ----------
    file : str
        The file's name in the output folder.
    paper : str
        The source document's seed file name, e.g. ``000_c5ed1d39bc699c21``.
    figure : str
        The figure or table it reproduces, e.g. ``Fig 4``.
    caption : str
        One line saying what it shows.
    replicates : str
        The simulation behind it (e.g. ``500 replicates x 3 runs``); empty when
        nothing is simulated.

    Examples
    --------
    >>> from indist_fast.paper import ManifestRow
    >>> ManifestRow("a.png", "004_dc370068215ad919", "Fig 3", "signal curves").figure
    'Fig 3'
    """

    file: str
    paper: str
    figure: str
    caption: str
    replicates: str = ""


def subplots(nrows: int = 1, ncols: int = 1, *, figsize: tuple[float, float],
             **kw: Any) -> tuple[Any, Any]:
    """A new figure and its axes, without pyplot: no global backend switched, no
    figure left open in a user's session (PNGs are written with Agg)."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError("the paper figures need matplotlib: pip install "
                          "'indist-fast[plot]'") from None
    fig = Figure(figsize=figsize, layout="constrained")
    return fig, fig.subplots(nrows, ncols, **kw)


@dataclass
class Writer:
    """Writes figures and tables into ``outdir`` and keeps their manifest rows.

    ``quick`` asks the writers for small simulations (tests); the figures and tables
    are the same files either way, their captions saying so. ``n_rep`` (None: each
    writer's default) and ``seed`` set the simulations.
    """

    outdir: str
    quick: bool = False
    n_rep: int | None = None
    seed: int = 0
    rows: list[ManifestRow] = field(default_factory=list)
    #: counts the files written (a ``_core.progress.Bar``, or None)
    bar: Any = None

    def _add(self, name: str, paper: str, figure: str, caption: str,
             replicates: str) -> str:
        if any(r.file == name for r in self.rows):
            raise RuntimeError(f"two writers chose the file name {name!r}")
        if replicates:
            caption += (f" [quick run: {replicates}, seed {self.seed}; the full command "
                        "draws more]" if self.quick else f" [{replicates}, seed {self.seed}]")
        self.rows.append(ManifestRow(name, paper, figure, caption, replicates))
        if self.bar is not None:
            self.bar.update(1)
        return os.path.join(self.outdir, name)

    def figure(self, fig: Any, name: str, paper: str, figure: str, caption: str,
               replicates: str = "") -> None:
        """Save ``fig`` as ``name`` (a PNG); ``replicates`` describes its simulation."""
        path = self._add(name, paper, figure, caption, replicates)
        save_figure_whole(fig, path, dpi=110)

    def table(self, name: str, header: Sequence[str], rows: Iterable[Sequence[Any]],
              paper: str, figure: str, caption: str, replicates: str = "") -> None:
        """Write a CSV table with ``header``; floats keep 6 significant digits."""
        path = self._add(name, paper, figure, caption, replicates)

        def write(fh: IO[str]) -> None:
            out = csv.writer(fh)
            out.writerow(header)
            for row in rows:
                out.writerow([f"{v:.6g}" if isinstance(v, float) else v for v in row])
        write_text_whole(path, write)

    def manifest(self) -> str:
        """Write ``manifest.csv`` (one row per file written so far)."""
        path = os.path.join(self.outdir, "manifest.csv")

        def write(fh: IO[str]) -> None:
            out = csv.writer(fh)
            out.writerow(MANIFEST_FIELDS)
            for r in self.rows:
                out.writerow([r.file, r.paper, r.figure, r.caption, r.replicates])
        write_text_whole(path, write)
        return path


def grid3x3(title: str) -> tuple[Any, Any]:
    """A 3x3 grid of panels for the nine sets, labelled a to i row by row."""
    fig, axes = subplots(3, 3, figsize=(11, 9.5))
    fig.suptitle(title)
    for ax, name in zip(axes.flat, "abcdefghi"):
        ax.set_title(f"({name})", loc="left", fontsize=10)
    return fig, axes
