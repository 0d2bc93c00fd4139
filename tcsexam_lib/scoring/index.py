"""The weighted TCSExam index of each model of a cohort (points, higher is better, may
exceed 100): task means over adopted attempts, equal-weight track means, fixed weights.

A model is ``incomplete`` (index ``null``) when a planned task or repeat lacks an adopted
``valid`` row or any ``error`` is found (its evidence too), ``provisional`` when an adopted
row is ``selected_provisional``, else ``complete``.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from ..errors import InputRefused, Problem
from ..formulas import combine_track_means, mean_score, track_contribution
from ..references.suites import Suite
from ..vocab import ADOPTED_STATUSES, INDEX_FORMULA, METRIC_ID, TRACK_LETTERS, TRACK_WEIGHTS, TRACKS
from .attempts import AttemptRows
from .cohort import Cohort
from .index_document import (
    STATUS_COMPLETE,
    STATUS_INCOMPLETE,
    STATUS_ORDER,
    STATUS_PROVISIONAL,
    ComputedIndex,
    IndexDocument,
)
from .issues import Issue


def _row_issue(code: str, key: tuple[str, str, str], row: dict[str, Any], text: str) -> Issue:
    return Issue.about(code, key, text, attempt=str(row["attempt"]), line=int(row["line"]))


def missing_repeats(planned: int, adopted_valid: int) -> range:
    """The repeat numbers still missing when ``adopted_valid`` of ``planned`` are there.

    >>> list(missing_repeats(3, 1))
    [2, 3]
    """
    return range(adopted_valid + 1, planned + 1)


def coverage_category(adoption_status: str, score_status: str) -> str:
    """What one attempt row is for coverage: valid, provisional, failed, missing (its
    score_status says so) or excluded (kept, never aggregated).

    >>> coverage_category("selected", "judge_failed"), coverage_category("excluded", "valid")
    ('failed', 'excluded')
    """
    if adoption_status == "excluded":
        return "excluded"
    if score_status == "missing":
        return "missing"
    if score_status != "valid":
        return "failed"
    if adoption_status == "selected_provisional":
        return "provisional"
    return "valid"


def _score_task(
    key: tuple[str, str, str],
    planned: int,
    rows: list[dict[str, Any]],
    found: Sequence[Issue] = (),
) -> tuple[dict[str, Any], list[Issue]]:
    """Mean of a task's adopted valid attempts, its status and issues (``found`` may block it)."""
    if (
        not found
        and len(rows) == planned
        and all(r["adoption_status"] == "selected" and r["score_status"] == "valid" for r in rows)
    ):  # the usual case: every planned attempt adopted and valid, nothing to report
        attempts = [r["attempt"] for r in rows]
        scores = [r["score"] for r in rows]
        return task_result(key, STATUS_COMPLETE, planned, attempts, attempts, scores, rows), []
    adopted = [r for r in rows if r["adoption_status"] in ADOPTED_STATUSES]
    valid = [r for r in adopted if r["score_status"] == "valid"]
    provisional = [r for r in adopted if r["adoption_status"] == "selected_provisional"]
    issues: list[Issue] = []
    if not rows:
        text = f"no attempt row; {planned} adopted valid attempt(s) planned"
        issues.append(Issue.about("missing_task", key, text))
    for row in adopted:
        if row["score_status"] != "valid":
            text = f"is adopted but its score_status is '{row['score_status']}'"
            issues.append(_row_issue("adopted_not_valid", key, row, text))
    if rows and len(valid) < planned:
        repeats = ", ".join(str(k) for k in missing_repeats(planned, len(valid)))
        text = (
            f"{len(valid)} of {planned} planned attempts have an adopted valid score; "
            f"{planned - len(valid)} missing (repeat {repeats} of {planned})"
        )
        issues.append(
            Issue.about("missing_attempt", key, text, planned=planned, adopted_valid=len(valid))
        )
    for row in provisional:
        text = "is adopted provisionally (selected_provisional)"
        issues.append(_row_issue("provisional_attempt", key, row, text))
    for row in rows:
        if row["adoption_status"] == "excluded" and not str(row.get("note") or "").strip():
            text = "is excluded without a note saying why it was replaced"
            issues.append(_row_issue("excluded_without_note", key, row, text))
    issues.extend(found)
    if len(valid) < planned or any(issue.severity == "error" for issue in found):
        status = STATUS_INCOMPLETE
    elif provisional:
        status = STATUS_PROVISIONAL
    else:
        status = STATUS_COMPLETE
    adopted_ids = [r["attempt"] for r in adopted]
    valid_ids = [r["attempt"] for r in valid]
    scores = [r["score"] for r in valid]
    return task_result(key, status, planned, adopted_ids, valid_ids, scores, rows), issues


