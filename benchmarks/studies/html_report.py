"""The report page of 1e7 rows: its size (budget 2 MB) and the time it takes beyond
``evaluate`` on the same rows (budget 1 s).

    python benchmarks/studies/html_report.py [n_rows]

Each timing is the best of three runs (the machine may be shared).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import warnings

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from _inputs import make  # noqa: E402

import indist_fast  # noqa: E402
from indist_fast.html import report_html  # noqa: E402


def best(fn, repeat=3):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main(n: int) -> None:
    warnings.simplefilter("ignore")
    print(f"backend {indist_fast.backend()}, {n:,} rows")
    for variant in ("continuous", "tied", "weighted"):
        y, s, w = make(n, variant)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "report.html")
            t_eval = best(lambda: indist_fast.evaluate(y, s, sample_weight=w))
            t_page = best(lambda: report_html(y, s, sample_weight=w, path=path))
            size = os.path.getsize(path)
        print(f"{variant:>10}: evaluate {t_eval:6.2f} s   report_html {t_page:6.2f} s   "
              f"beyond evaluate {t_page - t_eval:+6.2f} s (budget 1 s)   "
              f"ratio {t_page / t_eval:5.2f}   page {size / 1e6:5.2f} MB (budget 2 MB)")


if __name__ == "__main__":
    main(int(float(sys.argv[1])) if len(sys.argv) > 1 else 10_000_000)
