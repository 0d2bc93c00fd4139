"""The rules of a reference file, written once, returning findings.

A reference file is checked in two layers: the published schema
(``references/schemas/reference.schema.json``: every value against its vocabulary and
range), then the relations between values (an instance with fewer than two usable values
must be listed as unscored, a listed instance must not be scorable, a solve task holds
only 1, 0 or null, the fixed reference's floors are 0.02 and 1e-9, ...). Each rule
yields a :class:`Finding`: a code from :data:`FINDING_CODES` and a
:class:`~tcsexam_lib.errors.Problem` in the kit's message template.

:func:`~tcsexam_lib.references.load.load_reference` raises on the findings of the first
layer that has any; ``tcsexam reference check`` reports all of them, with the same codes
and the same messages.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import Problem, ReferenceProblem
from ..formulas import compute_instance_stats
from ..schemas import schema_accepts, schema_errors, schema_problem
from ..vocab import (
    FIXED_FULL_SCORED_INSTANCES,
    FIXED_FULL_UNSCORED_INSTANCES,
    FIXED_LITE_SOLVER_TASKS,
    FIXED_REFERENCE_ID,
    FIXED_SCALE_FLOOR_ABSOLUTE,
    FIXED_SCALE_FLOOR_RELATIVE,
)
from .model import Reference, TaskReference

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
}


@dataclass(frozen=True)
class Finding:
    """One rule that does not hold: a code and the problem, with its task and instance."""

    code: str
    file: str
    problem: Problem
    task: str | None = None
    instance: str | None = None

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


def schema_findings(data: Any, source: str) -> list[Finding]:
    """Layer 1: every violation of the published reference schema."""
    if schema_accepts(data, "reference"):
        return []
    findings = []
    for error in schema_errors(data, "reference"):
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
        findings.append(
            Finding(code, source, schema_problem(error, source, describe_path), task, instance)
        )
    return findings


def _fixed_floor_findings(data: dict[str, Any], source: str) -> list[Finding]:
    if data.get("reference_id") != FIXED_REFERENCE_ID:
        return []
    findings = []
    for name, want in (
        ("scale_floor_relative", FIXED_SCALE_FLOOR_RELATIVE),
        ("scale_floor_absolute", FIXED_SCALE_FLOOR_ABSOLUTE),
    ):
        got = data.get(name)
        if _is_number(got) and got != want:
            problem = Problem(
                source, field=name, value=got, allowed=f"{want} (the fixed reference's floor)"
            )
            findings.append(Finding("fixed_floor", source, problem))
    return findings


def _listed_entries(
    data: dict[str, Any], tasks: dict[str, Any], source: str
) -> tuple[dict[tuple[str, str], str], list[Finding]]:
    """``(task, instance) -> reason`` of the unscored entries, and their findings."""
    listed: dict[tuple[str, str], str] = {}
    findings = []
    entries = data.get("unscored_reference_instances")
    for position, entry in enumerate(entries if isinstance(entries, list) else []):
        task = entry.get("task") if isinstance(entry, dict) else None
        instance = entry.get("instance") if isinstance(entry, dict) else None
        if not isinstance(task, str) or not isinstance(instance, str):
            continue  # a schema finding
        where = f"{source} unscored_reference_instances[{position}]"
        if task not in tasks:
            problem = Problem(
                where,
                field="task",
                value=task,
                detail=f"names instance '{instance}' of task '{task}', which this file does "
                "not have",
                allowed="a task of this file: " + ", ".join(tasks),
            )
            findings.append(Finding("listed_unknown_task", source, problem, task, instance))
        elif (task, instance) in listed:
            problem = Problem(
                where,
                field="instance",
                value=instance,
                detail=f"instance '{instance}' of task '{task}' is listed twice",
            )
            findings.append(Finding("listed_twice", source, problem, task, instance))
        else:
            reason = entry.get("reason")
            listed[(task, instance)] = reason if isinstance(reason, str) else ""
    return listed, findings


def _floors(data: dict[str, Any]) -> tuple[float, float] | None:
    rel, absolute = data.get("scale_floor_relative"), data.get("scale_floor_absolute")
    if _is_number(rel) and _is_number(absolute) and 0 <= rel <= 1 and absolute > 0:
        return float(rel), float(absolute)
    return None  # a floor finding


@dataclass(frozen=True)
class _ValuesProblem:
    """The problem of one instance's value list, ``where`` and ``values`` fixed."""

    where: str
    values: list[Any]

    def __call__(self, **text: str) -> Problem:
        return Problem(self.where, field="values", value=self.values, **text)


