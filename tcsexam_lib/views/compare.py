"""Run sets side by side: draws the comparisons :mod:`tcsexam_lib.reports.comparisons` wrote."""

from __future__ import annotations

import os
from typing import Any

import pandas as pd

from ..number_format import MEAN, POINTS, TEXT, interval
from ..reports.comparisons import COMPARED_BY
from ..reports.run_set_document import RunSetComparison
from ..scoring.index_document import IndexDocument, as_index_document
from ..stats.wording import percent
from ..vocab import LETTERS, LETTERS_TEXT
from .notebook import Note, run_set_beside
from .tables import Cell


def run_set_comparisons(index_json: str | os.PathLike[str] = "") -> list[RunSetComparison]:
    """The comparisons in the ``run-set.json`` beside the index JSON (none standalone).

    >>> run_set_comparisons("")
    []
    """
    run_set = run_set_beside(index_json)
    return [] if run_set is None else list(run_set.comparisons)


def _side_by_side(comparison: RunSetComparison) -> pd.DataFrame:
    this, that = comparison.this, comparison.other
    rows = []
    for entry in comparison.models:
        ci = entry.ci
        row = {
            "model": entry.model,
            f"index ({this})": entry.index,
            f"index ({that})": entry.other_index,
            "Δ index": entry.delta_index,
            "Δ on common tasks": entry.delta_common_tasks,
            "interval": None if ci is None else Cell(interval(*ci), order=ci[0]),
            "differs": None if ci is None else "yes" if ci[0] > 0 or ci[1] < 0 else "not shown",
            "common tasks": entry.n_common_tasks,
        }
        for letter in LETTERS:
            row[f"Δ {letter}"] = entry.track_deltas[letter]
        row[f"status ({this})"] = entry.status
        row[f"status ({that})"] = entry.other_status
        rows.append(row)
    table = pd.DataFrame(rows, dtype=object)
    if comparison.same_tasks:
        table = table.drop(columns=["Δ on common tasks"])
    lvl = percent(comparison.level)
    table.attrs["kinds"] = {"model": TEXT, f"index ({this})": POINTS, f"index ({that})": POINTS,
                            "Δ index": POINTS, "Δ on common tasks": POINTS,
                            "common tasks": "count",
                            **{f"Δ {x}": MEAN for x in LETTERS}}  # fmt: skip
    table.attrs["tooltips"] = {
        "Δ index": f"index ({this}) − index ({that}), points",
        "Δ on common tasks": "the same difference with both indexes recomputed on the tasks "
        "both run sets hold",
        "interval": f"{lvl} interval of the difference, paired over the common tasks (each "
        "model's interval on its own)",
        "differs": f"yes: the {lvl} interval excludes 0; not shown: it holds 0 (not the same "
        "as equal)",
        "common tasks": "tasks with a mean in both run sets",
        **{f"Δ {x}": f"difference of the {x} track means ({this} − {that})" for x in LETTERS},
    }
    what = "Δ index" if comparison.same_tasks else "Δ on common tasks"
    table.attrs["caption"] = (
        f"{this} vs {that}: Δ = {this} − {that} in points; the {lvl} interval of {what} is "
        f"paired over the common tasks; Δ {LETTERS_TEXT}: differences of the track means."
    )
    return table


def compare_run_sets(
    result: IndexDocument | dict[str, Any],
    comparisons: list[RunSetComparison] | list[dict[str, Any]],
    by: str,
) -> Any:
    """The comparisons ``by`` ``protocol`` or ``suite`` (from :func:`run_set_comparisons`), a
    table each, or a note when none; ``result`` is this run set's index output.

    >>> from tcsexam_lib.reports.comparisons import compare_run_set
    >>> means = {"P": 0.5, "S": 0.5, "C": 0.5, "O": 0.5}
    >>> mine = {"suite": "s", "solver_protocol": "offline", "models": {"m": {
    ...     "status": "complete", "index": 50.0, "track_means": means, "tasks": []}}}
    >>> other = {"suite": "s", "solver_protocol": "online", "models": {"m": {
    ...     "status": "complete", "index": 48.0, "track_means": means}}}
    >>> found = compare_run_set(as_index_document(mine), {"s-online": other}, 0.95)
    >>> compare_run_sets(mine, found, "protocol")[0]["Δ index"].tolist()
    [2.0]
    >>> compare_run_sets(mine, found, "suite").text[:46]
    'No run set with the same models under another '
    """
    result = as_index_document(result)
    records = [c if isinstance(c, RunSetComparison) else RunSetComparison(c) for c in comparisons]
    tables = [_side_by_side(c) for c in records if c.by == by]
    if tables:
        return tables
    same = COMPARED_BY[by][1]
    what = "the other solver protocol" if by == "protocol" else "another suite"
    return Note(
        f"No run set with the same models under {what} ({same.replace('_', ' ')} "
        f"{getattr(result, same)}) is published beside this one, so there is nothing to compare."
    )
