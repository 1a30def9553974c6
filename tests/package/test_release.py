"""Release metadata: one version source, the declared license, no debug info."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import tomllib

import pytest

import indist_fast

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _pyproject() -> dict:
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        return tomllib.load(fh)


def test_version_has_one_source():
    project = _pyproject()["project"]
    assert "version" not in project and "version" in project["dynamic"]
    dynamic = _pyproject()["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "indist_fast.__version__"}


def test_installed_metadata_matches_the_package():
    try:
        dist = importlib.metadata.distribution("indist-fast")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("indist-fast is not installed (an in-place build is being tested)")
    if not any(str(f).startswith("indist_fast/") for f in dist.files or []):
        pytest.skip("an editable install: no packaged files to compare")
    assert dist.version == indist_fast.__version__
    assert dist.metadata["License-Expression"] == "BSD-3-Clause"


def test_license_is_spdx_and_shipped():
    project = _pyproject()["project"]
    assert project["license"] == "BSD-3-Clause"
    assert project["license-files"] == ["LICENSE"]
    with open(os.path.join(ROOT, "LICENSE")) as fh:
        assert fh.readline().strip() == "BSD 3-Clause License"


def test_manifest_ships_the_sources_the_build_needs():
    with open(os.path.join(ROOT, "MANIFEST.in")) as fh:
        manifest = fh.read()
    # the .pxd files live in the package (with the C header sweep.pxd
    # declares); the kernels share a .pxd, a .pxi and headers in src; the example is built
    # by the suite
    for line in ("recursive-include src *.pyx *.pxd *.pxi *.h",
                 "recursive-include indist_fast *.pyi *.pxd *.h",
                 "recursive-include tests *.py", "recursive-include examples"):
        assert line in manifest


@pytest.mark.skipif(sys.platform != "linux", reason="reads ELF sections with readelf")
def test_compiled_modules_carry_no_debug_info():
    from indist_fast._core.fast import KERNELS
    for module in KERNELS:
        out = subprocess.run(["readelf", "-S", module.__file__], capture_output=True,
                             text=True)
        if out.returncode != 0:
            pytest.skip("readelf is not available")
        if os.environ.get("INDIST_FAST_DEBUG", "") not in ("", "0"):
            pytest.skip("a debug build keeps its debug info")
        assert ".debug_info" not in out.stdout, module.__file__
