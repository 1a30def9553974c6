"""indist_fast: exact, fast evaluation of binary classifiers from prediction logs.

One sort, then prefix sums: the distinct scores with their positive and negative
weight (``ScoreTable``) give AUC, average precision, every curve, and the precision
at the indistinguishability threshold C(r_b).
"""

from ._core.engine import backend
from .errors import IndistFastWarning, LevelNotReachedWarning, UndefinedBWarning
from .metrics import (average_precision, curves, evaluate, indistinguishability_threshold,
                      precision_at_indistinguishability, roc_auc)
from .results import Curves, OperatingPoint, Report
from .inference.bootstrap import BootstrapResult, Interval, bootstrap
from .inference.delong import DeLongResult, DeLongTest, delong, delong_test, hanley_mcneil_se
from .inference import pairs as sampling
from .io.streaming import Accumulator
from .io.files import evaluate_file
from .distributed import dask
from .table import ScoreTable
from . import datasets

__version__ = "0.1.0"

__all__ = [
    "backend", "evaluate", "curves", "roc_auc", "average_precision",
    "indistinguishability_threshold", "precision_at_indistinguishability",
    "ScoreTable", "Report", "OperatingPoint", "Curves",
    "bootstrap", "BootstrapResult", "Interval",
    "Accumulator", "evaluate_file", "dask", "datasets",
    "delong", "delong_test", "hanley_mcneil_se", "DeLongResult", "DeLongTest", "sampling",
    "IndistFastWarning", "LevelNotReachedWarning", "UndefinedBWarning",
]
