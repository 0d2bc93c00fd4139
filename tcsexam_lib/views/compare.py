"""Run sets side by side: offline vs online, Lite vs Full, with paired intervals.

The same models run under the other solver protocol (same suite), or on another suite
(same protocol), answered the same tasks, or some of the same tasks: their difference is
paired task by task over the **common tasks**, with the kit's paired test
(:func:`tcsexam_lib.stats.pairs.paired_tests`: the Welch–Satterthwaite t on the stratified
mean of the per-task differences, with its small-sample corrections), exactly as two
models of one run set are compared.

- Same tasks (offline vs online): Δ index is the difference of the published indexes,
  and its interval is paired over every task.
- Other tasks (Lite vs Full): Δ index is the difference of the published indexes (they
  average different tasks); **Δ on common tasks** is the difference of the two indexes
  recomputed on the tasks both suites hold (equal weights within each track, as the
  index), with its paired interval.

Each model's interval holds on its own (no adjustment across the models of the table).
A model without an index in either run set, or a track with fewer than two common
tasks, gets no interval.

The other run set's task means come with ``compare`` (the report runner passes them).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import pandas as pd

from ..formulas import combine_track_means
from ..number_format import MEAN, POINTS, TEXT, interval
from ..reports.run_set_document import RunSetSummary
from ..scoring.index_document import IndexDocument, as_index_document
from ..stats.wording import percent
from ..vocab import TRACK_LETTERS, TRACKS
from .notebook import Note
from .tables import Cell


@dataclass(frozen=True)
class _PairedDelta:
    """Δ over the common tasks with its paired interval (see :func:`paired_delta`)."""

    delta: float
    ci: list[float] | None
    p_value: float | None
    n_common_tasks: int


def paired_delta(
    mine: dict[str, dict[str, float | None]],
    theirs: dict[str, dict[str, float | None]],
    level: float = 0.95,
    index: tuple[float, float] | None = None,
) -> dict[str, Any] | None:
    """Δ (mine − theirs, points) over the common tasks, with its paired interval.

    ``mine`` and ``theirs`` are task means by track (``ModelResult.task_means``). ``index``
    gives the two indexes whose difference is Δ (the published ones, when both run sets
    hold the same tasks); without it, each index is recomputed on the common tasks.
    ``None`` when a track has no common task with a mean in both.

    Examples
    --------
    The same results on theorem and conjecture, 0.1 more on every solver and construction
    task (no spread: no width):

    >>> a = {t: {f"x{k}": 0.5 + 0.1 * (k % 2) for k in range(6)} for t in
    ...      ("theorem", "solver", "construction", "conjecture")}
    >>> lead = {"solver": 0.1, "construction": 0.1}
    >>> b = {t: {item: value - lead.get(t, 0.0) for item, value in tasks.items()}
    ...      for t, tasks in a.items()}
    >>> out = paired_delta(a, b)
    >>> round(out["delta"], 6), out["n_common_tasks"], [round(x, 6) for x in out["ci"]]
    (6.0, 24, [6.0, 6.0])
    """
    paired = _paired_delta(mine, theirs, level, index)
    return None if paired is None else asdict(paired)


def _paired_delta(
    mine: dict[str, dict[str, float | None]],
    theirs: dict[str, dict[str, float | None]],
    level: float,
    index: tuple[float, float] | None,
) -> _PairedDelta | None:
    import numpy as np

    from ..stats.pairs import paired_tests

    rows = []
    for track in TRACKS:
        a, b = mine.get(track, {}), theirs.get(track, {})
        common = [item for item in a if a[item] is not None and b.get(item) is not None]
        if not common:
            return None
        rows.append(np.array([[a[item] for item in common], [b[item] for item in common]]))
    if index is None:
        index = tuple(
            combine_track_means({t: float(v[k].mean()) for t, v in zip(TRACKS, rows, strict=True)})
            for k in (0, 1)
        )
    tests = paired_tests(rows, np.array(index, dtype=float), [0, 1], level)
    low, high = float(tests.ci_low[0]), float(tests.ci_high[0])
    usable = not (np.isnan(low) or np.isnan(high))
    return _PairedDelta(
        delta=float(tests.delta[0]),
        ci=[low, high] if usable else None,
        p_value=None if np.isnan(tests.p_value[0]) else float(tests.p_value[0]),
        n_common_tasks=int(sum(v.shape[1] for v in rows)),
    )


def _fields(by: str) -> tuple[str, str]:
    """The field the run sets differ by (``by``) and the one they share."""
    return ("solver_protocol", "suite") if by == "protocol" else ("suite", "solver_protocol")


def _comparable(result: IndexDocument, other: RunSetSummary, by: str) -> bool:
    key, same = _fields(by)
    return (
        getattr(other, same) == getattr(result, same)
        and getattr(other, key) != getattr(result, key)
        and bool(set(other.results) & set(result.results))
    )


def _side_by_side(result: IndexDocument, other: RunSetSummary, by: str, level: float):
    key, _ = _fields(by)
    this, that = getattr(result, key), getattr(other, key)
    theirs_all = other.get("task_means") or {}  # the runner adds them to the summary
    rows = []
    differ_tasks = False
    mine_all, others = result.results, other.results
    for model in (m for m in mine_all if m in others):
        a, b = mine_all[model], others[model]
        mine, theirs = a.task_means(), theirs_all.get(model, {})
        same_tasks = {(t, i) for t, items in mine.items() for i in items} == {
            (t, i) for t, items in theirs.items() for i in items
        }
        differ_tasks = differ_tasks or not same_tasks
        both = a.index is not None and b.index is not None
        delta = a.index - b.index if both else None
        paired = None
        if both and theirs:
            published = (a.index, b.index) if same_tasks else None
            paired = _paired_delta(mine, theirs, level, published)
        ci = None if paired is None else paired.ci
        row = {
            "model": model,
            f"index ({this})": a.index,
            f"index ({that})": b.index,
            "Δ index": delta,
            "Δ on common tasks": None if paired is None else paired.delta,
            "interval": None if ci is None else Cell(interval(*ci), order=ci[0]),
            "differs": None if ci is None else "yes" if ci[0] > 0 or ci[1] < 0 else "no",
            "common tasks": None if paired is None else paired.n_common_tasks,
        }
        mine_means, their_means = a.track_means, b.track_means
        for letter in (TRACK_LETTERS[t] for t in TRACKS):
            x, y = mine_means[letter], their_means[letter]
            row[f"Δ {letter}"] = None if x is None or y is None else x - y
        row[f"status ({this})"] = a.status
        row[f"status ({that})"] = b.status
        rows.append(row)
    table = pd.DataFrame(rows, dtype=object)
    if not differ_tasks:
        table = table.drop(columns=["Δ on common tasks"])
    lvl = percent(level)
    table.attrs["kinds"] = {"model": TEXT, f"index ({this})": POINTS, f"index ({that})": POINTS,
                            "Δ index": POINTS, "Δ on common tasks": POINTS,
                            "common tasks": "count",
                            **{f"Δ {x}": MEAN for x in "PSCO"}}  # fmt: skip
    table.attrs["tooltips"] = {
        "Δ index": f"index ({this}) − index ({that}), points",
        "Δ on common tasks": "the same difference with both indexes recomputed on the tasks "
        "both run sets hold",
        "interval": f"{lvl} interval of the difference, paired over the common tasks (each "
        "model's interval on its own)",
        "differs": f"yes: the {lvl} interval excludes 0",
        "common tasks": "tasks with a mean in both run sets",
        **{f"Δ {x}": f"difference of the {x} track means ({this} − {that})" for x in "PSCO"},
    }
    what = "Δ on common tasks" if differ_tasks else "Δ index"
    table.attrs["caption"] = (
        f"{this} vs {that}: Δ = {this} − {that} in points; the {lvl} interval of {what} is "
        "paired over the common tasks; Δ P, S, C, O: differences of the track means."
    )
    return table


def compare_run_sets(
    result: IndexDocument | dict[str, Any], compare: dict[str, Any], by: str, level: float = 0.95
) -> Any:
    """This run set beside another with the same models: ``by`` is ``protocol`` or ``suite``.

    ``compare`` maps run-set names to their summaries (suite, solver_protocol, each
    model's status, index and track means, and ``task_means``), as the report runner
    passes them. Returns a table per comparable run set, or a note when there is none.

    Examples
    --------
    >>> means = {"P": 0.5, "S": 0.5, "C": 0.5, "O": 0.5}
    >>> mine = {"suite": "s", "solver_protocol": "offline", "models": {"m": {
    ...     "status": "complete", "index": 50.0, "track_means": means, "tasks": []}}}
    >>> other = {"suite": "s", "solver_protocol": "online", "models": {"m": {
    ...     "status": "complete", "index": 48.0, "track_means": means}}}
    >>> compare_run_sets(mine, {"s-online": other}, "protocol")[0]["Δ index"].tolist()
    [2.0]
    """
    result = as_index_document(result)
    summaries = [RunSetSummary(other) for _name, other in sorted(compare.items())]
    tables = [
        _side_by_side(result, other, by, level)
        for other in summaries
        if _comparable(result, other, by)
    ]
    if tables:
        return tables
    _, same = _fields(by)
    what = "the other solver protocol" if by == "protocol" else "another suite"
    return Note(
        f"No run set with the same models under {what} ({same.replace('_', ' ')} "
        f"{getattr(result, same)}) is published beside this one, so there is nothing to compare."
    )
