"""Former home of :mod:`indist_fast.results`; the same names, kept for existing imports."""

from .results import *  # noqa: F401,F403
from .results import __all__  # noqa: F401
