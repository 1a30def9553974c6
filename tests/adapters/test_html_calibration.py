"""The report page's calibration panel without a browser: its numbers and curve are
``ScoreTable.calibration``'s, it appears only for models whose scores are
probabilities, and a note names the others."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import indist_fast
from indist_fast.html import report_html
from indist_fast.html.report_page import CALIBRATION_BINS

from test_html import cells, page_data

rng = np.random.default_rng(21)
P = rng.beta(2, 3, 3000)
Y = rng.random(3000) < P
W = rng.integers(0, 3, 3000).astype(float)


def test_one_model_of_probabilities(backend):
    text = report_html(Y, P, sample_weight=W)
    cal = indist_fast.calibration(Y, P, sample_weight=W, n_bins=CALIBRATION_BINS)
    section = text.split("<h2>Calibration</h2>")[1]
    for field in ("ece", "mce", "brier", "log_loss", "slope", "intercept"):
        assert cells(section, field) == [getattr(cal, field)], field
    drawn = page_data(text)["models"][0]["calibration"]
    assert drawn["prob_pred"] == cal.prob_pred.tolist()
    assert drawn["prob_true"] == cal.prob_true.tolist()
    assert drawn["weight"] == cal.weight.tolist()
    assert 'id="panel-calibration"' in text and 'id="calibration_note"' not in text


def test_scores_that_are_not_probabilities_get_a_note_not_a_panel():
    logit = np.log(P / (1 - P))
    text = report_html(Y, logit)
    assert 'id="panel-calibration"' not in text and 'id="calibration"' not in text
    note = text.split('id="calibration_note">')[1].split("</p>")[0]
    assert "not probabilities" in note and f"{logit.min():.4g}" in note
    assert page_data(text)["models"][0]["calibration"] is None


def test_several_models_only_the_probabilities_have_rows():
    models = {"calibrated": P, "too high": P**0.6, "margin": 2 * P - 1}
    text = report_html(Y, models)
    data = page_data(text)["models"]
    assert [m["calibration"] is None for m in data] == [False, False, True]
    table = text.split('id="calibration"')[1].split("</table>")[0]
    assert table.count("<tr>") == 3                      # heading and two models
    assert cells(table, "ece") == [indist_fast.calibration(Y, s).ece
                                   for s in (P, P**0.6)]
    assert "margin: the scores run from" in text


def test_a_page_without_scipy_says_so(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "scipy.stats", None)      # its import then fails
    text = report_html(Y, P)
    assert "need scipy (pip install scipy)" in text and 'id="panel-calibration"' not in text


@pytest.mark.parametrize("scores", [np.zeros(3000), np.ones(3000)])
def test_one_distinct_probability_draws_one_point(scores):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", indist_fast.LevelNotReachedWarning)
        text = report_html(Y, scores)         # every score tied: B never reaches 0.6
    drawn = page_data(text)["models"][0]["calibration"]
    assert drawn["prob_pred"] == [scores[0]] and drawn["prob_true"] == [Y.mean()]
    slope, = cells(text.split('id="calibration"')[1], "slope")
    assert np.isnan(slope)                    # undefined: one distinct probability
