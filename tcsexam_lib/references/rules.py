"""The rules of a reference file, written once, in two layers: the published schema
(:data:`REFERENCE_SCHEMA_RULES`), then the relations (:data:`REFERENCE_RULES`), each finding a
code of :data:`FINDING_CODES`. Loading raises on the first layer with findings; ``tcsexam
reference check`` reports all."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..errors import Problem
from ..formulas import compute_instance_stats
from ..inputrules import Rule, RuleList
from ..schemas import schema_accepts, schema_errors, schema_problem
from ..vocab import (
    FIXED_FULL_SCORED_INSTANCES,
    FIXED_FULL_UNSCORED_INSTANCES,
    FIXED_LITE_SOLVER_TASKS,
    FIXED_REFERENCE_ID,
    FIXED_SCALE_FLOOR_ABSOLUTE,
    FIXED_SCALE_FLOOR_RELATIVE,
)
from .model import TaskReference

#: The suite files the fixed reference's release holds.
FIXED_SUITES = ("full", "lite")

#: Every finding code, with what it means.
FINDING_CODES = {
    "not_found": "no reference file at the place named (for the fixed id: the release "
    "files are not there yet)",
    "unreadable": "the file cannot be read or is not strict JSON",
    "schema": "a value does not match the published reference schema",
    "floor": "a scale floor is absent, not a number, or out of its range",
    "fixed_floor": "the fixed reference's floors must be 0.02 and 1e-9",
    "kind_direction": "a solve task must maximise",
    "solve_value": "a solve task's values must be 1, 0 or null",
    "unlisted_unscorable": "an instance with fewer than two usable values is not listed as "
    "unscored",
    "listed_scorable": "an instance listed as unscored has two or more usable values",
    "listed_unknown_task": "an unscored entry names a task the file does not have",
    "listed_twice": "an instance is listed twice as unscored",
    "task_without_scored": "a task has no scored instance",
    "id_mismatch": "the file declares another reference id than its place says",
    "suite_mismatch": "the file declares another suite than its file name",
    "suite_tasks": "the suite's task list names other solver tasks than the reference",
    "floors_differ": "two suite files of one reference id have different floors",
    "task_differs": "a task shared by two suite files of one id has different entries",
    "fixed_suite": "the fixed reference has only the suites full and lite",
    "fixed_full_counts": "the fixed Full file must hold 1,860 scored and 32 unscored instances",
    "fixed_lite_tasks": "the fixed Lite file must hold five tasks",
    "repeated_run": "the provenance lists one run twice (same folder, or the same sha256 for "
    "every record file): K runs must be K distinct runs",
}


@dataclass(frozen=True)
class Finding:
    """One rule that does not hold: a code and the problem, with its task and instance."""

    code: str
    file: str
    problem: Problem
    task: str | None = None
    instance: str | None = None

    @classmethod
    def about(cls, code: str, where: str, detail: str, task=None, instance=None) -> Finding:
        """A finding about ``where`` (a file) saying ``detail``."""
        return cls(code, where, Problem(where, detail=detail), task, instance)

    def __str__(self) -> str:
        return f"[{self.code}] {self.problem}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "file": self.file,
            "task": self.task,
            "instance": self.instance,
            "message": str(self.problem),
        }


def describe_path(path: list[Any]) -> str:
    """A JSON path inside a reference file in words: task, instance and value."""
    if len(path) >= 2 and path[0] == "tasks":
        where = f"task '{path[1]}'"
        if len(path) >= 4 and path[2] == "instances":
            where += f" instance '{path[3]}'"
            if len(path) >= 5:
                where += f" value #{path[4]}"
        return where
    if len(path) >= 2 and path[0] == "unscored_reference_instances":
        return f"unscored_reference_instances[{path[1]}]"
    return ".".join(map(str, path)) or "(top level)"


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


#: The fixed reference's floors.
FIXED_FLOORS = {
    "scale_floor_relative": FIXED_SCALE_FLOOR_RELATIVE,
    "scale_floor_absolute": FIXED_SCALE_FLOOR_ABSOLUTE,
}


def _schema_explain(document: ReferenceInput):
    data, source = document.data, document.source
    for k, error in enumerate(schema_errors(data, "reference")):
        path = list(error.absolute_path)
        task = instance = None
        if len(path) >= 2 and path[0] == "tasks":
            task = str(path[1])
            if len(path) >= 4 and path[2] == "instances":
                instance = str(path[3])
        elif len(path) >= 2 and path[0] == "unscored_reference_instances":
            entry = error.instance if isinstance(error.instance, dict) else {}
            task = entry.get("task") if isinstance(entry.get("task"), str) else None
            instance = entry.get("instance") if isinstance(entry.get("instance"), str) else None
        code = "schema"
        missing = error.message.split("'")[1] if error.validator == "required" else ""
        if (path and path[0] in ("scale_floor_relative", "scale_floor_absolute")) or (
            not path and missing.startswith("scale_floor_")
        ):
            code = "floor"
        elif len(path) == 3 and path[2] == "direction" and error.validator == "const":
            code = "kind_direction"
        problem = schema_problem(error, source, describe_path)
        yield (k,), Finding(code, source, problem, task, instance)


#: Layer 1: the published schema (the compiled validator accepts, the full one explains;
#: each violation a finding, with the code of a floor or a solve task's direction).
REFERENCE_SCHEMA_RULES: RuleList[ReferenceInput, Finding] = RuleList(
    "reference schema",
    (
        Rule(
            "schema",
            "matches references/schemas/reference.schema.json",
            lambda document: schema_accepts(document.data, "reference"),
            _schema_explain,
        ),
    ),
)


#: What an instance of a task is, by the rules (the first that applies).
SOLVE_VALUE, UNLISTED_UNSCORABLE, LISTED_SCORABLE, UNSCORED, SCORED = (
    "solve_value",
    "unlisted_unscorable",
    "listed_scorable",
    "unscored",
    "scored",
)


@dataclass(frozen=True)
class _Instance:
    """One instance of a task as the rules see it: its values and what it is."""

    name: str
    values: list[Any]
    usable: list[float | None]
    reason: str | None
    verdict: str


@dataclass
class ReferenceInput:
    """A reference file's content as its rules read it (robust to data its schema refuses):
    its tasks, unscored entries and each instance's verdict."""

    data: Any
    source: str

    @cached_property
    def tasks(self) -> dict[str, dict[str, Any]]:
        """The tasks that are objects (others are the schema's to refuse)."""
        data = self.data if isinstance(self.data, dict) else {}
        tasks = data.get("tasks") if isinstance(data.get("tasks"), dict) else {}
        return {name: task for name, task in tasks.items() if isinstance(task, dict)}

    @cached_property
    def entries(self) -> list[tuple[int, str, str, str | None, str]]:
        """``(position, task, instance, reason, verdict)`` of each well-formed unscored
        entry; ``verdict`` is ``listed``, ``listed_unknown_task`` or ``listed_twice``."""
        data = self.data if isinstance(self.data, dict) else {}
        tasks = data.get("tasks") if isinstance(data.get("tasks"), dict) else {}
        entries = data.get("unscored_reference_instances")
        seen: set[tuple[str, str]] = set()
        found = []
        for position, entry in enumerate(entries if isinstance(entries, list) else []):
            task = entry.get("task") if isinstance(entry, dict) else None
            instance = entry.get("instance") if isinstance(entry, dict) else None
            if not isinstance(task, str) or not isinstance(instance, str):
                continue  # a schema finding
            reason = entry.get("reason")
            reason = reason if isinstance(reason, str) else ""
            if task not in tasks:
                verdict = "listed_unknown_task"
            elif (task, instance) in seen:
                verdict = "listed_twice"
            else:
                verdict = "listed"
                seen.add((task, instance))
            found.append((position, task, instance, reason, verdict))
        return found

    @cached_property
    def listed(self) -> dict[tuple[str, str], str]:
        """``(task, instance) -> reason`` of the unscored entries."""
        return {(t, i): reason for _, t, i, reason, verdict in self.entries if verdict == "listed"}

    @cached_property
    def instances(self) -> dict[str, list[_Instance]]:
        """Each task's instances with their verdict, in file order."""
        listed = self.listed
        found = {}
        for name, task in self.tasks.items():
            kind = task.get("kind")
            instances = task.get("instances") if isinstance(task.get("instances"), dict) else {}
            found[name] = []
            for instance, raw in instances.items():
                values = raw if isinstance(raw, list) else []
                usable = [v if _is_number(v) and math.isfinite(v) else None for v in values]
                n_usable = sum(v is not None for v in usable)
                reason = listed.get((name, instance))
                if kind == "solve" and any(
                    v is not None and (not _is_number(v) or v not in (0, 1)) for v in values
                ):
                    verdict = SOLVE_VALUE
                elif n_usable < 2 and reason is None:
                    verdict = UNLISTED_UNSCORABLE
                elif n_usable >= 2 and reason is not None:
                    verdict = LISTED_SCORABLE
                else:
                    verdict = UNSCORED if reason is not None else SCORED
                found[name].append(_Instance(instance, values, usable, reason, verdict))
        return found

    def verdicts(self) -> set[str]:
        """Every verdict of every instance."""
        return {i.verdict for instances in self.instances.values() for i in instances}

    def task_references(self) -> dict[str, TaskReference]:
        """Each task as far as it can be read: scored instances (statistics ``None`` when
        the floors are unusable) and unscored ones."""
        floors = _floors(self.data if isinstance(self.data, dict) else {})
        references = {}
        for name, task in self.tasks.items():
            scored: dict[str, Any] = {}
            unscored: dict[str, str] = {}
            for instance in self.instances[name]:
                if instance.verdict == SCORED:
                    stats = compute_instance_stats(instance.usable, *floors) if floors else None
                    scored[instance.name] = stats
                elif instance.verdict == UNSCORED:
                    unscored[instance.name] = instance.reason or ""
            held = {i.name for i in self.instances[name]}
            for (listed_task, instance_name), reason in self.listed.items():
                if listed_task == name and instance_name not in held:
                    unscored[instance_name] = reason
            kind = task.get("kind") if isinstance(task.get("kind"), str) else ""
            direction = task.get("direction") if isinstance(task.get("direction"), str) else ""
            references[name] = TaskReference(name, kind, direction, scored, unscored, raw=task)
        return references


