"""The HTML pages without a browser: what they embed is exact (the library's numbers),
thinning keeps the hull corners and r_b, pages are self-contained and small, bad
arguments are refused by name; the notebook reprs."""

from __future__ import annotations

import fnmatch
import json
import math
import os
import pathlib
import re
import warnings

import numpy as np
import pytest

import indist_fast
import indist_fast.html
from indist_fast.metrics import threshold_choice as tc
from indist_fast.html import report_html, roc_demo, segment_page
from indist_fast.html.page import data_literal


def page_data(text: str) -> dict:
    """The ``IF_DATA`` literal a page embeds (NaN and Infinity read as Python's)."""
    found = re.search(r"var IF_DATA = (.*?);\n</script>", text, re.S)
    assert found is not None
    return json.loads(found.group(1))


def cells(text: str, metric: str) -> list[float]:
    return [float(v) for v in re.findall(
        rf'data-metric="{re.escape(metric)}" data-value="([^"]*)"', text)]


def external_urls(text: str) -> list[str]:
    # the SVG namespace is a name, never fetched
    return [u for u in re.findall(r"(?:https?:)?//[\w.-]+\.[a-z]{2,}[^\s\"'<>)]*", text)
            if not u.startswith("http://www.w3.org/")]


def data(n=3000, seed=0, ties=True, weights=False):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = rng.normal(size=n) + 1.1 * y
    if ties:
        s = np.round(s, 2)
    w = rng.integers(0, 4, n).astype(float) if weights else None
    return y, s, w


def test_roc_demo_page_is_self_contained(tmp_path):
    path = tmp_path / "demo.html"
    assert roc_demo(path, mu_pos=2.0, sd_pos=0.5, prevalence=0.1) == path
    text = path.read_text(encoding="utf-8")
    assert text == roc_demo(mu_pos=2.0, sd_pos=0.5, prevalence=0.1)
    assert oct(path.stat().st_mode & 0o777) != oct(0o600)       # an ordinary file
    for name in ("mu_pos", "sd_pos", "mu_neg", "sd_neg", "prevalence", "threshold"):
        assert f'id="{name}"' in text
    for metric in ("tp", "fp", "tn", "fn", "tpr", "fpr", "precision", "b", "auc",
                   "threshold", "indistinguishability_threshold"):
        assert f'data-metric="{metric}"' in text
    assert external_urls(text) == []
    assert "<script src" not in text and "<link" not in text
    assert page_data(text) == {"mu_pos": 2.0, "sd_pos": 0.5, "mu_neg": 0.0, "sd_neg": 1.0,
                               "prevalence": 0.1, "threshold": 1.0}
    assert len(text) < 100_000


@pytest.mark.parametrize("kw, name, exc", [
    ({"sd_pos": 0.0}, "sd_pos", ValueError), ({"sd_neg": -1}, "sd_neg", ValueError),
    ({"mu_pos": math.nan}, "mu_pos", ValueError), ({"mu_neg": "0"}, "mu_neg", TypeError),
    ({"prevalence": 1.0}, "prevalence", ValueError),
    ({"threshold": math.inf}, "threshold", ValueError),
    ({"path": 5}, "path", TypeError), ({"path": "/no/such/dir/x.html"}, "path", FileNotFoundError),
])
def test_roc_demo_refuses_bad_arguments(kw, name, exc):
    with pytest.raises(exc, match=name):
        roc_demo(**kw)


def test_roc_demo_refuses_a_folder(tmp_path):
    with pytest.raises(ValueError, match="path .* is a folder"):
        roc_demo(tmp_path)


def test_data_literal_cannot_close_the_script():
    text = data_literal({"name": "</script><script>alert(1)</script>", "x": math.nan,
                         "y": -math.inf})
    assert "<" not in text and "NaN" in text and "-Infinity" in text


def test_report_points_are_confusion_at_their_thresholds(backend):
    y, s, w = data(weights=True)
    text = report_html(y, s, sample_weight=w, max_points=300)
    model = page_data(text)["models"][0]
    p = model["points"]
    t = np.array(p["threshold"])
    c = indist_fast.confusion(y, s, t, sample_weight=w)
    for field in ("tp", "fp", "tn", "fn", "tpr", "fpr", "tnr", "fnr", "precision", "npv",
                  "accuracy", "balanced_accuracy", "f1", "b"):
        np.testing.assert_array_equal(np.array(p[field], dtype=float), getattr(c, field),
                                      err_msg=field)
    assert model["n_points"] == len(np.unique(s[w > 0]))
    assert len(t) <= 300 and np.all(np.diff(t) < 0)


