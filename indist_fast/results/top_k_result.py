"""Precision, recall and lift among the highest-scored rows, as a record (``TopK``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .report import record_dict

__all__ = ["TopK"]


@dataclass(frozen=True)
class TopK:
    """The rows with the ``k`` highest scores, as if they were labelled positive.

    Attributes
    ----------
    k : int or float
        As asked: a number of rows (int) or a share of them (float in (0, 1]).
    size : float
        The rows taken: ``k``, or ``k`` times the rows for a share (with weights, the
        weight taken: a row of weight 3 counts as three rows).
    threshold : float
        The score at the cut: every row scored above it is taken, and rows scored at
        it are taken in part when the cut falls inside their tie.
    tie_share : float
        The share of the rows tied at ``threshold`` that is taken (1 when the cut
        falls between two distinct scores).
    tp : float
        Positive rows among those taken: the expected count over the orders of the
        rows tied at the cut, which contribute their positive share pro rata.
    precision : float
        ``tp / size``: precision at k.
    recall : float
        ``tp / W_P``: recall at k.
    lift : float
        ``precision / base_rate``: how many times the base rate.
    base_rate : float
        ``W_P / W``, the precision of taking ``size`` rows at random.

    Examples
    --------
    >>> import indist_fast
    >>> top = indist_fast.top_k([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9], 2)
    >>> top.precision, top.recall, top.lift, top.threshold
    (1.0, 0.6666666666666666, 2.0, 0.8)
    """

    k: Any
    size: float
    threshold: float
    tie_share: float
    tp: float
    precision: float
    recall: float
    lift: float
    base_rate: float

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types.

        Returns
        -------
        dict
            Field name to value.

        Examples
        --------
        >>> import indist_fast
        >>> d = indist_fast.top_k([0, 1, 1, 0], [0.2, 0.7, 0.5, 0.1], 0.5).to_dict()
        >>> d["size"], d["precision"], d["recall"]
        (2.0, 1.0, 1.0)
        """
        return record_dict(self)

    def __str__(self) -> str:
        return (f"top {self.size:g} rows (scores >= {self.threshold:.6g}): precision "
                f"{self.precision:.4g}, recall {self.recall:.4g}, lift {self.lift:.4g} "
                f"(base rate {self.base_rate:.4g})")
