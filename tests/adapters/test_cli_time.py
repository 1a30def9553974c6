"""``indist-fast evaluate FILE --time ts --freq 1D``: ``over_time``'s table printed, as
JSON (with the drift record) and as an HTML page."""

from __future__ import annotations

import json

import numpy as np
import pytest

import indist_fast
from indist_fast.cli import main

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

rng = np.random.default_rng(5)
N = 6000
FRAME = pd.DataFrame({"y": rng.integers(0, 2, N),
                      "ts": pd.Timestamp("2024-05-01") + pd.to_timedelta(
                          rng.integers(0, 4 * 86400, N), unit="s")})
# the last day's scores carry less signal: a change the drift test must flag
FRAME["p"] = FRAME["y"] * np.where(FRAME["ts"] >= "2024-05-04", 0.2, 1.5) + rng.normal(size=N)


@pytest.fixture(scope="module")
def path(tmp_path_factory):
    out = tmp_path_factory.mktemp("logs") / "log.parquet"
    FRAME.to_parquet(out)
    return str(out)


def test_json_is_over_time_with_drift(path, capsys):
    assert main(["evaluate", path, "--label", "y", "--score", "p", "--time", "ts",
                 "--freq", "1D", "--json", "--quiet"]) == 0
    got = json.loads(capsys.readouterr().out)
    want = indist_fast.over_time(FRAME, label="y", score="p", time="ts")
    assert got["evaluate"]["period"] == want.to_dict()["period"]
    assert got["evaluate"]["auc"] == pytest.approx(want.columns["auc"].tolist(), rel=1e-12)
    assert got["drift"]["auc_drift"] == [False, False, False, True]
    assert got["drift"]["tests"]["auc"].startswith("DeLong")


def test_text_marks_the_drifted_period(path, capsys):
    assert main(["evaluate", path, "--label", "y", "--score", "p", "--time", "ts",
                 "--freq", "86400", "--bootstrap", "50", "--quiet"]) == 0
    out = capsys.readouterr().out
    last = [line for line in out.splitlines() if line.startswith("2024-05-04")][0]
    assert last.rstrip().endswith("AUC,C")
    assert "drift: against the period 2024-05-01" in out and "DeLong" in out


def test_bad_freq_is_named(path, capsys):
    assert main(["evaluate", path, "--label", "y", "--score", "p", "--time", "ts",
                 "--freq", "1M", "--quiet"]) != 0
    assert "freq" in capsys.readouterr().err


def test_html_page_gets_the_over_time_panel(path, tmp_path, capsys):
    page = tmp_path / "days.html"
    assert main(["evaluate", path, "--label", "y", "--score", "p", "--time", "ts",
                 "--html", str(page), "--quiet"]) == 0
    text = page.read_text()
    assert 'id="panel-time"' in text and "Metrics over time" in text
    assert text.count('<option value="') >= 4 + 1          # four periods, one model
    assert '"drift_auc":[false,false,false,true]' in text


def test_freq_without_time_is_refused(path, capsys):
    # (it used to be ignored: a whole-file report where periods were asked for)
    assert main(["evaluate", path, "--label", "y", "--score", "p", "--freq", "1D",
                 "--quiet"]) == 2
    assert "--freq 1D is the length of a period of --time" in capsys.readouterr().err
    with pytest.raises(ValueError, match="^freq: '1D' is the length of a period of time="):
        indist_fast.evaluate_file(path, label="y", score="p", freq="1D")


def test_plot_with_time_draws_the_metrics_over_time(path, tmp_path, monkeypatch, capsys):
    pytest.importorskip("matplotlib")
    from indist_fast.cli import figures

    def whole_file_sheet(*args, **kwargs):
        raise AssertionError("--time --plot drew the whole file's report sheet")

    drawn = []
    real = figures.over_time_figure
    monkeypatch.setattr(figures, "evaluate_figure", whole_file_sheet)
    monkeypatch.setattr(figures, "over_time_figure",
                        lambda args, table: drawn.append(table) or real(args, table))
    out = tmp_path / "days.png"
    assert main(["evaluate", path, "--label", "y", "--score", "p", "--time", "ts",
                 "--plot", str(out), "--quiet"]) == 0
    assert out.stat().st_size > 10_000 and len(drawn) == 1 and drawn[0].by == ("period",)
