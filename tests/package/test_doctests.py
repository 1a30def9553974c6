"""The examples in the docstrings run and print what they claim."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import indist_fast

# Every module of every area (subpackages included); the compiled kernels have no
# docstring examples.
MODULES = sorted(m.name for m in pkgutil.walk_packages(indist_fast.__path__, "indist_fast.")
                 if not m.name.startswith("indist_fast._core._"))


@pytest.mark.slow
@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def test_some_examples_exist():
    finder = doctest.DocTestFinder()
    n = sum(len(t.examples) for name in MODULES
            for t in finder.find(importlib.import_module(name)))
    assert n >= 10
