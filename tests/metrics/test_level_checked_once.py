"""A public call validates each argument once: the functions it calls inside the package
take the checked values and do not check them again. Each test counts the calls of a
checker during one public call, through the name the calling module looks up."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import indist_fast
from indist_fast.metrics import evaluation

Y = np.array([0, 1, 0, 1, 1, 0, 1, 0, 1, 1])
S = np.array([0.1, 0.9, 0.3, 0.8, 0.35, 0.4, 0.7, 0.2, 0.6, 0.65])


def counting(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[object]:
    """Replace ``module.name`` by a wrapper that records each call's first argument."""
    calls: list[object] = []
    original = getattr(module, name)

    @functools.wraps(original)
    def wrapper(*args: object, **kwargs: object) -> object:
        calls.append(args[0] if args else None)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, wrapper)
    return calls


@pytest.mark.parametrize("entry", [indist_fast.indistinguishability_threshold,
                                   indist_fast.precision_at_indistinguishability])
def test_the_level_of_a_one_level_call_is_checked_once(monkeypatch, backend, entry):
    calls = counting(monkeypatch, evaluation, "check_level")
    expected = entry(Y, S, level=0.5)
    assert calls == [0.5]
    monkeypatch.undo()
    assert entry(Y, S, level=0.5) == expected


def test_a_bad_level_is_still_refused_by_name(backend):
    with pytest.raises(ValueError, match="level"):
        indist_fast.indistinguishability_threshold(Y, S, level=1.5)
