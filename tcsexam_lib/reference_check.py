"""Checking reference files: the published schema, then what the values mean.

:func:`check_reference` looks at one reference file, or at every suite file of a
reference id, and collects as many findings as it can (unlike :func:`load_reference`,
which stops at the first layer that fails). It checks

- the published schema (``references/schemas/reference.schema.json``);
- both scale floors: present, numbers, in range, and ``0.02`` / ``1e-9`` for the fixed
  reference ``paper-k3-fixed-260925``;
- ``kind`` / ``direction`` consistency (a ``solve`` task maximises and holds only 1, 0 or
  ``null``);
- every instance with fewer than two usable values is listed in
  ``unscored_reference_instances``, and no listed instance is scorable;
- the file declares the id and suite its place says (``<id>/<suite>.json``), tasks shared
  by two suite files of one id have equal entries and the floors agree, and the suite's
  task list (``references/suites/<suite>.json``, when present) names the same solver tasks;
- for ``paper-k3-fixed-260925``: Full holds 1,860 scored and 32 unscored instances, Lite
  holds five tasks whose entries equal their Full entries.

It also summarises each file: task and instance counts, and per instance which term of
``scale = max(s, rel_floor*|mu|, abs_floor)`` sets the scale (a floor that sets it
means the reference runs agreed more closely than the floor allows, so a candidate is
judged against the floor, not against the runs' spread).

The result is a :class:`ReferenceCheck` (plain dataclasses, ``to_dict()`` for JSON);
nothing is printed here.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import jsonschema

from .errors import TcsexamError
from .jsonio import load_schema, parse_json_text, sha256_file
from .paths import resolve_references_dir
from .reference import SCALE_TERMS, build_reference, compute_instance_stats
from .vocab import (
    FIXED_FULL_SCORED_INSTANCES,
    FIXED_FULL_UNSCORED_INSTANCES,
    FIXED_LITE_SOLVER_TASKS,
    FIXED_REFERENCE_ID,
    FIXED_SCALE_FLOOR_ABSOLUTE,
    FIXED_SCALE_FLOOR_RELATIVE,
)

#: The suite files the fixed reference's release holds.
FIXED_SUITES = ("full", "lite")

#: Every finding code :func:`check_reference` can report, with what it means.
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
    "id_mismatch": "the file declares another reference id than its folder",
    "suite_mismatch": "the file declares another suite than its file name",
    "suite_tasks": "the suite's task list names other solver tasks than the reference",
    "floors_differ": "two suite files of one reference id have different floors",
    "task_differs": "a task shared by two suite files of one id has different entries",
    "fixed_suite": "the fixed reference has only the suites full and lite",
    "fixed_full_counts": "the fixed Full file must hold 1,860 scored and 32 unscored instances",
    "fixed_lite_tasks": "the fixed Lite file must hold five tasks",
    "load_failed": "load_reference refuses the file (a relation not covered above)",
}


@dataclass(frozen=True)
class Finding:
    """One thing that does not hold, named by file, task and instance.

    ``task`` and ``instance`` are ``None`` for findings about the whole file (a floor,
    the id) or the whole task.
    """

    code: str
    file: str
    message: str
    task: str | None = None
    instance: str | None = None

    def __str__(self) -> str:
        where = self.file
        if self.task is not None:
            where += f" task '{self.task}'"
        if self.instance is not None:
            where += f" instance '{self.instance}'"
        if self.task is None and self.instance is None:
            where += " (file level)"
        return f"[{self.code}] {where}: {self.message}"


@dataclass
class TaskSummary:
    """Counts of one task and which term sets each scored instance's scale."""

    task: str
    kind: str | None
    direction: str | None
    n_instances: int = 0
    n_scored: int = 0
    n_unscored: int = 0
    scale_terms: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SCALE_TERMS, 0))
    #: Scored instances whose scale is set by a floor: instance, term, mu, s, scale.
    floor_instances: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class FileReport:
    """What :func:`check_reference` found in one reference file."""

    path: str
    sha256: str | None
    reference_id: str | None = None
    suite: str | None = None
    simulated: bool = False
    scale_floor_relative: Any = None
    scale_floor_absolute: Any = None
    tasks: list[TaskSummary] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    @property
    def n_tasks(self) -> int:
        return len(self.tasks)

    @property
    def n_scored(self) -> int:
        return sum(t.n_scored for t in self.tasks)

    @property
    def n_unscored(self) -> int:
        return sum(t.n_unscored for t in self.tasks)

    @property
    def scale_terms(self) -> dict[str, int]:
        """Over all tasks: how many scored instances each scale term sets."""
        return {term: sum(t.scale_terms[term] for t in self.tasks) for term in SCALE_TERMS}


