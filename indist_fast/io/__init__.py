"""Prediction logs from files and tables.

``readers`` reads columns from .npy, .npz, .csv (also compressed), .parquet and
Arrow IPC files and from folders, globs and lists of them (its names are re-exported
here), ``frames`` takes them from DataFrames, ``files`` evaluates a file
in or out of core, ``streaming`` accumulates chunks.
"""

from .readers import *  # noqa: F401,F403
from .readers import __all__  # noqa: F401
