"""Three classifiers' probabilities on one test set: the reliability diagram with the
histogram of predicted probabilities below it, and each model's calibration numbers.

Run from the repository root (needs matplotlib and scikit-learn; ``PYTHONPATH=.`` when
the package is built in place rather than installed)::

    python examples/reliability_diagram.py          # writes docs/calibration_reliability.png
    python examples/reliability_diagram.py --out /tmp/fig.png

Logistic regression is close to calibrated; Gaussian naive Bayes, whose features are
not independent here, pushes its probabilities to 0 and 1 (calibration slope well
below 1); a linear SVM's decision values squashed by a fixed sigmoid are too timid
(slope above 1).
"""

from __future__ import annotations

import argparse
import os

import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402
from sklearn.datasets import make_classification  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.svm import LinearSVC  # noqa: E402

import indist_fast  # noqa: E402
from indist_fast import plot  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, os.pardir, "docs", "calibration_reliability.png")


def probabilities(seed: int = 0) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Test labels and each model's probability of the positive class."""
    X, y = make_classification(n_samples=40_000, n_features=20, n_informative=4,
                               n_redundant=8, random_state=seed)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5,
                                                        random_state=seed)
    svm = LinearSVC(C=1.0, random_state=seed).fit(X_train, y_train)
    return y_test, {
        "logistic regression": LogisticRegression().fit(X_train, y_train)
        .predict_proba(X_test)[:, 1],
        "naive Bayes": GaussianNB().fit(X_train, y_train).predict_proba(X_test)[:, 1],
        "SVM, sigmoid of the margin": 1 / (1 + np.exp(-svm.decision_function(X_test))),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=DEFAULT_OUT, help="PNG to write")
    args = parser.parse_args()
    y, models = probabilities()
    cals = {name: indist_fast.calibration(y, p, n_bins=10) for name, p in models.items()}
    for name, cal in cals.items():
        print(f"{name}: ECE {cal.ece:.3f}  Brier {cal.brier:.3f}  log loss {cal.log_loss:.3f}"
              f"  slope {cal.slope:.2f}  intercept {cal.intercept:.2f}")
    axes = plot.reliability(cals)
    axes.curve.set_title(f"Reliability, {len(y):,} test rows, 10 uniform bins")
    axes.curve.figure.tight_layout()
    axes.curve.figure.savefig(args.out, dpi=90)
    print(f"figure: {os.path.normpath(args.out)}")


if __name__ == "__main__":
    main()
