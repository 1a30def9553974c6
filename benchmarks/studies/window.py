"""How fast does ``indist_fast.Window`` keep an exact AUC over a sliding window, against
river's ``RollingROCAUC`` on the same stream read the same way?

    pip install river            # the peer (not a dependency of indist_fast)
    python benchmarks/studies/window.py [--window 1e6] [--batch 1000] [--rounds 5]

Both hold the last ``--window`` rows of one stream (30% positives, float64 scores, no
ties, so both AUCs are the same number). The stream first fills both windows, then
each round feeds the next ``--batches`` batches of ``--batch`` rows to each tool in
turn (indist_fast, then river, back to back, so both see the same load):

- read after every batch: ``Window.auc()``, river's ``get()``;
- read once a round: the same after the round's last batch only;
- no reads: updates only (``Window.update`` per batch; river's ``update`` per row, its
  only way in). The window keeps the rows and leaves the rank work to the next reading
  (past the window's size held back, a rebuild from its rows), which the second mode
  pays.

Rates are rows per second over each round; the ratio is indist_fast's rate over
river's, the median over rounds. The AUCs of the two are compared after every round
(1e-9 relative).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

import indist_fast


def _river_window(size: int):
    try:
        from river import metrics
    except ImportError:
        sys.exit("river is not installed: pip install river (the peer of this study).")
    return metrics.RollingROCAUC(window_size=size)


def _reads(start: int, n: int, batch: int, every: int) -> bool:
    """Whether the AUC is read after the batch at ``start`` (every ``every`` batches and
    after the last; never when ``every`` is 0)."""
    return every > 0 and ((start // batch + 1) % every == 0 or start + batch >= n)


def _feed_river(metric, y: np.ndarray, s: np.ndarray, batch: int, every: int) -> float:
    """Rows per batch one at a time (river's interface), the AUC read as asked."""
    auc = float("nan")
    yl, sl = y.tolist(), s.tolist()
    for start in range(0, len(yl), batch):
        for yi, si in zip(yl[start:start + batch], sl[start:start + batch]):
            metric.update(yi, si)
        if _reads(start, len(yl), batch, every):
            auc = metric.get()
    return auc


def _feed_window(window, y: np.ndarray, s: np.ndarray, batch: int, every: int) -> float:
    auc = float("nan")
    for start in range(0, len(y), batch):
        window.update(y[start:start + batch], s[start:start + batch])
        if _reads(start, len(y), batch, every):
            auc = window.auc()
    return auc


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--window", type=float, default=1e6)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--batches", type=int, default=40, help="batches per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    size, batch = int(args.window), args.batch
    per_round = args.batches * batch
    total = size + 3 * args.rounds * per_round
    rng = np.random.default_rng(args.seed)
    y = (rng.random(total) < 0.3).astype(np.int64)
    s = rng.random(total)

    window = indist_fast.Window(size=size)
    river = _river_window(size)
    t0 = time.perf_counter()
    _feed_window(window, y[:size], s[:size], 10 * batch, 0)
    window.auc()
    t1 = time.perf_counter()
    _feed_river(river, y[:size], s[:size], size, 0)
    t2 = time.perf_counter()
    print(f"indist_fast {indist_fast.__version__} ({indist_fast.backend()}); window "
          f"{size:.0e} rows, batches of {batch}, {args.batches} batches a round, "
          f"{args.rounds} rounds")
    print(f"fill ({size:.0e} rows): indist_fast {size / (t1 - t0):.3g} rows/s (batches of "
          f"{10 * batch}), river {size / (t2 - t1):.3g} rows/s")

    at = size
    modes = (("AUC after every batch", 1), ("AUC once a round", args.batches),
             ("updates only, no reads", 0))
    for label, every in modes:
        ours, theirs = [], []
        for _ in range(args.rounds):
            ys, ss = y[at:at + per_round], s[at:at + per_round]
            at += per_round
            a = time.perf_counter()
            auc_ours = _feed_window(window, ys, ss, batch, every)
            b = time.perf_counter()
            auc_theirs = _feed_river(river, ys, ss, batch, every)
            c = time.perf_counter()
            ours.append(per_round / (b - a))
            theirs.append(per_round / (c - b))
            if every and abs(auc_ours - auc_theirs) > 1e-9 * abs(auc_theirs):
                sys.exit(f"AUCs differ: indist_fast {auc_ours!r}, river {auc_theirs!r}")
        ratio = statistics.median(o / t for o, t in zip(ours, theirs))
        print(f"{label:24s}: indist_fast {statistics.median(ours):.3g} rows/s, river "
              f"{statistics.median(theirs):.3g} rows/s, ratio {ratio:.1f}x (median of "
              f"{args.rounds} paired rounds)")
    window.auc()
    print(f"indist_fast window holds {window.nbytes / window.n_rows:.0f} bytes per row")


if __name__ == "__main__":
    main()
