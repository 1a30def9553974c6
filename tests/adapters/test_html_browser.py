"""The pages in a real headless Chromium (Debian's ``chromium`` and ``chromium-driver``,
driven by Selenium; nothing is downloaded) in a 1,400 px wide window: no console errors,
no network requests, no table wider than its box, and after moving the controls (the
slider, a typed threshold) the values shown are the library's."""

from __future__ import annotations

import json
import math
import os
import warnings

import numpy as np
import pytest

import indist_fast
from indist_fast.html import report_html, roc_demo, segment_page
from indist_fast import LevelNotReachedWarning
from indist_fast.metrics.resolving_power import Binormal

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
_MISSING = ("browser tests need Debian's chromium and chromium-driver packages "
            f"({CHROMIUM}, {DRIVER}; apt-get install chromium chromium-driver)")

pytestmark = [pytest.mark.skipif(not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)),
                                 reason=_MISSING),
              pytest.mark.slow]

WIDTH = 1400            # the window the pages must fit (a common laptop width)


@pytest.fixture(scope="module")
def browser():
    webdriver = pytest.importorskip("selenium.webdriver",
                                    reason="browser tests need selenium (the test extra)")
    from selenium.webdriver.chrome.service import Service
    old = os.environ.get("SE_OFFLINE")
    os.environ["SE_OFFLINE"] = "true"      # Selenium Manager must not fetch a driver
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={WIDTH},1400", "--disable-background-networking",
                "--disable-component-update", "--no-first-run"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    try:
        driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    except Exception as exc:                   # a browser that cannot start here
        pytest.skip(f"headless Chromium did not start: {exc}")
    yield driver
    driver.quit()
    if old is None:
        os.environ.pop("SE_OFFLINE", None)
    else:
        os.environ["SE_OFFLINE"] = old


def open_page(driver, path):
    """Open a page and wait for its scripts (they set ``data-ready``)."""
    driver.get_log("browser")           # drop what earlier pages left
    driver.get_log("performance")
    driver.get(path.as_uri())
    assert driver.find_element("tag name", "body").get_attribute("data-ready") == "1"


def check_clean(driver, path):
    """No console message of level warning or worse, and no request but the page."""
    logs = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert logs == []
    urls = []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg["method"] == "Network.requestWillBeSent":
            urls.append(msg["params"]["request"]["url"])
    assert path.as_uri() in urls            # the log records requests (the page's own)
    assert set(urls) == {path.as_uri()}


def value(driver, metric, scope="body"):
    el = driver.find_element("css selector", f'{scope} [data-metric="{metric}"]')
    return float(el.get_attribute("data-value"))


def type_into(driver, name, text):
    box = driver.find_element("id", name)
    box.clear()
    box.send_keys(text)


