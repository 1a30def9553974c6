"""``evaluate_many``: every (segment, model) row is ``evaluate`` on that segment's rows."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import indist_fast
from cases import rows
from indist_fast import IndistFastWarning, LevelNotReachedWarning, UndefinedBWarning
from indist_fast.results.report_table import REPORT_COLUMNS
from reports import assert_reports_equal

LEVELS = (0.4, 0.5, 0.6)


def _evaluate_quietly(y, s, w=None, levels=LEVELS, exclude_self=True):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LevelNotReachedWarning)
        warnings.simplefilter("ignore", UndefinedBWarning)
        return indist_fast.evaluate(y, s, sample_weight=w, levels=levels,
                                    exclude_self=exclude_self)


def _many_quietly(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return indist_fast.evaluate_many(*args, **kwargs)


def assert_row_is_evaluate(table, i, y, s, w, exclude_self=True):
    """Row ``i`` of ``table`` against ``evaluate`` on the rows given (its segment)."""
    wp = float(np.sum(y * (1.0 if w is None else w)))
    wn = float(np.sum((~y) * (1.0 if w is None else w)))
    if not (wp > 0 and wn > 0):
        assert table.columns["one_class"][i]
        assert np.isnan(table.columns["auc"][i]) and not table.columns["reached"][i]
        assert table.columns["n_rows"][i] == len(y)
        return
    want = _evaluate_quietly(y, s, w, exclude_self=exclude_self)
    assert not table.columns["one_class"][i]
    for name in REPORT_COLUMNS:
        got, expected = table.columns[name][i], getattr(want, name)
        np.testing.assert_allclose(np.float64(got), np.float64(expected), rtol=1e-12,
                                   atol=1e-12, equal_nan=True, err_msg=name)
    for level, point in want.at.items():
        if level == 0.5:
            continue
        for name in ("threshold", "b", "precision", "lift", "tpr", "fpr", "f1", "reached"):
            np.testing.assert_allclose(np.float64(table.columns[f"{name}_at_{level:g}"][i]),
                                       np.float64(getattr(point, name)), rtol=1e-12,
                                       atol=1e-12, equal_nan=True, err_msg=f"{name}@{level}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LevelNotReachedWarning)
        warnings.simplefilter("ignore", UndefinedBWarning)
        assert_reports_equal(table.report(model=table.columns["model"][i],
                                          **{b: table.columns[b][i] for b in table.by}), want)


@pytest.mark.slow
@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])   # (backend: per test)
@given(case=rows(max_n=60, both_classes=False), seed=st.integers(0, 2**32 - 1),
       n_groups=st.integers(1, 8), exclude_self=st.booleans())
def test_every_row_is_evaluate_on_its_segment(backend, case, seed, n_groups, exclude_self):
    y, s, w = case
    rng = np.random.default_rng(seed)
    groups = rng.integers(0, n_groups, len(y)) * 10 - 7      # sparse, negative codes too
    other = s[::-1].copy()                                   # a second model
    table = _many_quietly(y, {"m": s, "r": other}, groups=groups, sample_weight=w,
                          exclude_self=exclude_self)
    present = np.unique(groups)
    assert len(table) == 2 * len(present)
    assert table.columns["group"].tolist() == np.repeat(present, 2).tolist()
    assert table.columns["model"].tolist() == ["m", "r"] * len(present)
    for i in range(len(table)):
        rows_of = groups == table.columns["group"][i]
        score = s if table.columns["model"][i] == "m" else other
        assert_row_is_evaluate(table, i, y[rows_of], score[rows_of],
                               None if w is None else w[rows_of], exclude_self)


@pytest.mark.slow
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=rows(max_n=60, both_classes=False), seed=st.integers(0, 2**32 - 1),
       n_groups=st.integers(1, 4))
def test_segments_on_the_numpy_sorted_and_threaded_paths(threaded, case, seed, n_groups):
    """Pieces long enough for NumPy's sort (threshold lowered to a few rows), on two
    threads: the compiled engine against the reference, row by row."""
    from indist_fast._core import fast, reference
    from indist_fast._core.validation import prepare_rows
    y, s, w = case
    codes = np.random.default_rng(seed).integers(0, n_groups, len(y)).astype(np.int64)
    r = prepare_rows(y, s, w)
    args = (r.y, r.s, r.w, codes, n_groups, r.pos_value, r.neg_value, np.array([0.4, 0.5]),
            True)
    got, want = fast.summarize_segments(*args), reference.summarize_segments(*args)
    for field, a, b in zip(got._fields, got, want):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12, equal_nan=True,
                                   err_msg=field)


def test_one_sort_serves_segments_of_one_row_and_one_class(backend):
    y = np.array([1, 0, 1, 1, 0, 0, 1, 0], dtype=bool)
    s = np.array([0.9, 0.9, 0.8, 0.1, 0.5, 0.5, 0.5, 0.2])
    groups = np.array([0, 0, 1, 2, 2, 3, 3, 3])
    with pytest.warns(IndistFastWarning, match="1 of 4 .* single class"):
        table = indist_fast.evaluate_many(y, s, groups=groups)
    assert table.columns["one_class"].tolist() == [False, True, False, False]
    assert table.columns["n_rows"].tolist() == [2, 1, 2, 3]
    with pytest.raises(ValueError, match="only positives"):
        table.report(group=1)
    for i, g in enumerate([0, 1, 2, 3]):
        assert_row_is_evaluate(table, i, y[groups == g], s[groups == g], None)


@pytest.mark.parametrize("form", ["1d", "2d", "mapping"])
def test_score_forms_and_model_names(backend, form):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 200).astype(bool)
    a, b = rng.normal(y, 1.0), rng.normal(y, 2.0)
    scores = {"1d": a, "2d": np.column_stack([a, b]), "mapping": {"x": a, "y": b}}[form]
    table = _many_quietly(y, scores)
    names = {"1d": ["score"], "2d": [0, 1], "mapping": ["x", "y"]}[form]
    assert table.columns["model"].tolist() == names
    assert table.by == ()
    for i, col in enumerate([a, b][:len(names)]):
        assert table.columns["auc"][i] == indist_fast.roc_auc(y, col)


def test_several_group_arrays_and_group_types(backend):
    rng = np.random.default_rng(5)
    n = 500
    y = rng.integers(0, 2, n).astype(bool)
    s = rng.normal(y, 1.0)
    country = rng.choice(np.array(["se", "de", "fr"]), n)
    day = rng.integers(1, 4, n)
    table = _many_quietly(y, s, groups=[country, day])
    assert table.by == ("group0", "group1")
    keys = list(zip(table.columns["group0"].tolist(), table.columns["group1"].tolist()))
    assert keys == sorted(set(zip(country.tolist(), day.tolist())))
    for i, (c, d) in enumerate(keys):
        pick = (country == c) & (day == d)
        assert_row_is_evaluate(table, i, y[pick], s[pick], None)


@pytest.mark.parametrize("library", ["pandas", "polars", "pyarrow"])
def test_table_form(backend, library):
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(7)
    n = 400
    frame = pd.DataFrame({"y": rng.integers(0, 2, n), "m1": rng.random(n),
                          "m2": rng.random(n), "country": rng.choice(["a", "b"], n),
                          "day": rng.integers(0, 3, n), "w": rng.random(n)})
    frame["country"] = frame["country"].astype("category")
    data = {"pandas": lambda: frame,
            "polars": lambda: pytest.importorskip("polars").from_pandas(frame),
            "pyarrow": lambda: pytest.importorskip("pyarrow").Table.from_pandas(
                frame, preserve_index=False)}[library]()
    table = _many_quietly(data, label="y", score=["m1", "m2"], by=["country", "day"],
                          weight="w")
    assert table.by == ("country", "day")
    assert len(table) == 2 * frame.groupby(["country", "day"], observed=True).ngroups
    y, w = frame["y"].to_numpy().astype(bool), frame["w"].to_numpy()
    for i in range(len(table)):
        pick = ((frame["country"] == table.columns["country"][i])
                & (frame["day"] == table.columns["day"][i])).to_numpy()
        s = frame[table.columns["model"][i]].to_numpy()
        assert_row_is_evaluate(table, i, y[pick], s[pick], w[pick])


def test_totals_are_evaluate_on_all_rows(backend):
    rng = np.random.default_rng(9)
    y = rng.integers(0, 2, 300).astype(bool)
    s = rng.normal(y, 1.0)
    table = _many_quietly(y, {"a": s, "b": -s}, groups=rng.integers(0, 3, 300), total=True)
    assert table.columns["group"].tolist()[-2:] == [None, None]
    assert_row_is_evaluate(table, len(table) - 2, y, s, None)
    assert_row_is_evaluate(table, len(table) - 1, y, -s, None)


def test_exports(backend):
    y = np.array([0, 1, 1, 0, 1, 0])
    table = _many_quietly(y, np.array([0.1, 0.9, 0.4, 0.3, 0.6, 0.7]),
                          groups=np.array(["a", "a", "a", "b", "b", "b"]))
    d = table.to_dict()
    assert list(d)[:2] == ["group", "model"] and d["group"] == ["a", "b"]
    assert set(REPORT_COLUMNS) <= set(d) and "one_class" in d
    pd = pytest.importorskip("pandas")
    frame = table.to_pandas()
    assert frame.shape == (2, len(d)) and frame["auc"].tolist() == d["auc"]
    assert table.to_arrow().num_rows == 2 if pytest.importorskip("pyarrow") else True
    assert table.to_polars().shape == (2, len(d)) if pytest.importorskip("polars") else True
    text = str(table)
    assert "group" in text and "auc" in text and "2 rows" in text
    assert pd is not None


def test_long_tables_print_their_ends(backend):
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 3000).astype(bool)
    table = _many_quietly(y, rng.random(3000), groups=np.arange(3000) % 100)
    text = str(table)
    assert "..." in text and "100 rows" in text and len(text.splitlines()) == 23


@pytest.mark.parametrize("call, error, message", [
    (lambda: indist_fast.evaluate_many([0, 1], [0.1, 0.2], groups=[1, 2, 3]), ValueError,
     "groups has 3 rows, the labels 2"),
    (lambda: indist_fast.evaluate_many([0, 1], [0.1, 0.2], groups=[1.0, np.nan]),
     ValueError, "groups has a missing value"),
    (lambda: indist_fast.evaluate_many([0, 1], [0.1, 0.2], groups=np.array(["a", None],
                                                                          dtype=object)),
     ValueError, r"groups has a missing value \(None\) at row 1"),
    (lambda: indist_fast.evaluate_many([0, 1], {}), ValueError, "scores is an empty mapping"),
    (lambda: indist_fast.evaluate_many([0, 1], {"a": [.1, .2], "b": [.3]}), ValueError,
     r"inconsistent numbers of samples: \[2, 1\]"),
    (lambda: indist_fast.evaluate_many([0, 1]), TypeError, "scores is missing"),
    (lambda: indist_fast.evaluate_many([0, 1], [0.1, np.nan]), ValueError,
     r"^scores contains NaN"),
    (lambda: indist_fast.evaluate_many([0, 1], [0.1, 0.2], groups=[[1, 2], [[1], [2]]]),
     ValueError, r"groups\[1\] must be 1-D"),
    (lambda: indist_fast.evaluate_many([0, 1], [0.1, 0.2], total="yes"), TypeError,
     "total must be"),
    (lambda: indist_fast.evaluate_many([0, 1], [0.1, 0.2], levels=[1.5]), ValueError,
     "levels must lie"),
])
def test_bad_input_names_the_argument(backend, call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_table_form_errors():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"y": [0, 1], "p": [0.1, 0.2], "g": [1, 2]})
    with pytest.raises(ValueError, match="by: column 'h' is not in"):
        indist_fast.evaluate_many(frame, label="y", score="p", by="h")
    with pytest.raises(ValueError, match="score names a column twice"):
        indist_fast.evaluate_many(frame, label="y", score=["p", "p"])
    with pytest.raises(TypeError, match="pass the table alone"):
        indist_fast.evaluate_many(frame, [0.1, 0.2], label="y", score="p")


def test_report_lookup_errors(backend):
    table = _many_quietly([0, 1, 1, 0], {"a": [.1, .9, .8, .3], "b": [.4, .3, .2, .1]},
                          groups=[1, 1, 1, 1])
    with pytest.raises(TypeError, match="model= is needed"):
        table.report(group=1)
    with pytest.raises(TypeError, match="missing"):
        table.report(model="a")
    with pytest.raises(TypeError, match="segment columns are"):
        table.report(model="a", group=1, day=2)
    with pytest.raises(KeyError, match="no row"):
        table.report(model="c", group=1)


def test_inputs_are_not_modified(backend):
    y = np.array([0, 1, 1, 0, 1])
    s = np.array([0.3, 0.9, 0.2, 0.2, 0.6])
    g = np.array([2, 1, 2, 1, 2])
    w = np.array([1.0, 2.0, 0.5, 1.0, 3.0])
    copies = [a.copy() for a in (y, s, g, w)]
    _many_quietly(y, s, groups=g, sample_weight=w)
    for a, b in zip((y, s, g, w), copies):
        np.testing.assert_array_equal(a, b)


def test_names_come_from_series_frames_and_mappings(backend):
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(4)
    n = 300
    frame = pd.DataFrame({"y": rng.integers(0, 2, n), "m1": rng.random(n), "m2": rng.random(n),
                          "country": rng.choice(["se", "de", None], n, p=[.5, .5, 0]),
                          "day": rng.integers(1, 3, n)})
    t = _many_quietly(frame["y"], frame[["m1", "m2"]], groups=[frame["country"], frame["day"]])
    assert t.by == ("country", "day") and t.columns["model"].tolist()[:2] == ["m1", "m2"]
    t2 = _many_quietly(frame["y"], frame["m1"], groups={"c": frame["country"].to_numpy()})
    assert t2.by == ("c",) and t2.columns["c"].tolist() == ["de", "se"]
    assert t2.columns["auc"].tolist() == [
        indist_fast.roc_auc(frame["y"][frame["country"] == c], frame["m1"][frame["country"] == c])
        for c in ("de", "se")]


@pytest.mark.parametrize("name", ["model", "auc", "one_class"])
def test_a_segment_column_may_not_hide_the_table_columns(name):
    with pytest.raises(ValueError, match=rf"groups/by: segment column name\(s\) \['{name}'\]"):
        indist_fast.evaluate_many([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4],
                                  groups={name: ["a", "a", "b", "b"]})


def test_missing_string_segments_are_named_on_the_hash_path():
    pytest.importorskip("pandas")
    groups = np.array(["a", "b", None, "a"], dtype=object)
    with pytest.raises(ValueError, match=r"groups has a missing value \(None\) at row 2"):
        indist_fast.evaluate_many([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], groups=groups)


@pytest.mark.slow
def test_repr_is_a_summary_not_the_columns(backend):
    rng = np.random.default_rng(8)
    y = rng.integers(0, 2, 5000).astype(bool)
    table = _many_quietly(y, {f"m{k}": rng.random(5000) for k in range(7)},
                          groups=np.arange(5000) % 500)
    text = repr(table)
    assert text.startswith("ReportTable(3,500 rows, by=['group'], models=['m0', 'm1'")
    assert "..." in text and len(text) < 200


def test_total_rows_print_as_all(backend):
    t = _many_quietly([0, 1, 1, 0, 1, 0], [.1, .9, .8, .3, .6, .2], groups=[1, 1, 1, 2, 2, 2],
                      total=True)
    lines = str(t).splitlines()
    assert lines[-2].split()[0] == "(all)" and t.columns["group"][-1] is None


def test_a_long_table_says_how_to_see_every_row():
    rng = np.random.default_rng(0)
    y = np.tile([0, 1], 150)
    s = rng.random(300)
    g = np.repeat(np.arange(30), 10)
    text = str(indist_fast.evaluate_many(y, s, groups=g))
    lines = text.splitlines()
    assert len(lines) == 1 + 10 + 1 + 10 + 1 and lines[11].split()[0] == "..."
    assert lines[-1] == ("30 rows; 10 not shown: .to_pandas() (or to_dict, to_polars, "
                         "to_arrow) holds every row and column")
    short = str(indist_fast.evaluate_many(y[:40], s[:40], groups=g[:40]))
    assert "not shown" not in short
