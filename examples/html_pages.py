"""Build the two interactive pages, and (with ``--screenshots``) photograph them in
headless Chromium for the README.

    python examples/html_pages.py OUTDIR [--screenshots]

Writes OUTDIR/roc_demo.html and OUTDIR/report.html (data set e of the paper's nine,
scored by a logistic fit, against a noisier copy of that score, in three regions);
the screenshots go to docs/roc_demo.png and docs/report_page.png. Needs Debian's
``chromium`` and ``chromium-driver`` and selenium for the screenshots only.
"""

from __future__ import annotations

import base64
import os
import sys

import numpy as np

from indist_fast.datasets import nine_datasets
from indist_fast.html import report_html, roc_demo


def build(folder: str) -> tuple[str, str]:
    demo = os.path.join(folder, "roc_demo.html")
    roc_demo(demo, mu_pos=1.8, sd_pos=1.2, mu_neg=0.0, sd_neg=1.0, prevalence=0.2,
             threshold=1.0)
    y, s = nine_datasets(seed=0)["e"]
    rng = np.random.default_rng(1)
    region = rng.choice(["north", "south", "west"], len(y))
    report = os.path.join(folder, "report.html")
    report_html(y, {"logit": s, "noisy": s + rng.normal(0, 1.5, len(s))},
                groups=region, title="Data set e: two scores", path=report)
    return demo, report


def screenshots(pages: dict[str, str]) -> None:
    os.environ["SE_OFFLINE"] = "true"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900",
                "--hide-scrollbars"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        for page, png in pages.items():
            driver.get("file://" + os.path.abspath(page))
            width, height = driver.execute_script(
                "return [document.documentElement.scrollWidth, "
                "document.documentElement.scrollHeight]")
            shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
                "captureBeyondViewport": True,
                "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})
            with open(png, "wb") as fh:
                fh.write(base64.b64decode(shot["data"]))
            print(f"{png}: {width} x {height}")
    finally:
        driver.quit()


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    demo, report = build(out)
    print(demo, report)
    if "--screenshots" in sys.argv:
        docs = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs")
        screenshots({demo: os.path.join(docs, "roc_demo.png"),
                     report: os.path.join(docs, "report_page.png")})
