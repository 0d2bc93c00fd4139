"""Solver relative score of one task against a fixed reference.

For each scored reference instance with mean ``mu``, sample standard deviation ``s``
and ``scale = max(s, rel_floor*|mu|, abs_floor)``, a valid candidate value ``A``
scores ``Phi(z)`` with ``z = (A - mu)/scale`` (maximise) or ``z = (mu - A)/scale``
(minimise). Higher is better: 0.5 means "as good as the reference mean", values
near 1 beat it by several reference spreads. Completed solver failures score 0.
The task's ``relative_score`` is the mean over the scored instances, in [0, 1].
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import Any

from ..errors import InputRefused, Problem
from ..formulas import InstanceStats, relative_score, z_score
from ..jsonio import read_json_with_digest
from ..record_values import candidate_value
from ..references.model import Reference, TaskReference
from ..schemas import validate_with_schema
from ..vocab import (
    COMPLETED_FAILURE_STATUSES,
    INFRASTRUCTURE_STATUSES,
    KNOWN_RECORD_STATUSES,
    STATUS_OK,
    sorted_statuses,
)
from .instances import (
    RecordColumns,
    candidate_values,
    instance_rows,
    record_columns,
)

#: How many missing instance names a refusal spells out before counting the rest.
_MAX_NAMED_MISSING = 50


def read_records(path: str | os.PathLike[str]) -> Any:
    """Read a strict JSON instance records file (checked when it is scored)."""
    return read_records_with_digest(path)[0]


def read_records_with_digest(path: str | os.PathLike[str]) -> tuple[Any, str]:
    """:func:`read_records` and the sha256 of the file's bytes (read once)."""
    return read_json_with_digest(path, _describe_record_path)


def _describe_record_path(records: Any):
    def describe(path: list[Any]) -> str:
        if path and isinstance(path[0], int) and isinstance(records, list):
            record = records[path[0]]
            name = record.get("instance") if isinstance(record, dict) else None
            label = f"record #{path[0] + 1}" + (
                f" (instance '{name}')" if isinstance(name, str) else ""
            )
            return label
        return "(top level)"

    return describe


def score_solver_task(
    reference: Reference,
    task: str,
    records: Sequence[dict[str, Any]],
    *,
    source: str = "records",
) -> dict[str, Any]:
    """Score one task's instance records against a reference.

    Parameters
    ----------
    reference : Reference
        A loaded reference (see :func:`load_reference`).
    task : str
        The solver task id; it must be a task of the reference.
    records : list of dict
        One record per instance: ``instance``, ``status`` and the value ``A``
        (``solve`` tasks may give the boolean ``solved`` instead).
    source : str
        Name of the records file, used in messages.

    Returns
    -------
    dict
        ``task``, ``reference_id``, ``kind``, ``direction``, ``relative_score`` (mean
        instance score in [0, 1]; higher is better, 0.5 = as good as the reference
        mean), ``n_scored``, per-instance rows (``instance``, ``status``, ``A``, ``mu``,
        ``s``, ``scale``, ``scale_term``, ``z``, ``score``) and ``unscored_instances``
        (records outside the scored set, with a reason). Every record appears once.

    Raises
    ------
    InputRefused
        Missing records for scored instances, duplicate instances, infrastructure or
        unknown statuses, an ``ok`` record without a usable value, ``solved`` on an
        objective task. The message names every offending instance.

    Examples
    --------
    The worked example of the scoring rules:

    >>> from tcsexam_lib import reference_from_data
    >>> ref = reference_from_data({
    ...     "reference_id": "example", "suite": "lite",
    ...     "scale_floor_relative": 0.02, "scale_floor_absolute": 1e-9,
    ...     "tasks": {"maxcut-mqlib": {"kind": "objective", "direction": "maximize",
    ...               "instances": {"example-1": [10, 12, 14], "example-2": [5, 7]}}},
    ...     "unscored_reference_instances": []})
    >>> out = score_solver_task(ref, "maxcut-mqlib", [
    ...     {"instance": "example-1", "status": "ok", "A": 12},
    ...     {"instance": "example-2", "status": "timeout"}])
    >>> out["relative_score"], [row["score"] for row in out["instances"]]
    (0.25, [0.5, 0.0])
    """
    columns = record_columns(records)
    if columns is None:
        validate_with_schema(records, "records", source, _describe_record_path(records))
        columns = RecordColumns.of(records)
    if task not in reference.tasks:
        raise InputRefused(
            "Task is not in the reference",
            [
                Problem(
                    f"reference '{reference.reference_id}' ({reference.suite})",
                    field="task",
                    value=task,
                    allowed=", ".join(sorted(reference.tasks)),
                )
            ],
        )
    task_ref = reference.tasks[task]
    candidates = candidate_values(records, columns, task_ref)
    if candidates is None:
        refuse_records(records, task_ref, source)  # names every problem
        raise AssertionError("records refused column by column but not one by one")
    scored = instance_rows(records, columns, candidates, task_ref, reference)
    if scored is None:
        refuse_records(records, task_ref, source)  # names the candidate whose z overflows
        raise AssertionError("z overflowed column by column but not one by one")
    rows, unscored_rows, scores = scored
    return {
        "task": task,
        "reference_id": reference.reference_id,
        "suite": reference.suite,
        "kind": task_ref.kind,
        "direction": task_ref.direction,
        "scale_floor_relative": reference.scale_floor_relative,
        "scale_floor_absolute": reference.scale_floor_absolute,
        "relative_score": relative_score(scores, len(rows)),
        "n_scored": len(rows),
        "n_records": len(records),
        "instances": rows,
        "unscored_instances": unscored_rows,
    }


