"""64-bit words sort as doubles where their bits allow it (``_sort_u64``): as they are
when they are the bits of positive finite doubles, shifted to the least normal double
when their range is narrower than the positive finite doubles', as uint64 otherwise. Each way, and each boundary between them, gives
NumPy's uint64 order: through ``sort_buckets`` (the weighted keys' sort) directly, and
through the small and radix paths against the reference twin, on scores chosen to
reach each way."""

from __future__ import annotations

import numpy as np
import pytest

from cases import labelled, log_paths
from indist_fast._core import _radix
from indist_fast._core import fast as _fast
from indist_fast._core import reference as _reference
from indist_fast._core.validation import prepare_rows
from test_kernels import assert_sweeps_equal
from test_radix_path import radix  # noqa: F401  (a fixture)

FINITE = 0x7FF << 52          # the bits of +inf: words below are positive finite doubles
NORMAL = 1 << 52              # words below are subnormal doubles
LEVELS = np.array([0.2, 0.5, 0.9])


def _bucket(rng, lo: int, hi: int, m: int) -> np.ndarray:
    """``m`` uint64 words in ``[lo, hi]``, both ends among them, with repeats."""
    span = hi - lo
    inner = lo + (rng.random(m - 2) * span).astype(np.uint64) if span < 2**53 else (
        np.uint64(lo) + rng.integers(0, span, m - 2, dtype=np.uint64, endpoint=True))
    words = np.concatenate((np.array([lo, hi], np.uint64), inner, inner[: m // 4]))
    return rng.permutation(words)


# Each (lo, hi): the way its bucket sorts, and the boundaries either side.
RANGES = {
    "doubles as they are": (NORMAL, FINITE - 1),
    "with subnormal words": (0, 0x3FF << 52),
    "just finite, shifted": (FINITE - 2**40, FINITE),        # hi is +inf's bits
    "above 2**63, shifted": (2**63 + 12345, 2**63 + 12345 + 2**52),
    "the widest shift": (2**64 - (FINITE - NORMAL), 2**64 - 1),
    "a word too wide: uint64": (2**64 - 1 - (FINITE - NORMAL), 2**64 - 1),
    "everything: uint64": (0, 2**64 - 1),
    "one word and its label": (2**63 + 6, 2**63 + 7),
}
@pytest.mark.parametrize("name", list(RANGES))
def test_sort_buckets_orders_every_way_as_uint64(name):
    rng = np.random.default_rng(7)
    lo, hi = RANGES[name]
    parts = [_bucket(rng, lo, hi, m) for m in (2, 3, 17, 700, 5000)]
    keys = np.concatenate(parts)
    starts = np.cumsum([0] + [len(p) for p in parts]).astype(np.int64)
    want = np.concatenate([np.sort(p) for p in parts])
    _radix.sort_buckets(keys, starts, 0, len(parts))
    np.testing.assert_array_equal(keys, want)


SCORES = {
    # probabilities: the words are positive finite doubles
    "probabilities": lambda rng, n: rng.random(n),
    # with exact zeros and ones, and subnormal scores among them
    "zeros, ones, subnormals": lambda rng, n: rng.choice(
        [0.0, 1.0, 5e-324, 1e-310, 2.2e-308, 0.5], n) * rng.choice([1.0, 1.0, 0.999], n),
    # scores of one sign, wide in exponent: words above 2**63 (shifted in the radix
    # buckets, uint64 in the small path's halves)
    "logits": lambda rng, n: rng.normal(scale=4.0, size=n),
    "large": lambda rng, n: (rng.random(n) + 1.0) * 1e200,
    "negative": lambda rng, n: -rng.random(n),
}


@pytest.mark.parametrize("kind", list(SCORES))
@pytest.mark.parametrize("path", ["small", "radix", "weighted radix"])
def test_paths_sort_every_kind_of_score(request, monkeypatch, kind, path):
    rng = np.random.default_rng(len(kind))
    n = 3000
    s = SCORES[kind](rng, n)
    y = rng.random(n) < 0.3
    y[:2] = [True, False]
    w = rng.choice([0.5, 1.0, 2.0], n) if path == "weighted radix" else None
    log = log_paths(monkeypatch) if path == "small" else request.getfixturevalue("radix")
    for scores in (s, np.round(s, 2)):
        r = prepare_rows(y, scores, w)
        args = (r.y, r.s, r.w, r.pos_value, r.neg_value, LEVELS, False)
        with labelled(f"{kind}, {path}"):
            assert_sweeps_equal(_fast.summarize(*args), _reference.summarize(*args), 1e-12)
    ran = {"small": "radix_fill", "radix": "radix_fill",
           "weighted radix": "radix_sweep_weighted_from"}
    assert bool(log.calls[ran[path]]) == (path != "small"), log.calls
