"""The papers' numbers, and the ``paper`` command's files and manifest."""

from __future__ import annotations

import csv
import os
import re

import pytest

from indist_fast import hanley_mcneil_se
from indist_fast.cli import main
from indist_fast.population import Binormal
from indist_fast.metrics.resolving_power import compare_metrics, noise

pytest.importorskip("matplotlib")

N = 10_000


def _normal_interval(auc: float, prevalence: float) -> tuple[float, float]:
    n_pos = round(N * prevalence)
    se = hanley_mcneil_se(auc, n_pos, N - n_pos)
    return auc - 1.96 * se, auc + 1.96 * se


def test_beam_hanley_mcneil_intervals() -> None:
    """Beam: normal-approximation intervals at prevalence .01, N = 10,000."""
    assert _normal_interval(0.65, 0.01) == pytest.approx((0.591, 0.709), abs=6e-4)
    assert _normal_interval(0.95, 0.01) == pytest.approx((0.92, 0.98), abs=6e-3)


@pytest.mark.slow
@pytest.mark.parametrize("auc,want", [(0.65, (0.596, 0.702)), (0.95, (0.929, 0.967))])
def test_beam_simulated_intervals(backend: str, auc: float, want: tuple[float, float]) -> None:
    """Beam's simulation intervals; 1,000 replicates put the 2.5% and 97.5% quantiles
    within about 0.003 of the paper's 10,000 (seeds 0-2 all within 0.004)."""
    spread = noise(Binormal.for_auc(auc), ("auc",), n=N, prevalence=0.01, n_rep=1000, seed=1)
    assert spread.interval("auc") == pytest.approx(want, abs=0.008)


def _relative(auc: float, prevalence: float, seed: int) -> float:
    table = compare_metrics(Binormal.for_auc(auc), ("auc", "average_precision"), n=N,
                    prevalence=prevalence, n_rep=1000, seed=seed)
    return table["average_precision"].relative


@pytest.mark.slow
def test_beam_relative_resolution_claims() -> None:
    """AUPRC resolves about 10% worse than AUROC at prevalence .5 (poor to good models)
    and about 30% worse at prevalence .01 for a poor model (AUROC .65). Over seeds 0-2
    the first is 0.08-0.13 and the second 0.31-0.32."""
    balanced = [_relative(auc, 0.5, seed=2) for auc in (0.65, 0.75, 0.85)]
    assert 0.03 < sum(balanced) / 3 < 0.2
    assert 0.2 < _relative(0.65, 0.01, seed=2) < 0.45


@pytest.mark.slow
def test_paper_quick_writes_every_manifest_file(tmp_path, capsys) -> None:
    out = tmp_path / "paper"
    assert main(["paper", str(out), "--quick"]) == 0
    with open(out / "manifest.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert rows and list(rows[0]) == ["file", "paper", "figure", "caption", "replicates"]
    simulated = {r["file"] for r in rows if r["replicates"]}
    assert {"beam_fig4_relative_resolution.csv", "beam_fig9_sample_sizes.png",
            "beam_fig8_linear_approximation.png"} <= simulated
    for r in rows:      # a quick run says so, with its replicates, wherever it simulates
        assert ("quick run: " + r["replicates"] in r["caption"]) == bool(r["replicates"])
    files = {r["file"] for r in rows}
    assert len(files) == len(rows)                           # each file once
    assert files == set(os.listdir(out)) - {"manifest.csv"}  # every file listed
    papers = {r["paper"] for r in rows}
    assert papers == {"000_c5ed1d39bc699c21", "002_d5ee42fbb9708b98",
                      "003_e1ef94872cf64b37", "004_dc370068215ad919"}
    for r in rows:
        assert r["figure"] and r["caption"] and "\n" not in r["caption"]
        data = (out / r["file"]).read_bytes()
        if r["file"].endswith(".png"):
            assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10_000
        else:
            assert r["file"].endswith(".csv")
            table = list(csv.reader(data.decode().splitlines()))
            assert len(table) > 1 and all(len(row) == len(table[0]) for row in table)
    printed = capsys.readouterr().out
    assert f"{len(rows)} files and manifest.csv" in printed
    # the Sumpter table carries the exact population C(r_b) of the nine sets
    with open(out / "sumpter_nine_sets.csv", newline="", encoding="utf-8") as fh:
        table = {row["set"]: row for row in csv.DictReader(fh)}
    assert float(table["i"]["C_r_b_population"]) == pytest.approx(0.526, abs=5e-4)
    assert re.fullmatch(r"0\.96[45]\d*", table["i"]["A_population"])


def test_paper_refuses_bad_outdir(tmp_path, capsys) -> None:
    from indist_fast.paper import write_all
    a_file = tmp_path / "f.txt"
    a_file.write_text("x")
    with pytest.raises(ValueError, match="outdir"):
        write_all(a_file)
    with pytest.raises(TypeError, match="outdir"):
        write_all(3)
    with pytest.raises(TypeError, match="quick"):
        write_all(tmp_path / "p", quick="yes")
    assert main(["paper", str(a_file), "--quick"]) == 2
    assert "outdir" in capsys.readouterr().err


@pytest.mark.slow
def test_paper_takes_replicates_and_seed(tmp_path) -> None:
    from indist_fast.paper import write_all
    rows = write_all(tmp_path / "a", quick=True, n_rep=12, seed=5)
    reps = {r.file: r.replicates for r in rows}
    assert reps["beam_fig4_relative_resolution.csv"] == "12 replicates"
    assert reps["beam_fig9_sample_sizes.csv"] == ("12 replicates at N = 1,000; "
                                                   "12 replicates at N = 100,000")
    with open(tmp_path / "a" / "beam_fig9_sample_sizes.csv", newline="") as fh:
        table = list(csv.DictReader(fh))
    assert {(r["n"], r["replicates"], r["runs"], r["seed"]) for r in table} == {
        ("1000", "12", "1", "5"), ("100000", "12", "1", "5")}     # one run at N = 1e5


@pytest.mark.parametrize("argv, message", [
    (["--n-rep", "1"], "n_rep must be"), (["--n-rep", "x"], "--n-rep"),
    (["--seed", "-1"], "--seed"),
])
def test_paper_options_are_checked(tmp_path, capsys, argv, message) -> None:
    code = None
    try:
        code = main(["paper", str(tmp_path / "o"), "--quick", *argv])
    except SystemExit as exc:           # argparse's own refusal
        code = exc.code
    assert code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "o" / "manifest.csv").exists()


