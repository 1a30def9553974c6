"""Old path of :mod:`indist_fast.distributed.ranges`: importing it gives that very module, so
every name (private ones included) and every patch of one reach the same object."""

import sys

from .distributed import ranges as _home

sys.modules[__name__] = _home
