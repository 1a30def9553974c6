"""The progress policy: a bar when watched, never in a pipe, always silenced by False."""

from __future__ import annotations

import io
import sys

import pytest

from indist_fast._core import progress as prog


class Tty(io.StringIO):
    def isatty(self):
        return True


def test_default_follows_the_terminal(monkeypatch):
    monkeypatch.delenv("INDIST_FAST_PROGRESS", raising=False)
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert prog.wants_progress(None) is False
    monkeypatch.setattr(sys, "stderr", Tty())
    assert prog.wants_progress(None) is True
    monkeypatch.setenv("INDIST_FAST_PROGRESS", "0")
    assert prog.wants_progress(None) is False
    # an explicit choice wins over the terminal and the environment
    assert prog.wants_progress(True) is True
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert prog.wants_progress(True) is True
    monkeypatch.setattr(sys, "stderr", Tty())
    assert prog.wants_progress(False) is False


def test_progress_must_be_a_flag():
    with pytest.raises(TypeError, match="^progress must be True or False, got 'yes'"):
        prog.wants_progress("yes")


def test_bar_counts_and_closes(fake_tqdm):
    with prog.progress_bar(True, 10, "bootstrap") as bar:
        for _ in range(10):
            bar.update()
        assert bar.shown and bar.n == 10
    (made,) = fake_tqdm
    assert (made.total, made.desc, made.n, made.closed) == (10, "bootstrap", 10, True)


def test_no_bar_draws_nothing(fake_tqdm):
    with prog.progress_bar(False, 10, "bootstrap") as bar:
        bar.update(3)
        assert not bar.shown and bar.n == 0
    assert fake_tqdm == []
