"""Self-contained interactive HTML pages: the ROC demo and the evaluation report.

Each page is one HTML file with its scripts, styles and data inline: it needs no
network and no server, and opens from ``file://`` in any current browser. Every
displayed number carries ``data-metric="<field>"`` (named as in the library) and its
full value in ``data-value``.
"""

from .pages.demo import roc_demo
from .pages.report import report_html, segment_page

__all__ = ["roc_demo", "report_html", "segment_page"]
