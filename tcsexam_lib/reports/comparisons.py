"""Run sets side by side (offline vs online, Lite vs Full), paired over their common tasks.

Each model's Δ index, and with other tasks its **Δ on common tasks**, with the paired
interval of :func:`tcsexam_lib.stats.pairs.paired_tests` (docs/reports.md, "The cohort
report"); written into ``run-set.json``, drawn by :func:`tcsexam_lib.views.compare_run_sets`.
"""

from __future__ import annotations

from typing import Any

from ..formulas import combine_track_means
from ..scoring.index_document import IndexDocument
from ..vocab import LETTERS, TRACKS
from .run_set_document import RunSetSummary

#: The field two compared run sets differ by, and the one they share, by ``by``.
COMPARED_BY = {"protocol": ("solver_protocol", "suite"), "suite": ("suite", "solver_protocol")}


def paired_delta(
    mine: dict[str, dict[str, float | None]],
    theirs: dict[str, dict[str, float | None]],
    level: float = 0.95,
    index: tuple[float, float] | None = None,
) -> dict[str, Any] | None:
    """Δ (mine − theirs, points) over the common tasks, with its paired interval.

    ``mine``/``theirs``: task means by track; ``index``: the two indexes (default: both
    recomputed on the common tasks). ``None`` when a track has no common task.

    The same on theorem and conjecture, 0.1 more on every solver and construction task:

    >>> a = {t: {f"x{k}": 0.5 + 0.1 * (k % 2) for k in range(6)} for t in TRACKS}
    >>> lead = {"solver": 0.1, "construction": 0.1}
    >>> b = {t: {item: value - lead.get(t, 0.0) for item, value in tasks.items()}
    ...      for t, tasks in a.items()}
    >>> out = paired_delta(a, b)
    >>> round(out["delta"], 6), out["n_common_tasks"], [round(x, 6) for x in out["ci"]]
    (6.0, 24, [2.605243, 9.394757])
    """
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
    return {
        "delta": float(tests.delta[0]),
        "ci": [low, high] if usable else None,
        "p_value": None if np.isnan(tests.p_value[0]) else float(tests.p_value[0]),
        "n_common_tasks": int(sum(v.shape[1] for v in rows)),
    }


def compared_by(result: IndexDocument | RunSetSummary, other: RunSetSummary) -> str | None:
    """``protocol`` or ``suite``: what ``other`` differs by (else equal, a model shared), or None.

    >>> def run_set(suite, protocol):
    ...     return RunSetSummary({"suite": suite, "solver_protocol": protocol, "models": {"m": {}}})
    >>> [compared_by(run_set("l", "offline"), run_set(*other))
    ...  for other in (("l", "online"), ("f", "offline"), ("f", "online"))]
    ['protocol', 'suite', None]
    """
    for by, (key, same) in COMPARED_BY.items():
        if (
            getattr(other, same) == getattr(result, same)
            and getattr(other, key) != getattr(result, key)
            and bool(set(other.results) & set(result.results))
        ):
            return by
    return None


def compare_run_set(
    result: IndexDocument, compared: dict[str, dict[str, Any]], level: float
) -> list[dict[str, Any]]:
    """This run set beside each run set of ``compared`` (name -> summary with ``task_means``):
    a ``RunSetComparison`` of ``run-set.json`` each, a row per shared model.

    >>> means = {"P": 0.5, "S": 0.5, "C": 0.5, "O": 0.5}
    >>> mine = IndexDocument({"suite": "s", "solver_protocol": "offline", "models": {"m": {
    ...     "status": "complete", "index": 50.0, "track_means": means, "tasks": []}}})
    >>> other = {"suite": "s", "solver_protocol": "online", "models": {"m": {
    ...     "status": "complete", "index": 48.0, "track_means": means}}}
    >>> (found,) = compare_run_set(mine, {"s-online": other}, 0.95)
    >>> found["by"], found["this"], found["other"], found["models"][0]["delta_index"]
    ('protocol', 'offline', 'online', 2.0)
    """
    out = []
    for name, data in sorted(compared.items()):
        other = RunSetSummary(data)
        by = compared_by(result, other)
        if by is not None:
            out.append(_comparison(name, result, other, data.get("task_means") or {}, by, level))
    return out


def _comparison(
    name: str,
    result: IndexDocument,
    other: RunSetSummary,
    theirs_all: dict[str, Any],
    by: str,
    level: float,
) -> dict[str, Any]:
    key, _ = COMPARED_BY[by]
    rows, same_tasks = [], True
    for model in (m for m in result.results if m in other.results):
        a, b = result.results[model], other.results[model]
        mine, theirs = a.task_means(), theirs_all.get(model, {})
        same = _task_set(mine) == _task_set(theirs)
        same_tasks = same_tasks and same
        both = a.index is not None and b.index is not None
        paired = None
        if both and theirs:
            paired = paired_delta(mine, theirs, level, (a.index, b.index) if same else None)
        deltas = {}
        for letter in LETTERS:
            x, y = a.track_means[letter], b.track_means[letter]
            deltas[letter] = None if x is None or y is None else x - y
        rows.append(
            {
                "model": model,
                "index": a.index,
                "other_index": b.index,
                "delta_index": a.index - b.index if both else None,
                "delta_common_tasks": None if paired is None else paired["delta"],
                "ci": None if paired is None else paired["ci"],
                "p_value": None if paired is None else paired["p_value"],
                "n_common_tasks": None if paired is None else paired["n_common_tasks"],
                "track_deltas": deltas,
                "status": a.status,
                "other_status": b.status,
            }
        )
    return {
        "run_set": name,
        "by": by,
        "this": getattr(result, key),
        "other": getattr(other, key),
        "same_tasks": same_tasks,
        "level": level,
        "models": rows,
    }


def _task_set(means: dict[str, dict[str, Any]]) -> set[tuple[str, str]]:
    return {(track, item) for track, items in means.items() for item in items}