#: A construction score over this many times the cohort's typical one is warned about.
FAR_FACTOR = 1000.0


def far_score_issues(groups: dict[tuple[str, str, str], list[dict[str, Any]]]) -> list[Issue]:
    """A ``far_score`` warning per adopted valid construction row over :data:`FAR_FACTOR`
    times the larger of 1 and the cohort's lower median construction score.

    >>> rows = [{"adoption_status": "selected", "score_status": "valid", "score": score,
    ...          "attempt": "1", "line": line} for line, score in ((2, 0.8), (3, 1e15))]
    >>> groups = {("m", "construction", f"c{k}"): [row] for k, row in enumerate(rows)}
    >>> [issue.message[:42] for issue in far_score_issues(groups)]
    ["m/construction/c1 attempt '1' (line 3): sc"]
    """
    rows = [
        (key, row)
        for key, task_rows in groups.items()
        if key[1] == "construction"
        for row in task_rows
        if row["adoption_status"] in ADOPTED_STATUSES and row["score_status"] == "valid"
    ]
    if not rows:
        return []
    typical = max(1.0, statistics.median_low(abs(row["score"]) for _, row in rows))
    text = "score {:.6g} is orders of magnitude above the cohort's construction scores " + (
        f"(over {FAR_FACTOR:g} x {typical:g}, the larger of 1 and their lower median)"
    )
    return [
        _row_issue("far_score", key, row, text.format(row["score"]))
        for key, row in rows
        if abs(row["score"]) > FAR_FACTOR * typical
    ]


def compute_index(
    attempts: AttemptRows,
    suite: Suite,
    cohort: Cohort,
    *,
    reference_id: str | None = None,
    found: Sequence[Issue] = (),
) -> IndexDocument:
    """Aggregate a validated attempts table into the :class:`IndexDocument` of every model;
    ``found`` are issues found beside the table (an ``error`` blocks its model)."""
    groups = attempts.groups
    found_by_task: dict[tuple[str, str, str], list[Issue]] = {}
    for issue in [*found, *far_score_issues(groups)]:
        found_by_task.setdefault((issue.model, issue.track, issue.item), []).append(issue)
    models: dict[str, Any] = {}
    for model, plan in cohort.models.items():
        tasks, issues = [], []
        for track, item in suite.tasks:
            key = (model, track, item)
            task, task_issues = _score_task(
                key, plan.planned(item), groups.get(key, []), found_by_task.get(key, ())
            )
            tasks.append(task)
            issues.extend(task_issues)
        issue_list = [issue.to_dict() for issue in issues]
        models[model] = model_result(model, tasks, issue_list, source=attempts.source)
    return assemble_index(
        models,
        suite=suite.name,
        solver_protocol=cohort.solver_protocol,
        reference_id=reference_id or cohort.solver_reference_id,
        adoption_rule=cohort.adoption_rule,
    )


# --- assembling the document from what the index computed --------------------------------


def worst_status(statuses: set[str]) -> str:
    """The status of a whole made of parts with these statuses (incomplete beats provisional)."""
    return max(statuses, key=STATUS_ORDER.index)


def task_result(
    key: tuple[str, str, str],
    status: str,
    planned: int,
    adopted: list[str],
    valid: list[str],
    scores: list[float],
    rows: list[dict[str, Any]],
) -> dict[str, Any]:
    """One task of the index output: its mean when every planned attempt is there."""
    return {
        "track": key[1],
        "item": key[2],
        "status": status,
        "planned_attempts": planned,
        "adopted_attempts": adopted,
        "adopted_valid_attempts": valid,
        "scores": scores,
        "mean": None if status == STATUS_INCOMPLETE else mean_score(scores),
        "rows": rows,
    }


