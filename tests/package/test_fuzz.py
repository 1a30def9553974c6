"""The fuzz suite: every generated case ends in a correct result or a
ValueError/TypeError/FileNotFoundError naming the argument.

The cases live in ``tests/fuzz`` and run in crash-isolated worker processes;
``python -m tests.fuzz`` prints the same run as a table of counts.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import pytest  # noqa: E402

from tests.fuzz.runner import BAD, format_bad, run, summary  # noqa: E402


@pytest.mark.slow
def test_fuzz_cases_end_well():
    results = run(jobs=2)
    assert len(results) >= 2000, f"only {len(results)} fuzz cases"
    bad = [r for r in results if r["cls"] in BAD]
    if bad:
        pytest.fail(f"{len(bad)} of {len(results)} fuzz cases ended badly\n"
                    + summary(results) + "\n\n" + format_bad(bad, examples=5), pytrace=False)
