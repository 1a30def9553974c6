"""Output files written whole: the bytes go to an unnamed file in the target's folder
(``O_TMPFILE``), which gets a name only once complete, so however the process ends
-- an error, Ctrl-C, SIGTERM, SIGKILL -- no half-written file and no temporary file is
left. Where the folder's file system has no unnamed files, a hidden temporary file
beside the target is renamed instead, and the next write into that folder removes
such files left by processes that were killed."""

from __future__ import annotations

import io
import os
import secrets
import stat
import time
from typing import IO, Any, Callable

__all__ = ["write_whole", "write_text_whole", "save_figure_whole", "remove_stale",
           "TEMP_PREFIX", "STALE_SECONDS"]

#: the name every temporary output file starts with (hidden on POSIX)
TEMP_PREFIX = ".indist-fast-"
#: a temporary file this old whose process is gone is a killed run's leftover
STALE_SECONDS = 60.0

# False forces the named temporary file (file systems without O_TMPFILE; tests)
UNNAMED = hasattr(os, "O_TMPFILE")
# folders already cleared of leftovers by this process (one scan each is enough)
_cleared: set[str] = set()


def write_whole(path: str, write: Callable[[IO[bytes]], object]) -> None:
    """Have ``write`` write the bytes of the output file ``path`` (a page, a table, a
    figure) into the binary file it is given; ``path`` gets them only once ``write``
    returns.

    A half-written file is never left behind, and a file already at ``path`` stays
    whole until the new one replaces it. As ``open(path, "w")`` would: a symbolic
    link's target is what gets replaced, and a file already there keeps its
    permissions (a new one gets the umask's).
    """
    if os.path.islink(path):
        path = os.path.realpath(path)
    folder = os.path.dirname(os.path.abspath(path))
    remove_stale(folder)
    try:
        mode: int | None = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = None
    fh = _unnamed(folder) if UNNAMED else None
    if fh is None:
        _write_named(path, mode, write)
        return
    with fh:
        if mode is not None:
            os.fchmod(fh.fileno(), mode)
        write(fh)
        fh.flush()
        if not _link(fh, path, folder):
            # (no /proc to link through) the bytes are copied to a named file
            fh.seek(0)
            _write_named(path, mode, lambda out: _copy(fh, out))


def write_text_whole(path: str, write: Callable[[IO[str]], None]) -> None:
    """``write_whole`` for text: ``write`` gets a UTF-8 text file (``newline=""``, as
    the ``csv`` module wants; write ``"\\n"`` for a line end)."""
    def encode(fh: IO[bytes]) -> None:
        text = io.TextIOWrapper(fh, encoding="utf-8", newline="")
        write(text)
        text.flush()
        text.detach()               # (leaves ``fh`` open for write_whole)
    write_whole(path, encode)


def save_figure_whole(figure: Any, path: str, dpi: int) -> None:
    """A matplotlib figure saved whole, in the format ``path``'s extension names."""
    ext = os.path.splitext(path)[1].lstrip(".").lower()
    write_whole(path, lambda fh: figure.savefig(fh, format=ext or None, dpi=dpi))


def remove_stale(folder: str) -> None:
    """Remove from ``folder`` the temporary output files (``TEMP_PREFIX``) of killed
    runs: older than ``STALE_SECONDS`` and written by a process that no longer runs
    (its id is in the name). Done once per folder and process; errors are ignored
    (a file of another user's run, a folder that cannot be listed)."""
    if folder in _cleared:
        return
    _cleared.add(folder)
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if not entry.name.startswith(TEMP_PREFIX):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if (stat.S_ISREG(info.st_mode) and now - info.st_mtime > STALE_SECONDS
                    and not _running(entry.name)):
                os.unlink(entry.path)
        except OSError:
            pass


def _running(name: str) -> bool:
    """Whether the process that named a temporary file ``name`` still runs (names
    without an id, from older versions, count as not running)."""
    pid = name[len(TEMP_PREFIX):].split("-", 1)[0]
    if not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except OSError:                  # (another user's process: it exists)
        return True
    return True


def _unnamed(folder: str) -> IO[bytes] | None:
    """An unnamed file in ``folder``, or None where the file system has none."""
    try:
        fd = os.open(folder, os.O_TMPFILE | os.O_RDWR, 0o666)
    except OSError:         # EOPNOTSUPP, EISDIR (older kernels), EINVAL ...
        return None
    return os.fdopen(fd, "w+b")


def _link(fh: IO[bytes], path: str, folder: str) -> bool:
    """Give the complete unnamed file the name ``path``: at once when nothing is there
    (``linkat`` refuses to replace), else as a temporary name renamed over ``path``.
    False when the file cannot be linked (no ``/proc``)."""
    source = f"/proc/self/fd/{fh.fileno()}"
    # (a dir_fd makes os.link call linkat with AT_SYMLINK_FOLLOW, which /proc needs)
    dir_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        try:
            os.link(source, os.path.basename(path), dst_dir_fd=dir_fd,
                    follow_symlinks=True)
            return True
        except FileExistsError:
            pass
        except OSError:
            return False
        temp = _temp_name(path)
        try:
            try:
                os.link(source, os.path.basename(temp), dst_dir_fd=dir_fd,
                        follow_symlinks=True)
            except OSError:     # (the kernel may name EEXIST before the real refusal)
                return False
            os.replace(temp, path)
        except BaseException:
            _discard(temp)
            raise
        return True
    finally:
        os.close(dir_fd)


def _write_named(path: str, mode: int | None, write: Callable[[IO[bytes]], object]) -> None:
    """Write to a hidden temporary file beside ``path``, then rename it over ``path``."""
    temp = _temp_name(path)
    fd = os.open(temp, os.O_CREAT | os.O_EXCL | os.O_RDWR | getattr(os, "O_BINARY", 0),
                 0o666)
    try:
        with os.fdopen(fd, "w+b") as fh:
            write(fh)
        if mode is not None:
            os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        _discard(temp)
        raise


def _discard(temp: str) -> None:
    if os.path.lexists(temp):
        os.unlink(temp)


def _temp_name(path: str) -> str:
    """A hidden name beside ``path`` with its extension and this process's id (which
    ``remove_stale`` reads)."""
    folder = os.path.dirname(os.path.abspath(path))
    name = f"{TEMP_PREFIX}{os.getpid()}-{secrets.token_hex(6)}{os.path.splitext(path)[1]}"
    return os.path.join(folder, name)


def _copy(source: IO[bytes], target: IO[bytes]) -> None:
    while chunk := source.read(1 << 20):
        target.write(chunk)
