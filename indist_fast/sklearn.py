"""Former home of :mod:`indist_fast.integrations.sklearn`; the same names, kept for existing imports."""

from .integrations.sklearn import *  # noqa: F401,F403
from .integrations.sklearn import __all__  # noqa: F401
