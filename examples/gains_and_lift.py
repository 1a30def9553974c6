"""Two models' gains and lift charts from their gains tables (deciles).

Run from the repository root (needs matplotlib; ``PYTHONPATH=.`` when the package is
built in place rather than installed)::

    python examples/gains_and_lift.py          # writes docs/gains_chart.png, docs/lift_chart.png
    python examples/gains_and_lift.py --out /tmp

The data are simulated at a 10% base rate: model "strong" shifts the positives' scores
by two standard deviations, model "weak" by one half. The perfect model captures every
positive in the first 10% of the rows; a random ranking captures them in proportion.
"""

from __future__ import annotations

import argparse
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import indist_fast  # noqa: E402
from indist_fast import plot  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def tables(seed: int = 0, n: int = 20_000) -> dict[str, indist_fast.GainsTable]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.1
    return {"strong": indist_fast.gains(y, rng.normal(size=n) + 2.0 * y),
            "weak": indist_fast.gains(y, rng.normal(size=n) + 0.5 * y)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(HERE, "..", "docs"),
                        help="folder for gains_chart.png and lift_chart.png")
    args = parser.parse_args()
    models = tables()
    for name, draw in (("gains_chart.png", plot.gains), ("lift_chart.png", plot.lift)):
        ax = draw(models)
        ax.figure.tight_layout()
        ax.figure.savefig(os.path.join(args.out, name), dpi=110)
        plt.close(ax.figure)


if __name__ == "__main__":
    main()
