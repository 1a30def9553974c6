"""Bad input gets a clear error naming the argument; good input of any form is accepted
and never modified."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from cases import layouts
import indist_fast
from indist_fast import LevelNotReachedWarning, UndefinedBWarning

Y = np.array([0, 1, 1, 0, 1, 0, 0, 1])
S = np.array([0.1, 0.9, 0.4, 0.35, 0.8, 0.2, 0.6, 0.7])
PUBLIC = [indist_fast.evaluate, indist_fast.curves, indist_fast.roc_auc,
          indist_fast.average_precision, indist_fast.indistinguishability_threshold,
          indist_fast.precision_at_indistinguishability,
          lambda y, s, **kw: indist_fast.ScoreTable.from_arrays(y, s, **kw).evaluate()]


@pytest.fixture(params=range(len(PUBLIC)), ids=lambda i: f"fn{i}")
def fn(request, backend):
    return PUBLIC[request.param]


# --- the error table: one test per row ---------------------------------------------

def test_lengths_differ(fn):
    with pytest.raises(ValueError, match=r"inconsistent numbers of samples: \[8, 7\]"):
        fn(Y, S[:-1])


def test_weight_length_differs(fn):
    with pytest.raises(ValueError, match=r"inconsistent numbers of samples: \[8, 8, 3\]"):
        fn(Y, S, sample_weight=[1, 2, 3])


def test_empty_input(fn):
    with pytest.raises(ValueError, match="empty"):
        fn([], [])


@pytest.mark.parametrize("arg", ["y_true", "y_score", "sample_weight"])
def test_not_1d(fn, arg):
    kwargs = {"y_true": Y, "y_score": S, "sample_weight": np.ones(8)}
    kwargs[arg] = np.stack([kwargs[arg], kwargs[arg]], axis=1)
    with pytest.raises(ValueError, match=rf"{arg} should be a 1d array, got an array of "
                                         r"shape \(8, 2\)"):
        fn(kwargs["y_true"], kwargs["y_score"], sample_weight=kwargs["sample_weight"])


def test_two_columns_of_scores_point_at_the_positive_class(fn):
    proba = np.stack([1.0 - S, S], axis=1)          # what predict_proba returns
    with pytest.raises(ValueError, match=r"y_score should be a 1d array.*proba\[:, 1\]"):
        fn(Y, proba)
    with pytest.raises(ValueError, match=r"y_score should be a 1d array.*x\.ravel\(\)"):
        fn(Y, S[:, None])
    with pytest.raises(ValueError) as caught:        # no hint where none applies
        fn(Y, np.ones((8, 3)))
    assert "predict_proba" not in str(caught.value) and "ravel" not in str(caught.value)


@pytest.mark.parametrize("arg", ["y_true", "y_score", "sample_weight"])
@pytest.mark.parametrize("ragged", [[[0, 1], [1]], [0, [1, 1], 0, 1, 0, 1, 0, 1]])
def test_ragged_lists(fn, arg, ragged):
    kwargs = {"y_true": Y.tolist(), "y_score": S.tolist(), "sample_weight": [1.0] * 8}
    kwargs[arg] = ragged
    with pytest.raises(ValueError, match=rf"^{arg} should be a 1d array, got a ragged"):
        fn(kwargs["y_true"], kwargs["y_score"], sample_weight=kwargs["sample_weight"])


@pytest.mark.parametrize("arg", ["y_true", "y_score", "sample_weight"])
def test_ragged_lists_in_an_accumulator(backend, arg):
    kwargs = {"y_true": [0, 1], "y_score": [0.2, 0.4], "sample_weight": [1.0, 2.0]}
    kwargs[arg] = [[0, 1], [1]]
    with pytest.raises(ValueError, match=rf"^{arg} should be a 1d array, got a ragged"):
        indist_fast.Accumulator().update(**kwargs)


def test_nan_score(fn):
    s = S.copy()
    s[3] = np.nan
    with pytest.raises(ValueError, match="y_score contains NaN .first at row 3"):
        fn(Y, s)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -1.0])
def test_bad_weight(fn, bad):
    w = np.ones(8)
    w[5] = bad
    with pytest.raises(ValueError, match=r"sample_weight must be finite and non-negative; "
                                         r"found .* at row 5"):
        fn(Y, S, sample_weight=w)


def test_all_zero_weight(fn):
    with pytest.raises(ValueError, match="sample_weight is zero on every row"):
        fn(Y, S, sample_weight=np.zeros(8))


@pytest.mark.parametrize("labels, message", [
    ([0, 1, 2, 0, 1, 0, 0, 1], r"third label 2 at row 2 \(the classes: 0 and 1\)"),
    ([1, 2, 1, 2, 1, 1, 2, 2],
     r"coded \{0, 1\} or \{-1, 1\} without pos_label; found the labels 1 and 2\."),
    ([-1, 1, 0, -1, 1, -1, -1, 1], "third label 0 at row 2"),
    # Order of appearance decides which label is the third, not the {-1, 1} coding the
    # smallest and largest suggest.
    ([0, 1, 0, 1, 0, 0, 1, -1], r"third label -1 at row 7 \(the classes: 0 and 1\)"),
    ([0.0, 1.0, 0.5, 0, 1, 0, 0, 1], "third label 0.5 at row 2"),
    (["a", "b", "c", "a", "b", "a", "a", "b"],
     r"third label 'c' at row 2 \(the classes: 'a' and 'b'\)"),
])
def test_labels_not_binary(fn, labels, message):
    with pytest.raises(ValueError, match=message):
        fn(labels, S)


def test_third_label_with_pos_label(fn):
    with pytest.raises(ValueError, match="third label 5 at row 2"):
        fn([3, 7, 5, 3, 7, 3, 3, 7], S, pos_label=7)


@pytest.mark.parametrize("pos_label, message", [
    # pos_label between the smallest and the largest label is a value of y_true
    (1, r"third label 7 at row 7 \(the classes: 0 and 1\)"),
    (0, r"third label 7 at row 7 \(the classes: 0 and 1\)"),
    # pos_label fixes one class: the other is the first label that is not it
    (7, r"third label 1 at row 1 \(the classes: 0 and 7\)"),
    (3, r"pos_label=3 is not a value of y_true \(smallest 0, largest 7\)"),
])
def test_third_label_named_in_order_of_appearance(fn, pos_label, message):
    with pytest.raises(ValueError, match=message):
        fn([0, 1, 0, 1, 0, 0, 1, 7], S, pos_label=pos_label)


@pytest.mark.parametrize("dtype", [np.int64, np.uint8, np.float32])
def test_third_label_far_down_a_long_column_is_named_by_row(dtype, backend):
    # Long enough for the kernels' general and radix paths, not only the small one.
    y = np.zeros(400_000, dtype=dtype)
    y[::3] = 1
    y[377_777] = 2
    s = np.random.default_rng(0).random(len(y))
    for f in (indist_fast.evaluate, indist_fast.roc_auc):
        with pytest.raises(ValueError, match=r"third label 2(\.0)? at row 377777 "):
            f(y, s)


def test_string_labels_without_pos_label(fn):
    labels = np.where(Y == 1, "spam", "ham")
    with pytest.raises(ValueError, match="pass pos_label"):
        fn(labels, S)


def test_pos_label_not_present(fn):
    with pytest.raises(ValueError, match="pos_label='eggs' is not one of the labels"):
        fn(np.where(Y == 1, "spam", "ham"), S, pos_label="eggs")


@pytest.mark.parametrize("labels, which", [(np.ones(8), "positives"),
                                           (np.zeros(8), "negatives")])
def test_single_class(fn, labels, which):
    with pytest.raises(ValueError, match=f"only {which}.*undefined"):
        fn(labels, S)


def test_single_class_after_zero_weights(fn):
    w = np.where(Y == 1, 0.0, 1.0)
    with pytest.raises(ValueError, match="only negatives"):
        fn(Y, S, sample_weight=w)


@pytest.mark.parametrize("level", [0.0, 1.0, -0.1, 1.5, np.nan])
def test_level_outside_unit_interval(backend, level):
    with pytest.raises(ValueError, match="level must lie strictly between 0 and 1"):
        indist_fast.indistinguishability_threshold(Y, S, level=level)
    with pytest.raises(ValueError, match="levels must lie strictly between 0 and 1"):
        indist_fast.evaluate(Y, S, levels=(0.5, level))


def test_level_not_a_number(backend):
    with pytest.raises(TypeError, match="level must be a real number"):
        indist_fast.indistinguishability_threshold(Y, S, level="half")
    with pytest.raises(TypeError, match="levels must be a sequence"):
        indist_fast.evaluate(Y, S, levels=0.5)


@pytest.mark.parametrize("scores", [np.array(["a"] * 8), np.ones(8, complex),
                                    np.array([object()] * 8)])
def test_non_numeric_scores(fn, scores):
    with pytest.raises(TypeError, match="y_score must hold real numbers"):
        fn(Y, scores)


def test_non_numeric_weights(fn):
    with pytest.raises(TypeError, match="sample_weight must hold real numbers"):
        fn(Y, S, sample_weight=np.array(["1"] * 8))


# --- what must be accepted ---------------------------------------------------------

def _auc(y, s, **kw):
    return indist_fast.roc_auc(y, s, **kw)


REFERENCE_AUC = 0.9375


def test_reference_value(backend):
    # 16 positive-negative pairs, 15 won by the positive
    assert _auc(Y, S) == pytest.approx(REFERENCE_AUC)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8,
                                   np.uint16, np.uint32, np.uint64, np.float16,
                                   np.float32, np.float64, np.longdouble])
def test_any_real_score_dtype(backend, dtype):
    s = (S * 100).astype(dtype)
    assert _auc(Y, s) == pytest.approx(REFERENCE_AUC)


@pytest.mark.parametrize("dtype", [bool, np.int8, np.uint8, np.int32, np.int64,
                                   np.uint64, np.float16, np.float32, np.float64])
def test_any_label_dtype(backend, dtype):
    assert _auc(Y.astype(dtype), S) == pytest.approx(REFERENCE_AUC)


def test_plus_minus_one_labels(backend):
    assert _auc(2 * Y - 1, S) == pytest.approx(REFERENCE_AUC)


@pytest.mark.parametrize("labels, pos", [
    (np.where(Y == 1, "spam", "ham"), "spam"),
    (np.where(Y == 1, 7, 3), 7),
    (np.where(Y == 1, 3, 7), 3),
    (np.where(Y == 1, "yes", "no").astype(object), "yes"),
    (Y.astype(bool), True),
])
def test_any_two_labels_with_pos_label(backend, labels, pos):
    assert _auc(labels, S, pos_label=pos) == pytest.approx(REFERENCE_AUC)


def test_pos_label_zero_flips_classes(backend):
    assert _auc(Y, S, pos_label=0) == pytest.approx(1 - REFERENCE_AUC)
    assert _auc(Y.astype(bool), S, pos_label=False) == pytest.approx(1 - REFERENCE_AUC)


def test_infinite_scores(backend):
    s = S.copy()
    s[S.argmax()] = np.inf
    s[S.argmin()] = -np.inf
    assert _auc(Y, s) == pytest.approx(REFERENCE_AUC)
    assert np.isinf(indist_fast.curves(Y, s).thresholds[[0, -1]]).all()


@pytest.mark.parametrize("layout", ["contiguous", "strided", "byteswapped", "readonly", "list"])
def test_array_layouts(backend, layout):
    y, s, w = layouts(Y)[layout], layouts(S)[layout], layouts(np.arange(1.0, 9.0))[layout]
    assert _auc(y, s) == pytest.approx(REFERENCE_AUC)
    want = indist_fast.evaluate(Y, S, sample_weight=np.arange(1.0, 9.0), levels=(0.5,))
    got = indist_fast.evaluate(y, s, sample_weight=w, levels=(0.5,))
    assert got.to_dict() == want.to_dict()


def test_memory_mapped_read_only(backend, tmp_path):
    np.save(tmp_path / "s.npy", S)
    s = np.load(tmp_path / "s.npy", mmap_mode="r")
    assert _auc(Y, s) == pytest.approx(REFERENCE_AUC)


def test_pandas_series(backend):
    pd = pytest.importorskip("pandas")
    assert _auc(pd.Series(Y), pd.Series(S)) == pytest.approx(REFERENCE_AUC)
    assert _auc(pd.Series(Y.astype(bool)), pd.Series(S, dtype="float32")) == \
        pytest.approx(REFERENCE_AUC)


def test_inputs_are_never_modified(fn):
    y, s, w = Y.copy(), S.copy(), np.arange(8.0)
    w[0] = 0.0
    before = (y.copy(), s.copy(), w.copy())
    fn(y, s, sample_weight=w)
    for arr, orig in zip((y, s, w), before):
        np.testing.assert_array_equal(arr, orig)
    assert y.flags.writeable and s.flags.writeable and w.flags.writeable


# --- warnings: a decision, not noise -------------------------------------------------

def test_level_not_reached_gives_nan_and_warning(backend):
    y = np.array([1, 0, 0, 0, 0, 0, 0, 1])
    s = np.arange(8.0)              # the positives sit at the bottom and the top
    with pytest.warns(LevelNotReachedWarning, match="No operating point reaches B >= 0.6"):
        report = indist_fast.evaluate(y, s)
    assert not report.at[0.6].reached and np.isnan(report.at[0.6].threshold)
    assert np.isnan(report.at[0.6].precision)
    with pytest.warns(LevelNotReachedWarning):
        assert np.isnan(indist_fast.indistinguishability_threshold(y, s, level=0.9))


def test_undefined_b_warning_names_exclude_self(backend):
    w = np.full(8, 1 / 8)           # normalised weights: total positive weight 0.5
    with pytest.warns(UndefinedBWarning, match="exclude_self=False"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", LevelNotReachedWarning)
            indist_fast.evaluate(Y, S, sample_weight=w)
    # the all-pairs form is scale invariant: no warning, same as unit weights
    a = indist_fast.evaluate(Y, S, sample_weight=w, exclude_self=False)
    b = indist_fast.evaluate(Y, S, exclude_self=False)
    assert a.threshold == b.threshold and a.b == pytest.approx(b.b)


def test_pos_label_of_wrong_kind_for_bool_labels(backend):
    with pytest.raises(ValueError, match="pos_label='yes' does not match boolean y_true"):
        indist_fast.roc_auc(Y.astype(bool), S, pos_label="yes")


def test_scalar_function_warns_only_for_its_level(backend):
    y = np.array([1, 0, 0, 0, 0, 0, 0, 1])
    s = np.arange(8.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t = indist_fast.indistinguishability_threshold(y, s, level=0.3)
    assert not np.isnan(t) and caught == []


@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")
def test_works_after_fork(backend):
    """A forked child must not wait on the parent's helper thread."""
    import multiprocessing as mp
    rng = np.random.default_rng(0)
    y, s = rng.random(200_000) < 0.2, rng.random(200_000)
    want = indist_fast.roc_auc(y, s)          # parent starts its helper thread
    with mp.get_context("fork").Pool(1) as pool:
        got = pool.apply_async(indist_fast.roc_auc, (y, s)).get(timeout=60)
    assert got == want


