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

from ..errors import NOT_GIVEN, InputRefused, Problem
from ..jsonio import read_json_with_digest
from ..references.model import Reference, TaskReference
from ..schemas import validate_with_schema
from ..vocab import (
    COMPLETED_FAILURE_STATUSES,
    INFRASTRUCTURE_STATUSES,
    KNOWN_RECORD_STATUSES,
    STATUS_OK,
    sorted_statuses,
)
from .formulas import instance_score, mean_score

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


def _keep_extra_fields(row: dict[str, Any], extra: dict[str, Any]) -> None:
    """Copy a record's further fields into its output row without replacing computed ones.

    A field whose name the kit computes (``score``, ``mu``, ``reason``...) is kept as
    ``record_<name>``, so a judge's own ``score`` never changes the relative score.
    """
    for key, value in extra.items():
        row[f"record_{key}" if key in row else key] = value


def candidate_value(
    record: dict[str, Any], task: TaskReference, where: str
) -> tuple[float | None, Problem | None]:
    """The usable value of an ``ok`` record, or a problem saying why there is none.

    Objective tasks need a finite number ``A`` (not a boolean); ``solve`` tasks take
    ``A`` 1 or 0 or ``solved`` true or false (both must agree when both are given).
    """
    has_a = "A" in record and record["A"] is not None
    has_solved = "solved" in record and record["solved"] is not None
    a = record.get("A")
    if task.kind == "objective":  # a 'solved' field was refused before
        if not has_a:
            return None, Problem(
                where,
                field="A",
                value=record.get("A", NOT_GIVEN),
                allowed="a finite number when status is 'ok'",
            )
        if isinstance(a, bool) or not isinstance(a, int | float) or not math.isfinite(a):
            return None, Problem(
                where,
                field="A",
                value=a,
                allowed="a finite number (not a boolean) when status is 'ok'",
            )
        return float(a), None
    # solve task: 1 (solved) or 0 (not solved), from `solved` or from A
    if has_a:
        if isinstance(a, bool):
            value = 1.0 if a else 0.0
        elif isinstance(a, int | float) and a in (0, 1):
            value = float(a)
        else:
            return None, Problem(
                where, field="A", value=a, allowed="1 (solved) or 0 (not solved) on a solve task"
            )
    else:
        value = None
    if has_solved:
        solved = 1.0 if record["solved"] else 0.0
        if value is not None and value != solved:
            return None, Problem(
                where, field="solved", value=record["solved"], detail=f"disagrees with A = {a!r}"
            )
        value = solved
    if value is None:
        return None, Problem(
            where,
            field="A",
            value=record.get("A", NOT_GIVEN),
            allowed="A (1 or 0) or solved (true/false) when status is 'ok'",
        )
    return value, None


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
    validate_with_schema(records, "records", source, _describe_record_path(records))
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
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    rows: list[dict[str, Any]] = []
    unscored_rows: list[dict[str, Any]] = []
    for position, record in enumerate(records, start=1):
        name = record["instance"]
        status = record["status"]
        where = f"{source} record #{position} (instance '{name}')"
        if name in seen:
            problems.append(
                Problem(
                    where,
                    field="instance",
                    value=name,
                    detail=f"duplicate instance name (also record #{seen[name]})",
                )
            )
            continue
        seen[name] = position
        if status not in KNOWN_RECORD_STATUSES:
            problems.append(
                Problem(
                    where,
                    field="status",
                    value=status,
                    allowed=sorted_statuses(KNOWN_RECORD_STATUSES),
                )
            )
            continue
        if task_ref.kind == "objective" and "solved" in record:
            problems.append(
                Problem(
                    where,
                    field="solved",
                    value=record["solved"],
                    allowed="no 'solved' field on an objective task (whatever the status); give A",
                )
            )
            continue
        stats = task_ref.scored.get(name)
        extra = {k: v for k, v in record.items() if k not in ("instance", "status", "A", "solved")}
        if stats is None:
            reason = task_ref.unscored.get(name)
            if reason is None:
                reason = f"not an instance of task '{task}' in reference '{reference.reference_id}'"
            else:
                reason = f"listed in unscored_reference_instances: {reason}"
            unscored_row = {
                "instance": name,
                "status": status,
                "reason": reason,
                **{k: record[k] for k in ("A", "solved") if k in record},
            }
            _keep_extra_fields(unscored_row, extra)
            unscored_rows.append(unscored_row)
            continue
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
            continue
        row: dict[str, Any] = {
            "instance": name,
            "status": status,
            "A": None,
            "mu": stats.mu,
            "s": stats.s,
            "scale": stats.scale,
            "scale_term": stats.scale_term,
            "z": None,
            "score": 0.0,
        }
        if status == STATUS_OK:
            value, problem = candidate_value(record, task_ref, where)
            if problem is not None:
                problems.append(problem)
                continue
            row["A"] = value
            row["z"], row["score"] = instance_score(value, stats, task_ref.direction)
        else:
            if "A" in record:
                row["A_reported"] = record["A"]
        if "solved" in record:
            row["solved"] = record["solved"]
        _keep_extra_fields(row, extra)
        rows.append(row)
    missing = [name for name in task_ref.scored if name not in seen]
    if missing:
        shown = ", ".join(f"'{m}'" for m in missing[:_MAX_NAMED_MISSING])
        more = (
            f" and {len(missing) - _MAX_NAMED_MISSING} more"
            if len(missing) > _MAX_NAMED_MISSING
            else ""
        )
        problems.append(
            Problem(
                f"{source}",
                field="instance",
                detail=f"no record for {len(missing)} scored "
                f"instance(s) of task '{task}': {shown}{more}",
                allowed="one record per scored reference instance",
            )
        )
    if problems:
        raise InputRefused.from_problems(f"Cannot score task '{task}' from {source}", problems)
    relative = mean_score([row["score"] for row in rows])
    return {
        "task": task,
        "reference_id": reference.reference_id,
        "suite": reference.suite,
        "kind": task_ref.kind,
        "direction": task_ref.direction,
        "scale_floor_relative": reference.scale_floor_relative,
        "scale_floor_absolute": reference.scale_floor_absolute,
        "relative_score": relative,
        "n_scored": len(rows),
        "n_records": len(records),
        "instances": rows,
        "unscored_instances": unscored_rows,
    }