def test_report_thinning_keeps_hull_corners_and_levels(backend):
    y, s, _ = data(n=20_000, ties=False)
    r = indist_fast.evaluate(y, s)
    model = page_data(report_html(y, s, max_points=200))["models"][0]
    t = model["points"]["threshold"]
    assert len(t) <= 200 and model["n_points"] == 20_000
    hull = tc.roc_convex_hull(y, s)
    corners = [x for x in np.asarray(hull.thresholds) if np.isfinite(x)]
    assert corners and set(corners) <= set(t)
    for level, point in r.at.items():
        assert point.threshold in t, level
    assert t[model["rb_index"]] == r.threshold
    assert model["points"]["precision"][model["rb_index"]] == r.precision
    # the hull drawn is the library's
    np.testing.assert_allclose(model["hull"]["fpr"][1:], np.asarray(hull.fpr)[1:len(corners) + 1])


def test_report_summary_histograms_and_cost_curves(backend):
    y, s, w = data(weights=True)
    text = report_html(y, s, sample_weight=w, bins=40)
    r = indist_fast.evaluate(y, s, sample_weight=w)
    for field in ("auc", "average_precision", "precision", "lift", "base_rate"):
        assert cells(text, field)[0] == getattr(r, field), field
    assert cells(text, "threshold")[0] == r.threshold
    m = page_data(text)["models"][0]
    h = m["hist"]
    assert len(h["edges"]) == 41
    assert math.isclose(sum(h["pos"]), r.weight_pos) and math.isclose(sum(h["neg"]), r.weight_neg)
    # the cost envelope is the best loss of any operating point (brute force over all)
    c = indist_fast.curves(y, s, sample_weight=w)
    pi1 = r.base_rate
    tpr, fpr = np.r_[0.0, c.tpr], np.r_[0.0, c.fpr]
    for cost, loss in zip(m["cost"]["c"][::20], m["cost"]["loss"][::20]):
        brute = np.min(2 * (cost * pi1 * (1 - tpr) + (1 - cost) * (1 - pi1) * fpr))
        assert math.isclose(loss, brute, rel_tol=1e-12, abs_tol=1e-15)


def test_report_with_bootstrap_intervals():
    y, s, _ = data(n=400)
    text = report_html(y, s, n_boot=30, seed=3)
    r = indist_fast.evaluate(y, s, n_boot=30, seed=3)
    assert r.intervals is not None
    for metric, iv in r.intervals.items():
        assert cells(text, f"{metric}_low") == [iv.low]
        assert cells(text, f"{metric}_high") == [iv.high]
    assert "30 stratified replicates" in text


def test_report_several_models_and_segments():
    y, s, _ = data(n=2000)
    rng = np.random.default_rng(5)
    models = {"good": s, "noisy": s + rng.normal(size=len(s)), "<b>&": -s + 3 * y}
    groups = rng.choice(["north", "south", "east"], len(s))
    text = report_html(y, models, groups=groups)
    d = page_data(text)
    assert [m["name"] for m in d["models"]] == list(models)
    assert "<b>&" not in text.split("var IF_DATA")[0]       # names escaped in markup
    for m in d["models"]:
        assert m["auc"] == indist_fast.roc_auc(y, models[m["name"]])
    table = indist_fast.evaluate_many(y, models, groups=groups)
    seg = text.split('id="segments"')[1]
    assert cells(seg, "auc") == [float(v) for v in table.columns["auc"]]
    assert seg.count("<tr>") == len(table) + 1


def test_report_returns_the_path_it_wrote(tmp_path):
    y, s, _ = data(n=300)
    text = report_html(y, s)
    assert isinstance(text, str)
    for given in (tmp_path / "r.html", str(tmp_path / "s.html")):
        written = report_html(y, s, path=given)
        assert isinstance(written, pathlib.Path) and written == pathlib.Path(given)
        assert written.read_text(encoding="utf-8") == text


def log_box_checked(text: str) -> bool:
    found = re.search(r'<input type="checkbox" id="logcount"( checked)?>', text)
    assert found is not None
    return found.group(1) is not None


@pytest.mark.parametrize("share, weighted, log", [
    (0.04, False, True), (0.5, False, False), (0.96, False, True),       # either class rare
    (0.04, True, False),               # the weights, not the rows, decide
])
def test_report_histogram_counts_on_a_log_axis_when_a_class_is_rare(share, weighted, log):
    rng = np.random.default_rng(2)
    y = (rng.random(4000) < share).astype(int)
    s = rng.normal(size=4000) + y
    w = np.where(y == 1, 5.0, 1.0) if weighted else None      # 4% of rows, 17% of weight
    with warnings.catch_warnings():     # (B stops short of 0.6 when most rows are positive)
        warnings.simplefilter("ignore", indist_fast.LevelNotReachedWarning)
        assert log_box_checked(report_html(y, s, sample_weight=w)) is log
        for chosen in (True, False):
            assert log_box_checked(report_html(y, s, sample_weight=w, log=chosen)) is chosen


