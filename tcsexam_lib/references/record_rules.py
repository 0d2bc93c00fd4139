"""The rules of instance records, each written once over :class:`TaskRecords`:
:data:`RECORD_RULES` (every reader: one record per instance, known status, no ``solved`` on
an objective task, a usable value for every ``ok``) and :data:`SCORING_RULES` (those, plus
no infrastructure status on a scored instance, a float ``z``, every scored instance)."""

from __future__ import annotations

import math
from itertools import compress
from operator import not_

from ..errors import Problem, quoted_names
from ..formulas import z_score
from ..inputrules import Key, Rule, RuleList
from ..vocab import (
    COMPLETED_FAILURE_STATUSES,
    INFRASTRUCTURE_STATUSES,
    KNOWN_RECORD_STATUSES,
    STATUS_OK,
    sorted_statuses,
)
from .records import (
    REPEATED,
    SOLVED_ON_OBJECTIVE,
    UNKNOWN_STATUS,
    TaskRecords,
    candidate_value,
)

#: How many missing instance names a refusal spells out before counting the rest.
MAX_NAMED_MISSING = 10


def _record_key(position: int) -> Key:
    return (0, position)


# --- the rules of the format ------------------------------------------------------------


def _unique_holds(data: TaskRecords) -> bool:
    names = data.columns.names
    if data.in_reference_order:
        return True
    if not data.scoring:
        return len(set(names)) == len(names)
    in_scored, _, counts = data.matched
    if len(counts) and counts.max() > 1:
        return False  # a scored instance named twice
    others = [] if in_scored is None else list(compress(names, map(not_, in_scored)))
    return len(set(others)) == len(others)


def _unique_explain(data: TaskRecords):
    first: dict[str, int] = {}
    for position, (record, stage) in enumerate(zip(data.records, data.stages, strict=True)):
        name = record["instance"]
        first.setdefault(name, position + 1)
        if stage == REPEATED:
            detail = f"duplicate instance name (also record #{first[name]})"
            problem = Problem(data.where(position), field="instance", value=name, detail=detail)
            yield _record_key(position), problem


def _stopped_at(stage: int, field: str, allowed: str):
    """The explanation of the records the format rules stop at ``stage``."""

    def explain(data: TaskRecords):
        for position, (record, at) in enumerate(zip(data.records, data.stages, strict=True)):
            if at == stage:
                where = data.where(position)
                problem = Problem(where, field=field, value=record[field], allowed=allowed)
                yield _record_key(position), problem

    return explain


_status_explain = _stopped_at(UNKNOWN_STATUS, "status", sorted_statuses(KNOWN_RECORD_STATUSES))
_solved_explain = _stopped_at(
    SOLVED_ON_OBJECTIVE,
    "solved",
    "no 'solved' field on an objective task (whatever the status); give A",
)


def _value_explain(data: TaskRecords):
    for position, record in data.counted():
        if record["status"] == STATUS_OK:
            _, problem = candidate_value(record, data.task.kind, data.where(position))
            if problem is not None:
                yield _record_key(position), problem


_UNIQUE = Rule("unique instance", "one record per instance", _unique_holds, _unique_explain)
_KNOWN_STATUS = Rule(
    "known status",
    "ok, a completed failure or an infrastructure status",
    lambda data: data.columns.status_set <= KNOWN_RECORD_STATUSES,
    _status_explain,
)
_NOSOLVED_ON_OBJECTIVE = Rule(
    "no solved on an objective task",
    "an objective task's records give A, never solved",
    lambda data: data.task.kind != "objective" or "solved" not in data.columns.fields,
    _solved_explain,
)
_USABLE_VALUE = Rule(
    "usable value",
    "an ok record has a finite number A (a solve task: 1 or 0, or solved)",
    lambda data: data.candidates is not None,
    _value_explain,
)

