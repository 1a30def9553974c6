"""Fuzz suite for indist_fast: generated bad and unusual inputs for every
public entry point, each run in a crash-isolated worker process.

``python -m tests.fuzz`` prints the counts by entry point and outcome class (``--bad``
lists the bad cases, ``--only TEXT`` runs the cases whose id contains TEXT);
``tests/package/test_fuzz.py`` asserts that no case ends badly.

Layout
------
inputs   the table of row inputs (labels, scores, weights, pos_label), valid and bad
params   entry points x bad values of their other arguments (levels, n_boot, seed, ...)
more     ScoreTable, Accumulator, DataFrame columns, resolving power, scikit-learn,
         Dask, plots, datasets
files    every file format, good and broken, through every reader and the CLI
cases    the Case type and the entry points run over the row inputs
checks   brute-force oracles (tests/oracle.py) and range checks of results
suite    all cases in one deterministic order
worker   runs cases on both backends in a subprocess, classifies each outcome
runner   feeds the workers, with a per-case timeout; restarts them after a crash/hang

Outcomes
--------
ok-result, ok-error; bad: wrong-result (a wrong or out-of-range number, NaN where the
value is defined, the two backends disagreeing), valid-input-rejected,
wrong-exception (not ValueError/TypeError/FileNotFoundError, or a CLI traceback),
error-not-naming (the message names none of the expected arguments),
silent-acceptance, input-mutated, crash (the worker died), hang (timeout),
harness-error (a bug of the suite itself).
"""

import os as _os
import sys as _sys

_TESTS = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
if _TESTS not in _sys.path:
    _sys.path.append(_TESTS)            # tests/oracle.py, the brute-force oracle
