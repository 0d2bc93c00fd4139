"""``tcsexam reference check``: every finding of both layers of :mod:`.rules` per file (where
loading stops at the first), what spans files (place, suite files of one id, the suite's
task list, the fixed release's counts), and a summary of each file's scale terms."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..digests import sha256_file
from ..errors import TcsexamError
from ..formulas import SCALE_TERMS
from ..jsonio import read_json_with_digest
from ..paths import resolve_references_dir
from ..vocab import FIXED_REFERENCE_ID
from .load import looks_like_path
from .model import TaskReference
from .rules import (
    FINDING_CODES,
    FIXED_SUITES,
    REFERENCE_RULES,
    REFERENCE_SCHEMA_RULES,
    Finding,
    ReferenceInput,
    fixed_release_findings,
    placement_findings,
)
from .suite_check import compare_suite_lists, named_suite_file, suite_places

__all__ = ["FINDING_CODES", "FileReport", "ReferenceCheck", "TaskSummary", "check_reference"]


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
    #: Scored instances whose scale is set by a floor: instance, term, mu, s, scale
    #: (those at the absolute floor first, then in file order).
    floor_instances: list[dict[str, Any]] = field(default_factory=list)


def summarise_task(task: TaskReference) -> TaskSummary:
    """Counts and scale terms of one task of a (checked) reference file."""
    instances = task.raw.get("instances") if isinstance(task.raw.get("instances"), dict) else {}
    summary = TaskSummary(task.name, task.kind or None, task.direction or None, len(instances))
    summary.n_scored, summary.n_unscored = len(task.scored), len(task.unscored)
    for instance, stats in task.scored.items():
        if stats is None:
            continue  # the floors are unusable (a finding of their own)
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
    # the absolute floor first: there a candidate scores at best 0.5 (see solver_notes)
    summary.floor_instances.sort(key=lambda row: row["scale_term"] != "absolute_floor")
    return summary


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
    """The result of :func:`check_reference`: ``ok`` only with no finding and a file checked;
    ``findings`` across files (each file's own in its :class:`FileReport`); ``notes``."""

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
            entry["findings"] = [f.to_dict() for f in report.findings]
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
            "findings": [f.to_dict() for f in self.findings],
            "notes": list(self.notes),
        }


def _js(value: Any) -> str:
    """A value as JSON text for messages (``null``, not ``None``)."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def check_reference_data(
    data: Any, source: str, *, sha256: str | None = None, expected_id: str | None = None
) -> FileReport:
    """Every finding of both layers of rules on one parsed reference file; ``expected_id``
    (from its folder) is checked when given, and then the suite against the file name.

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
    document = ReferenceInput(data, source)
    report.findings.extend(REFERENCE_SCHEMA_RULES.refusal(document))  # the published schema
    if not isinstance(data, dict):
        return report
    report.reference_id = data.get("reference_id")
    report.suite = data.get("suite")
    report.simulated = data.get("simulated") is True
    report.scale_floor_relative = data.get("scale_floor_relative")
    report.scale_floor_absolute = data.get("scale_floor_absolute")
    report.findings.extend(REFERENCE_RULES.problems(document))  # the relations between values
    tasks = document.task_references()
    report.tasks = [summarise_task(task) for task in tasks.values()]
    if expected_id is not None:
        stem = Path(source).stem if source.endswith(".json") else None
        report.findings.extend(
            placement_findings(
                data,
                source,
                expected_id=expected_id,
                expected_suite=stem,
                id_source="the id its folder names",
            )
        )
    report.findings.extend(fixed_release_findings(data, source, tasks))
    runs = data["provenance"].get("runs") if isinstance(data.get("provenance"), dict) else None
    for text in repeated_runs(runs):
        report.findings.append(Finding.about("repeated_run", source, f"provenance.runs: {text}"))
    return report


def repeated_runs(runs: Any) -> list[str]:
    """Each run of ``provenance.runs`` repeating an earlier one (same folder, or same sha256
    for every record file).

    >>> for text in repeated_runs([{"run": 1, "path": "r1", "files": {"t": "aa"}},
    ...                            {"run": 2, "path": "./r1", "files": {"t": "aa"}},
    ...                            {"run": 3, "path": "r3", "files": {"t": "aa"}}]):
    ...     print(text)
    run 2 (./r1) is run 1 (r1) given twice
    run 3 (r3) has the same content as run 1 (r1): the same sha256 for every record file
    """
    entries = [run for run in runs if isinstance(run, dict)] if isinstance(runs, list) else []
    found = []
    for k, run in enumerate(entries):
        place = os.path.realpath(str(run.get("path")))
        for earlier in entries[:k]:
            name = f"run {run.get('run')} ({run.get('path')})"
            first = f"run {earlier.get('run')} ({earlier.get('path')})"
            if place == os.path.realpath(str(earlier.get("path"))):
                found.append(f"{name} is {first} given twice")
                break
            if run.get("files") and run.get("files") == earlier.get("files"):
                found.append(
                    f"{name} has the same content as {first}: the same sha256 for every record file"
                )
                break
    return found


def _read_file(path: Path, expected_id: str | None) -> tuple[FileReport, Any]:
    source = str(path)
    try:
        data, digest = read_json_with_digest(path)
    except TcsexamError as exc:
        digest = sha256_file(path) if path.is_file() else None
        report = FileReport(path=source, sha256=digest)
        report.findings.append(Finding.about("unreadable", source, str(exc)))
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


