"""A file format is one opener returning a ``Source`` and one line in ``FORMATS``:
files, folders and ``evaluate_file`` then read it like any other format."""

from __future__ import annotations

import numpy as np
import pytest

import indist_fast
from indist_fast.io import Source, read_columns
from indist_fast.io.columns import check_present
from indist_fast.io.registry import FORMATS


def open_tsv(path, cols, drop_nulls):
    """A minimal format: tab-separated numbers under a header line."""
    with open(path) as fh:
        header = fh.readline().rstrip("\n").split("\t")
        check_present(path, cols, header)
        data = np.loadtxt(fh, delimiter="\t", ndmin=2)
    columns = tuple(None if name is None else data[:, header.index(name)]
                    for name in cols.values())
    return Source(len(data), 8 * len(header), lambda rows: iter([columns]))


@pytest.fixture
def tsv(monkeypatch, tmp_path):
    monkeypatch.setitem(FORMATS, ".tsv", open_tsv)
    for part, rows in (("a", "0\t0.1\n1\t0.8\n"), ("b", "1\t0.6\n0\t0.3\n")):
        (tmp_path / f"{part}.tsv").write_text("y\tp\n" + rows)
    return tmp_path


def test_a_registered_format_is_read_alone_in_a_folder_and_evaluated(tsv):
    y, s, w = read_columns(tsv / "a.tsv", label="y", score="p")
    assert y.tolist() == [0, 1] and s.tolist() == [0.1, 0.8] and w is None
    y, s, _ = read_columns(tsv, label="y", score="p")              # a folder of them
    assert s.tolist() == [0.1, 0.8, 0.6, 0.3]
    report = indist_fast.evaluate_file(tsv, label="y", score="p", progress=False)
    assert report.auc == indist_fast.evaluate(y, s).auc


def test_an_unregistered_ending_lists_the_registered_ones(tmp_path):
    (tmp_path / "a.tsv").write_text("y\tp\n0\t0.1\n")
    with pytest.raises(ValueError, match=r"^path: cannot read \.tsv files .*use one of "
                                         r"\.arrow, \.csv"):
        read_columns(tmp_path / "a.tsv", label="y", score="p")
