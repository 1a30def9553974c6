"""Overlaid models: the lines drawn are the exact curves, the legend names the models,
colors are applied, reference lines are drawn once, the PR plot integrates to average
precision, log histograms show the rare class, and bad arguments are named."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402

import indist_fast  # noqa: E402
import indist_fast.metrics.threshold_choice as tc  # noqa: E402
from indist_fast import ScoreTable  # noqa: E402
from indist_fast import plot  # noqa: E402
from indist_fast.metrics.curve_points import thin as _thin  # noqa: E402

sklearn_metrics = pytest.importorskip("sklearn.metrics")

rng = np.random.default_rng(5)
N = 400
Y = rng.random(N) < 0.3
W = rng.integers(0, 4, N).astype(float)
MODELS = {
    "model a": np.round(np.where(Y, rng.normal(1.0, 1.0, N), rng.normal(0.0, 1.0, N)), 1),
    "model b": np.where(Y, rng.normal(1.5, 1.0, N), rng.normal(0.0, 1.5, N)),
}


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def legend_texts(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


def model_line(ax, name):
    """The one line whose legend entry starts with the model's name."""
    lines = [ln for ln in ax.get_lines() if ln.get_label().startswith(f"{name} (")]
    assert len(lines) == 1
    return lines[0]


def xy(line):
    return (np.asarray(line.get_xdata(), dtype=float),
            np.asarray(line.get_ydata(), dtype=float))


def r_b_points(ax):
    return [ln for ln in ax.get_lines() if ln.get_gid() == "indist_fast:r_b_point"]


# --- the lines drawn are the exact curves ----------------------------------------------------

@pytest.mark.parametrize("weighted", [False, True])
def test_roc_lines_are_the_exact_curves(backend, weighted):
    w = W if weighted else None
    ax = plot.roc(Y, MODELS, sample_weight=w)
    for name, s in MODELS.items():
        c = indist_fast.curves(Y, s, sample_weight=w)
        x, y = xy(model_line(ax, name))
        np.testing.assert_array_equal(x, np.r_[0.0, c.fpr])
        np.testing.assert_array_equal(y, np.r_[0.0, c.tpr])
        # scikit-learn's curve passes through the same points (it drops collinear ones)
        fpr, tpr, _ = sklearn_metrics.roc_curve(Y, s, sample_weight=w,
                                                drop_intermediate=False)
        np.testing.assert_allclose(np.unique(np.c_[x, y], axis=0),
                                   np.unique(np.c_[fpr, tpr], axis=0), atol=1e-12)


@pytest.mark.parametrize("weighted", [False, True])
def test_pr_steps_integrate_to_average_precision(backend, weighted):
    w = W if weighted else None
    ax = plot.pr(Y, MODELS, sample_weight=w)
    for name, s in MODELS.items():
        c = indist_fast.curves(Y, s, sample_weight=w)
        line = model_line(ax, name)
        x, y = xy(line)
        np.testing.assert_array_equal(x, np.r_[0.0, c.tpr])
        np.testing.assert_array_equal(y, np.r_[c.precision[0], c.precision])
        assert line.get_drawstyle() == "steps-pre"
        # steps-pre holds y[k] over (x[k-1], x[k]]: the area drawn is the step sum
        area = np.sum(np.diff(x) * y[1:])
        expected = sklearn_metrics.average_precision_score(Y, s, sample_weight=w)
        assert area == pytest.approx(expected, rel=1e-12)
        assert line.get_label() == f"{name} (AP = {expected:.4f})"


def test_b_curve_lines_are_the_exact_curves(backend):
    ax = plot.b_curve(Y, MODELS)
    for name, s in MODELS.items():
        c = indist_fast.curves(Y, s)
        x, y = xy(model_line(ax, name))
        np.testing.assert_array_equal(x, c.thresholds)
        np.testing.assert_array_equal(y, c.b)


def test_a_mapping_of_score_tables_draws_the_same_lines():
    tables = {n: ScoreTable.from_arrays(Y, s) for n, s in MODELS.items()}
    for fn in (plot.roc, plot.pr, plot.b_curve):
        from_rows, from_tables = fn(Y, MODELS), fn(tables)
        assert legend_texts(from_rows) == legend_texts(from_tables)
        for name in MODELS:
            for a, b in zip(xy(model_line(from_rows, name)), xy(model_line(from_tables, name))):
                np.testing.assert_array_equal(a, b)


