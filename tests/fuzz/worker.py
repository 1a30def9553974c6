"""The worker process: reads case ids on stdin, runs each case on both backends,
and writes one JSON line per case. The parent restarts it when it dies or hangs."""

from __future__ import annotations

import contextlib
import faulthandler
import glob
import io
import json
import os
import pickle
import sys
import time
import traceback
import warnings
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TESTS = os.path.join(ROOT, "tests")

OK_ERRORS = (ValueError, TypeError, FileNotFoundError)
MEMORY_LIMIT = 6 << 30          # bytes of address space: a runaway allocation fails fast


def _setup() -> None:
    if TESTS not in sys.path:
        sys.path.insert(0, TESTS)          # tests/oracle.py
    # As tests/conftest.py: without kernels built in place, test the installed package.
    if not glob.glob(os.path.join(ROOT, "indist_fast", "_core", "_sorted*.so")):
        import importlib.machinery
        others = [p for p in sys.path if os.path.abspath(p or os.curdir) != ROOT]
        if importlib.machinery.PathFinder.find_spec("indist_fast", others) is not None:
            sys.path[:] = others + [ROOT]
    os.environ.setdefault("MPLBACKEND", "Agg")
    try:
        import resource              # POSIX only
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    except (ImportError, ValueError, OSError):
        pass
    faulthandler.enable()
    warnings.simplefilter("ignore")
    try:
        import dask
        dask.config.set(scheduler="synchronous")
    except ImportError:
        pass
    # Heavy optional imports up front, so that no case pays for them inside its timeout.
    for name in ("pandas", "polars", "pyarrow", "pyarrow.parquet", "pyarrow.csv", "scipy.stats",
                 "scipy.integrate", "sklearn.linear_model", "sklearn.model_selection",
                 "matplotlib.pyplot", "dask.array", "dask.dataframe", "indist_fast.sklearn",
                 "indist_fast.plot", "indist_fast.dask"):
        try:
            __import__(name)
        except ImportError:
            pass


