"""Reading a ``tcsexam score`` output for ``tcsexam stats``, and refusing what is not one.

Strict JSON, validated against ``index-output.schema.json``, then checked for agreement
(metric id, index present exactly when not incomplete, scores in range, means recomputed,
the same tasks for every ranked model); each disagreement one
:class:`~tcsexam_lib.errors.Problem`.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..digests import sha256_bytes
from ..errors import InputRefused, Problem
from ..formulas import combine_track_means, mean_score
from ..inputfiles import read_input_bytes
from ..record_specs import to_struct
from ..schemas import parse_document, validate_document
from ..scoring.index_document import ComputedIndex, IndexDocument
from ..vocab import METRIC_ID, SCORE_RANGES, TRACKS, score_in_range

#: Recomputed and recorded means may differ by this much (relative and absolute).
AGREEMENT_TOLERANCE = 1e-9


@dataclass(frozen=True)
class IndexInput:
    """What ``tcsexam stats`` uses from a ``tcsexam score`` output.

    ``models`` lists every model (input order); ``ranked`` those with an index, whose
    rows ``values`` holds: per track (``TRACKS`` order) an array ``(len(ranked), n_t)``
    of task means, columns in the order of ``items``. ``scores[model][t][i]`` are the
    adopted valid attempt scores of task ``i`` of track ``t``.
    """

    path: str
    sha256: str
    data: Any  # the index document, IndexDocument's reading spec (read by attribute)
    models: list[str]
    ranked: list[str]
    items: tuple[tuple[str, ...], ...]
    values: tuple[np.ndarray, ...]
    scores: dict[str, tuple[tuple[tuple[float, ...], ...], ...]]


def read_index_output(path: str | os.PathLike[str]) -> IndexInput:
    """Read and check a ``tcsexam score`` output (refused with every problem found).

    >>> import json, pathlib, tempfile
    >>> bad = pathlib.Path(tempfile.mkdtemp()) / "index.json"
    >>> _ = bad.write_text(json.dumps({"metric_id": "other", "models": {}}))
    >>> try:
    ...     read_index_output(bad)
    ... except InputRefused as exc:
    ...     print(exc.problems[0].field, exc.problems[0].value)
    models {}
    """
    raw = read_input_bytes(path)
    data = parse_document(raw, IndexDocument, str(path))  # no text made when it reads fast
    return _index_input(data, str(path), sha256_bytes(raw), checked=False)


def index_input_from_data(data: Any, source: str, sha256: str) -> IndexInput:
    """Check an index output already in memory (``source`` names it in refusals).

    A :class:`~tcsexam_lib.scoring.index_document.ComputedIndex` (the report runner's) is
    taken as it is: its numbers agree by construction.
    """
    computed = isinstance(data, ComputedIndex)
    if not computed:
        validate_document(data, IndexDocument, source)
    return _index_input(to_struct(data, IndexDocument), source, sha256, checked=computed)


def _index_input(data: Any, source: str, sha256: str, *, checked: bool) -> IndexInput:
    """The input of an index document (``IndexDocument``'s reading spec, read by
    attribute); ``checked``: its numbers agree by construction (else they are checked)."""
    per_model: dict[str, dict[str, list[Any]]] = {}
    for model, entry in data.models.items():
        per_model[model] = {t: [k for k in entry.tasks if k.track == t] for t in TRACKS}
    ranked = [m for m, entry in data.models.items() if entry.index is not None]
    if not checked:
        _refuse_unusable(data, source, ranked, per_model)
    first = per_model[ranked[0]] if ranked else {t: [] for t in TRACKS}
    items = tuple(tuple(task.item for task in first[t]) for t in TRACKS)
    values = tuple(
        np.array([[task.mean for task in per_model[m][t]] for m in ranked], dtype=float).reshape(
            len(ranked), len(items[k])
        )
        for k, t in enumerate(TRACKS)
    )
    scores = {
        m: tuple(tuple(tuple(task.scores) for task in per_model[m][t]) for t in TRACKS)
        for m in ranked
    }
    return IndexInput(
        path=source,
        sha256=sha256,
        data=data,
        models=list(data.models),
        ranked=ranked,
        items=items,
        values=values,
        scores=scores,
    )


def _refuse_unusable(
    data: Any,
    source: str,
    ranked: list[str],
    per_model: dict[str, dict[str, list[Any]]],
) -> None:
    """Refuse an index output read from a file that is not one of this kit, or whose
    numbers do not agree, with every problem found."""
    problems: list[Problem] = []
    if data.metric_id != METRIC_ID:
        allowed = f"{METRIC_ID} (an output of tcsexam score of this kit)"
        problems.append(Problem(source, field="metric_id", value=data.metric_id, allowed=allowed))
    for model, entry in data.models.items():
        problems.extend(_check_model(source, model, entry, per_model[model]))
    if not problems and ranked:
        problems.extend(_check_same_tasks(source, ranked, per_model))
    if problems:
        raise InputRefused.from_problems(f"{source} is not a usable tcsexam score output", problems)


def _agree(recorded: float, recomputed: float) -> bool:
    return math.isclose(
        recorded, recomputed, rel_tol=AGREEMENT_TOLERANCE, abs_tol=AGREEMENT_TOLERANCE
    )


def _check_model(
    source: str, model: str, entry: Any, by_track: dict[str, list[Any]]
) -> list[Problem]:
    """The problems of one model of an index (``by_track``: its tasks, grouped by track)."""
    where = f"{source} models.{model}"
    incomplete = entry.status == "incomplete"
    if incomplete != (entry.index is None):
        return [
            Problem(
                where,
                field="index",
                value=entry.index,
                allowed="null when the status is incomplete, a number otherwise "
                f"(status {entry.status!r})",
            )
        ]
    if incomplete:
        return []
    return _check_tasks(where, entry.tasks) or _check_means(where, entry, by_track)


def _check_tasks(where: str, tasks: list[Any]) -> list[Problem]:
    """Each task of a model with an index: listed once, its scores in range, its mean theirs."""
    problems = []
    seen: set[tuple[str, str]] = set()
    for position, task in enumerate(tasks):
        key = (task.track, task.item)  # the task's place is named only in a problem
        if key in seen:
            at = _task_place(where, position, task)
            problems.append(Problem(at, field="item", value=task.item, detail="listed twice"))
        seen.add(key)
        outside = [x for x in task.scores if not score_in_range(task.track, x)]
        if outside:
            allowed = f"attempt scores {SCORE_RANGES[task.track]}"
            at = _task_place(where, position, task)
            problems.append(Problem(at, field="scores", value=outside[0], allowed=allowed))
            continue
        if task.mean is None or not task.scores:
            allowed = "a number with its scores (the model has an index)"
        elif not _agree(task.mean, mean_score(task.scores)):
            allowed = f"the mean of its scores, {mean_score(task.scores)!r}"
        else:
            continue
        at = _task_place(where, position, task)
        problems.append(Problem(at, field="mean", value=task.mean, allowed=allowed))
    return problems


def _check_means(where: str, entry: Any, by_track: dict[str, list[Any]]) -> list[Problem]:
    """A model's track means those of its task means, and its index their weighted sum."""
    problems = []
    means = {}
    for track in TRACKS:
        task_means = [task.mean for task in by_track[track]]
        recorded = entry.tracks[track].mean
        if not task_means:
            problems.append(
                Problem(where, field=f"tasks ({track})", value=[], allowed="at least one task")
            )
        elif recorded is None or not _agree(recorded, mean_score(task_means)):
            problems.append(
                Problem(
                    f"{where}.tracks.{track}",
                    field="mean",
                    value=recorded,
                    allowed=f"the mean of its task means, {mean_score(task_means)!r}",
                )
            )
        means[track] = recorded
    if not problems and not _agree(entry.index, combine_track_means(means)):
        problems.append(
            Problem(
                where,
                field="index",
                value=entry.index,
                allowed=f"the weighted sum of its track means, {combine_track_means(means)!r}",
            )
        )
    return problems


def _task_place(where: str, position: int, task: Any) -> str:
    return f"{where}.tasks[{position}] ({task.track}/{task.item})"


def _check_same_tasks(
    source: str, ranked: list[str], per_model: dict[str, dict[str, list[Any]]]
) -> list[Problem]:
    first = ranked[0]
    expected = {t: [task.item for task in per_model[first][t]] for t in TRACKS}
    problems = []
    for model in ranked[1:]:
        for track in TRACKS:
            got = [task.item for task in per_model[model][track]]
            if got != expected[track]:
                problems.append(
                    Problem(
                        f"{source} models.{model}.tasks",
                        field=f"{track} tasks",
                        value=got,
                        allowed=f"the tasks of '{first}' in the same order: {expected[track]}",
                    )
                )
    return problems
