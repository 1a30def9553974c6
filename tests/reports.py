"""Compare two reports field by field (NaN equals NaN, None means NaN)."""

from __future__ import annotations

import numpy as np


def assert_reports_equal(a, b, *, rel=1e-12, skip=()):
    da, db = a.to_dict(), b.to_dict()
    for key in da:
        if key in skip or key == "intervals":
            continue
        if key == "at":
            assert da["at"].keys() == db["at"].keys()
            for level in da["at"]:
                for field, value in da["at"][level].items():
                    _close(value, db["at"][level][field], rel, f"at[{level}].{field}")
        else:
            _close(da[key], db[key], rel, key)


def _close(x, y, rel, name):
    x = np.nan if x is None else x
    y = np.nan if y is None else y
    np.testing.assert_allclose(np.float64(x), np.float64(y), rtol=rel, atol=rel,
                               equal_nan=True, err_msg=name)
