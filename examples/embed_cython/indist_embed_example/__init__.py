"""A tiny package built on indist_fast's Cython sweep (see README.md)."""

from ._auc import auc

__all__ = ["auc"]
