"""Every randomized public function is seeded by default (``seed=0``: two calls give
the same numbers, ``seed=None`` fresh ones) and counts its replicates or draws on a
progress bar (``progress=``); sweeping the replicates in pieces, so that the bar moves,
changes no number."""

from __future__ import annotations

import inspect
import itertools
import warnings

import numpy as np
import pytest

import indist_fast
from indist_fast import IndistFastWarning
from indist_fast._core import fast as _fast
from indist_fast._core import reference as _reference
from indist_fast._core import threads as _threads
from indist_fast._core.progress import progress_bar
from indist_fast._core.validation import prepare_rows
from indist_fast.inference import bootstrap as boot_module
from indist_fast.inference import compare as compare_module
from indist_fast.inference import segment_bootstrap
from indist_fast.inference.bootstrap import Resampler, child_generator, sweep_replicates
from indist_fast.inference.sampling import sample_auc, sample_b, sample_b_curve
from indist_fast.metrics.operating_points import operating_point_intervals
from indist_fast.scale.files import evaluate_file
from indist_fast.table.score_table import ScoreTable

RNG = np.random.default_rng(11)
Y = RNG.random(400) < 0.35
S = Y + RNG.normal(size=400)
T = 0.7 * Y + RNG.normal(size=400)
G = RNG.integers(0, 3, 400)
N_BOOT = 24