def _task_reference(
    name: str,
    task: dict[str, Any],
    listed: dict[tuple[str, str], str],
    floors: tuple[float, float] | None,
    source: str,
) -> tuple[TaskReference, list[Finding]]:
    """One task's scored instances (with their statistics) and unscored ones."""
    kind = task.get("kind") if isinstance(task.get("kind"), str) else None
    direction = task.get("direction") if isinstance(task.get("direction"), str) else None
    instances = task.get("instances") if isinstance(task.get("instances"), dict) else {}
    findings: list[Finding] = []
    scored: dict[str, Any] = {}
    unscored: dict[str, str] = {}
    for instance, raw in instances.items():
        values = raw if isinstance(raw, list) else []
        problem = _ValuesProblem(f"{source} task '{name}' instance '{instance}'", values)
        if kind == "solve" and any(
            v is not None and (not _is_number(v) or v not in (0, 1)) for v in values
        ):
            findings.append(
                Finding(
                    "solve_value",
                    source,
                    problem(allowed="1 (solved), 0 (not solved) or null"),
                    name,
                    instance,
                )
            )
            continue
        usable = [v if _is_number(v) and math.isfinite(v) else None for v in values]
        n_usable = sum(v is not None for v in usable)
        reason = listed.get((name, instance))
        if n_usable < 2 and reason is None:
            detail = (
                "fewer than two usable values but not listed in unscored_reference_instances "
                "(an instance needs two usable values to be scored)"
            )
            findings.append(
                Finding("unlisted_unscorable", source, problem(detail=detail), name, instance)
            )
        elif n_usable >= 2 and reason is not None:
            detail = f"listed as unscored ({reason!r}) but has {n_usable} usable values"
            findings.append(
                Finding("listed_scorable", source, problem(detail=detail), name, instance)
            )
        elif reason is not None:
            unscored[instance] = reason
        else:
            scored[instance] = compute_instance_stats(usable, *floors) if floors else None
    for (listed_task, instance), reason in listed.items():
        if listed_task == name and instance not in instances:
            unscored[instance] = reason
    if not scored:
        problem = Problem(
            f"{source} task '{name}'",
            detail="has no scored instance (a task needs at least one instance with two "
            "usable values)",
        )
        findings.append(Finding("task_without_scored", source, problem, name))
    reference = TaskReference(name, kind or "", direction or "", scored, unscored, raw=task)
    return reference, findings


def relation_findings(data: Any, source: str) -> tuple[list[Finding], dict[str, TaskReference]]:
    """Layer 2: the relations between the values, and each task as far as it can be read.

    Robust to data that failed layer 1: what the schema already refused is skipped.
    """
    if not isinstance(data, dict):
        return [], {}
    findings = _fixed_floor_findings(data, source)
    tasks = data.get("tasks") if isinstance(data.get("tasks"), dict) else {}
    listed, listed_findings = _listed_entries(data, tasks, source)
    findings.extend(listed_findings)
    floors = _floors(data)
    references = {}
    for name, task in tasks.items():
        if isinstance(task, dict):
            references[name], task_findings = _task_reference(name, task, listed, floors, source)
            findings.extend(task_findings)
    return findings, references


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


def reference_from_data(
    data: Any,
    *,
    source: str = "reference",
    path: Path | None = None,
    sha256: str | None = None,
) -> Reference:
    """A :class:`Reference` from parsed file content, after both layers of rules.

    Raises :class:`~tcsexam_lib.errors.ReferenceProblem` with every finding of the first
    layer that has any (the schema, then the relations).

    Examples
    --------
    >>> ref = reference_from_data({"reference_id": "example", "suite": "lite",
    ...     "scale_floor_relative": 0.02, "scale_floor_absolute": 1e-9,
    ...     "tasks": {"t": {"kind": "objective", "direction": "maximize",
    ...                     "instances": {"g1": [10, 12, 14]}}},
    ...     "unscored_reference_instances": []})
    >>> ref.tasks["t"].scored["g1"].scale
    2.0
    """
    findings = schema_findings(data, source)
    if findings:
        raise ReferenceProblem(
            f"Reference file {source} is not valid", [f.problem for f in findings]
        )
    findings, tasks = relation_findings(data, source)
    if findings:
        raise ReferenceProblem(f"Reference {source} is inconsistent", [f.problem for f in findings])
    return Reference(
        reference_id=data["reference_id"],
        suite=data["suite"],
        scale_floor_relative=float(data["scale_floor_relative"]),
        scale_floor_absolute=float(data["scale_floor_absolute"]),
        tasks=tasks,
        path=path,
        sha256=sha256,
        simulated=bool(data.get("simulated", False)),
        raw=data,
    )
