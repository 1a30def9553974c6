"""file and command-line friction met by a newcomer.

CSV null markers in text columns, the standard-library CSV reader behaving like
pyarrow's, ``--pos-label`` on a boolean column, row errors naming their column,
``--plot`` checked before the run, ``--bootstrap`` against ``--memory-limit``.
"""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest

import indist_fast
from indist_fast import IndistFastWarning, evaluate_file
from indist_fast.cli import build_parser, main
from indist_fast.io import CSV_FALSE, CSV_NULLS, CSV_TRUE, read_columns
from reports import assert_reports_equal

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pcsv = pytest.importorskip("pyarrow.csv")

TINY = 20_000               # memory_limit: files of a few thousand rows go out of core
N = 3000
rng = np.random.default_rng(10)
Y = rng.random(N) < 0.35
S = np.round(rng.normal(size=N) + Y, 2)
W = rng.integers(1, 4, N).astype(float)
LIMITS = (None, TINY)


def quiet(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return fn(*a, **k)


@pytest.fixture(params=["pyarrow", "stdlib"])
def reader(request, monkeypatch):
    """Read CSV files with pyarrow, or with the standard library as without pyarrow."""
    if request.param == "stdlib":
        monkeypatch.setitem(sys.modules, "pyarrow.csv", None)
    return request.param


def write_csv(path, header, rows):
    path.write_text(",".join(header) + "\n" + "".join(",".join(r) + "\n" for r in rows))
    return path


# --- 1, 2: CSV nulls and types, with and without pyarrow ---------------------------------------

def test_pyarrow_defaults_are_the_markers_spelled_out():
    # The stdlib reader copies pyarrow's lists; they must not drift apart.
    options = pcsv.ConvertOptions()
    assert set(options.null_values) == CSV_NULLS
    assert set(options.true_values) == CSV_TRUE
    assert set(options.false_values) == CSV_FALSE


def test_the_issue_file(tmp_path, reader, backend):
    path = tmp_path / "s.csv"
    path.write_text("y,p\npos,0.9\nneg,0.2\n,0.3\nneg,0.1\nNA,0.5\npos,0.4\n")
    with pytest.raises(ValueError, match=r"^label: column 'y' of .*s\.csv has a missing "
                                         r"\(null\) value at row 2 "):
        evaluate_file(path, label="y", score="p", pos_label="pos", progress=False)
    got = quiet(evaluate_file, path, label="y", score="p", pos_label="pos", drop_nulls=True,
                progress=False)
    keep = [0, 1, 3, 5]
    y = np.array(["pos", "neg", "", "neg", "NA", "pos"], dtype=object)[keep]
    s = np.array([0.9, 0.2, 0.3, 0.1, 0.5, 0.4])[keep]
    assert_reports_equal(got, quiet(indist_fast.evaluate, y, s, pos_label="pos"))


@pytest.mark.parametrize("marker", sorted(CSV_NULLS))
def test_every_null_marker_in_a_text_label_column(tmp_path, reader, backend, marker):
    labels = np.where(Y, "spam", "ham").astype(object)
    rows = [[a, repr(b)] for a, b in zip(labels.tolist(), S.tolist())]
    for i in (7, 2500):
        rows[i][0] = marker
    path = write_csv(tmp_path / "d.csv", ["y", "s"], rows)
    keep = np.ones(N, bool)
    keep[[7, 2500]] = False
    want = quiet(indist_fast.evaluate, labels[keep], S[keep], pos_label="spam")
    for limit in LIMITS:
        with pytest.raises(ValueError, match=r"^label: column 'y' of .* at row 7 "):
            evaluate_file(path, label="y", score="s", pos_label="spam", memory_limit=limit,
                          progress=False)
        got = quiet(evaluate_file, path, label="y", score="s", pos_label="spam",
                    drop_nulls=True, memory_limit=limit, progress=False)
        assert_reports_equal(got, want)


def test_polars_null_strings(tmp_path, reader, backend):
    pl = pytest.importorskip("polars")
    labels = [None if i % 97 == 5 else ("spam" if a else "ham") for i, a in enumerate(Y)]
    path = tmp_path / "d.csv"
    pl.DataFrame({"y": labels, "s": S}).write_csv(path)
    keep = np.array([v is not None for v in labels])
    with pytest.raises(ValueError, match=r"^label: column 'y' of .* at row 5 "):
        evaluate_file(path, label="y", score="s", pos_label="spam", progress=False)
    got = quiet(evaluate_file, path, label="y", score="s", pos_label="spam", drop_nulls=True,
                progress=False)
    want = quiet(indist_fast.evaluate, np.array(labels, dtype=object)[keep], S[keep],
                 pos_label="spam")
    assert_reports_equal(got, want)


# Columns a CSV may hold, as text: the stdlib reader must type and null them as pyarrow.
COLUMNS = {
    "True/False": [("True" if a else "False") for a in Y],
    "true/FALSE": [("true" if a else "FALSE") for a in Y],
    "True/0": [("True" if a else "0") for a in Y],
    "0/1": [str(int(a)) for a in Y],
    "-1/1": [("1" if a else "-1") for a in Y],
    "floats": [("1.0" if a else "0.0") for a in Y],
    "text": [("spam" if a else "ham") for a in Y],
    "text with nulls": [("" if i % 11 == 3 else "null" if i % 13 == 4 else
                         "spam" if a else "ham") for i, a in enumerate(Y)],
    "ints with nulls": [("NA" if i % 11 == 3 else str(int(a))) for i, a in enumerate(Y)],
    "bools with nulls": [("N/A" if i % 11 == 3 else str(bool(a))) for i, a in enumerate(Y)],
}


@pytest.mark.parametrize("kind", COLUMNS)
@pytest.mark.parametrize("drop_nulls", [False, True])
def test_stdlib_csv_reads_as_pyarrow(tmp_path, monkeypatch, kind, drop_nulls):
    scores = [("nan" if i % 17 == 9 else repr(v)) for i, v in enumerate(S.tolist())]
    path = write_csv(tmp_path / "d.csv", ["y", "s", "w"],
                     zip(COLUMNS[kind], scores, map(repr, W.tolist())))

    def read():
        try:
            return read_columns(path, label="y", score="s", weight="w",
                                drop_nulls=drop_nulls)
        except ValueError as exc:
            return str(exc)

    arrow = read()
    with monkeypatch.context() as m:
        m.setitem(sys.modules, "pyarrow.csv", None)
        stdlib = read()
    if isinstance(arrow, str):          # a null, not skipped: the same error
        assert stdlib == arrow
        assert not drop_nulls
        return
    for a, b in zip(arrow, stdlib):
        assert a.dtype.kind == b.dtype.kind or {a.dtype.kind, b.dtype.kind} <= {"O", "U"}
        np.testing.assert_array_equal(a, b)


# --- 3: --pos-label on a boolean column ---------------------------------------------------------

def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def bool_files(tmp_path):
    pq.write_table(pa.table({"y": Y, "p": S, "w": W}), tmp_path / "b.parquet",
                   row_group_size=700)
    write_csv(tmp_path / "b.csv", ["y", "p", "w"],
              zip(map(str, Y.tolist()), map(repr, S.tolist()), map(repr, W.tolist())))
    return tmp_path


@pytest.mark.parametrize("name", ["b.parquet", "b.csv"])
@pytest.mark.parametrize("text", ["True", "true", "1", "False", "false", "0"])
@pytest.mark.parametrize("limit", ["1GB", str(TINY)])
def test_cli_pos_label_on_a_boolean_column(bool_files, capsys, backend, name, text, limit):
    import json
    positive = text in ("True", "true", "1")
    code, out, err = run(capsys, "evaluate", bool_files / name, "--label", "y", "--score",
                         "p", "--pos-label", text, "--json", "--no-progress",
                         "--memory-limit", limit)
    assert code == 0, err
    want = quiet(indist_fast.evaluate, Y, S, pos_label=positive, levels=(0.4, 0.5, 0.6))
    assert out == json.dumps(want.to_dict(), indent=2) + "\n"


def test_cli_pos_label_on_bool_in_the_in_memory_commands(bool_files, capsys, backend):
    import json
    code, out, err = run(capsys, "evaluate", bool_files / "b.parquet", "--label", "y",
                         "--score", "p", "--pos-label", "False", "--bootstrap", "20",
                         "--seed", "1", "--json")
    assert code == 0, err
    want = quiet(indist_fast.evaluate, Y, S, pos_label=False, n_boot=20, seed=1,
                 levels=(0.4, 0.5, 0.6))
    assert out == json.dumps(want.to_dict(), indent=2) + "\n"
    code, out, err = run(capsys, "losses", bool_files / "b.parquet", "--label", "y",
                         "--score", "p", "--pos-label", "false", "--json")
    assert code == 0, err


def test_cli_pos_label_keeps_text_and_numbers(tmp_path, capsys, backend):
    import json
    # A text label "1" is the string; a numeric column takes the number.
    write_csv(tmp_path / "t.csv", ["y", "p"],
              zip(["1" if a else "x" for a in Y], map(repr, S.tolist())))
    write_csv(tmp_path / "n.csv", ["y", "p"],
              zip(["7" if a else "3" for a in Y], map(repr, S.tolist())))
    want = quiet(indist_fast.evaluate, Y, S, levels=(0.4, 0.5, 0.6))
    for name, text in (("t.csv", "1"), ("n.csv", "7")):
        code, out, err = run(capsys, "evaluate", tmp_path / name, "--label", "y", "--score",
                             "p", "--pos-label", text, "--json", "--no-progress")
        assert code == 0, err
        assert out == json.dumps(want.to_dict(), indent=2) + "\n"


def test_in_memory_api_is_not_loosened(backend):
    with pytest.raises(ValueError, match="pos_label='True' does not match boolean y_true"):
        indist_fast.evaluate(Y, S, pos_label="True")


def test_a_pos_label_that_is_no_boolean_is_an_error(bool_files, capsys, backend):
    code, _, err = run(capsys, "evaluate", bool_files / "b.parquet", "--label", "y",
                       "--score", "p", "--pos-label", "yes", "--no-progress")
    assert code == 2
    assert "label: column 'y' of" in err and "--pos-label='yes' does not match boolean" in err


# --- 4: row errors name the role, column and file ------------------------------------------------

def bad_files(tmp_path):
    """(path, role, column, kwargs, in-memory call) for one bad value of each kind."""
    pl = pytest.importorskip("polars")
    nan = S.copy()
    nan[1705] = np.nan
    pl.DataFrame({"y": Y, "p": nan}).write_parquet(tmp_path / "nan.parquet")
    third = Y.astype(int)
    third[1] = 2
    pq.write_table(pa.table({"y": third, "p": S}), tmp_path / "third.parquet")
    neg = W.copy()
    neg[2100] = -1.0
    pq.write_table(pa.table({"y": Y.astype(int), "p": S, "w": neg}),
                   tmp_path / "weight.parquet", row_group_size=700)
    seven = np.where(Y, 1, 0)
    pq.write_table(pa.table({"y": seven, "p": S}), tmp_path / "pos.parquet")
    return [
        (tmp_path / "nan.parquet", "score", "p", {},
         lambda: indist_fast.evaluate(Y, nan)),
        (tmp_path / "third.parquet", "label", "y", {},
         lambda: indist_fast.evaluate(third, S)),
        (tmp_path / "weight.parquet", "weight", "w", {"weight": "w"},
         lambda: indist_fast.evaluate(Y.astype(int), S, sample_weight=neg)),
        (tmp_path / "pos.parquet", "label", "y", {"pos_label": 7},
         lambda: indist_fast.evaluate(seven, S, pos_label=7)),
    ]


def test_row_errors_name_the_column(tmp_path, backend):
    for path, role, column, kw, in_memory in bad_files(tmp_path):
        with pytest.raises(ValueError) as want:
            quiet(in_memory)
        for limit in LIMITS:
            with pytest.raises(ValueError) as got:
                quiet(evaluate_file, path, label="y", score="p", memory_limit=limit,
                      progress=False, **kw)
            assert str(got.value) == f"{role}: column {column!r} of {path}: {want.value}"


def test_row_errors_name_the_column_on_the_command_line(tmp_path, capsys, backend):
    for path, role, column, kw, in_memory in bad_files(tmp_path):
        with pytest.raises(ValueError) as want:
            quiet(in_memory)
        options = ["--weight", kw["weight"]] if "weight" in kw else []
        options += ["--pos-label", str(kw["pos_label"])] if "pos_label" in kw else []
        for extra in ([], ["--bootstrap", "5"], ["--memory-limit", str(TINY)]):
            code, _, err = run(capsys, "evaluate", path, "--label", "y", "--score", "p",
                               "--no-progress", *options, *extra)
            assert code == 2
            # (the library's pos_label is named as the command's option)
            library = str(want.value).replace("pos_label", "--pos-label")
            assert err.strip() == (f"indist-fast evaluate: error: {role}: column "
                                   f"{column!r} of {path}: {library}")


# --- 5: --plot checked before the evaluation ----------------------------------------------------

@pytest.mark.parametrize("plot, message", [
    ("/nonexist/x.png", "--plot: no such folder: /nonexist"),
    ("out.xyz", "--plot must be a file name ending in one of"),
])
@pytest.mark.parametrize("command", ["evaluate", "demo"])
def test_plot_is_checked_before_the_run(tmp_path, capsys, monkeypatch, plot, message,
                                        command):
    monkeypatch.chdir(tmp_path)
    # The data file does not even exist: argparse refuses --plot before any reading.
    argv = (["evaluate", "missing.parquet", "--label", "y", "--score", "p"]
            if command == "evaluate" else ["demo"])
    with pytest.raises(SystemExit) as exit_:
        main(argv + ["--plot", plot])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "missing.parquet" not in err
    assert not list(tmp_path.iterdir())


def test_plot_in_a_folder_that_is_not_writable(tmp_path, capsys):
    import os
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("running as a user that may write anywhere")
        with pytest.raises(SystemExit):
            build_parser().parse_args(["demo", "--plot", str(folder / "x.png")])
        assert f"--plot: folder {folder} is not writable" in capsys.readouterr().err
    finally:
        folder.chmod(0o700)


def test_plot_types_matplotlib_writes_are_accepted(tmp_path):
    pytest.importorskip("matplotlib")
    for ext in ("png", "PDF", "svg"):
        args = build_parser().parse_args(["demo", "--plot", str(tmp_path / f"x.{ext}")])
        assert args.plot == str(tmp_path / f"x.{ext}")


# --- 6: --bootstrap and --memory-limit ----------------------------------------------------------

def test_bootstrap_help_says_it_reads_every_row(capsys):
    with pytest.raises(SystemExit):
        main(["evaluate", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "reads every row into memory, whatever --memory-limit" in help_text


@pytest.mark.parametrize("name", ["b.parquet", "b.npz"])
def test_bootstrap_beyond_the_memory_limit_is_refused(bool_files, capsys, backend, name):
    np.savez(bool_files / "b.npz", y=Y, p=S, w=W)
    # 3000 rows of a bool label and a float64 score: 27,000 bytes, over a 20,000 limit.
    code, _, err = run(capsys, "evaluate", bool_files / name, "--label", "y", "--score", "p",
                       "--bootstrap", "5", "--memory-limit", str(TINY))
    assert code == 2
    assert "--bootstrap reads every row into memory" in err and "--memory-limit" in err
    assert f"{N:,} rows" in err
    code, _, err = run(capsys, "evaluate", bool_files / name, "--label", "y", "--score", "p",
                       "--bootstrap", "5", "--memory-limit", "1MB")
    assert code == 0, err


def test_cli_pos_label_on_a_binary_column(tmp_path, capsys, backend):
    import json
    pq.write_table(pa.table({"y": pa.array([b"spam" if a else b"ham" for a in Y], pa.binary()),
                             "p": S}), tmp_path / "b.parquet")
    code, out, err = run(capsys, "evaluate", tmp_path / "b.parquet", "--label", "y",
                         "--score", "p", "--pos-label", "spam", "--json", "--no-progress")
    assert code == 0, err
    want = quiet(indist_fast.evaluate, Y, S, levels=(0.4, 0.5, 0.6))
    assert out == json.dumps(want.to_dict(), indent=2) + "\n"


@pytest.mark.slow
def test_a_chunk_left_empty_by_drop_nulls_is_skipped_out_of_core(tmp_path, backend):
    # The first chunks hold only null labels: dropped, they must not reach the row checks
    # as empty chunks (out of core) nor type pos_label from an empty block.
    n = 300_000
    rng = np.random.default_rng(3)
    y = np.r_[np.full(n, np.nan), (rng.random(n) < 0.3).astype(float)]
    s = rng.random(2 * n)
    path = tmp_path / "nulls_first.csv"
    np.savetxt(path, np.c_[y, s], delimiter=",", header="y,p", comments="", fmt="%.17g")
    path.write_text(path.read_text().replace("nan,", ","))
    want = quiet(indist_fast.evaluate, y[n:], s[n:])
    for limit in ("1GB", "2MB"):
        got = quiet(evaluate_file, path, label="y", score="p", drop_nulls=True,
                    memory_limit=limit)
        assert got.auc == pytest.approx(want.auc, abs=1e-15) and got.n_rows == n
