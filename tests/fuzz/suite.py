"""All the cases, in one deterministic order."""

from __future__ import annotations

from .cases import Case, row_cases
from .files import file_cases
from .more import (accumulator_cases, dask_cases, dataset_cases, frame_cases, plot_cases,
                   resolving_power_cases, sklearn_cases, table_cases)
from .params import param_cases


def build_cases(tmp: str) -> list[Case]:
    """Every case; ``tmp`` is the directory ``files.write_files`` filled."""
    cases = (row_cases() + param_cases() + table_cases() + accumulator_cases()
             + frame_cases() + resolving_power_cases() + sklearn_cases() + dask_cases()
             + plot_cases() + dataset_cases() + file_cases(tmp))
    seen: dict[str, int] = {}
    for case in cases:               # repeated tags (a table listing a value twice)
        n = seen.get(case.id, 0)
        seen[case.id] = n + 1
        if n:
            case.id = f"{case.id}#{n + 1}"
    return cases
