"""The record of ``coords``: columns of coordinates, one row per point asked for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping

import numpy as np

from .report import plain_value, record_dict

__all__ = ["Coords", "COORD_NAMES", "COORD_ALIASES", "canonical_coord"]

#: Every coordinate ``coords`` returns, in pROC's order for ``ret="all"``.
COORD_NAMES = ("threshold", "sensitivity", "specificity", "accuracy", "tn", "tp", "fn",
               "fp", "npv", "ppv", "tpr", "tnr", "fpr", "fnr", "fdr",
               "one_minus_specificity", "one_minus_sensitivity", "one_minus_accuracy",
               "one_minus_npv", "one_minus_ppv", "precision", "recall", "youden",
               "closest_topleft")
#: pROC's spellings (and its abbreviations) of the coordinates whose names differ.
COORD_ALIASES = {"1-specificity": "one_minus_specificity",
                 "1-sensitivity": "one_minus_sensitivity",
                 "1-accuracy": "one_minus_accuracy", "1-npv": "one_minus_npv",
                 "1-ppv": "one_minus_ppv", "npe": "one_minus_npv", "ppe": "one_minus_ppv",
                 "closest.topleft": "closest_topleft", "topleft": "closest_topleft",
                 "t": "threshold"}


def canonical_coord(name: Any, arg: str) -> str:
    """The Python spelling of a coordinate's name (pROC's accepted); ValueError naming
    ``arg`` for an unknown one."""
    if isinstance(name, str):
        name = COORD_ALIASES.get(name, name)
        if name in COORD_NAMES:
            return str(name)
    raise ValueError(f"{arg}: unknown coordinate {name!r}; the coordinates are "
                     f"{', '.join(COORD_NAMES)} (or pROC's spellings "
                     f"{', '.join(COORD_ALIASES)}).")


@dataclass(frozen=True, eq=False)
class Coords:
    """Coordinates of ROC points, as pROC's ``coords``: one read-only column per name
    asked for (``ret``), one row per point. Index by name: ``result["specificity"]``
    (pROC's spellings such as ``"1-npv"`` or ``"closest.topleft"`` work too).

    Attributes
    ----------
    columns : Mapping[str, ndarray]
        Column name (the Python spelling) to its values.
    direction : str
        ``"higher"`` (positive where ``score >= threshold``) or ``"lower"``
        (``score <= threshold``).

    Examples
    --------
    >>> import indist_fast
    >>> c = indist_fast.coords([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], 0.35)
    >>> c["sensitivity"].tolist(), list(c)
    ([1.0], ['threshold', 'specificity', 'sensitivity'])
    """

    columns: Mapping[str, np.ndarray]
    direction: str

    def __getitem__(self, name: str) -> np.ndarray:
        return self.columns[canonical_coord(name, "name")]

    def __iter__(self) -> Iterator[str]:
        return iter(self.columns)

    def __len__(self) -> int:
        """Number of rows (points)."""
        return len(next(iter(self.columns.values()))) if self.columns else 0

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types (columns as lists, NaN as None).

        Returns
        -------
        dict
            ``columns`` (name to list) and ``direction``.

        Examples
        --------
        >>> import indist_fast
        >>> d = indist_fast.coords([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], 0.35).to_dict()
        >>> d["columns"]["specificity"], d["direction"]
        ([0.5], 'higher')
        """
        return record_dict(self, columns={k: [plain_value(v) for v in col]
                                          for k, col in self.columns.items()})

    def to_pandas(self) -> Any:
        """The columns as a ``pandas.DataFrame`` (needs pandas), one row per point.

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> import indist_fast
        >>> c = indist_fast.coords([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], "all")
        >>> c.to_pandas().shape
        (5, 3)
        """
        import pandas as pd
        return pd.DataFrame(dict(self.columns))

    def __str__(self) -> str:
        names = list(self.columns)
        rows = list(range(len(self)))
        if len(rows) > 20:
            rows = rows[:10] + [-1] + rows[-10:]
        cells = [[f"{float(self.columns[n][i]):.4g}" if i >= 0 else "..." for n in names]
                 for i in rows]
        widths = [max([len(n)] + [len(r[c]) for r in cells]) for c, n in enumerate(names)]
        lines = ["  ".join(n.rjust(w) for n, w in zip(names, widths))]
        lines += ["  ".join(v.rjust(w) for v, w in zip(r, widths)) for r in cells]
        return "\n".join(lines)
