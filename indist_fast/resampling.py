"""Old path of :mod:`indist_fast.inference.bootstrap`: importing it gives that very module, so
every name (private ones included) and every patch of one reach the same object."""

import sys

from .inference import bootstrap as _home

sys.modules[__name__] = _home
