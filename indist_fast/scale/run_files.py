"""Data parked on disk by an evaluation of files: sorted runs (``RunFile``) and rows by
bucket (``Spill``), in one unnamed temporary file each that the system frees however
the process ends; and the folder they go to, checked before any data is read."""

from __future__ import annotations

import errno
import mmap
import os
import shutil
import tempfile
from typing import Any, Iterable

import numpy as np

__all__ = ["RunFile", "Spill", "check_tmp_dir"]


class RunFile:
    """The sorted runs of an out-of-core evaluation, appended to one unnamed file.

    The file is made with ``tempfile.TemporaryFile`` in ``folder``: on Linux it never
    has a name (``O_TMPFILE``), elsewhere on POSIX its name is removed at once, on
    Windows it is deleted on close. The system frees it when the last descriptor
    closes, so no ending -- success, error, SIGTERM or SIGKILL -- leaves it behind,
    and one descriptor and one mapping serve any number of runs.
    """

    def __init__(self, folder: str, n_rows: int | None) -> None:
        self.folder = folder
        self.n_rows = n_rows             # rows to come, when known: the space needed
        self.need: int | None = None
        self.size = 0
        self.pieces: list[tuple[int, np.dtype, int, bool]] = []
        try:
            self.file = tempfile.TemporaryFile(dir=folder, prefix=f"indist_fast_{os.getpid()}_",
                                               buffering=0)
        except OSError as exc:
            raise ValueError(f"tmp_dir: cannot create a temporary file in {folder}: "
                             f"{exc.strerror or exc}.") from exc

    def __enter__(self) -> "RunFile":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.file.close()                # open mappings keep the data until dropped

    def add(self, pieces: Iterable[tuple[np.ndarray, bool]]) -> None:
        """Append the runs ``(ascending scores, positive)``; empty ones are skipped."""
        for scores, positive in pieces:
            if not len(scores):
                continue
            if self.need is None and self.n_rows is not None:
                self.need = self.n_rows * scores.itemsize
                self._check_space(self.need)
            self._write(bytes(-self.size % scores.itemsize))    # aligned for its dtype
            offset = self.size
            self._write(np.ascontiguousarray(scores).data.cast("B"))
            self.pieces.append((offset, scores.dtype, len(scores), positive))

    def _write(self, data: bytes | memoryview) -> None:
        view, fd = memoryview(data), self.file.fileno()
        while view:
            try:
                n = os.write(fd, view)
            except OSError as exc:
                raise self._write_error(exc, len(view)) from exc
            view = view[n:]
            self.size += n

    def _check_space(self, need: int) -> None:
        free = shutil.disk_usage(self.folder).free
        if need > free:
            raise ValueError(f"tmp_dir: {self.folder} has {free:,} bytes free; the sorted "
                             f"runs need {need:,}. Pass tmp_dir= a folder with more space "
                             "or a larger memory_limit.")

    def _write_error(self, exc: OSError, left: int) -> ValueError:
        if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
            need = (f"about {self.need:,}" if self.need is not None
                    else f"more than {self.size + left:,}")
            return ValueError(f"tmp_dir: no space left in {self.folder} for the sorted runs "
                              f"({self.size:,} bytes written); they need {need} bytes. Pass "
                              "tmp_dir= a folder with more space or a larger memory_limit.")
        return ValueError(f"tmp_dir: writing the sorted runs to {self.folder} failed: "
                          f"{exc.strerror or exc}.")

    def mapped(self) -> list[tuple[np.ndarray, bool]]:
        """Every run as a read-only array over one shared memory map of the file."""
        if not self.pieces:
            return []
        mm = mmap.mmap(self.file.fileno(), self.size, access=mmap.ACCESS_READ)
        return [(np.frombuffer(mm, dtype=dtype, count=n, offset=offset), positive)
                for offset, dtype, n, positive in self.pieces]


class Spill(RunFile):
    """Rows parked on disk by bucket, in one unnamed temporary file (see ``RunFile``):
    each bucket a list of pieces, each piece its columns' ``(offset, dtype, n)``."""

    def __init__(self, folder: str) -> None:
        super().__init__(folder, None)
        self.buckets: dict[int, list[list[tuple[int, np.dtype, int] | None]]] = {}

    def __enter__(self) -> "Spill":
        return self

    def put(self, bucket: int, arrays: list[np.ndarray | None]) -> None:
        piece: list[tuple[int, np.dtype, int] | None] = []
        for arr in arrays:
            if arr is None:
                piece.append(None)
                continue
            arr = np.ascontiguousarray(arr)
            self._write(bytes(-self.size % arr.itemsize))
            piece.append((self.size, arr.dtype, len(arr)))
            self._write(arr.view(np.uint8).reshape(-1).data)
        self.buckets.setdefault(bucket, []).append(piece)

    def read(self, piece: list[tuple[int, np.dtype, int] | None]) -> list[np.ndarray | None]:
        out: list[np.ndarray | None] = []
        for spec in piece:
            if spec is None:
                out.append(None)
                continue
            offset, dtype, n = spec
            buf = bytearray(n * dtype.itemsize)
            view, got = memoryview(buf), 0
            self.file.seek(offset)
            try:
                while got < len(buf):
                    k = self.file.readinto(view[got:])
                    if not k:
                        raise ValueError(f"tmp_dir: the rows parked in {self.folder} ended "
                                         "early (the temporary file was cut short).")
                    got += k
            finally:
                self.file.seek(0, os.SEEK_END)          # appends go on at the end
            out.append(np.frombuffer(buf, dtype=dtype))
        return out


def check_tmp_dir(tmp_dir: Any) -> str | None:
    """``tmp_dir`` as a writable folder (or None), checked before any data is read."""
    if tmp_dir is None:
        return None
    if not isinstance(tmp_dir, (str, bytes, os.PathLike)):
        raise TypeError(f"tmp_dir must be a folder name (str or path-like) or None, got "
                        f"{type(tmp_dir).__name__}.")
    folder = os.fsdecode(os.fspath(tmp_dir))
    if not os.path.exists(folder):
        raise ValueError(f"tmp_dir: no such folder: {folder}")
    if not os.path.isdir(folder):
        raise ValueError(f"tmp_dir: {folder} is not a folder.")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"tmp_dir: {folder} is not writable.")
    return folder
