"""How the figures are laid out: histogram legends cover no bar, the sheet's panels (PR
among them) span their data, the nine panels share one legend outside them."""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import indist_fast  # noqa: E402
import indist_fast.metrics.threshold_choice as tc  # noqa: E402
from indist_fast import plot  # noqa: E402
from indist_fast.datasets import nine_datasets  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def overlap(a, b):
    return (max(0.0, min(a.x1, b.x1) - max(a.x0, b.x0))
            * max(0.0, min(a.y1, b.y1) - max(a.y0, b.y0)))


def covered(ax):
    """The area (square pixels) of bars and lines under the Axes' legend, once drawn."""
    ax.figure.canvas.draw()
    box = ax.get_legend().get_window_extent()
    bars = [p.get_window_extent() for p in ax.patches if p.get_height() > 0]
    lines = [ln.get_window_extent().padded(2) for ln in ax.get_lines() if len(ln.get_xdata())]
    assert bars
    return sum(overlap(box, b) for b in bars + lines)


def histogram_cases():
    r = np.random.default_rng(21)
    n = 6000
    y = r.random(n) < 0.5
    rare = r.random(n) < 0.04
    return {
        "flat": (y, r.random(n)),                       # bars fill every corner
        "tall left": (y, r.exponential(1, n) + y),
        "tall right": (y, -r.exponential(1, n) - y),
        "two humps": (y, np.where(r.random(n) < 0.5, -3, 3) + r.normal(size=n) + y),
        "rare positives, log": (rare, r.normal(size=n) + 2 * rare),
        "twelve rows": (np.array([0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0]),
                        np.array([.1, .9, .35, .8, .4, .2, .7, .6, .05, .3, .45, .5])),
    }


@pytest.mark.parametrize("case", list(histogram_cases()))
@pytest.mark.parametrize("log", [None, False, True])
def test_the_histogram_legend_covers_no_bar(case, log):
    y, s = histogram_cases()[case]
    ax = plot.scores_by_class(y, s, log=log)
    assert covered(ax) == 0
    # the bars stay whole: the count axis grew, it did not cut them
    tallest = max(p.get_y() + p.get_height() for p in ax.patches)
    assert ax.get_ylim()[1] >= tallest


@pytest.mark.slow
def test_the_sheet_has_a_pr_panel_and_its_axes_span_the_data():
    r = np.random.default_rng(22)
    n = 20_000
    y = r.random(n) < 0.04
    p = 1 / (1 + np.exp(-(r.normal(size=n) + 1.8 * y - 3.5)))
    fig = plot.report_sheet(y, p)
    panels = {ax.get_xlabel(): ax for ax in fig.axes}
    assert len(fig.axes) == 7
    pr = panels["recall (true positive rate)"]
    assert pr.get_legend().get_texts()[0].get_text() == \
        f"AP = {indist_fast.evaluate(y, p).average_precision:.4f}"
    cost = panels["cost proportion c"]
    cc = tc.cost_curves(y, p)
    top = max(cc.envelope_loss.max(), cc.brier(np.linspace(0, 1, 201)).max())
    assert top < 0.1                                      # losses are small here...
    assert cost.get_ylim() == pytest.approx((0, 1.15 * top))      # ...and so is the axis
    assert covered(panels["score"]) == 0                  # after the layout too


def test_cost_curves_axis_spans_the_losses():
    r = np.random.default_rng(23)
    y = r.random(3000) < 0.5
    s = r.normal(size=3000) + y                           # not probabilities: no Brier curve
    ax = plot.cost_curves(y, s)
    top = tc.cost_curves(y, s).envelope_loss.max()
    assert ax.get_ylim() == pytest.approx((0, 1.15 * top))


@pytest.mark.slow
def test_nine_panels_share_one_legend_outside_them():
    fig = plot.nine_panels(nine_datasets(seed=0))
    fig.canvas.draw()
    shown = [ax for ax in fig.axes if ax.get_visible()]
    assert len(shown) == 9 and all(ax.get_legend() is None for ax in shown)
    legend, = fig.legends
    box = legend.get_window_extent()
    assert all(overlap(box, ax.get_tightbbox()) == 0 for ax in shown)
    assert [t.get_text() for t in legend.get_texts()][:2] == ["negatives", "positives"]
    # a panel whose rarer class is under 10% of the rows counts on a log axis, and says so
    for ax, (y, _) in zip(shown, nine_datasets(seed=0).values()):
        rare = bool(min(np.mean(y), 1 - np.mean(y)) < 0.1)
        assert (ax.get_yscale() == "log") is rare
        assert ax.get_title().endswith("(log counts)") is rare