@dataclass
class ReferenceCheck:
    """The result of :func:`check_reference`.

    ``ok`` is true only when no finding was made and at least one file was checked.
    ``findings`` are those about several files (or about absent files); each file's own
    findings are in its :class:`FileReport`. ``notes`` say what could not be compared.
    """

    target: str
    references_dir: str | None
    files: list[FileReport] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def all_findings(self) -> list[Finding]:
        """Every finding: per file, then across files."""
        return [f for report in self.files for f in report.findings] + self.findings

    @property
    def ok(self) -> bool:
        return bool(self.files) and not self.all_findings

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (counts included)."""
        files = []
        for report in self.files:
            entry = asdict(report)
            entry["findings"] = [asdict(f) for f in report.findings]
            entry.update(
                n_tasks=report.n_tasks,
                n_scored=report.n_scored,
                n_unscored=report.n_unscored,
                scale_terms=report.scale_terms,
            )
            files.append(entry)
        return {
            "target": self.target,
            "references_dir": self.references_dir,
            "ok": self.ok,
            "files": files,
            "findings": [asdict(f) for f in self.findings],
            "notes": list(self.notes),
        }


def _js(value: Any) -> str:
    """A value as JSON text for messages (``null``, not ``None``)."""
    if isinstance(value, str) and value == "(absent)":
        return value
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _schema_finding(error: jsonschema.ValidationError, source: str) -> Finding:
    path = list(error.absolute_path)
    task = instance = None
    if len(path) >= 2 and path[0] == "tasks":
        task = str(path[1])
        if len(path) >= 4 and path[2] == "instances":
            instance = str(path[3])
    code = "schema"
    if path and path[0] in ("scale_floor_relative", "scale_floor_absolute"):
        code = "floor"
    elif error.validator == "required" and not path:
        missing = error.message.split("'")[1] if "'" in error.message else ""
        if missing.startswith("scale_floor_"):
            code = "floor"
    elif len(path) == 3 and path[2] == "direction" and error.validator == "const":
        code = "kind_direction"
    elif len(path) >= 2 and path[0] == "unscored_reference_instances":
        entry = error.instance if isinstance(error.instance, dict) else {}
        task = entry.get("task") if isinstance(entry.get("task"), str) else None
        instance = entry.get("instance") if isinstance(entry.get("instance"), str) else None
    location = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
    message = error.message
    if code == "kind_direction":
        message = f"direction {_js(error.instance)} on a solve task (a solve task maximises)"
    elif location:
        message = f"{location}: {message}"
    return Finding(code, source, message, task, instance)


def _check_floors(data: dict[str, Any], source: str) -> list[Finding]:
    """Floors beyond the schema: the fixed reference's values."""
    findings = []
    if data.get("reference_id") != FIXED_REFERENCE_ID:
        return findings
    for name, want in (
        ("scale_floor_relative", FIXED_SCALE_FLOOR_RELATIVE),
        ("scale_floor_absolute", FIXED_SCALE_FLOOR_ABSOLUTE),
    ):
        got = data.get(name)
        if _is_number(got) and got != want:
            findings.append(
                Finding(
                    "fixed_floor",
                    source,
                    f"{name} is {_js(got)}; the fixed reference '{FIXED_REFERENCE_ID}' uses "
                    f"{_js(want)}",
                )
            )
    return findings