def _fixed_floor_explain(document: ReferenceInput):
    data, source = document.data, document.source
    if not isinstance(data, dict) or data.get("reference_id") != FIXED_REFERENCE_ID:
        return
    for k, (name, want) in enumerate(FIXED_FLOORS.items()):
        got = data.get(name)
        if _is_number(got) and got != want:
            problem = Problem(
                source, field=name, value=got, allowed=f"{want} (the fixed reference's floor)"
            )
            yield (0, k), Finding("fixed_floor", source, problem)


def _fixed_floor_holds(document: ReferenceInput) -> bool:
    data = document.data
    if not isinstance(data, dict) or data.get("reference_id") != FIXED_REFERENCE_ID:
        return True
    return all(not _is_number(data.get(n)) or data.get(n) == w for n, w in FIXED_FLOORS.items())


def _entry_explain(document: ReferenceInput):
    source = document.source
    for position, task, instance, _, verdict in document.entries:
        where = f"{source} unscored_reference_instances[{position}]"
        if verdict == "listed_unknown_task":
            problem = Problem(
                where,
                field="task",
                value=task,
                detail=f"names instance '{instance}' of task '{task}', which this file does "
                "not have",
                allowed="a task of this file: " + ", ".join(document.tasks),
            )
        elif verdict == "listed_twice":
            detail = f"instance '{instance}' of task '{task}' is listed twice"
            problem = Problem(where, field="instance", value=instance, detail=detail)
        else:
            continue
        yield (1, position), Finding(verdict, source, problem, task, instance)