@pytest.mark.parametrize("argument", ["y_true", "y_score", "sample_weight"])
def test_masked_values_are_refused_not_read(fn, argument):
    # NumPy reads the values under a mask as data: a silent wrong result.
    args = {"y_true": Y.copy(), "y_score": S.copy(), "sample_weight": np.ones(len(Y))}
    args[argument] = np.ma.masked_array(args[argument], mask=np.arange(len(Y)) == 3)
    with pytest.raises(ValueError, match=rf"{argument} is a masked array with 1 masked "
                                         r"value\(s\) \(first at row 3\)"):
        fn(args["y_true"], args["y_score"], sample_weight=args["sample_weight"])


def test_a_masked_array_without_masked_values_is_read_as_it_is(backend):
    unmasked = np.ma.masked_array(S.copy())
    assert indist_fast.roc_auc(Y, unmasked) == indist_fast.roc_auc(Y, S)
    assert indist_fast.evaluate(np.ma.masked_array(Y), S).auc == indist_fast.evaluate(Y, S).auc



def test_the_weight_span_check_refuses_exactly_what_the_sweeps_cannot_scale():
    """Its shortcut for totals near 1 agrees with ``scale_exponent`` everywhere."""
    from indist_fast._core.rates import scale_exponent
    from indist_fast._core.validation import check_weight_span
    exponents = list(range(-1070, 1024, 37)) + [-1074, -500, 500, 1023]
    for p in exponents:
        for q in exponents:
            for wp, wn in ((2.0 ** p, 2.0 ** q), (1.5 * 2.0 ** p if p < 1023 else 2.0 ** p,
                                                   2.0 ** q)):
                refused = scale_exponent(wp, wn) is None
                try:
                    check_weight_span(wp, wn)
                    raised = False
                except ValueError:
                    raised = True
                assert raised == refused, (wp, wn)
