"""Files in, reports out: the readers and the command line."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import indist_fast
from indist_fast.cli import main
from indist_fast.io import read_columns
from children import CHILD_CWD, child_env

rng = np.random.default_rng(2)
Y = (rng.random(300) < 0.3).astype(np.int64)
S = np.round(rng.normal(size=300) + Y, 2)
W = rng.integers(1, 4, 300).astype(float)


@pytest.fixture
def files(tmp_path):
    out = {}
    rec = np.zeros(300, dtype=[("y", "i8"), ("p", "f8"), ("w", "f8")])
    rec["y"], rec["p"], rec["w"] = Y, S, W
    np.save(out.setdefault("npy", tmp_path / "d.npy"), rec)
    np.savez(out.setdefault("npz", tmp_path / "d.npz"), y=Y, p=S, w=W)
    with open(out.setdefault("csv", tmp_path / "d.csv"), "w") as fh:
        fh.write("y,p,w\n" + "".join(f"{a},{b!r},{c!r}\n" for a, b, c in
                                     zip(Y.tolist(), S.tolist(), W.tolist())))
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
        pq.write_table(pa.table({"y": Y, "p": S, "w": W}), tmp_path / "d.parquet")
        out["parquet"] = tmp_path / "d.parquet"
    except ImportError:
        pass
    return out


@pytest.mark.parametrize("kind", ["npy", "npz", "csv", "parquet"])
def test_every_format_gives_the_in_memory_report(files, kind):
    if kind not in files:
        pytest.skip("pyarrow is not installed")
    y, s, w = read_columns(files[kind], label="y", score="p", weight="w")
    want = indist_fast.evaluate(Y, S, sample_weight=W).to_dict()
    assert indist_fast.evaluate(y, s, sample_weight=w).to_dict() == want


def test_csv_without_pyarrow(files, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow.csv", None)
    y, s, w = read_columns(files["csv"], label="y", score="p", weight="w")
    np.testing.assert_array_equal(s, S)
    np.testing.assert_array_equal(y, Y)


def test_missing_column_names_the_choices(files):
    with pytest.raises(ValueError, match=r"score: column 'q' is not in .*available columns: "
                                         r"'y', 'p', 'w'"):
        read_columns(files["npz"], label="y", score="q")


def test_missing_file_and_unknown_format(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such file"):
        read_columns(tmp_path / "nope.csv", label="y", score="p")
    (tmp_path / "d.txt").write_text("y,p\n1,0.5\n")
    with pytest.raises(ValueError, match="cannot read .txt files"):
        read_columns(tmp_path / "d.txt", label="y", score="p")


@pytest.mark.parametrize("kind", ["npz", "npy"])
def test_truncated_file_is_a_clear_error(files, tmp_path, kind):
    data = files[kind].read_bytes()
    bad = tmp_path / f"bad.{kind}"
    bad.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="could not be read"):
        read_columns(bad, label="y", score="p")


def test_cli_evaluate_json(files, capsys):
    assert main(["evaluate", str(files["csv"]), "--label", "y", "--score", "p",
                 "--weight", "w", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got == json.loads(json.dumps(indist_fast.evaluate(Y, S, sample_weight=W).to_dict()))


def test_cli_evaluate_table(files, capsys):
    assert main(["evaluate", str(files["npz"]), "--label", "y", "--score", "p"]) == 0
    out = capsys.readouterr().out
    report = indist_fast.evaluate(Y, S)
    assert f"AUC {report.auc:.4f}" in out and "precision C" in out


def test_cli_error_exit_code(files, capsys):
    assert main(["evaluate", str(files["npz"]), "--label", "y", "--score", "zz"]) == 2
    assert "column 'zz' is not in" in capsys.readouterr().err


def test_cli_demo_prints_the_nine_sets(capsys):
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    sets = indist_fast.datasets.nine_datasets(seed=0)
    for name in "abcdefghi":
        r = indist_fast.evaluate(*sets[name], levels=(0.5,))
        assert f"{r.auc:>7.4f} {r.threshold:>8.3f} {r.precision:>7.4f}" in out
    assert "C(r_b), barely moves" in out


def test_console_script_runs():
    out = subprocess.run([sys.executable, "-m", "indist_fast.cli", "--version"],
                         capture_output=True, text=True, cwd=CHILD_CWD, env=child_env())
    assert out.returncode == 0 and indist_fast.__version__ in out.stdout


def test_nine_datasets_follow_the_recipe():
    sets = indist_fast.datasets.nine_datasets(seed=0)
    sizes = {k: (int(y.sum()), len(y)) for k, (y, _) in sets.items()}
    assert sizes == {"a": (1000, 2100), "b": (1000, 2100), "c": (1000, 2100),
                     "d": (1000, 3000), "e": (1000, 3000), "f": (1000, 3000),
                     "g": (1000, 12000), "h": (1000, 12000), "i": (1000, 12000)}
    again = indist_fast.datasets.nine_datasets(seed=0)
    np.testing.assert_array_equal(sets["e"][1], again["e"][1])


def test_logistic_fit_matches_sklearn():
    linear_model = pytest.importorskip("sklearn.linear_model")
    from indist_fast.datasets import _logistic_fit
    x = rng.normal(size=500) * 2 + 3
    y = (rng.random(500) < 1 / (1 + np.exp(-(x - 3)))).astype(float)
    b0, b1 = _logistic_fit(x, y)
    model = linear_model.LogisticRegression(C=1e12, tol=1e-12, max_iter=1000).fit(
        x[:, None], y)
    assert b1 == pytest.approx(model.coef_[0, 0], rel=1e-5)
    assert b0 == pytest.approx(model.intercept_[0], rel=1e-5, abs=1e-6)


def test_cli_bootstrap_prints_intervals(files, capsys):
    assert main(["evaluate", str(files["npz"]), "--label", "y", "--score", "p",
                 "--bootstrap", "50", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    want = indist_fast.evaluate(Y, S, n_boot=50, seed=4)
    assert "95% bootstrap intervals (50 replicates)" in out
    assert f"{want.intervals['auc'].low:>9.4f}" in out
    assert main(["evaluate", str(files["npz"]), "--label", "y", "--score", "p",
                 "--bootstrap", "50", "--seed", "4", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["intervals"]["precision"]["high"] == pytest.approx(
        want.intervals["precision"].high)


@pytest.mark.parametrize("command,option", [("evaluate", "--label"), ("evaluate", "--weight"),
                                            ("losses", "--score")])
def test_a_column_option_given_twice_is_an_error_not_the_last_one(command, option, capsys):
    base = {"--label": "y", "--score": "p"}
    args = [command, "x.csv", *[x for o, v in base.items() if o != option for x in (o, v)],
            option, "a", option, "b"]
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    assert f"{option} given twice ('a', then 'b')" in capsys.readouterr().err


@pytest.mark.parametrize("option", ["--score", "--by"])
def test_evaluate_takes_several_scores_and_segments_but_each_column_once(option, capsys):
    args = ["evaluate", "x.csv", "--label", "y", "--score", "p", option, "a", option, "a"]
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    assert f"{option} 'a' given twice" in capsys.readouterr().err


@pytest.mark.slow
def test_ctrl_c_is_a_line_not_a_traceback(tmp_path):
    """SIGINT while a command runs: exit status 130, one line on stderr, and the figure
    being written neither appears half-written nor spoils the file already there."""
    import signal
    import time
    marker, plot = tmp_path / "started", tmp_path / "sheet.png"
    plot.write_bytes(b"the user's old figure")
    child = subprocess.Popen([sys.executable, "-c", f"""
