"""The gains and lift charts render to PNG (size and non-blank pixels checked), draw
the record's numbers, overlay models with their own colors and reference lines once,
and refuse what is not a ``GainsTable`` by name."""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import indist_fast  # noqa: E402
from indist_fast import plot  # noqa: E402

from test_plot import check_png  # noqa: E402

rng = np.random.default_rng(12)
Y = rng.random(3000) < 0.3
P = np.clip(0.35 * Y + 0.65 * rng.random(3000), 0, 1)
G = indist_fast.gains(Y, P)
NOISE = indist_fast.gains(Y, rng.random(3000))


@pytest.mark.parametrize("name", ["gains", "lift"])
def test_each_chart_renders(name, tmp_path):
    ax = getattr(plot, name)(G)
    assert isinstance(ax, matplotlib.axes.Axes)
    check_png(ax.figure, tmp_path / f"{name}.png")


def test_gains_draws_the_cumulative_capture_and_the_references():
    ax = plot.gains(G, label="model")
    line = ax.get_lines()[0]
    np.testing.assert_array_equal(line.get_xdata(), np.r_[0.0, G["cumulative_share"]])
    np.testing.assert_array_equal(line.get_ydata(), np.r_[0.0, G["cumulative_capture"]])
    perfect = [ln for ln in ax.get_lines() if ln.get_label() == "perfect model"][0]
    assert perfect.get_xdata()[1] == pytest.approx(Y.mean())
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "model", "perfect model", "random"]
    plt.close("all")


def test_overlay_by_mapping_and_by_calls():
    ax = plot.gains({"signal": G, "noise": NOISE})
    colors = {ln.get_label(): ln.get_color() for ln in ax.get_lines()}
    assert colors["signal"] != colors["noise"]
    plot.gains(G, ax=ax, label="again")
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts.count("random") == 1 and texts.count("perfect model") == 1
    models = [ln for ln in ax.get_lines() if ln.get_label() in ("signal", "noise", "again")]
    assert len({ln.get_color() for ln in models}) == 3
    plt.close("all")


def test_lift_cumulative_and_per_bin():
    ax = plot.lift({"signal": G, "noise": NOISE})
    np.testing.assert_array_equal(ax.get_lines()[0].get_ydata(), G["cumulative_lift"])
    assert ax.get_ylim()[1] >= G["cumulative_lift"].max()
    plt.close("all")
    ax = plot.lift(G, cumulative=False)
    steps = [p for p in ax.patches]
    assert len(steps) == 1
    np.testing.assert_array_equal(steps[0].get_data().values, G["lift"])
    plt.close("all")


def test_bad_arguments_are_named():
    y, s = [0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3]
    with pytest.raises(TypeError, match="tables must be a GainsTable"):
        plot.gains((y, s))
    with pytest.raises(TypeError, match=r"tables\['b'\] must be a GainsTable"):
        plot.lift({"a": G, "b": 3})
    with pytest.raises(TypeError, match="label must be None"):
        plot.gains({"a": G}, label="x")
    with pytest.raises(TypeError, match="cumulative"):
        plot.lift(G, cumulative="yes")
    with pytest.raises(TypeError, match="ax must be"):
        plot.gains(G, ax=3)
    assert plt.get_fignums() == []          # nothing opened for a refused call
