"""All the cases, in one deterministic order."""

from __future__ import annotations

from . import args36
from .cases import Case, row_cases
from .files import file_cases
from .more import (accumulator_cases, dask_cases, dataset_cases, frame_cases, html_cases,
                   plot_cases, resolving_power_cases, sklearn_cases, table_cases,
                   window_cases)
from .params import param_cases
from .multiclass_cases import multiclass_cases
from .population_cases import population_cases
from .entry_points import entry_point_cases
from .value_cases import value_cases

# Entry points whose cases take a second or more (plots, clusters of tasks, model fits):
# they get the long timeout. Their cases that should fail fast keep the short one, so a
# hang there is still found quickly.
_HEAVY = ("dask.", "plot.", "sklearn.Indist", "resolving_power.compare_metrics",
          "resolving_power.signal_curve", "resolving_power.noise", "datasets.", "cli[process]")
_ALWAYS_HEAVY = ("dask.", "plot.", "cli[process]")


def build_cases(tmp: str) -> list[Case]:
    """Every case; ``tmp`` is the directory ``files.write_files`` filled."""
    cases = (row_cases() + param_cases() + table_cases() + accumulator_cases()
             + frame_cases() + resolving_power_cases() + sklearn_cases() + dask_cases()
             + plot_cases() + dataset_cases() + population_cases() + multiclass_cases()
             + html_cases() + window_cases()
             + file_cases(tmp) + entry_point_cases(tmp) + value_cases(tmp))
    cases += args36.argument_cases(tmp)
    for case in cases:
        if (case.entry.startswith(_ALWAYS_HEAVY) or "plot" in case.id
                or (case.entry.startswith(_HEAVY) and case.valid and not case.either)):
            case.slow = True
    seen: dict[str, int] = {}
    for case in cases:               # repeated tags (a table listing a value twice)
        n = seen.get(case.id, 0)
        seen[case.id] = n + 1
        if n:
            case.id = f"{case.id}#{n + 1}"
    return cases
