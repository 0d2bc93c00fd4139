"""Building a custom reference from K distinct runs of a reference solver (``tcsexam
reference build``): values by :func:`run_value`, kind, direction and floors from
``TASKS.json`` (docs/references.md). Never overwrites a file."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import InputRefused, OutputRefused, Problem, ReferenceProblem, quoted_names
from ..formulas import compute_instance_stats
from ..jsonio import dumps_json, read_json_with_digest
from ..provenance import created_utc, kit_version
from ..schemas import validate_with_schema
from ..vocab import COMPLETED_FAILURE_STATUSES, FIXED_REFERENCE_ID, STATUS_OK
from .check import check_reference_data, compare_suite_files, repeated_runs
from .load import reference_from_data
from .model import TaskReference
from .record_rules import RECORD_RULES
from .records import TaskRecords, candidate_value
from .suite_check import compare_suite_lists

#: What ``--runs`` must be: no folder twice, no two runs with the same record files.
DISTINCT = "K distinct runs of the reference solver (each folder once, no copy of another)"

#: Reason written for an instance with fewer than two usable values.
UNSCORED_REASON = "fewer than two usable reference values"


def run_value(record: dict[str, Any], kind: str) -> float | int | None:
    """The value a reference run gives an instance (its record passed ``RECORD_RULES``):
    objective ``A`` if ``ok`` else ``null``; solve 1 if ``ok`` and solved, else 0; an
    infrastructure status ``null`` for both (the run did not observe the instance)."""
    status = record["status"]
    if status == STATUS_OK:
        value, problem = candidate_value(record, kind, "")
        if problem is not None:
            return None  # told by the rules
        if kind == "solve":
            return int(value)
        a = record["A"]
        return a if isinstance(a, int) else float(a)
    if status in COMPLETED_FAILURE_STATUSES:
        return 0 if kind == "solve" else None
    return None  # an infrastructure status: the run did not observe the instance


def _read_run_file(
    run: Path, task_name: str, task: TaskReference, problems: list[Problem]
) -> tuple[dict[str, Any], str] | None:
    """The value of each instance in one run's records of a task, and the file's sha256."""
    path = run / f"{task_name}.json"
    if not path.is_file():
        problems.append(
            Problem(
                str(path),
                detail=f"no record file for task '{task_name}' in run folder {run}",
                allowed="one <task>.json per declared task in every run folder",
            )
        )
        return None
    try:
        records, digest = read_json_with_digest(path)
        validate_with_schema(records, "records", str(path))
    except InputRefused as exc:
        problems.extend(exc.problems or [Problem(str(path), detail=exc.summary)])
        return None
    problems.extend(RECORD_RULES.refusal(TaskRecords(records, task, str(path), scoring=False)))
    values: dict[str, Any] = {}
    for record in records:
        values.setdefault(record["instance"], run_value(record, task.kind))
    return values, digest


def build_reference_from_runs(
    *,
    reference_id: str,
    suite: str,
    tasks: str | os.PathLike[str],
    runs: list[str | os.PathLike[str]],
    description: str | None = None,
) -> dict[str, Any]:
    """Compose a reference file's content (schema-valid, loadable, with a ``provenance``
    block of every input's sha256) from K reference-solver runs.

    ``runs``: one folder per run, a ``<task>.json`` per declared task, in value order.
    Refused: the fixed id, fewer than two runs, an invalid ``TASKS.json``, a missing run
    file, runs disagreeing on instances, an unreadable record, a run given twice or two
    runs with the same sha256 for every record file.

    >>> import json, pathlib, tempfile
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (root / "tasks.json").write_text(json.dumps({"scale_floor_relative": 0.02,
    ...     "scale_floor_absolute": 1e-9,
    ...     "tasks": {"t": {"kind": "objective", "direction": "maximize"}}}))
    >>> for k, a in enumerate([10, 12, 14]):
    ...     (root / f"run{k}").mkdir()
    ...     _ = (root / f"run{k}" / "t.json").write_text(json.dumps([
    ...         {"instance": "g1", "status": "ok", "A": a},
    ...         {"instance": "g2", "status": "ok" if k == 0 else "timeout", "A": 5}]))
    >>> data = build_reference_from_runs(reference_id="my-ref", suite="lite",
    ...     tasks=root / "tasks.json", runs=[root / f"run{k}" for k in range(3)])
    >>> data["tasks"]["t"]["instances"]
    {'g1': [10, 12, 14], 'g2': [5, None, None]}
    >>> data["unscored_reference_instances"][0]["instance"]
    'g2'
    """
    _refuse_id_and_run_count(reference_id, runs)
    tasks_path = Path(tasks)
    declared, tasks_digest = read_json_with_digest(tasks_path)
    validate_with_schema(declared, "reference-tasks", str(tasks_path))
    run_paths = [Path(r) for r in runs]
    problems = _undeclared_run_files(run_paths, declared["tasks"], tasks_path)
    if problems:
        raise InputRefused.from_problems("Reference runs refused", problems)
    out_tasks, unscored, run_files = _compose_tasks(declared, run_paths, problems)
    for text in [] if problems else repeated_runs(run_files):
        named = [str(r) for r in runs]
        problems.append(Problem("--runs", field="runs", value=named, detail=text, allowed=DISTINCT))
    if problems:
        raise InputRefused.from_problems("Reference runs refused", problems)
    data: dict[str, Any] = {"reference_id": reference_id, "suite": suite}
    text = description if description is not None else declared.get("description")
    if text is not None:
        data["description"] = text
    if declared.get("simulated"):
        data["simulated"] = True
    data.update(
        scale_floor_relative=declared["scale_floor_relative"],
        scale_floor_absolute=declared["scale_floor_absolute"],
        tasks=out_tasks,
        unscored_reference_instances=unscored,
        provenance=_provenance(tasks_path, tasks_digest, run_files),
    )
    report = check_reference_data(data, f"{reference_id}/{suite}.json", expected_id=reference_id)
    if report.findings:  # pragma: no cover - the composition above should make this impossible
        raise ReferenceProblem(
            "The composed reference does not pass its own check",
            [f.problem for f in report.findings],
        )
    return data


def _compose_tasks(
    declared: dict[str, Any], run_paths: list[Path], problems: list[Problem]
) -> tuple[dict[str, Any], list[dict[str, str]], list[dict[str, Any]]]:
    """Each task's instances (one value per run), its unscored instances, and each run's
    files with their sha256; problems are added to ``problems``."""
    rel_floor = declared["scale_floor_relative"]
    abs_floor = declared["scale_floor_absolute"]
    out_tasks: dict[str, Any] = {}
    unscored: list[dict[str, str]] = []
    run_files: list[dict[str, Any]] = [
        {"run": k + 1, "path": str(run), "files": {}} for k, run in enumerate(run_paths)
    ]
    for task_name, spec in declared["tasks"].items():
        task = TaskReference(task_name, spec["kind"], spec["direction"], {}, {}, raw=spec)
        read = [_read_run_file(run, task_name, task, problems) for run in run_paths]
        if any(found is None for found in read):
            continue
        for k, (_, digest) in enumerate(read):
            run_files[k]["files"][task_name] = digest
        per_run = [values for values, _ in read]
        instances = list(dict.fromkeys(name for values in per_run for name in values))
        problems.extend(_absent_instances(run_paths, task_name, per_run, instances))
        entry = {key: spec[key] for key in ("kind", "direction", "description") if key in spec}
        entry["instances"] = {name: [values.get(name) for values in per_run] for name in instances}
        unscored.extend(_unscored(task_name, entry["instances"], rel_floor, abs_floor))
        out_tasks[task_name] = entry
    return out_tasks, unscored, run_files


def _refuse_id_and_run_count(reference_id: str, runs: list[Any]) -> None:
    """Refuse the fixed reference's id, and fewer than two runs."""
    if reference_id == FIXED_REFERENCE_ID:
        raise InputRefused(
            "Refusing to build the fixed reference",
            [
                Problem(
                    "--id",
                    field="reference_id",
                    value=reference_id,
                    allowed="a new id of your own: the values of the fixed reference come only "
                    "from the TCSExam release",
                )
            ],
        )
    if len(runs) < 2:
        raise InputRefused(
            "Too few reference runs",
            [
                Problem(
                    "--runs",
                    value=[str(r) for r in runs],
                    detail=f"{len(runs)} run folder(s) given",
                    allowed="two or more run folders (an instance needs two usable values)",
                )
            ],
        )


