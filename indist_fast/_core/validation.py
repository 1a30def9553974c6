"""Input checks: run once, in Python, before any kernel.

Every error names the argument and shows the offending shape or value. Row-level
problems (NaN scores, a third label, a bad weight) are found inside the kernels'
single pass and reported here by ``raise_row_errors``, so both backends raise the
same message.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
import math
from numbers import Real
from typing import Any, Iterable, Iterator, cast

import numpy as np

from .records import frozen_instance
from .rates import scale_exponent

__all__ = ["Rows", "LabelCoding", "combine_codings", "prepare_rows", "check_levels",
           "check_level", "check_real", "check_count", "check_flag", "check_seed", "check_pos_label",
           "check_columns", "raise_row_errors", "raise_nan_score", "check_coded_labels", "labels_as_coded"]

# The label dtypes the kernels are compiled for (``types.pxd``'s ``label_t``); other
# integer widths are narrowed or widened exactly by ``_kernel_integers``, float16 and
# long double become float64.
_LABEL_DTYPES = {np.dtype(t) for t in (np.uint8, np.int8, np.int32, np.int64,
                                       np.float32, np.float64)}


@dataclass(frozen=True)
class LabelCoding:
    """Which raw labels mean positive and negative in one set of rows.

    Chunks, files, partitions and merged tables are checked against each other with
    ``combine``: without it, ``{0, 1}`` in one chunk and ``{-1, 1}`` in the next, or
    ``pos_label="b"`` with ``["a", "b"]`` then ``["c", "c"]``, would each pass the
    per-chunk checks and be counted silently.

    Attributes
    ----------
    positive : object
        The positive label: ``pos_label``, else 1 (or True for boolean labels).
    negative : object or None
        The negative label, None while no negative row has been seen (a chunk of
        positives only leaves it open). Numeric labels are held as float, so
        ``True == 1 == 1.0`` codes alike across chunks of different dtypes.
    """

    positive: Any
    negative: Any = None

    def combine(self, later: "LabelCoding") -> "LabelCoding":
        """The coding of these rows and ``later``'s; ValueError if they disagree."""
        negative = self.negative if later.negative is None else later.negative
        if not _same_label(self.positive, later.positive) or (
                self.negative is not None and not _same_label(self.negative, negative)):
            raise ValueError(f"y_true: this chunk codes labels {later} but earlier chunks "
                             f"coded them {self}; use one label coding (and one pos_label) "
                             "for every chunk, file and partition.")
        return self if negative is self.negative else LabelCoding(self.positive, negative)

    def __str__(self) -> str:
        shown = ([] if self.negative is None else [_show_label(self.negative)])
        return (f"{{{', '.join(shown + [_show_label(self.positive)])}}} (positive "
                f"{_show_label(self.positive)})")


def combine_codings(earlier: LabelCoding | None, later: LabelCoding | None
                    ) -> LabelCoding | None:
    """``earlier.combine(later)``, where None (no rows, or a table built from bare
    counts) carries no coding and agrees with any."""
    if earlier is None:
        return later
    if later is None:
        return earlier
    return earlier.combine(later)


def _same_label(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def _show_label(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value)


def _plain_label(value: Any) -> Any:
    """A NumPy scalar as the Python value it stands for (hashable, comparable)."""
    return value.item() if isinstance(value, np.generic) else value


@dataclass(frozen=True)
class Rows:
    """Validated rows, in the dtypes the kernels take (never the caller's buffers
    modified; copies only where dtype, byte order or stride require them)."""

    y: np.ndarray            # numeric labels, compared against pos_value / neg_value
    s: np.ndarray            # float32 or float64 scores, contiguous, native order
    w: np.ndarray | None     # float64 weights, contiguous, or None
    pos_value: float
    neg_value: float         # NaN when the rows hold no negative label at all
    coding: LabelCoding | None = None   # the raw labels, to check other chunks against

    @property
    def n_rows(self) -> int:
        return len(self.s)


def as_1d(x: Any, name: str) -> np.ndarray:
    if isinstance(x, np.ma.MaskedArray) and np.ma.is_masked(x):
        # np.asarray would read the values under the mask as if they were data.
        masked = np.ma.getmaskarray(x)
        raise ValueError(f"{name} is a masked array with {int(masked.sum())} masked "
                         f"value(s) (first at row {int(np.flatnonzero(masked.ravel())[0])}); "
                         "drop those rows from every argument first (or fill them).")
    try:
        arr = np.asarray(x)
    except ValueError:
        # NumPy's own message ("inhomogeneous shape after 1 dimensions") names no argument.
        raise ValueError(f"{name} should be a 1d array, got a ragged nested sequence "
                         "(rows of different lengths).") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} should be a 1d array, got an array of shape "
                         f"{arr.shape} instead.{_one_column_hint(arr)}")
    return arr