def _instance_problem(instance: _Instance, where: str) -> Problem:
    values = instance.values
    if instance.verdict == SOLVE_VALUE:
        return Problem(where, field="values", value=values,
                       allowed="1 (solved), 0 (not solved) or null")  # fmt: skip
    if instance.verdict == UNLISTED_UNSCORABLE:
        detail = (
            "fewer than two usable values but not listed in unscored_reference_instances "
            "(an instance needs two usable values to be scored)"
        )
    else:
        n_usable = sum(v is not None for v in instance.usable)
        detail = f"listed as unscored ({instance.reason!r}) but has {n_usable} usable values"
    return Problem(where, field="values", value=values, detail=detail)


def _verdict_rule(verdict: str, says: str) -> Rule[ReferenceInput, Finding]:
    """The rule that no instance has ``verdict`` (its finding code)."""

    def explain(document: ReferenceInput):
        source = document.source
        for t, (name, instances) in enumerate(document.instances.items()):
            for k, instance in enumerate(instances):
                if instance.verdict == verdict:
                    where = f"{source} task '{name}' instance '{instance.name}'"
                    problem = _instance_problem(instance, where)
                    yield (2, t, k), Finding(verdict, source, problem, name, instance.name)

    return Rule(verdict, says, lambda document: verdict not in document.verdicts(), explain)


