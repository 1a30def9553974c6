"""plot.roc(..., band=True): each model's curve shaded with its ci_bands sensitivity
band (the polygon is the band's low and high over the specificity grid)."""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import indist_fast  # noqa: E402
from indist_fast import plot  # noqa: E402

rng = np.random.default_rng(5)
Y = rng.random(400) < 0.4
A = rng.normal(size=400) + 1.2 * Y
B = rng.normal(size=400) + 0.5 * Y


def test_band_is_ci_bands_of_each_model():
    ax = plot.roc(Y, {"a": A, "b": B}, band=True, n_boot=100, seed=3)
    bands = ax.collections
    assert len(bands) == 2
    grid = np.linspace(0, 1, 101)
    for poly, scores in zip(bands, (A, B)):
        se = indist_fast.ci_bands(Y, scores, specificities=grid, n_boot=100,
                                  seed=3).sensitivity
        vertices = poly.get_paths()[0].vertices
        for x, low, high in zip(1 - grid, se.low, se.high):
            ys = vertices[np.isclose(vertices[:, 0], x), 1]
            assert ys.min() == pytest.approx(low) and ys.max() == pytest.approx(high)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "a (95% band)" in texts and "b (95% band)" in texts
    plt.close("all")


def test_band_takes_the_curve_colour():
    ax = plot.roc(Y, A, band=True, n_boot=20, color="tab:red")
    line_colour = matplotlib.colors.to_rgb(ax.get_lines()[0].get_color())
    assert matplotlib.colors.to_rgb(ax.collections[0].get_facecolor()[0][:3]) == line_colour
    plt.close("all")


def test_no_band_by_default():
    ax = plot.roc(Y, A)
    assert len(ax.collections) == 0 or all(c.get_label() != "95% band"
                                           for c in ax.collections)
    plt.close("all")


@pytest.mark.parametrize("kwargs,error,match", [
    ({"n_boot": 1}, ValueError, "n_boot"),
    ({"confidence": 2}, ValueError, "confidence"),
    ({"seed": -3}, ValueError, "seed"),
    ({"band": "yes"}, TypeError, "band"),
])
def test_bad_band_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        plot.roc(Y, A, **{"band": True, **kwargs})
    plt.close("all")


def test_band_needs_rows():
    table = indist_fast.ScoreTable.from_arrays(Y, A) if hasattr(
        indist_fast.ScoreTable, "from_arrays") else None
    if table is None:
        from indist_fast._core.validation import prepare_rows
        table = indist_fast.ScoreTable.from_rows(prepare_rows(Y, A))
    with pytest.raises(TypeError, match="band=True"):
        plot.roc(table, band=True)
    plt.close("all")