# --- operating points and legends ------------------------------------------------------------

def test_r_b_is_marked_on_each_model_ringed_in_its_color():
    for fn, point in ((plot.roc, lambda r: (r.fpr, r.tpr)),
                      (plot.pr, lambda r: (r.tpr, r.precision))):
        ax = fn(Y, MODELS)
        marks = r_b_points(ax)
        assert len(marks) == len(MODELS)
        for mark, (name, s) in zip(marks, MODELS.items()):
            r = indist_fast.evaluate(Y, s)
            assert [float(v[0]) for v in xy(mark)] == list(point(r))
            # r_b's own color, no model's, ringed in the model's
            assert to_rgba(mark.get_markerfacecolor()) == to_rgba(plot.R_B_COLOR)
            assert to_rgba(mark.get_markeredgecolor()) == to_rgba(model_line(ax, name).get_color())


def test_legend_names_the_models_then_the_reference_lines():
    auc = {n: sklearn_metrics.roc_auc_score(Y, s) for n, s in MODELS.items()}
    ax = plot.roc(Y, MODELS)
    assert legend_texts(ax) == [f"{n} (AUC = {a:.4f})" for n, a in auc.items()] + [
        "r_b (B = 1/2)", "chance"]
    ax = plot.pr(Y, MODELS)
    assert legend_texts(ax)[:2] == [
        f"{n} (AP = {sklearn_metrics.average_precision_score(Y, s):.4f})"
        for n, s in MODELS.items()]
    assert legend_texts(ax)[2:] == ["r_b (B = 1/2)", f"base rate {Y.mean():.3g}"]
    ax = plot.b_curve(Y, MODELS)
    assert legend_texts(ax) == [
        f"{n} (C(r_b) = {indist_fast.evaluate(Y, s).precision:.3f})" for n, s in MODELS.items()
    ] + ["0.4 - 0.6"]


def test_unnamed_single_model_keeps_its_legend():
    s = MODELS["model a"]
    assert legend_texts(plot.roc(Y, s))[0] == f"AUC = {sklearn_metrics.roc_auc_score(Y, s):.4f}"
    assert legend_texts(plot.b_curve(Y, s))[0] == "B(r)"
    assert legend_texts(plot.pr(Y, s))[0].startswith("AP = ")


# --- overlay on an existing Axes -------------------------------------------------------------

@pytest.mark.parametrize("fn, stat", [(plot.roc, "AUC"), (plot.pr, "AP"),
                                      (plot.b_curve, "C(r_b)")])
def test_repeated_calls_overlay_like_one_call(fn, stat):
    one = fn(Y, MODELS)
    _, ax = plt.subplots()
    for name, s in MODELS.items():
        assert fn(Y, s, ax=ax, label=name) is ax
    assert legend_texts(ax) == legend_texts(one)
    assert [t.startswith(f"{n} ({stat} = ") for t, n in zip(legend_texts(ax), MODELS)] == [
        True, True]
    for name in MODELS:
        for a, b in zip(xy(model_line(ax, name)), xy(model_line(one, name))):
            np.testing.assert_array_equal(a, b)
    # reference artists once, however many models
    gids = [a.get_gid() for a in ax.get_children() if a.get_gid()]
    refs = [g for g in gids if g != "indist_fast:r_b_point"]
    assert len(refs) == len(set(refs))
    # default colors are the palette's, in order, whichever way the models came
    assert [to_rgba(model_line(ax, n).get_color()) for n in MODELS] == [
        to_rgba(c) for c in plot.PALETTE[:2]]
    assert [to_rgba(model_line(one, n).get_color()) for n in MODELS] == [
        to_rgba(c) for c in plot.PALETTE[:2]]


def test_overlay_keeps_what_the_axes_already_holds():
    _, ax = plt.subplots()
    own, = ax.plot([0, 1], [0.2, 0.9], label="published model")
    plot.roc(Y, MODELS["model a"], ax=ax, label="mine")
    assert own in ax.get_lines()
    assert legend_texts(ax)[:2] == ["published model",
                                    f"mine (AUC = {indist_fast.roc_auc(Y, MODELS['model a']):.4f})"]


# --- colors ----------------------------------------------------------------------------------

