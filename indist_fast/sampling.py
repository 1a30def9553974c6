"""Former home of :mod:`indist_fast.inference.pairs`; the same names, kept for existing imports."""

from .inference.pairs import *  # noqa: F401,F403
from .inference.pairs import __all__  # noqa: F401