def _overflow_problem(
    value: float, stats: InstanceStats, task_ref: TaskReference, where: str
) -> Problem | None:
    """A candidate so far from the reference that ``z`` is not a float (an infinity)."""
    if math.isfinite(z_score(value, stats.mu, stats.scale, task_ref.direction)):
        return None
    return Problem(
        where,
        field="A",
        value=value,
        detail=f"z = (A - mu) / scale overflows a float (mu {stats.mu!r}, scale "
        f"{stats.scale!r}): almost certainly a recording error",
        allowed="a value whose distance to the reference mean, in scales, is a float "
        "(below about 1.8e308 scales)",
    )


def refuse_records(records: list[dict[str, Any]], task_ref: TaskReference, source: str) -> None:
    """Check the records one by one; raise naming every problem (none found: return)."""
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    for position, record in enumerate(records, start=1):
        name = record["instance"]
        status = record["status"]
        where = f"{source} record #{position} (instance '{name}')"
        if name in seen:
            detail = f"duplicate instance name (also record #{seen[name]})"
            problems.append(Problem(where, field="instance", value=name, detail=detail))
            continue
        seen[name] = position
        if status not in KNOWN_RECORD_STATUSES:
            allowed = sorted_statuses(KNOWN_RECORD_STATUSES)
            problems.append(Problem(where, field="status", value=status, allowed=allowed))
            continue
        if task_ref.kind == "objective" and "solved" in record:
            allowed = "no 'solved' field on an objective task (whatever the status); give A"
            problems.append(Problem(where, field="solved", value=record["solved"], allowed=allowed))
            continue
        if name not in task_ref.scored:
            continue  # kept as an unscored instance
        if status in INFRASTRUCTURE_STATUSES:
            problems.append(
                Problem(
                    where,
                    field="status",
                    value=status,
                    detail="an infrastructure status is an incomplete observation: repair the "
                    "judging input and score again (it is never counted as 0)",
                    allowed="ok or a completed failure "
                    f"({sorted_statuses(COMPLETED_FAILURE_STATUSES)})",
                )
            )
        elif status == STATUS_OK:
            value, problem = candidate_value(record, task_ref.kind, where)
            if problem is None:
                problem = _overflow_problem(value, task_ref.scored[name], task_ref, where)
            if problem is not None:
                problems.append(problem)
    missing = [name for name in task_ref.scored if name not in seen]
    if missing:
        shown = ", ".join(f"'{m}'" for m in missing[:_MAX_NAMED_MISSING])
        more = len(missing) - _MAX_NAMED_MISSING
        problems.append(
            Problem(
                f"{source}",
                field="instance",
                detail=f"no record for {len(missing)} scored instance(s) of task "
                f"'{task_ref.name}': {shown}" + (f" and {more} more" if more > 0 else ""),
                allowed="one record per scored reference instance",
            )
        )
    if problems:
        raise InputRefused.from_problems(
            f"Cannot score task '{task_ref.name}' from {source}", problems
        )
