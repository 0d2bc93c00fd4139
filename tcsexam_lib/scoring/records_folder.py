"""A solver records folder (``<model>/<task>/<attempt>.json``): its files found, and every
file that would not be used refused."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputRefused, Problem, did_you_mean


@dataclass(frozen=True)
class RecordsFile:
    """One solver attempt's records file: whose, which task, which attempt."""

    model: str
    task: str
    attempt: str
    path: Path


def find_records(
    records_dir: str | os.PathLike[str],
    *,
    model: str | None = None,
    tasks: list[str] | tuple[str, ...] | str | None = None,
) -> list[RecordsFile]:
    """Every ``<model>/<task>/<attempt>.json`` under ``records_dir``, sorted, restricted to
    ``model`` and ``tasks`` (list or comma-separated); a given task without a folder is refused.

    >>> import pathlib, tempfile
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> (root / "m" / "sim-tsp").mkdir(parents=True)
    >>> _ = (root / "m" / "sim-tsp" / "1.json").write_text("[]")
    >>> [(r.model, r.task, r.attempt) for r in find_records(root)]
    [('m', 'sim-tsp', '1')]
    """
    if isinstance(tasks, str):  # papermill -p tasks sim-sat,sim-tsp gives one string
        tasks = [task.strip() for task in tasks.split(",") if task.strip()]
    folder = Path(records_dir)
    if not folder.is_dir():
        parent = folder.parent
        near = [p.name for p in parent.iterdir() if p.is_dir()] if parent.is_dir() else []
        close = did_you_mean(folder.name, near)
        raise InputRefused(
            "Records folder not found",
            [
                Problem(
                    str(folder),
                    detail="no such folder" + (f": {close}" if close else ""),
                    allowed="a folder laid out as <model>/<task>/<attempt>.json",
                )
            ],
        )
    found = [
        RecordsFile(path.parent.parent.name, path.parent.name, path.stem, path)
        for path in sorted(folder.glob("*/*/*.json"))
        if (model is None or path.parent.parent.name == model)
        and (not tasks or path.parent.name in tasks)
    ]
    if tasks:
        seen = {r.task for r in found}
        missing = [t for t in tasks if t not in seen]
        if missing:
            raise InputRefused(
                "No records for a requested task",
                [
                    Problem(
                        str(folder / (model or "<model>")),
                        field="tasks",
                        value=task,
                        detail="no <task>/<attempt>.json records file",
                        allowed=", ".join(sorted({r.task for r in find_records(folder)}))
                        or "none found",
                    )
                    for task in missing
                ],
            )
    return found


def solver_output_path(solver_dir: str | os.PathLike[str], task: str, attempt: str) -> Path:
    """Where the runner writes the solver-score output of one attempt: ``<task>-<attempt>.json``.

    >>> solver_output_path("out", "sim-tsp", "2").as_posix()
    'out/sim-tsp-2.json'
    """
    return Path(solver_dir) / f"{task}-{attempt}.json"


def _stray_records_files(folder: Path) -> list[Problem]:
    """Files that are not ``<model>/<task>/<attempt>.json`` (refused, not silently left out;
    hidden files such as ``.DS_Store`` skipped)."""
    problems = []
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if any(part.startswith(".") for part in relative.parts) or path.is_dir():
            continue
        if len(relative.parts) != 3 or path.suffix != ".json":
            problems.append(
                Problem(
                    str(path),
                    field="records",
                    value=relative.as_posix(),
                    detail="not a records file laid out as <model>/<task>/<attempt>.json",
                    allowed="<model>/<task>/<attempt>.json files only (move or remove this one)",
                )
            )
    return problems


def check_records_folder(
    folder: Path,
    records: list[RecordsFile],
    *,
    models: tuple[str, ...],
    solver_tasks: set[str],
    suite: str,
    source: str,
) -> None:
    """Refuse every records file the runner would not use (wrong layout, a model outside the
    cohort, not a solver task of the suite) or whose ``<task>-<attempt>.json`` would clash;
    ``source`` names the parameter file."""
    problems = _stray_records_files(folder)
    allowed = {
        "model": f"a model of the cohort ({', '.join(models)})",
        "task": f"a solver task of suite '{suite}' ({', '.join(sorted(solver_tasks))})",
    }
    for item in records:
        wrong = (
            "model"
            if item.model not in models
            else "task"
            if item.task not in solver_tasks
            else None
        )
        if wrong is not None:
            value = getattr(item, wrong)
            problems.append(
                Problem(str(item.path), field=wrong, value=value, allowed=allowed[wrong])
            )
    first: dict[tuple[str, str], RecordsFile] = {}
    for item in records:  # <task>-<attempt>.json must name one records file per model
        key = (item.model, solver_output_path("", item.task, item.attempt).name)
        if key in first:
            problems.append(
                Problem(
                    str(item.path),
                    field="attempt",
                    value=item.attempt,
                    detail=f"its solver-score output {key[1]} would overwrite that of "
                    f"{first[key].path}",
                    allowed="attempt ids that keep <task>-<attempt> distinct "
                    "(e.g. no '-' in attempt ids when a task id extends another with '-')",
                )
            )
        first.setdefault(key, item)
    if problems:
        raise InputRefused.from_problems(f"Records folder {folder} ({source}) refused", problems)