import time
import indist_fast.cli as cli
import indist_fast.cli.output as output
def slow(figure, fh):           # (stands in for a figure's long write)
    fh.write(b"half a figure")
    fh.flush()
    open({str(marker)!r}, "w").close()
    time.sleep(60)
import indist_fast.html.page as page
output.save_figure = lambda figure, path: page.write_whole(path, lambda fh: slow(figure, fh))
raise SystemExit(cli.main(["demo", "--plot", {str(plot)!r}]))
"""], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env(),
                             cwd=CHILD_CWD)
    deadline = time.monotonic() + 120
    while not marker.exists() and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marker.exists(), child.communicate()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    assert err.strip().splitlines()[-1] == "indist-fast demo: interrupted", err
    assert "Traceback" not in err
    assert plot.read_bytes() == b"the user's old figure"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet.png", "started"]



def test_an_interrupt_a_library_swallows_still_ends_the_command(monkeypatch, capsys):
    """Python ignores an exception raised in some callbacks (a matplotlib cleanup was
    one): the interrupt is remembered, and the command still ends as interrupted."""
    import os
    import signal
    import time
    from indist_fast.cli import commands

    def swallowing(args):
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        except KeyboardInterrupt:
            pass
        return 0
    monkeypatch.setattr(commands, "run_demo", swallowing)
    before = signal.getsignal(signal.SIGINT)
    assert main(["demo"]) == 130
    assert capsys.readouterr().err.strip() == "indist-fast demo: interrupted"
    assert signal.getsignal(signal.SIGINT) is before


def test_outputs_replace_a_links_target_and_keep_its_permissions(files, tmp_path, capsys):
    import os
    target, link = tmp_path / "real.csv", tmp_path / "link.csv"
    target.write_text("old\n")
    os.chmod(target, 0o600)
    link.symlink_to(target)
    assert main(["evaluate", str(files["npz"]), "--label", "y", "--score", "p",
                 "--csv", str(link)]) == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text().startswith("model,n_rows,")      # the new table
    assert os.stat(target).st_mode & 0o777 == 0o600
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".indist-fast-")]


def test_an_interrupt_swallowed_by_a_callback_still_stops_the_command(monkeypatch, capsys):
    """Python cannot raise from a weakref callback or a __del__: the KeyboardInterrupt
    the signal handler raises there is 'ignored' (with a traceback on stderr) and the
    command would run on. The command's hook sends the signal again instead."""
    import argparse
    import signal
    import types

    import indist_fast.cli as cli
    ran_on = []

    def run(args):
        try:
            signal.raise_signal(signal.SIGTERM)
            for _ in range(10):
                pass
        except KeyboardInterrupt as exc:         # as a weakref callback would swallow it
            sys.unraisablehook(types.SimpleNamespace(exc_type=KeyboardInterrupt,
                                                     exc_value=exc, exc_traceback=None,
                                                     err_msg=None, object=None))
        for _ in range(1000):
            pass
        ran_on.append(True)
        return 0

    ns = argparse.Namespace(run=run, quiet=True, command="demo")
    monkeypatch.setattr(cli, "build_parser",
                        lambda: types.SimpleNamespace(parse_args=lambda argv: ns))
    before = sys.unraisablehook
    assert cli.main([]) == 143
    assert ran_on == [] and sys.unraisablehook is before
    err = capsys.readouterr().err
    assert err == "indist-fast demo: terminated\n"


def test_errors_name_the_option_not_the_keyword(tmp_path, capsys):
    path = tmp_path / "labels.csv"
    path.write_text("y,p\nyes,0.1\nno,0.4\nyes,0.8\nno,0.3\n")
    assert main(["evaluate", str(path), "--label", "y", "--score", "p"]) == 2
    err = capsys.readouterr().err
    assert "pass --pos-label to say which one is positive" in err and " pos_label" not in err
    assert main(["evaluate", str(path), "--label", "y", "--score", "p",
                 "--pos-label", "yes", "--json"]) == 0
