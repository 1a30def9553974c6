"""Every plot renders to PNG with the Agg backend (size and non-blank pixels checked)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.image as mpimg  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

import indist_fast  # noqa: E402
from indist_fast import plot  # noqa: E402
from indist_fast.datasets import nine_datasets  # noqa: E402

rng = np.random.default_rng(11)
Y = rng.random(3000) < 0.3
P = np.clip(0.35 * Y + 0.65 * rng.random(3000), 0, 1)


def check_png(fig, path, min_size=(200, 200)):
    fig.savefig(path, dpi=60)
    plt.close(fig)
    img = mpimg.imread(path)
    assert img.shape[0] >= min_size[0] and img.shape[1] >= min_size[1]
    rgb = img[..., :3]
    # not blank: many distinct colours, and a good share of non-white pixels
    assert len(np.unique(rgb.reshape(-1, 3), axis=0)) > 20
    assert np.mean(rgb.min(axis=-1) < 0.95) > 0.02


@pytest.mark.parametrize("name", ["scores_by_class", "roc", "b_curve", "c_tpr_fpr_vs_b",
                                  "b_split", "cost_curves"])
def test_each_plot_renders(name, tmp_path):
    ax = getattr(plot, name)(Y, P)
    assert isinstance(ax, matplotlib.axes.Axes)
    check_png(ax.figure, tmp_path / f"{name}.png")


def test_signal_curves_plot(tmp_path):
    pytest.importorskip("scipy")
    from indist_fast.metrics.resolving_power import Binormal, signal_curve
    sig = signal_curve(Binormal.for_auc(0.8), grid=np.linspace(0.7, 0.9, 9), prevalence=0.1)
    check_png(plot.signal_curves(sig).figure, tmp_path / "signal.png")


@pytest.mark.slow
def test_sheets_render(tmp_path):
    check_png(plot.report_sheet(Y, P, title="sheet"), tmp_path / "sheet.png", (400, 700))
    check_png(plot.nine_panels(nine_datasets()), tmp_path / "nine.png", (500, 600))


@pytest.mark.slow
def test_cli_plots(tmp_path):
    from indist_fast.cli import main
    assert main(["demo", "--plot", str(tmp_path / "demo.png")]) == 0
    np.savez(tmp_path / "d.npz", y=Y.astype(int), p=P)
    assert main(["evaluate", str(tmp_path / "d.npz"), "--label", "y", "--score", "p",
                 "--no-progress", "--plot", str(tmp_path / "sheet.png")]) == 0
    for name in ("demo.png", "sheet.png"):
        img = mpimg.imread(tmp_path / name)
        assert img.shape[0] > 300 and img[..., :3].std() > 0.05


# --- bad arguments are named before any figure opens -------------------------------------

CURVE_PLOTS = ["roc", "b_curve", "c_tpr_fpr_vs_b", "b_split"]
ROW_PLOTS = ["scores_by_class", *CURVE_PLOTS, "cost_curves"]
Y12 = np.array([0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0])
S12 = np.array([0.1, 0.9, 0.35, 0.8, 0.4, 0.2, 0.7, 0.6, 0.05, 0.3, 0.45, 0.5])


def raises_without_a_figure(error, match, fn, *args, **kwargs):
    """The error, named, and no figure left open by the failed call."""
    before = plt.get_fignums()
    with pytest.raises(error, match=match):
        fn(*args, **kwargs)
    assert plt.get_fignums() == before


@pytest.mark.parametrize("name", ROW_PLOTS)
@pytest.mark.parametrize("ax", ["axes", 5, np.ones(2), plt])
def test_ax_must_be_an_axes(name, ax):
    raises_without_a_figure(TypeError, "ax must be a matplotlib Axes",
                            getattr(plot, name), Y12, S12, ax=ax)


@pytest.mark.parametrize("name, arg", [*((n, "max_points") for n in CURVE_PLOTS),
                                       ("cost_curves", "max_lines"),
                                       ("scores_by_class", "bins")])
@pytest.mark.parametrize("value, error", [(0, ValueError), (-1, ValueError),
                                          ("x", TypeError), (1.5, TypeError),
                                          (10.0, TypeError), (None, TypeError),
                                          (True, TypeError), (10**12, ValueError)])
def test_count_arguments_are_checked(name, arg, value, error):
    raises_without_a_figure(error, arg, getattr(plot, name), Y12, S12, **{arg: value})


@pytest.mark.parametrize("name, label", [("roc", "AUC"), ("b_curve", "B(r)"),
                                         ("b_split", "B+"), ("c_tpr_fpr_vs_b", "C (precision)")])
def test_two_points_draw_the_curve_from_end_to_end(name, label):
    c = indist_fast.curves(Y12, S12)
    ax = getattr(plot, name)(Y12, S12, max_points=2)
    line, = [ln for ln in ax.get_lines() if ln.get_label().startswith(label)]
    x = np.asarray(line.get_xdata(), dtype=float).tolist()
    expected = {"roc": [0.0, c.fpr[0], c.fpr[-1]],          # the origin, then the ends
                "c_tpr_fpr_vs_b": [c.b[0], c.b[-1]]}.get(name,
                                                         [c.thresholds[0], c.thresholds[-1]])
    assert x == expected
    plt.close(ax.figure)


@pytest.mark.parametrize("signal", ["x", None, 3, {"auc": [0.5, 0.6]}])
def test_signal_curves_needs_a_signal_curve(signal):
    raises_without_a_figure(TypeError, "signal must be a SignalCurve", plot.signal_curves,
                            signal)


@pytest.mark.parametrize("sets, error, match", [
    ("x", TypeError, "sets must be a mapping"),
    ([1, 2], TypeError, "sets must be a mapping"),
    ({}, ValueError, "sets must hold 1 to 9"),
    ({str(k): (Y12, S12) for k in range(10)}, ValueError, "sets must hold 1 to 9"),
    ({"a": (Y12, S12), "b": 3}, TypeError, r"sets\['b'\] must be a \(y_true, y_score\) pair"),
    ({"a": (Y12, S12, None)}, TypeError, r"sets\['a'\] must be a \(y_true, y_score\) pair"),
    ({"a": ([0, 1], [np.nan, 0.5])}, ValueError, r"sets\['a'\]: y_score contains NaN"),
    ({"a": ([0, 1], [0.5])}, ValueError, r"sets\['a'\]: .*y_score"),
])
def test_nine_panels_checks_sets(sets, error, match):
    raises_without_a_figure(error, match, plot.nine_panels, sets)


@pytest.mark.slow
def test_nine_panels_draws_fewer_sets_and_hides_the_rest(tmp_path):
    fig = plot.nine_panels({"a": (Y, P), "b": (Y12, S12)})
    shown = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title().split()[0] for ax in shown] == ["(a)", "(b)"]
    check_png(fig, tmp_path / "two.png", (500, 600))


# --- scores near the float limits are drawn, in scaled units -------------------------------

BIG = np.finfo(np.float64).max


def drawn_weights(ax):
    """Total bar height per histogram (negatives first), and the bars' x range."""
    out = []
    for container in ax.containers:
        out.append(sum(p.get_height() for p in container.patches))
    xs = [p.get_x() for c in ax.containers for p in c.patches]
    ends = [p.get_x() + p.get_width() for c in ax.containers for p in c.patches]
    return out, min(xs), max(ends)