def _listed_entries(
    data: dict[str, Any], tasks: dict[str, Any], source: str
) -> tuple[dict[tuple[str, str], str], list[Finding]]:
    listed: dict[tuple[str, str], str] = {}
    findings = []
    entries = data.get("unscored_reference_instances")
    if not isinstance(entries, list):
        return listed, findings
    for position, entry in enumerate(entries):
        if not isinstance(entry, dict):
            continue
        task, instance = entry.get("task"), entry.get("instance")
        if not isinstance(task, str) or not isinstance(instance, str):
            continue
        if task not in tasks:
            findings.append(
                Finding(
                    "listed_unknown_task",
                    source,
                    f"unscored_reference_instances[{position}] names task '{task}', which is "
                    "not a task of this file (tasks: " + ", ".join(sorted(tasks)) + ")",
                    task,
                    instance,
                )
            )
            continue
        if (task, instance) in listed:
            findings.append(
                Finding(
                    "listed_twice",
                    source,
                    f"unscored_reference_instances[{position}] lists the instance a second time",
                    task,
                    instance,
                )
            )
            continue
        reason = entry.get("reason")
        listed[(task, instance)] = reason if isinstance(reason, str) else ""
    return listed, findings


def _usable(values: list[Any]) -> list[float | None]:
    """The values with anything that is not a number (already a schema finding) as null."""
    return [v if _is_number(v) else None for v in values]


def _check_task(
    name: str,
    task: dict[str, Any],
    listed: dict[tuple[str, str], str],
    floors: tuple[float, float] | None,
    source: str,
) -> tuple[TaskSummary, list[Finding]]:
    kind = task.get("kind") if isinstance(task.get("kind"), str) else None
    direction = task.get("direction") if isinstance(task.get("direction"), str) else None
    summary = TaskSummary(name, kind, direction)
    findings: list[Finding] = []
    instances = task.get("instances") if isinstance(task.get("instances"), dict) else {}
    summary.n_instances = len(instances)
    for instance, raw in instances.items():
        values = raw if isinstance(raw, list) else []
        if kind == "solve":
            bad = [v for v in values if v is not None and (not _is_number(v) or v not in (0, 1))]
            if bad:
                findings.append(
                    Finding(
                        "solve_value",
                        source,
                        f"values {_js(values)} hold {_js(bad)}; a solve task's values are "
                        "1 (solved), 0 (not solved) or null",
                        name,
                        instance,
                    )
                )
        usable = _usable(values)
        n_usable = sum(v is not None for v in usable)
        reason = listed.get((name, instance))
        if n_usable < 2:
            if reason is None:
                findings.append(
                    Finding(
                        "unlisted_unscorable",
                        source,
                        f"{n_usable} usable value(s) in {_js(values)} but not listed in "
                        "unscored_reference_instances (an instance needs two usable values "
                        "to be scored)",
                        name,
                        instance,
                    )
                )
            continue
        if reason is not None:
            findings.append(
                Finding(
                    "listed_scorable",
                    source,
                    f"listed as unscored ({_js(reason)}) but has {n_usable} usable values "
                    f"{_js(values)}",
                    name,
                    instance,
                )
            )
            continue
        summary.n_scored += 1
        if floors is None:
            continue
        stats = compute_instance_stats(usable, *floors)
        summary.scale_terms[stats.scale_term] += 1
        if stats.scale_term != "sample_std":
            summary.floor_instances.append(
                {
                    "instance": instance,
                    "scale_term": stats.scale_term,
                    "mu": stats.mu,
                    "s": stats.s,
                    "scale": stats.scale,
                }
            )
    summary.n_unscored = sum(1 for (task_name, _) in listed if task_name == name)
    if summary.n_scored == 0:
        findings.append(
            Finding(
                "task_without_scored",
                source,
                "no scored instance (a task needs at least one instance with two usable values)",
                name,
            )
        )
    return summary, findings


