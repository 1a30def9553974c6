"""Mistakes in how a function is called get an error that says what to do: a list of
NumPy scalars as groups (one column, not many), an ambiguous list of groups,
``predict_proba``'s two columns as scores, and a table's column names passed
positionally."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import indist_fast
from indist_fast.inference import bootstrap, delong
from indist_fast.metrics import evaluation, operating_points, threshold_choice

Y = np.array([0, 1, 1, 0, 1, 0, 0, 1])
S = np.array([0.1, 0.9, 0.8, 0.3, 0.6, 0.2, 0.4, 0.7])
G = np.array([1, 1, 2, 2, 1, 2, 1, 2])


@pytest.mark.parametrize("groups", [
    list(G), tuple(G), [np.int32(g) for g in G], [np.str_(str(g)) for g in G],
    [np.float64(g) for g in G],
])
def test_a_list_of_numpy_scalars_is_one_group_column(groups):
    got = indist_fast.evaluate_many(Y, S, groups=groups)
    want = indist_fast.evaluate_many(Y, S, groups=G)
    assert list(got.columns) == list(want.columns)
    assert [str(v) for v in got.columns["group"]] == [str(v) for v in
                                                      np.asarray(groups)[[0, 2]]]
    np.testing.assert_array_equal(got.columns["auc"], want.columns["auc"])


def test_a_list_of_arrays_is_several_group_columns():
    t = indist_fast.evaluate_many(np.r_[Y, Y], np.r_[S, S],
                                  groups=[np.r_[G, G], list("a" * 8 + "b" * 8)])
    assert list(t.columns)[:2] == ["group0", "group1"] and len(t) == 4


def test_arrays_mixed_with_single_values_are_refused():
    with pytest.raises(TypeError, match=r"groups mixes arrays and single values \(item 1 "
                                        r"is 3\): pass one group column"):
        indist_fast.evaluate_many(Y, S, groups=[G, 3, 4])


def test_one_composite_value_per_row_is_refused_with_the_fix():
    rows = [(g, "x") for g in G]                 # as many tuples as rows: ambiguous
    with pytest.raises(ValueError, match=r"groups is a list of 8 sequences and there are "
                                         r"8 rows.*list\(zip\(\*groups\)\)"):
        indist_fast.evaluate_many(Y, S, groups=rows)
    fixed = indist_fast.evaluate_many(Y, S, groups=list(zip(*rows)))
    np.testing.assert_array_equal(
        fixed.columns["auc"], indist_fast.evaluate_many(Y, S, groups=G).columns["auc"])


def test_predict_proba_columns_are_refused_by_evaluate_many():
    proba = np.c_[1 - S, S]
    with pytest.raises(ValueError, match=r"predict_proba.*proba\[:, 1\].*mapping"):
        indist_fast.evaluate_many(Y, proba)
    # two models whose scores happen to sum to 1 go by name
    t = indist_fast.evaluate_many(Y, {"a": proba[:, 0], "b": proba[:, 1]})
    assert t.columns["auc"].tolist() == [1 - indist_fast.roc_auc(Y, S),
                                         indist_fast.roc_auc(Y, S)]
    # any other 2-D array is still one model per column
    two = indist_fast.evaluate_many(Y, np.c_[S, S / 2])
    assert two.columns["model"].tolist() == [0, 1]


def entry_points():
    """Every public function of the metrics whose second argument is the scores."""
    for module in (evaluation, operating_points, threshold_choice, bootstrap, delong):
        for name in module.__all__:
            f = getattr(module, name)
            if inspect.isfunction(f) and list(inspect.signature(f).parameters)[1:2] in (
                    ["y_score"], ["score_a"]):
                yield pytest.param(f, id=name)


NEEDS = {"confusion": {"threshold": 0.5}, "best_threshold": {"criterion": "f1"},
         "operating_point_intervals": {"threshold": 0.5}, "dominates": {"score_b": S},
         "delong_test": {"score_b": S}, "bootstrap": {"n_boot": 10},
         "expected_loss": {"method": "optimal"}, "loss_curve": {"method": "optimal"}}


@pytest.mark.parametrize("f", list(entry_points()))
def test_predict_proba_columns_get_the_hint_everywhere(f):
    args = {k: v for k, v in NEEDS.get(f.__name__, {}).items()
            if k in inspect.signature(f).parameters}
    positional = [a for a in ("threshold", "criterion", "score_b", "method") if a in args
                  and inspect.signature(f).parameters[a].kind
                  is inspect.Parameter.POSITIONAL_OR_KEYWORD]
    extra = [args.pop(a) for a in positional]
    with pytest.raises(ValueError, match=r"predict_proba returns: pass the positive "
                                         r"class's probabilities, proba\[:, 1\]"):
        f(Y, np.c_[1 - S, S], *extra, **args)


@pytest.fixture
def frame():
    pd = pytest.importorskip("pandas")
    return pd.DataFrame({"y": Y, "p": S, "g": G})


@pytest.mark.parametrize("name", ["evaluate", "curves", "roc_auc", "average_precision",
                                  "indistinguishability_threshold",
                                  "precision_at_indistinguishability",
                                  "precision_recall_curve", "evaluate_many"])
def test_column_names_passed_positionally_say_how(frame, name):
    f = getattr(indist_fast, name)
    with pytest.raises(TypeError, match=rf"^{name}\(\) takes arrays positionally, got the "
                                        rf"column names 'y', 'p': pass them by keyword, "
                                        rf"{name}\(df, label='y', score='p'\)"):
        f(frame, "y", "p")
    with pytest.raises(TypeError, match=rf"{name}\(\) got the string 'p' as the scores"):
        f(frame, "p")
    with pytest.raises(TypeError, match=rf"{name}\(\) takes y_true and the scores "
                                        r"positionally and the rest by keyword"):
        f(frame["y"], frame["p"], np.ones(len(Y)))
    # what the messages say works
    by_keyword = f(frame, label="y", score="p")
    by_column = f(frame["y"], frame["p"])
    if name == "roc_auc":
        assert by_keyword == by_column == indist_fast.roc_auc(Y, S)


def test_evaluate_many_names_by_in_its_message(frame):
    with pytest.raises(TypeError, match=r"by= the segment columns"):
        indist_fast.evaluate_many(frame, "y", "p", "g")


def test_the_wrapped_functions_keep_their_signature_and_docs():
    for f in (indist_fast.evaluate, indist_fast.evaluate_many, indist_fast.roc_auc):
        params = inspect.signature(f).parameters
        assert list(params)[:2] in (["y_true", "y_score"], ["y_true", "scores"])
        assert "label" in params and f.__doc__ and f.__module__.startswith("indist_fast.")


def test_by_without_a_table_says_that_by_needs_one():
    with pytest.raises(TypeError, match=r"^by= names segment columns of a table.*groups="):
        indist_fast.evaluate_many(Y, S, by="g")


@pytest.mark.parametrize("shape", [(8, 1), (8, 2), (1, 8)])
def test_groups_of_two_dimensions_are_refused_as_groups(shape):
    from indist_fast.html import report_html
    groups = np.ones(shape)
    for call in (lambda: indist_fast.evaluate_many(Y, S, groups=groups),
                 lambda: report_html(Y, S, groups=groups)):
        with pytest.raises(ValueError, match=rf"^groups must be one column .* shape "
                                             rf"\({shape[0]}, {shape[1]}\)"):
            call()


def test_an_unpaired_data_set_with_nan_is_named():
    bad = S.copy()
    bad[2] = np.nan
    with pytest.raises(ValueError, match=r"^data set 'a' \(passed as y_true\): y_score "
                                         r"contains NaN \(first at row 2\)"):
        indist_fast.compare((Y, bad), (Y, S), paired=False)
    with pytest.raises(ValueError, match=r"^data set 'b' \(passed as score_a\): y_score "
                                         r"contains NaN"):
        indist_fast.compare((Y, S), (Y, bad), paired=False)
    with pytest.raises(ValueError, match=r"^data set 'B' \(passed as y_true\['B'\]\)"):
        indist_fast.compare({"A": (Y, S), "B": (Y, bad)}, paired=False)


@pytest.mark.parametrize("pos_label", [[1, 2], (1,), {1: 2}, {1}, np.array([1, 2]),
                                       float("nan")])
def test_an_accumulator_refuses_a_pos_label_that_is_not_one_value(pos_label):
    with pytest.raises(TypeError, match=r"^pos_label must be one label value"):
        indist_fast.Accumulator(pos_label=pos_label)
    acc = indist_fast.Accumulator(pos_label="yes")        # one value: checked at update
    acc.update(["yes", "no", "yes", "no"], [0.9, 0.1, 0.4, 0.6])
    assert acc.result().auc == indist_fast.evaluate(
        ["yes", "no", "yes", "no"], [0.9, 0.1, 0.4, 0.6], pos_label="yes").auc


def test_a_partition_key_that_disagrees_with_a_file_column_is_refused(tmp_path):
    for day, rows in (("1", "0,0.1,1\n1,0.9,1\n"), ("2", "1,0.7,2\n0,0.2,5\n")):
        (tmp_path / f"day={day}").mkdir()
        (tmp_path / f"day={day}" / "part.csv").write_text("y,s,day\n" + rows)
    with pytest.raises(ValueError, match=r"^by: column 'day' is both a partition key of "
                                         r".* and a column of .*day=2.part\.csv, and they "
                                         r"disagree: row 1 holds 5, the folder name says "
                                         r"day=2; rename one"):
        indist_fast.evaluate_file(tmp_path, label="y", score="s", by="day")
    # where they agree (polars writes both), either gives the same segments
    (tmp_path / "day=2" / "part.csv").write_text("y,s,day\n1,0.7,2\n0,0.2,2\n")
    got = indist_fast.evaluate_file(tmp_path, label="y", score="s", by="day")
    assert [int(v) for v in got.columns["day"]] == [1, 2]
    assert list(got.columns["n_rows"]) == [2, 2]