@pytest.mark.parametrize("scores", [
    np.where(Y12 == 1, BIG, -BIG),                               # the fuzz case
    (S12 - 0.5) * (0.99 * BIG) * 2,                              # a span beyond float max
    np.where(Y12 == 1, BIG, BIG / 2),
    1.0 + np.arange(12) * 2.0 ** -52,                            # scores ulps apart
    np.full(12, BIG),                                            # one distinct score
    np.full(12, 1e300 * 7),
])
def test_scores_by_class_draws_any_finite_scores(backend, scores, tmp_path):
    kept = scores.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")           # no overflow inside matplotlib either
        ax = plot.scores_by_class(Y12, scores)
        check_png(ax.figure, tmp_path / "h.png")
    np.testing.assert_array_equal(scores, kept)
    heights, lo, hi = drawn_weights(ax)
    # every row is counted in its class's histogram (np.histogram drops values outside
    # the edges), and the bars sit where the scaled scores are
    assert heights == [float(np.sum(Y12 == 0)), float(np.sum(Y12 == 1))]
    label = ax.get_xlabel()
    scale = 1.0 if label == "score" else float(label.split("(x ")[1].rstrip(")"))
    top = np.abs(scores).max()
    assert scale == (1.0 if top <= 1e300 else 10.0 ** np.floor(np.log10(top)))
    x = scores / scale
    assert lo <= x.min() + 1e-12 * abs(x.min()) and hi >= x.max() - 1e-12 * abs(x.max())


@pytest.mark.parametrize("name", ["b_curve", "b_split"])
def test_threshold_plots_draw_scores_near_float_max(name, tmp_path):
    s = np.where(Y12 == 1, BIG, -BIG / 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ax = getattr(plot, name)(Y12, s)
        check_png(ax.figure, tmp_path / "b.png")
    assert ax.get_xlabel() == "threshold r (x 1e+308)"
    x = np.asarray(ax.get_lines()[-1].get_xdata(), dtype=float)
    np.testing.assert_allclose(x * 1e308, indist_fast.curves(Y12, s).thresholds, rtol=1e-15)


@pytest.mark.parametrize("x", [np.array([0.1, 0.4, 3.0]), np.array([-5.0, 7.0]),
                               np.linspace(-1e6, 2e6, 50)])
@pytest.mark.parametrize("bins", [1, 7, 60])
def test_bin_edges_match_numpy_where_numpy_can(x, bins):
    from indist_fast.metrics.curve_points import bin_edges as _bin_edges
    np.testing.assert_allclose(_bin_edges(x, bins), np.histogram_bin_edges(x, bins),
                               rtol=1e-12, atol=1e-12 * np.ptp(x))


@pytest.mark.parametrize("x", [np.array([-1.7, 1.79]), 1.0 + np.arange(3) * 2.0 ** -52,
                               np.array([4.0]), np.array([1e300, -1e300])])
def test_bin_edges_cover_the_data_in_order(x):
    from indist_fast.metrics.curve_points import bin_edges as _bin_edges
    edges = _bin_edges(x, 60)
    assert np.all(np.diff(edges) > 0) and np.isfinite(edges).all()
    assert edges[0] <= x.min() and edges[-1] >= x.max()
    counts, _ = np.histogram(x, edges)
    assert counts.sum() == len(x)
