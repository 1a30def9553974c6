"""Run the cases in worker processes with a per-case timeout; restart a worker that
dies (crash) or does not answer in time (hang)."""

from __future__ import annotations

import collections
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from typing import Any, Iterable

import numpy as np

from .worker import ROOT

OK = ("ok-result", "ok-error")
BAD = ("wrong-result", "valid-input-rejected", "wrong-exception", "error-not-naming",
       "silent-acceptance", "input-mutated", "crash", "hang", "harness-error")
TIMEOUT = 5.0          # seconds per case (both backends and the check)
SLOW_TIMEOUT = 20.0    # plots, CLI processes
START_TIMEOUT = 120.0


class _Worker:
    def __init__(self, tmp: str, log: str) -> None:
        env = dict(os.environ, PYTHONHASHSEED="0", MPLBACKEND="Agg", OMP_NUM_THREADS="1",
                   OPENBLAS_NUM_THREADS="1", INDIST_FAST_BACKEND="")
        self.log_path = log
        self.log = open(log, "ab")
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.fuzz.worker", tmp],
                                     cwd=ROOT, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.log, text=True,
                                     bufsize=1)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        ready = self.lines.get(timeout=START_TIMEOUT)
        if ready is None or "ready" not in json.loads(ready):
            raise RuntimeError(f"fuzz worker failed to start: {self.tail()}")

    def _read(self) -> None:
        assert self.proc.stdout is not None
        try:
            for line in self.proc.stdout:
                self.lines.put(line)
        except (ValueError, OSError):       # the pipe was closed under us
            pass
        self.lines.put(None)

    def tail(self, n: int = 400) -> str:
        if not self.log.closed:
            self.log.flush()
        try:
            with open(self.log_path, "rb") as fh:
                fh.seek(max(0, os.path.getsize(self.log_path) - n))
                return " ".join(fh.read().decode("utf-8", "replace").split())
        except OSError:
            return ""

    def run(self, cid: str, timeout: float) -> dict[str, Any] | None:
        """The case's result; None when the worker died or hung (it is then dead)."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(cid + "\n")
            self.proc.stdin.flush()
            line = self.lines.get(timeout=timeout)
        except (queue.Empty, BrokenPipeError, OSError):
            line = "HANG"
        if line is None or line == "HANG":
            self.kill()
            return {"hang": line == "HANG"}
        return json.loads(line)

    def close(self) -> None:
        """End the worker normally (end of input)."""
        try:
            self._release(kill=False)
        except (OSError, subprocess.TimeoutExpired):
            self._release(kill=True)

    def kill(self) -> None:
        self._release(kill=True)

    def _release(self, kill: bool) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        if kill and self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        self.proc.wait(timeout=30)
        self.reader.join(timeout=30)
        self.proc.stdout.close()
        self.log.close()


def run(jobs: int = 2, only: Iterable[str] | None = None, tmp: str | None = None,
        progress: bool = False) -> list[dict[str, Any]]:
    """Every case's outcome: dicts with id, entry, expect, cls, msg, seconds."""
    from .files import write_files
    from .suite import build_cases
    own_tmp = tmp is None
    tmp = tmp or tempfile.mkdtemp(prefix="indist_fuzz_")
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")      # expectations of extreme inputs overflow
            write_files(tmp)
            cases = build_cases(tmp)
        meta = {c.id: c for c in cases}
        wanted = [c.id for c in cases if only is None or any(s in c.id for s in only)]
        # slow cases first, so the two workers finish together
        todo: queue.Queue[str] = queue.Queue()
        for cid in sorted(wanted, key=lambda i: not meta[i].slow):
            todo.put(cid)
        results: dict[str, dict[str, Any]] = {}
        lock = threading.Lock()
        # A spare worker starts in the background whenever one is taken, so a crash or
        # hang costs the timeout but not the seconds of a fresh start.
        spares: queue.Queue[_Worker | BaseException] = queue.Queue()
        counts = {"started": 0, "taken": 0}

        def start_spare() -> None:
            with lock:
                counts["started"] += 1
                log = os.path.join(tmp, f"worker{counts['started']}.log")

            def boot() -> None:
                try:
                    spares.put(_Worker(tmp, log))
                except BaseException as exc:      # surfaced to the slot that takes it
                    spares.put(exc)
            threading.Thread(target=boot, daemon=True).start()

        def take() -> _Worker:
            with lock:
                counts["taken"] += 1
            got = spares.get(timeout=2 * START_TIMEOUT)
            if isinstance(got, BaseException):
                raise got
            start_spare()
            return got

        def slot(k: int) -> None:
            worker: _Worker | None = None
            while True:
                try:
                    cid = todo.get_nowait()
                except queue.Empty:
                    break
                case = meta[cid]
                if worker is None:
                    try:
                        worker = take()
                    except Exception as exc:     # noqa: BLE001 - reported per case
                        with lock:
                            results[cid] = {"id": cid, "cls": "harness-error", "seconds": 0.0,
                                            "msg": f"worker did not start: {exc}",
                                            "entry": case.entry, "expect": case.expectation}
                        continue
                start = time.perf_counter()
                res = worker.run(cid, SLOW_TIMEOUT if case.slow else TIMEOUT)
                if res is not None and ("hang" in res):
                    hang = res["hang"]
                    msg = (f"no answer in {SLOW_TIMEOUT if case.slow else TIMEOUT:g} s" if hang
                           else "worker died: " + worker.tail())
                    res = {"id": cid, "cls": "hang" if hang else "crash", "msg": msg,
                           "seconds": round(time.perf_counter() - start, 3)}
                    worker = None
                assert res is not None
                res.update(entry=case.entry, expect=case.expectation)
                with lock:
                    results[cid] = res
                    if progress and len(results) % 250 == 0:
                        print(f"  {len(results)}/{len(wanted)} cases", file=sys.stderr)
            if worker is not None:
                worker.close()

        for _ in range(max(1, jobs)):
            start_spare()
        threads = [threading.Thread(target=slot, args=(k,)) for k in range(max(1, jobs))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for _ in range(counts["started"] - counts["taken"]):     # the unused spares
            got = spares.get(timeout=2 * START_TIMEOUT)
            if isinstance(got, _Worker):
                got.close()
        return [results[cid] for cid in wanted]
    finally:
        if own_tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def summary(results: list[dict[str, Any]]) -> str:
    """Counts by entry point and outcome class, with totals."""
    classes = [c for c in OK + BAD if any(r["cls"] == c for r in results)] or list(OK)
    counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for r in results:
        counts[r["entry"]][r["cls"]] += 1
    width = max([len("entry point")] + [len(e) for e in counts])
    head = f"{'entry point':<{width}} " + " ".join(f"{c:>{max(len(c), 5)}}" for c in classes) \
        + f" {'total':>6}"
    lines = [head, "-" * len(head)]
    for entry in sorted(counts):
        c = counts[entry]
        lines.append(f"{entry:<{width}} " + " ".join(f"{c[k]:>{max(len(k), 5)}}"
                                                     for k in classes)
                     + f" {sum(c.values()):>6}")
    total = collections.Counter(r["cls"] for r in results)
    lines.append("-" * len(head))
    lines.append(f"{'all':<{width}} " + " ".join(f"{total[k]:>{max(len(k), 5)}}"
                                                 for k in classes) + f" {len(results):>6}")
    n_bad = sum(total[k] for k in BAD)
    lines.append(f"{len(results)} cases, {n_bad} bad outcomes")
    return "\n".join(lines)


def format_bad(results: list[dict[str, Any]], examples: int | None = None) -> str:
    """Bad cases grouped by class then entry point (``examples``: at most this many
    listed per group; None lists all)."""
    groups: dict[str, dict[str, list[dict[str, Any]]]] = collections.defaultdict(
        lambda: collections.defaultdict(list))
    for r in results:
        if r["cls"] in BAD:
            groups[r["cls"]][r["entry"]].append(r)
    lines = []
    for cls in BAD:
        if cls not in groups:
            continue
        n = sum(len(v) for v in groups[cls].values())
        lines.append(f"== {cls}: {n}")
        for entry in sorted(groups[cls]):
            rs = groups[cls][entry]
            lines.append(f"  -- {entry}: {len(rs)}")
            for r in rs[: examples or len(rs)]:
                lines.append(f"     {r['id']}  [expected {r['expect']}]  {r['msg']}")
            if examples and len(rs) > examples:
                lines.append(f"     ... and {len(rs) - examples} more: "
                             + ", ".join(r["id"].split("/", 1)[-1] for r in rs[examples:]))
    return "\n".join(lines)