def check_reference_data(
    data: Any, source: str, *, sha256: str | None = None, expected_id: str | None = None
) -> FileReport:
    """Check the content of one reference file (already parsed) and summarise it.

    ``expected_id`` is the id the file's folder says (checked when given); the suite
    must equal the file name when ``source`` ends with ``<suite>.json``.

    Examples
    --------
    >>> report = check_reference_data({
    ...     "reference_id": "my-ref", "suite": "lite",
    ...     "scale_floor_relative": 0.02, "scale_floor_absolute": 1e-9,
    ...     "tasks": {"t": {"kind": "objective", "direction": "minimize",
    ...                     "instances": {"a": [10, 12, 14], "b": [5, None]}}},
    ...     "unscored_reference_instances": []}, "lite.json")
    >>> [(f.code, f.task, f.instance) for f in report.findings]
    [('unlisted_unscorable', 't', 'b')]
    """
    report = FileReport(path=source, sha256=sha256)
    validator = jsonschema.Draft202012Validator(load_schema("reference"))
    report.findings.extend(
        _schema_finding(error, source)
        for error in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.path)))
    )
    if not isinstance(data, dict):
        return report
    report.reference_id = data.get("reference_id")
    report.suite = data.get("suite")
    report.simulated = data.get("simulated") is True
    report.scale_floor_relative = data.get("scale_floor_relative")
    report.scale_floor_absolute = data.get("scale_floor_absolute")
    report.findings.extend(_check_floors(data, source))
    rel, absolute = report.scale_floor_relative, report.scale_floor_absolute
    floors = (float(rel), float(absolute)) if _is_number(rel) and _is_number(absolute) else None
    tasks = data.get("tasks") if isinstance(data.get("tasks"), dict) else {}
    listed, listed_findings = _listed_entries(data, tasks, source)
    report.findings.extend(listed_findings)
    for name, task in tasks.items():
        if not isinstance(task, dict):
            continue
        summary, task_findings = _check_task(name, task, listed, floors, source)
        report.tasks.append(summary)
        report.findings.extend(task_findings)
    stem = Path(source).stem if source.endswith(".json") else None
    if expected_id is not None and report.reference_id != expected_id:
        report.findings.append(
            Finding(
                "id_mismatch",
                source,
                f"declares reference_id {_js(report.reference_id)} but lies in the folder of "
                f"'{expected_id}'",
            )
        )
    if expected_id is not None and stem is not None and report.suite != stem:
        report.findings.append(
            Finding(
                "suite_mismatch",
                source,
                f"declares suite {_js(report.suite)} but its file name says '{stem}'",
            )
        )
    if report.reference_id == FIXED_REFERENCE_ID:
        report.findings.extend(_check_fixed_counts(report))
    if not report.findings:
        try:
            build_reference(data, source=source)
        except TcsexamError as exc:  # a relation this check does not cover: keep it visible
            report.findings.append(Finding("load_failed", source, str(exc)))
    return report


def _check_fixed_counts(report: FileReport) -> list[Finding]:
    findings = []
    if report.suite not in FIXED_SUITES:
        findings.append(
            Finding(
                "fixed_suite",
                report.path,
                f"suite {_js(report.suite)}: the fixed reference '{FIXED_REFERENCE_ID}' has only "
                "the suites " + " and ".join(FIXED_SUITES),
            )
        )
    elif report.suite == "full" and (
        report.n_scored != FIXED_FULL_SCORED_INSTANCES
        or report.n_unscored != FIXED_FULL_UNSCORED_INSTANCES
    ):
        findings.append(
            Finding(
                "fixed_full_counts",
                report.path,
                f"holds {report.n_scored} scored and {report.n_unscored} unscored instances; "
                f"the fixed Full reference holds {FIXED_FULL_SCORED_INSTANCES:,} scored and "
                f"{FIXED_FULL_UNSCORED_INSTANCES} unscored",
            )
        )
    elif report.suite == "lite" and report.n_tasks != FIXED_LITE_SOLVER_TASKS:
        findings.append(
            Finding(
                "fixed_lite_tasks",
                report.path,
                f"holds {report.n_tasks} tasks; the fixed Lite reference holds "
                f"{FIXED_LITE_SOLVER_TASKS} solver tasks",
            )
        )
    return findings


def _read_file(path: Path, expected_id: str | None) -> tuple[FileReport, Any]:
    source = str(path)
    digest = None
    try:
        digest = sha256_file(path)
        data = parse_json_text(path.read_text(encoding="utf-8"), source)
    except (OSError, UnicodeDecodeError, TcsexamError) as exc:
        report = FileReport(path=source, sha256=digest)
        report.findings.append(Finding("unreadable", source, str(exc)))
        return report, None
    return check_reference_data(data, source, sha256=digest, expected_id=expected_id), data