@pytest.mark.parametrize("color, expected", [
    ({"model a": "tab:green", "model b": "#123456"}, ["tab:green", "#123456"]),
    (["red", (0.1, 0.2, 0.3)], ["red", (0.1, 0.2, 0.3)]),
    (("C3", "k"), ["C3", "k"]),
])
def test_colors_are_applied(color, expected):
    for fn in (plot.roc, plot.pr, plot.b_curve):
        ax = fn(Y, MODELS, color=color)
        got = [to_rgba(model_line(ax, n).get_color()) for n in MODELS]
        assert got == [to_rgba(c) for c in expected]


def test_a_partial_color_mapping_leaves_the_rest_to_the_palette():
    ax = plot.roc(Y, MODELS, color={"model b": "tab:red"})
    assert to_rgba(model_line(ax, "model b").get_color()) == to_rgba("tab:red")
    assert to_rgba(model_line(ax, "model a").get_color()) == to_rgba(plot.PALETTE[0])
    # a palette color given to one model is not given to another
    ax = plot.roc(Y, MODELS, color={"model b": plot.PALETTE[0]})
    assert to_rgba(model_line(ax, "model a").get_color()) == to_rgba(plot.PALETTE[1])


def test_model_colors_are_distinct_and_never_r_bs():
    """Twelve models: five palette colors solid, then dashed, then dotted; no model
    line, whichever call drew it, takes r_b's color or another's color and style."""
    r = np.random.default_rng(8)
    many = {f"m{k}": MODELS["model b"] + r.normal(0, 0.3 * k, N) for k in range(12)}
    assert to_rgba(plot.R_B_COLOR) not in {to_rgba(c) for c in plot.PALETTE}
    for fn in (plot.roc, plot.pr, plot.b_curve):
        ax = fn(Y, dict(list(many.items())[:7]))
        for name in list(many)[7:]:                   # the rest one call at a time
            fn(Y, many[name], ax=ax, label=name)
        styles = [(to_rgba(model_line(ax, n).get_color()), model_line(ax, n).get_linestyle())
                  for n in many]
        assert len(set(styles)) == len(many)
        assert to_rgba(plot.R_B_COLOR) not in {c for c, _ in styles}
        assert styles[:5] == [(to_rgba(c), "-") for c in plot.PALETTE]
        assert styles[5:10] == [(to_rgba(c), "--") for c in plot.PALETTE]
    # the one-model plots take the palette too
    for fn in (plot.c_tpr_fpr_vs_b, plot.b_split):
        ax = fn(Y, MODELS["model a"])
        assert [to_rgba(ln.get_color()) for ln in ax.get_lines()[:3]] == [
            to_rgba(c) for c in plot.PALETTE[:3]]


def test_label_and_color_of_one_model():
    _, ax = plt.subplots()
    plot.pr(Y, MODELS["model a"], ax=ax, label="a", color="tab:olive")
    plot.pr(Y, MODELS["model b"], ax=ax, label="b", color=(0.2, 0.4, 0.6, 0.8))
    assert to_rgba(model_line(ax, "a").get_color()) == to_rgba("tab:olive")
    assert to_rgba(model_line(ax, "b").get_color()) == (0.2, 0.4, 0.6, 0.8)


# --- thinning keeps the ROC hull's corners ---------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("max_points", [10, 40, 100])
def test_thinned_roc_keeps_the_hull_corners(backend, max_points):
    r = np.random.default_rng(2)
    y = r.random(5000) < 0.2
    s = np.where(y, r.normal(1, 1, 5000), r.normal(0, 1, 5000))
    ax = plot.roc(y, s, max_points=max_points)
    line = [ln for ln in ax.get_lines() if ln.get_label().startswith("AUC")][0]
    x, v = xy(line)
    assert len(x) <= max_points + 1            # the origin is drawn beside the points
    drawn = set(zip(x.tolist(), v.tolist()))
    h = tc.roc_convex_hull(y, s)
    hull = set(zip(h.fpr.tolist(), h.tpr.tolist()))
    c = indist_fast.curves(y, s)
    ends = {(0.0, 0.0), (c.fpr[0], c.tpr[0]), (c.fpr[-1], c.tpr[-1])}
    assert len(hull) == 32                     # within the budget of 40, beyond 10
    if len(hull | ends) <= max_points:
        assert hull <= drawn
    else:                                      # only corners (and the ends) are drawn
        assert drawn <= hull | ends
    # every point drawn is an exact point of the curve
    assert drawn <= set(zip(c.fpr.tolist(), c.tpr.tolist())) | {(0.0, 0.0)}


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 300), max_points=st.integers(2, 80), data=st.data())
def test_thin_keeps_ends_budget_and_corners(n, max_points, data):
    keep = np.array(data.draw(st.lists(st.integers(0, n - 1), max_size=100)), dtype=np.int64)
    out = _thin(n, max_points, keep)
    assert np.all(np.diff(out) > 0) and out[0] == 0 and out[-1] == n - 1
    assert len(out) == n if n <= max_points else len(out) <= max_points
    if len(np.union1d(keep, [0, n - 1])) <= max_points:
        assert set(keep.tolist()) <= set(out.tolist())


