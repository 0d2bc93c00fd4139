"""Suites and cohorts: what is planned before anything is aggregated.

A suite (``references/suites/<suite>.json``) lists the task ids of each track. A
cohort (``cohort.json``) declares the suite, the solver protocol, the fixed
reference and how many attempts of each task are adopted for each model.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import InputRefused, Problem
from .jsonio import read_json, sha256_file, validate_with_schema
from .paths import resolve_references_dir
from .reference import Reference, list_reference_ids, load_reference
from .vocab import FIXED_REFERENCE_ID, TRACKS


@dataclass(frozen=True)
class Suite:
    """The task ids of each track of one suite."""

    name: str
    tracks: dict[str, tuple[str, ...]]
    path: Path | None = None
    sha256: str | None = None
    simulated: bool = False

    def track_of(self, item: str) -> str | None:
        """The track that holds ``item``, or ``None``."""
        for track, items in self.tracks.items():
            if item in items:
                return track
        return None

    @property
    def tasks(self) -> list[tuple[str, str]]:
        """Every ``(track, task)`` pair, in track order then file order."""
        return [(track, item) for track in TRACKS for item in self.tracks[track]]


def available_suites(references_dir: str | os.PathLike[str] | None = None) -> list[str]:
    """Suite names that have a file under ``<references_dir>/suites/``."""
    folder = resolve_references_dir(references_dir) / "suites"
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []


def load_suite(name: str, *, references_dir: str | os.PathLike[str] | None = None) -> Suite:
    """Load ``<references_dir>/suites/<name>.json`` and check it.

    Examples
    --------
    >>> suite = load_suite("demo-lite")
    >>> {track: len(items) for track, items in suite.tracks.items()}
    {'theorem': 5, 'solver': 5, 'construction': 5, 'conjecture': 5}
    """
    path = resolve_references_dir(references_dir) / "suites" / f"{name}.json"
    if not path.is_file():
        known = available_suites(references_dir)
        raise InputRefused(
            "Suite not found",
            [
                Problem(
                    str(path),
                    field="suite",
                    value=name,
                    allowed=(", ".join(known) if known else "none present")
                    + "; the task lists of 'lite' and 'full' come with the TCSExam release",
                )
            ],
        )
    data = read_json(path)
    validate_with_schema(data, "suite", str(path))
    problems = []
    if data["suite"] != name:
        problems.append(
            Problem(
                str(path), field="suite", value=data["suite"], allowed=f"'{name}' (the file name)"
            )
        )
    owner: dict[str, str] = {}
    for track in TRACKS:
        for item in data["tracks"][track]:
            if item in owner:
                problems.append(
                    Problem(
                        str(path),
                        field=f"tracks.{track}",
                        value=item,
                        detail=f"task also listed under '{owner[item]}'",
                    )
                )
            owner[item] = track
    if problems:
        raise InputRefused(f"Suite file {path} is inconsistent", problems)
    return Suite(
        name,
        {t: tuple(data["tracks"][t]) for t in TRACKS},
        path,
        sha256_file(path),
        bool(data.get("simulated", False)),
    )


@dataclass(frozen=True)
class ModelPlan:
    """Planned attempts per task for one model."""

    attempts_per_task: int | dict[str, int]
    adoption_rule: str | None = None

    def planned(self, task: str) -> int:
        """Planned number of adopted attempts of ``task``."""
        if isinstance(self.attempts_per_task, int):
            return self.attempts_per_task
        if task in self.attempts_per_task:
            return self.attempts_per_task[task]
        return self.attempts_per_task["default"]


@dataclass(frozen=True)
class Cohort:
    """A validated cohort declaration."""

    suite: str
    solver_protocol: str
    solver_reference_id: str
    models: dict[str, ModelPlan]
    adoption_rule: str | None = None
    path: Path | None = None
    sha256: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


def load_cohort(path: str | os.PathLike[str], *, suite: Suite) -> Cohort:
    """Load ``cohort.json`` and check it against the suite being scored.

    The declared suite must be ``suite``; every task named in an
    ``attempts_per_task`` object must be a task of the suite, and every task of the
    suite must get a planned count (directly or through ``"default"``).
    """
    path = Path(path)
    data = read_json(path)
    validate_with_schema(data, "cohort", str(path))
    problems = []
    if data["suite"] != suite.name:
        problems.append(
            Problem(
                str(path),
                field="suite",
                value=data["suite"],
                allowed=f"'{suite.name}' (the suite given with --suite)",
            )
        )
    all_tasks = {item for _, item in suite.tasks}
    models = {}
    for model, entry in data["models"].items():
        plan = entry["attempts_per_task"]
        where = f"{path} model '{model}'"
        if isinstance(plan, dict):
            for task in plan:
                if task != "default" and task not in all_tasks:
                    problems.append(
                        Problem(
                            where,
                            field="attempts_per_task",
                            value=task,
                            allowed=f"a task of suite '{suite.name}' or 'default'",
                        )
                    )
            if "default" not in plan:
                unplanned = sorted(all_tasks - set(plan))
                if unplanned:
                    problems.append(
                        Problem(
                            where,
                            field="attempts_per_task",
                            value=plan,
                            detail="no planned count for "
                            + ", ".join(f"'{t}'" for t in unplanned[:10])
                            + (f" and {len(unplanned) - 10} more" if len(unplanned) > 10 else ""),
                            allowed="a count for every task of the suite, or a 'default'",
                        )
                    )
        models[model] = ModelPlan(plan, entry.get("adoption_rule"))
    if problems:
        raise InputRefused(f"Cohort {path} is inconsistent", problems)
    return Cohort(
        data["suite"],
        data["solver_protocol"],
        data["solver_reference_id"],
        models,
        data.get("adoption_rule"),
        path,
        sha256_file(path),
        data,
    )


def load_cohort_reference(
    cohort: Cohort, suite: Suite, *, references_dir: str | os.PathLike[str] | None = None
) -> Reference:
    """Load the cohort's declared reference for the suite and check its solver tasks.

    The suite's solver tasks must be exactly the tasks of the reference file.
    """
    known = list_reference_ids(references_dir)
    if cohort.solver_reference_id not in known and cohort.solver_reference_id != FIXED_REFERENCE_ID:
        raise InputRefused(
            "Unknown reference id",
            [
                Problem(
                    str(cohort.path),
                    field="solver_reference_id",
                    value=cohort.solver_reference_id,
                    allowed=", ".join(known)
                    if known
                    else "no reference present under the references folder",
                )
            ],
        )
    reference = load_reference(
        suite.name, reference_id=cohort.solver_reference_id, references_dir=references_dir
    )
    in_suite = set(suite.tracks["solver"])
    in_reference = set(reference.tasks)
    if in_suite != in_reference:
        details = []
        if in_suite - in_reference:
            details.append("in the suite only: " + ", ".join(sorted(in_suite - in_reference)))
        if in_reference - in_suite:
            details.append("in the reference only: " + ", ".join(sorted(in_reference - in_suite)))
        raise InputRefused(
            "Suite and reference disagree",
            [
                Problem(
                    f"suite '{suite.name}' vs reference {reference.path}",
                    field="solver tasks",
                    detail="; ".join(details),
                    allowed="exactly the same solver task ids",
                )
            ],
        )
    return reference
