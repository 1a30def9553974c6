"""Cases for the stateful and structured entry points: ScoreTable, Accumulator, Window,
DataFrame columns, resolving power, scikit-learn, Dask, plots, datasets."""

from __future__ import annotations

import math
import pickle
from typing import Any

import numpy as np

from .cases import Case, _either, _err, _ok
from .checks import (Oracle, Wrong, check_curves, check_report, expect_close,
                     expect_probabilities, expect_probability)
from .inputs import _base, _weights
from .params import BAD_COUNT, BAD_LEVELS, BAD_SEED, NAN, INF, _oracle, _rows

Y, S, W = "y_true", "y_score", "sample_weight"


def _rp():
    import indist_fast.metrics.resolving_power as rp
    return rp


def _throw(msg: str) -> None:
    raise Wrong(msg)


def table_cases() -> list[Case]:
    from indist_fast import ScoreTable
    out: list[Case] = []
    o = _oracle()
    good = lambda: (np.array([0.9, 0.5, 0.1]), np.array([2, 1, 0]), np.array([0, 1, 3]))

    def oracle_of(scores: Any, pos: Any, neg: Any) -> Oracle:
        s = np.repeat(scores, np.asarray(pos) + np.asarray(neg))
        y = np.concatenate([np.r_[np.ones(p, bool), np.zeros(n, bool)]
                            for p, n in zip(pos, neg)])
        return Oracle((y, s.astype(float), None))

    out.append(_ok("ScoreTable", "direct", lambda: (
        lambda *a: ScoreTable(*a).evaluate(), (*good(), 7), {}),
        lambda r: check_report(oracle_of(*good()), r)))
    bad = [
        ("mismatched", (np.array([0.9, 0.5]), np.array([1]), np.array([0, 1]), 2),
         ("scores", "pos", "neg")),
        ("2d", (np.ones((2, 2)), np.ones((2, 2)), np.ones((2, 2)), 4), ("scores", "pos", "neg")),
        ("ascending", (np.array([0.1, 0.5]), np.array([1, 0]), np.array([0, 1]), 2), ("scores",)),
        ("duplicate_scores", (np.array([0.5, 0.5]), np.array([1, 0]), np.array([0, 1]), 2),
         ("scores",)),
        ("nan_score", (np.array([NAN, 0.5]), np.array([1, 0]), np.array([0, 1]), 2), ("scores",)),
        ("negative_pos", (np.array([0.9, 0.5]), np.array([-1, 2]), np.array([0, 1]), 2),
         ("pos",)),
        ("nan_neg", (np.array([0.9, 0.5]), np.array([1, 2]), np.array([NAN, 1.0]), 2), ("neg",)),
        ("inf_pos", (np.array([0.9, 0.5]), np.array([INF, 2]), np.array([0.0, 1.0]), 2),
         ("pos",)),
        ("str_scores", (np.array(["a", "b"]), np.array([1, 0]), np.array([0, 1]), 2),
         ("scores",)),
        ("obj_pos", (np.array([0.9, 0.5]), np.array([None, 1], dtype=object),
                     np.array([0, 1]), 2), ("pos",)),
        ("n_rows_neg", (*good(), -1), ("n_rows",)),
        ("n_rows_str", (*good(), "6"), ("n_rows",)),
        ("n_rows_float", (*good(), 7.5), ("n_rows",)),
        ("n_rows_too_few", (*good(), 2), ("n_rows",)),
        ("n_rows_6", (*good(), 6), ("n_rows",)),
        ("none", (None, None, None, 0), ("scores", "pos", "neg")),
        ("scalars", (np.float64(0.5), np.int64(1), np.int64(0), 1), ("scores", "pos", "neg")),
    ]
    for tag, args, names in bad:
        out.append(_err("ScoreTable", tag, lambda args=args: (
            lambda *a: ScoreTable(*a).evaluate(), args, {}), *names))
    # Converting sequences (or mixed count dtypes) would be as right as refusing them.
    for tag, args in (("lists", ([0.9, 0.5], [1, 0], [0, 1], 2)),
                      ("tuples", ((0.9, 0.5), (1, 0), (0, 1), 2))):
        out.append(_either("ScoreTable", tag, lambda args=args: (
            lambda *a: ScoreTable(*a).evaluate(), args, {}), ("scores", "pos", "neg"),
            lambda r, args=args: check_report(oracle_of(*args[:3]), r)))
    # layouts and dtypes the compiled kernels may not take as they are: converted or
    # refused by name, never a crash or a wrong number
    layouts = {
        "strided": lambda a: np.repeat(a, 2)[::2],
        "byteswapped": lambda a: a.astype(a.dtype.newbyteorder(">")),
        "float32_scores": lambda a: a.astype(np.float32) if a.dtype.kind == "f" else a,
        "int32_counts": lambda a: a.astype(np.int32) if a.dtype.kind == "i" else a,
        "uint8_counts": lambda a: a.astype(np.uint8) if a.dtype.kind == "i" else a,
        "readonly": lambda a: np.frombuffer(a.tobytes(), dtype=a.dtype),
    }
    for tag, fn in layouts.items():
        out.append(_either("ScoreTable", f"layout_{tag}", lambda fn=fn: (
            lambda *a: ScoreTable(*a).evaluate(), (*(fn(x) for x in good()), 7), {}),
            ("scores", "pos", "neg"), lambda r: check_report(oracle_of(*good()), r)))
    out.append(_either("ScoreTable", "mixed_dtypes", lambda: (
        lambda *a: ScoreTable(*a).evaluate(), (np.array([0.9, 0.5]), np.array([1, 0]),
                                               np.array([0.5, 1.0]), 2), {}),
        # the positive at 0.9 ties with negative weight 0.5: (0.5/2 + 1.0) / 1.5
        ("pos", "neg"), lambda r: expect_close("auc", r.auc, 5.0 / 6.0)))
    t = lambda: ScoreTable.from_arrays(*_rows()[:2])
    for tag, tables, names in (("ints", [1, 2], ("tables",)), ("str", "ab", ("tables",)),
                               ("none", None, ("tables",)), ("with_none", "T_NONE", ("tables",)),
                               ("int", 5, ("tables",)), ("arrays", "ARR", ("tables",))):
        def make(tables=tables) -> Any:
            if tables == "T_NONE":
                tables = [t(), None]
            elif tables == "ARR":
                tables = [np.ones(3), np.ones(3)]
            return ScoreTable.concat, (tables,), {}
        out.append(_err("ScoreTable.concat", tag, make, *names))
    out.append(_ok("ScoreTable.concat", "generator", lambda: (
        lambda: ScoreTable.concat(x for x in [t(), t()]).evaluate(), (), {}),
        lambda r: check_report(Oracle((np.tile(_rows()[0] == 1, 2), np.tile(_rows()[1], 2),
                                       None)), r)))
    out.append(_ok("ScoreTable.concat", "empty_list", lambda: (ScoreTable.concat, ([],), {}),
                   lambda x: None if len(x) == 0 else _throw("not empty")))
    out.append(_ok("ScoreTable.merge", "int_with_float_weights", lambda: (
        lambda: ScoreTable.from_arrays(*_rows()[:2]).merge(
            ScoreTable.from_arrays(*_rows(True))).evaluate(), (), {}),
        lambda r: check_report(Oracle((np.tile(_rows()[0] == 1, 2), np.tile(_rows()[1], 2),
                                       np.r_[np.ones(12), _weights(12)])), r)))
    for tag, other in (("int", 5), ("none", None), ("array", "ARR"), ("acc", "ACC")):
        def make(other=other) -> Any:
            from indist_fast import Accumulator
            v = {"ARR": np.ones(3), "ACC": Accumulator()}.get(other, other) \
                if isinstance(other, str) else other
            return t().merge, (v,), {}
        out.append(_err("ScoreTable.merge", tag, make, "other"))
    out.append(_err("ScoreTable.empty", "evaluate", lambda: (
        ScoreTable.empty().evaluate, (), {}), Y, W, "empty", "table"))
    out.append(_err("ScoreTable.empty", "curves", lambda: (
        ScoreTable.empty().curves, (), {}), Y, W, "empty", "table"))
    for tag, levels in BAD_LEVELS:
        if tag == "gen_bad":
            continue
        out.append(_err("ScoreTable.evaluate", f"levels={tag}", lambda levels=levels: (
            t().evaluate, (levels,), {}), "levels"))
    out.append(_ok("ScoreTable", "pickle_roundtrip", lambda: (
        lambda: pickle.loads(pickle.dumps(t())).evaluate(), (), {}),
        lambda r: check_report(o, r)))
    return out


