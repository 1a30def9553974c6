"""Paired A/B of two builds of the kernels in one process, as ratios to ``np.sort``.

    python benchmarks/studies/ab_builds.py A/ B/ summarize 1e6 1e7   [F32=1] [W=1] [REP=11]
    python benchmarks/studies/ab_builds.py A/ B/ small 1e3 1e5       (probabilities, logits)
    python benchmarks/studies/ab_builds.py A/ B/ sort_buckets 1e7    (2,048 buckets of keys)

``A/`` and ``B/`` are folders, each holding copies of every compiled module of one
build, ``indist_fast/_core/_*.so`` (``cp indist_fast/_core/_*.so A/`` before
rebuilding). Both builds are loaded into this process, and ``fast.summarize`` runs on
each in turn (a copy of ``fast`` and ``fast_radix`` bound to each build's modules) with
``np.sort`` of the same scores, so the host's drift falls on both: the printed B/A is the
median of the paired ratios. Run from outside the checkout, with the package installed.

Both builds must have the installed package's modules (``KERNELS``); both use the
installed package's ``_cyutility`` (Cython's shared utility code), so build them with
the same Cython. To pair builds of
different layouts (such as the single ``_kernels`` module before the split into topics),
install each into a virtual environment of its own and alternate whole runs, A B A B,
each quoting its time against ``np.sort`` in the same process.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import statistics
import sys
import time
import types

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from _inputs import make  # noqa: E402


def load(path: str, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def build(folder: str):
    """The compiled modules of one build, from copies of its ``.so`` files in ``folder``."""
    from indist_fast._core.fast import KERNELS
    modules = {}
    for module in KERNELS:
        name = module.__name__.rpartition(".")[2]
        found = glob.glob(os.path.join(folder, f"{name}.*.so")) + glob.glob(
            os.path.join(folder, f"{name}.so"))
        if not found:
            raise SystemExit(f"{folder} has no {name}*.so")
        modules[name] = load(found[0], module.__name__)
    return types.SimpleNamespace(**modules)


def summarize(kernels: list, sizes: list[int], reps: int) -> None:
    from indist_fast._core import fast, fast_radix
    fasts = []
    for i, k in enumerate(kernels):     # copies of the drivers per build, bound to its modules
        r = load(fast_radix.__file__, f"indist_fast._core.fast_radix_{i}")
        f = load(fast.__file__, f"indist_fast._core.fast_{i}")
        for name, module in vars(k).items():
            for driver in (f, r):
                if hasattr(driver, name):
                    setattr(driver, name, module)
        f.fast_radix = r
        fasts.append(f)
    dtype = np.float32 if os.environ.get("F32") else np.float64
    weighted = bool(os.environ.get("W"))
    lv = np.array([0.5])
    for n in sizes:
        y, s, w = make(n, "weighted" if weighted else "continuous")
        s, y = s.astype(dtype), y.view(np.uint8)
        runs = [lambda f=f: f.summarize(y, s, w, 1.0, 0.0, lv, False) for f in fasts]
        assert runs[0]().auc == runs[1]().auc
        ra, rb = [], []
        for _ in range(reps):
            base = timed(lambda: np.sort(s))
            ra.append(timed(runs[0]) / base)
            rb.append(timed(runs[1]) / base)
        print(f"n={n:.0e} {np.dtype(dtype).name}{' weighted' if weighted else ''}: "
              f"A {statistics.median(ra):.3f}x B {statistics.median(rb):.3f}x np.sort; "
              f"B/A {statistics.median(np.array(rb) / np.array(ra)):.3f}", flush=True)


def small(kernels: list, sizes: list[int], reps: int) -> None:
    rng = np.random.default_rng(0)
    lv = np.array([0.5])
    for n in sizes:
        y = rng.random(n) < 0.1
        logit = rng.normal(size=n) + 1.5 * y
        for name, s in (("logits", logit), ("probabilities", 1 / (1 + np.exp(-logit)))):
            runs = [lambda k=k: k._sorted.summarize_small(y.view(np.uint8), s, 1.0, 0.0, lv, False)
                    for k in kernels]
            assert runs[0]().auc == runs[1]().auc
            loops = max(3, int(2e6 // n))
            ratios = []
            for _ in range(reps):
                a, b = (timed(lambda r=r: [r() for _ in range(loops)]) for r in runs)
                ratios.append(b / a)
            print(f"n={n:.0e} {name}: B/A {statistics.median(ratios):.3f}", flush=True)


def sort_buckets(kernels: list, sizes: list[int], reps: int) -> None:
    rng = np.random.default_rng(0)
    for n in sizes:
        nb = 2048
        x = np.sort(rng.normal(size=n))
        keys = x.view(np.uint64) ^ np.where(x < 0, np.uint64(2**64 - 1), np.uint64(2**63))
        starts = np.linspace(0, n, nb + 1).astype(np.int64)
        for b in range(nb):                 # each bucket's keys in random order
            rng.shuffle(keys[starts[b]:starts[b + 1]])
        best = [np.inf, np.inf]
        for _ in range(reps):
            out = []
            for i, k in enumerate(kernels):
                mine = keys.copy()
                best[i] = min(best[i], timed(lambda: k._radix.sort_buckets(mine, starts, 0, nb)))
                out.append(mine)
            assert (out[0] == out[1]).all()
        print(f"sort_buckets n={n:.0e} in {nb} buckets: A {best[0] / n * 1e9:.2f} "
              f"B {best[1] / n * 1e9:.2f} ns a key (best of {reps})", flush=True)


def main() -> None:
    if len(sys.argv) < 5:
        raise SystemExit(__doc__)
    kernels = [build(p) for p in sys.argv[1:3]]
    modes = {"summarize": summarize, "small": small, "sort_buckets": sort_buckets}
    sizes = [int(float(a)) for a in sys.argv[4:]]
    modes[sys.argv[3]](kernels, sizes, int(os.environ.get("REP", 11)))


if __name__ == "__main__":
    main()