# --- log-count histograms --------------------------------------------------------------------

def bar_fraction(ax, container):
    """The tallest bar's drawn height as a share of the Axes' height."""
    ax.figure.canvas.draw()
    tallest = max(container.patches, key=lambda p: p.get_height())
    box = tallest.get_window_extent()
    return box.height / ax.get_window_extent().height


def test_log_histogram_shows_the_rare_class():
    r = np.random.default_rng(3)
    y = r.random(20_000) < 0.05
    s = np.where(y, r.normal(2, 1, 20_000), r.normal(0, 1, 20_000))
    linear = plot.scores_by_class(y, s, log=False)
    log = plot.scores_by_class(y, s, log=True)
    assert linear.get_yscale() == "linear" and log.get_yscale() == "log"
    # by default log below a 10% share of the weight in the rarer class
    assert plot.scores_by_class(y, s).get_yscale() == "log"
    assert plot.scores_by_class(y, s, sample_weight=np.where(y, 3.0, 1.0)).get_yscale() == \
        "linear"                    # weighted, the positives hold 13.6%
    assert log.get_ylabel() == "rows (log scale)"
    neg, pos = log.containers
    # every positive is counted, and the positives' bars stand well inside the Axes
    assert sum(p.get_height() for p in pos.patches) == y.sum()
    assert sum(p.get_height() for p in neg.patches) == (~y).sum()
    lo, _ = log.get_ylim()
    assert 0 < lo <= 1
    assert bar_fraction(log, pos) > 0.5 > 0.2 > bar_fraction(linear, linear.containers[1])


@pytest.mark.slow
@pytest.mark.parametrize("base_rate, expected", [(0.05, "log"), (0.3, "linear")])
def test_report_sheet_counts_on_a_log_axis_at_a_low_base_rate(base_rate, expected):
    r = np.random.default_rng(4)
    y = r.random(2000) < base_rate
    p = np.clip(0.3 * y + 0.7 * r.random(2000), 0, 1)
    fig = plot.report_sheet(y, p)
    assert fig.axes[0].get_yscale() == expected
    assert plot.report_sheet(y, p, log=expected == "linear").axes[0].get_yscale() != expected


# --- the report sheet's title ----------------------------------------------------------------

@pytest.mark.slow
def test_report_sheet_is_titled_with_the_score_column():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"y": Y.astype(int), "p_churn": np.clip(0.3 * Y + 0.7 * rng.random(N),
                                                               0, 1)})
    assert plot.report_sheet(df["y"], df["p_churn"]).get_suptitle() == "p_churn"
    assert plot.report_sheet(df["y"], df["p_churn"], title="run 7").get_suptitle() == "run 7"
    assert plot.report_sheet(Y, df["p_churn"].to_numpy()).get_suptitle() == ""


def test_report_sheet_title_from_a_polars_series():
    pl = pytest.importorskip("polars")
    p = pl.Series("score_v2", np.clip(0.3 * Y + 0.7 * rng.random(N), 0, 1))
    assert plot.report_sheet(Y, p).get_suptitle() == "score_v2"


# --- bad arguments are named before any figure opens -----------------------------------------

def raises_without_a_figure(error, match, fn, *args, **kwargs):
    before = plt.get_fignums()
    with pytest.raises(error, match=match):
        fn(*args, **kwargs)
    assert plt.get_fignums() == before


S = MODELS["model a"]
TABLE = ScoreTable.from_arrays(Y, S)