def _one_column_hint(arr: np.ndarray) -> str:
    """What a 2-D array that holds one usable column most likely is, and how to pass it."""
    if arr.ndim == 2 and arr.shape[1] == 2:
        return (" Two columns are what predict_proba returns: pass the positive class's "
                "probabilities, proba[:, 1].")
    if arr.ndim == 2 and arr.shape[1] == 1:
        return " One column: pass it flattened, x.ravel()."
    return ""


def _native_contiguous(arr: np.ndarray, dtype: np.dtype | type | None = None) -> np.ndarray:
    dtype = np.dtype(dtype or arr.dtype).newbyteorder("=")
    # ascontiguousarray returns the caller's array untouched when nothing changes.
    return np.ascontiguousarray(arr, dtype=dtype)


# Integers up to 2**53 in magnitude are exact in float64; beyond it neighbours collapse
# into ties (2**62 + 1 and 2**62 become one score) and AUC changes silently.
_EXACT_INT = 2**53
# Element types float64 holds exactly within +-2**53 (NumPy's float64 is a float).
_EXACT_TYPES = (float, int)


def _scores(y_score: Any) -> np.ndarray:
    s = as_1d(y_score, "y_score")
    kind = s.dtype.kind
    if kind == "f":
        if s.dtype.itemsize > 8:         # long double: the kernels sort doubles
            return _exactly_float64(s, _native_contiguous(s, np.float64))
        return _native_contiguous(s, np.float64 if s.dtype.itemsize == 8 else np.float32)
    if kind in "iub":
        converted = _native_contiguous(s, np.float64)
        if s.dtype.itemsize == 8 and len(s) and (
                int(s.max()) > _EXACT_INT or (kind == "i" and int(s.min()) < -_EXACT_INT)):
            return _exactly_float64(s, converted)       # the rare case pays a unique count
        return converted
    if kind == "O":
        try:
            converted = s.astype(np.float64)
        except (TypeError, ValueError, OverflowError):
            pass
        else:
            converted = _native_contiguous(converted, np.float64)
            # Python floats and ints below 2**53 convert exactly: no unique counts
            # (a sort of Python objects) for the common object column. Strictly below:
            # 2**53 + 1 rounds onto 2**53 itself.
            if (np.abs(converted) < _EXACT_INT).all() and all(
                    isinstance(v, _EXACT_TYPES) for v in s.tolist()):
                return converted
            return _exactly_float64(s, converted)
    raise TypeError(f"y_score must hold real numbers, got an array of dtype {s.dtype}.")


def _exactly_float64(original: np.ndarray, converted: np.ndarray) -> np.ndarray:
    """``converted`` if rounding to float64 merged no two distinct scores (rounding is
    monotone, so only new ties can change a result); rare dtypes only (long double,
    Python objects), so the unique counts are affordable."""
    try:
        same = len(np.unique(original)) == len(np.unique(converted))
    except TypeError:                    # mixed Python objects: compare as converted
        same = True
    if not same:
        raise ValueError(f"y_score holds {original.dtype} values that float64 cannot tell "
                         "apart (integers beyond 2**53, long double): distinct scores would "
                         "become ties and the metrics change. Rescale or rank them first "
                         "(any order-preserving map gives the same results), or pass "
                         "float64 scores if those ties are intended.")
    return converted