def test_roc_demo_in_chromium(browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    path = tmp_path / "demo.html"
    roc_demo(path)
    open_page(browser, path)
    mu_pos, sd_pos, mu_neg, sd_neg, prev = 2.0, 1.5, 0.5, 0.8, 0.15
    for name, v in (("mu_pos", mu_pos), ("sd_pos", sd_pos), ("mu_neg", mu_neg),
                    ("sd_neg", sd_neg), ("prevalence", prev)):
        type_into(browser, name, str(v))
    # drag the threshold in the density panel, then nudge it with the keyboard
    panel = browser.find_element("css selector", "#panel-densities svg")
    before = value(browser, "threshold")
    ActionChains(browser).move_to_element_with_offset(panel, 40, 0).click_and_hold() \
        .move_by_offset(25, 0).release().perform()
    dragged = value(browser, "threshold")
    assert dragged != before
    browser.find_element("id", "threshold").send_keys(Keys.RIGHT * 5)
    t = value(browser, "threshold")
    assert t > dragged

    m = Binormal((mu_pos - mu_neg) / sd_neg, sd_pos / sd_neg)    # scores standardised
    r = (t - mu_neg) / sd_neg
    v = 0.5 * math.erfc((t - mu_pos) / sd_pos / math.sqrt(2))
    u = 0.5 * math.erfc(r / math.sqrt(2))
    want = {"tpr": v, "fpr": u, "precision": m.precision(r, prev), "b": m.b(r, prev),
            "tp": prev * v, "fn": prev * (1 - v), "fp": (1 - prev) * u,
            "tn": (1 - prev) * (1 - u), "auc": m.auc,
            "precision_at_indistinguishability": m.precision_at_indistinguishability(prev)}
    for metric, expected in want.items():
        assert value(browser, metric) == pytest.approx(expected, abs=1e-6), metric
    r_b = mu_neg + sd_neg * m.indistinguishability_threshold(prev)
    assert value(browser, "indistinguishability_threshold") == pytest.approx(r_b, abs=1e-6)
    # a bad input is refused on the page, naming it, and leaves the numbers alone
    type_into(browser, "sd_pos", "-1")
    assert "sd_pos" in browser.find_element("id", "status").text
    assert value(browser, "auc") == pytest.approx(m.auc, abs=1e-6)
    check_clean(browser, path)


def test_population_formulas_across_models(browser, tmp_path):
    """The page's erfc, B integral and root against Binormal over a spread of models,
    a narrow positive class and the far tails included."""
    path = tmp_path / "demo.html"
    roc_demo(path)
    open_page(browser, path)
    cases = [(1.0, 1.0, 0.0, 1.0, 0.2, 0.3), (3.0, 0.05, 0.0, 1.0, 0.5, 2.9),
             (0.2, 4.0, 0.0, 1.0, 0.05, -6.0), (-1.0, 1.0, 0.0, 2.0, 0.9, 9.0),
             (5.0, 0.5, 1.0, 0.1, 0.01, 1.2)]
    got = browser.execute_script("""
        return arguments[0].map(function (c) {
          var m = new IFPop.Model(c[0], c[1], c[2], c[3], c[4]);
          return [m.b(c[5]), m.precision(c[5]), m.auc(), m.threshold(0.5),
                  IFPop.erfc(c[5])];
        });""", cases)
    for (mp, sp, mn, sn, prev, t), (b, c, auc, rb, erfc) in zip(cases, got):
        m = Binormal((mp - mn) / sn, sp / sn)
        r = (t - mn) / sn
        assert b == pytest.approx(m.b(r, prev), abs=1e-9)
        assert c == pytest.approx(m.precision(r, prev), abs=1e-12)
        assert auc == pytest.approx(m.auc, abs=1e-14)
        assert erfc == pytest.approx(math.erfc(t), rel=1e-13)
        with warnings.catch_warnings():     # (B never reaching 1/2 is one of the cases)
            warnings.simplefilter("ignore", LevelNotReachedWarning)
            want = m.indistinguishability_threshold(prev)
        assert (rb is None and math.isnan(want)) or rb == pytest.approx(mn + sn * want, abs=1e-7)
    check_clean(browser, path)


def test_report_in_chromium(browser, tmp_path):
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select
    rng = np.random.default_rng(4)
    n = 3000
    y = rng.integers(0, 2, n)
    w = rng.integers(0, 3, n).astype(float)
    models = {"a": np.round(rng.normal(size=n) + y, 2),
              "b": rng.normal(size=n) + 1.5 * y}
    path = tmp_path / "report.html"
    report_html(y, models, sample_weight=w, groups=rng.choice(["x", "y", "z"], n),
                max_points=400, path=path)
    open_page(browser, path)
    slider = browser.find_element("id", "threshold")
    fields = ("tp", "fp", "tn", "fn", "tpr", "fpr", "tnr", "fnr", "precision", "npv",
              "accuracy", "balanced_accuracy", "f1", "b")

    def check(model):
        t = value(browser, "threshold", ".controls")
        c = indist_fast.confusion(y, models[model], t, sample_weight=w)
        for f in fields:
            got, want = value(browser, f, "#current"), getattr(c, f)
            assert got == want or (math.isnan(got) and math.isnan(want)), (model, f)
        return t

    r = indist_fast.evaluate(y, models["a"], sample_weight=w)
    assert check("a") == r.threshold             # the slider starts at r_b
    slider.send_keys(Keys.LEFT * 37)
    low = check("a")
    assert low < r.threshold
    slider.send_keys(Keys.END)
    check("a")
    Select(browser.find_element("id", "model")).select_by_visible_text("b")
    slider.send_keys(Keys.RIGHT * 11)
    check("b")
    slider.send_keys(Keys.HOME)
    check("b")
    browser.find_element("id", "logcount").click()
    # the segment table sorts by a clicked column, both ways
    head = [th for th in browser.find_elements("css selector", "#segments thead th")
            if th.text.startswith("auc")][0]
    for order in (1, -1):
        head.click()
        aucs = [float(e.get_attribute("data-value")) for e in
                browser.find_elements("css selector", '#segments tbody [data-metric="auc"]')]
        assert aucs == sorted(aucs, reverse=order < 0) and len(aucs) == 6
    check_clean(browser, path)


# --- tables fit their box ----------------------------------------------------------------------

# Each table's box (its parent), how wide the table is and how wide the box shows, and
# whether the box is one that scrolls (``.table-box``); the page's own overflow.
_TABLE_WIDTHS = """
  return {page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
          tables: Array.from(document.querySelectorAll("table")).map(function (t) {
            var box = t.parentElement, r = t.getBoundingClientRect(), b = box.getBoundingClientRect();
            return {id: t.id || t.className, boxed: box.classList.contains("table-box"),
                    right: r.right, box_right: b.right,
                    scroll: box.scrollWidth, client: box.clientWidth};
          })};"""


def table_widths(driver, width, path):
    driver.set_window_size(width, 900)
    try:
        open_page(driver, path)
        return driver.execute_script(_TABLE_WIDTHS)
    finally:
        driver.set_window_size(WIDTH, 1400)


def wide_pages(tmp_path):
    """Every page, the report at its widest: bootstrap intervals, three models, segments."""
    rng = np.random.default_rng(7)
    n = 4000
    y = (rng.random(n) < 0.04).astype(int)
    s = rng.normal(size=n) + 1.5 * y
    models = {"logit": s, "noisy": s + rng.normal(0, 1, n), "third model": s - 3 * rng.random(n)}
    groups = rng.choice(["north", "south", "west"], n)
    report_html(y, models, n_boot=40, seed=1, groups=groups, path=tmp_path / "report.html")
    roc_demo(tmp_path / "demo.html")
    segment_page(indist_fast.evaluate_many(y, models, groups=groups), tmp_path / "segments.html")
    return [tmp_path / name for name in ("report.html", "demo.html", "segments.html")]


def test_every_table_fits_its_box_at_1400_px(browser, tmp_path):
    for path in wide_pages(tmp_path):
        got = table_widths(browser, WIDTH, path)
        assert got["page"][0] <= got["page"][1], path.name       # no sideways page scroll
        assert got["tables"], path.name
        for table in got["tables"]:
            where = (path.name, table["id"])
            assert table["boxed"], where
            assert table["scroll"] <= table["client"], where
            assert table["right"] <= table["box_right"] + 0.5, where


def test_a_table_too_wide_scrolls_inside_its_box(browser, tmp_path):
    """In a narrow window the summary is wider than its box: the box scrolls, the page
    does not run past the window's edge."""
    got = table_widths(browser, 700, wide_pages(tmp_path)[0])
    assert got["page"][0] <= got["page"][1]
    summary = [t for t in got["tables"] if t["id"] == "summary"][0]
    assert summary["scroll"] > summary["client"]


# --- a typed threshold -------------------------------------------------------------------------

FIELDS = ("tp", "fp", "tn", "fn", "tpr", "fpr", "tnr", "fnr", "precision", "npv",
          "accuracy", "balanced_accuracy", "f1", "b")


def shown_confusion(driver):
    return {f: value(driver, f, "#current") for f in FIELDS}


def same(got, want):
    return got == want or (math.isnan(got) and math.isnan(want))


def type_threshold(driver, text):
    box = driver.find_element("id", "threshold_value")
    box.clear()
    box.send_keys(text)
    return driver.find_element("id", "threshold_note").text


def expected_point(thresholds, t):
    """The rule the page documents: the lowest threshold at or above ``t``; above them
    all, the highest."""
    at_or_above = [x for x in thresholds if x >= t]
    return min(at_or_above) if at_or_above else max(thresholds)


def test_a_typed_threshold_moves_the_slider_and_the_table(browser, tmp_path):
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select
    rng = np.random.default_rng(11)
    n = 2500
    y = rng.integers(0, 2, n)
    w = rng.integers(0, 3, n).astype(float)
    models = {"a": np.round(rng.normal(size=n) + y, 2), "b": rng.normal(size=n) + 1.5 * y}
    path = tmp_path / "report.html"
    assert report_html(y, models, sample_weight=w, max_points=150, path=path) == path
    open_page(browser, path)
    slider = browser.find_element("id", "threshold")
    for k, name in enumerate(models):
        Select(browser.find_element("id", "model")).select_by_visible_text(name)
        drawn, n_points = browser.execute_script(
            "var m = IF_DATA.models[arguments[0]]; return [m.points.threshold, m.n_points];", k)
        assert len(drawn) <= 150 < n_points      # thinned
        mid = (drawn[40] + drawn[41]) / 2        # between two drawn points (decreasing)
        for t in (mid, drawn[70], drawn[0] + 1.0, drawn[-1] - 5.0, drawn[-1]):
            note = type_threshold(browser, repr(t))
            want = expected_point(drawn, t)
            assert value(browser, "threshold", ".controls") == want, (name, t)
            assert int(slider.get_attribute("value")) == len(drawn) - 1 - drawn.index(want)
            c = indist_fast.confusion(y, models[name], want, sample_weight=w)
            got = shown_confusion(browser)
            assert all(same(got[f], getattr(c, f)) for f in FIELDS), (name, t, got, c)
            # the typed text stays; the note says where the slider went and why
            assert browser.find_element("id", "threshold_value").get_attribute("value") == repr(t)
            if t > drawn[0]:
                assert "highest" in note
            elif t == want:
                assert note == ""
            else:
                assert repr(want) in note
        # the slider moves the box back to its point's threshold
        slider.send_keys(Keys.LEFT * 3)
        t = value(browser, "threshold", ".controls")
        assert float(browser.find_element("id", "threshold_value").get_attribute("value")) == t
        assert browser.find_element("id", "threshold_note").text == ""
    # text that is no number moves nothing
    before = slider.get_attribute("value")
    note = type_threshold(browser, "--1")
    assert slider.get_attribute("value") == before and "number" in note
    check_clean(browser, path)


def test_a_typed_threshold_is_confusions_when_every_point_is_drawn(browser, tmp_path):
    """With every operating point on the page, any typed threshold shows exactly
    ``confusion(y, s, t)`` (the rows scoring at or above t), below every score too."""
    rng = np.random.default_rng(12)
    n = 1500
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(size=n) + y, 1)       # ties
    path = tmp_path / "report.html"
    report_html(y, s, max_points=2000, path=str(path))
    open_page(browser, path)
    for t in (0.55, 0.5, -0.049, 1.234, float(s.min()) - 1.0, float(s.min())):
        type_threshold(browser, repr(t))
        c = indist_fast.confusion(y, s, t)
        got = shown_confusion(browser)
        assert all(same(got[f], getattr(c, f)) for f in FIELDS), (t, got, c)
    check_clean(browser, path)


