"""A task's instance records, column by column: checked, valued and scored at once.

:func:`~tcsexam_lib.scoring.solver.score_solver_task` reads the records as columns (names,
statuses, values), checks every rule over those columns, and scores all valid candidates
of the task as arrays (:func:`~tcsexam_lib.scoring.formulas.instance_scores`). When a rule
does not hold, the records are checked one by one instead, to name every problem
(:func:`~tcsexam_lib.scoring.solver.refuse_records`).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import compress
from operator import attrgetter, itemgetter, methodcaller
from typing import Any

import numpy as np

from ..errors import NOT_GIVEN, Problem
from ..gcpause import few_collections
from ..references.model import Reference, TaskReference
from ..vocab import INFRASTRUCTURE_STATUSES, KNOWN_RECORD_STATUSES, STATUS_OK
from .formulas import instance_scores

#: The fields of a record that the output rows hold under their own names.
OWN_FIELDS = frozenset({"instance", "status", "A", "solved"})

#: The JSON types the records schema allows for its optional fields.
_OPTIONAL_FIELD_TYPES = {"A": {int, float, bool, type(None)}, "solved": {bool, type(None)}}

_instance, _status, _value = itemgetter("instance"), itemgetter("status"), methodcaller("get", "A")
_mu, _scale = attrgetter("mu"), attrgetter("scale")


@dataclass(frozen=True)
class RecordColumns:
    """The records of one task as columns: names, statuses, values ``A`` (``None`` when
    absent), and every field name any record uses."""

    names: list[str]
    statuses: list[str]
    values: list[Any]
    fields: frozenset[str]

    @classmethod
    def of(cls, records: list[dict[str, Any]]) -> RecordColumns:
        """The columns of records that match their schema."""
        return cls(
            list(map(_instance, records)),
            list(map(_status, records)),
            list(map(_value, records)),
            frozenset().union(*records),
        )


def is_finite_number(value: int | float) -> bool:
    """True for a float that is finite and an integer that a float can hold.

    Examples
    --------
    >>> is_finite_number(12), is_finite_number(float("inf")), is_finite_number(10**400)
    (True, False, False)
    """
    if isinstance(value, int):
        return abs(value) <= _LARGEST_FLOAT
    return math.isfinite(value)


_LARGEST_FLOAT = int(sys.float_info.max)


def record_columns(records: Any) -> RecordColumns | None:
    """The records as columns when they certainly match their published schema, else ``None``.

    A list of objects, each with a non-empty string ``instance`` and ``status``; ``A`` a
    number, boolean or null and ``solved`` a boolean or null when present. ``None`` sends the
    records to the full schema validator, which names what is wrong (or accepts them).
    """
    if type(records) is not list or not set(map(type, records)) <= {dict}:
        return None
    try:
        columns = RecordColumns.of(records)
    except KeyError:
        return None
    for found in (columns.names, columns.statuses):
        if not set(map(type, found)) <= {str} or not all(found):
            return None
    if not set(map(type, columns.values)) <= _OPTIONAL_FIELD_TYPES["A"]:
        return None
    if "solved" in columns.fields:
        solved = map(methodcaller("get", "solved"), records)
        if not set(map(type, solved)) <= _OPTIONAL_FIELD_TYPES["solved"]:
            return None
    return columns


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
        if isinstance(a, bool) or not isinstance(a, int | float) or not is_finite_number(a):
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


@dataclass(frozen=True)
class CandidateValues:
    """Which records are valid candidates (``ok``, of a scored instance), and their values."""

    wanted: list[bool]
    values: np.ndarray
    #: every record is of a scored instance (no record outside the scored set)
    all_scored: bool


def candidate_values(
    records: list[dict[str, Any]], columns: RecordColumns, task_ref: TaskReference
) -> CandidateValues | None:
    """The candidates' values when every rule of the records holds; else ``None``.

    ``None`` when any rule fails (a duplicate, an unknown or infrastructure status of a
    scored instance, a missing scored instance, ``solved`` on an objective task, an ``ok``
    record without a usable value): the records are then checked one by one.
    """
    scored = task_ref.scored
    names, statuses = columns.names, columns.statuses
    name_set, status_set = set(names), set(statuses)
    if (
        len(name_set) != len(names)
        or not status_set <= KNOWN_RECORD_STATUSES
        or (task_ref.kind == "objective" and "solved" in columns.fields)
        or not scored.keys() <= name_set
    ):
        return None
    all_scored = len(name_set) == len(scored)  # every scored instance is there: no other
    if status_set & INFRASTRUCTURE_STATUSES and any(
        s in INFRASTRUCTURE_STATUSES and (all_scored or n in scored)
        for n, s in zip(names, statuses, strict=True)
    ):
        return None
    if all_scored:
        wanted = list(map(STATUS_OK.__eq__, statuses))
    else:
        wanted = [s == STATUS_OK and n in scored for n, s in zip(names, statuses, strict=True)]
    if task_ref.kind == "objective":
        found = list(compress(columns.values, wanted))
        if not set(map(type, found)) <= {int, float}:
            return None
        try:
            values = np.array(found, dtype=float)  # each as float(A)
        except OverflowError:  # an integer no float can hold
            return None
        if not np.isfinite(values).all():
            return None
        return CandidateValues(wanted, values, all_scored)
    checked = [candidate_value(record, task_ref, "") for record in compress(records, wanted)]
    if any(problem is not None for _, problem in checked):
        return None
    values = np.array([value for value, _ in checked], dtype=float)
    return CandidateValues(wanted, values, all_scored)


def instance_rows(
    records: list[dict[str, Any]],
    columns: RecordColumns,
    candidates: CandidateValues,
    task_ref: TaskReference,
    reference: Reference,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[float]] | None:
    """The output rows of the scored instances and of the others, and the valid scores.

    ``None`` when a candidate's ``z`` overflows a float (the records are then checked one
    by one to name it).

    Scored rows are in record order with their reference statistics, ``z`` and score (a
    completed failure scores 0 and has no ``z``); records outside the scored set are kept
    with the reason they are not counted.
    """
    scored = task_ref.scored
    names, statuses, wanted = columns.names, columns.statuses, candidates.wanted
    stats = list(map(scored.get, names))
    chosen = list(compress(stats, wanted))
    zs, scores = instance_scores(
        candidates.values,
        list(map(_mu, chosen)),
        list(map(_scale, chosen)),
        task_ref.direction,
    )
    if not all(map(math.isfinite, zs)):
        return None  # a candidate so far from the reference that z overflows a float
    value_of, z_of, score_of = iter(candidates.values.tolist()), iter(zs), iter(scores)
    with few_collections():
        rows = _scored_rows(names, statuses, wanted, stats, value_of, z_of, score_of)
    _add_record_fields(records, stats, candidates, rows, columns)
    unscored_rows = (
        []
        if candidates.all_scored  # every record is of a scored instance
        else [
            _unscored_row(record, task_ref, reference)
            for record, st in zip(records, stats, strict=True)
            if st is None
        ]
    )
    return rows, unscored_rows, scores


def _scored_rows(names, statuses, wanted, stats, value_of, z_of, score_of):
    """The rows of the scored instances, in record order (failures: no A, no z, score 0)."""
    return [
        {
            "instance": name,
            "status": status,
            "A": next(value_of) if ok else None,
            "mu": st.mu,
            "s": st.s,
            "scale": st.scale,
            "scale_term": st.scale_term,
            "z": next(z_of) if ok else None,
            "score": next(score_of) if ok else 0.0,
        }
        for name, status, ok, st in zip(names, statuses, wanted, stats, strict=True)
        if st is not None
    ]


def _add_record_fields(
    records: list[dict[str, Any]],
    stats: list[Any],
    candidates: CandidateValues,
    rows: list[dict[str, Any]],
    columns: RecordColumns,
) -> None:
    """Add to each scored row a failure's reported ``A``, ``solved`` and further fields."""
    further = columns.fields - {"instance", "status", "A"}
    if not further and "A" not in columns.fields:
        return
    # row k is record scored[k]; a completed failure is a scored record that is not wanted
    wanted = candidates.wanted
    scored = None if candidates.all_scored else [k for k, st in enumerate(stats) if st is not None]
    rows_to_visit: Iterable[int] = range(len(rows))
    if not further:  # only a completed failure's reported A to add
        in_rows = wanted if scored is None else [wanted[k] for k in scored]
        rows_to_visit = [k for k, ok in enumerate(in_rows) if not ok]
    for k in rows_to_visit:
        row, record = rows[k], records[k if scored is None else scored[k]]
        if row["z"] is None and "A" in record:
            row["A_reported"] = record["A"]
        if further:
            if "solved" in record:
                row["solved"] = record["solved"]
            keep_extra_fields(row, record)


def keep_extra_fields(row: dict[str, Any], record: dict[str, Any]) -> None:
    """Copy a record's further fields into its output row without replacing computed ones.

    A field whose name the kit computes (``score``, ``mu``, ``reason``...) is kept as
    ``record_<name>``, so a judge's own ``score`` never changes the relative score.
    """
    for key, value in record.items():
        if key not in OWN_FIELDS:
            row[f"record_{key}" if key in row else key] = value


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
    keep_extra_fields(row, record)
    return row
