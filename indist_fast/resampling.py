"""Former home of :mod:`indist_fast.inference.bootstrap`; the same names, kept for existing imports."""

from .inference.bootstrap import *  # noqa: F401,F403
from .inference.bootstrap import __all__  # noqa: F401
