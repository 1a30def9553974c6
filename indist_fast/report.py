"""Old path of :mod:`indist_fast.results`: importing it gives that very module, so
every name (private ones included) and every patch of one reach the same object."""

import sys

from . import results as _home

sys.modules[__name__] = _home