def test_paper_outdir_under_a_file_is_named(tmp_path, capsys) -> None:
    a_file = tmp_path / "f.txt"
    a_file.write_text("x")
    assert main(["paper", str(a_file / "sub" / "deeper")]) == 2
    err = capsys.readouterr().err
    assert "outdir must be a folder" in err and "f.txt" in err and "Errno" not in err


def test_orallo_stand_ins_show_the_papers_reversal() -> None:
    # tuned to Table 1; the point of Table 2: which model is better depends on the
    # threshold choice method (B fixed and score-driven, A rate-driven)
    from indist_fast import roc_auc
    from indist_fast.metrics import threshold_choice as tc
    from indist_fast.paper.orallo import PAPER_TABLE1, PAPER_TABLE2, models
    data = models()
    loss = {name: {r.method: r.expected_loss for r in tc.compare_methods(y, p, t=0.5).rows}
            for name, (y, p) in data.items()}
    for method in ("score-fixed", "score-driven"):
        assert loss["B"][method] < loss["A"][method], method
    assert loss["A"]["rate-driven"] < loss["B"]["rate-driven"]
    for k, (name, (y, p)) in enumerate(data.items()):
        assert roc_auc(y, p) == pytest.approx(PAPER_TABLE1["auc"][k], abs=0.03)
        assert tc.brier_score(y, p) == pytest.approx(PAPER_TABLE1["brier_score"][k], abs=0.015)
        for method, values in PAPER_TABLE2.items():
            assert loss[name][method] == pytest.approx(values[k], abs=0.01), (name, method)


@pytest.mark.slow
def test_an_interrupted_run_leaves_no_manifest(tmp_path, monkeypatch) -> None:
    """The manifest is written last and an old one removed first: a folder without a
    manifest holds an interrupted run."""
    from indist_fast import paper
    from indist_fast.paper import write_all
    (tmp_path / "manifest.csv").write_text("file,paper\nold.png,old\n")
    monkeypatch.setattr(paper, "WRITERS", ("sumpter", "no_such_writer"))
    with pytest.raises(ModuleNotFoundError):
        write_all(tmp_path, quick=True, n_rep=2)
    assert not (tmp_path / "manifest.csv").exists()
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".indist-fast-")]


def test_paper_progress_counts_the_files_written(tmp_path, monkeypatch, fake_tqdm) -> None:
    import indist_fast.paper as paper
    pytest.importorskip("matplotlib")
    monkeypatch.setattr(paper, "WRITERS", ("roc_post",))     # the quickest writer
    rows = paper.write_all(tmp_path, quick=True, progress=True)
    (bar,) = fake_tqdm
    assert (bar.desc, bar.unit, bar.n, bar.closed) == ("paper", "files", len(rows), True)
    assert len(rows) > 0
    fake_tqdm.clear()
    paper.write_all(tmp_path, quick=True, progress=False)
    assert fake_tqdm == []
