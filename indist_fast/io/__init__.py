"""Prediction logs from files and tables.

``readers`` reads columns from .npy, .npz, .csv and .parquet files (its names are
re-exported here), ``frames`` takes them from DataFrames, ``files`` evaluates a file
in or out of core, ``streaming`` accumulates chunks.
"""

from .readers import *  # noqa: F401,F403
from .readers import __all__  # noqa: F401
