"""The table of row inputs ``(y_true, y_score, sample_weight, pos_label)``.

Every input is built fresh by a function (so a case can never see another case's
mutation) and carries what a correct library must make of it: either the canonical
rows (positive mask, float64 scores, float64 weights) that results are checked
against, or the argument names an error message must contain.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

Y, S, W, P = "y_true", "y_score", "sample_weight", "pos_label"


@dataclass
class RowInput:
    name: str
    y: Any
    s: Any
    w: Any = None
    pos_label: Any = None
    # canonical rows when valid: positive mask, float64 scores, float64 weights or None
    canon: tuple[np.ndarray, np.ndarray, np.ndarray | None] | None = None
    errors: tuple[str, ...] = ()        # an error must name one of these
    either: bool = False                # a correct result or an error naming `errors`
    tags: frozenset[str] = field(default_factory=frozenset)


def _base(n: int = 12, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Labels with both classes and scores in [0, 1] with ties."""
    rng = np.random.default_rng(seed)
    y = np.zeros(n, dtype=np.int64)
    y[rng.permutation(n)[: max(1, n // 3)]] = 1
    if y.all():
        y[0] = 0
    s = np.round(np.clip(rng.random(n) * 0.7 + 0.3 * y, 0.0, 1.0), 1)
    return y, s


def _weights(n: int, seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).integers(1, 4, n).astype(np.float64)


def valid(name: str, y: Any, s: Any, w: Any = None, pos_label: Any = None, *,
          positive: np.ndarray | None = None, scores: np.ndarray | None = None,
          weights: np.ndarray | None = None, tags: tuple[str, ...] = (),
          either: tuple[str, ...] = (), one_class: tuple[str, ...] = (Y,)) -> RowInput:
    """A valid input; the canonical rows default to the plain conversions."""
    if positive is None:
        positive = np.asarray(y) == (1 if pos_label is None else pos_label)
    if scores is None:
        scores = np.asarray(s, dtype=np.float64)
    if weights is None and w is not None:
        weights = np.asarray(w, dtype=np.float64)
    canon = (np.asarray(positive, bool).copy(), np.asarray(scores, np.float64).copy(),
             None if weights is None else np.asarray(weights, np.float64).copy())
    yb, _, wc = canon
    wpos = yb.sum() if wc is None else wc[yb].sum()
    wneg = (~yb).sum() if wc is None else wc[~yb].sum()
    t = set(tags)
    if wpos <= 0 or wneg <= 0:           # valid rows, but metrics need both classes
        t.add("one_class")
        either = one_class
    return RowInput(name, y, s, w, pos_label, canon, errors=tuple(either),
                    either=bool(either) and "one_class" not in t, tags=frozenset(t))


def bad(name: str, y: Any, s: Any, w: Any = None, pos_label: Any = None, *,
        names: tuple[str, ...], tags: tuple[str, ...] = ()) -> RowInput:
    return RowInput(name, y, s, w, pos_label, None, names, tags=frozenset(tags))


def _swapped(a: np.ndarray) -> np.ndarray:
    return a.astype(a.dtype.newbyteorder(">" if a.dtype.byteorder != ">" else "<"))


def _strided(a: np.ndarray) -> np.ndarray:
    out = np.empty(2 * len(a), dtype=a.dtype)[::2]
    out[:] = a
    return out


def _readonly(a: np.ndarray) -> np.ndarray:
    a = a.copy()
    a.setflags(write=False)
    return a


def _valid_inputs() -> list[Callable[[], RowInput]]:
    out: list[Callable[[], RowInput]] = []

    def add(fn: Callable[[], RowInput]) -> None:
        out.append(fn)

    def yv() -> tuple[np.ndarray, np.ndarray]:
        return _base()

    # label codings
    add(lambda: valid("labels_int01", *yv()))
    add(lambda: valid("labels_bool", yv()[0].astype(bool), yv()[1]))
    add(lambda: valid("labels_pm1", yv()[0] * 2 - 1, yv()[1]))
    add(lambda: valid("labels_float01", yv()[0].astype(float), yv()[1]))
    for dt in ("int8", "uint8", "int16", "uint16", "int32", "uint32", "uint64", "float32",
               "float16", "longdouble"):
        add(lambda dt=dt: valid(f"labels_{dt}", yv()[0].astype(dt), yv()[1]))
    add(lambda: valid("labels_pm1_float32", (yv()[0] * 2 - 1).astype(np.float32), yv()[1]))
    add(lambda: valid("labels_str_U", np.where(yv()[0] == 1, "pos", "neg"), yv()[1], None,
                      "pos"))
    add(lambda: valid("labels_str_obj", np.where(yv()[0] == 1, "pos", "neg").astype(object),
                      yv()[1], None, "pos"))
    add(lambda: valid("labels_str_list", np.where(yv()[0] == 1, "b", "a").tolist(),
                      yv()[1], None, "a", positive=yv()[0] == 0))
    add(lambda: valid("labels_12_pos2", yv()[0] + 1, yv()[1], None, 2))
    add(lambda: valid("labels_12_pos1", yv()[0] + 1, yv()[1], None, 1))
    add(lambda: valid("labels_01_pos0", yv()[0], yv()[1], None, 0, positive=yv()[0] == 0))
    add(lambda: valid("labels_01_pos_np", yv()[0], yv()[1], None, np.int64(1)))
    add(lambda: valid("labels_bool_posFalse", yv()[0].astype(bool), yv()[1], None, False,
                      positive=yv()[0] == 0))
    add(lambda: valid("labels_bool_posTrue", yv()[0].astype(bool), yv()[1], None, True))
    add(lambda: valid("labels_37_pos7", np.where(yv()[0] == 1, 7, 3), yv()[1], None, 7))
    add(lambda: valid("labels_floatcode_pos0.5", np.where(yv()[0] == 1, 0.5, -2.5), yv()[1],
                      None, 0.5))
    add(lambda: valid("labels_bytes", np.where(yv()[0] == 1, b"p", b"n"), yv()[1], None, b"p"))
    add(lambda: valid("labels_obj_ints", yv()[0].astype(object), yv()[1]))
    add(lambda: valid("labels_obj_bools", yv()[0].astype(bool).astype(object), yv()[1]))
    add(lambda: valid("lists", yv()[0].tolist(), yv()[1].tolist()))
    add(lambda: valid("tuples", tuple(yv()[0].tolist()), tuple(yv()[1].tolist())))
    add(lambda: valid("list_bool_labels", yv()[0].astype(bool).tolist(), yv()[1].tolist()))
    # score dtypes and values
    for dt in ("float16", "float32", "int8", "int32", "int64", "uint8", "uint64", "longdouble"):
        add(lambda dt=dt: valid(f"scores_{dt}", yv()[0], (yv()[1] * 10).astype(dt),
                                scores=(yv()[1] * 10).astype(dt).astype(np.float64)))
    add(lambda: valid("scores_f32_frac", yv()[0], yv()[1].astype(np.float32),
                      scores=yv()[1].astype(np.float32).astype(np.float64)))
    add(lambda: valid("scores_bool", yv()[0], yv()[1] > 0.5))
    add(lambda: valid("scores_obj_floats", yv()[0], yv()[1].astype(object)))
    add(lambda: valid("scores_python_ints", yv()[0].tolist(), [int(v * 10) for v in yv()[1]]))
    add(lambda: valid("scores_python_bigint", yv()[0].tolist(),
                      [10**30 * (k + 1) for k in range(12)],
                      scores=np.array([float(10**30 * (k + 1)) for k in range(12)])))
    add(lambda: valid("scores_u64_big", yv()[0], (np.arange(12, dtype=np.uint64) * 2**40
                                                  + np.uint64(2**62))))
    add(lambda: valid("scores_inf", yv()[0], np.where(yv()[0] == 1, np.inf, -np.inf)))
    add(lambda: valid("scores_mixed_inf", yv()[0],
                      np.r_[np.inf, -np.inf, yv()[1][2:-2], np.inf, -np.inf]))
    add(lambda: valid("scores_neg_zero", yv()[0], np.where(np.arange(12) % 2, -0.0, 0.0)))
    add(lambda: valid("scores_neg_zero_ties", yv()[0],
                      np.r_[-0.0, 0.0, 0.0, -0.0, yv()[1][4:]]))
    add(lambda: valid("scores_all_tied", yv()[0], np.full(12, 0.25)))
    add(lambda: valid("scores_subnormal", yv()[0], yv()[1] * 5e-324 * 10))
    add(lambda: valid("scores_huge", yv()[0], (yv()[1] - 0.5) * 3e308))
    add(lambda: valid("scores_float_max", yv()[0],
                      np.where(yv()[0] == 1, np.finfo(float).max, -np.finfo(float).max)))
    add(lambda: valid("scores_eps_apart", yv()[0], 1.0 + np.arange(12) * 2.0**-52))
    add(lambda: valid("scores_reversed", yv()[0], -yv()[1]))
    add(lambda: valid("scores_perfect", yv()[0], yv()[0] * 0.5 + 0.25))
    add(lambda: valid("scores_worst", yv()[0], 0.75 - yv()[0] * 0.5))
    # sizes
    add(lambda: valid("n2_one_each", [0, 1], [0.2, 0.7]))
    add(lambda: valid("n2_tied", [1, 0], [0.5, 0.5]))
    add(lambda: valid("n2_inverted", [1, 0], [0.1, 0.9]))
    add(lambda: valid("one_positive", np.r_[1, np.zeros(9, int)], np.linspace(0, 1, 10)))
    add(lambda: valid("one_negative", np.r_[0, np.ones(9, int)], np.linspace(0, 1, 10)))
    add(lambda: valid("n30_random", *_base(30, 3)))
    add(lambda: valid("n30_weighted", *_base(30, 4), _weights(30)))
    add(lambda: valid("n40_float32", _base(40, 5)[0], _base(40, 5)[1].astype(np.float32),
                      scores=_base(40, 5)[1].astype(np.float32).astype(np.float64)))
    add(lambda: valid("n3000_sklearn", *_base(3000, 6), tags=("large",)))
    # weights
    add(lambda: valid("w_int_valued", *yv(), _weights(12)))
    add(lambda: valid("w_int_dtype", *yv(), _weights(12).astype(np.int64)))
    add(lambda: valid("w_uint8_dtype", *yv(), _weights(12).astype(np.uint8)))
    add(lambda: valid("w_float32", *yv(), _weights(12).astype(np.float32)))
    add(lambda: valid("w_bool", *yv(), np.arange(12) % 3 != 1,
                      weights=(np.arange(12) % 3 != 1).astype(float)))
    add(lambda: valid("w_list", *yv(), _weights(12).tolist()))
    add(lambda: valid("w_some_zero", *yv(), np.where(np.arange(12) % 4 == 0, 0.0, 2.0)))
    add(lambda: valid("w_frac", *yv(), np.linspace(0.3, 2.9, 12)))
    add(lambda: valid("w_half_total_lt1", *yv(), np.full(12, 0.05)))
    add(lambda: valid("w_normalised", *yv(), np.full(12, 1 / 12)))
    add(lambda: valid("w_tiny_1e-300", *yv(), np.full(12, 1e-300)))
    add(lambda: valid("w_mixed_scale", *yv(), np.where(np.arange(12) % 2, 1e-300, 1.0)))
    add(lambda: valid("w_huge_1e200", *yv(), _weights(12) * 1e200, either=(W,)))
    add(lambda: valid("w_huge_1e308", *yv(), np.full(12, 1e308), either=(W,)))
    add(lambda: valid("w_1e15", *yv(), _weights(12) * 1e15))
    add(lambda: valid("w_known_2.7", [0, 1, 0, 0], [1, 9, 0, -9], [2.7, 1.5, 2.7, 0.1]))
    add(lambda: valid("w_known_frac_ties", [0, 1, 0, 1, 1], [0.3, 0.3, 0.1, 0.9, 0.3],
                      [0.1, 0.7, 2.3, 0.2, 1.9]))
    add(lambda: valid("w_zero_pos_but_one", *yv(),
                      np.where(yv()[0] == 1, 0.0, 1.0) + (np.arange(12) == np.argmax(yv()[0]))))
    # layouts
    add(lambda: valid("readonly", _readonly(yv()[0]), _readonly(yv()[1]),
                      _readonly(_weights(12))))
    add(lambda: valid("strided", _strided(yv()[0]), _strided(yv()[1]), _strided(_weights(12))))
    add(lambda: valid("byteswapped", _swapped(yv()[0]), _swapped(yv()[1]),
                      _swapped(_weights(12))))
    add(lambda: valid("byteswapped_f32", yv()[0], _swapped(yv()[1].astype(np.float32)),
                      scores=yv()[1].astype(np.float32).astype(np.float64)))
    add(lambda: valid("reversed_view", yv()[0][::-1], yv()[1][::-1]))
    add(lambda: valid("from_2d_column", yv()[0].reshape(-1, 1)[:, 0],
                      np.asfortranarray(np.c_[yv()[1], yv()[1]])[:, 1]))
    # other libraries
    add(_pandas_series)
    add(_pandas_categorical)
    add(_pandas_nullable)
    add(_pandas_boolean)
    add(_polars_series)
    add(_pyarrow_arrays)
    add(_pyarrow_chunked)
    return out


def _pandas_series() -> RowInput:
    import pandas as pd
    y, s = _base()
    return valid("pandas_series", pd.Series(y, index=np.arange(12) * 3), pd.Series(s),
                 pd.Series(_weights(12)), weights=_weights(12), positive=y == 1, scores=s)


def _pandas_categorical() -> RowInput:
    import pandas as pd
    y, s = _base()
    lab = pd.Series(pd.Categorical(np.where(y == 1, "yes", "no")))
    return valid("pandas_categorical", lab, s, None, "yes", positive=y == 1)


def _pandas_nullable() -> RowInput:
    import pandas as pd
    y, s = _base()
    return valid("pandas_nullable_no_na", pd.Series(y, dtype="Int64"),
                 pd.Series(s, dtype="Float64"), positive=y == 1, scores=s)


def _pandas_boolean() -> RowInput:
    import pandas as pd
    y, s = _base()
    return valid("pandas_boolean_dtype", pd.Series(y.astype(bool), dtype="boolean"), s,
                 positive=y == 1)


def _polars_series() -> RowInput:
    import polars as pl
    y, s = _base()
    return valid("polars_series", pl.Series(y), pl.Series(s), pl.Series(_weights(12)),
                 positive=y == 1, scores=s, weights=_weights(12))


def _pyarrow_arrays() -> RowInput:
    import pyarrow as pa
    y, s = _base()
    return valid("pyarrow_array", pa.array(y), pa.array(s), pa.array(_weights(12)),
                 positive=y == 1, scores=s, weights=_weights(12))


def _pyarrow_chunked() -> RowInput:
    import pyarrow as pa
    y, s = _base()
    return valid("pyarrow_chunked", pa.chunked_array([y[:5], y[5:]]),
                 pa.chunked_array([s[:7], s[7:]]), positive=y == 1, scores=s)


def _bad_inputs() -> list[Callable[[], RowInput]]:
    out: list[Callable[[], RowInput]] = []

    def add(fn: Callable[[], RowInput]) -> None:
        out.append(fn)

    def yv() -> tuple[np.ndarray, np.ndarray]:
        return _base()

    # labels
    add(lambda: bad("y_nan", np.r_[np.nan, yv()[0][1:].astype(float)], yv()[1], names=(Y,)))
    add(lambda: bad("y_inf", np.r_[np.inf, yv()[0][1:].astype(float)], yv()[1], names=(Y,)))
    add(lambda: bad("y_three_labels", np.r_[2, yv()[0][1:]], yv()[1], names=(Y,)))
    add(lambda: bad("y_three_labels_pos", np.r_[2, yv()[0][1:]], yv()[1], None, 1,
                    names=(Y,)))
    add(lambda: bad("y_0_2_no_pos_label", yv()[0] * 2, yv()[1], names=(Y, P)))
    add(lambda: bad("y_str_no_pos_label", np.where(yv()[0] == 1, "p", "n"), yv()[1],
                    names=(Y, P)))
    add(lambda: bad("y_str_three", np.array(["a", "b", "c"] * 4), yv()[1], None, "a",
                    names=(Y,)))
    add(lambda: bad("y_mixed_types", np.array([0, "1"] * 6, dtype=object), yv()[1],
                    names=(Y,)))
    add(lambda: bad("y_obj_none", np.array([None, 1] * 6, dtype=object), yv()[1], names=(Y,)))
    add(lambda: bad("y_2d", yv()[0].reshape(6, 2), yv()[1], names=(Y,)))
    add(lambda: bad("y_column", yv()[0].reshape(-1, 1), yv()[1], names=(Y,)))
    add(lambda: bad("y_scalar", 1, yv()[1], names=(Y,)))
    add(lambda: bad("y_none", None, yv()[1], names=(Y,)))
    add(lambda: bad("y_dict", {"a": 1}, yv()[1], names=(Y,)))
    add(lambda: bad("y_set", set([0, 1]), yv()[1], names=(Y,)))
    add(lambda: bad("y_string", "010101010101", yv()[1], names=(Y,)))
    add(lambda: bad("y_complex", yv()[0].astype(complex), yv()[1], names=(Y,)))
    add(lambda: bad("y_datetime", np.arange(12).astype("datetime64[D]"), yv()[1], names=(Y,)))
    add(lambda: bad("y_ragged", [[0, 1], [1]] + [0] * 10, yv()[1], names=(Y,)))
    add(lambda: bad("y_generator", (v for v in yv()[0]), yv()[1], names=(Y,)))
    add(lambda: bad("y_short", yv()[0][:-1], yv()[1], names=(Y, S)))
    add(lambda: valid("y_all_pos", np.ones(12, int), yv()[1]))
    add(lambda: valid("y_all_neg", np.zeros(12, int), yv()[1]))
    add(lambda: valid("y_all_pm1_neg", -np.ones(12, int), yv()[1]))
    add(lambda: valid("y_single_row", [1], [0.5]))
    add(lambda: valid("y_all_str_pos_missing", np.array(["a"] * 12), yv()[1], None, "b",
                      one_class=(Y, P)))
    add(lambda: bad("y_bool_pos_2", yv()[0].astype(bool), yv()[1], None, 2, names=(P,)))
    add(lambda: bad("y_int_pos_missing", yv()[0], yv()[1], None, 5, names=(P,)))
    add(lambda: bad("y_int_pos_str", yv()[0], yv()[1], None, "1", names=(P,)))
    add(lambda: bad("y_str_pos_missing", np.where(yv()[0] == 1, "p", "n"), yv()[1], None, "x",
                    names=(P,)))
    add(lambda: bad("y_int_pos_nan", yv()[0], yv()[1], None, float("nan"), names=(P,)))
    add(lambda: bad("y_int_pos_list", yv()[0], yv()[1], None, [1], names=(P,)))
    add(lambda: bad("y_int_pos_none_12", yv()[0] + 1, yv()[1], names=(Y, P)))
    add(lambda: bad("y_continuous", yv()[1], yv()[1], names=(Y,)))
    add(lambda: bad("y_empty", np.array([], int), np.array([]), names=(Y, S)))
    add(lambda: bad("y_empty_lists", [], [], names=(Y, S)))
    # scores
    add(lambda: bad("s_nan", yv()[0], np.r_[yv()[1][:5], np.nan, yv()[1][6:]], names=(S,)))
    add(lambda: bad("s_all_nan", yv()[0], np.full(12, np.nan), names=(S,)))
    add(lambda: bad("s_nan_f32", yv()[0], np.r_[np.nan, yv()[1][1:]].astype(np.float32),
                    names=(S,)))
    add(lambda: bad("s_nan_f16", yv()[0], np.r_[np.nan, yv()[1][1:]].astype(np.float16),
                    names=(S,)))
    add(lambda: bad("s_strings", yv()[0], np.array(["a"] * 12), names=(S,)))
    add(lambda: bad("s_numeric_strings", yv()[0], yv()[1].astype(str), names=(S,)))
    add(lambda: bad("s_obj_none", yv()[0], np.array([None] + [0.5] * 11, dtype=object),
                    names=(S,)))
    add(lambda: bad("s_obj_str", yv()[0], np.array(["x"] + [0.5] * 11, dtype=object),
                    names=(S,)))
    add(lambda: bad("s_complex", yv()[0], yv()[1] + 1j, names=(S,)))
    add(lambda: bad("s_2d_proba", yv()[0], np.c_[1 - yv()[1], yv()[1]], names=(S,)))
    add(lambda: bad("s_column", yv()[0], yv()[1].reshape(-1, 1), names=(S,)))
    add(lambda: bad("s_scalar", yv()[0], 0.5, names=(S,)))
    add(lambda: bad("s_dict", yv()[0], {"a": 0.5}, names=(S,)))
    add(lambda: bad("s_datetime", yv()[0], np.arange(12).astype("datetime64[s]"), names=(S,)))
    add(lambda: bad("s_timedelta", yv()[0], np.arange(12).astype("timedelta64[s]"),
                    names=(S,)))
    add(lambda: bad("s_ragged", yv()[0], [[0.1, 0.2], [0.3]] + [0.5] * 10, names=(S,)))
    add(lambda: bad("s_short", yv()[0], yv()[1][:-2], names=(Y, S)))
    add(lambda: bad("s_long", yv()[0], np.r_[yv()[1], 0.5], names=(Y, S)))
    add(_s_pandas_na)
    add(_s_polars_null)
    add(_s_pyarrow_null)
    add(_y_pandas_na)
    add(lambda: bad("s_void", yv()[0], np.zeros(12, dtype="V8"), names=(S,)))
    add(lambda: bad("s_structured", yv()[0], np.zeros(12, dtype=[("a", float)]), names=(S,)))
    # weights
    add(lambda: bad("w_negative", *yv(), np.r_[-1.0, _weights(12)[1:]], names=(W,)))
    add(lambda: bad("w_nan", *yv(), np.r_[np.nan, _weights(12)[1:]], names=(W,)))
    add(lambda: bad("w_inf", *yv(), np.r_[np.inf, _weights(12)[1:]], names=(W,)))
    add(lambda: bad("w_neg_inf", *yv(), np.r_[-np.inf, _weights(12)[1:]], names=(W,)))
    add(lambda: bad("w_all_nan", *yv(), np.full(12, np.nan), names=(W,)))
    add(lambda: bad("w_tiny_negative", *yv(), np.r_[-1e-300, _weights(12)[1:]], names=(W,)))
    add(lambda: bad("w_neg_zero_ok_but_neg1", *yv(), np.r_[-0.0, -1.0, _weights(12)[2:]],
                    names=(W,)))
    add(lambda: bad("w_strings", *yv(), np.array(["1"] * 12), names=(W,)))
    add(lambda: bad("w_obj_none", *yv(), np.array([None] + [1.0] * 11, dtype=object),
                    names=(W,)))
    add(lambda: bad("w_complex", *yv(), np.ones(12) + 1j, names=(W,)))
    add(lambda: bad("w_2d", *yv(), np.ones((12, 2)), names=(W,)))
    add(lambda: bad("w_scalar", *yv(), 2.0, names=(W,)))
    add(lambda: bad("w_short", *yv(), np.ones(11), names=(W,)))
    add(lambda: bad("w_datetime", *yv(), np.arange(12).astype("datetime64[D]"), names=(W,)))
    add(lambda: valid("w_all_zero", *yv(), np.zeros(12), one_class=(W,)))
    add(lambda: valid("w_zero_positives", *yv(), np.where(yv()[0] == 1, 0.0, 1.0),
                      one_class=(Y, W)))
    add(lambda: valid("w_zero_negatives", *yv(), np.where(yv()[0] == 1, 1.0, 0.0),
                      one_class=(Y, W)))
    add(lambda: valid("w_sum_overflows", *yv(), np.full(12, 1.7e308), either=(W,)))
    add(lambda: bad("w_negative_int", *yv(), -np.ones(12, int), names=(W,)))
    add(lambda: bad("w_nan_and_s_nan", yv()[0], np.r_[np.nan, yv()[1][1:]],
                    np.r_[np.nan, _weights(12)[1:]], names=(S, W)))
    add(lambda: bad("all_bad", np.r_[np.nan, yv()[0][1:]], np.full(12, np.nan), -np.ones(12),
                    names=(Y, S, W)))
    return out


def _s_pandas_na() -> RowInput:
    import pandas as pd
    y, s = _base()
    arr = pd.array(s, dtype="Float64")
    arr[2] = pd.NA
    return bad("s_pandas_na", y, pd.Series(arr), names=(S,))


def _s_polars_null() -> RowInput:
    import polars as pl
    y, s = _base()
    return bad("s_polars_null", y, pl.Series([None] + s[1:].tolist()), names=(S,))


def _s_pyarrow_null() -> RowInput:
    import pyarrow as pa
    y, s = _base()
    return bad("s_pyarrow_null", y, pa.array([None] + s[1:].tolist()), names=(S,))


def _y_pandas_na() -> RowInput:
    import pandas as pd
    y, s = _base()
    arr = pd.array(y, dtype="Int64")
    arr[0] = pd.NA
    return bad("y_pandas_na", pd.Series(arr), s, names=(Y,))


VALID = _valid_inputs()
BAD = _bad_inputs()
ALL = VALID + BAD


def by_name(names: set[str] | None = None) -> list[Callable[[], RowInput]]:
    """Builders of the named inputs (all when ``names`` is None), in table order."""
    if names is None:
        return list(ALL)
    found = [b for b in ALL if b().name in names]
    missing = names - {b().name for b in found}
    assert not missing, missing
    return found
