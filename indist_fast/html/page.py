"""Assembling one self-contained page: the package's CSS and scripts inlined, the data
as a JavaScript literal, and a write that leaves the page whole or not at all
(``whole_file``)."""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path
from typing import Any

from ..results.html_tables import esc
from .whole_file import write_whole

__all__ = ["asset", "page", "write_page", "write_whole", "check_path", "esc", "table_box",
           "deliver"]


def asset(name: str) -> str:
    """The text of a package data file (``plot.js``, ``page.css``, ...)."""
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def data_literal(data: Any) -> str:
    """``data`` as a JavaScript literal: JSON with NaN/Infinity kept (valid JavaScript,
    unlike strict JSON) and every ``<`` escaped, so no string can close the script."""
    text = json.dumps(data, allow_nan=True, separators=(",", ":"), ensure_ascii=True)
    return text.replace("<", "\\u003c")


def page(title: str, body: str, data: Any, scripts: tuple[str, ...]) -> str:
    """A complete HTML document: ``body`` markup, ``IF_DATA`` set to ``data``, then the
    named package scripts, all inline (the page needs no network and no server)."""
    # one script: data-ready (tests wait for it) is set only if every part ran
    code = "\n".join([asset(name) for name in ("plot.js",) + scripts]
                      + ['document.body.setAttribute("data-ready", "1");'])
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        # no fetches of any kind: a page that tried one would fail loudly in a test
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n"
        f"<title>{esc(title)}</title>\n<style>\n{asset('page.css')}</style>\n</head>\n"
        f"<body>\n{body}\n<script>\nvar IF_DATA = {data_literal(data)};\n</script>\n"
        f"<script>\n{code}\n</script>\n</body>\n</html>\n")


def table_box(table: str) -> str:
    """A table in its own box (``page.css``'s ``.table-box``): a table wider than the
    page scrolls inside the box instead of running past the page's edge."""
    return f'<div class="table-box">{table}</div>'


def deliver(text: str, path: str | None) -> str | Path:
    """What a page function returns: the page's HTML, or, with ``path`` (checked by
    ``check_path``), the page written there and ``path`` as a ``pathlib.Path``."""
    if path is None:
        return text
    write_page(path, text)
    return Path(path)


def check_path(path: Any, name: str = "path") -> str | None:
    """``path`` as a str (None passes): a file name in an existing folder."""
    if path is None:
        return None
    if not isinstance(path, (str, os.PathLike)) or isinstance(path, bytes):
        raise TypeError(f"{name} must be a file name (str or os.PathLike) or None, got "
                        f"{path!r} ({type(path).__name__}).")
    text = os.fspath(path)
    if not isinstance(text, str) or not text:
        raise ValueError(f"{name} must be a non-empty file name, got {path!r}.")
    if os.path.isdir(text):
        raise ValueError(f"{name} {text!r} is a folder, not a file name.")
    folder = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"{name}: no such folder: {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"{name}: folder {folder} is not writable.")
    return text


def write_page(path: str, text: str) -> None:
    """Write the whole page (``write_whole``)."""
    write_whole(path, lambda fh: fh.write(text.encode("utf-8")))
