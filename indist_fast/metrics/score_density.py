"""R's ``density()`` with a Gaussian kernel, reproduced: linear binning of the scores
on ``2n`` points of ``[from - 4 bw, to + 4 bw]``, the kernel applied by FFT, then
linear interpolation onto ``n`` points of ``[from, to]``; and R's ``bw.nrd0``. pROC's
``smooth(method="density")`` reads the two classes' densities from it.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["r_density", "bw_nrd0"]


def bw_nrd0(x: np.ndarray) -> float:
    """Silverman's rule of thumb, R's ``bw.nrd0``: ``0.9 min(sd, IQR / 1.34) n^-0.2``
    (falling back to the sd, then ``|x[0]|``, then 1 when those are 0)."""
    hi = float(np.std(x, ddof=1))
    q75, q25 = np.quantile(x, [0.75, 0.25])
    lo = min(hi, float(q75 - q25) / 1.34)
    if not lo:
        lo = hi or abs(float(x[0])) or 1.0
    return float(0.9 * lo * len(x) ** -0.2)


def r_density(x: np.ndarray, weights: np.ndarray, bw: float, start: float, stop: float,
              n: int) -> np.ndarray:
    """The density estimate at ``n`` evenly spaced points of ``[start, stop]``, as R's
    ``density(x, weights=weights, bw=bw, from=start, to=stop, n=n)$y`` (``weights``
    summing to 1)."""
    grid = max(n, 512)
    if grid > 512:
        grid = 2 ** math.ceil(math.log2(grid))
    lo, up = start - 4.0 * bw, stop + 4.0 * bw
    delta = (up - lo) / (grid - 1)
    pos = (x - lo) / delta
    ix = np.floor(pos).astype(np.int64)
    fx = pos - ix
    y = np.zeros(2 * grid)
    inside = (ix >= 0) & (ix <= grid - 2)
    np.add.at(y, ix[inside], weights[inside] * (1.0 - fx[inside]))
    np.add.at(y, ix[inside] + 1, weights[inside] * fx[inside])
    left = ix == -1
    np.add.at(y, np.zeros(int(left.sum()), dtype=np.int64), weights[left] * fx[left])
    right = ix == grid - 1
    np.add.at(y, ix[right], weights[right] * (1.0 - fx[right]))
    kords = np.linspace(0.0, 2.0 * (up - lo), 2 * grid)
    kords[grid + 1:] = -kords[grid - 1:0:-1]
    kernel = np.exp(-0.5 * (kords / bw) ** 2) / (bw * math.sqrt(2.0 * math.pi))
    conv = np.fft.ifft(np.fft.fft(y) * np.conj(np.fft.fft(kernel))).real[:grid]
    conv = np.maximum(conv, 0.0)
    xords = np.linspace(lo, up, grid)
    out: np.ndarray = np.interp(np.linspace(start, stop, n), xords, conv)
    return out
