"""A killed command leaves no file but complete outputs: ``--csv``, ``--html``,
``--plot`` and ``paper`` in a real child process, stopped by SIGTERM or SIGKILL while
an output is being written and at several moments of a real run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from indist_fast.html import whole_file
from children import child_env
from procfs import HAS_PROC, held_files_in

pytestmark = [pytest.mark.skipif(not HAS_PROC or not hasattr(os, "O_TMPFILE"),
                                 reason="needs Linux /proc and O_TMPFILE"),
              pytest.mark.slow]
pytest.importorskip("matplotlib")


# The child runs the command; ``stall`` > 0 holds the stall-th output written, complete
# in its temporary file but not yet named, until the test kills the child.
CHILD = textwrap.dedent("""
    import sys, time
    import indist_fast.html.page as page
    import indist_fast.html.whole_file as whole_file
    import indist_fast.paper as paper
    unnamed, stall, marker = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    whole_file.UNNAMED = unnamed == "1"
    paper.WRITERS = ("orallo", "roc_post")    # (the quicker papers, same writers)
    real, count = whole_file.write_whole, [0]

    def stalling(path, write):
        def held(fh):
            write(fh)
            count[0] += 1
            if count[0] == stall:
                fh.flush()
                open(marker, "w").close()
                time.sleep(300)
        real(path, held)
    whole_file.write_whole = page.write_whole = stalling
    import indist_fast.cli as cli
    raise SystemExit(cli.main(sys.argv[4:]))
""")

OUTPUTS = {
    "csv": (["evaluate", "d.npz", "--label", "y", "--score", "s", "--by", "g",
             "--csv", "out.csv"], 1),
    "html": (["evaluate", "d.npz", "--label", "y", "--score", "s", "--html", "out.html"], 1),
    "plot": (["evaluate", "d.npz", "--label", "y", "--score", "s", "--plot", "out.png"], 1),
    # the third file of the paper's run: two are complete before it
    "paper": (["paper", "pq", "--quick", "--n-rep", "2"], 3),
}
OLD = b"the user's old file"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """The data, and each command's outputs from an uninterrupted run."""
    path = tmp_path_factory.mktemp("killed")
    rng = np.random.default_rng(5)
    n = 200_000
    y = (rng.random(n) < 0.3).astype(np.int8)
    np.savez(path / "d.npz", y=y, s=rng.normal(size=n) + y, g=rng.integers(0, 10_000, n))
    done = {}
    for name, (argv, _) in OUTPUTS.items():
        start = time.monotonic()
        proc = child(path, argv)
        assert proc.wait(300) == 0, proc.stderr.read()
        proc.stderr.close()
        done[name] = (time.monotonic() - start, outputs(path))
        for f in done[name][1]:
            os.replace(path / f, path / ("ref_" + f.replace("/", "_")))
    return path, {name: (seconds, {f: (path / ("ref_" + f.replace("/", "_"))).read_bytes()
                                   for f in files}) for name, (seconds, files) in done.items()}