def accumulator_cases() -> list[Case]:
    from indist_fast import Accumulator, ScoreTable
    out: list[Case] = []

    def run(chunks: list[tuple[Any, ...]], pos_label: Any = None) -> Any:
        acc = Accumulator(pos_label=pos_label)
        for chunk in chunks:
            acc.update(*chunk)
        return acc.result()

    def oracle_of(chunks: list[tuple[Any, ...]], positive: Any) -> Oracle:
        y = np.concatenate([np.asarray(c[0]) for c in chunks])
        s = np.concatenate([np.asarray(c[1], float) for c in chunks])
        w = None
        if any(len(c) > 2 for c in chunks):
            w = np.concatenate([np.asarray(c[2], float) if len(c) > 2 and c[2] is not None
                                else np.ones(len(c[1])) for c in chunks])
        return Oracle((positive(y), s, w))

    valid = [
        ("01_then_01", [([0, 1], [0.1, 0.9]), ([1, 0], [0.4, 0.5])], None, lambda y: y == 1),
        ("pos_only_then_neg_only", [([1, 1], [0.1, 0.9]), ([0, 0], [0.4, 0.5])], None,
         lambda y: y == 1),
        ("pm1_then_pm1", [([-1, 1], [0.1, 0.9]), ([1, -1], [0.4, 0.5])], None,
         lambda y: y == 1),
        ("ones_then_pm1", [([1, 1], [0.1, 0.9]), ([-1, 1], [0.4, 0.5])], None,
         lambda y: y == 1),
        ("bool_then_01", [(np.array([True, False]), [0.1, 0.9]), ([0, 1], [0.4, 0.5])], None,
         lambda y: y == 1),
        ("str_pos_label", [(["a", "b"], [0.1, 0.9]), (["b", "b"], [0.4, 0.5]),
                           (["a"], [0.3])], "b", lambda y: y == "b"),
        ("str_one_label_chunks", [(["a"], [0.1]), (["b"], [0.9])], "b", lambda y: y == "b"),
        ("weighted_chunks", [([0, 1], [0.1, 0.9], [1.0, 2.0]), ([1, 0], [0.4, 0.5], [3.0, 0.0])],
         None, lambda y: y == 1),
        ("many_chunks", [([i % 2], [i / 10]) for i in range(9)], None, lambda y: y == 1),
        ("ties_across_chunks", [([0, 1], [0.5, 0.5]), ([1, 0], [0.5, 0.5])], None,
         lambda y: y == 1),
        ("f32_then_f64", [([0, 1], np.array([0.1, 0.9], np.float32)), ([1, 0], [0.4, 0.1])],
         None, lambda y: y == 1),
        ("12_pos2", [([1, 2], [0.1, 0.9]), ([2, 2], [0.4, 0.5])], 2, lambda y: y == 2),
    ]
    for tag, chunks, pos, positive in valid:
        out.append(_ok("Accumulator", tag, lambda chunks=chunks, pos=pos: (
            run, (chunks, pos), {}),
            lambda r, chunks=chunks, positive=positive: check_report(
                oracle_of(chunks, positive), r)))
    bad = [
        ("01_then_pm1", [([0, 1], [0.1, 0.9]), ([-1, 1], [0.4, 0.5])], None, (Y,)),
        ("pm1_then_01", [([-1, 1], [0.1, 0.9]), ([0, 1], [0.4, 0.5])], None, (Y,)),
        ("zeros_then_pm1", [([0, 0], [0.1, 0.9]), ([-1, 1], [0.4, 0.5])], None, (Y,)),
        ("neg1_then_01", [([-1, -1], [0.1, 0.9]), ([0, 1], [0.4, 0.5])], None, (Y,)),
        ("str_then_int", [(["a", "b"], [0.1, 0.9]), ([0, 1], [0.4, 0.5])], "b", (Y, "pos_label")),
        ("third_label_in_chunk2", [([0, 1], [0.1, 0.9]), ([2, 1], [0.4, 0.5])], None, (Y,)),
        ("str_third_label", [(["a", "b"], [0.1, 0.9]), (["c", "b"], [0.4, 0.5])], "b", (Y,)),
        ("12_then_23", [([1, 2], [0.1, 0.9]), ([2, 3], [0.4, 0.5])], 2, (Y,)),
        ("nan_in_chunk2", [([0, 1], [0.1, 0.9]), ([0, 1], [NAN, 0.5])], None, (S,)),
        ("neg_weight_chunk2", [([0, 1], [0.1, 0.9], [1, 1]), ([0, 1], [0.4, 0.5], [-1, 1])],
         None, (W,)),
        ("one_class_only", [([1, 1], [0.1, 0.9]), ([1], [0.3])], None, (Y,)),
        ("no_update", [], None, (Y, W, "rows", "empty")),
        ("empty_chunk", [([], [])], None, (Y, S, W, "rows", "empty")),
        ("chunk_mismatch", [([0, 1], [0.1])], None, (Y, S)),
    ]
    for tag, chunks, pos, names in bad:
        out.append(_err("Accumulator", tag, lambda chunks=chunks, pos=pos: (
            run, (chunks, pos), {}), *names))
    for tag, v in (("int", 5), ("none", None), ("array", "ARR")):
        out.append(_err("Accumulator.add_table", tag, lambda v=v: (
            Accumulator().add_table, (np.ones(3) if v == "ARR" else v,), {}), "table"))
        out.append(_err("Accumulator.merge", tag, lambda v=v: (
            Accumulator().merge, (np.ones(3) if v == "ARR" else v,), {}), "other"))
    for tag, levels in BAD_LEVELS:
        if tag == "gen_bad":
            continue

        def make(levels=levels) -> Any:
            acc = Accumulator()
            acc.update(*_rows()[:2])
            return acc.result, (levels,), {}
        out.append(_err("Accumulator.result", f"levels={tag}", make, "levels"))
    out.append(_err("Accumulator", "pos_label_unhashable", lambda: (
        run, ([(np.array(["a", "b"]), [0.1, 0.9])], ["b"]), {}), "pos_label"))

    def merged() -> Any:
        a, b = Accumulator(), Accumulator()
        a.update([0, 1], [0.1, 0.9])
        b.update([-1, 1], [0.4, 0.5])
        return a.merge(b).result()
    out.append(_err("Accumulator.merge", "coding_change", lambda: (merged, (), {}), Y, "other"))

    def table_coding() -> Any:
        a = Accumulator()
        a.update([0, 1], [0.1, 0.9])
        a.add_table(ScoreTable.from_arrays([-1, 1], [0.4, 0.5]))
        return a.result()
    out.append(_either("Accumulator.add_table", "pm1_table", lambda: (table_coding, (), {}),
                       (Y, "table"), lambda r: check_report(Oracle((
                           np.array([False, True, False, True]),
                           np.array([0.1, 0.9, 0.4, 0.5]), None)), r)))

    def roundtrip() -> Any:
        a = Accumulator()
        a.update(*_rows()[:2])
        return pickle.loads(pickle.dumps(a)).result()
    out.append(_ok("Accumulator", "pickle_roundtrip", lambda: (roundtrip, (), {}),
                   lambda r: check_report(_oracle(), r)))
    return out


