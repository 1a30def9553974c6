"""A third label is named as in memory when rows come in chunks: the classes are those
the earlier chunks coded, not what a chunk starting with the odd label suggests."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import indist_fast
from indist_fast import Accumulator, IndistFastWarning, evaluate_file

pa = pytest.importorskip("pyarrow")
feather = pytest.importorskip("pyarrow.feather")

N = 200_000
LIMITS = (None, "1MB")              # in memory, and out of core in chunks


def write(tmp_path, y):
    rng = np.random.default_rng(1)
    path = tmp_path / "log.feather"
    feather.write_feather(pa.table({"y": y, "p": rng.normal(size=len(y))}), path,
                          chunksize=10_000)
    return path


def labels(at: int, value: int) -> np.ndarray:
    y = np.random.default_rng(0).integers(0, 2, N)
    y[at:at + 3] = [value, 1, 0]              # a chunk may start at the odd label
    return y


def run(path, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return evaluate_file(path, label="y", score="p", progress=False, **kwargs)


@pytest.mark.parametrize("limit", LIMITS)
@pytest.mark.parametrize("pos_label", [None, 1, 0])
def test_the_odd_label_is_named_not_the_classes_after_it(tmp_path, backend, limit,
                                                         pos_label):
    path = write(tmp_path, labels(150_000, 7))
    with pytest.raises(ValueError, match=r"third label 7 at row 150000 \(the classes: "
                                         r"0 and 1\)"):
        run(path, memory_limit=limit, pos_label=pos_label)


def test_a_chunk_without_pos_label_says_it_is_one_chunk(tmp_path, backend):
    y = labels(150_000, 7)
    path = write(tmp_path, y)
    # In memory the whole column is seen: 7 is the positive, so the 1s are one label
    # too many; out of core the first chunk holds no 7, and the message says so.
    with pytest.raises(ValueError, match=r"third label 1 at row \d+ \(the classes: 0 and 7\)"):
        run(path, pos_label=7)
    with pytest.raises(ValueError, match=r"pos_label=7 is not a value of y_true in the "
                                         r"chunk read at row 0 \([\d,]+ rows; smallest 0, "
                                         r"largest 1\)"):
        run(path, pos_label=7, memory_limit="1MB")


def test_in_memory_the_odd_first_label_is_named():
    with pytest.raises(ValueError, match=r"third label 7 at row 0 \(the classes: 0 and 1\)"):
        indist_fast.evaluate([7, 0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4, 0.5])


def test_the_accumulator_names_the_odd_label_of_a_later_chunk(backend):
    acc = Accumulator()
    acc.update([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(ValueError, match=r"third label 7 at row 0 \(the classes: 0 and 1\)"):
        acc.update([7, 1, 0], [0.5, 0.6, 0.7])
    assert acc.n_rows == 4                    # the bad chunk left nothing behind