def test_every_table_of_every_page_is_in_a_box():
    """A table runs past the page's edge unless its box scrolls (``page.css``)."""
    y, s, _ = data(n=600)
    table = indist_fast.evaluate_many(y, s, groups=np.arange(600) % 3)
    for text in (report_html(y, {"a": s, "b": s + y}, n_boot=20, seed=0, segments=table),
                 roc_demo(), segment_page(table)):
        body = text.split("<body>")[1]
        assert body.count("<table") == body.count('<div class="table-box"><table') > 0
    assert ".table-box { max-width: 100%; overflow-x: auto; }" in \
        indist_fast.html.page.asset("page.css")


def test_report_takes_a_segment_table():
    y, s, _ = data(n=500)
    table = indist_fast.evaluate_many(y, s, groups=np.arange(500) % 4)
    text = report_html(y, s, segments=table)
    assert cells(text.split('id="segments"')[1], "n_rows") == [125.0] * 4
    with pytest.raises(TypeError, match="segments"):
        report_html(y, s, segments=table, groups=np.arange(500) % 4)


@pytest.mark.parametrize("kw, name, exc", [
    ({"max_points": 1}, "max_points", ValueError), ({"max_points": 2.5}, "max_points", TypeError),
    ({"bins": 0}, "bins", ValueError), ({"title": 3}, "title", TypeError),
    ({"segments": [1]}, "segments", TypeError), ({"exclude_self": "x"}, "exclude_self", TypeError),
    ({"path": "/no/such/dir/r.html"}, "path", FileNotFoundError),
    ({"log": "yes"}, "log", TypeError),
])
def test_report_refuses_bad_arguments(kw, name, exc):
    y, s, _ = data(n=50)
    with pytest.raises(exc, match=name):
        report_html(y, s, **kw)


def test_report_names_the_bad_model():
    y, s, _ = data(n=50)
    bad = s.copy()
    bad[3] = np.nan
    with pytest.raises(ValueError, match=r"y_score\['b'\]"):
        report_html(y, {"a": s, "b": bad})
    with pytest.raises(ValueError, match="y_score"):
        report_html(y, {})


def test_report_inputs_are_not_modified():
    y, s, w = data(n=300, weights=True)
    copies = y.copy(), s.copy(), w.copy()
    report_html(y, s, sample_weight=w)
    for a, b in zip((y, s, w), copies):
        np.testing.assert_array_equal(a, b)


def test_report_size_grows_with_points_not_rows():
    small = report_html(*data(n=5_000, ties=False)[:2], max_points=1000)
    large = report_html(*data(n=200_000, ties=False)[:2], max_points=1000)
    assert external_urls(large) == []
    assert len(large) < 1.2 * len(small) and len(large) < 700_000


def test_infinite_scores_and_all_tied():
    y = np.array([0, 1, 0, 1, 1, 0])
    s = np.array([-np.inf, np.inf, 0.2, 0.9, np.inf, 0.2])
    model = page_data(report_html(y, s))["models"][0]
    assert model["points"]["threshold"][0] == math.inf
    np.testing.assert_array_equal(
        model["points"]["tp"], indist_fast.confusion(y, s, model["points"]["threshold"]).tp)
    with pytest.warns(indist_fast.LevelNotReachedWarning):
        report_html([0, 1, 1, 0], [0.5] * 4)


def test_segment_page(tmp_path):
    y, s, _ = data(n=400)
    table = indist_fast.evaluate_many(y, s, groups=np.arange(400) % 3)
    written = segment_page(table, str(tmp_path / "t.html"), title="by thirds")
    assert written == tmp_path / "t.html" and isinstance(written, pathlib.Path)
    text = written.read_text(encoding="utf-8")
    assert text == segment_page(table, title="by thirds")
    assert "by thirds" in text and 'class="segments"' in text
    assert cells(text, "auc") == [float(v) for v in table.columns["auc"]]
    with pytest.raises(TypeError, match="table"):
        segment_page({"auc": [0.5]})


def test_repr_html_of_results():
    y, s, _ = data(n=300)
    r = indist_fast.evaluate(y, s, n_boot=20, seed=1)
    html = r._repr_html_()
    assert cells(html, "auc")[0] == r.auc and cells(html, "auc_low") == [r.intervals["auc"].low]
    table = indist_fast.evaluate_many(y, s, groups=np.arange(300) % 50)
    html = table._repr_html_()
    assert html.count("<tr>") == 1 + 10 + 1 + 10          # heading, 10, the gap, 10
    assert "30 more rows" in html and "50 rows" in html
    b = indist_fast.bootstrap(y, s, n_boot=2000, seed=1)
    assert len(repr(b)) < 400 and cells(b._repr_html_(), "low")[0] == b["auc"].low
    rng = np.random.default_rng(2)
    comp = indist_fast.compare(y, {"a": s, "b": s + rng.normal(size=300)}, n_boot=200, seed=1,
                               metrics=("auc", "average_precision", "precision"))
    assert len(repr(comp)) < 200 and len(repr(comp["a", "b"])) < 400
    one = comp["a", "b"]
    assert cells(one._repr_html_(), "p_value")[0] == one["auc"].p_value
    assert one._repr_html_() in comp._repr_html_()


