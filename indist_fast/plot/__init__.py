"""The paper's figures for your scores (matplotlib, an optional dependency).

Every function draws on ``ax`` (a new figure when None) and returns the ``Axes``;
``report_sheet`` and ``nine_panels`` return the ``Figure``. Each takes labels and
scores, or a ``ScoreTable`` in their place (``y_score=None``), which is how the sheet
sorts once for all its panels. Long curves are thinned to at most ``max_points``
points for drawing (keeping the corners of the ROC convex hull); the numbers behind
them stay exact.

``roc``, ``pr`` and ``b_curve`` compare models: pass a mapping of model name to scores
(``roc(y, {"a": score_a, "b": score_b})``), or call them again on the same ``ax`` with
``label=`` and ``color=``. Either way the legend names each model, and the reference
lines (chance diagonal, base rate, the 0.4 - 0.6 band) are drawn once per ``Axes``.

Models take the colours of ``PALETTE`` (Okabe and Ito's colour-blind-safe palette, as
the HTML report does), in order, skipping colours already on the ``Axes``; after its
five colours they come round again dashed. r_b is marked in ``R_B_COLOR``, a colour
no model takes.
"""

from ._curve_figures import (b_curve, b_split, c_tpr_fpr_vs_b, cost_curves, pr, roc,
                             scores_by_class, signal_curves)
from ._drawing import LOG_COUNTS_BELOW as LOG_COUNTS_BELOW
from ._drawing import PALETTE as PALETTE
from ._drawing import R_B_COLOR as R_B_COLOR
from ._drawing import log_counts as log_counts
from ._gains_charts import gains, lift
from ._over_time_figure import over_time
from ._reliability_diagram import ReliabilityAxes, reliability
from ._sheet_figures import nine_panels, report_sheet

__all__ = ["scores_by_class", "roc", "pr", "b_curve", "c_tpr_fpr_vs_b", "b_split",
           "cost_curves", "signal_curves", "report_sheet", "nine_panels", "reliability",
           "ReliabilityAxes", "gains", "lift", "over_time"]