def _quiet(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return call()


def _resampled(**kw):
    rows = prepare_rows(Y, S)
    return Resampler.from_rows(rows, ScoreTable.from_rows(rows), **kw).sweeps(
        N_BOOT, np.array([0.5]))


# name: (call taking seed=/progress= keywords, the numbers it draws, replicates or draws
# counted on its bars, number of bars)
CALLS = {
    "bootstrap": (lambda **kw: indist_fast.bootstrap(Y, S, n_boot=N_BOOT, **kw),
                  lambda r: np.r_[r["auc"].replicates, r["precision"].replicates],
                  N_BOOT, 1),
    "bootstrap, a callable metric": (
        lambda **kw: indist_fast.bootstrap(Y, S, n_boot=N_BOOT, metrics={
            "tp": lambda t: float(t.pos[:5].sum()), "auc": "auc"}, **kw),
        lambda r: np.r_[r["tp"].replicates, r["auc"].replicates], 2 * N_BOOT, 1),
    "evaluate": (lambda **kw: indist_fast.evaluate(Y, S, n_boot=N_BOOT, **kw),
                 lambda r: np.array([r.intervals["auc"].low, r.intervals["precision"].high]),
                 N_BOOT, 1),
    "evaluate_many": (
        lambda **kw: indist_fast.evaluate_many(Y, {"s": S, "t": T}, groups=G, n_boot=N_BOOT,
                                               **kw),
        lambda r: np.r_[r.columns["auc_low"], r.columns["precision_high"]], 6 * N_BOOT, 2),
    # a bar for the table's intervals, two for the drift test's unstratified replicates
    # (the three periods, then the reference)
    "over_time": (
        lambda **kw: indist_fast.over_time(Y, S, G * 86400.0, n_boot=N_BOOT, **kw),
        lambda r: np.r_[r.columns["auc_low"], r.drift.precision_z[1:]], 7 * N_BOOT, 3),
    "compare": (lambda **kw: indist_fast.compare(Y, S, T, metrics=("auc", "precision"),
                                                 n_boot=N_BOOT, **kw),
                lambda r: r["precision"].replicates, 2 * N_BOOT, 2),
    "operating_point_intervals": (
        lambda **kw: operating_point_intervals(Y, S, 0.5, n_boot=N_BOOT, **kw),
        lambda r: np.array([r["precision"].bootstrap_low, r["tpr"].bootstrap_high]),
        N_BOOT, 1),
    "sample_auc": (lambda **kw: sample_auc(Y, S, 5000, **kw),
                   lambda r: np.array([r.estimate]), 10000, 1),
    "sample_b": (lambda **kw: sample_b(Y, S, 0.3, 5000, **kw),
                 lambda r: np.array([r.estimate]), 10000, 1),
    "sample_b weighted": (
        lambda **kw: sample_b(Y, S, 0.3, 5000, sample_weight=np.linspace(1, 2, 400), **kw),
        lambda r: np.array([r.estimate]), 10000, 1),
    "sample_b_curve": (lambda **kw: sample_b_curve(Y, S, [0.3, 0.9], 5000, **kw),
                       lambda r: r.estimate, 20000, 1),
    "ci_bands": (lambda **kw: indist_fast.ci_bands(Y, S, n_boot=N_BOOT, **kw),
                 lambda r: r.sensitivity.replicates.ravel(), N_BOOT, 1),
    "compare at a specificity": (
        lambda **kw: indist_fast.compare(Y, S, T, method="specificity", specificity=0.8,
                                         n_boot=N_BOOT, **kw),
        lambda r: r["sensitivity"].replicates, 2 * N_BOOT, 2),
    "compare by Venkatraman": (
        lambda **kw: indist_fast.compare(Y, S, T, method="venkatraman", n_perm=N_BOOT, **kw),
        lambda r: r["roc"].replicates, N_BOOT, 1),
    "bootstrap of pauc": (
        lambda **kw: indist_fast.bootstrap(Y, S, metrics=("pauc",), partial=(0.8, 1),
                                           n_boot=N_BOOT, **kw),
        lambda r: r["pauc"].replicates, N_BOOT, 1),
}


@pytest.mark.parametrize("name", CALLS)
def test_default_calls_repeat_and_seed_none_varies(backend, name):
    call, numbers, _, _ = CALLS[name]
    first = numbers(_quiet(lambda: call(progress=False)))
    np.testing.assert_array_equal(first, numbers(_quiet(lambda: call(progress=False))))
    np.testing.assert_array_equal(first, numbers(_quiet(lambda: call(seed=0))))
    # (four fresh calls: an estimate of a share of pairs can repeat by chance)
    fresh = [numbers(_quiet(lambda: call(seed=None, progress=False))) for _ in range(4)]
    assert not all(np.array_equal(fresh[0], other) for other in fresh[1:])


def test_resampler_is_seeded_by_default():
    np.testing.assert_array_equal(_resampled(), _resampled())
    np.testing.assert_array_equal(_resampled(), _resampled(seed=0))
    assert not np.array_equal(_resampled(seed=None), _resampled(seed=None))


def test_evaluate_file_is_seeded_by_default(tmp_path):
    path = tmp_path / "log.npz"
    np.savez(path, y=Y, s=S, g=G)

    def lows(**kw):
        return _quiet(lambda: evaluate_file(path, label="y", score=["s"], by="g",
                                            n_boot=N_BOOT, progress=False,
                                            **kw)).columns["auc_low"]
    np.testing.assert_array_equal(lows(), lows())
    assert not np.array_equal(lows(seed=None), lows(seed=None))


PUBLIC_SEEDED = [indist_fast.bootstrap, indist_fast.evaluate, indist_fast.evaluate_many,
                 indist_fast.over_time,
                 indist_fast.compare, evaluate_file, operating_point_intervals, sample_auc,
                 sample_b, sample_b_curve, Resampler, Resampler.from_rows,
                 indist_fast.ci_bands]


@pytest.mark.parametrize("func", PUBLIC_SEEDED, ids=lambda f: f.__qualname__)
def test_seed_defaults_to_zero_and_the_docstring_says_so(func):
    assert inspect.signature(func).parameters["seed"].default == 0
    doc = " ".join(inspect.getdoc(func).split())
    assert "default=0" in doc and "None draws fresh entropy from the OS" in doc


# --- progress ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", CALLS)
def test_progress_counts_every_replicate_or_draw(backend, fake_tqdm, name):
    call, numbers, total, n_bars = CALLS[name]
    shown = numbers(_quiet(lambda: call(progress=True)))
    assert len(fake_tqdm) == n_bars
    assert all(b.closed and b.n == b.total for b in fake_tqdm)
    assert sum(b.total for b in fake_tqdm) == total
    fake_tqdm.clear()
    np.testing.assert_array_equal(shown, numbers(_quiet(lambda: call(progress=False))))
    assert fake_tqdm == []


@pytest.mark.parametrize("name", CALLS)
def test_progress_must_be_a_flag(name):
    call = CALLS[name][0]
    with pytest.raises(TypeError, match="^progress must be True or False"):
        call(progress="yes")


def test_compare_shows_one_bar_per_model_counting_its_replicates(fake_tqdm):
    _quiet(lambda: indist_fast.compare(Y, {"s": S, "t": T}, metrics=("precision",),
                                       n_boot=N_BOOT, progress=True))
    assert [(b.desc, b.total, b.n) for b in fake_tqdm] == [
        ("bootstrap s", N_BOOT, N_BOOT), ("bootstrap t", N_BOOT, N_BOOT)]


def test_a_large_bootstrap_moves_the_bar_batch_by_batch(fake_tqdm):
    """The compiled engine sweeps a call's replicates in batches on two threads; the bar
    counts each batch as it ends (no extra calls: each would pay the kernel's start)."""
    n = 60_000
    y = np.arange(n) % 3 == 0
    indist_fast.bootstrap(y, np.arange(n, dtype=np.float64), n_boot=64, metrics="auc",
                          progress=True)
    (bar,) = fake_tqdm
    assert bar.n == 64 and bar.updates == _fast._REPLICATE_BATCHES


# --- the bar's counts change no number ---------------------------------------------------

@pytest.mark.parametrize("engine", [_fast, _reference], ids=["cython", "numpy"])
@pytest.mark.parametrize("weighted, stratified", [(False, True), (True, True), (True, False)])
def test_counted_batches_give_one_calls_replicates(monkeypatch, fake_tqdm, engine,
                                                   weighted, stratified):
    rng = np.random.default_rng(4)
    pos_group, neg_group = rng.integers(0, 30, 40), rng.integers(0, 30, 70)
    pos_w = rng.random(40) if weighted else None
    neg_w = rng.random(70) if weighted else None
    scores = np.sort(rng.normal(size=30))[::-1].copy()
    seed = np.random.SeedSequence(123, spawn_key=(4,))
    args = (pos_group, pos_w, neg_group, neg_w, scores, stratified, np.array([0.4, 0.5]), True)
    whole = engine.replicate_sweeps([child_generator(seed, k) for k in range(45)], *args)
    monkeypatch.setattr(boot_module, "engine", lambda: engine)
    monkeypatch.setattr(_threads, "PARALLEL_MIN_ROWS", 0)          # two threads, batches
    monkeypatch.setattr(boot_module, "_GENERATOR_CHUNK", 7)        # and several calls
    with progress_bar(True, 45, "bootstrap") as bar:
        counted = sweep_replicates(seed, 45, *args, bar=bar)
    np.testing.assert_array_equal(whole, counted)
    (made,) = fake_tqdm
    # per replicate (the twin), per batch of one replicate (7-replicate calls, 16 batches)
    assert made.n == 45 and made.updates == 45


@pytest.mark.parametrize("weighted, stratified", [(False, True), (True, True), (False, False)])
def test_large_segments_take_the_replicate_kernel_with_the_same_intervals(
        backend, monkeypatch, fake_tqdm, weighted, stratified):
    """A segment of many slots is resampled by ``sweep_replicates`` (Python-seeded
    generators, in pieces that move the bar), a small one by the segment kernel: the
    same intervals either way, bit for bit."""
    from indist_fast.inference.segment_bootstrap import (
        bootstrap_settings,
        segment_intervals,
        segment_slots,
    )
    rng = np.random.default_rng(8)
    n = 3000
    y = rng.random(n) < 0.3
    s = np.round(y + rng.normal(size=n), 2)
    w = rng.integers(0, 4, n).astype(float) if weighted else None
    codes = np.repeat(np.arange(4), [1500, 900, 500, 100]).astype(np.int64)
    slots = segment_slots(prepare_rows(y, s, w), codes, 4)
    settings = bootstrap_settings(30, 5, 0.9, True)
    monkeypatch.setattr(_threads, "PARALLEL_MIN_ROWS", 0)    # batches within a segment
    got = {}
    for large in (1, 10**9):
        monkeypatch.setattr(segment_bootstrap, "_LARGE_SEGMENT_SLOTS", large)
        got[large] = segment_intervals(slots, settings, first_key=2, stratified=stratified)
    for name in got[1]:
        np.testing.assert_array_equal(got[1][name], got[10**9][name])
    assert [b.n for b in fake_tqdm] == [b.total for b in fake_tqdm] == [4 * 30, 4 * 30]
    # the large path moves within each segment, the small one per call (one call here)
    assert fake_tqdm[0].updates >= 4 * 15 and fake_tqdm[1].updates == 1


def test_segment_calls_split_the_work_evenly_and_in_order():
    calls = segment_bootstrap._segment_calls
    assert calls(np.array([], dtype=np.int64), 10) == []
    for work, most in [(np.full(100, 10_000), 30), (np.full(1000, 1 << 20), 30),
                       (np.array([5, 1 << 25, 5, 5]), 30), (np.full(7, 1 << 24), 2)]:
        ranges = calls(work, most)
        assert ranges[0][0] == 0 and ranges[-1][1] == len(work)
        assert all(a < b <= a + most for a, b in ranges)
        assert all(b == c for (_, b), (c, _) in itertools.pairwise(ranges))
    # equal segments worth many calls: about PROGRESS_STEPS of them
    assert len(calls(np.full(3200, 1 << 22), 10**6)) == segment_bootstrap.PROGRESS_STEPS


def test_paired_delong_with_a_bar_gives_the_same_comparison(backend, monkeypatch, fake_tqdm):
    """Tens of millions of rows: the components come one model at a time, counted."""
    models = {"s": S, "t": T, "u": S + T}
    quiet = indist_fast.compare(Y, models, progress=False)
    assert fake_tqdm == []
    monkeypatch.setattr(compare_module, "_DELONG_PROGRESS_ROWS", 0)
    shown = indist_fast.compare(Y, models, progress=True)
    (bar,) = fake_tqdm
    assert bar.desc == "DeLong" and bar.n == bar.total == 3
    assert shown.to_dict() == quiet.to_dict()
    fake_tqdm.clear()
    sets = {name: (Y, scores) for name, scores in models.items()}
    quiet = indist_fast.compare(sets, paired=False, progress=False)
    shown = indist_fast.compare(sets, paired=False, progress=True)
    (bar,) = fake_tqdm
    assert bar.desc == "DeLong" and bar.n == bar.total == 3
    assert shown.to_dict() == quiet.to_dict()

