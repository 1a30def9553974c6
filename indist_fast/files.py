"""Former home of :mod:`indist_fast.io.files`; the same names, kept for existing imports."""

from .io.files import *  # noqa: F401,F403
from .io.files import __all__  # noqa: F401
