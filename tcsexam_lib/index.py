"""The weighted TCSExam index of each model of a cohort.

``index = 30*P + 30*S + 30*C + 10*O`` points (metric
``tcsexam-index-original-30303010-v0.1``), each letter a track mean; higher is
better and, because construction rewards may exceed 1, the index may exceed 100.
Averaging order per model: (1) mean over the adopted attempts of each task, (2)
equal-weight mean over the tasks of each track, (3) the fixed weights. A model is
``incomplete`` (index ``null``) when any planned task or repeat lacks an adopted
``valid`` row, ``provisional`` when complete but some adopted row is
``selected_provisional``, and ``complete`` otherwise.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from .plan import Cohort, Suite
from .vocab import (
    ADOPTED_STATUSES,
    METRIC_ID,
    TRACK_LETTERS,
    TRACK_WEIGHTS,
    TRACKS,
)

STATUS_COMPLETE = "complete"
STATUS_PROVISIONAL = "provisional"
STATUS_INCOMPLETE = "incomplete"
_STATUS_ORDER = (STATUS_COMPLETE, STATUS_PROVISIONAL, STATUS_INCOMPLETE)


def combine_track_means(means: dict[str, float]) -> float:
    """Weighted index in points from the four track means.

    Examples
    --------
    The worked example of the scoring rules:

    >>> combine_track_means({"theorem": 0.4, "solver": 0.25, "construction": 1.2,
    ...                      "conjecture": 0.0})
    55.5
    """
    missing = [t for t in TRACKS if t not in means]
    if missing:
        raise ValueError(f"track means missing for: {', '.join(missing)}")
    return math.fsum(TRACK_WEIGHTS[t] * float(means[t]) for t in TRACKS)


def _mean(values: list[float]) -> float:
    return math.fsum(values) / len(values)


def _issue(
    code: str,
    severity: str,
    model: str,
    track: str | None,
    item: str | None,
    message: str,
    **extra: Any,
) -> dict[str, Any]:
    issue = {
        "code": code,
        "severity": severity,
        "model": model,
        "track": track,
        "item": item,
        "message": message,
    }
    issue.update(extra)
    return issue


def _row_record(row: pd.Series, extra_columns: list[str]) -> dict[str, Any]:
    record = {
        "attempt": row["attempt"],
        "line": int(row["line"]),
        "adoption_status": row["adoption_status"],
        "score_status": row["score_status"],
        "score": None if pd.isna(row["score"]) else float(row["score"]),
    }
    for column in extra_columns:
        record[column] = row[column]
    return record


def _score_task(
    model: str, track: str, item: str, planned: int, rows: pd.DataFrame, extra_columns: list[str]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    issues: list[dict[str, Any]] = []
    adopted = rows[rows["adoption_status"].isin(ADOPTED_STATUSES)]
    valid = adopted[adopted["score_status"] == "valid"]
    where = f"{model}/{track}/{item}"
    if rows.empty:
        issues.append(
            _issue(
                "missing_task",
                "error",
                model,
                track,
                item,
                f"{where}: no attempt row; {planned} adopted valid attempt(s) planned",
            )
        )
    for _, row in adopted[adopted["score_status"] != "valid"].iterrows():
        issues.append(
            _issue(
                "adopted_not_valid",
                "error",
                model,
                track,
                item,
                f"{where}: attempt '{row['attempt']}' (line {row['line']}) is adopted "
                f"but its score_status is '{row['score_status']}'",
                attempt=row["attempt"],
                line=int(row["line"]),
            )
        )
    if not rows.empty and len(valid) < planned:
        missing = planned - len(valid)
        repeats = ", ".join(str(k) for k in range(len(valid) + 1, planned + 1))
        issues.append(
            _issue(
                "missing_attempt",
                "error",
                model,
                track,
                item,
                f"{where}: {len(valid)} of {planned} planned attempts have an adopted "
                f"valid score; {missing} missing (repeat {repeats} of {planned})",
                planned=planned,
                adopted_valid=len(valid),
            )
        )
    provisional = adopted[adopted["adoption_status"] == "selected_provisional"]
    for _, row in provisional.iterrows():
        issues.append(
            _issue(
                "provisional_attempt",
                "info",
                model,
                track,
                item,
                f"{where}: attempt '{row['attempt']}' (line {row['line']}) is adopted "
                "provisionally (selected_provisional)",
                attempt=row["attempt"],
                line=int(row["line"]),
            )
        )
    excluded = rows[rows["adoption_status"] == "excluded"]
    for _, row in excluded.iterrows():
        note = str(row.get("note", "") or "").strip() if "note" in rows.columns else ""
        if not note:
            issues.append(
                _issue(
                    "excluded_without_note",
                    "warning",
                    model,
                    track,
                    item,
                    f"{where}: attempt '{row['attempt']}' (line {row['line']}) is "
                    "excluded without a note saying why it was replaced",
                    attempt=row["attempt"],
                    line=int(row["line"]),
                )
            )
    complete = len(valid) == planned
    scores = [float(s) for s in valid["score"]]
    if not complete:
        status = STATUS_INCOMPLETE
    elif not provisional.empty:
        status = STATUS_PROVISIONAL
    else:
        status = STATUS_COMPLETE
    task = {
        "track": track,
        "item": item,
        "status": status,
        "planned_attempts": planned,
        "adopted_attempts": [str(a) for a in adopted["attempt"]],
        "adopted_valid_attempts": [str(a) for a in valid["attempt"]],
        "scores": scores,
        "mean": _mean(scores) if complete else None,
        "rows": [_row_record(row, extra_columns) for _, row in rows.iterrows()],
    }
    return task, issues


def compute_index(
    attempts: pd.DataFrame, suite: Suite, cohort: Cohort, *, reference_id: str | None = None
) -> dict[str, Any]:
    """Aggregate a validated attempts table into the index of every model.

    Parameters
    ----------
    attempts : pandas.DataFrame
        As returned by :func:`read_attempts` (already validated).
    suite, cohort :
        As returned by :func:`load_suite` and :func:`load_cohort`.

    Returns
    -------
    dict
        Top level: ``metric_id``, ``suite``, ``solver_protocol``, ``reference_id``,
        ``weights``, ``letters``, overall ``status`` and ``models``. Per model:
        ``status``, ``index`` (points, ``None`` when incomplete), ``tracks`` (mean,
        letter, weight and contribution of each track), ``tasks`` (per-task mean,
        adopted attempt ids and every input row), ``coverage`` and ``issues``.
    """
    extra_columns = [c for c in attempts.columns if c not in (*_ATTEMPT_KEYS, "line")]
    groups = {key: frame for key, frame in attempts.groupby(["model", "track", "item"], sort=False)}
    empty = attempts.iloc[0:0]
    models: dict[str, Any] = {}
    for model, plan in cohort.models.items():
        tasks, issues = [], []
        for track, item in suite.tasks:
            task, task_issues = _score_task(
                model,
                track,
                item,
                plan.planned(item),
                groups.get((model, track, item), empty),
                extra_columns,
            )
            tasks.append(task)
            issues.extend(task_issues)
        models[model] = _summarise_model(tasks, issues)
    statuses = [m["status"] for m in models.values()]
    overall = max(statuses, key=_STATUS_ORDER.index)
    return {
        "metric_id": METRIC_ID,
        "suite": suite.name,
        "solver_protocol": cohort.solver_protocol,
        "reference_id": reference_id or cohort.solver_reference_id,
        "weights": dict(TRACK_WEIGHTS),
        "letters": dict(TRACK_LETTERS),
        "adoption_rule": cohort.adoption_rule,
        "status": overall,
        "models": models,
    }


_ATTEMPT_KEYS = (
    "model",
    "track",
    "item",
    "attempt",
    "score",
    "adoption_status",
    "score_status",
    "score_type",
    "solver_protocol",
)


def _summarise_model(tasks: list[dict[str, Any]], issues: list[dict[str, Any]]) -> dict[str, Any]:
    tracks = {}
    for track in TRACKS:
        in_track = [t for t in tasks if t["track"] == track]
        means = [t["mean"] for t in in_track if t["mean"] is not None]
        mean = _mean(means) if len(means) == len(in_track) else None
        tracks[track] = {
            "letter": TRACK_LETTERS[track],
            "weight": TRACK_WEIGHTS[track],
            "mean": mean,
            "contribution": None if mean is None else TRACK_WEIGHTS[track] * mean,
            "tasks_planned": len(in_track),
            "tasks_complete": len(means),
        }
    task_statuses = [t["status"] for t in tasks]
    status = max(task_statuses, key=_STATUS_ORDER.index)
    index = None
    if status != STATUS_INCOMPLETE:
        index = combine_track_means({t: tracks[t]["mean"] for t in TRACKS})
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
