"""Former home of :mod:`indist_fast.distributed.dask`; the same names, kept for existing imports."""

from .distributed.dask import *  # noqa: F401,F403
from .distributed.dask import __all__  # noqa: F401
