"""The compiled engine against its reference twin on the threaded paths.

The ``threaded`` fixture (conftest.py) lowers ``_fast``'s size thresholds to a few
rows, so generated inputs of up to 200 rows run the two-block passes, the sampled
pivot, the weighted two-piece sweep and its checkpoint reruns, and the replicate
sweeps on two threads. Each test then checks in the fixture's log that the paths it is
about actually ran (on the helper thread where they should). Rows reach the engines
through ``prepare_rows`` in every layout of ``cases.layouts``; a failure names the
score dtype, shape and layout.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cases import describe, labelled, layouts, rows
from indist_fast import _fast, _reference
from indist_fast._validation import prepare_rows
from indist_fast.resampling import Resampler
from indist_fast.table import ScoreTable
from test_kernels import assert_sweeps_equal, assert_tables_equal

LAYOUTS = ("contiguous", "strided", "byteswapped", "readonly", "list")
DTYPES = (np.float64, np.float32, np.float16)
LEVELS = st.lists(st.floats(0.01, 0.99), min_size=1, max_size=5, unique=True)
SETTINGS = settings(max_examples=60, deadline=None)


@st.composite
def threaded_rows(draw, weighted=None, both_classes=False):
    """Rows of 1-200 (2-200 with both classes) with ties, ±inf, ±0.0, zero weights, in
    float64, float32 or float16."""
    y, s, w = draw(rows(max_n=200, weighted=weighted, both_classes=both_classes,
                        float32=False))
    return y, s.astype(draw(st.sampled_from(DTYPES))), w


def prepared(case, layout):
    """``prepare_rows`` of the case in ``layout``, and its description for messages."""
    y, s, w = ((None if a is None else layouts(a)[layout]) for a in case)
    return prepare_rows(y, s, w), describe(s, layout, w)


def outcome(fn, *args):
    """``fn(*args)``, or the type and message of the error it raised."""
    try:
        return fn(*args)
    except (ValueError, TypeError) as exc:
        return type(exc), str(exc)


def assert_same_summary(r, levels, exclude_self, info, tol=1e-12):
    args = (r.y, r.s, r.w, r.pos_value, r.neg_value, levels, exclude_self)
    fast, ref = outcome(_fast.summarize, *args), outcome(_reference.summarize, *args)
    with labelled(info):
        if isinstance(ref, tuple) and isinstance(ref[0], type):
            assert fast == ref, "different errors"
        else:
            assert_sweeps_equal(fast, ref, tol)


def assert_same_table(r, info):
    args = (r.y, r.s, r.w, r.pos_value, r.neg_value)
    fast, ref = _fast.build_table(*args), _reference.build_table(*args)
    with labelled(info):
        assert_tables_equal(fast, ref)
    return fast


# A level reached only below the pivot, with a weighted lower piece long enough to be
# split at its checkpoint: the lower piece is swept again in halves on two threads.
BELOW_PIVOT = (np.arange(40) % 7 == 0, np.linspace(1.0, -1.0, 40), np.full(40, 2.0))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_weighted_summarize_on_two_threads(threaded, layout):
    @SETTINGS
    @given(case=threaded_rows(weighted=True), levels=LEVELS, exclude_self=st.booleans())
    @example(case=BELOW_PIVOT, levels=[0.3, 0.9], exclude_self=True)
    def check(case, levels, exclude_self):
        r, info = prepared(case, layout)
        assert_same_summary(r, np.array(levels), exclude_self, info)

    check()
    assert threaded.helper["count_rows"] and threaded.helper["scatter_keys"]
    assert threaded.two_piece, "no weighted sweep ran in two pieces"
    assert threaded.helper["summarize_keys_from"], "lower piece not swept on the helper"
    assert threaded.pieces[3], "no rerun in halves from the checkpoint"


@pytest.mark.parametrize("layout", LAYOUTS)
def test_unweighted_summarize_on_two_threads(threaded, layout):
    @SETTINGS
    @given(case=threaded_rows(weighted=False), levels=LEVELS, exclude_self=st.booleans())
    def check(case, levels, exclude_self):
        r, info = prepared(case, layout)
        assert_same_summary(r, np.array(levels), exclude_self, info)

    check()
    assert threaded.helper["count_rows"] and threaded.helper["scatter_scores"]
    assert threaded.calls["summarize_sorted"]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_tables_and_their_sweeps_on_two_threads(threaded, layout):
    @SETTINGS
    @given(case=threaded_rows(), levels=LEVELS, exclude_self=st.booleans())
    def check(case, levels, exclude_self):
        r, info = prepared(case, layout)
        table = assert_same_table(r, info)
        lv = np.array(levels)
        with labelled(info):
            assert_sweeps_equal(_fast.sweep_table(*table, lv, exclude_self),
                                _reference.sweep_table(*table, lv, exclude_self))

    check()
    assert threaded.helper["scatter_scores"] and threaded.helper["scatter_keys"]
