"""The indistinguishability threshold r_b and C(r_b), precision there, are David
Sumpter's ("Precision at the indistinguishability threshold"; "A straightforward method
for evaluating performance of machine learning models for classification"). No shipped
text (the package, the documentation, README, CONTRIBUTING, the package metadata) may
credit them to anyone else; they were once credited to Hand and Anagnostopoulos."""

from __future__ import annotations

import pathlib
import re

import pytest

import indist_fast

PACKAGE = pathlib.Path(indist_fast.__file__).parent
SOURCE = pathlib.Path(__file__).resolve().parents[2]
TEXT_SUFFIXES = {".py", ".pyi", ".pyx", ".pxd", ".pxi", ".h", ".js", ".css", ".html",
                 ".rst", ".md", ".txt", ".toml", ".cfg"}

METHOD = r"(?:indistinguishability threshold|precision at the indistinguishability|C\(r_b\))"
# Names that have been, or could plausibly be, credited with the method by mistake.
WRONG_NAMES = r"(?:Hand|Anagnostopoulos)"
PATTERNS = [
    # the names themselves: no shipped text cites either of them (but Hand and Till's
    # multiclass AUC, 2001, is another paper, cited by multiclass.roc_auc)
    re.compile(rf"\b{WRONG_NAMES}\b(?!-)(?! (?:and|&) Till\b)"),
    # "<method> of/by/after/due to <Name>", the name not Sumpter
    re.compile(rf"{METHOD}[^.\n]{{0,60}}?\b(?:of|by|after|due to)\s+"
               r"(?!Sumpter\b)(?!the\b|a\b|an\b|each\b|every\b|its\b|their\b|this\b)"
               r"([A-Z][\w\u00C0-\u017F-]+)"),
    # "<Name>'s <method>" / "<Name> et al.'s <method>", the name not Sumpter
    re.compile(rf"\b(?!Sumpter\b)([A-Z][\w\u00C0-\u017F-]+)(?: et al\.)?'s\s+(?:\w+\s+)?"
               rf"{METHOD}"),
]


def shipped_files() -> list[pathlib.Path]:
    files = [p for p in PACKAGE.rglob("*") if p.is_file() and p.suffix in TEXT_SUFFIXES]
    docs = SOURCE / "docs"
    if docs.is_dir():
        # (the changelog lists commit subjects: one names the wrong credit it removed)
        files += [p for p in docs.rglob("*") if p.is_file() and p.suffix in TEXT_SUFFIXES
                  and "_build" not in p.parts and p.name != "changelog.rst"]
    files += [p for p in (SOURCE / name for name in
                          ("README.md", "CONTRIBUTING.md", "pyproject.toml")) if p.is_file()]
    return files


def wrong_credits(text: str) -> list[str]:
    """The passages of ``text`` that credit the method (or name a wrong author)."""
    # one line per paragraph: wrapped lines (of prose, comments, docstrings) joined
    flat = re.sub(r"[ \t]*\n(?![ \t]*\n)[ \t]*(?:#+[ \t]*|\*[ \t]*|//[ \t]*)?", " ", text)
    hits = []
    for pattern in PATTERNS:
        for m in pattern.finditer(flat):
            hits.append(flat[max(0, m.start() - 40):m.end() + 20])
    return hits


def test_no_shipped_text_credits_the_method_to_anyone_but_sumpter():
    files = shipped_files()
    assert len(files) > 100 and any(p.name == "README.md" for p in files)
    found = {str(p.relative_to(SOURCE) if SOURCE in p.parents else p): hits
             for p in files
             if (hits := wrong_credits(p.read_text(encoding="utf-8", errors="replace")))}
    assert found == {}


@pytest.mark.parametrize("planted", [
    "C(r_b) (Hand and Anagnostopoulos, 2023) is the precision there.",
    "the indistinguishability threshold of Flach,\n    with its precision",
    "precision at the indistinguishability threshold, introduced by Beam",
    "Fawcett's indistinguishability threshold",
    "Hand et al.'s C(r_b)",
    "Hand and Anagnostopoulos's threshold",
    "Hand (2023) and Till",
])
def test_a_planted_wrong_credit_is_found(planted):
    assert wrong_credits(planted)


@pytest.mark.parametrize("fine", [
    "one-vs-one AUC (Hand and Till 2001)",
    "Hand & Till's M",
    "Sumpter's indistinguishability threshold",
    "the indistinguishability threshold of Sumpter. All values are population",
    "precision at the indistinguishability threshold by Sumpter",
    "C(r_b) of each segment; the method is David Sumpter's [Sumpter]_.",
    "the indistinguishability threshold of the paper (Sumpter's Figs 2-6)",
    "C(r_b), r_b, AUC\n\n# Several models, from a folder of Parquet files by Dask",
    "hand the rows to the kernel; by hand; handle",
])
def test_the_right_credit_and_plain_words_pass(fine):
    assert wrong_credits(fine) == []
