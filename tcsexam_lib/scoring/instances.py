"""A task's instance records, column by column: checked, valued and scored at once.

:func:`~tcsexam_lib.scoring.solver.score_solver_task` reads the records as columns (names,
statuses, values), matches them to the reference's scored instances (kept as columns with
the loaded reference, :class:`ReferenceColumns`; records in reference order need no lookup),
checks every rule over those columns, and scores all valid candidates of the task as arrays
(:func:`~tcsexam_lib.formulas.instance_scores`). When a rule does not hold, the
records are checked one by one instead, to name every problem
(:func:`~tcsexam_lib.scoring.solver.refuse_records`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import and_, attrgetter, itemgetter, methodcaller
from typing import Any

import numpy as np

from ..formulas import instance_scores
from ..gcpause import no_collections
from ..record_values import candidate_value
from ..references.model import Reference, TaskReference
from ..vocab import INFRASTRUCTURE_STATUSES, KNOWN_RECORD_STATUSES, STATUS_OK

#: The fields of a record that the output rows hold under their own names.
OWN_FIELDS = frozenset({"instance", "status", "A", "solved"})

#: The JSON types the records schema allows for its optional fields.
_OPTIONAL_FIELD_TYPES = {"A": {int, float, bool, type(None)}, "solved": {bool, type(None)}}

_instance, _status = itemgetter("instance"), itemgetter("status")
_mu, _s, _scale, _scale_term = map(attrgetter, ("mu", "s", "scale", "scale_term"))


class _Absent:
    """The ``A`` of a record that has no ``A`` field (``A: null`` is given, as ``None``)."""

    def __repr__(self) -> str:
        return "<no A field>"


#: What the ``A`` column of :class:`RecordColumns` holds for a record without ``A``.
ABSENT = _Absent()


@dataclass(frozen=True)
class RecordColumns:
    """The records of one task as columns: names, statuses, values ``A`` (:data:`ABSENT`
    when a record has no ``A``), every field name any record uses and every status."""

    names: list[str]
    statuses: list[str]
    values: list[Any]
    fields: frozenset[str]
    status_set: frozenset[str]

    @classmethod
    def of(cls, records: list[dict[str, Any]]) -> RecordColumns:
        """The columns of records that match their schema."""
        names, statuses = list(map(_instance, records)), list(map(_status, records))
        values = list(map(dict.get, records, repeat("A"), repeat(ABSENT)))
        n_absent = values.count(ABSENT)
        if not records:
            fields = frozenset()
        elif sum(map(len, records)) == 3 * len(records) - n_absent:  # instance, status, A
            fields = _BASIC_FIELDS[n_absent == len(records)]
        else:
            fields = frozenset().union(*records)
        return cls(names, statuses, values, fields, frozenset(statuses))


_BASIC_FIELDS = (frozenset({"instance", "status", "A"}), frozenset({"instance", "status"}))


def record_columns(records: Any) -> RecordColumns | None:
    """The records as columns when they certainly match their published schema, else ``None``.

    A list of objects, each with a non-empty string ``instance`` and a known ``status``;
    ``A`` a number, boolean or null and ``solved`` a boolean or null when present. ``None``
    sends the records to the full schema validator, which names what is wrong (or accepts
    them, and an unknown status is then named when the records are checked one by one).
    """
    if type(records) is not list:
        return None
    try:
        columns = RecordColumns.of(records)
    except (KeyError, TypeError):  # a record that is not an object or lacks a field; a
        return None  # status that is not hashable
    if not set(map(type, columns.names)) <= {str} or not all(columns.names):
        return None
    if not columns.status_set <= KNOWN_RECORD_STATUSES:  # known statuses are non-empty strings
        return None
    if not set(map(type, columns.values)) <= _OPTIONAL_FIELD_TYPES["A"] | {type(ABSENT)}:
        return None
    if "solved" in columns.fields:
        solved = map(methodcaller("get", "solved"), records)
        if not set(map(type, solved)) <= _OPTIONAL_FIELD_TYPES["solved"]:
            return None
    return columns


@dataclass(frozen=True)
class ReferenceColumns:
    """A task's scored reference instances as columns, in reference order.

    ``position`` maps an instance name to its row. ``stats`` holds the columns ``mu``,
    ``s``, ``scale`` (floats) and ``scale_term`` (names) as lists, ``arrays`` the same
    columns as numpy arrays (to gather rows in another order).
    """

    names: list[str]
    position: dict[str, int]
    stats: tuple[list[float], list[float], list[float], list[str]]
    arrays: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]

    @classmethod
    def of(cls, task_ref: TaskReference) -> ReferenceColumns:
        """The columns of a task, built once per loaded reference and kept with it."""
        columns = task_ref.derived.get("columns")
        if columns is None:
            names, stats = list(task_ref.scored), list(task_ref.scored.values())
            lists = tuple(list(map(get, stats)) for get in (_mu, _s, _scale, _scale_term))
            columns = cls(
                names,
                {name: k for k, name in enumerate(names)},
                lists,
                (*(np.array(column, dtype=float) for column in lists[:3]), np.array(lists[3])),
            )
            task_ref.derived["columns"] = columns
        return columns


@dataclass(frozen=True)
class CandidateValues:
    """Which records are valid candidates (``ok``, of a scored instance), and their values.

    ``in_scored`` says which records are of a scored instance (``None``: all of them) and
    ``positions`` the reference row of each of those, in record order (``None``: the
    records name every scored instance in reference order).
    """

    wanted: list[bool]
    values: np.ndarray
    in_scored: list[bool] | None
    positions: np.ndarray | None


def candidate_values(
    records: list[dict[str, Any]], columns: RecordColumns, task_ref: TaskReference
) -> CandidateValues | None:
    """The candidates' values when every rule of the records holds; else ``None``.

    ``None`` when any rule fails (a duplicate, an unknown or infrastructure status of a
    scored instance, a missing scored instance, ``solved`` on an objective task, an ``ok``
    record without a usable value): the records are then checked one by one.
    """
    names, statuses, status_set = columns.names, columns.statuses, columns.status_set
    if not status_set <= KNOWN_RECORD_STATUSES or (
        task_ref.kind == "objective" and "solved" in columns.fields
    ):
        return None
    matched = _match_reference(names, ReferenceColumns.of(task_ref))
    if matched is None:
        return None
    in_scored, positions = matched
    if status_set & INFRASTRUCTURE_STATUSES and any(
        s in INFRASTRUCTURE_STATUSES
        for s in (statuses if in_scored is None else compress(statuses, in_scored))
    ):
        return None
    wanted = list(map(STATUS_OK.__eq__, statuses))
    if in_scored is not None:
        wanted = list(map(and_, wanted, in_scored))
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
        return CandidateValues(wanted, values, in_scored, positions)
    checked = [candidate_value(record, task_ref.kind, "") for record in compress(records, wanted)]
    if any(problem is not None for _, problem in checked):
        return None
    values = np.array([value for value, _ in checked], dtype=float)
    return CandidateValues(wanted, values, in_scored, positions)


def _match_reference(
    names: list[str], reference: ReferenceColumns
) -> tuple[list[bool] | None, np.ndarray | None] | None:
    """Which records are of a scored instance and the reference row of each of those.

    ``None`` when a name repeats or a scored instance has no record. Records that name
    every scored instance in reference order (the usual layout of a judge's output)
    need no lookup: ``(None, None)``.
    """
    if names == reference.names:
        return None, None
    found = list(map(reference.position.get, names))
    in_scored = None
    if None in found:
        in_scored = [p is not None for p in found]
        others = [n for n, p in zip(names, found, strict=True) if p is None]
        if len(set(others)) != len(others):
            return None  # a name outside the scored set repeats
        found = list(compress(found, in_scored))
    positions = np.array(found, dtype=np.intp)
    n = len(reference.names)
    if len(positions) != n or (n and np.bincount(positions, minlength=n).max() > 1):
        return None  # a scored instance repeats or has no record
    return in_scored, positions


def instance_rows(
    records: list[dict[str, Any]],
    columns: RecordColumns,
    candidates: CandidateValues,
    task_ref: TaskReference,
    reference: Reference,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[float]] | None:
    """The output rows of the scored instances and of the others, and the rows' scores.

    ``None`` when a candidate's ``z`` overflows a float (the records are then checked one
    by one to name it).

    Scored rows are in record order with their reference statistics, ``z`` and score (a
    completed failure scores 0 and has no ``z``); records outside the scored set are kept
    with the reason they are not counted.
    """
    ref = ReferenceColumns.of(task_ref)
    in_scored, positions = candidates.in_scored, candidates.positions
    names, statuses, wanted = columns.names, columns.statuses, candidates.wanted
    if in_scored is not None:  # the scored records only, in record order
        names, statuses = list(compress(names, in_scored)), list(compress(statuses, in_scored))
        wanted = list(compress(wanted, in_scored))
    mu, scale = ref.arrays[0], ref.arrays[2]
    stats: Sequence[list[Any]] = ref.stats
    if positions is not None:  # gathered from the arrays: new floats, in record order
        gathered = [column[positions] for column in ref.arrays]
        mu, scale, stats = gathered[0], gathered[2], [column.tolist() for column in gathered]
    ok = np.array(wanted, dtype=bool)
    zs, scores = instance_scores(candidates.values, mu[ok], scale[ok], task_ref.direction)
    if not np.isfinite(zs).all():
        return None  # a candidate so far from the reference that z overflows a float
    if ok.all():
        values, z_values, score_values = candidates.values.tolist(), zs.tolist(), scores.tolist()
    else:  # a completed failure has no A and no z, and scores 0
        values, z_values = np.full(len(ok), None, dtype=object), np.full(len(ok), None, object)
        values[ok], z_values[ok] = candidates.values, zs
        score_values = np.zeros(len(ok))
        score_values[ok] = scores
        values, z_values, score_values = values.tolist(), z_values.tolist(), score_values.tolist()
    with no_collections():  # the rows hold no reference cycles
        rows = _scored_rows(names, statuses, values, *stats, z_values, score_values)
    _add_record_fields(records, candidates, rows, columns, ok)
    unscored_rows = (
        []
        if in_scored is None
        else [
            _unscored_row(record, task_ref, reference)
            for record, scored in zip(records, in_scored, strict=True)
            if not scored
        ]
    )
    return rows, unscored_rows, score_values


def _scored_rows(*columns: list[Any]) -> list[dict[str, Any]]:
    """The rows of the scored instances from their columns (failures: no A, no z, score 0)."""
    return [
        {
            "instance": name,
            "status": status,
            "A": value,
            "mu": mu,
            "s": s,
            "scale": scale,
            "scale_term": term,
            "z": z,
            "score": score,
        }
        for name, status, value, mu, s, scale, term, z, score in zip(*columns, strict=True)
    ]


def _add_record_fields(
    records: list[dict[str, Any]],
    candidates: CandidateValues,
    rows: list[dict[str, Any]],
    columns: RecordColumns,
    ok: np.ndarray,
) -> None:
    """Add to each scored row a failure's reported ``A``, ``solved`` and further fields.

    ``ok`` says which rows are valid candidates (the others are completed failures).
    """
    further = columns.fields - {"instance", "status", "A"}
    if not further and "A" not in columns.fields:
        return
    # row k is record scored[k]
    in_scored = candidates.in_scored
    scored = None if in_scored is None else list(compress(range(len(records)), in_scored))
    rows_to_visit: Iterable[int] = range(len(rows))
    if not further:  # only the reported A of a completed failure that has one
        values = columns.values
        rows_to_visit = [
            k
            for k in np.flatnonzero(~ok).tolist()
            if values[k if scored is None else scored[k]] is not ABSENT
        ]
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