def _without_scored_explain(document: ReferenceInput):
    for t, (name, instances) in enumerate(document.instances.items()):
        if all(instance.verdict != SCORED for instance in instances):
            problem = Problem(
                f"{document.source} task '{name}'",
                detail="has no scored instance (a task needs at least one instance with two "
                "usable values)",
            )
            yield (2, t, len(instances)), Finding("task_without_scored", document.source,
                                                  problem, name)  # fmt: skip


def _entries_rule(verdict: str, says: str) -> Rule[ReferenceInput, Finding]:
    def explain(document: ReferenceInput):
        return (found for found in _entry_explain(document) if found[1].code == verdict)

    return Rule(
        verdict,
        says,
        lambda document: all(entry[4] != verdict for entry in document.entries),
        explain,
    )


#: Layer 2: the relations between a reference file's values, each rule a finding code.
REFERENCE_RULES: RuleList[ReferenceInput, Finding] = RuleList(
    "reference relations",
    (
        Rule(
            "fixed_floor", FINDING_CODES["fixed_floor"], _fixed_floor_holds, _fixed_floor_explain
        ),  # fmt: skip
        _entries_rule("listed_unknown_task", FINDING_CODES["listed_unknown_task"]),
        _entries_rule("listed_twice", FINDING_CODES["listed_twice"]),
        _verdict_rule(SOLVE_VALUE, FINDING_CODES["solve_value"]),
        _verdict_rule(UNLISTED_UNSCORABLE, FINDING_CODES["unlisted_unscorable"]),
        _verdict_rule(LISTED_SCORABLE, FINDING_CODES["listed_scorable"]),
        Rule(
            "task_without_scored",
            FINDING_CODES["task_without_scored"],
            lambda document: all(
                any(i.verdict == SCORED for i in instances)
                for instances in document.instances.values()
            ),
            _without_scored_explain,
        ),
    ),
)


def _floors(data: dict[str, Any]) -> tuple[float, float] | None:
    rel, absolute = data.get("scale_floor_relative"), data.get("scale_floor_absolute")
    if _is_number(rel) and _is_number(absolute) and 0 <= rel <= 1 and absolute > 0:
        return float(rel), float(absolute)
    return None  # a floor finding


def placement_findings(
    data: dict[str, Any],
    source: str,
    *,
    expected_id: str | None,
    expected_suite: str | None,
    id_source: str = "the id that was asked for",
) -> list[Finding]:
    """The file declares the id and suite its place says (``<id>/<suite>.json``)."""
    expected = (
        ("id_mismatch", "reference_id", expected_id, id_source),
        ("suite_mismatch", "suite", expected_suite, "the file name"),
    )
    return [
        Finding(
            code,
            source,
            Problem(source, field=name, value=data.get(name), allowed=f"'{want}' ({why})"),
        )
        for code, name, want, why in expected
        if want is not None and data.get(name) != want
    ]


def fixed_release_findings(
    data: dict[str, Any], source: str, tasks: dict[str, TaskReference]
) -> list[Finding]:
    """The fixed reference's published facts: its suites, the Full counts, five Lite tasks."""
    if data.get("reference_id") != FIXED_REFERENCE_ID:
        return []
    suite = data.get("suite")
    n_scored = sum(len(task.scored) for task in tasks.values())
    n_unscored = sum(len(task.unscored) for task in tasks.values())
    if suite not in FIXED_SUITES:
        problem = Problem(
            source,
            field="suite",
            value=suite,
            allowed=" or ".join(FIXED_SUITES) + f" (the suites of '{FIXED_REFERENCE_ID}')",
        )
        return [Finding("fixed_suite", source, problem)]
    if suite == "full" and (n_scored, n_unscored) != (
        FIXED_FULL_SCORED_INSTANCES,
        FIXED_FULL_UNSCORED_INSTANCES,
    ):
        problem = Problem(
            source,
            detail=f"holds {n_scored} scored and {n_unscored} unscored instances; the fixed "
            f"Full reference holds {FIXED_FULL_SCORED_INSTANCES:,} scored and "
            f"{FIXED_FULL_UNSCORED_INSTANCES} unscored",
        )
        return [Finding("fixed_full_counts", source, problem)]
    if suite == "lite" and len(tasks) != FIXED_LITE_SOLVER_TASKS:
        problem = Problem(
            source,
            detail=f"holds {len(tasks)} tasks; the fixed Lite reference holds "
            f"{FIXED_LITE_SOLVER_TASKS} solver tasks",
        )
        return [Finding("fixed_lite_tasks", source, problem)]
    return []