@pytest.mark.parametrize("name", ["roc", "pr", "b_curve"])
@pytest.mark.parametrize("args, kwargs, error, match", [
    ((Y, S), {"label": 3}, TypeError, "label must be a str"),
    ((Y, S), {"label": ["a"]}, TypeError, "label must be a str"),
    ((Y, S), {"color": 5}, TypeError, "color must be a matplotlib color"),
    ((Y, S), {"color": object()}, TypeError, "color must be a matplotlib color"),
    ((Y, S), {"color": "bluish"}, ValueError, "color must be a matplotlib color"),
    ((Y, S), {"color": ["red", "blue"]}, TypeError, "color must be a matplotlib color"),
    ((Y, MODELS), {"label": "x"}, TypeError, "label must be None when y_score is a mapping"),
    ((Y, {}), {}, ValueError, "y_score must hold at least one model"),
    ((Y, {1: S}), {}, TypeError, r"y_score keys must be model names \(str\)"),
    ((Y, MODELS), {"color": "red"}, TypeError, "color must be None, a mapping"),
    ((Y, MODELS), {"color": 7}, TypeError, "color must be None, a mapping"),
    ((Y, MODELS), {"color": ["red"]}, ValueError, r"color must hold one color per model \(2\)"),
    ((Y, MODELS), {"color": ["red", "nocolor"]}, ValueError, r"color\[1\] must be a matplotlib"),
    ((Y, MODELS), {"color": {"model c": "red"}}, ValueError, "color names no model"),
    ((Y, MODELS), {"color": {"model a": 3}}, TypeError, r"color\['model a'\] must be"),
    ((Y, {"a": S, "b": np.r_[S[:-1], np.nan]}), {}, ValueError,
     r"y_score\['b'\]: y_score contains NaN"),
    ((Y, {"a": S, "b": S[:-1]}), {}, ValueError, r"y_score\['b'\]: .*"),
    ((TABLE, S), {}, TypeError, "y_score must be None when y_true is a ScoreTable"),
    ((TABLE,), {"sample_weight": W}, TypeError,
     "sample_weight must be None when y_true is a ScoreTable"),
    (({"a": TABLE, "b": S},), {}, TypeError, r"y_true\['b'\]: must be a ScoreTable"),
    (({"a": TABLE}, S), {}, TypeError, r"y_true\['a'\]: must be a ScoreTable"),
    (({"a": TABLE},), {"label": "x"}, TypeError, "label must be None when y_true is a mapping"),
    ((Y, S), {"ax": "ax"}, TypeError, "ax must be a matplotlib Axes"),
    ((Y, S), {"max_points": 1}, ValueError, "max_points"),
    ((np.zeros(N), S), {}, ValueError, "only negatives"),
])
def test_bad_arguments_are_named(name, args, kwargs, error, match):
    raises_without_a_figure(error, match, getattr(plot, name), *args, **kwargs)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"log": "yes"}, TypeError, "log must be True or False"),
    ({"log": 1}, TypeError, "log must be True or False"),
])
def test_scores_by_class_log_is_a_flag(kwargs, error, match):
    raises_without_a_figure(error, match, plot.scores_by_class, Y, S, **kwargs)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"title": 3}, TypeError, "title must be a str"),
    ({"title": b"x"}, TypeError, "title must be a str"),
    ({"log": "no"}, TypeError, "log must be True or False"),
])
def test_report_sheet_arguments_are_named(kwargs, error, match):
    raises_without_a_figure(error, match, plot.report_sheet, Y, S, **kwargs)


def test_inputs_are_not_modified():
    kept = {n: s.copy() for n, s in MODELS.items()}
    plot.roc(Y, MODELS, sample_weight=W)
    plot.pr(Y, MODELS, sample_weight=W)
    plot.b_curve(Y, MODELS, sample_weight=W)
    for n in MODELS:
        np.testing.assert_array_equal(MODELS[n], kept[n])


# --- the README figure -----------------------------------------------------------------------

def test_overlay_example_draws_its_figure(tmp_path, monkeypatch):
    import importlib.util
    import os
    path = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "examples", "overlay_models.py")
    spec = importlib.util.spec_from_file_location("overlay_models", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    y, models = module.simulate(n=3000)
    fig = module.figure(y, models)
    assert [legend_texts(ax)[:2] for ax in fig.axes] == [
        [f"{n} ({stat} = " + fmt.format(f(y, s)) + ")" for n, s in models.items()]
        for stat, f, fmt in (("AUC", indist_fast.roc_auc, "{:.4f}"),
                             ("AP", indist_fast.average_precision, "{:.4f}"),
                             ("C(r_b)", lambda y, s: indist_fast.evaluate(y, s).precision,
                              "{:.3f}"))]
    fig.savefig(tmp_path / "overlay.png", dpi=40)
    assert (tmp_path / "overlay.png").stat().st_size > 5000
