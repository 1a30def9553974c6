"""Warnings raised by indist_fast (exceptions are the built-in ValueError/TypeError)."""

__all__ = ["IndistFastWarning", "LevelNotReachedWarning", "UndefinedBWarning"]


class IndistFastWarning(UserWarning):
    """Base class of the library's warnings."""


class LevelNotReachedWarning(IndistFastWarning):
    """No operating point has ``B >= level``: the threshold there is NaN."""


class UndefinedBWarning(IndistFastWarning):
    """``B`` is NaN at some operating points because its denominator is not positive.

    With ``exclude_self=True`` the self-pair correction counts weights as copies; a
    total positive weight near or below 1 (normalised weights) leaves too few pairs.
    """
