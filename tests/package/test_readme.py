"""The README's tour runs as written, on data made the way it describes."""

from __future__ import annotations

import re
import shlex
import warnings
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.S)


def test_the_readme_is_short_and_opens_with_the_two_commands():
    lines = README.splitlines()
    assert len(lines) <= 400
    first = blocks("bash")[0].splitlines()
    assert first[0].startswith('pip install . && indist-fast demo')
    assert first[1].startswith('pip install ".[test]" && python -m pytest')


def test_the_python_tour_runs(tmp_path, monkeypatch):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    rng = np.random.default_rng(7)
    n = 6_000
    y = (rng.random(n) < 0.15).astype(int)
    m1 = rng.normal(size=n) + 1.4 * y
    m2 = rng.normal(size=n) + 1.0 * y
    p = 1 / (1 + np.exp(-m1))
    day = rng.integers(1, 4, n)
    labels = rng.integers(0, 3, n)                        # a three-class model
    probs = rng.dirichlet(np.ones(3), n) + np.eye(3)[labels]
    probs /= probs.sum(axis=1, keepdims=True)
    frame = pd.DataFrame({"y": y, "m1": m1, "m2": m2})
    for d in np.unique(day):
        folder = tmp_path / "logs" / f"day={d}"
        folder.mkdir(parents=True)
        frame[day == d].to_parquet(folder / "part.parquet")
    monkeypatch.chdir(tmp_path)
    (tour,) = [b for b in blocks("python") if "evaluate_file" in b]
    namespace = {"y": y, "p": p, "m1": m1, "m2": m2, "day": day, "labels": labels,
                 "probs": probs, "ts": np.datetime64("2024-05-01", "s")
                 + rng.integers(0, 3 * 86400, n).astype("timedelta64[s]")}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        exec(compile(tour, "README.md", "exec"), namespace)
    assert (tmp_path / "report.html").stat().st_size > 10_000
    assert len(namespace["frame"]) == 6


def test_the_command_lines_name_real_subcommands_and_options():
    from indist_fast.cli import build_parser
    parser = build_parser()
    commands = [line.split("#")[0].strip() for b in blocks("bash")
                for line in b.splitlines() if line.startswith("indist-fast ")]
    assert len(commands) >= 8
    for command in commands:
        words = shlex.split(command)[1:]
        sub = words[0]
        options = [w for w in words if w.startswith("--")]
        # parse_known_args: the files need not exist; every option must be known
        args, unknown = parser.parse_known_args(words)
        assert unknown == [], (command, unknown)
        assert options or sub in ("demo", "paper")
