"""Is ``multiclass.roc_auc`` at least 20x faster than scikit-learn's multiclass
``roc_auc_score``, one-vs-rest and one-vs-one, at 1e6 rows x 10 classes?

    python benchmarks/studies/multiclass.py [--rows 1e6] [--classes 10] [--repeat 5]
                                            [--ties]

Each repeat times scikit-learn then ``indist_fast.multiclass.roc_auc`` back to back on
the same inputs (``_timing.paired_ratio``), so both see the same load of a shared
machine; a row reports the median times and the median over repeats of

    ratio = t(roc_auc_score(y, p, multi_class=m)) / t(multiclass.roc_auc(y, p, multi_class=m))

(target: >= 20 for both ``m``; macro average). Also timed, as a floor of what one sort
per class column costs: ``np.sort`` of every class column (copied, contiguous). The
inputs are built once, seeded: labels uniform over the classes, scores a softmax-like
row of uniform noise with the true class lifted (continuous: no ties; ``--ties``
rounds them to 3 decimals, so the one-vs-one pair counts take their tie path).
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from _timing import paired_ratio, seconds  # noqa: E402
from compare_defaults import cpu_name  # noqa: E402

from indist_fast import backend, multiclass  # noqa: E402


def rows(n: int, k: int, ties: bool, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    p = rng.random((n, k)) + 0.3 * np.eye(k)[y]
    if ties:
        p = np.round(p, 3)
    return y, p / p.sum(axis=1, keepdims=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=float, default=1e6)
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--ties", action="store_true")
    args = parser.parse_args()
    from sklearn.metrics import roc_auc_score
    n, k = int(args.rows), args.classes
    y, p = rows(n, k, args.ties)
    print(f"{n:,} rows x {k} classes{' (scores to 3 decimals)' if args.ties else ''}, "
          f"backend {backend()}, {cpu_name()}, {os.cpu_count()} cores")
    sorts = float(np.median([seconds(lambda: [np.sort(p[:, c]) for c in range(k)])
                             for _ in range(args.repeat)]))
    for m in ("ovr", "ovo"):
        ours = multiclass.roc_auc(y, p, multi_class=m)
        theirs = roc_auc_score(y, p, multi_class=m)
        assert abs(ours - theirs) <= 1e-12, (m, ours, theirs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ratio, t_ours, t_sk = paired_ratio(
                lambda: multiclass.roc_auc(y, p, multi_class=m),
                lambda: roc_auc_score(y, p, multi_class=m), args.repeat)
        print(f"{m}: scikit-learn {t_sk * 1e3:8.1f} ms, multiclass.roc_auc "
              f"{t_ours * 1e3:6.1f} ms ({t_ours / sorts:.1f}x np.sort of the {k} columns): "
              f"ratio {ratio:.1f}x (median of {args.repeat})")


if __name__ == "__main__":
    main()
