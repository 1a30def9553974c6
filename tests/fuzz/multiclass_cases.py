"""Cases for ``indist_fast.multiclass``: roc_auc (every multi_class x average), evaluate
and top_k_accuracy against scikit-learn, and bad values of each argument, which must
fail naming it."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .cases import Case, _err, _ok
from .checks import Wrong
from .params import INF, NAN

ROC = (("ovr", "micro"), ("ovr", "macro"), ("ovr", "weighted"), ("ovr", None),
       ("ovo", "macro"), ("ovo", "weighted"))


def data(n: int = 40, k: int = 4, seed: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Labels holding every class, rows of probabilities with ties, integer weights."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    p = np.round(rng.random((n, k)) + 0.4 * np.eye(k)[y], 1)
    return y, p / p.sum(axis=1, keepdims=True), rng.integers(1, 4, n).astype(np.float64)


def _mc() -> Any:
    from indist_fast import multiclass
    return multiclass


def _close(want: Any) -> Callable[[Any], None]:
    def check(got: Any) -> None:
        if not np.allclose(got, want, rtol=0, atol=1e-12, equal_nan=True):
            raise Wrong(f"got {got!r}, scikit-learn {want!r}")
    return check


def multiclass_cases() -> list[Case]:
    from sklearn.metrics import roc_auc_score, top_k_accuracy_score
    out: list[Case] = []
    y, p, w = data()
    for mc, avg in ROC:
        for weighted in (False, True) if mc == "ovr" else (False,):
            sw = w if weighted else None
            out.append(_ok("multiclass.roc_auc", f"{mc}_{avg}_w={weighted}",
                           lambda mc=mc, avg=avg, sw=sw: (
                               _mc().roc_auc, (y, p), {"multi_class": mc, "average": avg,
                                                       "sample_weight": sw}),
                           _close(roc_auc_score(y, p, multi_class=mc, average=avg,
                                                sample_weight=sw))))
    for k in (1, 2, 3):
        out.append(_ok("multiclass.top_k_accuracy", f"k={k}", lambda k=k: (
            _mc().top_k_accuracy, (y, p), {"k": k, "sample_weight": w}),
            _close(top_k_accuracy_score(y, p, k=k, sample_weight=w))))
    aucs = roc_auc_score(y, p, multi_class="ovr", average=None)
    out.append(_ok("multiclass.evaluate", "aucs", lambda: (_mc().evaluate, (y, p), {}),
                   lambda t: _close(aucs)(t.columns["auc"])))
    # bad arguments of every entry point
    nan_p, inf_p = p.copy(), p.copy()
    nan_p[3, 1], inf_p[5, 0] = NAN, INF
    prob_bad: list[tuple[str, Any, tuple[str, ...]]] = [
        ("1d", p[:, 0], ("y_prob", "y_score")), ("3d", p[None], ("y_prob", "y_score")),
        ("nan", nan_p, ("y_prob", "y_score")), ("inf", inf_p, ("y_prob", "y_score")),
        ("str", p.astype(str), ("y_prob", "y_score")),
        ("columns", p[:, :3], ("y_prob", "y_score", "labels")),
        ("rows", p[:-1], ("y_prob", "y_score", "y_true")),
        ("object", p.astype(object), ("y_prob", "y_score")), ("none", None, ("y_prob", "y_score")),
    ]
    common: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
        ("labels=dup", {"labels": [0, 1, 2, 2]}, ("labels",)),
        ("labels=missing", {"labels": [0, 1, 2, 7]}, ("labels", "y_true")),
        ("labels=2d", {"labels": [[0, 1], [2, 3]]}, ("labels",)),
        ("labels=empty", {"labels": []}, ("labels",)),
        ("labels=mixed", {"labels": [0, "a", 2, 3]}, ("labels", "y_true")),
        ("sample_weight=negative", {"sample_weight": -w}, ("sample_weight",)),
        ("sample_weight=nan", {"sample_weight": np.r_[NAN, w[1:]]}, ("sample_weight",)),
        ("sample_weight=short", {"sample_weight": w[:-1]}, ("sample_weight",)),
        ("sample_weight=str", {"sample_weight": w.astype(str)}, ("sample_weight",)),
    ]
    entries = {"multiclass.roc_auc": (lambda: _mc().roc_auc, [
        ("multi_class=raise", {"multi_class": "raise"}, ("multi_class",)),
        ("multi_class=int", {"multi_class": 1}, ("multi_class",)),
        ("average=samples", {"average": "samples"}, ("average",)),
        ("average=ovo_micro", {"multi_class": "ovo", "average": "micro"}, ("average",)),
        ("average=ovo_none", {"multi_class": "ovo", "average": None}, ("average",)),
        ("average=list", {"average": ["macro"]}, ("average",)),
    ]), "multiclass.top_k_accuracy": (lambda: _mc().top_k_accuracy, [
        ("k=0", {"k": 0}, ("k",)), ("k=float", {"k": 2.0}, ("k",)),
        ("k=bool", {"k": True}, ("k",)), ("k=str", {"k": "2"}, ("k",)),
        ("normalize=str", {"normalize": "no"}, ("normalize",)),
        ("sample_weight=zero", {"sample_weight": 0 * w}, ("sample_weight",)),
    ]), "multiclass.evaluate": (lambda: _mc().evaluate, [
        ("levels=1.5", {"levels": (1.5,)}, ("levels", "level")),
        ("levels=nan", {"levels": (NAN,)}, ("levels", "level")),
        ("exclude_self=str", {"exclude_self": "no"}, ("exclude_self",)),
    ])}
    for entry, (fn, own) in entries.items():
        for tag, kw, names in common + own:
            out.append(_err(entry, tag, lambda fn=fn, kw=kw: (fn(), (y, p), kw), *names))
        for tag, bad, names in prob_bad:
            out.append(_err(entry, f"scores={tag}", lambda fn=fn, bad=bad: (fn(), (y, bad), {}),
                            *names))
        for tag, labels, names in (
                ("nan", np.r_[NAN, y[1:].astype(float)], ("y_true",)),
                ("none", np.array([None] + list(y[1:]), dtype=object), ("y_true",)),
                ("short", y[:-1], ("y_true", "y_prob", "y_score")),
                ("empty", y[:0], ("y_true",)),
                ("complex", y.astype(complex), ("y_true",))):
            out.append(_err(entry, f"y_true={tag}", lambda fn=fn, labels=labels: (
                fn(), (labels, p), {}), *names))
    out.append(_err("multiclass.evaluate", "y_true=indicator_2", lambda: (
        _mc().evaluate, (np.full((40, 4), 2), p), {}), "y_true"))
    return out
