"""``indist-fast compare``: the numbers of ``indist_fast.compare`` on the file's columns,
over all rows or per segment, as JSON, CSV and text."""

from __future__ import annotations

import csv
import json
import math
import warnings

import numpy as np
import pytest

import indist_fast
from indist_fast import IndistFastWarning
from indist_fast.cli import main

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

rng = np.random.default_rng(31)
N = 2400
_y = rng.random(N) < 0.25
FRAME = pd.DataFrame({
    "y": _y,
    "a": np.round(_y * 1.1 + rng.normal(size=N), 3),
    "b": np.round(_y * 0.8 + rng.normal(size=N), 2),
    "c": np.round(_y * 0.5 + rng.normal(size=N), 1),
    "w": rng.integers(1, 5, N).astype(float),
    "country": rng.choice(["de", "fr", "se"], N),
    "outcome": np.where(_y, "churned", "stayed"),
})
FRAME.loc[FRAME.country == "se", "y"] = False          # a segment of one class
BOOT = ("auc", "average_precision", "precision")


@pytest.fixture(scope="module")
def path(tmp_path_factory):
    out = tmp_path_factory.mktemp("cmp") / "log.parquet"
    FRAME.to_parquet(out)
    return str(out)


def run_json(capsys, *argv):
    assert main(["compare", *argv, "--json", "--quiet"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def plain(d):
    """A dict as it comes back from JSON (NaN to None, tuples to lists)."""
    return json.loads(json.dumps(d))


def test_delong_by_default_is_compare_of_the_auc(path, capsys):
    got = run_json(capsys, path, "--label", "y", "--score", "a", "--score", "b")
    want = indist_fast.compare(FRAME.y, FRAME.a, FRAME.b, method="delong", metrics=("auc",),
                               names=("a", "b"))
    assert got == plain(want.to_dict())
    assert list(got["differences"]) == ["auc"] and got["n_boot"] == 0


def test_bootstrap_with_weights_is_compare(path, capsys):
    got = run_json(capsys, path, "--label", "y", "--score", "a", "--score", "b", "--weight",
                   "w", "--method", "bootstrap", "--n-boot", "60", "--seed", "5")
    want = indist_fast.compare(FRAME.y, FRAME.a, FRAME.b, sample_weight=FRAME.w,
                               method="bootstrap", metrics=BOOT, n_boot=60, seed=5,
                               names=("a", "b"))
    assert got == plain(want.to_dict())
    assert list(got["differences"]) == list(BOOT)
    assert {d["method"] for d in got["differences"].values()} == {"bootstrap"}


def test_metrics_options_and_several_models(path, capsys):
    got = run_json(capsys, path, "--label", "y", "--score", "a", "--score", "b", "--score",
                   "c", "--metric", "auc", "--metric", "threshold", "--n-boot", "40", "--seed",
                   "2", "--correction", "holm", "--alternative", "greater", "--level", "0.4",
                   "--confidence", "0.9")
    want = indist_fast.compare(FRAME.y, {k: FRAME[k] for k in "abc"}, method="delong",
                               metrics=("auc", "threshold"), n_boot=40, seed=2,
                               correction="holm", alternative="greater", level=0.4,
                               confidence=0.9)
    assert got == plain(want.to_dict())
    assert list(got["pairs"]) == ["a vs b", "a vs c", "b vs c"]


def segment_want(frame, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return indist_fast.compare(frame.y, frame.a, frame.b, names=("a", "b"), **kw)


def test_by_compares_each_segment_and_skips_one_class(path, capsys):
    got = run_json(capsys, path, "--label", "y", "--score", "a", "--score", "b", "--by",
                   "country", "--weight", "w", "--method", "bootstrap", "--n-boot", "30",
                   "--seed", "9")
    assert got["by"] == ["country"]
    assert [s["country"] for s in got["segments"]] == ["de", "fr", "se"]
    for seg in got["segments"]:
        part = FRAME[FRAME.country == seg["country"]]
        assert seg["n_rows"] == len(part)
        assert seg["weight_pos"] == part.w[part.y].sum()
        assert seg["weight_neg"] == part.w[~part.y].sum()
        if seg["country"] == "se":
            assert seg["comparison"] is None and "one class" in seg["skipped"]
            continue
        want = segment_want(part, sample_weight=part.w, method="bootstrap", metrics=BOOT,
                            n_boot=30, seed=9)
        assert seg["comparison"] == plain(want.to_dict()) and seg["skipped"] is None


def test_csv_holds_every_segment_pair_and_metric(path, tmp_path, capsys):
    out = tmp_path / "cmp.csv"
    assert main(["compare", path, "--label", "y", "--score", "a", "--score", "b", "--by",
                 "country", "--method", "bootstrap", "--n-boot", "30", "--seed", "1",
                 "--csv", str(out), "--quiet"]) == 0
    assert capsys.readouterr().out == ""
    with open(out, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["country"], r["metric"]) for r in rows] == [
        ("de", "auc"), ("de", "average_precision"), ("de", "precision"),
        ("fr", "auc"), ("fr", "average_precision"), ("fr", "precision"), ("se", "")]
    for r in rows[:-1]:
        part = FRAME[FRAME.country == r["country"]]
        d = segment_want(part, method="bootstrap", metrics=BOOT, n_boot=30,
                         seed=1)[r["metric"]]
        for name in ("estimate", "estimate_a", "estimate_b", "low", "high", "p_value"):
            assert float(r[name]) == pytest.approx(getattr(d, name), rel=1e-12), name
        assert (r["model_a"], r["model_b"], r["method"]) == ("a", "b", "bootstrap")
    assert rows[-1]["skipped"].startswith("one class")


def test_text_is_the_library_text_and_seeded_by_default(path, capsys):
    for _ in range(2):                        # the same replicates on every run
        assert main(["compare", path, "--label", "y", "--score", "a", "--score", "b",
                     "--method", "bootstrap", "--n-boot", "30", "--quiet"]) == 0
        out = capsys.readouterr().out
        assert out.startswith(f"{path}: label 'y', scores ['a', 'b']\n")
        rows = (f"rows {N:,}   positives {int(FRAME.y.sum()):,}   "
                f"negatives {int((~FRAME.y).sum()):,}")
        assert rows in out
        want = indist_fast.compare(FRAME.y, FRAME.a, FRAME.b, method="bootstrap",
                                   metrics=BOOT, n_boot=30, names=("a", "b"))
        assert str(want) in out


def test_text_table_of_segments(path, capsys):
    assert main(["compare", path, "--label", "y", "--score", "a", "--score", "b", "--by",
                 "country", "--quiet"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split()[:4] == ["country", "n_rows", "positives", "models"]
    de = FRAME[FRAME.country == "de"]
    d = segment_want(de, metrics="auc")["auc"]
    assert out[2].split()[:8] == ["de", f"{len(de):,}", f"{int(de.y.sum()):,}", "a", "-", "b",
                                  "auc", f"{d.estimate_a:.4f}"]
    assert "one class: nothing to compare" in out[4]


def test_pos_label_on_text_labels(path, capsys):
    got = run_json(capsys, path, "--label", "outcome", "--pos-label", "churned", "--score",
                   "a", "--score", "b")
    want = indist_fast.compare(FRAME.outcome.to_numpy(), FRAME.a, FRAME.b, pos_label="churned",
                               metrics="auc", names=("a", "b"))
    assert got == plain(want.to_dict())


def test_many_segments_are_shortened_saying_how_to_see_all(tmp_path, capsys):
    frame = FRAME.assign(day=np.arange(N) % 30, y=_y)
    frame.to_parquet(tmp_path / "days.parquet")
    argv = ["compare", str(tmp_path / "days.parquet"), "--label", "y", "--score", "a",
            "--score", "b", "--by", "day", "--quiet"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "... 10 more rows: --all-rows prints every one, --csv OUT writes them all" in out
    assert main(argv + ["--all-rows"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "more rows" not in "\n".join(lines)
    assert [line.split()[0] for line in lines[2:32]] == [str(d) for d in range(30)]


@pytest.mark.parametrize("extra, message", [
    (["--score", "a"], "compare needs two --score columns or more"),
    (["--score", "a", "--score", "b", "--correction", "holm"],
     "--correction adjusts the p-values of three models or more"),
    (["--score", "a", "--score", "b", "--by", "nope"], "nope"),
    (["--score", "a", "--score", "b", "--level", "1.5"], "level"),
])
def test_errors_are_one_line(path, capsys, extra, message):
    assert main(["compare", path, "--label", "y", *extra, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("indist-fast compare: error: ") and message in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("extra, message", [
    (["--metric", "b"], "--metric: invalid choice: 'b'"),
    (["--n-boot", "1"], "--n-boot must be an integer >= 2"),
    (["--method", "exact"], "--method: invalid choice"),
])
def test_bad_options_are_refused_before_reading(capsys, extra, message):
    with pytest.raises(SystemExit) as exit_:
        main(["compare", "missing.parquet", "--label", "y", "--score", "a", "--score", "b",
              *extra])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_quiet_silences_the_segment_bar(path, capsys, monkeypatch):
    import sys
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    argv = ["compare", path, "--label", "y", "--score", "a", "--score", "b", "--by",
            "country"]
    assert main(argv) == 0
    assert "compare" in capsys.readouterr().err           # the bar was drawn
    before = dict(__import__("os").environ)
    assert main(argv + ["--quiet"]) == 0
    assert capsys.readouterr().err == ""
    assert dict(__import__("os").environ) == before       # the switch was put back


def test_nan_estimates_stay_nan(path, capsys):
    # a level no operating point reaches: C(r_b) is undefined, printed and written as such
    got = run_json(capsys, path, "--label", "y", "--score", "a", "--score", "b", "--metric",
                   "precision", "--level", "0.999", "--n-boot", "20", "--seed", "0")
    d = got["differences"]["precision"]
    want = indist_fast.compare(FRAME.y, FRAME.a, FRAME.b, metrics="precision", level=0.999,
                               n_boot=20, seed=0)["precision"]
    assert math.isnan(want.estimate) and d["estimate"] is None and d["low"] is None
    assert d["n_undefined"] == want.n_undefined == 20


@pytest.mark.parametrize("scores", [["a", "b"], ["b", "a"], ["a", "c", "b"]])
def test_a_bad_score_is_named_by_its_column_and_row(tmp_path, capsys, scores):
    # (a NaN float, not a null: Parquet would store pandas' NaN as a null)
    b = FRAME.b.to_numpy().copy()
    b[17] = np.nan
    path = tmp_path / "nan.npz"
    np.savez(path, y=FRAME.y, a=FRAME.a, b=b, c=FRAME.c, country=FRAME.country.to_numpy().astype(str))
    with pytest.raises(ValueError) as want:
        indist_fast.evaluate(FRAME.y, b)
    argv = ["compare", str(path), "--label", "y", "--by", "country"]
    assert main([*argv, *[x for s in scores for x in ("--score", s)]]) == 2
    assert capsys.readouterr().err.strip() == (
        f"indist-fast compare: error: score: column 'b' of {path}: {want.value}")


def test_replicates_without_a_bootstrap_are_refused(path, capsys):
    assert main(["compare", path, "--label", "y", "--score", "a", "--score", "b",
                 "--n-boot", "50", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "--n-boot 50 is given but nothing is bootstrapped" in err
    assert main(["compare", path, "--label", "y", "--score", "a", "--score", "b",
                 "--n-boot", "50", "--metric", "auc", "--metric", "precision", "--json",
                 "--quiet"]) == 0