def window_cases() -> list[Case]:
    from indist_fast import Window
    out: list[Case] = []

    def run(batches: list[tuple[Any, ...]], size: Any = 3, duration: Any = None,
            pos_label: Any = None, t: Any = None) -> Any:
        window = Window(size=size, duration=duration, pos_label=pos_label)
        for i, batch in enumerate(batches):
            window.update(*batch, t=None if t is None else t[i])
        return window.report()

    valid = [
        ("last_rows", [([0, 1, 1], [0.1, 0.9, 0.4]), ([0, 1], [0.5, 0.2])], {"size": 4},
         ([1, 1, 0, 1], [0.9, 0.4, 0.5, 0.2], None)),
        ("batch_past_size", [([1, 0, 1, 0, 1, 0], [0.9, 0.8, 0.1, 0.2, 0.3, 0.4])], {"size": 4},
         ([1, 0, 1, 0], [0.1, 0.2, 0.3, 0.4], None)),
        ("weighted_ties", [([0, 1], [0.5, 0.5], [1.0, 2.0]), ([1, 0], [0.5, 0.2], [0.0, 3.0])],
         {"size": 3}, ([1, 1, 0], [0.5, 0.5, 0.2], [2.0, 0.0, 3.0])),
        ("duration", [([0, 1], [0.2, 0.8]), ([1, 0], [0.3, 0.6])],
         {"size": None, "duration": 10.0, "t": [0.0, [5.0, 12.0]]},
         ([1, 0], [0.3, 0.6], None)),
        ("str_pos_label", [(["a", "b"], [0.1, 0.9]), (["b", "a"], [0.4, 0.5])],
         {"size": 3, "pos_label": "b"}, ([1, 1, 0], [0.9, 0.4, 0.5], None)),
    ]
    for tag, batches, kw, held in valid:
        out.append(_ok("Window", tag, lambda batches=batches, kw=kw: (run, (batches,), kw),
                       lambda r, held=held: check_report(Oracle((
                           np.asarray(held[0]) == 1, np.asarray(held[1], float),
                           None if held[2] is None else np.asarray(held[2], float))), r)))
    bad = [
        ("01_then_pm1", [([0, 1], [0.1, 0.9]), ([-1, 1], [0.4, 0.5])], {}, (Y,)),
        ("third_label", [([0, 1], [0.1, 0.9]), ([2, 1], [0.4, 0.5])], {}, (Y,)),
        ("nan_score", [([0, 1], [0.1, NAN])], {}, (S,)),
        ("neg_weight", [([0, 1], [0.1, 0.9], [1.0, -1.0])], {}, (W,)),
        ("weights_then_none", [([0, 1], [0.1, 0.9], [1.0, 1.0]), ([0, 1], [0.1, 0.9])], {},
         (W,)),
        ("one_class", [([1, 1], [0.1, 0.9])], {}, (Y,)),
        ("no_rows", [], {}, ("rows",)),
        ("mismatch", [([0, 1], [0.1])], {}, (Y, S)),
        ("size_zero", [], {"size": 0}, ("size",)),
        ("size_float", [], {"size": 2.5}, ("size",)),
        ("no_size_no_duration", [], {"size": None}, ("size", "duration")),
        ("duration_negative", [], {"size": None, "duration": -1.0}, ("duration",)),
        ("duration_nan", [], {"size": None, "duration": NAN}, ("duration",)),
        ("duration_without_t", [([0, 1], [0.1, 0.9])], {"size": None, "duration": 5.0},
         ("t",)),
        ("t_backwards", [([0, 1], [0.1, 0.9]), ([0, 1], [0.2, 0.3])],
         {"size": None, "duration": 5.0, "t": [[3.0, 4.0], 1.0]}, ("t",)),
        ("t_nan", [([0, 1], [0.1, 0.9])], {"t": [NAN]}, ("t",)),
        ("t_text", [([0, 1], [0.1, 0.9])], {"t": ["noon"]}, ("t",)),
        ("t_length", [([0, 1], [0.1, 0.9])], {"t": [[1.0, 2.0, 3.0]]}, ("t",)),
        ("pos_label_list", [], {"pos_label": [1]}, ("pos_label",)),
    ]
    for tag, batches, kw, names in bad:
        out.append(_err("Window", tag, lambda batches=batches, kw=kw: (run, (batches,), kw),
                        *names))
    for tag, v in (("int", 5), ("none", None), ("count_window", "COUNT")):
        def merge(v=v) -> Any:
            other = Window(size=3) if v == "COUNT" else v
            return Window(duration=5.0).merge, (other,), {}
        out.append(_err("Window.merge", tag, merge, "other", "merge"))

    def roundtrip() -> Any:
        window = Window(size=100)
        window.update(*_rows()[:2])
        return pickle.loads(pickle.dumps(window)).report()
    out.append(_ok("Window", "pickle_roundtrip", lambda: (roundtrip, (), {}),
                   lambda r: check_report(_oracle(), r)))
    return out