def _undeclared_run_files(
    run_paths: list[Path], declared: dict[str, Any], tasks_path: Path
) -> list[Problem]:
    """A run folder that is missing, and each record file of a task not declared."""
    problems = []
    for run in run_paths:
        if not run.is_dir():
            problems.append(Problem(str(run), detail="run folder not found"))
            continue
        for extra in sorted(run.glob("*.json")):
            if extra.stem not in declared:
                problems.append(
                    Problem(
                        str(extra),
                        detail=f"record file of task '{extra.stem}', which TASKS.json "
                        f"({tasks_path}) does not declare",
                        allowed="declare the task in TASKS.json or move the file out",
                    )
                )
    return problems


def _absent_instances(
    run_paths: list[Path], task_name: str, per_run: list[dict[str, Any]], instances: list[str]
) -> list[Problem]:
    """Each run's records of a task that lack instances other runs hold."""
    problems = []
    for run, values in zip(run_paths, per_run, strict=True):
        absent = [name for name in instances if name not in values]
        if absent:
            problems.append(
                Problem(
                    str(run / f"{task_name}.json"),
                    field="instance",
                    detail=f"no record for {len(absent)} instance(s) that other runs hold: "
                    + quoted_names(absent, 20),
                    allowed="a record for every instance in every run (status not_run "
                    "for a run that did not observe it)",
                )
            )
    return problems


