"""Self-contained interactive HTML pages: the ROC demo and the evaluation report.

Each page is one HTML file with its scripts, styles and data inline: it needs no
network and no server, and opens from ``file://`` in any current browser. Every
displayed number carries ``data-metric="<field>"`` (named as in the library) and its
full value in ``data-value``. ``page`` assembles a page, ``roc_demo`` and
``report_page`` build the two kinds; the ``.js`` and ``.css`` files beside them are
inlined into every page.
"""

from .report_page import report_html, segment_page
from .roc_demo import roc_demo

__all__ = ["roc_demo", "report_html", "segment_page"]
