"""The ROC demo page: two normal score distributions and their population curves."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, overload

from .._core.validation import check_real
from .page import check_path, deliver, page

__all__ = ["roc_demo"]

_INPUTS = (("mu_pos", "mean of positives"), ("sd_pos", "sd of positives"),
           ("mu_neg", "mean of negatives"), ("sd_neg", "sd of negatives"),
           ("prevalence", "prevalence (share of positives)"))

_BODY = """<h1>ROC demo: two normal score distributions</h1>
<p class="lead">Positives score N(mu_pos, sd_pos), negatives N(mu_neg, sd_neg); a share
<i>prevalence</i> of the population is positive. Move the threshold (the slider, or drag in
the density panel): every row scoring at or above it is labelled positive. Beside the ROC
curve the page draws B(r), the chance that a positive outscores a row drawn from the
labelled set (ties 1/2), and the precision C(r); r_b, where B falls to 1/2, is the
indistinguishability threshold of Sumpter. All values are population
values (no sampling), as <code>indist_fast.metrics.resolving_power.Binormal</code> computes them.
After Rogozhnikov's interactive ROC demo ("ROC curve demonstration").</p>
<div class="controls">
{inputs}
<label>threshold <input type="range" id="threshold" name="threshold"></label>
<span>threshold = <b data-metric="threshold"></b></span>
</div>
<div id="status" class="status" role="status"></div>
<div class="panels">
<div class="panel" id="panel-densities"></div>
<div class="panel" id="panel-roc"></div>
<div class="panel" id="panel-b"></div>
<div class="panel" id="panel-c"></div>
</div>
<div class="row">
<div>
<h2>At the threshold (shares of the population)</h2>
<div class="table-box"><table class="cm" id="confusion">
<tr><th></th><th>as signal (labelled positive)</th><th>as background</th></tr>
<tr><th>is signal (positive)</th><td class="good">isSasS = <span data-metric="tp"></span></td>
<td class="bad">isSasB = <span data-metric="fn"></span></td></tr>
<tr><th>is background (negative)</th><td class="bad">isBasS = <span data-metric="fp"></span></td>
<td class="good">isBasB = <span data-metric="tn"></span></td></tr>
</table></div>
</div>
<div>
<h2>Rates</h2>
<div class="table-box"><table class="metrics" id="rates">
<tr><th>tpr (v)</th><td data-metric="tpr"></td></tr>
<tr><th>fpr (u)</th><td data-metric="fpr"></td></tr>
<tr><th>precision C(r)</th><td data-metric="precision"></td></tr>
<tr><th>B(r)</th><td data-metric="b"></td></tr>
</table></div>
</div>
<div>
<h2>The model</h2>
<div class="table-box"><table class="metrics" id="summary">
<tr><th>AUC</th><td data-metric="auc"></td></tr>
<tr><th>B(&minus;&infin;) = pi1/2 + pi0 AUC</th><td data-metric="b_at_minus_infinity"></td></tr>
<tr><th>r_b (B = 1/2)</th><td data-metric="indistinguishability_threshold"></td></tr>
<tr><th>C(r_b)</th><td data-metric="precision_at_indistinguishability"></td></tr>
</table></div>
</div>
</div>
<p class="small">Dashed: B = 1/2 (the band: 0.4 to 0.6) and, on C(r), the prevalence (a random
ranking's precision). Green (dashed): r_b; black: the threshold. Values are shown rounded; each element's
<code>data-value</code> holds the full number.</p>"""


@overload
def roc_demo(path: None = ..., *, mu_pos: float = ..., sd_pos: float = ...,
             mu_neg: float = ..., sd_neg: float = ..., prevalence: float = ...,
             threshold: float | None = ...) -> str: ...


@overload
def roc_demo(path: str | os.PathLike[str], *, mu_pos: float = ..., sd_pos: float = ...,
             mu_neg: float = ..., sd_neg: float = ..., prevalence: float = ...,
             threshold: float | None = ...) -> Path: ...


def roc_demo(path: Any = None, *, mu_pos: float = 1.5, sd_pos: float = 1.0,
             mu_neg: float = 0.0, sd_neg: float = 1.0, prevalence: float = 0.3,
             threshold: float | None = None) -> str | Path:
    """The interactive ROC demo as one self-contained HTML page.

    Two normal score distributions (inputs for both means and standard deviations and
    the prevalence) and a draggable threshold, with live panels: both densities, the
    ROC curve with the current point and AUC, B(r) with the 1/2 line and r_b, C(r) with
    the precision at r_b, and the 2x2 table (isSasS, isSasB, isBasS, isBasB) at the
    threshold. The page computes the population values of
    ``indist_fast.metrics.resolving_power.Binormal`` (to about 1e-12) in the browser; it needs
    no network and no server and opens from ``file://``. After Rogozhnikov's ROC demo
    and Sumpter's indistinguishability paper ("Precision at the indistinguishability
    threshold").

    Parameters
    ----------
    path : str or os.PathLike, default=None
        Write the page there (a file name in an existing folder); None only returns it.
    mu_pos, sd_pos : float, default=1.5, 1.0
        Initial mean and standard deviation (positive) of the positives' scores.
    mu_neg, sd_neg : float, default=0.0, 1.0
        Initial mean and standard deviation (positive) of the negatives' scores.
    prevalence : float, default=0.3
        Initial share of positives, strictly between 0 and 1.
    threshold : float, default=None
        Initial threshold; None puts it midway between the means.

    Returns
    -------
    str or pathlib.Path
        The page's HTML; with ``path``, the page is written there and ``path`` comes
        back as a ``pathlib.Path``.

    Examples
    --------
    >>> from indist_fast.html import roc_demo
    >>> text = roc_demo(mu_pos=2.0, prevalence=0.1)
    >>> 'id="threshold"' in text and "http://" not in text.replace("http://www.w3.org", "")
    True
    """
    path = check_path(path)
    values = {"mu_pos": check_real(mu_pos, "mu_pos"),
              "sd_pos": check_real(sd_pos, "sd_pos", low=0.0, low_open=True),
              "mu_neg": check_real(mu_neg, "mu_neg"),
              "sd_neg": check_real(sd_neg, "sd_neg", low=0.0, low_open=True),
              "prevalence": check_real(prevalence, "prevalence", low=0.0, high=1.0,
                                       low_open=True, high_open=True)}
    values["threshold"] = ((values["mu_pos"] + values["mu_neg"]) / 2 if threshold is None
                           else check_real(threshold, "threshold"))
    inputs = "\n".join(
        f'<label>{name} <small>{what}</small><input type="number" id="{name}" '
        f'name="{name}" step="{0.01 if name == "prevalence" else 0.1}"></label>'
        for name, what in _INPUTS)
    text = page("indist_fast: ROC demo", _BODY.replace("{inputs}", inputs), values,
                ("population.js", "roc_demo.js"))
    return deliver(text, path)
