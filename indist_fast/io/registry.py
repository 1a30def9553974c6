"""Which opener reads which file: one line per file ending (``FORMATS``), the
families whose files may mix in one dataset, and a file checked to be one of them."""

from __future__ import annotations

import os

from .arrow_files import open_ipc
from .csv_files import CSV_CODECS, open_csv
from .numpy_files import open_npy, open_npz
from .parquet_files import open_parquet
from .source import Opener
from .stores import StorePath, store_kind

__all__ = ["FORMATS", "FAMILIES", "format_of", "unsupported", "check_file"]

#: File ending (lower case, compressed CSV as one ending) -> its opener.
FORMATS: dict[str, Opener] = {
    ".npy": open_npy,
    ".npz": open_npz,
    ".csv": open_csv,
    **{".csv" + ending: open_csv for ending in CSV_CODECS},
    ".parquet": open_parquet,
    ".pq": open_parquet,
    ".feather": open_ipc,
    ".arrow": open_ipc,
    ".ipc": open_ipc,
}
#: Endings read as another's: the files of one dataset share a family (``d.csv`` and
#: ``e.csv.gz`` may mix, ``d.csv`` and ``e.parquet`` not).
FAMILIES = {".pq": ".parquet", ".arrow": ".feather", ".ipc": ".feather",
            **{".csv" + ending: ".csv" for ending in CSV_CODECS}}


def format_of(path: str) -> str:
    """The key of ``FORMATS`` for a file name (``.csv.gz`` as one ending), else its
    last ending."""
    name = os.path.basename(path).lower()
    for ending in sorted(FORMATS, key=len, reverse=True):
        if name.endswith(ending):
            return ending
    return os.path.splitext(name)[1]


def unsupported(path: str) -> ValueError:
    """The error for a file of no known format."""
    ext = format_of(path)
    return ValueError(f"path: cannot read {ext or 'extensionless'} files ({path}); use one "
                      f"of {', '.join(sorted(FORMATS))}.")


def check_file(path: str) -> str:
    """``path`` checked to be a readable file of a supported format."""
    if isinstance(path, StorePath):
        return _check_store_file(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"path: no such file: {path}")
    if os.path.isdir(path):
        raise ValueError(f"path: {path} is a directory, not a file.")
    if not os.path.isfile(path):         # a pipe or a device: the readers seek and reread
        raise ValueError(f"path: {path} is not a regular file.")
    if format_of(path) not in FORMATS:
        raise unsupported(path)
    try:
        with open(path, "rb"):
            pass
    except OSError as exc:
        raise ValueError(f"path: cannot open {path}: {exc.strerror or exc}.") from exc
    return path


#: Formats read memory-mapped from a local disk only.
_LOCAL_ONLY = (".npy", ".npz")


def _check_store_file(path: StorePath) -> StorePath:
    """``check_file`` of a file in a store (listed files are known to be there)."""
    if path.size is None:
        kind = store_kind(path)
        if kind == "missing":
            raise FileNotFoundError(f"path: no such file or folder: {path}")
        if kind == "folder":
            raise ValueError(f"path: {path} is a directory, not a file.")
    ext = format_of(path.inner)
    if ext not in FORMATS:
        raise unsupported(path)
    if ext in _LOCAL_ONLY:
        raise ValueError(f"path: {path}: {ext} files are read memory-mapped from a local "
                         "disk, not from a store; copy it to a local disk, or store the "
                         "columns as Parquet.")
    return path
