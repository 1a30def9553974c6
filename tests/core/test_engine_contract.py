"""The Engine protocol (``_core/engine.py``) held to both of its twins.

``fast`` (the compiled kernels) and ``reference`` (NumPy) export exactly the protocol's
names with its signatures, and one generic test compares every protocol function of
the two, found by name (as bottleneck's tests find each slow twin), on generated rows:
ties, +-inf, +-0.0, zero weights, one class and bad rows, in every layout of
``cases.layouts`` after ``prepare_rows``, at the default size thresholds and with the
``threaded`` fixture's lowered ones. ``TWINS`` says, per name, how to make the
arguments from a case and how to compare the results; a protocol name without an
entry fails ``test_every_protocol_name_has_a_case``.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import math
import os
import sys
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cases import DTYPES, LAYOUTS, labelled, prepared, rows, spoiled
from indist_fast._core import fast as _fast
from indist_fast._core import threads as _threads
from indist_fast._core import reference as _reference
from indist_fast._core.engine import Engine, engine
from indist_fast._core.validation import Rows, prepare_rows
from indist_fast.inference.bootstrap import Resampler
from indist_fast.inference.segment_bootstrap import segment_slots
from indist_fast.table.score_table import ScoreTable
from test_kernels import assert_sweeps_equal, assert_tables_equal

TWIN_MODULES = {"fast": _fast, "reference": _reference}
PROTOCOL = tuple(name for name, value in vars(Engine).items()
                 if not name.startswith("_") and inspect.isfunction(value))


# --- names and signatures --------------------------------------------------------------

def test_protocol_is_read():
    # (a change in how Protocol stores its methods must not make the tests below vacuous)
    assert len(PROTOCOL) >= 10 and "summarize" in PROTOCOL


@pytest.mark.parametrize("twin", sorted(TWIN_MODULES))
def test_twins_export_exactly_the_protocol(twin):
    module = TWIN_MODULES[twin]
    assert sorted(module.__all__) == sorted(PROTOCOL)
    assert len(set(module.__all__)) == len(module.__all__), "a name exported twice"
    for name in PROTOCOL:
        assert callable(getattr(module, name)), name


def _protocol_signature(name: str) -> inspect.Signature:
    sig = inspect.signature(getattr(Engine, name))
    params = list(sig.parameters.values())
    assert params[0].name == "self"
    return sig.replace(parameters=params[1:])


@pytest.mark.parametrize("name", PROTOCOL)
def test_twins_have_the_protocol_signature(name):
    """Names, kinds, defaults, annotation text and return annotation, all equal."""
    protocol = _protocol_signature(name)
    for twin, module in TWIN_MODULES.items():
        assert inspect.signature(getattr(module, name)) == protocol, (
            f"{twin}.{name}{inspect.signature(getattr(module, name))} != "
            f"Engine.{name}{protocol}")


# --- comparing results ------------------------------------------------------------------

TOL = 1e-12      # relative, for sums (as test_kernels); tables and counts are exact


def assert_costs_equal(fast, ref):
    assert (fast is None) == (ref is None), "cost sums on one engine only"
    if fast is None:
        return
    for field, a, b in zip(fast._fields, fast, ref):
        # (the hull's turn test and the score sums round differently: 1e-10 as
        # test_kernels.test_cost_sums_match_reference)
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12, equal_nan=True,
                                   err_msg=field)


def assert_sweep_results_equal(fast, ref):
    assert_sweeps_equal(fast, ref, TOL)
    assert_costs_equal(fast.costs, ref.costs)


def assert_sorted_classes_equal(fast, ref):
    for f, r, field in zip(fast, ref, fast._fields):
        assert f.dtype == r.dtype, field
        # (as values: -0.0 and 0.0 may come out in either order, as np.sort's do)
        np.testing.assert_array_equal(f, r, err_msg=field)


def assert_replicate_counts_equal(fast, ref):
    for f, r, field in zip(fast, ref, fast._fields):
        assert f.dtype == r.dtype, field
        if field.endswith("counts"):
            np.testing.assert_array_equal(f, r, err_msg=field)
        else:
            np.testing.assert_allclose(f, r, rtol=TOL, atol=0, err_msg=field)


def assert_allclose(fast, ref):
    np.testing.assert_allclose(fast, ref, rtol=TOL, atol=TOL, equal_nan=True)


def assert_range_sweeps_equal(fast, ref):
    assert_sweep_results_equal(fast.result, ref.result)
    np.testing.assert_allclose(fast.gap, ref.gap, rtol=TOL, atol=TOL)


# --- making arguments -------------------------------------------------------------------

class _Release:
    """Stands for a ``release`` callback: each twin gets its own recorder."""

    def __repr__(self) -> str:
        return "RELEASE"


RELEASE = _Release()
LEVELS = st.lists(st.floats(0.01, 0.99), min_size=1, max_size=5, unique=True).map(np.array)
COSTS = st.one_of(st.none(), st.none(), st.tuples(
    st.floats(-2, 2), st.one_of(st.floats(0, 1), st.just(-1.0)),
    st.sampled_from([math.nan, 0.5])))
Draw = Callable[[st.SearchStrategy[Any]], Any]


def _raw(r: Rows) -> tuple:
    return r.y, r.s, r.w, r.pos_value, r.neg_value


def _table(r: Rows) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # (a reference table: the arguments must not depend on the engine under test)
    return tuple(_reference.build_table(*_raw(r)))


def _part(r: Rows, start: int, stop: int) -> Rows:
    return dataclasses.replace(r, y=r.y[start:stop], s=r.s[start:stop],
                               w=None if r.w is None else r.w[start:stop])


def _sweep_args(draw: Draw) -> tuple:
    return draw(LEVELS), draw(st.booleans())


def summarize_args(draw: Draw, r: Rows) -> tuple:
    return (*_raw(r), *_sweep_args(draw), draw(COSTS), draw(st.sampled_from([None, RELEASE])))


def summarize_plain_args(draw: Draw, r: Rows) -> tuple:
    """As ``auc_plain``'s, with levels and ``exclude_self``."""
    y, s, max_rows = auc_plain_args(draw, r)
    return (y, s, *_sweep_args(draw), max_rows)


