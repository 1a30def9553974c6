"""One label coding across chunks: the first chunk (or pos_label) fixes which raw labels
mean positive and negative, and every later chunk, merged accumulator, merged table and
file chunk is held to it."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import indist_fast
from reports import assert_reports_equal
from indist_fast import Accumulator, IndistFastWarning, ScoreTable, evaluate_file
from indist_fast._core.validation import LabelCoding, combine_codings, prepare_rows

rng = np.random.default_rng(10)


def quiet(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return fn(*a, **k)


def scores(n):
    return np.round(rng.normal(size=n), 1)


# Chunk label sequences: (chunks of labels, pos_label, the raw positive or None if the
# sequence must be refused). Accepted sequences are checked against evaluate on the
# concatenation with labels turned into y == positive.
ACCEPTED = [
    ([[0, 1, 1], [1, 0, 0]], None, 1),
    ([[-1, 1, 1], [1, -1]], None, 1),
    ([[1, 1], [-1, 1, -1]], None, 1),                 # positives only: negative left open
    ([[1, 1], [0, 1, 0], [1, 1]], None, 1),
    ([[True, False], [0, 1]], None, 1),               # True == 1 codes alike
    ([[0.0, 1.0], np.array([1, 0], np.int8)], None, 1),
    ([["a", "b"], ["b", "b"], ["a", "a"]], "b", "b"),
    ([["b", "b"], ["c", "b"]], "b", "b"),             # negative first seen in chunk 2
    ([[2, 5], [5, 5], [2, 2]], 5, 5),
]
REFUSED = [
    ([[0, 1, 1], [-1, 1, 1]], None, r"\{-1, 1\} .* but earlier chunks coded them \{0, 1\}"),
    ([[-1, 1], [0, 1]], None, r"\{0, 1\} .* earlier chunks coded them \{-1, 1\}"),
    ([[0, 0], [-1, -1]], None, r"\{-1, 1\} .* earlier .* \{0, 1\}"),
    ([[1, 1], [0, 1], [-1, 1]], None, r"\{-1, 1\} .* earlier .* \{0, 1\}"),
    ([[True, False], [-1, 1]], None, r"\{-1, 1\} .* earlier .* \{False, True\}"),
    ([["a", "b"], ["c", "c"]], "b", r"\{'c', 'b'\} .* earlier .* \{'a', 'b'\}"),
    ([["a", "b"], ["b", "b"], ["b", "c"]], "b", r"\{'c', 'b'\} .* earlier .* \{'a', 'b'\}"),
    ([[2, 5], [3, 5]], 5, r"\{3, 5\} .* earlier .* \{2, 5\}"),
]


def _oracle(chunks, positive):
    y = np.concatenate([np.asarray(c, dtype=object) for c in chunks])
    return np.array([v == positive for v in y])


# --- the coding itself ------------------------------------------------------------------

@pytest.mark.parametrize("labels, pos_label, coding", [
    ([0, 1], None, LabelCoding(1.0, 0.0)),
    ([-1, 1], None, LabelCoding(1.0, -1.0)),
    ([1, 1], None, LabelCoding(1.0, None)),
    ([0, 0], None, LabelCoding(1.0, 0.0)),
    ([True, True], None, LabelCoding(True, False)),     # a boolean column knows both values
    ([True, False], False, LabelCoding(False, True)),
    (["x", "y"], "y", LabelCoding("y", "x")),
    (["y", "y"], "y", LabelCoding("y", None)),
    (["x", "x"], "y", LabelCoding("y", "x")),
    ([3, 7], 3, LabelCoding(3.0, 7.0)),
])
def test_prepare_rows_reports_the_raw_coding(labels, pos_label, coding):
    got = prepare_rows(labels, np.arange(len(labels), dtype=float), None, pos_label).coding
    assert got == coding
    assert type(got.positive) is type(coding.positive)


def test_combine_is_order_free_on_agreement_and_keeps_what_is_known():
    open_, closed = LabelCoding(1.0), LabelCoding(1.0, -1.0)
    assert open_.combine(closed) == closed.combine(open_) == closed
    assert combine_codings(None, closed) == combine_codings(closed, None) == closed
    assert combine_codings(None, None) is None
    with pytest.raises(ValueError, match="y_true: this chunk codes labels"):
        LabelCoding("b", "a").combine(LabelCoding("a", "b"))   # pos_label swapped


# --- Accumulator --------------------------------------------------------------------------

@pytest.mark.parametrize("chunks, pos_label, positive", ACCEPTED)
def test_accumulator_accepts_one_coding(backend, chunks, pos_label, positive):
    acc = Accumulator(pos_label=pos_label)
    parts = []
    for labels in chunks:
        s = scores(len(labels))
        acc.update(labels, s)
        parts.append(s)
    want = quiet(indist_fast.evaluate, _oracle(chunks, positive), np.concatenate(parts))
    assert_reports_equal(quiet(acc.result), want)


@pytest.mark.parametrize("chunks, pos_label, message", REFUSED)
def test_accumulator_refuses_a_second_coding(backend, chunks, pos_label, message):
    acc = Accumulator(pos_label=pos_label)
    for labels in chunks[:-1]:
        acc.update(labels, scores(len(labels)))
    before_rows, before_table = acc.n_rows, acc.table
    with pytest.raises(ValueError, match=f"y_true: this chunk codes labels {message}"):
        acc.update(chunks[-1], scores(len(chunks[-1])))
    # the refused chunk left nothing behind
    assert acc.n_rows == before_rows
    np.testing.assert_array_equal(acc.table.scores, before_table.scores)
    np.testing.assert_array_equal(acc.table.pos, before_table.pos)


@pytest.mark.parametrize("chunks, pos_label, message", REFUSED)
def test_accumulator_merge_and_pickle_carry_the_coding(backend, chunks, pos_label, message):
    first = Accumulator(pos_label=pos_label)
    for labels in chunks[:-1]:
        first.update(labels, scores(len(labels)))
    last = Accumulator(pos_label=pos_label)
    last.update(chunks[-1], scores(len(chunks[-1])))
    with pytest.raises(ValueError, match=f"y_true: this chunk codes labels {message}"):
        first.merge(last)
    revived = pickle.loads(pickle.dumps(first))
    assert revived.coding == first.coding
    with pytest.raises(ValueError, match=f"y_true: this chunk codes labels {message}"):
        revived.update(chunks[-1], scores(len(chunks[-1])))
    with pytest.raises(ValueError, match="y_true: this chunk codes labels"):
        pickle.loads(pickle.dumps(last)).merge(first)


def test_accumulator_merge_of_agreeing_codings_is_exact(backend):
    a, b = Accumulator(), Accumulator()
    a.update([1, 1, 1], [0.3, 0.2, 0.9])          # positives only: negative still open
    b.update([-1, 1, -1], [0.1, 0.5, 0.4])
    a.merge(pickle.loads(pickle.dumps(b)))
    assert a.coding == LabelCoding(1.0, -1.0)
    want = indist_fast.evaluate([1, 1, 1, 0, 1, 0], [0.3, 0.2, 0.9, 0.1, 0.5, 0.4])
    assert_reports_equal(quiet(a.result), want)


# (labels drawn from, pos_label, the positive, one coding?) for the property test below:
# without pos_label the chunks are one coding exactly when all of them together hold
# labels of {0, 1} or of {-1, 1}; with pos_label "b", when they hold at most one other.
CODINGS = {
    "numeric": ([-1, 0, 1], None, 1, lambda v: v <= {0, 1} or v <= {-1, 1}),
    "text": (["a", "b", "c"], "b", "b", lambda v: len(v - {"b"}) <= 1),
}


@pytest.mark.parametrize("kind", CODINGS)
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), merge_at=st.integers(0, 5))
def test_any_chunking_is_refused_exactly_when_the_labels_are_not_one_coding(
        backend, kind, data, merge_at):
    alphabet, pos_label, positive, one_coding = CODINGS[kind]
    chunks = data.draw(st.lists(st.lists(st.sampled_from(alphabet), min_size=1, max_size=6),
                                min_size=1, max_size=5))
    chunk_scores = [np.round(rng.normal(size=len(c)), 1) for c in chunks]
    values = set(sum(chunks, []))
    accs = [Accumulator(pos_label=pos_label), Accumulator(pos_label=pos_label)]
    try:
        for k, (labels, s) in enumerate(zip(chunks, chunk_scores)):
            accs[k >= merge_at].update(np.array(labels), s)
        acc = accs[0].merge(pickle.loads(pickle.dumps(accs[1])))   # split, then merged
    except ValueError as exc:
        assert not one_coding(values), str(exc)
        assert "y_true" in str(exc)
        return
    assert one_coding(values)
    y = np.concatenate([np.array(c, dtype=object) for c in chunks]) == positive
    if y.all() or not y.any():
        with pytest.raises(ValueError, match="single class"):
            acc.result()
        return
    assert_reports_equal(quiet(acc.result), quiet(indist_fast.evaluate, y,
                                                  np.concatenate(chunk_scores)))


# --- ScoreTable ------------------------------------------------------------------------

@pytest.mark.parametrize("chunks, pos_label, message", REFUSED)
def test_table_merge_and_concat_refuse_two_codings(backend, chunks, pos_label, message):
    tables = [ScoreTable.from_arrays(c, scores(len(c)), pos_label=pos_label) for c in chunks]
    with pytest.raises(ValueError, match=f"y_true: this chunk codes labels {message}"):
        ScoreTable.concat(tables)
    merged = ScoreTable.concat(tables[:-1])
    with pytest.raises(ValueError, match="y_true: this chunk codes labels"):
        merged.merge(tables[-1])


def test_tables_from_bare_counts_merge_with_any_coding(backend):
    coded = ScoreTable.from_arrays([-1, 1, 1], [0.2, 0.7, 0.2])
    bare = ScoreTable([0.9, 0.2], [1, 0], [0, 2], 3)
    assert bare.coding is None
    merged = coded.merge(bare)
    assert merged.coding == coded.coding
    want = indist_fast.evaluate([0, 1, 1, 1, 0, 0], [0.2, 0.7, 0.2, 0.9, 0.2, 0.2])
    assert_reports_equal(quiet(merged.evaluate), want)


# --- evaluate_file, chunk by chunk ----------------------------------------------------------

# At memory_limit=600kB the readers hand over 12,500-row chunks and the file goes out
# of core after the first chunk (see files.evaluate_file): 40,000 rows are 4 chunks.
LIMIT = "600kB"
N_FILE = 40_000


def _write(tmp_path, kind, y, s, w=None):
    import pyarrow as pa
    columns = {"y": y, "s": s} | ({} if w is None else {"w": w})
    if kind == "parquet":
        import pyarrow.parquet as pq
        path = tmp_path / "d.parquet"
        pq.write_table(pa.table(columns), path, row_group_size=12_500)
    else:
        import pyarrow.csv as pcsv
        path = tmp_path / "d.csv"
        pcsv.write_csv(pa.table(columns), path)
    return path


def _file_case(bad, n=N_FILE):
    y = (rng.random(n) < 0.3).astype(np.int64)
    s = np.round(rng.normal(size=n) + y, 2)
    if bad:            # the first part codes {0, 1}, the last {-1, 1}
        # Between them a stretch of positives longer than any chunk, so that no single
        # chunk mixes the two codings (which is a third label within one chunk).
        y[n // 3: 2 * n // 3] = 1
        y[2 * n // 3:] = 2 * y[2 * n // 3:] - 1
    else:              # the first chunk has positives only, the rest {-1, 1}: one coding
        y[:12_500] = 1
        y[12_500:] = 2 * y[12_500:] - 1
    return y, s


# A CSV block is at least 1 MB (io._csv_source), about 100,000 of these lines.
@pytest.mark.parametrize("kind, n", [("parquet", N_FILE), ("csv", 400_000)])
@pytest.mark.parametrize("weighted", [False, True])
def test_evaluate_file_refuses_a_coding_change_between_chunks(backend, tmp_path, kind, n,
                                                             weighted):
    y, s = _file_case(True, n)
    w = rng.integers(1, 3, n).astype(float) if weighted else None
    path = _write(tmp_path, kind, y, s, w)
    with pytest.raises(ValueError, match=r"y_true: this chunk codes labels \{-1, 1\} "
                                         r".* earlier chunks coded them \{0, 1\}"):
        quiet(evaluate_file, path, label="y", score="s", weight="w" if weighted else None,
              memory_limit=LIMIT, progress=False)


@pytest.mark.parametrize("weighted", [False, True])
def test_evaluate_file_keeps_a_negative_first_seen_later(backend, tmp_path, weighted):
    y, s = _file_case(bad=False)
    w = rng.integers(0, 3, N_FILE).astype(float) if weighted else None
    path = _write(tmp_path, "parquet", y, s, w)
    got = quiet(evaluate_file, path, label="y", score="s", weight="w" if weighted else None,
                memory_limit=LIMIT, progress=False)
    assert_reports_equal(got, quiet(indist_fast.evaluate, y, s, sample_weight=w))
