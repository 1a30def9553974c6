"""The benchmark scripts run (tiny sizes) and their timing helpers measure what they say."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "benchmarks")
sys.path.insert(0, BENCH)
from _timing import in_child, paired_ratio, per_call  # noqa: E402


def test_paired_ratio_is_the_median_of_paired_ratios():
    calls = []
    ratio, base, other = paired_ratio(lambda: calls.append("b"), lambda: calls.append("f"), 5)
    assert calls == ["b", "f"] * 5                     # baseline then case, back to back
    assert ratio > 0 and base > 0 and other > 0
    assert per_call(lambda: None) < 1e-5               # loops until the clock can see it


@pytest.mark.slow
def test_child_peak_memory_is_the_childs_own():
    small = in_child("SECONDS = 0.0\nRESULT = 1")
    big = in_child("import numpy as np\na = np.ones(50_000_000)\nSECONDS = 0.0\nRESULT = 2")
    assert big["result"] == 2 and big["peak_bytes"] - small["peak_bytes"] > 350e6
    with pytest.raises(RuntimeError, match="benchmark child failed"):
        in_child("raise SystemExit(3)")


@pytest.mark.slow
def test_peers_script_agrees_on_small_data():
    pytest.importorskip("sklearn")
    import indist_fast
    # the script imports the package this test imports (installed or in place)
    here = os.path.dirname(os.path.dirname(os.path.abspath(indist_fast.__file__)))
    out = subprocess.run([sys.executable, os.path.join(BENCH, "studies", "peers.py"), "--sizes", "1e3",
                          "--repeat", "2"], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONWARNINGS": "ignore", "PYTHONPATH": here})
    assert out.returncode == 0, out.stdout + out.stderr
    assert "every peer agrees on the AUC" in out.stdout
    assert "scikit-learn roc_auc_score" in out.stdout


@pytest.mark.slow
def test_sweep_blocks_script_runs():
    import indist_fast
    here = os.path.dirname(os.path.dirname(os.path.abspath(indist_fast.__file__)))
    out = subprocess.run([sys.executable, os.path.join(BENCH, "studies", "sweep_blocks.py"), "--rows",
                          "2e4", "--repeat", "2", "--dtype", "float32"],
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": here})
    assert out.returncode == 0, out.stdout + out.stderr
    assert "ns/row" in out.stdout or "no AVX-512" in out.stdout, out.stdout


def test_compare_defaults_script_prints_its_ratios():
    import indist_fast
    here = os.path.dirname(os.path.dirname(os.path.abspath(indist_fast.__file__)))
    out = subprocess.run([sys.executable, os.path.join(BENCH, "studies", "compare_defaults.py"),
                          "--sizes", "2e4", "--repeat", "2", "--unpaired", "--with-bootstrap",
                          "5"], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": here})
    assert out.returncode == 0, out.stdout + out.stderr
    rows = [line.split() for line in out.stdout.splitlines() if not line.startswith(("#", " " * 7 + "n"))]
    assert [r[1] for r in rows] == ["default", "unpaired", "bootstrap"], out.stdout
    assert all(float(r[-1]) > 0 for r in rows)


@pytest.mark.slow
def test_proc_speed_script_prints_both_ratios():
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from rproc import require_proc
    require_proc()
    import indist_fast
    here = os.path.dirname(os.path.dirname(os.path.abspath(indist_fast.__file__)))
    out = subprocess.run([sys.executable, os.path.join(BENCH, "studies", "proc_speed.py"),
                          "--rows", "2000", "--boot", "20", "--perm", "5"],
                         capture_output=True, text=True, timeout=600,
                         env={**os.environ, "PYTHONPATH": here})
    assert out.returncode == 0, out.stdout + out.stderr
    assert "ci_bands vs ci.se" in out.stdout and "Venkatraman (paired)" in out.stdout
    assert out.stdout.count("ratio") == 2, out.stdout


@pytest.mark.slow
def test_proc_toolbox_script_runs_against_r():
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from rproc import require_proc
    require_proc()
    import indist_fast
    here = os.path.dirname(os.path.dirname(os.path.abspath(indist_fast.__file__)))
    out = subprocess.run([sys.executable, os.path.join(BENCH, "studies", "proc_toolbox.py"),
                          "--rows", "300", "--boot", "20", "--repeat", "1"],
                         capture_output=True, text=True, timeout=600,
                         env={**os.environ, "PYTHONPATH": here})
    assert out.returncode == 0, out.stderr
    rows = [line.split() for line in out.stdout.splitlines()[2:]]
    assert len(rows) == 7 and all(float(r[-1]) > 0 for r in rows)
