"""The gains table of a ranking: bins of rows by score, highest first, with the
positives each captures and the lift over the base rate (``GainsTable``)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from .report import count_text, plain_value

__all__ = ["GainsTable", "GAINS_COLUMNS"]

#: The columns of a ``GainsTable``, in order.
GAINS_COLUMNS = ("bin", "score_high", "score_low", "weight", "positives", "negatives",
                 "share", "cumulative_share", "positive_rate", "capture",
                 "cumulative_capture", "lift", "cumulative_lift", "ks")

# The columns the text shows, with their headers.
_SHOWN = (("bin", "bin"), ("score_high", "score high"), ("score_low", "score low"),
          ("weight", "rows"), ("positives", "positives"), ("positive_rate", "rate"),
          ("cumulative_share", "cum share"), ("cumulative_capture", "cum capture"),
          ("lift", "lift"), ("cumulative_lift", "cum lift"), ("ks", "ks"))


@dataclass(frozen=True, repr=False, eq=False)
class GainsTable:
    """Bins of rows by score quantile, highest scores first (the decile "gains table"),
    with the positives each bin holds and captures.

    Attributes
    ----------
    columns : Mapping[str, ndarray]
        One entry per bin, in the order of ``GAINS_COLUMNS``:

        - ``bin``: 1 for the highest scores.
        - ``score_high``, ``score_low``: the highest and lowest score in the bin.
        - ``weight``: rows in the bin (with weights, their weight).
        - ``positives``, ``negatives``: positive and negative rows (weight) in the bin.
        - ``share``, ``cumulative_share``: the bin's share of all rows, and that of
          this and every higher bin (the share targeted down to the bin).
        - ``positive_rate``: ``positives / weight``.
        - ``capture``, ``cumulative_capture``: the share of all positives in the bin,
          and in this and every higher bin.
        - ``lift``, ``cumulative_lift``: ``positive_rate`` over the base rate, and the
          cumulative positive rate over it (``cumulative_capture / cumulative_share``).
        - ``ks``: ``tpr - fpr`` at the bin's lower edge (threshold ``score_low``): the
          KS statistic is the largest absolute value over every threshold, of which
          these are a few.
    n_bins : int
        The bins asked for; ties can leave fewer (see ``indist_fast.gains``).
    weight_pos, weight_neg : float
        The weight of each class.
    n_rows : int
        Rows the table was built from (zero-weight rows included).

    Examples
    --------
    >>> import indist_fast
    >>> g = indist_fast.gains([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9], n_bins=3)
    >>> g["cumulative_capture"].round(4).tolist(), g["lift"].tolist()
    ([0.6667, 1.0, 1.0], [2.0, 1.0, 0.0])
    """

    columns: Mapping[str, np.ndarray]
    n_bins: int
    weight_pos: float
    weight_neg: float
    n_rows: int

    def __len__(self) -> int:
        return len(self.columns["bin"])

    def __getitem__(self, name: str) -> np.ndarray:
        return self.columns[name]

    @property
    def base_rate(self) -> float:
        """``W_P / W``: the positive rate of the rows, and of a random bin."""
        return self.weight_pos / (self.weight_pos + self.weight_neg)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types: a list per column, then the table's settings.

        Returns
        -------
        dict

        Examples
        --------
        >>> import indist_fast
        >>> g = indist_fast.gains([0, 1, 1, 0], [0.2, 0.7, 0.5, 0.1], n_bins=2)
        >>> d = g.to_dict()
        >>> d["cumulative_capture"], d["n_bins"]
        ([1.0, 1.0], 2)
        """
        out: dict[str, Any] = {name: [plain_value(v) for v in col.tolist()]
                               for name, col in self.columns.items()}
        out.update(n_bins=self.n_bins, weight_pos=self.weight_pos,
                   weight_neg=self.weight_neg, n_rows=self.n_rows)
        return out

    def to_pandas(self) -> Any:
        """The bins as a ``pandas.DataFrame`` (needs pandas), one row per bin.

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> import indist_fast
        >>> g = indist_fast.gains([0, 1, 1, 0], [0.2, 0.7, 0.5, 0.1], n_bins=2)
        >>> g.to_pandas()[["bin", "lift"]].values.tolist()
        [[1.0, 2.0], [2.0, 0.0]]
        """
        import pandas as pd
        return pd.DataFrame(dict(self.columns))

    def __str__(self) -> str:
        rows = list(range(len(self)))
        if len(rows) > 20:
            rows = rows[:10] + [-1] + rows[-10:]
        table = [[_cell(name, self.columns[name][i]) if i >= 0 else "..."
                  for name, _ in _SHOWN] for i in rows]
        widths = [max([len(head)] + [len(r[c]) for r in table])
                  for c, (_, head) in enumerate(_SHOWN)]
        lines = ["  ".join(head.rjust(wd) for (_, head), wd in zip(_SHOWN, widths))]
        lines += ["  ".join(c.rjust(wd) for c, wd in zip(r, widths)) for r in table]
        lines.append(f"{len(self)} bins of {self.n_bins} asked; base rate "
                     f"{self.base_rate:.4g}; positives {count_text(self.weight_pos)} of "
                     f"{count_text(self.weight_pos + self.weight_neg)}")
        return "\n".join(lines)

    __repr__ = __str__


def _cell(name: str, value: Any) -> str:
    if name == "bin":
        return str(int(value))
    if name in ("weight", "positives"):
        return count_text(value)
    if name.startswith("score"):
        return f"{float(value):.6g}"
    return "nan" if math.isnan(value) else f"{float(value):.4f}"