def frame_cases() -> list[Case]:
    import indist_fast as ifa
    out: list[Case] = []
    o, ow = _oracle(), _oracle(True)

    def pandas(**over: Any) -> Any:
        import pandas as pd
        y, s, w = _rows(True)
        cols = {"y": y, "p": s, "w": w}
        cols.update(over)
        return pd.DataFrame(cols)

    def polars(**over: Any) -> Any:
        import polars as pl
        y, s, w = _rows(True)
        cols = {"y": y, "p": s, "w": w}
        cols.update(over)
        return pl.DataFrame(cols)

    def arrow(**over: Any) -> Any:
        import pyarrow as pa
        y, s, w = _rows(True)
        cols = {"y": y, "p": s, "w": w}
        cols.update(over)
        return pa.table(cols)

    def nulls(kind: str, col: str) -> Any:
        y, s, w = _rows(True)
        if kind == "pandas":
            import pandas as pd
            d = {"y": pd.array(y, dtype="Int64"), "p": pd.array(s, dtype="Float64"),
                 "w": pd.array(w, dtype="Float64")}
            d[col] = d[col].copy()
            d[col][3] = pd.NA
            return pd.DataFrame(d)
        vals = {"y": y.tolist(), "p": s.tolist(), "w": w.tolist()}
        vals[col][3] = None
        if kind == "polars":
            import polars as pl
            return pl.DataFrame(vals)
        import pyarrow as pa
        return pa.table(vals)

    fns = {"evaluate": (ifa.evaluate, lambda r, oo: check_report(oo, r)),
           "curves": (ifa.curves, lambda c, oo: check_curves(oo, c)),
           "roc_auc": (ifa.roc_auc, lambda v, oo: expect_close("auc", v, oo.auc())),
           "average_precision": (ifa.average_precision,
                                 lambda v, oo: expect_close("ap", v, oo.average_precision())),
           "indistinguishability_threshold": (ifa.indistinguishability_threshold, None),
           "precision_at_indistinguishability": (ifa.precision_at_indistinguishability, None)}
    for fname, (fn, chk) in fns.items():
        for lib, mk in (("pandas", pandas), ("polars", polars), ("pyarrow", arrow)):
            for weighted in (False, True):
                oo = ow if weighted else o
                out.append(_ok(fname, f"frame_{lib}{'_weighted' if weighted else ''}",
                               lambda fn=fn, mk=mk, weighted=weighted: (fn, (mk(),), {
                                   "label": "y", "score": "p",
                                   "weight": "w" if weighted else None}),
                               None if chk is None else (lambda v, chk=chk, oo=oo: chk(v, oo))))
            for col, names in (("y", (Y, "label")), ("p", (S, "score")),
                               ("w", (W, "weight"))):
                out.append(_err(fname, f"frame_{lib}_null_{col}",
                                lambda fn=fn, lib=lib, col=col: (
                                    fn, (nulls(lib, col),), {"label": "y", "score": "p",
                                                             "weight": "w"}), *names))
            out.append(_err(fname, f"frame_{lib}_missing_label", lambda fn=fn, mk=mk: (
                fn, (mk(),), {"label": "label", "score": "p"}), "label"))
            out.append(_err(fname, f"frame_{lib}_missing_weight", lambda fn=fn, mk=mk: (
                fn, (mk(),), {"label": "y", "score": "p", "weight": "weight"}), "weight"))
            out.append(_err(fname, f"frame_{lib}_string_scores", lambda fn=fn, mk=mk: (
                fn, (mk(p=np.array(["a"] * 12)),), {"label": "y", "score": "p"}),
                S, "score"))
            out.append(_err(fname, f"frame_{lib}_three_labels", lambda fn=fn, mk=mk: (
                fn, (mk(y=np.arange(12) % 3),), {"label": "y", "score": "p"}), Y, "label"))
        for tag, args, kw, names in (
                ("frame_label_without_table", (_rows()[0],), {"label": "y", "score": "p"},
                 ("label", "table", "y_true")),
                ("frame_label_only", ("PD",), {"label": "y"}, ("score",)),
                ("frame_score_only", ("PD",), {"score": "p"}, ("label",)),
                ("frame_weight_only", ("PD",), {"weight": "w"}, ("label", "score")),
                ("frame_and_y_score", ("PD", _rows()[1]), {"label": "y", "score": "p"},
                 ("y_score",)),
                ("frame_label_int", ("PD",), {"label": 0, "score": "p"}, ("label",)),
                ("frame_label_list", ("PD",), {"label": ["y"], "score": "p"}, ("label",)),
                ("frame_without_columns", ("PD",), {}, ("y_score", "label", "score")),
                ("frame_empty", ("EMPTY",), {"label": "y", "score": "p"}, (Y, S))):
            def make(fn=fn, args=args, kw=kw) -> Any:
                import pandas as pd
                a = tuple(pandas() if isinstance(x, str) and x == "PD" else
                          pd.DataFrame({"y": [], "p": []}) if isinstance(x, str) and
                          x == "EMPTY" else x for x in args)
                return fn, a, kw
            out.append(_err(fname, tag, make, *names))
        # a dict of columns may be taken as a table or refused
        out.append(_either(fname, "frame_dict", lambda fn=fn: (
            fn, ({"y": [0, 1, 0, 1], "p": [0.1, 0.2, 0.3, 0.4]},), {"label": "y", "score": "p"}),
            ("label", "table", "y_true"), None))
        # label columns of other types
        for tag, over, pos, positive in (
                ("bool_labels", {"y": _rows()[0] == 1}, None, _rows()[0] == 1),
                ("str_labels", {"y": np.where(_rows()[0] == 1, "x", "o")}, "x",
                 _rows()[0] == 1),
                ("pm1_labels", {"y": _rows()[0] * 2 - 1}, None, _rows()[0] == 1)):
            for lib, mk in (("pandas", pandas), ("polars", polars), ("pyarrow", arrow)):
                oo = Oracle((positive, _rows()[1].astype(float), None))
                out.append(_ok(fname, f"frame_{lib}_{tag}",
                               lambda fn=fn, mk=mk, over=over, pos=pos: (fn, (mk(**over),), {
                                   "label": "y", "score": "p", "pos_label": pos}),
                               None if chk is None else (lambda v, chk=chk, oo=oo: chk(v, oo))))
        import pandas as pd
        out.append(_ok(fname, "frame_pandas_categorical_labels", lambda fn=fn: (
            fn, (pandas(y=pd.Categorical(np.where(_rows()[0] == 1, "x", "o"))),),
            {"label": "y", "score": "p", "pos_label": "x"}),
            None if chk is None else (lambda v, chk=chk: chk(v, o))))
        out.append(_ok(fname, "frame_pyarrow_dictionary_labels", lambda fn=fn: (
            fn, (arrow(y=__import__("pyarrow").array(
                np.where(_rows()[0] == 1, "x", "o")).dictionary_encode()),),
            {"label": "y", "score": "p", "pos_label": "x"}),
            None if chk is None else (lambda v, chk=chk: chk(v, o))))
    return out