def _unscored(
    task_name: str, instances: dict[str, list[Any]], rel_floor: float, abs_floor: float
) -> list[dict[str, str]]:
    """The instances of a task with fewer than two usable values, with the reason."""
    return [
        {
            "task": task_name,
            "instance": name,
            "reason": f"{UNSCORED_REASON} ({sum(v is not None for v in values)} of "
            f"{len(values)} runs usable)",
        }
        for name, values in instances.items()
        if compute_instance_stats(values, rel_floor, abs_floor) is None
    ]


def _provenance(
    tasks_path: Path, tasks_digest: str, run_files: list[dict[str, Any]]
) -> dict[str, Any]:
    """The built reference's provenance: the kit, the value rule and every input's sha256."""
    return {
        "producer": "tcsexam reference build",
        "kit": "tcsexam-kit",
        "kit_version": kit_version(),
        "created_utc": created_utc(),
        "value_rule": "objective: A when status ok, else null; solve: 1 solved / 0 not "
        "solved or completed failure; infrastructure statuses: null. One value per run, "
        "in run order.",
        "tasks_file": {"path": str(tasks_path), "sha256": tasks_digest},
        "runs": run_files,
    }


def _write_new_file(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically, refusing if ``path`` exists (even in a race)."""
    tmp = path.parent / f".{path.name}.{os.getpid()}.tmp"
    try:
        tmp.write_text(text, encoding="utf-8")
        os.link(tmp, path)  # fails if path exists: never overwrites
    except FileExistsError as exc:
        raise _exists_refusal(path) from exc
    except OSError as exc:
        raise OutputRefused(f"Cannot write {path}: {exc}") from exc
    finally:
        tmp.unlink(missing_ok=True)


def _exists_refusal(path: Path) -> InputRefused:
    return InputRefused(
        "Reference file exists",
        [
            Problem(
                str(path),
                detail="a reference file is never overwritten (a changed reference is a new id)",
                allowed="another --id",
            )
        ],
    )


def write_new_reference(data: dict[str, Any], output_dir: str | os.PathLike[str]) -> Path:
    """Write reference data to ``<output_dir>/<id>/<suite>.json``, never over a file (nothing
    on a refusal); return the path. Another suite file of the id must agree (floors, shared
    tasks), a task list under ``<output_dir>/suites/`` must name exactly its solver tasks."""
    reference_id, suite = data["reference_id"], data["suite"]
    if reference_id == FIXED_REFERENCE_ID:
        raise InputRefused(
            "Refusing to write the fixed reference",
            [Problem(str(output_dir), field="reference_id", value=reference_id)],
        )
    folder = Path(output_dir) / reference_id
    path = folder / f"{suite}.json"
    if path.exists():
        raise _exists_refusal(path)
    reference_from_data(data, source=str(path))
    own = {suite: (check_reference_data(data, str(path)), data)}
    suite_findings = compare_suite_lists(own, [Path(output_dir) / "suites"], None, [])
    if suite_findings:
        raise InputRefused.from_problems(
            f"The reference does not hold the solver tasks of suite '{suite}'",
            [replace(f.problem, detail=f"[{f.code}] {f.problem.detail}") for f in suite_findings],
        )
    siblings: dict[str, tuple[Any, Any]] = {}
    for sibling in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            sibling_data = read_json_with_digest(sibling)[0]
        except InputRefused:
            continue  # its own check reports it
        siblings[sibling.stem] = (check_reference_data(sibling_data, str(sibling)), sibling_data)
    if siblings:
        siblings[suite] = (check_reference_data(data, str(path)), data)
        conflicts = compare_suite_files(siblings)
        if conflicts:
            raise InputRefused.from_problems(
                f"The new suite file disagrees with the other suite files of '{reference_id}'",
                [replace(f.problem, detail=f"[{f.code}] {f.problem.detail}") for f in conflicts],
            )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputRefused("Cannot create the output folder", [Problem(str(folder))]) from exc
    _write_new_file(path, dumps_json(data))
    return path


def run_reference_build(
    *,
    reference_id: str,
    suite: str,
    tasks: str | os.PathLike[str],
    runs: list[str | os.PathLike[str]],
    output_dir: str | os.PathLike[str],
    description: str | None = None,
) -> tuple[Path, dict[str, Any]]:
    """What ``tcsexam reference build`` does: compose, check, write. Returns (path, data)."""
    data = build_reference_from_runs(
        reference_id=reference_id, suite=suite, tasks=tasks, runs=runs, description=description
    )
    data["provenance"]["parameters"] = {
        "id": reference_id,
        "suite": suite,
        "tasks": str(tasks),
        "runs": [str(r) for r in runs],
        "output_dir": str(output_dir),
    }
    return write_new_reference(data, output_dir), data
