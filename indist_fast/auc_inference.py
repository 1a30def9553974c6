"""Former home of :mod:`indist_fast.inference.delong`; the same names, kept for existing imports."""

from .inference.delong import *  # noqa: F401,F403
from .inference.delong import __all__  # noqa: F401
