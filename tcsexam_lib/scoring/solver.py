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
from .formulas import instance_scores, mean_score

#: The fields of a record that the output rows hold under their own names.
_OWN_FIELDS = frozenset({"instance", "status", "A", "solved"})

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


def _keep_extra_fields(row: dict[str, Any], record: dict[str, Any]) -> None:
    """Copy a record's further fields into its output row without replacing computed ones.

    A field whose name the kit computes (``score``, ``mu``, ``reason``...) is kept as
    ``record_<name>``, so a judge's own ``score`` never changes the relative score.
    """
    for key, value in record.items():
        if key not in _OWN_FIELDS:
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
    if not _records_look_valid(records):
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
    names = [record["instance"] for record in records]
    statuses = [record["status"] for record in records]
    values = _candidate_values(records, names, statuses, task_ref)
    if values is None:
        _refuse_records(records, task_ref, reference.reference_id, source)
        values = _candidate_values(records, names, statuses, task_ref, strict=False)
    rows, unscored_rows = _instance_rows(records, names, statuses, values, task_ref, reference)
    return {
        "task": task,
        "reference_id": reference.reference_id,
        "suite": reference.suite,
        "kind": task_ref.kind,
        "direction": task_ref.direction,
        "scale_floor_relative": reference.scale_floor_relative,
        "scale_floor_absolute": reference.scale_floor_absolute,
        "relative_score": mean_score([row["score"] for row in rows]),
        "n_scored": len(rows),
        "n_records": len(records),
        "instances": rows,
        "unscored_instances": unscored_rows,
    }


_OPTIONAL_FIELD_TYPES = {"A": {int, float, bool, type(None)}, "solved": {bool, type(None)}}


def _records_look_valid(records: Any) -> bool:
    """True when the records certainly match their published schema (checked per field).

    A list of objects, each with a non-empty string ``instance`` and ``status``; ``A`` a
    number, boolean or null and ``solved`` a boolean or null when present. Anything else
    goes to the full schema validator, which names what is wrong (or accepts it).
    """
    if type(records) is not list or not all(type(record) is dict for record in records):
        return False
    for field in ("instance", "status"):
        found = [record.get(field) for record in records]
        if not {type(value) for value in found} <= {str} or not all(found):
            return False
    for field, allowed in _OPTIONAL_FIELD_TYPES.items():
        if not {type(record[field]) for record in records if field in record} <= allowed:
            return False
    return True


def _candidate_values(
    records: list[dict[str, Any]],
    names: list[str],
    statuses: list[str],
    task_ref: TaskReference,
    *,
    strict: bool = True,
) -> list[float | None] | None:
    """The value of every ``ok`` record of a scored instance (``None`` for the others).

    With ``strict``, ``None`` is returned instead when any rule of the records does not
    hold (a duplicate, an unknown or infrastructure status, a missing scored instance,
    ``solved`` on an objective task, an ``ok`` record without a usable value): the
    records are then checked one by one to name every problem.
    """
    scored = task_ref.scored
    if strict and (
        len(set(names)) != len(names)
        or not set(statuses) <= KNOWN_RECORD_STATUSES
        or (task_ref.kind == "objective" and any("solved" in record for record in records))
        or not scored.keys() <= set(names)
        or any(
            s in INFRASTRUCTURE_STATUSES
            for n, s in zip(names, statuses, strict=True)
            if n in scored
        )
    ):
        return None
    wanted = [n in scored and s == STATUS_OK for n, s in zip(names, statuses, strict=True)]
    if task_ref.kind == "objective":
        found = [record.get("A") for record, w in zip(records, wanted, strict=True) if w]
        if strict and not (
            {type(a) for a in found} <= {int, float} and all(map(math.isfinite, found))
        ):
            return None
        values = iter(map(float, found))
    else:
        checked = [
            candidate_value(record, task_ref, "")
            for record, w in zip(records, wanted, strict=True)
            if w
        ]
        if strict and any(problem is not None for _, problem in checked):
            return None
        values = iter(value for value, _ in checked)
    return [next(values) if w else None for w in wanted]


def _instance_rows(
    records: list[dict[str, Any]],
    names: list[str],
    statuses: list[str],
    values: list[float | None],
    task_ref: TaskReference,
    reference: Reference,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One output row per record: scored instances (with z and score), then unscored ones."""
    scored = task_ref.scored
    stats = [scored.get(name) for name in names]
    zs, scores = instance_scores(
        [v for v in values if v is not None],
        [st.mu for st, v in zip(stats, values, strict=True) if v is not None],
        [st.scale for st, v in zip(stats, values, strict=True) if v is not None],
        task_ref.direction,
    )
    z_of, score_of = iter(zs), iter(scores)
    rows, unscored_rows = [], []
    for record, name, status, value, st in zip(
        records, names, statuses, values, stats, strict=True
    ):
        if st is None:
            unscored_rows.append(_unscored_row(record, task_ref, reference))
            continue
        ok = value is not None
        row = {
            "instance": name,
            "status": status,
            "A": value,
            "mu": st.mu,
            "s": st.s,
            "scale": st.scale,
            "scale_term": st.scale_term,
            "z": next(z_of) if ok else None,
            "score": next(score_of) if ok else 0.0,
        }
        if len(record) > 2:  # further fields than instance and status
            if not ok and "A" in record:
                row["A_reported"] = record["A"]
            if "solved" in record:
                row["solved"] = record["solved"]
            _keep_extra_fields(row, record)
        rows.append(row)
    return rows, unscored_rows


def _unscored_row(
    record: dict[str, Any], task_ref: TaskReference, reference: Reference
) -> dict[str, Any]:
    """The row of a record outside the scored set, with the reason it is not counted."""
    name = record["instance"]
    reason = task_ref.unscored.get(name)
    if reason is None:
        reason = (
            f"not an instance of task '{task_ref.name}' in reference '{reference.reference_id}'"
        )
    else:
        reason = f"listed in unscored_reference_instances: {reason}"
    row = {
        "instance": name,
        "status": record["status"],
        "reason": reason,
        **{k: record[k] for k in ("A", "solved") if k in record},
    }
    _keep_extra_fields(row, record)
    return row


def _refuse_records(
    records: list[dict[str, Any]], task_ref: TaskReference, reference_id: str, source: str
) -> None:
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
            _, problem = candidate_value(record, task_ref, where)
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