#: The rules every reader of instance records applies (a reference run's records too).
RECORD_RULES: RuleList[TaskRecords, Problem] = RuleList(
    "instance records", (_UNIQUE, _KNOWN_STATUS, _NOSOLVED_ON_OBJECTIVE, _USABLE_VALUE)
)


# --- what scoring against a reference adds -----------------------------------------------


def _infrastructure_holds(data: TaskRecords) -> bool:
    statuses = data.columns.statuses
    if not data.columns.status_set & INFRASTRUCTURE_STATUSES:
        return True
    in_scored = data.matched[0]
    counted = statuses if in_scored is None else compress(statuses, in_scored)
    return not any(status in INFRASTRUCTURE_STATUSES for status in counted)


def _infrastructure_explain(data: TaskRecords):
    for position, record in data.counted():
        if record["status"] in INFRASTRUCTURE_STATUSES:
            yield (
                _record_key(position),
                Problem(
                    data.where(position),
                    field="status",
                    value=record["status"],
                    detail="an infrastructure status is an incomplete observation: repair the "
                    "judging input and score again (it is never counted as 0)",
                    allowed="ok or a completed failure "
                    f"({sorted_statuses(COMPLETED_FAILURE_STATUSES)})",
                ),
            )


def _z_holds(data: TaskRecords) -> bool:
    if data.candidates is None:  # a value is not usable (told by its rule): look one by one
        return next(iter(_z_explain(data)), None) is None
    import numpy as np

    return bool(np.isfinite(data.z_and_scores[0]).all())


def _z_explain(data: TaskRecords):
    """A candidate so far from the reference that ``z`` is not a float (an infinity)."""
    for position, record in data.counted():
        if record["status"] != STATUS_OK:
            continue
        value, problem = candidate_value(record, data.task.kind, "")
        stats = data.task.scored[record["instance"]]
        if problem is not None or stats is None:
            continue
        if not math.isfinite(z_score(value, stats.mu, stats.scale, data.task.direction)):
            yield (
                _record_key(position),
                Problem(
                    data.where(position),
                    field="A",
                    value=value,
                    detail=f"z = (A - mu) / scale overflows a float (mu {stats.mu!r}, scale "
                    f"{stats.scale!r}): almost certainly a recording error",
                    allowed="a value whose distance to the reference mean, in scales, is a float "
                    "(below about 1.8e308 scales)",
                ),
            )


def _complete_holds(data: TaskRecords) -> bool:
    if data.in_reference_order:
        return True
    counts = data.matched[2]
    return int((counts > 0).sum()) == len(counts)


def _complete_explain(data: TaskRecords):
    names = set(data.columns.names)
    missing = [name for name in data.task.scored if name not in names]
    if missing:
        detail = (
            f"no record for {len(missing)} scored instance(s) of task '{data.task.name}': "
            f"{quoted_names(missing, MAX_NAMED_MISSING)}"
        )
        if names and len(missing) == len(data.task.scored):
            detail += (
                f"; none of the file's {len(names)} instance names is one of the task's: "
                "are these the records of another task (--task, --records)?"
            )
        yield (
            (1,),
            Problem(
                f"{data.source}",
                field="instance",
                detail=detail,
                allowed="one record per scored reference instance",
            ),
        )


#: The rules of a candidate's records scored against a reference: the format's, then
#: what scoring adds.
SCORING_RULES: RuleList[TaskRecords, Problem] = RuleList(
    "instance records scored against a reference",
    (
        *RECORD_RULES,
        Rule(
            "no infrastructure status",
            "a scored instance's record has status ok or a completed failure (an "
            "infrastructure status is an observation to repair, never a 0)",
            _infrastructure_holds,
            _infrastructure_explain,
        ),
        Rule(
            "z is a float",
            "a candidate's distance to the reference mean, in scales, is a float",
            _z_holds,
            _z_explain,
        ),
        Rule(
            "every scored instance",
            "a record for every scored reference instance",
            _complete_holds,
            _complete_explain,
        ),
    ),
)