def resolving_power_cases() -> list[Case]:
    from indist_fast.metrics import resolving_power as rp
    out: list[Case] = []
    B = rp.Binormal
    for tag, args, names in (("mu_nan", (NAN,), ("mu",)), ("mu_inf", (INF,), ("mu",)),
                             ("mu_str", ("1",), ("mu",)), ("mu_none", (None,), ("mu",)),
                             ("sigma_zero", (1.0, 0.0), ("sigma",)),
                             ("sigma_neg", (1.0, -1.0), ("sigma",)),
                             ("sigma_nan", (1.0, NAN), ("sigma",)),
                             ("sigma_str", (1.0, "1"), ("sigma",)),
                             ("mu_complex", (1j,), ("mu",)), ("mu_list", ([1.0],), ("mu",))):
        out.append(_err("resolving_power.Binormal", tag, lambda args=args: (B, args, {}), *names))
    for tag, args, names in (("auc_zero", (0.0,), ("auc",)), ("auc_one", (1.0,), ("auc",)),
                             ("auc_nan", (NAN,), ("auc",)), ("auc_str", ("0.8",), ("auc",)),
                             ("auc_above", (1.5,), ("auc",)), ("auc_none", (None,), ("auc",)),
                             ("sigma_zero", (0.8, 0.0), ("sigma",)),
                             ("sigma_neg", (0.8, -2.0), ("sigma",)),
                             ("sigma_inf", (0.8, INF), ("sigma",)),
                             ("sigma_str", (0.8, "x"), ("sigma",))):
        out.append(_err("resolving_power.Binormal.for_auc", tag, lambda args=args: (
            B.for_auc, args, {}), *names))
    for auc, sigma in ((0.8, 1.0), (0.5, 2.0), (0.999, 0.5), (0.2, 1.0), (1e-9, 1.0)):
        out.append(_ok("resolving_power.Binormal.for_auc", f"valid_{auc}_{sigma}",
                       lambda auc=auc, sigma=sigma: (B.for_auc, (auc, sigma), {}),
                       lambda m, auc=auc: expect_close("auc", m.auc, auc, rtol=1e-9)))
    m = lambda: B.for_auc(0.8)
    rng = lambda: np.random.default_rng(0)
    for tag, args, names in (("n_zero", (0, 0.3), ("n",)), ("n_float", (10.5, 0.3), ("n",)),
                             ("n_str", ("10", 0.3), ("n",)), ("n_huge", (10**13, 0.3), ("n",)),
                             ("prev_zero", (10, 0.0), ("prevalence",)),
                             ("prev_one", (10, 1.0), ("prevalence",)),
                             ("prev_nan", (10, NAN), ("prevalence",)),
                             ("prev_str", (10, "0.3"), ("prevalence",)),
                             ("prev_tiny", (10, 0.01), ("prevalence", "n")),
                             ("rng_float", (10, 0.3, 5.5), ("rng",)),
                             ("rng_str", (10, 0.3, "seed"), ("rng",)),
                             ("rng_negative", (10, 0.3, -1), ("rng",))):
        def make(args=args) -> Any:
            a = args if len(args) == 3 else (*args, rng())
            return m().sample, a, {}
        out.append(_err("resolving_power.Binormal.sample", tag, make, *names))
    for meth, args, names in (
            ("precision", (0.0, 0.0), ("prevalence",)), ("precision", (0.0, 1.5), ("prevalence",)),
            ("precision", (NAN, 0.3), ("r",)), ("precision", ("x", 0.3), ("r",)),
            ("b", (0.0, NAN), ("prevalence",)), ("b", (NAN, 0.3), ("r",)),
            ("b", (0.0, -1.0), ("prevalence",)), ("b_plus", (0.0, 2.0), ("prevalence",)),
            ("indistinguishability_threshold", (0.0,), ("prevalence",)),
            ("indistinguishability_threshold", (0.3, 1.5), ("level",)),
            ("indistinguishability_threshold", (NAN,), ("prevalence",)),
            ("precision_at_indistinguishability", (1.0,), ("prevalence",)),
            ("precision_at_indistinguishability", (0.3, 0.0), ("level",)),
            ("average_precision", (0.0,), ("prevalence",)),
            ("average_precision", ("x",), ("prevalence",)),
            ("population", ("nope", 0.3), ("metric",)),
            ("population", ("auc", NAN), ("prevalence",)),
            ("population", ("precision", 5), ("prevalence",))):
        out.append(_err(f"resolving_power.Binormal.{meth}", "_".join(map(str, args)),
                        lambda meth=meth, args=args: (getattr(m(), meth), args, {}), *names))
    for r in (-INF, -3.0, 0.0, 2.5, INF):
        out.append(_ok("resolving_power.Binormal.precision", f"r={r}",
                       lambda r=r: (m().precision, (r, 0.3), {}),
                       lambda v: expect_probability("precision", v, nan_ok=True)))
        out.append(_ok("resolving_power.Binormal.b", f"r={r}", lambda r=r: (m().b, (r, 0.3), {}),
                       lambda v: expect_probability("B", v, nan_ok=True)))
    out.append(_ok("resolving_power.Binormal.b", "b(-inf)=pi1/2+pi0*A",
                   lambda: (m().b, (-INF, 0.3), {}),
                   lambda v: expect_close("B(-inf)", v, 0.15 + 0.7 * 0.8, rtol=1e-7)))
    # Empirical
    E = rp.Empirical
    e = lambda: E(*_rows()[:2])
    for meth, args, names in (
            ("gap", (0,), ("k",)), ("gap", (-1,), ("k",)), ("gap", (1.5,), ("k",)),
            ("gap", ("1",), ("k",)), ("gap", (10**6,), ("k",)), ("increment", (0,), ("k",)),
            ("increment", (True,), ("k",)), ("increment", (None,), ("k",)),
            ("increment_for_auc", (NAN,), ("auc",)), ("increment_for_auc", (2.0,), ("auc",)),
            ("increment_for_auc", (-1.0,), ("auc",)), ("increment_for_auc", ("x",), ("auc",)),
            ("auc", ("x",), ("delta",)), ("auc", (NAN,), ("delta",)),
            ("scores", ("x",), ("delta",)), ("count_wins", ("x",), ("d",))):
        out.append(_err(f"resolving_power.Empirical.{meth}", "_".join(map(str, args)),
                        lambda meth=meth, args=args: (getattr(e(), meth), args, {}), *names))
    for tag, y, s in (("inf_scores", [0, 1, 0, 1], [INF, -INF, 0.5, 0.2]),
                      ("inf_negative_top", [0, 1, 0, 1], [INF, 0.3, 0.1, 0.2]),
                      ("neg_inf_positive", [0, 1, 0, 1], [0.4, -INF, 0.1, 0.9]),
                      ("huge_gap", [0, 1], [1e308, -1e308])):
        def check(d: Any, y=y, s=s) -> None:
            d = float(d)
            ee = E(y, s)
            if not (d > 0 and math.isfinite(d) and ee.auc(d) > ee.auc(0.0)):
                raise Wrong(f"increment {d!r} does not raise the AUROC")
        out.append(_either("resolving_power.Empirical.increment", tag,
                           lambda y=y, s=s: (lambda: E(y, s).increment(1), (), {}),
                           ("k", "y_score", "increment"), check))
        out.append(_either("resolving_power.Empirical.increment_for_auc", tag,
                           lambda y=y, s=s: (lambda: E(y, s).increment_for_auc(0.99), (), {}),
                           ("auc", "y_score"), lambda d: None if math.isfinite(float(d))
                           else _throw(f"increment {d!r}")))
    out.append(_err("resolving_power.Empirical", "weights_kwarg", lambda: (
        E, _rows()[:2], {"sample_weight": _weights(12)}), "sample_weight"))
    for tag, scale in (("str", "logit"), ("none", None), ("int", 1)):
        out.append(_err("resolving_power.Empirical", f"scale={tag}", lambda scale=scale: (
            E, _rows()[:2], {"scale": scale}), "scale"))
    for tag, progress in (("str", "yes"), ("int", 2), ("array", np.ones(2))):
        out.append(_err("resolving_power.noise", f"progress={tag}", lambda p=progress: (
            rp.noise, (e(),), {"n_rep": 5, "progress": p}), "progress"))
        out.append(_err("resolving_power.signal_curve", f"progress={tag}", lambda p=progress: (
            rp.signal_curve, (e(),), {"grid": np.linspace(0.7, 0.9, 5), "progress": p}),
            "progress"))
        out.append(_err("resolving_power.compare_metrics", f"progress={tag}",
                        lambda p=progress: (rp.compare_metrics, (e(),),
                                            {"n_rep": 5, "progress": p}), "progress"))
    # signal_curve, noise, resolution, compare_metrics
    grid = lambda: np.linspace(0.7, 0.9, 5)
    for tag, model in (("str", "model"), ("int", 5), ("none", None), ("array", "ARR")):
        mv = lambda model=model: np.ones(3) if model == "ARR" else model
        out.append(_err("resolving_power.signal_curve", f"model={tag}", lambda mv=mv: (
            rp.signal_curve, (mv(),), {"grid": grid(), "prevalence": 0.3}), "model"))
        out.append(_err("resolving_power.noise", f"model={tag}", lambda mv=mv: (
            rp.noise, (mv(),), {"n": 50, "prevalence": 0.3, "n_rep": 5}), "model"))
        out.append(_err("resolving_power.compare_metrics", f"model={tag}", lambda mv=mv: (
            rp.compare_metrics, (mv(),), {"n": 50, "prevalence": 0.3, "n_rep": 5, "grid": grid()}),
            "model"))
    for tag, g in (("one", [0.5]), ("decreasing", [0.6, 0.5]), ("bounds", [0.0, 1.0]),
                   ("str", "x"), ("nan", [0.5, NAN]), ("2d", [[0.5, 0.6]]), ("dupes", [0.6, 0.6]),
                   ("none_binormal_no_prev", None)):
        kw = {"grid": g, "prevalence": 0.3} if tag != "none_binormal_no_prev" else {}
        out.append(_err("resolving_power.signal_curve", f"grid={tag}", lambda kw=kw: (
            rp.signal_curve, (m(),), kw), "grid" if "grid" in kw else "prevalence"))
    for tag, metrics in (("unknown", ["nope"]), ("int", [5]), ("none", None), ("dict_int",
                                                                                 {"a": 1})):
        out.append(_err("resolving_power.signal_curve", f"metrics={tag}",
                        lambda metrics=metrics: (rp.signal_curve, (e(), metrics),
                                                 {"grid": grid()}), "metrics"))
        out.append(_err("resolving_power.compare_metrics", f"metrics={tag}", lambda metrics=metrics: (
            rp.compare_metrics, (e(), metrics), {"n_rep": 5, "grid": grid()}), "metrics"))
    for tag, prev in (("zero", 0.0), ("one", 1.0), ("nan", NAN), ("str", "x"), ("neg", -0.2)):
        out.append(_err("resolving_power.signal_curve", f"prevalence={tag}", lambda prev=prev: (
            rp.signal_curve, (m(),), {"grid": grid(), "prevalence": prev}), "prevalence"))
        out.append(_err("resolving_power.compare_metrics", f"prevalence={tag}", lambda prev=prev: (
            rp.compare_metrics, (m(),), {"n": 50, "prevalence": prev, "n_rep": 5, "grid": grid()}),
            "prevalence"))
    for tag, n in BAD_COUNT:
        if tag in ("float_int",):
            continue
        out.append(_err("resolving_power.noise", f"n_rep={tag}", lambda n=n: (
            rp.noise, (e(),), {"n_rep": n}), "n_rep"))
        out.append(_err("resolving_power.compare_metrics", f"n_rep={tag}", lambda n=n: (
            rp.compare_metrics, (e(),), {"n_rep": n, "grid": grid()}), "n_rep"))
        out.append(_err("resolving_power.noise", f"n={tag}", lambda n=n: (
            rp.noise, (m(),), {"n": n, "prevalence": 0.3, "n_rep": 5}), "n"))
    for tag, seed in BAD_SEED:
        out.append(_err("resolving_power.noise", f"seed={tag}", lambda seed=seed: (
            rp.noise, (e(),), {"n_rep": 5, "seed": seed}), "seed"))
    for tag, c in (("zero", 0.0), ("one", 1.0), ("nan", NAN), ("str", "x")):
        out.append(_err("resolving_power.compare_metrics", f"confidence={tag}", lambda c=c: (
            rp.compare_metrics, (e(),), {"n_rep": 5, "grid": grid(), "confidence": c}), "confidence"))

    def sig_noise() -> tuple[Any, Any]:
        return rp.signal_curve(e(), grid=grid()), rp.noise(e(), n_rep=20, seed=0)
    for tag, args, kw, names in (
            ("signal_str", ("x", "NOISE", "auc"), {"at_auc": 0.8}, ("signal",)),
            ("noise_str", ("SIG", "x", "auc"), {"at_auc": 0.8}, ("noise",)),
            ("metric_missing", ("SIG", "NOISE", "f1"), {"at_auc": 0.8}, ("metric",)),
            ("at_auc_nan", ("SIG", "NOISE", "auc"), {"at_auc": NAN}, ("at_auc",)),
            ("at_auc_str", ("SIG", "NOISE", "auc"), {"at_auc": "x"}, ("at_auc",)),
            ("confidence_bad", ("SIG", "NOISE", "auc"), {"at_auc": 0.8, "confidence": 2},
             ("confidence",))):
        for fn_name in ("resolution", "resolving_power"):
            def make(args=args, kw=kw, fn_name=fn_name) -> Any:
                sig, noi = sig_noise()
                a = tuple(sig if x == "SIG" else noi if x == "NOISE" else x for x in args)
                return getattr(rp, fn_name), a, kw
            out.append(_err(f"resolving_power.{fn_name}", tag, make, *names))
    # valid runs (small)
    out.append(_ok("resolving_power.compare_metrics", "empirical_small", lambda: (
        rp.compare_metrics, (E(*_base(40, 2)),), {"n_rep": 20, "seed": 0,
                                          "grid": np.linspace(0.55, 0.95, 5)}),
        lambda t: expect_probabilities("intervals", [r.interval for r in t.rows],
                                       nan_ok=False)))
    out.append(_ok("resolving_power.compare_metrics", "binormal_small", lambda: (
        rp.compare_metrics, (B.for_auc(0.8),), {"n": 200, "prevalence": 0.3, "n_rep": 10, "seed": 0,
                                       "grid": np.linspace(0.7, 0.9, 4),
                                       "metrics": ("auc", "average_precision")}),
        lambda t: expect_probabilities("intervals", [r.interval for r in t.rows],
                                       nan_ok=False), slow=True))
    out.append(_ok("resolving_power.signal_curve", "empirical_callable", lambda: (
        rp.signal_curve, (e(), {"n": lambda t: float(len(t))}), {"grid": grid()}),
        lambda sc: expect_probabilities("auc", sc.auc, nan_ok=False)))
    # a callable on the binormal model: measured on a simulated sample per grid model
    out.append(_ok("resolving_power.signal_curve", "binormal_callable", lambda: (
        rp.signal_curve, (m(), {"n": lambda t: float(t.n_rows)}),
        {"grid": grid(), "prevalence": 0.3, "signal_n": 500, "seed": 0}),
        lambda sc: None if np.array_equal(sc.values["n"], np.full(5, 500.0))
        else _throw(f"signal of n_rows {sc.values['n']!r}")))
    for tag, n in BAD_COUNT:
        if tag in ("float_int", "none"):        # None: the default sample size
            continue
        out.append(_err("resolving_power.signal_curve", f"signal_n={tag}", lambda n=n: (
            rp.signal_curve, (m(), {"n": lambda t: 1.0}),
            {"grid": grid(), "prevalence": 0.3, "signal_n": n}), "signal_n"))
        out.append(_err("resolving_power.compare_metrics", f"signal_n={tag}", lambda n=n: (
            rp.compare_metrics, (m(),), {"n": 50, "prevalence": 0.3, "n_rep": 5, "grid": grid(),
                                 "signal_n": n}), "signal_n"))
    return out


