"""Warnings raised by indist_fast (exceptions are the built-in ValueError/TypeError)."""

import os
import sys
import warnings
from types import FrameType

import numpy as np

__all__ = ["IndistFastWarning", "LevelNotReachedWarning", "UndefinedBWarning",
           "FractionalWeightsWarning", "DirectionWarning", "warn"]

# Frames of files under this directory are the library's own (co_filename is spelled as
# this module's __file__ is: both come from the same import).
_PACKAGE_DIR = os.path.dirname(__file__) + os.sep


class IndistFastWarning(UserWarning):
    """Base class of the library's warnings.

    Examples
    --------
    >>> import warnings
    >>> import indist_fast
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", indist_fast.IndistFastWarning)  # all of them
    ...     r = indist_fast.evaluate([0, 0, 1, 1], [0.9, 0.8, 0.1, 0.2])
    >>> r.reached
    False
    """


class LevelNotReachedWarning(IndistFastWarning):
    """No operating point has ``B >= level``: the threshold there is NaN.

    Examples
    --------
    >>> import warnings
    >>> import indist_fast
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     r = indist_fast.evaluate([0, 0, 1, 1], [0.9, 0.8, 0.1, 0.2])
    >>> [w.category.__name__ for w in caught]
    ['LevelNotReachedWarning']
    """


class UndefinedBWarning(IndistFastWarning):
    """``B`` is NaN at some operating points because its denominator is not positive.

    With ``exclude_self=True`` the self-pair correction counts weights as copies; a
    total positive weight near or below 1 (normalised weights) leaves too few pairs.

    Examples
    --------
    >>> import warnings
    >>> import indist_fast
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     c = indist_fast.curves([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3], sample_weight=[0.1] * 4)
    >>> [w.category.__name__ for w in caught]
    ['UndefinedBWarning']
    """


class FractionalWeightsWarning(IndistFastWarning):
    """Weights that are not whole numbers reach a standard error that counts copies.

    DeLong's variance and the Wilson intervals read weights as frequency counts (weight
    3 is three copies of the row): their sample sizes are the class weight totals, not
    the numbers of rows. Normalised or inverse-propensity weights then give standard
    errors for a sample of a different size; rescale the weights to the effective
    sample size, or use the bootstrap, which resamples rows.

    Examples
    --------
    >>> import warnings
    >>> import indist_fast
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     r = indist_fast.delong([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9],
    ...                            sample_weight=[1.5] * 6)
    >>> [w.category.__name__ for w in caught]
    ['FractionalWeightsWarning']
    """


def warn(message: "str | Warning", category: type[Warning]) -> None:
    """``warnings.warn`` pointing at the first frame outside indist_fast: the line of
    the user's code that called the library, however deep inside the call warns.

    The ``stacklevel`` is counted here, frame by frame, rather than fixed at each call:
    a fixed number is right for one call path only (a public function called by another
    one, through a wrapper or a context manager's ``__exit__``, adds frames).

    Parameters
    ----------
    message : str or Warning
        The text (or a warning caught earlier, passed on).
    category : type of Warning
        Its class (ignored when ``message`` is a Warning, as ``warnings.warn`` does).

    Examples
    --------
    >>> import warnings
    >>> from indist_fast.errors import IndistFastWarning, warn
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn("a note", IndistFastWarning)
    >>> caught[0].filename.startswith("<doctest")      # this line, not errors.py
    True
    """
    level = 1                            # warnings.warn's count: 1 is this function
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        name = frame.f_code.co_filename
        # warnings.warn does not count the import system's frames: neither does this.
        if not ("importlib" in name and "_bootstrap" in name):
            level += 1
            if not name.startswith(_PACKAGE_DIR):
                break                    # (no frame outside: the outermost one)
        frame = frame.f_back
    warnings.warn(message, category, stacklevel=level)


def warn_fractional_weights(w: "np.ndarray | None", what: str) -> bool:
    """Warn when weights read as copies by ``what`` are not whole numbers; whether it
    warned."""
    fractional = w is not None and bool(np.any(np.modf(w)[0]))
    if fractional:
        warn(f"sample_weight holds weights that are not whole numbers: {what} counts "
             "weights as copies of rows (its sample size is the weight total, not the "
             "number of rows). Rescale the weights to the effective sample size, or use "
             "the bootstrap.", FractionalWeightsWarning)
    return fractional


def warn_undefined_b(n_undefined: int, weight_pos: float, exclude_self: bool) -> None:
    if n_undefined:
        warn(f"B is NaN at {n_undefined} operating point(s): with exclude_self=True the "
             f"self-pair correction treats weights as copies, and the total positive "
             f"weight {weight_pos:.4g} leaves no pairs there. Pass exclude_self=False "
             "for the all-pairs (scale-invariant) form." if exclude_self else
             f"B is NaN at {n_undefined} operating point(s).", UndefinedBWarning)


def warn_one_class(n_flagged: int, n_rows: int) -> None:
    """The one warning of a ``ReportTable`` whose ``n_flagged`` of ``n_rows`` rows hold a
    single class (or weight 0 on every row), wherever the table was made."""
    if n_flagged:
        warn(f"{n_flagged:,} of {n_rows:,} (segment, model) rows hold a single class (or "
             "weight 0 on every row): their AUC, B and precision are undefined (NaN; see "
             "the one_class column).", IndistFastWarning)


class DirectionWarning(IndistFastWarning):
    """``direction="auto"`` read lower scores as the positive class.

    As pROC's ``roc(direction="auto")``, the direction follows the class medians; when
    the negatives' median is above the positives', ranking is reversed (positive where
    ``score <= threshold``). Pass ``direction="lower"`` to say so and silence it.

    Examples
    --------
    >>> import warnings
    >>> import indist_fast
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     c = indist_fast.coords([0, 0, 1, 1], [0.9, 0.8, 0.1, 0.2], direction="auto")
    >>> [w.category.__name__ for w in caught]
    ['DirectionWarning']
    """
