"""plot.reliability: the diagram renders, draws the record's own numbers, overlays
models in the palette's colours, and names bad arguments before a figure opens."""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

import indist_fast  # noqa: E402
from indist_fast import plot  # noqa: E402

from test_plot import check_png, raises_without_a_figure  # noqa: E402

rng = np.random.default_rng(12)
P = rng.beta(2, 3, 4000)
Y = rng.random(4000) < P
CAL = indist_fast.calibration(Y, P, n_bins=12)
SHARP = indist_fast.calibration(Y, np.clip(P**0.5, 0, 1), n_bins=12, strategy="quantile")


def test_reliability_renders_with_its_histogram(tmp_path):
    axes = plot.reliability(CAL, label="m")
    assert axes.histogram is not None and axes.curve.figure is axes.histogram.figure
    assert axes.histogram.get_shared_x_axes().joined(axes.curve, axes.histogram)
    check_png(axes.curve.figure, tmp_path / "reliability.png")


def test_the_curve_and_bars_are_the_records_numbers():
    axes = plot.reliability(CAL)
    line = axes.curve.get_lines()[0]
    np.testing.assert_array_equal(line.get_xdata(), CAL.prob_pred)
    np.testing.assert_array_equal(line.get_ydata(), CAL.prob_true)
    assert line.get_label() == f"ECE = {CAL.ece:.3f}"
    stairs, = axes.histogram.patches
    values, edges = stairs.get_data()[:2]
    np.testing.assert_array_equal(edges, CAL.edges)
    np.testing.assert_allclose(values[CAL.bin], CAL.weight / CAL.weight.sum())
    assert values.sum() == pytest.approx(1.0)
    plt.close("all")


def test_models_overlay_in_the_palette_and_name_the_legend():
    axes = plot.reliability({"a": CAL, "b": SHARP})
    lines = [ln for ln in axes.curve.get_lines() if ln.get_label() != "perfectly calibrated"]
    assert [to_hex(ln.get_color()) for ln in lines] == [c.lower() for c in plot.PALETTE[:2]]
    texts = [t.get_text() for t in axes.curve.get_legend().get_texts()]
    assert texts == [f"a (ECE = {CAL.ece:.3f})", f"b (ECE = {SHARP.ece:.3f})",
                     "perfectly calibrated"]
    # again on the same axes: the next colour, and one diagonal
    plot.reliability([CAL], ax=axes.curve, hist_ax=axes.histogram)
    lines = [ln for ln in axes.curve.get_lines() if ln.get_label() != "perfectly calibrated"]
    assert to_hex(lines[-1].get_color()) == plot.PALETTE[2].lower()
    assert sum(ln.get_label() == "perfectly calibrated"
               for ln in axes.curve.get_lines()) == 1
    plt.close("all")


def test_on_a_given_axes_the_histogram_goes_below_it(tmp_path):
    fig, ax = plt.subplots()
    axes = plot.reliability(CAL, ax=ax)
    assert axes.curve is ax and axes.histogram in fig.axes and len(fig.axes) == 2
    fig.canvas.draw()                       # the divider places both axes when drawn
    assert axes.histogram.get_position(original=False).y1 <= \
        ax.get_position(original=False).y0 + 1e-9
    check_png(fig, tmp_path / "given.png")
    axes = plot.reliability(CAL, hist=False)
    assert axes.histogram is None and len(axes.curve.figure.axes) == 1
    plt.close("all")


@pytest.mark.parametrize("kwargs, error, match", [
    ({"calibration": "x"}, TypeError, "calibration must be a Calibration"),
    ({"calibration": []}, TypeError, "calibration must be a Calibration"),
    ({"calibration": {"a": CAL, "b": 3}}, TypeError, "holding Calibration, int"),
    ({"calibration": indist_fast.evaluate(Y, P)}, TypeError, "got Report"),
    ({"calibration": CAL, "ax": 5}, TypeError, "ax must be a matplotlib Axes"),
    ({"calibration": CAL, "hist_ax": "x"}, TypeError, "ax must be a matplotlib Axes"),
    ({"calibration": CAL, "hist": 1}, TypeError, "hist must be True or False"),
    ({"calibration": CAL, "label": 3}, TypeError, "label must be a str"),
    ({"calibration": {"a": CAL}, "label": "x"}, TypeError, "label must be None"),
])
def test_bad_arguments_are_named_before_a_figure_opens(kwargs, error, match):
    raises_without_a_figure(error, match, plot.reliability, **kwargs)