def summarize_parts_args(draw: Draw, r: Rows) -> tuple:
    """Rows as given (bad ones, {-1, 1} or coded labels, one class: both twins return
    None for what is not labelled 1 and 0) in blocks of one or two writers, sometimes
    a block missing (None), a writer's rows miscounted or a sample of the other dtype."""
    n = r.n_rows     # (two blocks at least, so that a second writer has one)
    bounds = [0, *sorted(draw(st.lists(st.integers(0, n), min_size=1, max_size=4))), n]
    blocks: list[Any] = [(r.y[a:b], r.s[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]
    writers = draw(st.sampled_from([2, 1]))
    spoil = draw(st.sampled_from(["none", "none", "none", "missing", "miscounted", "dtype"]))
    if spoil == "missing":
        blocks[draw(st.integers(0, len(blocks) - 1))] = None
    own = [blocks[j::writers] for j in range(writers)]
    rows = [sum(len(b[1]) for b in part if b is not None) for part in own]
    if spoil == "miscounted":
        rows[-1] += 1
    sample = r.s[::draw(st.integers(1, 3))]
    if spoil == "dtype":
        sample = sample.astype(np.float32 if sample.dtype == np.float64 else np.float64)
    parts = [lambda p=p: iter(p) for p in own]
    return (parts, rows, sample, *_sweep_args(draw))


def auc_plain_args(draw: Draw, r: Rows) -> tuple:
    """Rows as given (bad ones, {-1, 1} or coded labels, one class included: both twins
    return None for what is not plain), sometimes not plain in layout or length."""
    y, s, _, _, _ = _raw(r)
    layout = draw(st.sampled_from(["plain", "plain", "plain", "strided", "bool", "list",
                                   "swapped", "unaligned"]))
    if layout == "strided" and len(s) > 1:
        y, s = np.repeat(y, 2)[::2], np.repeat(s, 2)[::2]
    elif layout == "bool":
        y = y == 1
    elif layout == "list":
        y = y.tolist()
    elif layout == "swapped":
        s = s.astype(s.dtype.newbyteorder())
    elif layout == "unaligned" and len(s) > 0:        # contiguous, one byte off
        s = np.frombuffer(b"\0" + s.tobytes(), dtype=s.dtype, offset=1)
    return (y, s, draw(st.sampled_from([100_000, len(s), max(len(s) - 1, 0)])))


def assert_aucs_equal(fast, ref):
    # The same double: both count the pairs exactly and divide once.
    assert fast == ref or (fast is None and ref is None), (fast, ref)


def assert_plain_sweeps_equal(fast, ref):
    assert (fast is None) == (ref is None)
    if fast is not None:
        assert_sweep_results_equal(fast, ref)


def sweep_table_args(draw: Draw, r: Rows) -> tuple:
    return (*_table(r), *_sweep_args(draw), draw(COSTS))


def merge_tables_args(draw: Draw, r: Rows) -> tuple:
    k = draw(st.integers(0, r.n_rows))     # (both parts weighted or both not: one dtype)
    return (*_table(_part(r, 0, k)), *_table(_part(r, k, r.n_rows)))


def sorted_classes_args(draw: Draw, r: Rows) -> tuple:
    return (r.y, r.s, r.pos_value, r.neg_value, draw(st.sampled_from([None, RELEASE])))


def summarize_runs_args(draw: Draw, r: Rows) -> tuple:
    """The runs out-of-core evaluation writes: each class of a few chunks, sorted."""
    cuts = sorted(draw(st.lists(st.integers(0, r.n_rows), max_size=3)))
    bounds = [0, *cuts, r.n_rows]
    runs = []
    for a, b in zip(bounds[:-1], bounds[1:]):
        part = _part(r, a, b)
        pos, neg = _reference.sorted_classes(part.y, part.s, part.pos_value, part.neg_value)
        runs += [(pos, True), (neg, False)]
    held_bytes = draw(st.sampled_from([0, 4096, 1 << 26]))
    return (runs, *_sweep_args(draw), draw(COSTS), held_bytes)


def _resampler(draw: Draw, r: Rows) -> tuple[Resampler, bool]:
    stratified = draw(st.booleans())
    return Resampler.from_rows(r, ScoreTable.from_rows(r), stratified=stratified,
                               seed=draw(st.integers(0, 2**32 - 1))), stratified


def replicate_counts_args(draw: Draw, r: Rows) -> tuple:
    res, stratified = _resampler(draw, r)
    return (res.bit_generator(draw(st.integers(0, 3))), res.pos_group, res.pos_weight,
            res.neg_group, res.neg_weight, len(res.table.scores), stratified)


def replicate_sweeps_args(draw: Draw, r: Rows) -> tuple:
    res, stratified = _resampler(draw, r)
    generators = [res.bit_generator(k) for k in range(draw(st.integers(0, 5)))]
    return (generators, res.pos_group, res.pos_weight, res.neg_group, res.neg_weight,
            res.table.scores, stratified, *_sweep_args(draw))


def segment_replicate_sweeps_args(draw: Draw, r: Rows) -> tuple:
    """Rows cut into up to four segments, some listed (one-class ones too, in any order,
    repeated), under a seed of any size with a spawn key."""
    n_segments = draw(st.integers(1, 4))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    slots = segment_slots(r, rng.integers(0, n_segments, r.n_rows).astype(np.int64),
                          n_segments)
    segments = np.array(draw(st.lists(st.integers(0, n_segments - 1), max_size=5)),
                        dtype=np.int64)
    keys = segments + draw(st.sampled_from([0, 7, 2**32 - 5]))
    entropy = draw(st.integers(0, 2**200))
    spawn_key = tuple(draw(st.lists(st.integers(0, 2**40), max_size=2)))
    return (entropy, spawn_key, segments, keys, draw(st.integers(0, 4)), *slots[:8],
            draw(st.booleans()), *_sweep_args(draw))


def segment_order_args(draw: Draw, r: Rows) -> tuple:
    n_segments = draw(st.integers(1, 4))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return rng.integers(0, n_segments, r.n_rows).astype(np.int64), r.s, n_segments


def assert_orders_equal(fast, ref):
    for f, r in zip(fast, ref):
        assert f.dtype == r.dtype
        np.testing.assert_array_equal(f, r)


def delong_sums_args(draw: Draw, r: Rows) -> tuple:
    return _table(r)[1:]


def delong_components_args(draw: Draw, r: Rows) -> tuple:
    """The rows' own scores (so bad rows reach them) and up to two more models'."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    others = [np.round(rng.normal(size=r.n_rows), 1).astype(r.s.dtype)
              for _ in range(draw(st.integers(0, 2)))]
    return (r.y, [r.s] + others, r.w, r.pos_value, r.neg_value)


def assert_components_equal(fast, ref):
    assert len(fast) == len(ref)
    for f, r in zip(fast, ref):
        assert f.component.dtype == r.component.dtype == np.float64
        for name, a, b in zip(f._fields, f, r):
            np.testing.assert_allclose(a, b, rtol=TOL, atol=TOL, equal_nan=True, err_msg=name)


def paired_moments_args(draw: Draw, r: Rows) -> tuple:
    """Two models' components (any values; NaN where a row weighs 0, as they come)."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    a, b = rng.random((2, r.n_rows))
    if r.w is not None:
        a[r.w == 0] = b[r.w == 0] = np.nan
    total = r.n_rows if r.w is None else float(np.sum(r.w))
    return r.y, r.pos_value, r.w, total, a, b


def sweep_range_args(draw: Draw, r: Rows) -> tuple:
    """The lower part of a table from the state of the part above it (as
    ``distributed.ranges`` sweeps each range)."""
    scores, tp, fp = _table(r)
    k = draw(st.integers(0, len(scores)))
    levels, exclude_self = _sweep_args(draw)
    weight_pos, weight_neg = float(np.sum(tp, dtype=float)), float(np.sum(fp, dtype=float))
    tp_above, fp_above = float(np.sum(tp[:k], dtype=float)), float(np.sum(fp[:k], dtype=float))
    _, gap_above = _reference.sweep_range(scores[:k], tp[:k], fp[:k], levels, exclude_self,
                                          weight_pos, weight_neg, 0.0, 0.0, 0.0)
    return (scores[k:], tp[k:], fp[k:], levels, exclude_self, weight_pos, weight_neg,
            tp_above, fp_above, gap_above)


def summarize_segments_args(draw: Draw, r: Rows) -> tuple:
    """Rows cut into up to six segments (some possibly empty or of one class)."""
    n_segments = draw(st.integers(1, 6))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    codes = rng.integers(0, n_segments, r.n_rows).astype(np.int64)
    return (*_raw(r)[:3], codes, n_segments, r.pos_value, r.neg_value, *_sweep_args(draw))


def summarize_models_args(draw: Draw, r: Rows) -> tuple:
    """Up to three models' scores (the first the rows' own, so bad rows reach it) over
    the same segments."""
    y, s, w, codes, n_segments, pos, neg, levels, exclude_self = summarize_segments_args(draw, r)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    others = [np.round(rng.normal(size=len(s)), 1).astype(s.dtype)
              for _ in range(draw(st.integers(0, 2)))]
    return (y, [s] + others, w, codes, n_segments, pos, neg, levels, exclude_self)


def assert_model_sweeps_equal(fast, ref):
    assert len(fast) == len(ref)
    for f, r in zip(fast, ref):
        assert_segment_sweeps_equal(f, r)


def assert_segment_sweeps_equal(fast, ref):
    assert type(fast) is type(ref)
    for f, r, field in zip(fast, ref, fast._fields):
        assert f.dtype == r.dtype and f.shape == r.shape, field
        np.testing.assert_allclose(f, r, rtol=TOL, atol=TOL, equal_nan=True, err_msg=field)


def transpose_sums_args(draw: Draw, r: Rows) -> tuple:
    """The rows' scores as one column of a C-ordered matrix of up to four columns."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    others = rng.random((r.n_rows, draw(st.integers(0, 3))))
    return (np.ascontiguousarray(np.column_stack([r.s.astype(np.float64), others])),)


def assert_transposed_equal(fast, ref):
    np.testing.assert_array_equal(fast[0], ref[0])
    np.testing.assert_allclose(fast[1], ref[1], rtol=TOL, atol=TOL, equal_nan=True)


def _classes(draw: Draw, r: Rows) -> tuple[np.ndarray, int, int]:
    """Codes of up to five classes for the rows, and one class as the positive."""
    k = draw(st.integers(1, 5))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return rng.integers(0, k, r.n_rows).astype(np.int64), draw(st.integers(0, k - 1)), k


def sorted_pair_counts_args(draw: Draw, r: Rows) -> tuple:
    """Keys as multiclass packs them: the ranks of the scores above the class bits."""
    codes, positive, k = _classes(draw, r)
    bits = max(1, (k - 1).bit_length())
    ranks = np.unique(r.s.astype(np.float64) + 0.0, return_inverse=True)[1].reshape(-1)
    keys = np.sort(ranks.astype(np.uint64) << np.uint64(bits) | codes.view(np.uint64))
    return keys, bits, positive


def packed_keys_args(draw: Draw, r: Rows) -> tuple:
    codes, _, k = _classes(draw, r)
    return codes, r.s.astype(np.float64), draw(st.integers(max(1, (k - 1).bit_length()), 16))


def assert_counts_equal(fast, ref):
    np.testing.assert_array_equal(fast[0], ref[0])
    assert fast[0].dtype == ref[0].dtype and fast[1] == ref[1]


def ordered_pair_counts_args(draw: Draw, r: Rows) -> tuple:
    codes, positive, k = _classes(draw, r)
    col = r.s.astype(np.float64)
    return np.argsort(col), col, codes, r.w, positive, k


@dataclass(frozen=True)
class Out:
    """An output buffer a kernel writes (each twin gets its own zeroed one)."""

    size: int
    dtype: Any = np.float64


def _signed_run(r: Rows, rng: np.random.Generator, start: int, stop: int,
                collapse: bool) -> tuple:
    """Rows ``start:stop`` as a window passes them to its kernels: ascending scores (0.0
    for -0.0), signed weights by class and a row count of +-1 (a row that came or
    left); ``collapse`` sums equal scores and drops counts of 0, as a delta run is."""
    s = r.s[start:stop].astype(np.float64) + 0.0
    positive = r.y[start:stop] == r.pos_value
    sign = rng.choice([-1, 1], len(s))
    w = (np.ones(len(s)) if r.w is None else r.w[start:stop]) * sign
    order = np.argsort(s, kind="stable")
    run = (s[order], np.where(positive, w, 0.0)[order], np.where(positive, 0.0, w)[order],
           sign.astype(np.int64)[order])
    if not collapse:
        return run
    empty = (np.empty(0), np.empty(0), np.empty(0), np.empty(0, np.int64))
    k = len(s)
    return tuple(_reference.window_merge(*run, *empty, *_window_outs(k))[1:5])


def _window_outs(k: int) -> tuple:
    return (np.empty(k), np.empty(k), np.empty(k), np.empty(k, np.int64), np.empty(k + 1),
            np.empty(k + 1))


def window_step_args(draw: Draw, r: Rows) -> tuple:
    """A base, a delta run and coded rows (coming or leaving) from three parts of the
    rows."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    a, b = sorted(draw(st.integers(0, r.n_rows)) for _ in range(2))
    run = _signed_run(r, rng, 0, a, False)
    base = _reference.window_merge(*run, *run[:0], np.empty(0), np.empty(0), np.empty(0),
                                   np.empty(0, np.int64), *_window_outs(a))
    delta = _signed_run(r, rng, a, b, True)
    s = r.s[b:].astype(np.float64) + 0.0
    order = np.argsort(s, kind="stable")
    code = ((r.y[b:] == r.pos_value) + 2 * rng.integers(0, 2, len(s))).astype(np.uint8)
    total_pos = float(base.pos_below[-1] + delta[1].sum())
    n = len(delta[0]) + len(s)
    return (base.scores, _reference.window_top(base.scores), base.pos_below, base.neg_below,
            *delta, s[order], code[order],
            None if r.w is None else r.w[b:][order], total_pos,
            Out(n), Out(n), Out(n), Out(n, np.int64))


def window_top_args(draw: Draw, r: Rows) -> tuple:
    return (np.unique(r.s.astype(np.float64)),)


def window_merge_args(draw: Draw, r: Rows) -> tuple:
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    k = draw(st.integers(0, r.n_rows))
    collapse = draw(st.booleans())
    n = r.n_rows
    return (*_signed_run(r, rng, 0, k, collapse), *_signed_run(r, rng, k, n, False),
            Out(n), Out(n), Out(n), Out(n, np.int64), Out(n + 1), Out(n + 1))


def assert_fields_close(fast, ref):
    """Named records of numbers and arrays, field by field."""
    for name, f, g in zip(type(fast)._fields, fast, ref):
        assert np.shape(f) == np.shape(g), name
        np.testing.assert_allclose(f, g, rtol=TOL, atol=TOL, err_msg=name)


@dataclass(frozen=True)
class Twin:
    """How the generic test calls one protocol function and compares the twins.

    ``raw_rows``: the function reads rows as given, so the cases include bad rows (both
    twins must raise the same error); otherwise the arguments are built from valid rows.
    ``helper``: the kernel the ``threaded`` fixture must have seen on the helper thread.
    """

    args: Callable[[Draw, Rows], tuple]
    compare: Callable[[Any, Any], None]
    raw_rows: bool = False
    helper: str | None = None


TWINS: dict[str, Twin] = {
    "build_table": Twin(lambda draw, r: _raw(r), assert_tables_equal, True, "count_rows"),
    "summarize": Twin(summarize_args, assert_sweep_results_equal, True, "count_rows"),
    "summarize_plain": Twin(summarize_plain_args, assert_plain_sweeps_equal, True),
    "summarize_parts": Twin(summarize_parts_args, assert_plain_sweeps_equal, True,
                            "radix_fill"),
    "auc_plain": Twin(auc_plain_args, assert_aucs_equal, True),
    "sweep_table": Twin(sweep_table_args, assert_sweep_results_equal),
    "merge_tables": Twin(merge_tables_args, assert_tables_equal),
    "sorted_classes": Twin(sorted_classes_args, assert_sorted_classes_equal, True,
                           "scatter_scores"),
    "summarize_runs": Twin(summarize_runs_args, assert_sweep_results_equal),
    "replicate_counts": Twin(replicate_counts_args, assert_replicate_counts_equal),
    "replicate_sweeps": Twin(replicate_sweeps_args, assert_allclose, False,
                             "replicate_sweeps"),
    "segment_order": Twin(segment_order_args, assert_orders_equal),
    "segment_replicate_sweeps": Twin(segment_replicate_sweeps_args, assert_allclose),
    "delong_sums": Twin(delong_sums_args, assert_allclose),
    "delong_components": Twin(delong_components_args, assert_components_equal, True,
                              "delong_components"),
    "paired_moments": Twin(paired_moments_args, assert_allclose),
    "sweep_range": Twin(sweep_range_args, assert_range_sweeps_equal),
    "summarize_segments": Twin(summarize_segments_args, assert_segment_sweeps_equal, True,
                               "count_rows"),
    "summarize_models": Twin(summarize_models_args, assert_model_sweeps_equal, True,
                             "count_rows"),
    "transpose_sums": Twin(transpose_sums_args, assert_transposed_equal),
    "packed_keys": Twin(packed_keys_args, assert_counts_equal),
    "sorted_pair_counts": Twin(sorted_pair_counts_args, assert_counts_equal),
    "ordered_pair_counts": Twin(ordered_pair_counts_args, assert_allclose),
    "window_step": Twin(window_step_args, assert_fields_close),
    "window_merge": Twin(window_merge_args, assert_fields_close),
    "window_top": Twin(window_top_args, assert_allclose),
}


def test_every_protocol_name_has_a_case():
    assert sorted(TWINS) == sorted(PROTOCOL)


# --- the generic comparison -------------------------------------------------------------

@st.composite
def engine_cases(draw, max_n: int, raw_rows: bool):
    """``(y, s, w[, pos_label])``: one class or both, scores in float64/32/16, and for
    functions that read raw rows, sometimes bad rows."""
    one_class = draw(st.integers(0, 4)) == 0
    base = rows(max_n=max_n, both_classes=not one_class, float32=False)
    y, s, w, *label = draw(spoiled(base) if raw_rows and draw(st.booleans()) else base)
    return (y, s.astype(draw(st.sampled_from(DTYPES))), w, *label)


def outcome(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``, or the type and message of the error it raised."""
    try:
        return fn(*args)
    except (ValueError, TypeError) as exc:
        return type(exc), str(exc)


def raised(result: Any) -> bool:
    return isinstance(result, tuple) and len(result) == 2 and isinstance(result[0], type)


def _own_copy(arg: Any, released: list[tuple[int, int]]) -> Any:
    """The argument one twin gets: its own release recorder, and bit generators in
    the same state (they are consumed by design); arrays are shared, to see that
    neither twin writes to them."""
    if arg is RELEASE:
        return lambda start, stop: released.append((start, stop))
    if isinstance(arg, Out):
        return np.zeros(arg.size, arg.dtype)
    if isinstance(arg, np.random.BitGenerator) or (
            isinstance(arg, list) and arg and isinstance(arg[0], np.random.BitGenerator)):
        return copy.deepcopy(arg)
    return arg


def _arrays(arg: Any) -> list[np.ndarray]:
    if isinstance(arg, np.ndarray):
        return [arg]
    if isinstance(arg, (tuple, list)):
        return [a for item in arg for a in _arrays(item)]
    return []


def assert_released_every_row(released: list[tuple[int, int]], n: int, twin: str):
    seen = np.zeros(n, bool)
    for start, stop in released:
        assert 0 <= start <= stop <= n, f"{twin} released rows {start}:{stop} of {n}"
        seen[start:stop] = True
    assert seen.all(), (f"{twin} never released rows {np.flatnonzero(~seen)[:5].tolist()}"
                        f"... (released {released})")


def check_twins(name: str, args: tuple, n_rows: int) -> None:
    """Both twins on the same arguments: the same error, or equal results of the same
    type; inputs unchanged; with a ``release`` callback, every row released."""
    twin = TWINS[name]
    before = [a.copy() for a in _arrays(args)]
    outcomes, releases = {}, {}
    for which, module in TWIN_MODULES.items():
        releases[which] = []
        own = tuple(_own_copy(a, releases[which]) for a in args)
        outcomes[which] = outcome(getattr(module, name), *own)
        for a, b in zip(_arrays(args), before):
            assert a.tobytes() == b.tobytes(), f"{which}.{name} modified an input"
    fast, ref = outcomes["fast"], outcomes["reference"]
    if raised(fast) or raised(ref):
        assert fast == ref, f"different outcomes: fast {fast!r}, reference {ref!r}"
        return
    assert type(fast) is type(ref), f"{type(fast).__name__} != {type(ref).__name__}"
    twin.compare(fast, ref)
    if any(a is RELEASE for a in args):
        for which, released in releases.items():
            assert_released_every_row(released, n_rows, which)


SIZES = {"default": 40, "threaded": 120}    # rows; the fixture lowers thresholds to 4


@pytest.mark.slow
@pytest.mark.parametrize("mode", sorted(SIZES))
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", PROTOCOL)
def test_twins_agree(request, name, layout, mode):
    twin = TWINS[name]
    log = request.getfixturevalue("threaded") if mode == "threaded" else None

    # Threaded: derandomized, so the draws that take the helper thread (asserted below)
    # are the same on every run; random draws once all stayed on one thread.
    @settings(max_examples=30, deadline=None, derandomize=mode == "threaded")
    @given(case=engine_cases(SIZES[mode], twin.raw_rows), data=st.data())
    def check(case, data):
        r, info = prepared(case, layout)
        with labelled(f"[{name}, {mode} thresholds]{info}"):
            check_twins(name, twin.args(data.draw, r), r.n_rows)

    check()
    if log is not None and twin.helper is not None:
        assert log.helper[twin.helper], f"{twin.helper} never ran on the helper thread"


def test_failures_name_the_function_dtype_shape_and_layout(monkeypatch):
    """A failing comparison says where: the protocol name, thresholds, dtype, shape,
    layout."""
    monkeypatch.setitem(TWINS, "delong_sums", dataclasses.replace(
        TWINS["delong_sums"], compare=lambda f, r: np.testing.assert_array_equal(f, -1)))
    r, info = prepared((np.array([True, False]), np.array([0.5, 0.25], np.float32), None),
                       "strided")
    with pytest.raises(AssertionError) as caught:
        with labelled(f"[delong_sums, default thresholds]{info}"):
            check_twins("delong_sums", delong_sums_args(None, r), r.n_rows)
    message = str(caught.value)
    for part in ("delong_sums", "dtype=float32", "shape=(2,)", "layout=strided"):
        assert part in message, part


# --- regressions found by the generic test (each on both backends) ----------------------

def _rows_of_runs(runs):
    """The rows that sorted into ``runs``, for an oracle that does not merge runs."""
    y = np.concatenate([np.full(len(s), positive) for s, positive in runs])
    return prepare_rows(y, np.concatenate([s for s, _ in runs]))


def test_summarize_runs_gathers_cost_sums(backend):
    """The compiled merge swept in its plain mode only: cost sums asked for came back
    empty (min_score inf, no hull)."""
    runs = [(np.array([0.2, 0.5]), True), (np.array([0.1, 0.3, 0.6]), False),
            (np.array([0.3]), True)]
    levels, costs = np.array([0.5]), (0.25, -1.0, math.nan)
    got = engine().summarize_runs(runs, levels, True, costs)
    r = _rows_of_runs(runs)
    want = engine().summarize(r.y, r.s, None, r.pos_value, r.neg_value, levels, True, costs)
    assert_sweep_results_equal(got, want)
    assert got.costs.hull.shape[1] > 1


def test_summarize_runs_leaves_runs_in_memory_intact(backend):
    """The compiled merge gives back the pages it has read; on ordinary memory that
    zeroed the caller's runs."""
    rng = np.random.default_rng(4)
    runs = [(np.sort(rng.normal(size=5000) + 1.0), True), (np.sort(rng.normal(size=7000)), False),
            (np.sort(rng.normal(size=3000)).astype(np.float32), False)]
    before = [s.copy() for s, _ in runs]
    levels = np.array([0.3, 0.5])
    got = engine().summarize_runs(runs, levels, True, held_bytes=0)
    for (s, _), b in zip(runs, before):
        np.testing.assert_array_equal(s, b)
    r = _rows_of_runs(runs)
    assert_sweep_results_equal(
        got, engine().summarize(r.y, r.s, None, r.pos_value, r.neg_value, levels, True))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/smaps")
def test_summarize_runs_still_gives_back_pages_of_mapped_runs(tmp_path):
    """Runs over a read-only file mapping (as ``io.files`` writes them) are merged in
    place, their pages given back; only other runs are copied first."""
    from test_run_merge_memory import _resident_bytes

    path = tmp_path / "runs.bin"
    data = np.sort(np.random.default_rng(5).normal(size=(8, 65_536)), axis=1)
    data.tofile(path)
    mapped = np.memmap(path, dtype=np.float64, mode="r", shape=data.shape)
    runs = [(mapped[k], k % 2 == 0) for k in range(len(data))]
    for s, _ in runs:
        s.sum()                                     # every page resident
    assert _resident_bytes(path) >= data.nbytes // 2
    _fast.summarize_runs(runs, np.array([0.5]), True)
    assert _resident_bytes(path) <= len(runs) * 2 * os.sysconf("SC_PAGESIZE")
    del runs, mapped


def test_weighted_summarize_releases_every_row(backend):
    """The compiled twin called ``release`` on unweighted rows only."""
    released = []
    y, s, w = np.array([1, 0, 1, 0, 0], np.uint8), np.linspace(1, 0, 5), np.arange(5.0)
    engine().summarize(y, s, w, 1.0, 0.0, np.array([0.5]), True, None,
                       lambda a, b: released.append((a, b)))
    assert_released_every_row(released, len(s), backend)


def test_first_nan_outranks_an_earlier_third_label_across_release_groups(threaded, backend):
    """With ``release``, rows are counted in groups; the compiled twin raised the first
    group's third label before counting the NaN of a later group, which the reference
    (and the whole-input check) reports first."""
    y = np.array([1, 0, 0, 0, 0, 0, 0, 0, 2, 0], np.uint8)      # coded 0/2, 1 is third
    s = np.r_[np.zeros(9), np.nan]
    assert len(s) > 2 * _threads.PARALLEL_MIN_ROWS == _threads.RELEASE_BLOCK_ROWS
    with pytest.raises(ValueError, match=r"y_score contains NaN \(first at row 9\)"):
        engine().summarize(y, s, None, 2.0, 0.0, np.array([0.5]), True, None,
                           lambda a, b: None)
    with pytest.raises(ValueError, match=r"y_score contains NaN \(first at row 9\)"):
        engine().sorted_classes(y, s, 2.0, 0.0, lambda a, b: None)


def test_an_empty_range_has_no_b_of_its_own(backend):
    """A range below others with no group of its own: the compiled twin reported B of
    the state above as its ``b_last``, the reference NaN."""
    scores, tp, fp = np.array([1.0, 0.0]), np.array([2, 0]), np.array([1, 3])
    top, gap = engine().sweep_range(scores, tp, fp, np.array([0.5]), True, 2.0, 4.0,
                                    0.0, 0.0, 0.0)
    empty, gap_empty = engine().sweep_range(scores[2:], tp[2:], fp[2:], np.array([0.5]),
                                            True, 2.0, 4.0, 2.0, 4.0, gap)
    assert not math.isnan(top.b_last)
    assert empty.n_groups == 0 and math.isnan(empty.b_last) and gap_empty == gap


def test_delong_sums_of_one_class_are_nan_without_warnings(backend):
    """The reference divided by a zero class weight with NumPy's RuntimeWarning (an
    error under this suite's filters); the kernel returns NaN quietly."""
    for tp, fp in (([0.0], [1.0]), ([2.0, 1.0], [0.0, 0.0])):
        out = engine().delong_sums(np.array(tp), np.array(fp))
        assert math.isnan(out.auc)


@pytest.mark.parametrize("m", [1, 63, 64, 65, 128, 129, 1000, 30000])
def test_window_step_finds_every_score_of_a_base_in_blocks(m):
    """The kernel searches its base in blocks of ``window_top``: queries at each base
    score (the first of a block or not), between two, and beyond both ends, against the
    twin's plain search."""
    rng = np.random.default_rng(m)
    s = np.sort(rng.choice(4 * m, m, replace=False)).astype(np.float64)
    run = (s, rng.integers(0, 3, m).astype(np.float64), rng.integers(0, 3, m).astype(np.float64),
           np.full(m, 2, np.int64))
    no_run = (np.empty(0), np.empty(0), np.empty(0), np.empty(0, np.int64))
    base = _reference.window_merge(*run, *no_run, *_window_outs(m))
    x = np.sort(np.r_[s, s + 0.5, s[0] - 1.0, s[-1] + 1.0, s[::7]])
    code = rng.integers(0, 4, len(x)).astype(np.uint8)
    results = []
    for twin in (_fast, _reference):
        top = twin.window_top(base.scores)
        args = (base.scores, top, base.pos_below, base.neg_below, *no_run, x, code, None,
                float(base.pos_below[-1]))
        results.append(twin.window_step(*args, *(np.empty(len(x)) for _ in range(3)),
                                        np.empty(len(x), np.int64)))
        with pytest.raises(ValueError, match="base_top"):
            twin.window_step(*args[:1], top[:-1], *args[2:],
                             *(np.empty(len(x)) for _ in range(3)), np.empty(len(x), np.int64))
    assert results[0].du2 == results[1].du2 != 0.0
    assert_fields_close(*results)
