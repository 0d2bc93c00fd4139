"""Instance records (``instance``, ``status``, ``A`` or ``solved``), the format
``solver-score`` and ``reference build`` both read: their schema rules, and
:class:`TaskRecords`, one task's records as columns for the rules and the scores."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from itertools import compress, repeat
from operator import and_, attrgetter, itemgetter
from typing import Any

from ..errors import NOT_GIVEN, Problem
from ..formulas import LARGEST_EXACT_INT, instance_score, instance_scores
from ..inputrules import RuleList
from ..jsonio import Describe, is_finite_number, read_json_with_digest
from ..schemas import Document, schema_rule
from ..vocab import (
    KNOWN_RECORD_STATUSES,
    STATUS_OK,
)
from .model import TaskReference

_instance, _status = itemgetter("instance"), itemgetter("status")
_mu, _s, _scale, _scale_term = map(attrgetter, ("mu", "s", "scale", "scale_term"))


def read_records(path: str | os.PathLike[str]) -> Any:
    """Read a strict JSON instance records file (checked when it is scored)."""
    return read_records_with_digest(path)[0]


def read_records_with_digest(path: str | os.PathLike[str]) -> tuple[Any, str]:
    """:func:`read_records` and the sha256 of the file's bytes (read once)."""
    return read_json_with_digest(path, describe_record_path)


def describe_record_path(records: Any) -> Describe:
    """Places in a records file in words: ``record #2 (instance 'g1')``."""

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


class _Absent:
    """The ``A`` of a record that has no ``A`` field (``A: null`` is given, as ``None``)."""

    def __repr__(self) -> str:
        return "<no A field>"


#: What the ``A`` column of :class:`RecordColumns` holds for a record without ``A``.
ABSENT = _Absent()

#: The JSON types the records schema allows for its optional fields.
_OPTIONAL_FIELD_TYPES = {"A": {int, float, bool, type(None)}, "solved": {bool, type(None)}}
_BASIC_FIELDS = (frozenset({"instance", "status", "A"}), frozenset({"instance", "status"}))


@dataclass(frozen=True)
class RecordColumns:
    """One task's records as columns: names, statuses, ``A`` values (:data:`ABSENT` when
    missing), every field name and every status."""

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


def record_columns(records: Any) -> RecordColumns | None:
    """The records as columns when they match their published schema (the fast half of
    :data:`RECORDS_SCHEMA_RULES`), else ``None``."""
    if type(records) is not list:
        return None
    try:
        columns = RecordColumns.of(records)
    except (KeyError, TypeError):  # a record that is not an object or lacks a field; a
        return None  # status that is not hashable
    if not set(map(type, columns.names)) <= {str} or not all(columns.names):
        return None
    if not all(type(status) is str and status for status in columns.status_set):
        return None
    if not set(map(type, columns.values)) <= _OPTIONAL_FIELD_TYPES["A"] | {type(ABSENT)}:
        return None
    if "solved" in columns.fields:
        solved = (record.get("solved") for record in records)
        if not set(map(type, solved)) <= _OPTIONAL_FIELD_TYPES["solved"]:
            return None
    return columns


@dataclass(frozen=True)
class RecordsDocument(Document):
    """A records file as its schema rule reads it (its columns, once read, are kept)."""

    @cached_property
    def columns(self) -> RecordColumns | None:
        """The records as columns when they match their schema (:func:`record_columns`)."""
        return record_columns(self.data)


#: The records' schema as a rule: its columns read at once (:func:`record_columns`), the
#: full validator explaining a refusal (naming each record by position and instance).
RECORDS_SCHEMA_RULES: RuleList[RecordsDocument, Problem] = RuleList(
    "instance records schema",
    (schema_rule("records", holds=lambda document: document.columns is not None),),
)


@dataclass(frozen=True)
class ReferenceColumns:
    """A task's scored reference instances as columns, in reference order: ``position``
    by name, ``stats`` as lists, ``arrays`` the same as numpy arrays."""

    names: list[str]
    position: dict[str, int]
    stats: tuple[list[float], list[float], list[float], list[str]]
    arrays: tuple[Any, Any, Any, Any]

    @classmethod
    def of(cls, task_ref: TaskReference) -> ReferenceColumns:
        """The columns of a task, built once per loaded reference and kept with it."""
        columns = task_ref.derived.get("columns")
        if columns is None:
            import numpy as np

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


def candidate_value(
    record: dict[str, Any], kind: str, where: str
) -> tuple[float | None, Problem | None]:
    """The usable value of an ``ok`` record, or a problem saying why there is none:
    objective tasks a finite number (not a boolean), solve tasks ``A`` 1/0 or ``solved``
    (agreeing when both are given).

    >>> candidate_value({"A": 12}, "objective", "r.json record #1")
    (12.0, None)
    >>> candidate_value({"A": True}, "objective", "r.json record #1")[1].allowed
    "a finite number (not a boolean) when status is 'ok'"
    """
    has_a = "A" in record and record["A"] is not None
    has_solved = "solved" in record and record["solved"] is not None
    a = record.get("A")
    if kind == "objective":  # a 'solved' field was refused before
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


#: How far a record gets through the format rules: a repeated name, an unknown status,
#: ``solved`` on an objective task (each told by its rule), or through all of them.
REPEATED, UNKNOWN_STATUS, SOLVED_ON_OBJECTIVE, READABLE = range(4)


