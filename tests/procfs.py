"""What a Linux process holds, read from /proc: its files (also unnamed ones) and its
peak memory."""

from __future__ import annotations

import os

HAS_PROC = os.path.exists("/proc/self/maps")


def held_files_in(folder, pid="self"):
    """Files under ``folder`` that process ``pid`` holds open or mapped, named or not
    (an unlinked or O_TMPFILE file shows as ``folder/... (deleted)``)."""
    folder = os.path.realpath(folder)
    held = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            held.add(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except OSError:
            pass
    with open(f"/proc/{pid}/maps") as fh:
        held.update(line.split(None, 5)[-1].strip() for line in fh
                    if len(line.split(None, 5)) == 6)
    return sorted(h for h in held if h.startswith(folder + os.sep))


def peak_rss_bytes():
    """VmHWM: the largest resident set the process has had (since the last reset)."""
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


def no_huge_pages():
    """Back this process's memory with small pages only (Linux ``PR_SET_THP_DISABLE``),
    so that a peak measures what the code holds: NumPy asks for transparent huge pages
    on large arrays, and whether one is granted moves the resident set in 2 MB steps
    (a reader's peak measured 12-24 MB from run to run with them, 7-11 MB without)."""
    import ctypes
    try:
        ctypes.CDLL(None, use_errno=True).prctl(41, 1, 0, 0, 0)   # PR_SET_THP_DISABLE
    except (OSError, AttributeError):
        pass