def _labels(y_true: Any, pos_label: Any) -> tuple[np.ndarray, float, float, LabelCoding]:
    """Labels as a numeric array, the values that mean positive and negative there,
    and the raw coding (to hold other chunks to)."""
    y = as_1d(y_true, "y_true")
    kind = y.dtype.kind
    if kind == "b":
        if pos_label is not None and not (isinstance(pos_label, (bool, np.bool_))
                                          or pos_label in (0, 1)):
            raise ValueError(f"pos_label={pos_label!r} does not match boolean y_true; "
                             "use True or False.")
        positive = True if pos_label is None else bool(pos_label)
        # Both values of a boolean column are known: the negative is fixed up front.
        return (_native_contiguous(y).view(np.uint8), float(positive), float(not positive),
                LabelCoding(positive, not positive))
    if kind in "iuf":
        if kind == "f" and y.dtype.newbyteorder("=") not in _LABEL_DTYPES:
            y = y.astype(np.float64)      # float16, long double
        y = _native_contiguous(y)
        if len(y) == 0:
            return y.astype(np.uint8), 1.0, 0.0, LabelCoding(1.0)
        lo, hi = y.min(), y.max()
        if kind in "iu":
            if lo < -_EXACT_INT or hi > _EXACT_INT:
                # Labels are matched as float64 values: beyond 2**53 two labels could
                # meet there, so such columns take the exact path of Python ints.
                return _labels(y.astype(object), pos_label)
            y = _kernel_integers(y, int(lo), int(hi))
        if np.isnan(lo) or np.isnan(hi):
            raise ValueError(f"y_true contains NaN (first at row "
                             f"{int(np.flatnonzero(np.isnan(y))[0])}).")
        lo, hi = float(lo), float(hi)
        if pos_label is None:
            if not ({lo, hi} <= {0.0, 1.0} or {lo, hi} <= {-1.0, 1.0}):
                # (1 is the positive of both codings; failing that, the first label)
                _raise_third_label(y, 1.0 if (y == 1).any() else float(y[0]))
                found = (f"only the label {_show_label(lo)}" if lo == hi else
                         f"the labels {_show_label(lo)} and {_show_label(hi)}")
                raise ValueError(
                    f"y_true must be coded {{0, 1}} or {{-1, 1}} without pos_label; found "
                    f"{found}. Pass pos_label to name the positive class.")
            negative = lo if lo != 1.0 else None
            return y, 1.0, (0.0 if negative is None else negative), LabelCoding(1.0, negative)
        if not isinstance(pos_label, (Real, np.number)):
            raise TypeError(f"pos_label={pos_label!r} does not match numeric y_true.")
        pos = float(pos_label)
        if lo == hi:
            negative = lo if lo != pos else None
        elif pos in (lo, hi):
            negative = lo if pos == hi else hi
        elif (y == pos).any():
            _raise_third_label(y, pos)
        else:
            raise ValueError(f"pos_label={pos_label!r} is not a value of y_true "
                             f"(smallest {_show_label(lo)}, largest {_show_label(hi)}).")
        return (y, pos, (np.nan if negative is None else negative),
                LabelCoding(pos, negative))
    if kind in "OUS":
        try:
            values = np.unique(y)
        except TypeError as exc:
            row = first_missing(y)
            if row >= 0:
                raise ValueError(f"y_true has a missing label ({y[row]!r}) at row {row}; "
                                 "drop those rows first.") from None
            raise TypeError(f"y_true mixes label types that cannot be compared: {exc}") from None
        if len(values) > 2:
            if pos_label is None:       # (1 is the positive of both codings)
                _raise_third_label(y, 1 if any(_same_label(v, 1) for v in values) else y[0])
            else:
                _raise_third_label(y, pos_label)
            raise ValueError(f"y_true must be binary; found {len(values)} distinct labels: "
                             f"{_show(values)}.")
        if pos_label is None:
            if all(isinstance(v, (Real, np.number)) for v in values):
                return _labels(y.astype(np.float64), None)
            raise ValueError(f"y_true has non-numeric labels {_show(values)}; pass pos_label "
                             "to say which one is positive.")
        if len(values) == 2 and pos_label not in list(values):
            raise ValueError(f"pos_label={pos_label!r} is not one of the labels "
                             f"{_show(values)} in y_true.")
        others = [_plain_label(v) for v in values if not _same_label(v, pos_label)]
        coding = LabelCoding(_plain_label(pos_label), others[0] if others else None)
        return np.ascontiguousarray(y == pos_label).view(np.uint8), 1.0, 0.0, coding
    raise TypeError(f"y_true must hold binary labels, got an array of dtype {y.dtype}.")


