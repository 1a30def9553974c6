"""Former home of :mod:`indist_fast.io.streaming`; the same names, kept for existing imports."""

from .io.streaming import *  # noqa: F401,F403
from .io.streaming import __all__  # noqa: F401