def test_cli_writes_pages(tmp_path, capsys):
    from indist_fast.cli import main
    y, s, _ = data(n=500)
    path = tmp_path / "d.npz"
    np.savez(path, y=y, s=s, t=s + np.random.default_rng(1).normal(size=500),
             g=np.arange(500) % 2)
    out = tmp_path / "r.html"
    assert main(["evaluate", str(path), "--label", "y", "--score", "s", "--score", "t",
                 "--by", "g", "--html", str(out), "--no-progress"]) == 0
    d = page_data(out.read_text(encoding="utf-8"))
    assert [m["name"] for m in d["models"]] == ["s", "t"]
    assert d["models"][0]["auc"] == indist_fast.roc_auc(y, s)
    assert 'id="segments"' in out.read_text(encoding="utf-8")
    demo = tmp_path / "demo.html"
    assert main(["demo", "--html", str(demo)]) == 0
    assert 'id="threshold"' in demo.read_text(encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["demo", "--html", str(tmp_path / "no" / "x.html")])
    assert "--html" in capsys.readouterr().err


def test_package_data_is_listed():
    """The wheel carries the pages' scripts: they are package data in pyproject.toml."""
    import tomllib
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "pyproject.toml"), "rb") as fh:
        conf = tomllib.load(fh)
    # every package under indist_fast/ (pages and paper included) is found for the wheel
    include = conf["tool"]["setuptools"]["packages"]["find"]["include"]
    packages = [os.path.relpath(d, root).replace(os.sep, ".")
                for d, _, files in os.walk(os.path.join(root, "indist_fast"))
                if "__init__.py" in files]
    assert "indist_fast.html" in packages and "indist_fast.paper" in packages
    assert all(any(fnmatch.fnmatchcase(p, pattern) for pattern in include) for p in packages)
    assert set(conf["tool"]["setuptools"]["package-data"]["indist_fast.html"]) == {"*.js", "*.css"}
    folder = os.path.dirname(indist_fast.html.__file__)
    assert {"plot.js", "population.js", "roc_demo.js", "report.js", "sort.js", "page.css"} <= set(
        os.listdir(folder))


@pytest.mark.parametrize("weights", [False, True])
def test_page_histograms_and_b_equal_their_definitions(backend, weights):
    """Histograms read off the running sums equal ``numpy.histogram`` of the table
    (infinite scores in the end bins); B at the drawn points equals ``curves`` to the
    bit, fractional weights included."""
    y, s, w = data(weights=weights)
    s = s.astype(float)
    s[:3], s[3:5] = np.inf, -np.inf
    if weights:
        w = w * 0.37                          # fractional: B's self-pair term matters
    m = page_data(report_html(y, s, sample_weight=w, bins=30))["models"][0]
    table = indist_fast.ScoreTable.from_arrays(y, s, sample_weight=w)
    edges = np.array(m["hist"]["edges"])
    placed = np.clip(table.scores, edges[0], edges[-1])
    for cls, values in (("pos", table.pos), ("neg", table.neg)):
        expected, _ = np.histogram(placed, edges, weights=values.astype(float))
        np.testing.assert_allclose(m["hist"][cls], expected, rtol=1e-12, atol=1e-9)
    curves = table.curves()
    at = np.searchsorted(-curves.thresholds, -np.array(m["points"]["threshold"]))
    np.testing.assert_array_equal(np.array(m["points"]["b"], dtype=float), curves.b[at])


def test_pages_credit_the_threshold_to_its_source():
    # the indistinguishability threshold is Sumpter's (the papers' bibliography has no other)
    y = np.array([0, 1, 0, 1, 1, 0, 1, 0])
    s = np.array([0.1, 0.9, 0.3, 0.8, 0.35, 0.4, 0.7, 0.2])
    for page in (indist_fast.html.roc_demo(), indist_fast.html.report_html(y, s)):
        assert "Sumpter" in page
        assert "Anagnostopoulos" not in page


def test_a_level_not_reached_warns_at_the_callers_line(backend):
    y = np.array([1, 0, 0, 0, 1, 0])                 # the positives score lowest
    s = np.array([0.1, 0.9, 0.8, 0.7, 0.2, 0.6])
    with pytest.warns(indist_fast.LevelNotReachedWarning) as caught:
        indist_fast.html.report_html(y, s)
    assert [w.filename for w in caught] == [__file__]
