"""Write docs/changelog.rst from ``git log`` of a branch, commits grouped by issue.

Usage: ``python docs/_tools/changelog.py [BRANCH]`` (default ``main``). The history has
no issue numbers in most messages, so a commit is placed by its time (each issue was
worked in its own window) and, where windows overlap, by words of its subject.
Merge commits are left out: their branches' commits are listed.
"""

import re
import subprocess
import sys
from pathlib import Path

ISSUES = {
    2: "Exact core: one sort, one sweep (AUC, curves, B(r), r_b, C(r_b)), Cython kernels "
       "behind a typed facade with a NumPy reference",
    3: "Uncertainty without re-sorting: sort-once bootstrap, DeLong, Hanley-McNeil and the "
       "pair-sampling estimators",
    4: "Threshold choice methods and expected loss: cost curves, Brier curve, ROC convex "
       "hull, refinement loss",
    5: "Resolving power: binormal and empirical sampling models, signal curves, noise, "
       "resolution",
    6: "Billion-row prediction logs: files, streaming accumulator, out-of-core evaluation, Dask",
    7: "Fit the ecosystem: scikit-learn scorers and a threshold classifier, the paper's "
       "figures as plots, dataframe inputs, typing and runnable docs",
    10: "Nothing silent, nothing lost: every entry point hardened, and a release that "
        "builds from its sdist",
    11: "One engine contract, a layered package, and kernels other libraries can cimport",
    12: "Real prediction logs: datasets of files, segments and several models in one sort",
    13: "Compare models and choose thresholds: the ROC practice of the blog post, and "
        "pROC's toolbox",
    14: "The papers, reproduced: population curves, their figures and tables, the PR side, "
        "and indist-fast paper",
    15: "See it in a browser: the interactive ROC demo, and an interactive evaluation report",
    16: "Faster than one sort: radix partitioning on both cores, microsecond service calls, "
        "and a peers table (open)",
    17: "A documentation site: concepts, guides, definitions with citations, and every "
        "public name",
    34: "A house a contributor can enter, first contact in minutes, nothing silent: areas "
        "on floors, quick tests and reproducible defaults, the defects of an adversarial run",
    38: "Where billion-row logs live: Spark DataFrames and object stores, exactly",
    39: "The statistician's toolbox: pROC's smoothing, power, variances, bands, curve "
        "tests, partial AUC and coordinates",
    40: "Live services: exact sliding windows, and metrics over time with drift",
    37: "Beyond the ROC: calibration, KS, gains, top-k, MCC and kappa, several classes, and "
        "tables read from files and clusters",
}

# (issue, words) tried in order within the first session, where issues 2-7 ran side by side.
FIRST_SESSION = [
    (5, r"resolving|binormal|empirical|signal curve|noise"),
    (4, r"threshold choice|expected loss|cost curve|brier|hull|refinement|rate q|§7"),
    (3, r"bootstrap|resampl|delong|hanley|pair|sampling|replicate"),
    (6, r"file|accumulator|out-of-core|out of core|dask|stream|chunk|parquet|csv|npz|memory"),
    (7, r"sklearn|scikit|scorer|classifier|plot|figure|typing|mypy|stub|doctest|docstring|"
        r"dataframe|pandas|polars"),
]
LATE_13 = r"compare|delong|operating.point|confusion|best_threshold|dominat|partial auc|" \
          r"max_fpr|difference|wilson|issue-13|wt-cmp|wt-opp"
# The sessions from 08:37 on worked several issues side by side: (issue, words) in order.
WORDS_14 = r"paper|population|mixture|figure|table 1|table 2|orallo|beam|sumpter|" \
           r"pr curve|pr_curve|precision_recall|resolving|issue 14"
WORDS_15 = r"browser|chromium|selenium|html|page|demo|interactive|widget|svg|canvas"
WORDS_16 = r"radix|np\.sort|peers|target|benchmark|compare\.py|plain|summarize_small|" \
           r"service call|bootstrap kernel|pcg|issue 16|issue-16"
WORDS_17 = r"docs|sphinx|guide|documentation|changelog|definitions|citation|api page"


# Commits the rules below would misplace (read by hand).
OVERRIDES = {"e7329af": 2, "7fab597": 2, "344dc9d": 2, "332f620": 3, "5b863da": 4,
             "87b213f": 7, "1c3df79": 38, "90883e9": 40, "90c5604": 40, "201a07a": 40,
             "60b5043": 40, "5c693b7": 40, "4f5e2d2": 40, "22f7590": 40, "3dac054": 40,
             "da0ac3d": 40}