def _kernel_integers(y: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """Integer labels in a dtype the kernels take, the same values: int16 and uint16
    widened to int32, uint32 and uint64 viewed as the signed type of their width when
    their values fit it (no copy), else widened."""
    if y.dtype in _LABEL_DTYPES:
        return y
    if y.dtype.itemsize <= 2:
        return y.astype(np.int32)
    signed = np.dtype(f"i{y.dtype.itemsize}")
    if hi <= np.iinfo(signed).max:
        return y.view(signed)
    return y.astype(np.int64)             # uint32 beyond 2**31 (hi <= 2**53 here)


def first_missing(values: np.ndarray) -> int:
    """Row of the first None, NaN or pandas NA in an object array, -1 if none (only
    called once np.unique has failed, so the Python loop costs nothing extra)."""
    for i, v in enumerate(values):
        if v is None:
            return i
        try:
            if bool(v != v):            # NaN
                return i
        except TypeError:               # pandas NA: its truth value is ambiguous
            return i
    return -1


def weight_column(sample_weight: Any) -> np.ndarray | None:
    """``sample_weight`` as contiguous native float64 (values unchecked), or None."""
    if sample_weight is None:
        return None
    w = as_1d(sample_weight, "sample_weight")
    if w.dtype.kind not in "iufb":
        raise TypeError(f"sample_weight must hold real numbers, got an array of dtype "
                        f"{w.dtype}.")
    return _native_contiguous(w, np.float64)


def prepare_rows(y_true: Any, y_score: Any, sample_weight: Any = None,
                 pos_label: Any = None) -> Rows:
    """Validate and convert the three row arrays; raise on anything the kernels can't take."""
    s = _scores(y_score)
    y, pos_value, neg_value, coding = _labels(y_true, pos_label)
    w = weight_column(sample_weight)
    _check_lengths(y, s, w)
    if len(s) == 0:
        raise ValueError("y_true and y_score are empty: need at least one row.")
    return Rows(y, s, w, pos_value, neg_value, coding)


#: Up to this many rows, plain arrays reach the engine unscanned: its
#: ``summarize_plain`` checks them, and every row, itself. Beyond it a Python-level scan
#: is a small share of the work, and the general path uses both cores.
PLAIN_ROWS = 100_000
_PLAIN_SCORES = {np.dtype(np.float64), np.dtype(np.float32)}


def plain_rows(y_true: Any, y_score: Any, sample_weight: Any = None,
               pos_label: Any = None, max_rows: int = PLAIN_ROWS) -> Rows | None:
    """Rows of the common service call, taken as they are, or None: the NumPy twin's
    reading of what the compiled ``summarize_plain`` checks in C (``_sorted._plain``).

    NumPy arrays, 1-d, C-contiguous, aligned, native: bool or integer/float labels of a
    kernel dtype, float64 or float32 scores, at most ``max_rows`` of them, no weights
    and no ``pos_label``. Nothing looks at the values: the labels are taken as {0, 1}
    (or bool); the engine's ``summarize_plain`` then returns None for anything else
    ({-1, 1} labels, NaN, one class), which goes through ``prepare_rows``. Views only:
    the caller's arrays are not copied or changed.
    """
    if sample_weight is not None or pos_label is not None:
        return None
    if type(y_true) is not np.ndarray or type(y_score) is not np.ndarray:
        return None
    n = len(y_score) if y_score.ndim == 1 else -1
    if (not 0 < n <= max_rows or y_true.shape != y_score.shape
            or not (y_true.flags.c_contiguous and y_score.flags.c_contiguous)
            or not (y_true.flags.aligned and y_score.flags.aligned)
            or y_score.dtype not in _PLAIN_SCORES):
        return None
    if y_true.dtype == np.bool_:
        return _plain(y_true.view(np.uint8), y_score, _BOOL_CODING)
    if y_true.dtype in _LABEL_DTYPES:
        return _plain(y_true, y_score, _NUMBER_CODING)
    return None


_BOOL_CODING = LabelCoding(True, False)
_NUMBER_CODING = LabelCoding(1.0, 0.0)


def _plain(y: np.ndarray, s: np.ndarray, coding: LabelCoding) -> Rows:
    """``Rows(y, s, None, 1.0, 0.0, coding)``, built as the reports are."""
    return frozen_instance(Rows, y=y, s=s, w=None, pos_value=1.0, neg_value=0.0,
                           coding=coding)


def _check_lengths(y: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> None:
    lengths = [len(y), len(s)] + ([] if w is None else [len(w)])
    if len(set(lengths)) > 1:
        raise ValueError("Found input variables with inconsistent numbers of samples: "
                         f"{lengths} (y_true, y_score{', sample_weight' if w is not None else ''}).")


def with_scores(rows: Rows, y_score: Any) -> Rows:
    """``rows`` with other scores (another model on the same labels and weights): only
    the scores are validated again."""
    s = _scores(y_score)
    _check_lengths(rows.y, s, None)
    return Rows(rows.y, s, rows.w, rows.pos_value, rows.neg_value, rows.coding)


def _raise_third_label(y: np.ndarray, pos_value: Any, negative: Any = None) -> None:
    """Raise for the first row of a third label, if ``y`` has one.

    The classes are the positive and a negative: ``negative`` when earlier rows set it
    (a file's earlier chunks), else 0 or -1 if present (the negatives of the two
    codings; the one met first), else the first other label. So ``[0, 1, 0, 1, 7]``
    and ``[7, 0, 1, 0, 1]`` name the 7, ``[-1, 1, 0]`` the 0, ``[3, 7, 5]`` with
    ``pos_label=7`` the 5, whichever label a kernel or a coding met first as "not a
    class"."""
    other = y != pos_value
    if negative is None:
        met = [r for r in (first_true(y == v) for v in (0, -1) if not _same_label(v, pos_value))
               if r >= 0] if y.dtype.kind not in "US" else []
        first_other = min(met) if met else first_true(other)
        if first_other < 0:
            return
        negative = y[first_other]
    row = first_true(other & (y != negative))
    if row >= 0:
        pair = [_plain_label(negative), _plain_label(pos_value)]
        try:
            pair.sort()
        except TypeError:                   # labels of kinds that do not order
            pass
        shown = " and ".join(_show_label(v) for v in pair)
        raise ValueError(f"y_true must be binary; found a third label "
                         f"{_plain_label(y[row])!r} at row {row} (the classes: {shown}).")


@contextlib.contextmanager
def labels_as_coded(y_true: Any, coding: LabelCoding | None) -> Iterator[None]:
    """The work on a chunk whose raw labels are ``y_true``: a ``ValueError`` raised in
    it (a coding change, or a third label as the chunk alone shows it) gives way to the
    third label named by ``coding``, the coding earlier chunks set, when the chunk has
    one (``check_coded_labels``). The check runs only on that error path: a valid
    chunk pays nothing for it."""
    try:
        yield
    except ValueError:
        try:
            check_coded_labels(y_true, coding)
        except ValueError as named:
            raise named from None
        raise


def check_coded_labels(y_true: Any, coding: LabelCoding | None) -> None:
    """Raise for the first row of ``y_true`` (a chunk's raw labels) that is neither
    label of ``coding``, the coding earlier chunks set, when the chunk holds both of
    those too: the third label is named as in memory, not as this chunk alone would
    suggest (its first labels may be the odd ones). A chunk of one other coding (``{-1,
    1}`` after ``{0, 1}``) is left to ``LabelCoding.combine``, which says so. Nothing
    to check while the coding has not seen both classes."""
    if coding is None or coding.negative is None:
        return
    y = np.asarray(y_true)
    if y.dtype.kind not in "biufUSO" or y.ndim != 1:
        return                                  # prepare_rows raises for these
    try:
        if not ((y == coding.positive).any() and (y == coding.negative).any()):
            return
        _raise_third_label(y, coding.positive, coding.negative)
    except (TypeError, ValueError) as exc:
        if "third label" in str(exc):
            raise
        # (labels that do not compare with the coding's: prepare_rows says what)


def raise_nan_score(row: int) -> None:
    """The error for a NaN score first met at ``row`` (-1: none, no error)."""
    if row >= 0:
        raise ValueError(f"y_score contains NaN (first at row {row}); drop or impute "
                         "those rows first.")


def raise_row_errors(bad_label: int, nan_row: int, bad_weight: int, y: np.ndarray,
                     s: np.ndarray, w: np.ndarray | None, *, pos_value: float) -> None:
    """Turn the kernels' first-bad-row indices (-1 = none) into one clear error.

    A kernel reports the first row that is neither ``pos_value`` nor the negative value
    the coding chose; the error names the third label in order of appearance instead
    (see ``_raise_third_label``)."""
    raise_nan_score(nan_row)
    if bad_label >= 0:
        _raise_third_label(y, pos_value)
        raise ValueError(f"y_true must be binary; found a third label {y[bad_label].item()!r} "
                         f"at row {bad_label}.")
    if bad_weight >= 0:
        assert w is not None
        raise ValueError(f"sample_weight must be finite and non-negative; found "
                         f"{w[bad_weight].item()!r} at row {bad_weight}.")


def first_true(mask: np.ndarray) -> int:
    """Index of the first True in ``mask``, -1 if none."""
    found = np.flatnonzero(mask)
    return int(found[0]) if len(found) else -1


def checked_classes(y: np.ndarray, s: np.ndarray, w: np.ndarray | None, pos_value: float,
                    neg_value: float) -> np.ndarray:
    """Which rows are positive, for paths that sort rows in NumPy themselves: raises,
    through ``raise_row_errors``, what the engines raise for the first NaN score, third
    label or bad weight.

    Examples
    --------
    >>> import numpy as np
    >>> from indist_fast._core.validation import checked_classes
    >>> checked_classes(np.array([0, 1, 1]), np.array([0.2, 0.5, 0.1]), None, 1, 0).tolist()
    [False, True, True]
    """
    is_pos: np.ndarray = y == pos_value
    bad_weight = (-1 if w is None else first_true(~(np.isfinite(w) & (w >= 0))))
    raise_row_errors(first_true(~is_pos & (y != neg_value)), first_true(np.isnan(s)),
                     bad_weight, y, s, w, pos_value=pos_value)
    return is_pos


def _bound(x: float) -> str:
    return f"{x:g}"


def _range_phrase(low: float | None, high: float | None, low_open: bool, high_open: bool,
                  finite: bool) -> str:
    """What ``check_real`` asks for, in words (the end of its ValueError)."""
    if low is not None and high is not None:
        if low_open and high_open:
            return f"lie strictly between {_bound(low)} and {_bound(high)}"
        return (f"lie in {'(' if low_open else '['}{_bound(low)}, {_bound(high)}"
                f"{')' if high_open else ']'}")
    if low is not None:
        side = f"{'>' if low_open else '>='} {_bound(low)}"
    elif high is not None:
        side = f"{'<' if high_open else '<='} {_bound(high)}"
    else:
        return "be finite" if finite else "not be NaN"
    return f"be {side}{' and finite' if finite else ''}"


def check_real(value: Any, name: str, *, low: float | None = None,
               high: float | None = None, low_open: bool = False, high_open: bool = False,
               finite: bool = True, kind: str = "be a real number",
               must: str | None = None) -> float:
    """A real scalar argument as a plain float, checked against its range.

    Bools (Python's and NumPy's) are refused although ``numbers.Real`` admits them:
    ``True`` passed for a level or a score is a mistake, never a number. NaN is always
    refused; ``finite=False`` lets ``+-inf`` through (a threshold of ``inf`` labels
    nothing).

    Parameters
    ----------
    value : Any
        The argument as passed.
    name : str
        The argument's name, for the messages.
    low, high : float or None, default=None
        Bounds of the accepted range; None leaves that side open-ended.
    low_open, high_open : bool, default=False
        Exclude the bound itself.
    finite : bool, default=True
        Refuse ``+-inf``.
    kind : str, default="be a real number"
        What the TypeError says the argument must do.
    must : str or None, default=None
        What the ValueError says the argument must do (``"lie in [0, 1]"``); by
        default it is worded from the range.

    Returns
    -------
    float

    Raises
    ------
    TypeError
        ``value`` is not a real number; the message names ``name``.
    ValueError
        ``value`` is NaN, infinite (with ``finite=True``) or out of range; the
        message names ``name``.

    Examples
    --------
    >>> from indist_fast._core.validation import check_real
    >>> check_real(1, "sigma", low=0.0, low_open=True)
    1.0
    >>> check_real(0.0, "sigma", low=0.0, low_open=True)
    Traceback (most recent call last):
    ...
    ValueError: sigma must be > 0 and finite, got 0.0.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real):
        raise TypeError(f"{name} must {kind}, got {value!r}.")
    try:
        x = float(value)
    except OverflowError:              # an int beyond float64: out of any finite range
        x = math.inf if cast(float, value) > 0 else -math.inf
    if (math.isnan(x) or (finite and math.isinf(x))
            or (low is not None and (x <= low if low_open else x < low))
            or (high is not None and (x >= high if high_open else x > high))):
        phrase = must or _range_phrase(low, high, low_open, high_open, finite)
        raise ValueError(f"{name} must {phrase}, got {value!r}.")
    return x


def check_level(level: Any, name: str = "level") -> float:
    """A level of B must be a real number strictly between 0 and 1."""
    return check_real(level, name, low=0.0, high=1.0, low_open=True, high_open=True,
                      kind="be a real number in (0, 1)")


# The last tuple ``check_levels`` took as it was (tuples cannot change).
_LAST_LEVELS: list[tuple[float, ...] | None] = [None]


def check_levels(levels: Iterable[Any]) -> tuple[float, ...]:
    """Distinct levels in the order given, each checked by ``check_level``."""
    last = _LAST_LEVELS[0]
    if levels is last and last is not None:
        return last            # a tuple passed before (the defaults): checked then
    if (type(levels) is tuple and len(levels) <= 15
            and all(type(v) is float and 0.0 < v < 1.0 for v in levels)
            and len(set(levels)) == len(levels)):
        _LAST_LEVELS[0] = levels
        return levels          # the defaults of every call: already what the checks give
    if isinstance(levels, (str, bytes)) or not isinstance(levels, Iterable):
        raise TypeError(f"levels must be a sequence of numbers in (0, 1), got {levels!r}.")
    out = tuple(dict.fromkeys(check_level(v, "levels") for v in levels))
    if len(out) > 15:
        raise ValueError(f"levels: at most 15 levels per call, got {len(out)}.")
    return out


def _show(values: np.ndarray, limit: int = 5) -> str:
    shown = ", ".join(repr(_plain_label(v)) for v in values[:limit])
    return f"[{shown}{', ...' if len(values) > limit else ''}]"


def check_count(value: Any, name: str, *, minimum: int = 1, maximum: int = 10**9) -> int:
    """A count argument (replicates, pairs, rows...) as a plain int in
    ``[minimum, maximum]``.

    Bools and floats are refused even when integral (``10.0``, ``True``): a count that
    arrives as a float was usually computed, and silently truncating it hides the bug.
    Every count has a ceiling so that a typo (``10**12``) fails at once instead of
    allocating or looping until the machine gives up.

    Parameters
    ----------
    value : Any
        The argument as passed.
    name : str
        The argument's name, for the messages.
    minimum, maximum : int, default=1, 10**9
        Inclusive bounds; callers pass a ceiling justified by what one unit costs.

    Returns
    -------
    int

    Raises
    ------
    TypeError
        ``value`` is not an integer; the message names ``name``.
    ValueError
        ``value`` lies outside ``[minimum, maximum]``; the message names ``name``.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {value!r} "
                        f"({type(value).__name__}).")
    count = int(value)
    if not minimum <= count <= maximum:
        raise ValueError(f"{name} must be an integer from {minimum:,} to {maximum:,}, "
                         f"got {count:,}.")
    return count


def check_flag(value: Any, name: str) -> bool:
    """A yes/no argument (``exclude_self``, ``stratified``, ...) as a plain bool.

    Only ``bool`` and NumPy's ``bool_`` pass: a string such as ``"False"`` is truthy, so
    accepting any object would silently flip the meaning of a misspelt call.
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r} "
                        f"({type(value).__name__}).")
    return bool(value)


def check_pos_label(pos_label: Any) -> Any:
    """A ``pos_label`` known before any label is: None or one value (whether y_true
    holds it is checked against the labels)."""
    if pos_label is not None and (np.ndim(pos_label) != 0
                                  or isinstance(pos_label, (dict, set, frozenset))
                                  or (isinstance(pos_label, float) and math.isnan(pos_label))):
        raise TypeError(f"pos_label must be one label value (the positive class) or None, "
                        f"got {pos_label!r} ({type(pos_label).__name__}).")
    return pos_label


def check_seed(seed: Any, name: str = "seed") -> np.random.SeedSequence:
    """A seed as NumPy's ``SeedSequence``: None, a non-negative int, a sequence of them,
    or a ``SeedSequence`` (a ``Generator`` is refused: its state would be consumed, so
    the same call could not be repeated)."""
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if seed is None:
        return np.random.SeedSequence()
    if isinstance(seed, (bool, np.bool_, float, np.floating, str, bytes)) or \
            isinstance(seed, (np.random.Generator, np.random.BitGenerator)):
        # a generator's repr holds its address: the message must not vary between runs
        shown = (f"a numpy {type(seed).__name__}" if isinstance(
            seed, (np.random.Generator, np.random.BitGenerator))
            else f"{seed!r} ({type(seed).__name__})")
        raise TypeError(f"{name} must be None, a non-negative integer, a sequence of them "
                        f"or a numpy SeedSequence, got {shown}.")
    try:
        return np.random.SeedSequence(seed)
    except (TypeError, ValueError) as exc:
        raise (TypeError if isinstance(exc, TypeError) else ValueError)(
            f"{name} must be None, a non-negative integer, a sequence of them or a numpy "
            f"SeedSequence, got {seed!r}: {exc}") from None


def make_rng(seed: Any, name: str = "seed") -> np.random.Generator:
    """``numpy.random.default_rng(seed)`` with ``check_seed``'s messages; a
    ``Generator`` is used as is (the caller owns its state)."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(check_seed(seed, name))


def check_columns(columns: Iterable[tuple[str, Any]], available: Iterable[Any], where: str,
                  none: str = "none") -> None:
    """Every named column (``(role, name)`` pairs, None for an unused one) is among
    ``available``; the ValueError names the role and lists what is there (``none``
    when nothing is). ``where`` says what was searched: a path, "the table", ...
    """
    available = list(available)
    for role, name in columns:
        if name is not None and name not in available:
            raise ValueError(f"{role}: column {name!r} is not in {where}; available columns: "
                             f"{', '.join(map(repr, available)) or none}.")


def check_two_classes(weight_pos: float, weight_neg: float) -> None:
    """AUC and B need both classes with positive weight, and a total weight that
    float64 can hold (the sweeps rescale weights by a power of two internally, so any
    finite total works; an infinite one cannot be reported), the class totals no more
    than about 2**1500 apart (``rates.scale_exponent``)."""
    check_weight_total(weight_pos, weight_neg)
    if weight_pos + weight_neg <= 0:
        raise ValueError("sample_weight is zero on every row: nothing to evaluate.")
    if weight_pos <= 0 or weight_neg <= 0:
        which = "negatives" if weight_pos <= 0 else "positives"
        raise ValueError(f"y_true holds only {which} (rows of weight 0 excluded): AUC and "
                         "B are undefined with a single class.")
    check_weight_span(weight_pos, weight_neg)


# Class totals both within 2**-500 .. 2**500 are never too far apart (the limit is about
# 2**1500): every evaluate is spared scale_exponent's arithmetic (a thousand rows: 2%).
_SPAN_SAFE = (2.0 ** -500, 2.0 ** 500)


def check_weight_span(weight_pos: float, weight_neg: float, where: str = "") -> None:
    """Class totals (both positive, or a class without weight) that a sweep can scale
    into range (``rates.scale_exponent``); ``where`` names a segment."""
    lo, hi = _SPAN_SAFE
    if lo <= weight_pos <= hi and lo <= weight_neg <= hi:
        return
    if weight_pos > 0 and weight_neg > 0 and scale_exponent(weight_pos, weight_neg) is None:
        raise ValueError(
            f"sample_weight: {where}the positives' total weight ({weight_pos:g}) and the "
            f"negatives' ({weight_neg:g}) are more than about 2**1500 apart, past what "
            "float64 products of the totals can hold; the lighter class cannot be "
            "weighed against the other.")


def check_group_sums(scores: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> None:
    """A score table's weights at each score, which float64 must hold (a table with an
    infinite one would be refused by ``ScoreTable`` itself)."""
    over = np.flatnonzero(~(np.isfinite(pos) & np.isfinite(neg)))
    if len(over):
        i = int(over[0])
        raise ValueError(
            "sample_weight sums to more than float64 holds at the score "
            f"{float(scores[i])!r} (positives {pos[i]:g}, negatives {neg[i]:g}); divide "
            "the weights by a common factor: AUC, precision and the rates do not change "
            "(B with exclude_self=True counts weights as copies).")


def check_weight_total(weight_pos: float, weight_neg: float) -> None:
    """A total weight float64 can hold; an infinite one cannot be reported."""
    if not math.isfinite(weight_pos + weight_neg):
        raise ValueError(
            f"sample_weight sums to more than float64 holds (positives {weight_pos:g}, "
            f"negatives {weight_neg:g}); divide the weights by a common factor: AUC, "
            "precision and the rates do not change (B with exclude_self=True counts "
            "weights as copies).")
