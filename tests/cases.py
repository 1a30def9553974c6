"""One generator of inputs for the equivalence tests: ties, all-tied, one positive,
zero weights, float32, ±inf, and array layouts (strided, byte-swapped, read-only)."""

from __future__ import annotations

import threading
import types
from collections import Counter
from contextlib import contextmanager

import numpy as np
from hypothesis import strategies as st

_VALUES = st.one_of(
    st.integers(-3, 3).map(float),                      # heavy ties
    st.floats(-1e3, 1e3, allow_nan=False, width=32).map(float),
    st.sampled_from([np.inf, -np.inf, 0.0, -0.0, 1e-300, 5e-324]),
)


@st.composite
def rows(draw, max_n=40, weighted=None, float32=None, both_classes=True):
    """(y, s, w): bool labels, float scores, integer-valued float weights or None."""
    n = draw(st.integers(2 if both_classes else 1, max_n))
    pool = draw(st.lists(_VALUES, min_size=1, max_size=max(1, n)))
    s = np.array(draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n)))
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    if both_classes:
        y[draw(st.integers(0, n - 1))] = True
        if y.all():
            y[draw(st.sampled_from(range(n)))] = False
    if weighted is None:
        weighted = draw(st.booleans())
    w = None
    if weighted:
        w = np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), float)
        if both_classes:   # keep both classes present after zero weights
            w[np.flatnonzero(y)[0]] = max(w[np.flatnonzero(y)[0]], 1.0)
            w[np.flatnonzero(~y)[0]] = max(w[np.flatnonzero(~y)[0]], 1.0)
    if float32 is None:
        float32 = draw(st.booleans())
    if float32:
        s = s.astype(np.float32)
    return y, s, w


@st.composite
def spoiled(draw, cases):
    """A case of ``cases`` with, at random rows, NaN scores, bad weights (negative, inf,
    NaN) and a third label: ``(y, s, w, pos_label)``. The engines find the first bad
    row of each kind across their row blocks and must raise the same error.

    The third label is the middle of ``{0, 1, 2}`` with ``pos_label=2``: ``prepare_rows``
    takes the extremes as the two classes, so only the kernels' row pass can find it.
    """
    y, s, w = draw(cases)
    s = s.copy()
    for _ in range(draw(st.integers(0, 2))):
        s[draw(st.integers(0, len(s) - 1))] = np.nan
    if w is not None:
        w = w.copy()
        for _ in range(draw(st.integers(0, 2))):
            w[draw(st.integers(0, len(w) - 1))] = draw(st.sampled_from([-1.0, np.inf, np.nan]))
    if not draw(st.booleans()):
        return y, s, w, None
    coded = np.where(y, 2, 0).astype(np.int8)
    for _ in range(draw(st.integers(0, 2))):
        coded[draw(st.integers(0, len(coded) - 1))] = 1
    if not (coded == 2).any():      # else prepare_rows refuses pos_label=2 up front
        coded[draw(st.integers(0, len(coded) - 1))] = 2
    return coded, s, w, 2


def layouts(arr: np.ndarray) -> dict[str, np.ndarray]:
    """The same values in the memory layouts the facade must accept."""
    strided = np.empty(2 * len(arr), dtype=arr.dtype)[::2]
    strided[:] = arr
    swapped = arr.astype(arr.dtype.newbyteorder(">" if arr.dtype.byteorder != ">" else "<"))
    readonly = arr.copy()
    readonly.setflags(write=False)
    return {"contiguous": arr, "strided": strided, "byteswapped": swapped,
            "readonly": readonly, "list": arr.tolist()}


# --- reaching the threaded paths of indist_fast._fast on small inputs -------------------

class PathLog:
    """Which threaded paths of ``indist_fast._core.fast`` ran, and on which thread.

    ``calls[name]`` and ``helper[name]`` count calls of a wrapped kernel in all and on
    the pool's helper thread (so a path truly ran on two threads); ``two_piece`` counts
    weighted sweeps finished by ``_two_piece_keys`` and ``two_piece_declined`` those it
    handed back to the one-piece sweep (None); ``pieces[k]`` counts crossing
    merges of ``k`` pieces (2: the lower piece swept again in one go, 3: again in
    halves from the checkpoint); ``releases`` counts ``release`` callbacks seen.
    """

    HELPER_PREFIX = "indist_fast"

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()
        self.helper: Counter[str] = Counter()
        self.pieces: Counter[int] = Counter()
        self.two_piece = 0
        self.two_piece_declined = 0
        self._lock = threading.Lock()    # counters are updated from both threads

    def wrap(self, fn, name):
        def run(*args, **kwargs):
            on_helper = threading.current_thread().name.startswith(self.HELPER_PREFIX)
            with self._lock:
                self.calls[name] += 1
                self.helper[name] += on_helper
            return fn(*args, **kwargs)
        return run

    def wrap_crossings(self, fn):
        def run(pieces, n_levels):
            with self._lock:
                self.pieces[len(pieces)] += 1
            return fn(pieces, n_levels)
        return run

    def wrap_two_piece(self, fn):
        def run(*args, **kwargs):
            out = fn(*args, **kwargs)
            with self._lock:
                self.two_piece += out is not None
                self.two_piece_declined += out is None
            return out
        return run


_WRAPPED = {"_sorted": ("count_rows", "scatter_scores", "summarize_sorted",
                        "summarize_sorted_from"),
            "_keys": ("scatter_keys", "summarize_keys_from", "summarize_keys",
                      "delong_components"),
            "_radix": ("radix_fill", "radix_sweep_from", "radix_table"),
            "_radix_weighted": ("radix_fill_weighted", "radix_sweep_weighted_from",
                                "radix_table_weighted"),
            "_resample": ("replicate_sweeps",)}


