"""``indist-fast evaluate``'s output: the figure of several scores and segments, long
tables shortened with a way to see every row, counts in full, and every interval the
bootstrap gives."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import indist_fast
from indist_fast import IndistFastWarning
from indist_fast.cli import main
from indist_fast.cli import output

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

rng = np.random.default_rng(8)
N = 3000
_y = rng.random(N) < 0.2
FRAME = pd.DataFrame({
    "y": _y,
    "a": np.round(_y * 1.2 + rng.normal(size=N), 3),
    "b": np.round(_y * 0.7 + rng.normal(size=N), 3),
    "outcome": np.where(_y, "fraud", "ok"),
    "day": np.arange(N) % 30,
    "country": rng.choice(["de", "fr"], N),
    # fractional weights whose class totals reach millions: 1.9e+06 must print in full
    "w": np.round(rng.random(N) * 4000.0 + 0.25, 2),
})


@pytest.fixture(scope="module")
def path(tmp_path_factory):
    out = tmp_path_factory.mktemp("ev") / "log.parquet"
    FRAME.to_parquet(out)
    return str(out)


@pytest.fixture
def figures(monkeypatch):
    """What each figure drew (its axes' titles, legend texts and x labels), kept instead
    of written: rendering a PNG costs seconds, and one test writes one."""
    drawn = []

    def keep(figure, path):
        drawn.append({"suptitle": figure.get_suptitle(),
                      "axes": [(ax.get_title(loc="left"),
                                [t.get_text() for t in ax.get_legend().get_texts()]
                                if ax.get_legend() else [], ax.get_xlabel())
                               for ax in figure.axes]})
    monkeypatch.setattr(output, "save_figure", keep)
    return drawn


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return fn(*args, **kwargs)


@pytest.mark.slow
def test_plot_of_segments_writes_a_png(path, tmp_path, capsys):
    png = tmp_path / "seg.png"
    assert main(["evaluate", path, "--label", "y", "--score", "a", "--score", "b", "--by",
                 "country", "--plot", str(png), "--quiet"]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG" and png.stat().st_size > 20_000
    assert f"figure: {png}" in capsys.readouterr().err
    import matplotlib.image
    height, width = matplotlib.image.imread(png).shape[:2]
    assert width == 14 * 70 and height > 2 * 3.5 * 70       # two rows of three panels


def test_plot_overlays_several_scores(path, tmp_path, capsys, figures):
    png = tmp_path / "two.png"
    assert main(["evaluate", path, "--label", "y", "--score", "a", "--score", "b",
                 "--plot", str(png), "--quiet"]) == 0
    (fig,) = figures
    assert [x for _, _, x in fig["axes"]] == ["false positive rate",
                                              "recall (true positive rate)", "threshold r"]
    roc_legend = fig["axes"][0][1]
    for name in ("a", "b"):
        assert f"{name} (AUC = {indist_fast.roc_auc(FRAME.y, FRAME[name]):.4f})" in roc_legend


def test_plot_draws_a_row_per_segment_with_the_total_first(path, tmp_path, figures):
    png = tmp_path / "seg.png"
    assert main(["evaluate", path, "--label", "y", "--score", "a", "--score", "b", "--by",
                 "country", "--total", "--plot", str(png), "--quiet"]) == 0
    (fig,) = figures
    assert len(fig["axes"]) == 9                        # 3 rows (all, de, fr) x 3 panels
    titles = [fig["axes"][k][0] for k in (0, 3, 6)]
    assert [t.split(":")[0] for t in titles] == ["all rows", "country=de", "country=fr"]
    fr = FRAME[FRAME.country == "fr"]
    assert titles[2] == f"country=fr: {len(fr):,} rows, {int(fr.y.sum()):,} positive"
    assert f"b (AUC = {indist_fast.roc_auc(fr.y, fr.b):.4f})" in fig["axes"][6][1]


def test_plot_caps_the_segments_and_says_so(path, tmp_path, capsys, figures, monkeypatch):
    from indist_fast.cli import figures as cli_figures
    assert cli_figures.MAX_SEGMENTS == 8
    monkeypatch.setattr(cli_figures, "MAX_SEGMENTS", 2)     # (fewer panels to draw)
    png = tmp_path / "days.png"
    assert main(["evaluate", path, "--label", "y", "--score", "a", "--by", "day", "--plot",
                 str(png), "--quiet"]) == 0
    (fig,) = figures
    assert len(fig["axes"]) == 3 * 2
    assert [fig["axes"][k][0].split(":")[0] for k in (0, 3)] == ["day=0", "day=1"]
    assert "the first 2 of 30 segments" in fig["suptitle"]
    assert "--plot: 30 segments; the figure draws the first 2" in capsys.readouterr().err


def test_plot_reads_labels_with_pos_label(path, tmp_path, figures):
    # one score: the report sheet, its labels read as "fraud" is positive
    assert main(["evaluate", path, "--label", "outcome", "--pos-label", "fraud", "--score",
                 "a", "--plot", str(tmp_path / "sheet.png"), "--quiet"]) == 0
    assert main(["evaluate", path, "--label", "outcome", "--pos-label", "ok", "--score", "a",
                 "--score", "b", "--plot", str(tmp_path / "two.png"), "--quiet"]) == 0
    sheet, two = figures
    want = indist_fast.roc_auc(FRAME.y, FRAME.a)
    assert f"AUC = {want:.4f}" in sheet["axes"][1][1]
    flipped = indist_fast.roc_auc(~FRAME.y, FRAME.a)          # "ok" is the positive class
    assert f"a (AUC = {flipped:.4f})" in two["axes"][0][1]


def test_a_segment_of_one_class_gets_a_note_not_curves(tmp_path, figures):
    frame = FRAME.assign(y=FRAME.y & (FRAME.country == "de"))
    frame.to_parquet(tmp_path / "one.parquet")
    assert main(["evaluate", str(tmp_path / "one.parquet"), "--label", "y", "--score", "a",
                 "--by", "country", "--plot", str(tmp_path / "one.png"), "--quiet"]) == 0
    (fig,) = figures
    assert fig["axes"][3][0].startswith("country=fr") and fig["axes"][3][1] == []


def test_a_long_table_says_how_to_see_every_row(path, capsys):
    argv = ["evaluate", path, "--label", "y", "--score", "a", "--by", "day", "--quiet"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[12] == ("... 10 more rows: --all-rows prints every one, --csv OUT writes "
                         "them all to a file")
    assert [line.split()[0] for line in lines[2:12]] == [str(d) for d in range(10)]
    assert lines[-1] == "30 rows"
    assert main(argv + ["--all-rows"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[2:32]] == [str(d) for d in range(30)]
    assert not any("more rows" in line for line in lines)


def test_weighted_tables_print_counts_in_full(path, capsys):
    assert main(["evaluate", path, "--label", "y", "--score", "a", "--by", "country",
                 "--weight", "w", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "e+" not in out
    lines = out.splitlines()
    assert lines[1].split()[:5] == ["country", "model", "n_rows", "positives", "negatives"]
    de = FRAME[FRAME.country == "de"]
    neg = de.w[~de.y].sum()
    assert neg > 1e6
    cells = lines[2].split()
    assert cells[2] == f"{len(de):,}"
    assert float(cells[4].replace(",", "")) == pytest.approx(neg, rel=1e-6)
    # the one report's header too
    assert main(["evaluate", path, "--label", "y", "--score", "a", "--weight", "w",
                 "--quiet"]) == 0
    head = capsys.readouterr().out.splitlines()[1]
    shown = re.search(r"negatives ([\d,]+)", head).group(1)
    assert float(shown.replace(",", "")) == pytest.approx(FRAME.w[~FRAME.y].sum(), rel=1e-6)


def test_a_tables_intervals_are_all_printed(path, capsys):
    assert main(["evaluate", path, "--label", "y", "--score", "a", "--score", "b", "--by",
                 "country", "--bootstrap", "30", "--seed", "4", "--quiet"]) == 0
    out = capsys.readouterr().out
    want = quiet(indist_fast.evaluate_many, FRAME, label="y", score=["a", "b"], by="country",
                 n_boot=30, seed=4).columns
    for i, line in enumerate(out.splitlines()[2:6]):
        for metric in ("auc", "average_precision", "threshold", "precision"):
            low, high = want[f"{metric}_low"][i], want[f"{metric}_high"][i]
            assert f"[{low:.4f}, {high:.4f}]" in line, metric
    assert "at level 0.5; none for lift" in out


def test_one_reports_intervals_say_which_metrics_have_none(path, capsys):
    assert main(["evaluate", path, "--label", "y", "--score", "a", "--bootstrap", "30",
                 "--seed", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    want = indist_fast.evaluate(FRAME.y, FRAME.a, n_boot=30, seed=1)
    for metric in ("auc", "average_precision", "threshold", "precision", "lift"):
        assert f"{want.intervals[metric].low:>9.4f}" in out, metric
    assert "none for B, tpr, fpr and F1, nor at the other levels" in out


def test_quiet_silences_reading_bars_and_no_progress_stays_an_alias(path, capsys,
                                                                    monkeypatch):
    import sys
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.delenv("INDIST_FAST_PROGRESS", raising=False)
    argv = ["evaluate", path, "--label", "y", "--score", "a", "--by", "country"]
    for flag in ("--quiet", "--no-progress"):
        assert main(argv + [flag]) == 0
        assert capsys.readouterr().err == ""
