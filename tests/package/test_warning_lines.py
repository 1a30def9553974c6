"""Every warning of the library points at the caller's line (the first frame outside the
package), whatever the call path inside: ``errors.warn`` counts the frames instead of
each call site fixing a ``stacklevel``. And it is the only way the package warns."""

from __future__ import annotations

import ast
import pathlib
import warnings

import numpy as np
import pytest

import indist_fast
from indist_fast.errors import IndistFastWarning, warn

PACKAGE = pathlib.Path(indist_fast.__file__).parent

Y = [0, 0, 1, 1]
S = [0.9, 0.8, 0.1, 0.2]          # B never reaches 1/2: LevelNotReachedWarning


def fractional(f):
    return lambda: f([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9],
                     sample_weight=[1.5] * 6)


def report_html():
    from indist_fast.html.report_page import report_html
    return report_html(Y, S)


def dask_one_class():
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"y": [0, 1, 1, 0, 1, 1], "p": [.1, .8, .6, .3, .5, .7],
                          "g": [1, 1, 1, 1, 2, 2]})
    return indist_fast.dask.evaluate(dd.from_pandas(frame, npartitions=2), label="y",
                                     score="p", by="g")


def compare_metrics_few_rows():
    from indist_fast.metrics.resolving_power import Binormal, compare_metrics
    return compare_metrics(Binormal.for_auc(0.8), n=40, prevalence=0.05, n_rep=20,
                           progress=False)


def classifier():
    pytest.importorskip("sklearn")
    from sklearn.dummy import DummyClassifier
    from indist_fast.sklearn import IndistinguishabilityThresholdClassifier
    X = np.arange(40.0).reshape(-1, 1)
    y = np.arange(40) % 2                          # tied scores: B stays at 1/2 < 0.9
    return IndistinguishabilityThresholdClassifier(DummyClassifier(), level=0.9,
                                                   cv=2).fit(X, y)


CALLS = {
    "evaluate": lambda: indist_fast.evaluate(Y, S),
    "evaluate weighted": lambda: indist_fast.evaluate(Y, S, sample_weight=[2, 1, 1, 2]),
    "evaluate with bootstrap": lambda: indist_fast.evaluate(Y, S, n_boot=20),
    "ScoreTable.evaluate": lambda: indist_fast.ScoreTable.from_arrays(Y, S).evaluate(),
    "indistinguishability_threshold":
        lambda: indist_fast.indistinguishability_threshold(Y, S),
    "precision_at_indistinguishability":
        lambda: indist_fast.precision_at_indistinguishability(Y, S),
    "evaluate_many": lambda: indist_fast.evaluate_many([0, 1, 1, 0, 1, 1], [.1, .8, .6, .3,
                                                       .5, .7], groups=[1, 1, 1, 1, 2, 2]),
    "curves": lambda: indist_fast.curves([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3],
                                         sample_weight=[0.1] * 4),
    "best_threshold": lambda: indist_fast.best_threshold([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3],
                                                         "f1", sample_weight=[0.1] * 4),
    "precision_recall_curve": lambda: indist_fast.precision_recall_curve([1, 1], [.1, .2]),
    "delong": fractional(indist_fast.delong),
    "operating_point_intervals": lambda: indist_fast.operating_point_intervals(
        [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9], 0.35, sample_weight=[1.5] * 6),
    "compare": lambda: indist_fast.compare([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9],
                                           [0.2, 0.1, 0.5, 0.7, 0.3, 0.8],
                                           sample_weight=[1.5] * 6),
    "population": lambda: indist_fast.population.Binormal(0.5).indistinguishability_threshold(
        0.05, level=0.9),
    "report_html": report_html,
    "compare_metrics": compare_metrics_few_rows,
    "dask evaluate_many": dask_one_class,
    "sklearn classifier": classifier,
}


@pytest.mark.parametrize("name", list(CALLS))
def test_warnings_point_at_the_callers_line(name):
    call = CALLS[name]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    ours = [w for w in caught if issubclass(w.category, IndistFastWarning)]
    assert ours, f"{name} gave no warning of the library"
    assert [(w.filename, w.category.__name__) for w in ours] == [
        (__file__, w.category.__name__) for w in ours]


def test_the_line_is_the_callers():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        indist_fast.evaluate(Y, S); line = __import__("inspect").currentframe().f_lineno  # noqa: E702
    assert caught[0].lineno == line


def test_warn_from_outside_the_package_points_here():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warn("a note", IndistFastWarning)
    assert caught[0].filename == __file__


def warning_calls(source: str) -> list[int]:
    """Lines that call ``warnings.warn`` (or ``warn_explicit``) directly."""
    return [node.lineno for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("warn", "warn_explicit")
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "warnings"]


def test_only_errors_warn_calls_warnings_warn():
    found = {str(p.relative_to(PACKAGE)): lines for p in PACKAGE.rglob("*.py")
             if p.name != "errors.py" and (lines := warning_calls(p.read_text()))}
    assert found == {}
    assert warning_calls((PACKAGE / "errors.py").read_text())       # the one place


def test_a_planted_fixed_stacklevel_is_found():
    planted = "import warnings\n\ndef f():\n    warnings.warn('x', UserWarning, stacklevel=3)\n"
    assert warning_calls(planted) == [4]