def _snapshot(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    out = []
    for value in list(args) + list(kwargs.values()):
        try:
            data = pickle.dumps(_content(value), protocol=5)
        except Exception:           # noqa: BLE001 - generators, lambdas: not compared
            data = None
        flags = getattr(getattr(value, "flags", None), "writeable", None)
        out.append((data, flags))
    return out


def _content(value: Any) -> Any:
    """What a caller would call the value's content: pandas, polars and pyarrow objects
    by their values (their pickles also carry caches that reading may fill)."""
    import dataclasses
    import numpy as np
    if isinstance(value, (list, tuple)):
        return type(value).__name__, [_content(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        # (fields left out of equality are caches and links, not content)
        return type(value).__name__, [_content(getattr(value, f.name))
                                      for f in dataclasses.fields(value) if f.compare]
    if type(value).__module__.startswith("dask"):    # a graph: compare what it computes
        return "dask", _content(value.compute())
    if isinstance(value, (np.ndarray, dict, str, bytes, int, float)) or value is None:
        return value
    for name in ("to_pylist", "to_list"):
        fn = getattr(value, name, None)
        if callable(fn):
            return (type(value).__name__, str(getattr(value, "dtype", "")), fn())
    fn = getattr(value, "to_numpy", None)
    if callable(fn):
        return (type(value).__name__, str(getattr(value, "dtypes", "")), fn(),
                list(getattr(value, "index", [])))
    return value


def _mutated(before: list[Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> str | None:
    after = _snapshot(args, kwargs)
    names = [f"argument {i}" for i in range(len(args))] + list(kwargs)
    for name, (b, bf), (a, af) in zip(names, before, after):
        if bf is not None and af is not None and bf != af:
            return f"{name}: the caller's array was made {'read-only' if bf else 'writeable'}"
        if b is not None and a is not None and a != b:
            return f"{name}: its values were modified"
    return None


def _attempt(case: Any, backend: str) -> tuple[Any, BaseException | None, str | None]:
    from indist_fast._core.engine import use_backend
    fn, args, kwargs = case.make()
    before = _snapshot(args, kwargs)
    out, err = io.StringIO(), io.StringIO()
    result: Any = None
    error: BaseException | None = None
    with use_backend(backend), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        try:
            result = fn(*args, **kwargs)
        except (Exception, SystemExit) as exc:       # noqa: BLE001 - classified below
            error = exc
    return result, error, _mutated(before, args, kwargs)


def _short(text: str, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__module__}.{type(exc).__name__}: {_short(str(exc))}"


def _names_ok(case: Any, message: str) -> bool:
    return any(name in message for name in case.names)


def classify(case: Any) -> tuple[str, str]:
    """(outcome class, message) of one case."""
    from .checks import Wrong, canon, diff
    try:
        result, error, mutated = _attempt(case, "cython")
    except Exception as exc:              # the case itself could not be built
        return "harness-error", _describe(exc) + " " + _short(traceback.format_exc(), 600)
    cls, msg = _judge(case, result, error, Wrong)
    if mutated and cls.startswith("ok"):
        cls, msg = "input-mutated", mutated
    if case.backends and cls.startswith("ok"):
        r2, e2, _ = _attempt(case, "numpy")
        if (error is None) != (e2 is None):
            first = "raised " + _describe(error) if error else "returned"
            second = "raised " + _describe(e2) if e2 else "returned"
            return "wrong-result", f"backends differ: cython {first}, numpy {second}"
        if error is not None and e2 is not None:
            if type(error) is not type(e2) or str(error) != str(e2):
                return "wrong-result", (f"backends raise differently: cython {_describe(error)}"
                                        f" / numpy {_describe(e2)}")
        else:
            d = diff(canon(result), canon(r2))
            if d:
                return "wrong-result", f"backends differ at {_short(d, 200)}"
    return cls, msg


def _judge(case: Any, result: Any, error: BaseException | None, Wrong: type) -> tuple[str, str]:
    if case.kind == "cli" and error is None:
        code, out, err = result
        if not case.valid or (case.either and code != 0):
            if code == 0:
                return "silent-acceptance", f"exit code 0; stdout {_short(out, 120)!r}"
            if "Traceback" in err:
                return "wrong-exception", "traceback: " + _short(err.strip().splitlines()[-1])
            if not _names_ok(case, err):
                return "error-not-naming", _short(err.strip().splitlines()[-1] if err.strip()
                                                  else "(no message)")
            return "ok-error", _short(err.strip().splitlines()[-1])
    if error is not None:
        if case.kind == "cli":
            return "wrong-exception", "CLI raised (traceback) " + _describe(error)
        if isinstance(error, SystemExit) or not isinstance(error, OK_ERRORS):
            return "wrong-exception", _describe(error)
        if case.valid and not case.either:
            return "valid-input-rejected", _describe(error)
        if not _names_ok(case, str(error)):
            return "error-not-naming", _describe(error)
        return "ok-error", _describe(error)
    if not case.valid:
        return "silent-acceptance", "returned " + _short(repr(result), 160)
    if case.check is not None:
        try:
            case.check(result)
        except Wrong as exc:
            return "wrong-result", _short(str(exc))
        except Exception as exc:           # noqa: BLE001 - a result the check cannot read
            return "wrong-result", "result unreadable: " + _describe(exc)
    return "ok-result", ""


def main() -> None:
    _setup()
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)                 # stray prints must not corrupt the protocol
    from .suite import build_cases
    cases = {c.id: c for c in build_cases(sys.argv[1])}
    proto.write(json.dumps({"ready": len(cases)}) + "\n")
    for line in sys.stdin:
        cid = line.rstrip("\n")
        if not cid:
            continue
        start = time.perf_counter()
        try:
            cls, msg = classify(cases[cid])
        except Exception as exc:        # noqa: BLE001 - never lose the worker to a bug
            cls, msg = "harness-error", _describe(exc)
        finally:
            if "matplotlib.pyplot" in sys.modules:
                sys.modules["matplotlib.pyplot"].close("all")
        proto.write(json.dumps({"id": cid, "cls": cls, "msg": msg,
                                "seconds": round(time.perf_counter() - start, 4)}) + "\n")


if __name__ == "__main__":
    main()