# The session from 04:20 on 28 November worked issues 38-40 side by side.
WORDS_40 = r"\bwindows?\b|window_|over_time|over time|\bdrift|\bperiods?\b|\briver|row.ring|" \
           r"time panel|--time|\bfreq\b"
WORDS_38 = r"\bspark|\bstores?\b|\bs3\b|\buris?\b|\bmoto\b|object.store|filesystem|\bglobs?\b|" \
           r"\bhive\b|\bmllib"


def issue_of(commit: str, stamp: str, subject: str) -> int:
    if commit in OVERRIDES:
        return OVERRIDES[commit]
    s = subject.lower()
    if stamp >= "2026-11-28 04:20":
        return 40 if re.search(WORDS_40, s) else 38 if re.search(WORDS_38, s) else 39
    if stamp >= "2026-11-28 01:30":
        return 37
    if stamp >= "2026-11-27 18:30":     # three issues worked side by side: one section
        return 34
    if stamp < "2026-11-22 00:00":
        for number, words in FIRST_SESSION:
            if re.search(words, s):
                return number
        return 2
    if stamp < "2026-11-22 03:00":
        return 10
    if stamp < "2026-11-22 04:10":
        return 11
    if stamp >= "2026-11-22 15:40":
        return 16
    if stamp >= "2026-11-22 12:00":
        return 16 if re.search(WORDS_16, s) else 14
    if stamp >= "2026-11-22 08:30":
        for number, words in ((16, WORDS_16), (14, WORDS_14), (15, WORDS_15),
                              (17, WORDS_17)):
            if re.search(words, s):
                return number
        return 13
    if stamp >= "2026-11-22 06:13" or re.search(LATE_13, s):
        return 13 if re.search(LATE_13, s) or stamp >= "2026-11-22 06:45" else 12
    return 12


def without_issue_numbers(subject: str) -> str:
    """The subject without its references to issue numbers (user-facing text cites
    none): "README: the issue-16 targets" reads "README: the targets"."""
    s = re.sub(r"\s*\b(?:for |of )?[Ii]ssues?[- ]#?\d+(?:\s*(?:-|and|,)\s*\d+)*\b", "", subject)
    s = re.sub(r"\(\s*,?\s*", "(", s)
    s = s.replace("()", "").replace(" :", ":").replace("( ", "(")
    s = s.strip()
    return s[:1].upper() + s[1:] if s[:1].islower() and subject[:1].isupper() else s


def main() -> None:
    branch = sys.argv[1] if len(sys.argv) > 1 else "main"
    log = subprocess.run(["git", "log", "--reverse", "--no-merges",
                          "--date=format:%Y-%m-%d %H:%M", "--format=%h%x09%ad%x09%s", branch],
                         check=True, capture_output=True, text=True).stdout
    groups: dict[int, list[str]] = {n: [] for n in ISSUES}
    for line in log.splitlines():
        commit, stamp, subject = line.split("\t", 2)
        if stamp < "2026-11-21 19:30" and "start repository" in subject.lower():
            continue
        subject = subject.replace("SPEC §", "section ").replace("`", "'")
        subject = subject.replace("*", "\\*")
        subject = subject.replace("|", "\\|")        # |x| would be a substitution
        subject = without_issue_numbers(subject)
        # A word ending in "_" is a reference to reStructuredText ("W_* enum")
        subject = re.sub(r"(?<=\w)_(?!\w)", r"\\_", subject)
        groups[issue_of(commit, stamp, subject)].append(f"- ``{commit}`` ({stamp[5:]}) {subject}")
    out = [".. _changelog:", "", "Changelog", "=========", "",
           f"Generated from ``git log {branch}`` by ``python docs/_tools/changelog.py``:",
           "every commit (merges left out), newest issue first, grouped by the issue it",
           "worked on. Most messages name no issue, so a commit is placed by the time window",
           "its issue was worked in and by the words of its subject; one may sit under a",
           "neighbouring issue. Version 0.1.0 has not been released yet.", ""]
    for number in sorted(ISSUES, reverse=True):
        title = ISSUES[number]          # what was built; user-facing text cites no numbers
        out += [title, "-" * len(title), ""] + groups[number] + [""]
    Path(__file__).resolve().parents[1].joinpath("changelog.rst").write_text("\n".join(out))


if __name__ == "__main__":
    main()
