"""One generator of inputs for the equivalence tests: ties, all-tied, one positive,
zero weights, float32, ±inf, and array layouts (strided, byte-swapped, read-only)."""

from __future__ import annotations

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


def layouts(arr: np.ndarray) -> dict[str, np.ndarray]:
    """The same values in the memory layouts the facade must accept."""
    strided = np.empty(2 * len(arr), dtype=arr.dtype)[::2]
    strided[:] = arr
    swapped = arr.astype(arr.dtype.newbyteorder(">" if arr.dtype.byteorder != ">" else "<"))
    readonly = arr.copy()
    readonly.setflags(write=False)
    return {"contiguous": arr, "strided": strided, "byteswapped": swapped,
            "readonly": readonly, "list": arr.tolist()}
