"""Former home of :mod:`indist_fast.distributed.ranges`; the same names, kept for existing imports."""

from .distributed.ranges import *  # noqa: F401,F403
from .distributed.ranges import __all__  # noqa: F401
