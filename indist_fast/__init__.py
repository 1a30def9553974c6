"""indist_fast: exact, fast evaluation of binary classifiers from prediction logs.

One sort, then prefix sums: the distinct scores with their positive and negative
weight (``ScoreTable``) give AUC, average precision, every curve, and the precision
at the indistinguishability threshold C(r_b).
"""

import os as _os

from ._core.engine import backend
from .errors import (FractionalWeightsWarning, IndistFastWarning, LevelNotReachedWarning,
                     UndefinedBWarning)
from .metrics.evaluation import (average_precision, curves, evaluate, indistinguishability_threshold,
                      precision_at_indistinguishability, precision_recall_curve, roc_auc)
from .table.precision_recall import PrecisionRecallCurve
from .metrics.calibration import calibration
from .results.calibration_record import Calibration
from .results.report import Curves, OperatingPoint, Report
from .inference.bootstrap import BootstrapResult, Interval, bootstrap
from .inference.delong import DeLongResult, DeLongTest, delong, delong_test, hanley_mcneil_se
from .inference.compare import compare
from .inference.comparison_records import Comparison, Comparisons, Difference
from .inference.roc_bands import ci_bands
from .results.roc_bands_record import Band, RocBands
from .scale.streaming import Accumulator
from .scale.window import Window
from .scale.files import evaluate_file
from .scale.file_tables import score_table_file
from . import dask
from . import spark
from .table.score_table import ScoreTable
from .metrics.segments import evaluate_many
from .metrics.over_time import over_time
from .results.drift_record import Drift
from .results.report_table import ReportTable
from .metrics.confusion_counts import Confusion, confusion
from .metrics.operating_points import (OperatingPointIntervals, RateInterval,
                                       operating_point_intervals)
from .metrics.roc_dominance import Dominance, dominates
from .metrics.threshold_criteria import BestThreshold, best_threshold
from .metrics.scorecards import gains, ks, top_k
from .results.ks_result import KSResult
from .results.top_k_result import TopK
from .results.gains_table import GainsTable
from .memory import ScratchMemory, release_scratch, scratch_memory, set_scratch_limit
from . import datasets, multiclass, population
from .errors import DirectionWarning
from .metrics.smooth_roc import smooth_roc
from .results.smooth_curve import SmoothRoc
from .inference.roc_power import power_roc_test
from .results.roc_power_record import RocPower
from .inference.auc_variance import cov_auc, var_auc
from .metrics.coords import coords
from .results.coords_table import Coords

__version__ = "0.1.0"


def get_include() -> str:
    """The folder to put on Cython's include path to cimport the kernels' ``.pxd`` files.

    It is the folder that contains the ``indist_fast`` package, so that
    ``from indist_fast._core.sweep cimport Sweep, sweep_init, sweep_push`` and
    ``from indist_fast._core.types cimport score_t`` resolve. Put it on the C compiler's
    include path too (the extension's ``include_dirs``): ``sweep.pxd`` declares C that
    lives in ``indist_fast/_core/include/sweep_c.h``, which the generated C includes by
    that path. The ``.pxd`` API is
    private but versioned: it may change with any release of indist_fast, so build
    against the exact version you test with. Everything in it is ``inline``, so a
    module built from it neither links against nor imports indist_fast at run time.

    Returns
    -------
    str
        Absolute path of the folder holding ``indist_fast/_core/sweep.pxd``,
        ``indist_fast/_core/types.pxd`` and ``indist_fast/_core/include/sweep_c.h``.

    Examples
    --------
    >>> import os, indist_fast
    >>> folder = indist_fast.get_include()
    >>> os.path.isfile(os.path.join(folder, "indist_fast", "_core", "sweep.pxd"))
    True

    >>> os.path.isfile(os.path.join(folder, "indist_fast", "_core", "include", "sweep_c.h"))
    True

    In a ``setup.py``: ``Extension(..., include_dirs=[indist_fast.get_include()])`` and
    ``cythonize(extensions, include_path=[indist_fast.get_include()])``.
    """
    return _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))


__all__ = [
    "backend", "get_include", "evaluate", "evaluate_many", "ReportTable", "curves", "roc_auc", "average_precision",
    "indistinguishability_threshold", "precision_at_indistinguishability",
    "ScoreTable", "Report", "OperatingPoint", "Curves",
    "bootstrap", "BootstrapResult", "Interval",
    "Accumulator", "evaluate_file", "score_table_file", "dask", "spark", "datasets", "multiclass",
    "population",
    "delong", "delong_test", "hanley_mcneil_se", "DeLongResult", "DeLongTest",
    "compare", "Comparison", "Comparisons", "Difference",
    "IndistFastWarning", "LevelNotReachedWarning", "UndefinedBWarning",
    "FractionalWeightsWarning",
    "confusion", "Confusion", "best_threshold", "BestThreshold", "dominates", "Dominance",
    "operating_point_intervals", "OperatingPointIntervals", "RateInterval",
    "precision_recall_curve", "PrecisionRecallCurve",
    "calibration", "Calibration",
    "set_scratch_limit", "release_scratch", "scratch_memory", "ScratchMemory",
    "ks", "KSResult", "top_k", "TopK", "gains", "GainsTable",
    "Window",
    "ci_bands", "RocBands", "Band",
    "smooth_roc", "SmoothRoc", "power_roc_test", "RocPower", "var_auc", "cov_auc",
    "coords", "Coords", "DirectionWarning",
    "over_time", "Drift",
]