def compare_suite_files(loaded: dict[str, tuple[FileReport, Any]]) -> list[Finding]:
    """Floors and shared tasks agree between the suite files of one id (each compared with
    the largest; for the fixed id, Lite with Full)."""
    findings: list[Finding] = []
    usable = {
        suite: (report, data)
        for suite, (report, data) in loaded.items()
        if isinstance(data, dict) and isinstance(data.get("tasks"), dict)
    }
    order = sorted(usable, key=lambda s: (-len(usable[s][1]["tasks"]), s))
    if len(order) < 2:
        return findings
    base_report, base = usable[order[0]]
    for suite in order[1:]:
        report, data = usable[suite]
        for name in ("scale_floor_relative", "scale_floor_absolute"):
            if data.get(name) != base.get(name):
                findings.append(
                    Finding.about(
                        "floors_differ",
                        report.path,
                        f"{name} is {_js(data.get(name))} but {_js(base.get(name))} in "
                        f"{base_report.path} (one reference id has one pair of floors)",
                    )
                )
        for task, entry in data["tasks"].items():
            if task not in base["tasks"]:
                if data.get("reference_id") == FIXED_REFERENCE_ID:
                    detail = f"task '{task}' is absent from {base_report.path} (every Lite task "
                    findings.append(
                        Finding.about("task_differs", report.path, detail + "is a Full task)", task)
                    )
                continue
            findings.extend(
                _task_differences(task, entry, base["tasks"][task], report.path, base_report.path)
            )
            if _unscored_of(data, task) != _unscored_of(base, task):
                detail = (
                    f"task '{task}': its unscored_reference_instances differ from those in "
                    f"{base_report.path}"
                )
                findings.append(Finding.about("task_differs", report.path, detail, task))
    return findings


def _task_differences(
    task: str, entry: Any, other: Any, path: str, other_path: str
) -> list[Finding]:
    if not isinstance(entry, dict) or not isinstance(other, dict):
        return []
    findings = []
    for key in ("kind", "direction"):
        if entry.get(key) != other.get(key):
            detail = (
                f"task '{task}': {key} is {_js(entry.get(key))} but {_js(other.get(key))} in "
                f"{other_path}"
            )
            findings.append(Finding.about("task_differs", path, detail, task))
    mine = entry.get("instances") if isinstance(entry.get("instances"), dict) else {}
    theirs = other.get("instances") if isinstance(other.get("instances"), dict) else {}
    absent = "(absent)"
    for instance in sorted(set(mine) | set(theirs)):
        if mine.get(instance) != theirs.get(instance):
            detail = (
                f"task '{task}' instance '{instance}': values "
                f"{_js(mine.get(instance, absent))} but {_js(theirs.get(instance, absent))} "
                f"in {other_path}"
            )
            findings.append(Finding.about("task_differs", path, detail, task, instance))
    return findings


def check_reference(
    target: str | os.PathLike[str],
    *,
    references_dir: str | os.PathLike[str] | None = None,
    suite: str | os.PathLike[str] | None = None,
) -> ReferenceCheck:
    """Check a reference file, a folder of suite files, or every suite file of an id
    (``target``), each compared with its suite's task list (:mod:`.suite_check`; ``suite``
    names one); the same verdict by id or by path. Returns a :class:`ReferenceCheck`.

    The fixed reference's values are not shipped with the kit, so on a fresh clone:

    >>> result = check_reference("paper-k3-fixed-260925", references_dir="/nonexistent")
    >>> result.ok, [f.code for f in result.findings]
    (False, ['not_found'])
    """
    refs_dir = resolve_references_dir(references_dir)
    text = os.fspath(target)
    result = ReferenceCheck(target=text, references_dir=str(refs_dir))
    loaded: dict[str, tuple[FileReport, Any]] = {}
    if looks_like_path(target):
        path = Path(text)
        if path.is_dir():
            folder, expected_id, paths = path, path.name, sorted(path.glob("*.json"))
        elif path.is_file():
            folder, expected_id, paths = path.parent, None, [path]
        else:
            result.findings.append(Finding.about("not_found", text, "no such file or folder"))
            return result
    else:
        folder, expected_id = refs_dir / text, text
        paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
    for path in paths:
        report, data = _read_file(path, expected_id)
        result.files.append(report)
        name = report.suite if isinstance(report.suite, str) else path.stem
        loaded.setdefault(name, (report, data))
    declared_id = next(
        (r.reference_id for r in result.files if isinstance(r.reference_id, str)), expected_id
    )
    if expected_id is None and declared_id == FIXED_REFERENCE_ID:
        # a single fixed-id file: compare it with its sibling suite file when that is present
        for name in FIXED_SUITES:
            sibling = folder / f"{name}.json"
            if name not in loaded and sibling.is_file():
                loaded[name] = _read_file(sibling, None)
    if declared_id == FIXED_REFERENCE_ID:
        _check_fixed_presence(result, loaded, folder, expected_id is not None)
    elif not paths:
        result.findings.append(
            Finding.about(
                "not_found",
                str(folder / "<suite>.json"),
                f"no suite file of reference '{text}' under {folder}",
            )
        )
    if len(loaded) >= 2:
        result.findings.extend(compare_suite_files(loaded))
    if paths:
        explicit, problem = named_suite_file(suite, refs_dir)
        result.findings.extend(problem)
        places = suite_places(folder, refs_dir, by_id=not looks_like_path(target))
        result.findings.extend(compare_suite_lists(loaded, places, explicit, result.notes))
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
            Finding.about(
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
