"""Warnings raised by indist_fast (exceptions are the built-in ValueError/TypeError)."""

import warnings

import numpy as np

__all__ = ["IndistFastWarning", "LevelNotReachedWarning", "UndefinedBWarning",
           "FractionalWeightsWarning"]


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


def warn_fractional_weights(w: "np.ndarray | None", what: str, stacklevel: int) -> bool:
    """Warn when weights read as copies by ``what`` are not whole numbers; whether it
    warned."""
    fractional = w is not None and bool(np.any(np.modf(w)[0]))
    if fractional:
        warnings.warn(f"sample_weight holds weights that are not whole numbers: {what} "
                      "counts weights as copies of rows (its sample size is the weight "
                      "total, not the number of rows). Rescale the weights to the "
                      "effective sample size, or use the bootstrap.",
                      FractionalWeightsWarning, stacklevel=stacklevel + 1)
    return fractional


def warn_undefined_b(n_undefined: int, weight_pos: float, exclude_self: bool,
                     stacklevel: int = 4) -> None:
    if n_undefined:
        warnings.warn(
            f"B is NaN at {n_undefined} operating point(s): with exclude_self=True the "
            f"self-pair correction treats weights as copies, and the total positive "
            f"weight {weight_pos:.4g} leaves no pairs there. Pass exclude_self=False "
            "for the all-pairs (scale-invariant) form." if exclude_self else
            f"B is NaN at {n_undefined} operating point(s).",
            UndefinedBWarning, stacklevel=stacklevel)


def warn_one_class(n_flagged: int, n_rows: int, stacklevel: int) -> None:
    """The one warning of a ``ReportTable`` whose ``n_flagged`` of ``n_rows`` rows hold a
    single class (or weight 0 on every row), wherever the table was made."""
    if n_flagged:
        warnings.warn(f"{n_flagged:,} of {n_rows:,} (segment, model) rows hold a single "
                      "class (or weight 0 on every row): their AUC, B and precision are "
                      "undefined (NaN; see the one_class column).", IndistFastWarning,
                      stacklevel=stacklevel + 1)
