"""Fuzz suite for indist_fast (issue 10): generated bad and unusual inputs for every
public entry point, each run in a crash-isolated worker process.

``python -m tests.fuzz`` prints the counts by entry point and outcome class;
``tests/test_fuzz.py`` asserts that no case ends badly.
"""

import os as _os
import sys as _sys

_TESTS = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
if _TESTS not in _sys.path:
    _sys.path.append(_TESTS)            # tests/oracle.py, the brute-force oracle
