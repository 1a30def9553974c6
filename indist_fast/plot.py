"""Old path of :mod:`indist_fast.integrations.plot`: importing it gives that very module, so
every name (private ones included) and every patch of one reach the same object."""

import sys

from .integrations import plot as _home

sys.modules[__name__] = _home