class _EveryKernel:
    """``simd_blocks`` of every compiled module at once (each keeps a flag of its own,
    ``indist_fast._core.fast.KERNELS``): the AVX-512 blocks on or off everywhere."""

    @staticmethod
    def simd_blocks(on=None):
        from indist_fast._core.fast import KERNELS
        return [module.simd_blocks(on) for module in KERNELS][0]


every_kernel = _EveryKernel()


def lower_thresholds(monkeypatch, min_rows: int = 4) -> PathLog:
    """Let ``_fast`` take its two-thread, pivot and checkpoint paths from ``min_rows``
    rows on, and record which it took (see ``log_paths``)."""
    from indist_fast._core import fast as _fast
    from indist_fast._core import threads as _threads

    monkeypatch.setattr(_threads, "PARALLEL_MIN_ROWS", min_rows)
    monkeypatch.setattr(_fast, "SMALL_ROWS", 0)      # (the one-call path of few rows)
    monkeypatch.setattr(_fast, "_PIVOT_SAMPLE", 3)
    monkeypatch.setattr(_threads, "RELEASE_BLOCK_ROWS", 2 * min_rows)
    return log_paths(monkeypatch)


def log_paths(monkeypatch) -> PathLog:
    """Record which paths ``_fast`` takes (see ``PathLog``), thresholds unchanged.

    The kernels are wrapped through per-test stand-ins for the compiled modules as
    ``_fast`` and ``_fast_radix`` see them (``_fast._sorted``, ``_fast_radix._radix``, ...),
    so the compiled modules themselves are left untouched.
    """
    from indist_fast._core import fast as _fast
    from indist_fast._core import fast_radix as _fast_radix
    from indist_fast._core import threads as _threads

    log = PathLog()
    monkeypatch.setattr(_threads, "TAKE_BACK_JOBS", False)   # (the helper runs what it gets)
    for attr, names in _WRAPPED.items():
        module = getattr(_fast, attr)
        stand_in = types.SimpleNamespace(**{k: getattr(module, k) for k in dir(module)
                                            if not k.startswith("__")})
        for name in names:
            setattr(stand_in, name, log.wrap(getattr(module, name), name))
        for driver in (_fast, _fast_radix):
            if hasattr(driver, attr):
                monkeypatch.setattr(driver, attr, stand_in)
    monkeypatch.setattr(_threads, "first_crossings", log.wrap_crossings(_threads.first_crossings))
    monkeypatch.setattr(_fast, "_two_piece_keys", log.wrap_two_piece(_fast._two_piece_keys))
    return log


LAYOUTS = ("contiguous", "strided", "byteswapped", "readonly", "list")
DTYPES = (np.float64, np.float32, np.float16)     # of scores, before prepare_rows


def prepared(case, layout: str):
    """``prepare_rows`` of a case ``(y, s, w[, pos_label])`` with its arrays in
    ``layout``, and the description failure messages start with."""
    from indist_fast._core.validation import prepare_rows

    y, s, w = ((None if a is None else layouts(a)[layout]) for a in case[:3])
    pos_label = case[3] if len(case) > 3 else None
    return prepare_rows(y, s, w, pos_label), describe(s, layout, w)


def describe(s, layout: str, w=None) -> str:
    """What a failing comparison ran on: score dtype, shape and layout."""
    dtype = np.asarray(s).dtype if not isinstance(s, list) else "list"
    return (f"[score dtype={dtype}, shape={np.shape(s)}, layout={layout}, "
            f"weighted={w is not None}]")


@contextmanager
def labelled(info: str):
    """Prefix any assertion failure inside the block with ``info``."""
    try:
        yield
    except AssertionError as exc:
        raise AssertionError(f"{info} {exc}") from exc


class Filled(types.SimpleNamespace):
    """What ``radix_fill`` left for ``radix_sweep_from`` (``filled``)."""


def filled(y, s, target=64, writers=1, block_bytes=None, pos_value=1.0, neg_value=0.0):
    """Rows written into radix blocks as ``_radix_summary`` writes them: ``writers``
    blocks of rows, each with its own state, in one group; ``block_bytes`` overrides
    ``RADIX_BLOCK_BYTES``. Checks nothing: ``bad`` counts the rows the fill refused."""
    from indist_fast._core import _radix
    from indist_fast._core import fast_radix as _fast_radix
    table, base, tops = _radix.radix_plan(s, target)
    n, nb = len(s), len(tops)
    bounds = np.linspace(0, n, writers + 1).astype(int)
    group = [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:])]
    saved = _fast_radix.RADIX_BLOCK_BYTES
    try:
        if block_bytes is not None:
            _fast_radix.RADIX_BLOCK_BYTES = block_bytes
        words, links, state, free, block = _fast_radix._radix_blocks(
            s.dtype, nb, [b - a for a, b in group], False)
    finally:
        _fast_radix.RADIX_BLOCK_BYTES = saved
    for j, (a, b) in enumerate(group):
        _radix.radix_fill(y, s, pos_value, neg_value, table, base, a, b, words, links,
                            state[j], free[j], np.empty(64 * nb + 64, np.uint8), block, True)
    sizes = (state[:, 2] * block + state[:, 1]).sum(axis=0)
    pos = state[:, 3].sum(axis=0)
    return Filled(words=words, links=links, state=state, block=block, tops=tops,
                  sizes=sizes, pos=pos, wp=float(pos.sum()), wn=float(sizes.sum() - pos.sum()),
                  bad=int(sum(f[2] for f in free)), free=free, table=table, base=base)