# scikit-learn's own input validation (check_estimator requires its messages) speaks of
# "Input", "array", "samples" and "features" rather than of X and y.
SK_WORDS = ("Input", "input", "array", "samples", "features", "dtype")


def sklearn_cases() -> list[Case]:
    out: list[Case] = []

    def data(n: int = 40, classes: int = 2, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
        rng = np.random.default_rng(seed)
        X = rng.normal(size=(n, 3))
        y = (X[:, 0] + rng.normal(size=n) > 0).astype(int)
        if classes == 3:
            y[:5] = 2
        return X, y

    def clf(**kw: Any) -> Any:
        from sklearn.linear_model import LogisticRegression
        from indist_fast.sklearn import IndistinguishabilityThresholdClassifier
        return IndistinguishabilityThresholdClassifier(
            kw.pop("estimator", LogisticRegression()), **kw)

    def fit_check(c: Any) -> None:
        if not (math.isinf(c.threshold_) or math.isfinite(c.threshold_)):
            raise Wrong(f"threshold_ {c.threshold_!r}")
        X, y = data()
        if set(np.unique(c.predict(X))) - set(c.classes_):
            raise Wrong("predict returns labels outside classes_")

    for tag, kw in (("default", {}), ("cv3", {"cv": 3}), ("level0.4", {"level": 0.4}),
                    ("proba", {"response_method": "predict_proba"})):
        out.append(_ok("sklearn.IndistinguishabilityThresholdClassifier", tag, lambda kw=kw: (
            lambda: clf(**kw).fit(*data()), (), {}), fit_check, backends=False))
    for tag, kw, names in (("level_zero", {"level": 0}, ("level",)),
                           ("level_above1", {"level": 1.5}, ("level",)),
                           ("level_str", {"level": "x"}, ("level",)),
                           ("level_nan", {"level": NAN}, ("level",)),
                           ("cv_one", {"cv": 1}, ("cv", "n_splits")),
                           ("cv_str", {"cv": "x"}, ("cv",)),
                           ("response_bad", {"response_method": "x"}, ("response_method",)),
                           ("estimator_str", {"estimator": "x"}, ("estimator",)),
                           ("estimator_none", {"estimator": None}, ("estimator",))):
        out.append(_err("sklearn.IndistinguishabilityThresholdClassifier", tag, lambda kw=kw: (
            lambda: clf(**kw).fit(*data()), (), {}), *names, backends=False))
    for tag, make_xy, names in (
            ("X_nan", lambda: (np.r_[[[NAN, 0, 0]], data()[0][1:]], data()[1]), ("X",)),
            ("X_str", lambda: (np.full((40, 3), "a"), data()[1]), ("X",)),
            ("y_multiclass", lambda: data(classes=3), ("y",)),
            ("y_one_class", lambda: (data()[0], np.ones(40, int)), ("y",)),
            ("y_continuous", lambda: (data()[0], data()[0][:, 0]), ("y",)),
            ("y_short", lambda: (data()[0], data()[1][:-1]), ("y", "X")),
            ("X_1d", lambda: (data()[0][:, 0], data()[1]), ("X",))):
        out.append(_err("sklearn.IndistinguishabilityThresholdClassifier.fit", tag,
                        lambda make_xy=make_xy: (lambda: clf(cv=3).fit(*make_xy()), (), {}),
                        *names, *SK_WORDS, backends=False))
    for tag, w, names in (("negative", -np.ones(40), ("sample_weight",)),
                          ("nan", np.r_[NAN, np.ones(39)], ("sample_weight",)),
                          ("short", np.ones(39), ("sample_weight",))):
        out.append(_err("sklearn.IndistinguishabilityThresholdClassifier.fit",
                        f"sample_weight_{tag}", lambda w=w: (
                            lambda: clf(cv=3).fit(*data(), sample_weight=w), (), {}),
                        *names, *SK_WORDS, backends=False))
    out.append(_ok("sklearn.IndistinguishabilityThresholdClassifier.fit", "str_labels",
                   lambda: (lambda: clf(cv=3).fit(data()[0], np.where(data()[1] == 1, "b", "a")),
                            (), {}), lambda c: None if list(c.classes_) == ["a", "b"]
                   else _throw("classes_"), backends=False))
    out.append(_err("sklearn.IndistinguishabilityThresholdClassifier.predict", "wrong_width",
                    lambda: (lambda: clf(cv=3).fit(*data()).predict(np.ones((4, 2))), (), {}),
                    "X", "features", backends=False))
    return out


def dask_cases() -> list[Case]:
    out: list[Case] = []

    def idask() -> Any:
        import indist_fast.dask as m
        return m

    def ddf(npartitions: int = 3, **over: Any) -> Any:
        import dask.dataframe as dd
        import pandas as pd
        y, s, w = _rows(True)
        cols = {"y": y, "p": s, "w": w}
        cols.update(over)
        return dd.from_pandas(pd.DataFrame(cols), npartitions=npartitions)

    def darr(a: Any, chunks: int = 5) -> Any:
        import dask.array as da
        return da.from_array(np.asarray(a), chunks=chunks)

    kw = {"label": "y", "score": "p"}
    for tag, args, kwargs, names in (
            ("collection_int", (5,), {}, ("collection",)),
            ("collection_none", (None,), {}, ("collection",)),
            ("collection_str", ("data",), {}, ("collection",)),
            ("collection_1_tuple", ("T1",), {}, ("collection",)),
            ("collection_4_tuple", ("T4",), {}, ("collection",)),
            ("collection_numpy_tuple", ("TNP",), {}, ("collection",)),
            ("collection_pandas", ("PD",), kw, ("collection",)),
            ("collection_list", ("LIST",), {}, ("collection",)),
            ("frame_without_columns", ("DDF",), {}, ("label", "score")),
            ("frame_missing_label", ("DDF",), {"label": "q", "score": "p"}, ("label",)),
            ("frame_missing_weight", ("DDF",), {**kw, "weight": "q"}, ("weight",)),
            ("arrays_with_label", ("TDA",), kw, ("label", "score", "collection")),
            ("arrays_length_mismatch", ("TMIS",), {}, (Y, S)),
            ("n_ranges_zero", ("DDF",), {**kw, "n_ranges": 0}, ("n_ranges",)),
            ("n_ranges_neg", ("DDF",), {**kw, "n_ranges": -2}, ("n_ranges",)),
            ("n_ranges_str", ("DDF",), {**kw, "n_ranges": "3"}, ("n_ranges",)),
            ("n_ranges_float", ("DDF",), {**kw, "n_ranges": 2.5}, ("n_ranges",)),
            ("n_ranges_huge", ("DDF",), {**kw, "n_ranges": 10**9}, ("n_ranges",)),
            ("sample_zero", ("DDF",), {**kw, "sample_per_partition": 0},
             ("sample_per_partition",)),
            ("sample_neg", ("DDF",), {**kw, "sample_per_partition": -1},
             ("sample_per_partition",)),
            ("sample_str", ("DDF",), {**kw, "sample_per_partition": "x"},
             ("sample_per_partition",)),
            ("levels_bad", ("DDF",), {**kw, "levels": [2]}, ("levels",)),
            ("coding_change_across_partitions", ("CODING",), kw, (Y,)),
            ("one_class", ("ONECLASS",), kw, (Y,)),
            ("string_scores", ("STRS",), kw, (S, "score")),
            ("nan_score", ("NANS",), kw, (S,)),
            ("exclude_self_str", ("DDF",), {**kw, "exclude_self": "no"}, ("exclude_self",))):
        def make(args=args, kwargs=kwargs) -> Any:
            import pandas as pd
            y, s, w = _rows(True)
            build = {"T1": lambda: (darr(y),), "T4": lambda: (darr(y), darr(s), darr(w), darr(w)),
                     "TNP": lambda: (y, s), "PD": lambda: pd.DataFrame({"y": y, "p": s}),
                     "LIST": lambda: [darr(y), darr(s)], "DDF": lambda: ddf(),
                     "TDA": lambda: (darr(y), darr(s)),
                     "TMIS": lambda: (darr(y), darr(s[:-2])),
                     "CODING": lambda: ddf(y=np.r_[np.array([0, 1, 0, 1]), np.array([-1, 1] * 4)],
                                           npartitions=2),
                     "ONECLASS": lambda: ddf(y=np.ones(12, int)),
                     "STRS": lambda: ddf(p=np.array(["a"] * 12)),
                     "NANS": lambda: ddf(p=np.r_[NAN, s[1:]])}
            a = tuple(build[x]() if isinstance(x, str) and x in build else x for x in args)
            return idask().evaluate, a, kwargs
        out.append(_err("dask.evaluate", tag, make, *names, backends=False))
    o, ow = _oracle(), _oracle(True)
    for tag, npart, n_ranges, weighted in (("one_partition", 1, None, False),
                                           ("twelve_partitions", 12, None, True),
                                           ("n_ranges_1", 3, 1, False),
                                           ("n_ranges_20", 3, 20, True)):
        out.append(_ok("dask.evaluate", tag, lambda npart=npart, n_ranges=n_ranges,
                       weighted=weighted: (idask().evaluate, (ddf(npart),), {
                           **kw, "weight": "w" if weighted else None, "n_ranges": n_ranges}),
                       lambda r, weighted=weighted: check_report(ow if weighted else o, r),
                       backends=False))
    return out


def plot_cases() -> list[Case]:
    out: list[Case] = []

    def ip() -> Any:
        import indist_fast.plot as m
        return m

    def axes_ok(ax: Any) -> None:
        if not hasattr(ax, "plot") and not hasattr(ax, "savefig"):
            raise Wrong(f"returned {type(ax).__name__}")

    for fn in ("scores_by_class", "roc", "b_curve", "c_tpr_fpr_vs_b", "b_split", "cost_curves"):
        for tag, val in (("str", "axes"), ("int", 5), ("array", "ARR")):
            out.append(_err(f"plot.{fn}", f"ax={tag}", lambda fn=fn, val=val: (
                getattr(ip(), fn), _rows()[:2], {"ax": np.ones(2) if val == "ARR" else val}),
                "ax", backends=False, slow=True))
        # the module promises every plot takes a ScoreTable in place of labels and scores
        out.append(_either(f"plot.{fn}", "score_table", lambda fn=fn: (
            getattr(ip(), fn), (__import__("indist_fast").ScoreTable.from_arrays(*_rows()[:2]),
                                None), {}), (Y, S) if fn == "cost_curves" else (),
            axes_ok, backends=False, slow=True) if fn == "cost_curves" else
            _ok(f"plot.{fn}", "score_table", lambda fn=fn: (
                getattr(ip(), fn), (__import__("indist_fast").ScoreTable.from_arrays(
                    *_rows()[:2]), None), {}), axes_ok, backends=False, slow=True))
    for tag, bins in (("zero", 0), ("neg", -3), ("str", "x"), ("float", 2.5), ("none", None)):
        out.append(_err("plot.scores_by_class", f"bins={tag}", lambda bins=bins: (
            ip().scores_by_class, _rows()[:2], {"bins": bins}), "bins", backends=False,
            slow=True))
    for fn in ("roc", "b_curve", "c_tpr_fpr_vs_b", "b_split"):
        for tag, mp in (("zero", 0), ("neg", -1), ("str", "x"), ("float", 1.5)):
            out.append(_err(f"plot.{fn}", f"max_points={tag}", lambda fn=fn, mp=mp: (
                getattr(ip(), fn), _rows()[:2], {"max_points": mp}), "max_points",
                backends=False, slow=True))
    for tag, ml in (("zero", 0), ("neg", -1), ("str", "x")):
        out.append(_err("plot.cost_curves", f"max_lines={tag}", lambda ml=ml: (
            ip().cost_curves, _rows()[:2], {"max_lines": ml}), "max_lines", backends=False,
            slow=True))
    for tag, sig in (("str", "x"), ("none", None), ("int", 3)):
        out.append(_err("plot.signal_curves", f"signal={tag}", lambda sig=sig: (
            ip().signal_curves, (sig,), {}), "signal", backends=False, slow=True))
    out.append(_ok("plot.signal_curves", "empirical", lambda: (
        ip().signal_curves, (_rp().signal_curve(_rp().Empirical(*_rows()[:2]),
                                           grid=np.linspace(0.6, 0.9, 4)),), {}),
        axes_ok, backends=False, slow=True))
    for tag, sets in (("str", "x"), ("empty", {}), ("bad_pair", {"a": (1, 2)}),
                      ("nan_scores", {"a": ([0, 1], [NAN, 0.5])}), ("list", [1, 2])):
        out.append(_err("plot.nine_panels", f"sets={tag}", lambda sets=sets: (
            ip().nine_panels, (sets,), {}), "sets", Y, S, backends=False, slow=True))
    out.append(_ok("plot.nine_panels", "two_sets", lambda: (
        ip().nine_panels, ({"a": _rows()[:2], "b": _base(20, 9)},), {}), axes_ok,
        backends=False, slow=True))
    out.append(_err("plot.report_sheet", "title_int", lambda: (
        ip().report_sheet, _rows()[:2], {"title": 5}), "title", Y, S, backends=False,
        slow=True))
    return out


def dataset_cases() -> list[Case]:
    out: list[Case] = []
    out.append(_ok("backend", "name", lambda: (__import__("indist_fast").backend, (), {}),
                   lambda v: None if v in ("cython", "numpy") else _throw(f"backend {v!r}"),
                   backends=False))

    def nd() -> Any:
        from indist_fast.datasets import nine_datasets
        return nine_datasets

    for tag, seed in (("str", "x"), ("neg", -1), ("float", 1.5), ("nan", NAN), ("obj", object())):
        out.append(_err("datasets.nine_datasets", f"seed={tag}", lambda seed=seed: (
            nd(), (seed,), {}), "seed"))

    def check(sets: Any) -> None:
        from indist_fast.datasets import NINE_LAYOUT
        for name, (y, s) in sets.items():
            n = 2000 + NINE_LAYOUT[name][1]
            if len(y) != n or len(s) != n or not np.isfinite(s).all():
                raise Wrong(f"set {name}: {len(y)} rows")
    for tag, seed in (("zero", 0), ("np_int", np.int64(7))):
        out.append(_ok("datasets.nine_datasets", f"seed={tag}", lambda seed=seed: (
            nd(), (seed,), {}), check, backends=False))
    return out


def html_cases() -> list[Case]:
    """The ROC demo page's arguments, and the report page's non-row arguments."""
    from indist_fast.html import report_html, roc_demo
    out: list[Case] = []
    for tag, kw, names in (("mu_pos_nan", {"mu_pos": NAN}, ("mu_pos",)),
                           ("mu_neg_inf", {"mu_neg": INF}, ("mu_neg",)),
                           ("mu_pos_str", {"mu_pos": "1"}, ("mu_pos",)),
                           ("sd_pos_zero", {"sd_pos": 0.0}, ("sd_pos",)),
                           ("sd_neg_neg", {"sd_neg": -1.0}, ("sd_neg",)),
                           ("sd_neg_none", {"sd_neg": None}, ("sd_neg",)),
                           ("prevalence_zero", {"prevalence": 0.0}, ("prevalence",)),
                           ("prevalence_one", {"prevalence": 1.0}, ("prevalence",)),
                           ("prevalence_bool", {"prevalence": True}, ("prevalence",)),
                           ("threshold_nan", {"threshold": NAN}, ("threshold",)),
                           ("threshold_list", {"threshold": [0.5]}, ("threshold",)),
                           ("path_int", {"path": 3}, ("path",)),
                           ("path_bytes", {"path": b"x.html"}, ("path",)),
                           ("path_empty", {"path": ""}, ("path",)),
                           ("path_folder", {"path": "/"}, ("path",)),
                           ("path_no_folder", {"path": "/no/such/folder/x.html"}, ("path",))):
        out.append(_err("html.roc_demo", tag, lambda kw=kw: (roc_demo, (), kw), *names))
    out.append(_ok("html.roc_demo", "defaults", lambda: (roc_demo, (), {}),
                   lambda v: None if 'id="threshold"' in v else (_ for _ in ()).throw(
                       Wrong("no threshold slider"))))
    y, s, _ = _rows()
    for tag, kw, names in (("max_points_one", {"max_points": 1}, ("max_points",)),
                           ("max_points_float", {"max_points": 10.0}, ("max_points",)),
                           ("max_points_huge", {"max_points": 10**6}, ("max_points",)),
                           ("bins_zero", {"bins": 0}, ("bins",)),
                           ("bins_str", {"bins": "10"}, ("bins",)),
                           ("title_int", {"title": 5}, ("title",)),
                           ("log_str", {"log": "yes"}, ("log",)),
                           ("exclude_self_str", {"exclude_self": "no"}, ("exclude_self",)),
                           ("segments_dict", {"segments": {}}, ("segments",)),
                           ("n_boot_zero", {"n_boot": 0}, ("n_boot",)),
                           ("path_no_folder", {"path": "/no/such/folder/r.html"}, ("path",)),
                           ("models_empty", {"y_score": {}}, ("y_score",)),
                           ("model_name_int", {"y_score": {1: s}}, ("y_score",)),
                           ("model_nan", {"y_score": {"a": s, "b": np.r_[s[:-1], NAN]}},
                            ("y_score['b']",))):
        def make(kw=kw) -> Any:
            kw = dict(kw)
            return report_html, (y, kw.pop("y_score", s)), kw
        out.append(_err("html.report_html[params]", tag, make, *names))
    return out