@dataclass
class TaskRecords:
    """One task's records matched to the task, as columns and record by record, and once
    every rule holds their scores. ``scoring``: a candidate's (records outside the scored
    instances kept aside); else a reference run's (every record counts)."""

    records: list[dict[str, Any]]
    task: TaskReference
    source: str
    scoring: bool = True
    #: the records' columns, when their schema rule has read them already
    read_columns: RecordColumns | None = None

    @cached_property
    def columns(self) -> RecordColumns:
        return self.read_columns or RecordColumns.of(self.records)

    @cached_property
    def reference(self) -> ReferenceColumns:
        return ReferenceColumns.of(self.task)

    @cached_property
    def in_reference_order(self) -> bool:
        """The records name every scored instance once, in reference order (no lookup)."""
        return self.scoring and self.columns.names == self.reference.names

    @cached_property
    def matched(self) -> tuple[list[bool] | None, Any, Any]:
        """``(in_scored, positions, counts)``: which records are scored (``None``: all), their
        reference rows (``None``: reference order), and records per scored instance."""
        import numpy as np

        if not self.scoring or self.in_reference_order:
            return None, None, None
        reference = self.reference
        found = list(map(reference.position.get, self.columns.names))
        in_scored = None
        if None in found:
            in_scored = [p is not None for p in found]
            found = list(compress(found, in_scored))
        positions = np.array(found, dtype=np.intp)
        return in_scored, positions, np.bincount(positions, minlength=len(reference.names))

    @cached_property
    def wanted(self) -> list[bool]:
        """Which records are candidates: ``ok``, of a counted instance."""
        wanted = list(map(STATUS_OK.__eq__, self.columns.statuses))
        in_scored = self.matched[0]
        return wanted if in_scored is None else list(map(and_, wanted, in_scored))

    @cached_property
    def candidates(self) -> Any:
        """The candidates' values as an array, or ``None`` when one has no usable value."""
        import numpy as np

        kind = self.task.kind
        if kind == "objective":
            found = list(compress(self.columns.values, self.wanted))
            if not set(map(type, found)) <= {int, float}:
                return None
            try:
                values = np.array(found, dtype=float)  # each as float(A)
            except OverflowError:  # an integer no float can hold
                return None
            return values if np.isfinite(values).all() else None
        checked = [candidate_value(r, kind, "") for r in compress(self.records, self.wanted)]
        if any(problem is not None for _, problem in checked):
            return None
        return np.array([value for value, _ in checked], dtype=float)

    @cached_property
    def instance_stats(self) -> tuple[Any, Any, Any]:
        """The scored records' mu and scale arrays and the four statistic columns."""
        ref = self.reference
        positions = self.matched[1]
        if positions is None:
            return ref.arrays[0], ref.arrays[2], ref.stats
        gathered = [column[positions] for column in ref.arrays]  # new floats, record order
        return gathered[0], gathered[2], [column.tolist() for column in gathered]

    @cached_property
    def scored_wanted(self) -> Any:
        """Which scored records (in record order) are candidates, as a boolean array."""
        import numpy as np

        in_scored = self.matched[0]
        wanted = self.wanted if in_scored is None else list(compress(self.wanted, in_scored))
        return np.array(wanted, dtype=bool)

    @cached_property
    def z_and_scores(self) -> tuple[Any, Any]:
        """Each candidate's ``z`` and instance score (arrays; :attr:`candidates` usable)."""
        mu, scale, _ = self.instance_stats
        ok = self.scored_wanted
        zs, scores = instance_scores(self.candidates, mu[ok], scale[ok], self.task.direction)
        for k, value, stats in self.exact_candidates:
            zs[k], scores[k] = instance_score(value, stats, self.task.direction)
        return zs, scores

    @cached_property
    def exact_candidates(self) -> list[tuple[int, Any, Any]]:
        """``(k, A, stats)`` of the candidates scored exactly (``A`` or a reference value
        beyond 2**53; ``k`` the position among the candidates)."""
        import numpy as np

        exact_names = self.task.derived.get("exact")
        if exact_names is None:
            exact_names = {n for n, s in self.task.scored.items() if s and s.mu_exact is not None}
            self.task.derived["exact"] = exact_names
        big = np.abs(self.candidates) >= LARGEST_EXACT_INT  # rounded from a big int, maybe
        if self.task.kind != "objective" or not (exact_names or big.any()):
            return []
        wanted = compress(self.records, self.wanted)
        return [
            (k, record["A"], self.task.scored[record["instance"]])
            for k, record in enumerate(wanted)
            if big[k] or record["instance"] in exact_names
        ]

    @cached_property
    def stages(self) -> list[int]:
        """How far each record gets through the format rules (see ``READABLE``)."""
        seen: set[str] = set()
        stages = []
        objective = self.task.kind == "objective"
        for record in self.records:
            name = record["instance"]
            if name in seen:
                stages.append(REPEATED)
                continue
            seen.add(name)
            if record["status"] not in KNOWN_RECORD_STATUSES:
                stages.append(UNKNOWN_STATUS)
            elif objective and "solved" in record:
                stages.append(SOLVED_ON_OBJECTIVE)
            else:
                stages.append(READABLE)
        return stages

    def where(self, position: int) -> str:
        """Record ``position`` (from 0) in words."""
        name = self.records[position]["instance"]
        return f"{self.source} record #{position + 1} (instance '{name}')"

    def counted(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """The readable records of counted instances (scored ones when scoring)."""
        scored = self.task.scored
        for position, (record, stage) in enumerate(zip(self.records, self.stages, strict=True)):
            if stage == READABLE and (not self.scoring or record["instance"] in scored):
                yield position, record
