"""Prediction logs in: columns read from files, folders and DataFrames, checked and
handed to the engine as rows. This area imports only the engine (``_core``) and
``errors``; evaluating what it reads is the business of the areas above it.

Files are read by format modules, each turning one kind of file into a ``Source``
(``source``: what a format must provide): ``numpy_files`` (``.npy``, ``.npz``),
``arrow_files`` (Arrow IPC, and the Arrow-to-NumPy conversion the others share),
``parquet_files`` and ``csv_files``. ``registry.FORMATS`` maps each file ending to
its opener, so a new format is one module with an opener ``open_<format>(path, cols,
drop_nulls) -> Source`` and one line in ``FORMATS`` (and ``FAMILIES``, if its files may
mix with another format's in one dataset). ``folders`` reads datasets of files
(folders with hive partitions, glob patterns, lists), ``columns`` holds the checks
and errors by column role, ``reading`` the entry points ``open_source`` and
``read_columns``, ``frames`` the columns of in-memory DataFrames and Arrow tables.
``stores`` resolves URIs of object stores (``s3://``, ``gs://``, ``abfs://``...) to a
filesystem and a path in it (``StorePath``), through which the formats open, size and
list files that are not on the local disk.

Every problem with a file is a ``ValueError`` (or ``TypeError`` for a column of the
wrong type, ``FileNotFoundError`` for a missing file) whose message starts with the
argument at fault: ``path``, or the role of a column (``label``, ``score``,
``weight``). Errors found in the rows by the evaluation itself (a NaN score, a
third label) are the in-memory ones under the role, column and file:
``score: column 'p' of d.parquet: y_score contains NaN ...`` (``naming_columns``).
"""

from .columns import CSV_FALSE, CSV_NULLS, CSV_TRUE, LabelText, naming_columns, typed_pos_label
from .numpy_files import page_release
from .reading import open_source, read_columns
from .source import Source, check_input_path, describe_path, one_line

__all__ = ["read_columns", "open_source", "Source", "check_input_path", "describe_path",
           "naming_columns", "LabelText", "typed_pos_label", "page_release", "one_line",
           "CSV_NULLS", "CSV_TRUE", "CSV_FALSE"]