def _unscored_of(data: dict[str, Any], task: str) -> list[tuple[str, str]]:
    entries = data.get("unscored_reference_instances")
    if not isinstance(entries, list):
        return []
    return sorted(
        (str(e.get("instance")), str(e.get("reason")))
        for e in entries
        if isinstance(e, dict) and e.get("task") == task
    )


def _compare_suites(loaded: dict[str, tuple[FileReport, Any]]) -> list[Finding]:
    """Floors and shared tasks must agree between the suite files of one id."""
    findings = []
    usable = {
        suite: (report, data)
        for suite, (report, data) in loaded.items()
        if isinstance(data, dict) and isinstance(data.get("tasks"), dict)
    }
    # compare every suite with the largest one (for the fixed id: Lite with Full)
    order = sorted(usable, key=lambda s: (-len(usable[s][1]["tasks"]), s))
    if len(order) < 2:
        return findings
    base_suite = order[0]
    base_report, base = usable[base_suite]
    for suite in order[1:]:
        report, data = usable[suite]
        for name in ("scale_floor_relative", "scale_floor_absolute"):
            if data.get(name) != base.get(name):
                findings.append(
                    Finding(
                        "floors_differ",
                        report.path,
                        f"{name} is {_js(data.get(name))} but {_js(base.get(name))} in "
                        f"{base_report.path} (one reference id has one pair of floors)",
                    )
                )
        for task, entry in data["tasks"].items():
            if task not in base["tasks"]:
                if data.get("reference_id") == FIXED_REFERENCE_ID:
                    findings.append(
                        Finding(
                            "task_differs",
                            report.path,
                            f"task is absent from {base_report.path} (every Lite task is a "
                            "Full task)",
                            task,
                        )
                    )
                continue
            other = base["tasks"][task]
            findings.extend(_task_differences(task, entry, other, report.path, base_report.path))
            if _unscored_of(data, task) != _unscored_of(base, task):
                findings.append(
                    Finding(
                        "task_differs",
                        report.path,
                        f"its unscored_reference_instances differ from those in {base_report.path}",
                        task,
                    )
                )
    return findings


def _task_differences(
    task: str, entry: Any, other: Any, path: str, other_path: str
) -> list[Finding]:
    if not isinstance(entry, dict) or not isinstance(other, dict):
        return []
    findings = []
    for key in ("kind", "direction"):
        if entry.get(key) != other.get(key):
            findings.append(
                Finding(
                    "task_differs",
                    path,
                    f"{key} is {_js(entry.get(key))} but {_js(other.get(key))} in {other_path}",
                    task,
                )
            )
    mine = entry.get("instances") if isinstance(entry.get("instances"), dict) else {}
    theirs = other.get("instances") if isinstance(other.get("instances"), dict) else {}
    for instance in sorted(set(mine) | set(theirs)):
        if mine.get(instance) != theirs.get(instance):
            findings.append(
                Finding(
                    "task_differs",
                    path,
                    f"values {_js(mine.get(instance, '(absent)'))} but "
                    f"{_js(theirs.get(instance, '(absent)'))} in {other_path}",
                    task,
                    instance,
                )
            )
    return findings


def _compare_suite_lists(
    loaded: dict[str, tuple[FileReport, Any]], refs_dir: Path, notes: list[str]
) -> list[Finding]:
    """The suite's task list (when present) must name the reference's solver tasks."""
    findings = []
    for suite, (report, data) in loaded.items():
        if not isinstance(data, dict) or not isinstance(data.get("tasks"), dict):
            continue
        suite_path = refs_dir / "suites" / f"{suite}.json"
        if not suite_path.is_file():
            notes.append(
                f"{suite_path} absent: the solver task list of suite '{suite}' was not compared"
            )
            continue
        try:
            suite_data = parse_json_text(suite_path.read_text(encoding="utf-8"), str(suite_path))
            listed = set(suite_data["tracks"]["solver"])
        except (OSError, UnicodeDecodeError, TcsexamError, KeyError, TypeError) as exc:
            findings.append(
                Finding("suite_tasks", str(suite_path), f"cannot read its solver tasks: {exc}")
            )
            continue
        tasks = set(data["tasks"])
        for task in sorted(tasks - listed):
            findings.append(
                Finding(
                    "suite_tasks",
                    report.path,
                    f"task is not a solver task of {suite_path}",
                    task,
                )
            )
        for task in sorted(listed - tasks):
            findings.append(
                Finding(
                    "suite_tasks",
                    report.path,
                    f"solver task of {suite_path} has no entry in this reference file",
                    task,
                )
            )
    return findings


