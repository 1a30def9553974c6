"""Several classes: multiclass ROC AUC (one-vs-rest and Hand and Till's one-vs-one),
per-class reports and top-k accuracy, each from one sort per class column.

Labels are coded once (the sorted distinct labels of ``y_true``, or ``labels=`` in the
columns' order) and every class's column is sorted once; one-vs-one reads the pair
counts of every class against the column's class from that one sort.
"""

from ._reports import MACRO_FIELDS, evaluate
from ._roc_auc import roc_auc
from ._top_k import top_k_accuracy

__all__ = ["roc_auc", "evaluate", "top_k_accuracy", "MACRO_FIELDS"]
