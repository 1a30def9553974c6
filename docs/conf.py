"""Sphinx configuration of the indist_fast documentation.

Build (warnings are errors; the doctest builder runs every example of the pages):

    sphinx-build -W --keep-going -b doctest docs docs/_build/doctest
    sphinx-build -W --keep-going -b html docs docs/_build/html
"""

import doctest
import os
import sys
from datetime import date

# Prefer an installed indist_fast (it has the compiled kernels); a checkout without
# an install falls back to its own source, which runs on the NumPy twin.
try:
    import indist_fast
except ImportError:
    sys.path.insert(0, os.path.abspath(".."))
    import indist_fast

project = "indist_fast"
author = "the indist_fast authors"
copyright = f"{date.today().year}, {author}"
release = version = indist_fast.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.doctest",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
]

templates_path = ["_templates"]
exclude_patterns = ["_build", "screenshots", "Thumbs.db", ".DS_Store"]
root_doc = "index"

# API reference: one generated page per public name (docs/api/generated/, not committed).
autosummary_generate = True
autosummary_imported_members = False
autosummary_ignore_module_all = False
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"          # the numpydoc Parameters sections carry the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# Intersphinx needs the network at build time, and the build must pass offline with -W
# (an unreachable inventory is a warning). So the mapping is opt-in:
# INDIST_DOCS_INTERSPHINX=1 links NumPy, scikit-learn and pandas names to their sites.
intersphinx_mapping = {}
if os.environ.get("INDIST_DOCS_INTERSPHINX") == "1":
    intersphinx_mapping = {
        "numpy": ("https://numpy.org/doc/stable/", None),
        "sklearn": ("https://scikit-learn.org/stable/", None),
        "pandas": ("https://pandas.pydata.org/docs/", None),
        "python": ("https://docs.python.org/3/", None),
    }

# Doctests: every ``>>>`` block of the pages runs (sphinx-build -b doctest). Module
# docstrings are not collected here: the test suite runs those.
doctest_global_setup = """
import warnings
import numpy as np
import indist_fast
"""
doctest_test_doctest_blocks = "default"
# Error messages are part of the examples: check them (no IGNORE_EXCEPTION_DETAIL).
doctest_default_flags = doctest.ELLIPSIS | doctest.DONT_ACCEPT_TRUE_FOR_1

html_theme = "furo"
html_title = f"indist_fast {release}"
html_static_path = []
html_extra_path = []


def _skip_sklearn_request_setters(app, what, name, obj, skip, options):
    # scikit-learn adds set_*_request methods to every estimator; their docstrings
    # point into scikit-learn's own glossary, which this site does not have.
    if name.startswith("set_") and name.endswith("_request"):
        return True
    return None


def setup(app):
    app.connect("autodoc-skip-member", _skip_sklearn_request_setters)
