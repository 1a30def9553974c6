"""plot.over_time: a line per metric holding the table's numbers, bands from its
intervals, the drifted periods ringed, and bad arguments named before a figure opens."""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import indist_fast  # noqa: E402
from indist_fast import plot  # noqa: E402

from test_plot import check_png, raises_without_a_figure  # noqa: E402

rng = np.random.default_rng(4)
T = np.datetime64("2024-05-01") + rng.integers(0, 6 * 86400, 6000).astype("timedelta64[s]")
Y = rng.integers(0, 2, 6000)
S = Y * np.where(T >= np.datetime64("2024-05-05"), 0.2, 1.5) + rng.normal(size=6000)
TABLE = indist_fast.over_time(Y, S, T, reference=("2024-05-01", "2024-05-03"), n_boot=40)


def test_renders_the_tables_numbers(tmp_path):
    ax = plot.over_time(TABLE)
    lines = {ln.get_label(): ln for ln in ax.get_lines()}
    auc, precision = lines["AUC"], lines["C(r_b)"]
    np.testing.assert_array_equal(auc.get_ydata(), TABLE.columns["auc"])
    np.testing.assert_array_equal(precision.get_ydata(), TABLE.columns["precision"])
    labels = [text.get_text() for text in ax.get_legend().get_texts()]
    assert labels == ["AUC", "C(r_b)", "drift flagged", "reference periods"]
    check_png(ax.figure, tmp_path / "over_time.png")


def test_bands_are_the_intervals_and_rings_the_flags():
    ax = plot.over_time(TABLE, metrics="auc")
    band, = ax.collections
    top = band.get_paths()[0].vertices[:, 1]
    assert np.isclose(top.max(), np.nanmax(TABLE.columns["auc_high"]))
    rings = [ln for ln in ax.get_lines() if str(ln.get_gid()).endswith("drift_point")]
    assert len(rings[0].get_ydata()) == int(TABLE.columns["drift_auc"].sum()) >= 2
    plt.close("all")
    # without bootstrap intervals the AUC's band is DeLong's
    plain = indist_fast.over_time(Y, S, T)
    ax = plot.over_time(plain, metrics=["auc", "base_rate"])
    assert len(ax.collections) == 1
    top = ax.collections[0].get_paths()[0].vertices[:, 1]
    want = plain.columns["auc"] + 1.959963984540054 * plain.columns["auc_std_error"]
    assert np.isclose(top.max(), want.max())
    assert not plot.over_time(plain, bands=False).collections
    plt.close("all")


@pytest.mark.parametrize("kwargs, error, match", [
    ({"table": indist_fast.evaluate_many([0, 1, 0, 1], [.1, .9, .2, .8], groups=[1, 1, 2, 2])},
     TypeError, "table must be"),
    ({"table": "x"}, TypeError, "table must be"),
    ({"metrics": "threshold"}, ValueError, "metrics"),
    ({"metrics": []}, ValueError, "metrics"),
    ({"ax": 3}, TypeError, "ax must be"),
    ({"bands": "yes"}, TypeError, "bands"),
])
def test_bad_arguments_are_named(kwargs, error, match):
    args = {"table": TABLE, **kwargs}
    table = args.pop("table")
    raises_without_a_figure(error, match, plot.over_time, table, **args)
