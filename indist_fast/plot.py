"""Former home of :mod:`indist_fast.integrations.plot`; the same names, kept for existing imports."""

from .integrations.plot import *  # noqa: F401,F403
from .integrations.plot import __all__  # noqa: F401
