"""Child Python processes that import the package under test, not the source tree.

``python -c`` puts its working directory first on ``sys.path``: started from the
checkout's root after a plain ``pip install .``, a child would import the uncompiled
tree (the NumPy reference) while the parent tests the installed kernels -- peaks and
timings measured there say nothing. Children start in the folder that holds the
package under test, with it and the test helpers on ``PYTHONPATH``.
"""

from __future__ import annotations

import os

import indist_fast

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(indist_fast.__file__)))
TESTS = os.path.dirname(os.path.abspath(__file__))
CHILD_CWD = PACKAGE_ROOT


def child_env(**extra: str) -> dict[str, str]:
    """The environment of a child: this one, the package under test first on the path."""
    return dict(os.environ, PYTHONPATH=os.pathsep.join([PACKAGE_ROOT, TESTS]), **extra)