def model_result(
    model: str,
    tasks: list[dict[str, Any]],
    issues: list[dict[str, Any]],
    *,
    source: str = "the attempts table",
) -> dict[str, Any]:
    """One model of the index output from its tasks and issues (``source`` names the table
    when a mean or the index overflows)."""
    by_track: dict[str, list[dict[str, Any]]] = {track: [] for track in TRACKS}
    for task in tasks:
        by_track[task["track"]].append(task)
    tracks = {}
    for track, in_track in by_track.items():
        means = [t["mean"] for t in in_track if t["mean"] is not None]
        mean = mean_score(means) if len(means) == len(in_track) else None
        tracks[track] = {
            "letter": TRACK_LETTERS[track],
            "weight": TRACK_WEIGHTS[track],
            "mean": mean,
            "contribution": None if mean is None else track_contribution(track, mean),
            "tasks_planned": len(in_track),
            "tasks_complete": len(means),
        }
    status = worst_status({t["status"] for t in tasks})
    index = None
    if status != STATUS_INCOMPLETE:
        index = combine_track_means({t: tracks[t]["mean"] for t in TRACKS})
    sums = [index, *(t["mean"] for t in tasks), *(t["contribution"] for t in tracks.values())]
    if not all(math.isfinite(value) for value in sums if value is not None):
        _refuse_overflow(model, tracks, tasks, source)
    coverage = {
        "tasks_planned": len(tasks),
        "tasks_complete": sum(t["mean"] is not None for t in tasks),
        "attempts_planned": sum(t["planned_attempts"] for t in tasks),
        "attempts_adopted_valid": sum(len(t["adopted_valid_attempts"]) for t in tasks),
        "rows": sum(len(t["rows"]) for t in tasks),
    }
    return {
        "status": status,
        "index": index,
        "tracks": tracks,
        "track_means": {TRACK_LETTERS[t]: tracks[t]["mean"] for t in TRACKS},
        "tasks": tasks,
        "coverage": coverage,
        "issues": issues,
    }


def _refuse_overflow(
    model: str, tracks: dict[str, dict[str, Any]], tasks: list[dict[str, Any]], source: str
) -> None:
    """Refuse rewards so large a mean or the weighted sum is not a float, naming the largest
    score of the overflowing tracks (any track when only the sum does) by line and task."""
    over = {t for t, e in tracks.items() if not math.isfinite(e["contribution"] or 0.0)}
    rows = [
        (abs(row["score"]), row, task)
        for task in tasks
        if task["mean"] is not None and (not over or task["track"] in over)
        for row in task["rows"]
        if row["attempt"] in task["adopted_valid_attempts"]
    ]
    _, row, task = max(rows, key=lambda entry: entry[0])
    problem = Problem(
        f"{source} line {row['line']}",
        field="score",
        value=row["score"],
        detail=f"model '{model}', {task['track']} task '{task['item']}' attempt "
        f"'{row['attempt']}': the track mean or the index ({INDEX_FORMULA.replace('·', '*')}) "
        "overflows a float",
        allowed="scores whose weighted means sum to a float (construction rewards below "
        "about 1e306)",
    )
    raise InputRefused("Cannot compute the index", [problem])


def assemble_index(
    models: dict[str, dict[str, Any]],
    *,
    suite: str,
    solver_protocol: str,
    reference_id: str,
    adoption_rule: str | None,
) -> IndexDocument:
    """The index document of a cohort's models (see :func:`model_result`)."""
    return ComputedIndex(
        {
            "metric_id": METRIC_ID,
            "suite": suite,
            "solver_protocol": solver_protocol,
            "reference_id": reference_id,
            "weights": dict(TRACK_WEIGHTS),
            "letters": dict(TRACK_LETTERS),
            "adoption_rule": adoption_rule,
            "status": worst_status({m["status"] for m in models.values()}),
            "models": models,
        }
    )