def _looks_like_path(target: str) -> bool:
    return target.endswith(".json") or "/" in target or os.sep in target or Path(target).is_file()


def check_reference(
    target: str | os.PathLike[str], *, references_dir: str | os.PathLike[str] | None = None
) -> ReferenceCheck:
    """Check a reference file, or every suite file of a reference id.

    Parameters
    ----------
    target : str or path
        A reference id (its files are ``<references_dir>/<id>/*.json``), a folder of
        suite files, or the path of one file.
    references_dir : path, optional
        Folder of references (default: ``$TCSEXAM_REFERENCES`` or the kit's own).

    Returns
    -------
    ReferenceCheck
        Every finding (each naming file, task and instance where it applies) and a
        summary per file; ``ok`` is true only when everything holds.

    Examples
    --------
    The fixed reference's values are not shipped with the kit, so on a fresh clone:

    >>> result = check_reference("paper-k3-fixed-260925", references_dir="/nonexistent")
    >>> result.ok, [f.code for f in result.findings]
    (False, ['not_found'])
    """
    refs_dir = resolve_references_dir(references_dir)
    text = os.fspath(target)
    result = ReferenceCheck(target=text, references_dir=str(refs_dir))
    loaded: dict[str, tuple[FileReport, Any]] = {}
    if isinstance(target, os.PathLike) or _looks_like_path(text):
        path = Path(text)
        if path.is_dir():
            folder, expected_id, paths = path, path.name, sorted(path.glob("*.json"))
        elif path.is_file():
            folder, expected_id, paths = path.parent, None, [path]
        else:
            result.findings.append(Finding("not_found", text, "no such file or folder"))
            return result
    else:
        folder, expected_id = refs_dir / text, text
        paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
    for path in paths:
        report, data = _read_file(path, expected_id)
        result.files.append(report)
        suite = report.suite if isinstance(report.suite, str) else path.stem
        loaded.setdefault(suite, (report, data))
    declared_id = next(
        (r.reference_id for r in result.files if isinstance(r.reference_id, str)), expected_id
    )
    if expected_id is None and declared_id == FIXED_REFERENCE_ID:
        # a single fixed-id file: compare it with its sibling suite file when that is present
        for suite in FIXED_SUITES:
            sibling = folder / f"{suite}.json"
            if suite not in loaded and sibling.is_file():
                _, data = _read_file(sibling, None)
                loaded[suite] = (FileReport(str(sibling), None), data)
    if declared_id == FIXED_REFERENCE_ID:
        _check_fixed_presence(result, loaded, folder, expected_id is not None)
    elif not paths:
        result.findings.append(
            Finding(
                "not_found",
                str(folder / "<suite>.json"),
                f"no suite file of reference '{text}' under {folder}",
            )
        )
    if len(loaded) >= 2:
        result.findings.extend(_compare_suites(loaded))
    if expected_id is not None and paths:
        result.findings.extend(_compare_suite_lists(loaded, refs_dir, result.notes))
    return result


def _check_fixed_presence(
    result: ReferenceCheck,
    loaded: dict[str, tuple[FileReport, Any]],
    folder: Path,
    by_id: bool,
) -> None:
    absent = [s for s in FIXED_SUITES if s not in loaded]
    if by_id and len(absent) == len(FIXED_SUITES):
        result.findings.append(
            Finding(
                "not_found",
                str(folder),
                f"the release files of '{FIXED_REFERENCE_ID}' are not there: put the release's "
                + " and ".join(f"{s}.json" for s in FIXED_SUITES)
                + f" in {folder} (see references/{FIXED_REFERENCE_ID}/README.md); the kit never "
                "ships their values",
            )
        )
        return
    for suite in absent:
        result.notes.append(
            f"{folder / (suite + '.json')} absent: "
            + ("not checked; " if by_id else "")
            + "Lite was not compared with Full"
        )
