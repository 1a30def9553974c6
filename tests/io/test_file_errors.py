"""Bad files, every format, every entry point: a ValueError or TypeError (or
FileNotFoundError) whose message starts with the argument at fault, and on the
command line one ``error:`` line with exit status 2, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
import zipfile

import numpy as np
import pytest

from indist_fast import IndistFastWarning, evaluate_file
from indist_fast.cli import main
from indist_fast.io import read_columns
from children import CHILD_CWD, child_env

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

rng = np.random.default_rng(4)
N = 2000
Y = (rng.random(N) < 0.3).astype(np.int64)
S = np.round(rng.normal(size=N) + Y, 3)
KINDS = ["npy", "npz", "npz_compressed", "csv", "parquet"]
SUFFIX = {"npz_compressed": ".npz"}


def write(kind, path, y=Y, s=S):
    if kind == "npy":
        rec = np.zeros(len(s), dtype=[("y", "i8"), ("s", "f8")])
        rec["y"], rec["s"] = y, s
        np.save(path, rec)
    elif kind == "npz":
        np.savez(path, y=y, s=s)
    elif kind == "npz_compressed":
        np.savez_compressed(path, y=y, s=s)
    elif kind == "csv":
        with open(path, "w") as fh:
            fh.write("y,s\n" + "".join(f"{a},{b!r}\n" for a, b in zip(y.tolist(), s.tolist())))
    else:
        pq.write_table(pa.table({"y": pa.array(y, pa.int64()), "s": pa.array(s, pa.float64())}),
                       path, row_group_size=500)
    return path


def file_of(tmp_path, kind, name="d"):
    return tmp_path / f"{name}{SUFFIX.get(kind, '.' + kind)}"


def bad_file(tmp_path, kind, defect):
    """A file of ``kind`` with ``defect``: its path."""
    path = file_of(tmp_path, kind, defect)
    if defect == "missing":
        return path
    if defect == "directory":
        path.mkdir()
    elif defect == "empty":
        path.write_bytes(b"")
    elif defect == "garbage":
        path.write_bytes(np.random.default_rng(0).bytes(5000))
    elif defect == "truncated":
        data = write(kind, file_of(tmp_path, kind, "good")).read_bytes()
        cut = len(data) * 2 // 3
        if kind == "csv":                     # end inside a line: one field short
            cut = data.rindex(b",", 0, cut)
        path.write_bytes(data[:cut])
    elif defect == "corrupt":                 # damage in the middle, sizes intact
        data = bytearray(write(kind, file_of(tmp_path, kind, "good")).read_bytes())
        data[len(data) // 2:len(data) // 2 + 64] = bytes(64)
        path.write_bytes(bytes(data))
    elif defect == "no rows":
        write(kind, path, Y[:0], S[:0])
    return path


# defect -> (exception, message pattern); the pattern names the argument
DEFECTS = {
    "missing": (FileNotFoundError, r"^path: no such file"),
    "directory": (ValueError, r"^path: .* is a directory"),
    "empty": (ValueError, r"^path: "),
    "garbage": (ValueError, r"^path: "),
    "truncated": (ValueError, r"^path: "),
    "no rows": (ValueError, r"^path: .* holds no rows"),
}


def quiet(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return fn(*a, **k)


@pytest.mark.parametrize("defect", DEFECTS)
@pytest.mark.parametrize("kind", KINDS)
def test_bad_files(tmp_path, kind, defect):
    path = bad_file(tmp_path, kind, defect)
    error, message = DEFECTS[defect]
    for limit in (None, 20_000):
        with pytest.raises(error, match=message):
            quiet(evaluate_file, path, label="y", score="s", memory_limit=limit,
                  progress=False)
    with pytest.raises(error, match=message):
        read_columns(path, label="y", score="s")


def test_corrupt_compressed_member(tmp_path):
    # The damage is inside the deflate stream: an inflate or CRC error, not garbage.
    path = bad_file(tmp_path, "npz_compressed", "corrupt")
    with pytest.raises(ValueError, match=r"^path: .* could not be read as \.npz"):
        quiet(evaluate_file, path, label="y", score="s", progress=False)


@pytest.mark.parametrize("kind", KINDS)
def test_missing_and_misnamed_columns(tmp_path, kind):
    path = write(kind, file_of(tmp_path, kind))
    with pytest.raises(ValueError, match=r"^score: column 'p' is not in .*available "
                                         r"columns: 'y', 's'"):
        evaluate_file(path, label="y", score="p", progress=False)
    with pytest.raises(ValueError, match=r"^weight: column 'w' is not in"):
        evaluate_file(path, label="y", score="s", weight="w", progress=False)
    with pytest.raises(TypeError, match=r"^label must be a column name \(str\), got None"):
        evaluate_file(path, label=None, score="s")
    with pytest.raises(TypeError, match=r"^weight must be a column name \(str\) or None"):
        read_columns(path, label="y", score="s", weight=3)


def test_bad_path_arguments(tmp_path):
    with pytest.raises(TypeError, match=r"^path must be a file name"):
        evaluate_file(3, label="y", score="s")
    with pytest.raises(ValueError, match=r"^path: cannot read \.txt files"):
        (tmp_path / "d.txt").write_text("y,s\n1,0.5\n")
        evaluate_file(tmp_path / "d.txt", label="y", score="s")
    path = write("npz", tmp_path / "d.npz")
    got = quiet(evaluate_file, str(path).encode(), label="y", score="s", progress=False)
    assert got.n_rows == N                                      # bytes paths work too


def test_csv_contents(tmp_path):
    cases = {
        "header only": ("y,s\n", ValueError, r"^path: .* holds no rows"),
        "ragged": ("y,s\n1,0.5\n0\n", ValueError, r"^path: .* row 1: Expected 2 columns"),
        "text score": ("y,s\n1,0.5\n0,abc\n", ValueError,
                       r"^score: column 's' of .* row 1: .*invalid value 'abc'"),
        "text weight": ("y,s,w\n1,0.5,1\n0,0.2,heavy\n", ValueError,
                        r"^weight: column 'w' of .* invalid value 'heavy'"),
        "empty score": ("y,s\n1,0.5\n0,\n", ValueError,
                        r"^score: column 's' of .* \(null\) value at row 1 "),
        "not utf-8": (b"y,s\n\xff\xfe,1\n", ValueError, r"^path: "),
        "binary header": (b"\xff\xfe\x00\x01", ValueError, r"^path: "),
    }
    for name, (text, error, message) in cases.items():
        path = tmp_path / f"{name}.csv"
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        weight = "w" if "weight" in name else None
        with pytest.raises(error, match=message):
            quiet(evaluate_file, path, label="y", score="s", weight=weight, progress=False)


def test_npz_and_npy_contents(tmp_path):
    np.savez(tmp_path / "ragged.npz", y=Y, s=S[:-1])
    with pytest.raises(ValueError, match=r"^path: the columns of .* differ in length: "
                                         r"label 2000, score 1999"):
        evaluate_file(tmp_path / "ragged.npz", label="y", score="s")
    np.savez(tmp_path / "table.npz", y=Y, s=np.c_[S, S])
    with pytest.raises(ValueError, match=r"^score: member 's' of .* must be a 1d array"):
        evaluate_file(tmp_path / "table.npz", label="y", score="s")
    np.save(tmp_path / "plain.npy", S)
    with pytest.raises(ValueError, match=r"^label: column 'y' is not in .* none \(a plain "
                                         r"array\)"):
        evaluate_file(tmp_path / "plain.npy", label="y", score="s")
    with open(tmp_path / "renamed.npy", "wb") as fh:     # an .npz under an .npy name
        np.savez(fh, y=Y, s=S)
    with pytest.raises(ValueError, match=r"^path: .* it is an \.npz archive"):
        evaluate_file(tmp_path / "renamed.npy", label="y", score="s")
    with zipfile.ZipFile(tmp_path / "long.npz", "w", zipfile.ZIP_DEFLATED) as zf:
        header = np.lib.format.header_data_from_array_1_0(S[:10])
        with zf.open("s.npy", "w") as fh:
            np.lib.format.write_array_header_1_0(fh, header)
            fh.write(S.tobytes())                           # more bytes than the header says
        with zf.open("y.npy", "w") as fh:
            np.lib.format.write_array(fh, Y[:10])
    with pytest.raises(ValueError, match=r"^path: .* member 's' is longer than its header"):
        evaluate_file(tmp_path / "long.npz", label="y", score="s")


# --- the command line ---------------------------------------------------------------------------

COMMANDS = [["evaluate"], ["evaluate", "--memory-limit", "20000"],
            ["evaluate", "--bootstrap", "5"], ["losses"], ["resolving-power", "--n-rep", "5"]]


@pytest.mark.parametrize("defect", [*DEFECTS, "wrong column"])
@pytest.mark.parametrize("kind", KINDS)
def test_cli_prints_one_error_line(tmp_path, capsys, kind, defect):
    if defect == "wrong column":
        path, score, pattern = write(kind, file_of(tmp_path, kind)), "p", "score: column 'p'"
    else:
        path, score, pattern = bad_file(tmp_path, kind, defect), "s", "path: "
    for command in COMMANDS:
        argv = [command[0], str(path), "--label", "y", "--score", score, *command[1:]]
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith(f"indist-fast {command[0]}: error: ")
        assert pattern in err


def test_cli_bad_options_print_one_error_line(tmp_path, capsys):
    path = write("csv", tmp_path / "d.csv")
    for extra, pattern in ((["--tmp-dir", str(tmp_path / "nope")], "tmp_dir: no such folder"),
                           (["--memory-limit", "lots"], "memory_limit must be"),
                           (["--levels", "2"], "levels must lie strictly between")):
        assert main(["evaluate", str(path), "--label", "y", "--score", "s", *extra]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and pattern in err


def test_cli_drop_nulls(tmp_path, capsys):
    path = tmp_path / "d.csv"
    path.write_text("y,s\n1,0.9\n0,\n0,0.2\n1,0.4\n")
    assert main(["evaluate", str(path), "--label", "y", "--score", "s"]) == 2
    assert "value at row 1" in capsys.readouterr().err
    assert main(["evaluate", str(path), "--label", "y", "--score", "s", "--drop-nulls",
                 "--json", "--levels", "0.5"]) == 0
    from indist_fast import evaluate
    import json
    got = json.loads(capsys.readouterr().out)
    want = quiet(evaluate, [1, 0, 1], [0.9, 0.2, 0.4], levels=(0.5,))
    assert got["auc"] == want.auc and got["n_rows"] == 3


@pytest.mark.slow
@pytest.mark.parametrize("defect", ["directory", "garbage", "empty"])
def test_cli_process_has_no_traceback(tmp_path, defect):
    path = bad_file(tmp_path, "csv", defect)
    out = subprocess.run([sys.executable, "-m", "indist_fast.cli", "evaluate", str(path),
                          "--label", "y", "--score", "s"], capture_output=True, text=True,
                         cwd=CHILD_CWD, env=child_env())
    assert out.returncode == 2
    assert "Traceback" not in out.stderr and out.stderr.count("\n") == 1
    assert out.stderr.startswith("indist-fast evaluate: error: path: ")


def test_numpy_columns_of_the_wrong_dtype(tmp_path):
    text = np.where(Y == 1, "a", "b")
    np.savez(tmp_path / "d.npz", y=text, s=S.astype(str), n=S, w=text)
    with pytest.raises(TypeError, match=r"^score: column 's' of .* has dtype <U"):
        evaluate_file(tmp_path / "d.npz", label="y", score="s", pos_label="a")
    with pytest.raises(TypeError, match=r"^weight: column 'w' of .* has dtype <U1"):
        read_columns(tmp_path / "d.npz", label="y", score="n", weight="w")
    rec = np.zeros(N, dtype=[("y", "U1"), ("s", "f8"), ("when", "M8[s]")])
    np.save(tmp_path / "d.npy", rec)
    with pytest.raises(TypeError, match=r"^score: column 'when' of .* has dtype datetime64"):
        evaluate_file(tmp_path / "d.npy", label="y", score="when", pos_label="a")
    # Text labels are fine, as in memory.
    np.savez(tmp_path / "t.npz", y=text, s=S)
    got = quiet(evaluate_file, tmp_path / "t.npz", label="y", score="s", pos_label="a",
                progress=False)
    from indist_fast import evaluate
    assert got.auc == quiet(evaluate, text, S, pos_label="a").auc


def test_a_pipe_is_not_read(tmp_path):
    os.mkfifo(tmp_path / "p.csv")
    with pytest.raises(ValueError, match=r"^path: .* is not a regular file"):
        evaluate_file(tmp_path / "p.csv", label="y", score="s")