def child(cwd, argv, unnamed=True, stall=0, marker="-"):
    env = child_env(INDIST_FAST_PROGRESS="0")
    return subprocess.Popen([sys.executable, "-c", CHILD, "1" if unnamed else "0",
                             str(stall), str(marker), *argv], cwd=cwd, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def outputs(path):
    """The files a command wrote under ``path`` (relative names; inputs and references
    left out), hidden ones included."""
    found = [f for f in os.listdir(path) if f != "d.npz" and not f.startswith("ref_")
             and f != "pq" and f != "started"]
    if (path / "pq").is_dir():
        found += ["pq/" + f for f in os.listdir(path / "pq")]
    return sorted(found)


def stop(proc, sig):
    proc.send_signal(sig)
    err = proc.communicate(timeout=60)[1]
    return proc.returncode, err


def check_stopped(sig, code, err, command):
    # (0: the run ended before the signal came)
    if sig == signal.SIGKILL:
        assert code in (0, -signal.SIGKILL), err
    elif code not in (0, -signal.SIGTERM):
        # (-SIGTERM: it came before the command set its handler, during the imports,
        # before any output)
        assert code == 143, err
        assert err.strip().splitlines()[-1] == f"indist-fast {command}: terminated", err
        assert "Traceback" not in err


def prepare(path, wanted):
    """Put an old file where each output goes (it must stay whole until replaced)."""
    for f in outputs(path):
        os.unlink(path / f)
    for f in wanted:
        (path / f).parent.mkdir(exist_ok=True)
        (path / f).write_bytes(OLD)


def assert_only_complete(path, wanted):
    """Every file is an output, either the old one or the new one, whole."""
    for f in outputs(path):
        assert f in wanted, f"left behind: {f}"
        assert (path / f).read_bytes() in (OLD, wanted[f]), f"{f} is not whole"


@pytest.mark.parametrize("unnamed", [True, False], ids=["O_TMPFILE", "named"])
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["TERM", "KILL"])
@pytest.mark.parametrize("name", list(OUTPUTS))
def test_killed_while_an_output_is_written(folder, name, sig, unnamed):
    path, reference = folder
    argv, stall = OUTPUTS[name]
    wanted = reference[name][1]
    prepare(path, wanted)
    marker = path / "started"
    marker.unlink(missing_ok=True)
    proc = child(path, argv, unnamed, stall, marker)
    deadline = time.monotonic() + 300
    while not marker.exists():
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    held = [h for h in held_files_in(path, proc.pid)      # (the folders are held too)
            if not h.endswith("d.npz") and not os.path.isdir(h)]
    if unnamed:     # the complete output is on disk, but nameless
        assert held and all(h.endswith("(deleted)") for h in held), held
    code, err = stop(proc, sig)
    check_stopped(sig, code, err, argv[0])
    left = [f for f in outputs(path) if os.path.basename(f).startswith(".indist-fast-")]
    if sig == signal.SIGKILL and not unnamed:
        # only without unnamed files does a kill leave one; the next run removes it
        # once a minute old (and its process gone), and leaves a young one alone
        assert len(left) == 1
        temp = path / left[0]
        proc = child(temp.parent, ["demo", "--html", "next.html"])
        assert proc.wait(120) == 0, proc.stderr.read()
        proc.stderr.close()
        assert temp.exists()
        old = time.time() - 2 * whole_file.STALE_SECONDS
        os.utime(temp, (old, old))
        proc = child(temp.parent, ["demo", "--html", "next.html"])
        assert proc.wait(120) == 0, proc.stderr.read()
        proc.stderr.close()
        assert not temp.exists()
        (temp.parent / "next.html").unlink()
    else:
        assert left == []
    assert_only_complete(path, wanted)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["TERM", "KILL"])
@pytest.mark.parametrize("name", list(OUTPUTS))
def test_killed_at_several_moments_of_a_run(folder, name, sig):
    path, reference = folder
    argv = OUTPUTS[name][0]
    seconds, wanted = reference[name]
    stopped = 0
    # (a run faster than the reference may end before the later moments: earlier
    # ones are tried until one run was stopped)
    for k, fraction in enumerate((0.5, 0.8, 0.95, 0.3, 0.15)):
        if k >= 3 and stopped:
            break
        prepare(path, wanted)
        proc = child(path, argv)
        time.sleep(fraction * seconds)
        code, err = stop(proc, sig)
        check_stopped(sig, code, err, argv[0])
        assert_only_complete(path, wanted)
        stopped += code != 0
    assert stopped


def test_stale_files_of_running_processes_and_other_names_stay(tmp_path):
    """Only this writer's own pattern, a minute old, of a process gone, is removed."""
    old = time.time() - 2 * whole_file.STALE_SECONDS
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    names = {f".indist-fast-{os.getpid()}-ab.csv": True,     # a running process
             f".indist-fast-{gone.pid}-ab.csv": False,       # a killed one
             ".indist-fast-x1y2z3.png": False,              # an older version's name
             ".other-tool-1.csv": True, "keep.csv": True}
    for name in names:
        (tmp_path / name).write_text("x")
        os.utime(tmp_path / name, (old, old))
    (tmp_path / f".indist-fast-{gone.pid}-young.csv").write_text("x")   # not a minute old
    whole_file.remove_stale(str(tmp_path))
    left = set(os.listdir(tmp_path))
    assert left == {n for n, kept in names.items() if kept} | {
        f".indist-fast-{gone.pid}-young.csv"}