def test_the_calibration_panel_draws_each_probability_model(browser, tmp_path):
    rng = np.random.default_rng(22)
    p = rng.beta(2, 3, 4000)
    y = rng.random(4000) < p
    models = {"calibrated": p, "too high": p**0.6, "log-odds": np.log(p / (1 - p))}
    path = tmp_path / "calibration.html"
    report_html(y, models, path=path)
    open_page(browser, path)
    panel = "#panel-calibration"
    # the diagonal, then one curve per model of probabilities, a dot per non-empty bin
    assert len(browser.find_elements("css selector", f"{panel} polyline.diagonal")) == 1
    curves = browser.find_elements("css selector", f"{panel} polyline.curve")
    assert len(curves) == 2
    dots = browser.find_elements("css selector", f"{panel} circle.calpoint")
    assert len(dots) == sum(len(indist_fast.calibration(y, s).bin) for s in (p, p**0.6))
    assert value(browser, "ece", "#calibration") == indist_fast.calibration(y, p).ece
    check_clean(browser, path)


def test_the_over_time_panel_shows_the_clicked_periods_report(browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.support.ui import Select
    rng = np.random.default_rng(23)
    t = np.datetime64("2024-05-01") + rng.integers(0, 10 * 86400, 8000).astype("timedelta64[s]")
    y = rng.integers(0, 2, 8000)
    s = y * np.where(t >= np.datetime64("2024-05-08"), 0.3, 1.5) + rng.normal(size=8000)
    table = indist_fast.over_time(y, s, t, reference=("2024-05-01", "2024-05-03"), n_boot=50)
    path = tmp_path / "over_time.html"
    report_html(y, s, segments=table, path=path)
    open_page(browser, path)
    panel = "#panel-time"
    rings = browser.find_elements("css selector", f"{panel} circle.drift")
    assert len(rings) == int(table.columns["drift_auc"].sum() + table.columns["drift_precision"].sum())
    assert len(rings) >= 3           # the three changed days, at least by AUC
    assert len(browser.find_elements("css selector", f"{panel} polygon.timeband")) == 2
    # the last period is shown first; choosing another shows its numbers
    assert value(browser, "auc", "#period_report") == table.columns["auc"][-1]
    Select(browser.find_element("id", "period")).select_by_value("4")
    assert value(browser, "precision", "#period_report") == table.columns["precision"][4]
    assert value(browser, "n_rows", "#period_report") == table.columns["n_rows"][4]
    p = table.drift.auc_p_value[4]
    assert value(browser, "auc_p_value", "#period_report") == pytest.approx(p, rel=1e-12)
    # a click on the chart above period 7 shows period 7's report
    svg = browser.find_element("id", "time_chart")
    n, width = len(table), svg.size["width"]
    x = (52 + (7 + 0.5) / n * (560 - 64)) * width / 560 - width / 2
    ActionChains(browser).move_to_element_with_offset(svg, int(round(x)), 0).click().perform()
    assert Select(browser.find_element("id", "period")).first_selected_option.text == \
        "2024-05-08T00:00:00"
    assert value(browser, "auc", "#period_report") == table.columns["auc"][7]
    check_clean(browser, path)
