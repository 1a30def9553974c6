"""Test setup: test the installed package, and run public-API tests on both backends."""

from __future__ import annotations

import glob
import importlib.machinery
import os
import sys

import pytest

# `python -m pytest` puts the checkout first on sys.path. After a plain `pip install .`
# the checkout's indist_fast has no compiled kernels (they live in site-packages), so
# the tests would silently exercise the NumPy fallback. Prefer the installed package
# unless the kernels were built in place (`python setup.py build_ext --inplace`).
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if not glob.glob(os.path.join(_ROOT, "indist_fast", "_core", "_sorted*.so")):
    _others = [p for p in sys.path if os.path.abspath(p or os.curdir) != _ROOT]
    if importlib.machinery.PathFinder.find_spec("indist_fast", _others) is not None:
        sys.path[:] = _others

from indist_fast._core import engine as _backend  # noqa: E402

BACKENDS = ("cython", "numpy")


@pytest.fixture(params=BACKENDS)
def backend(request):
    """Run the test once per backend (the compiled kernels must import here)."""
    with _backend.use_backend(request.param):
        yield request.param


@pytest.fixture
def threaded(monkeypatch):
    """Lower ``_fast``'s size thresholds to a few rows (two threads, sampled pivot,
    checkpoint reruns, release groups) and yield a ``cases.PathLog`` of the paths taken."""
    from cases import lower_thresholds
    return lower_thresholds(monkeypatch)


@pytest.fixture(scope="module")
def client():
    """A LocalCluster of two worker processes and its Client, for the Dask tests of a
    module (skipped without distributed)."""
    import warnings
    distributed = pytest.importorskip("distributed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
        c = distributed.Client(cluster)
    yield c
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c.close()
        cluster.close()


class FakeBar:
    """tqdm's interface, recording what a bar is told (``fake_tqdm``)."""

    def __init__(self, total=None, desc="", unit="it", **kwargs):
        self.total, self.desc, self.unit = total, desc, unit
        self.n, self.updates, self.closed = 0, 0, False

    def update(self, k=1):
        self.n += k
        self.updates += 1

    def close(self):
        self.closed = True


@pytest.fixture
def fake_tqdm(monkeypatch):
    """``tqdm.auto.tqdm`` replaced by ``FakeBar``; the list of the bars made, in order."""
    import types
    made = []
    module = types.ModuleType("tqdm.auto")
    module.tqdm = lambda *args, **kwargs: made.append(FakeBar(*args, **kwargs)) or made[-1]
    monkeypatch.setitem(sys.modules, "tqdm.auto", module)
    return made

