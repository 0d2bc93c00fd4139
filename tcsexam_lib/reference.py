"""Loading and validating solver reference files.

A reference is versioned by id and has one JSON file per suite,
``references/<reference_id>/<suite>.json``. Loading validates it in two layers:
the published schema (every value against its vocabulary and range), then the
relations between values (an instance with fewer than two usable values must be
listed as unscored, a listed instance must not be scorable, the fixed reference's
floors are 0.02 and 1e-9, ...).

The values of the fixed reference ``paper-k3-fixed-260925`` are not shipped with
the kit: when its file is absent, the error says where the release file goes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import InputRefused, Problem, ReferenceProblem
from .jsonio import parse_json_text, sha256_file, validate_with_schema
from .paths import resolve_references_dir
from .scoring.formulas import (  # noqa: F401 - re-exported
    SCALE_TERMS,
    InstanceStats,
    compute_instance_stats,
    scale_terms,
)
from .vocab import (
    FIXED_REFERENCE_ID,
    FIXED_SCALE_FLOOR_ABSOLUTE,
    FIXED_SCALE_FLOOR_RELATIVE,
)


@dataclass(frozen=True)
class TaskReference:
    """One solver task of a reference: its kind, direction and instances."""

    name: str
    kind: str
    direction: str
    scored: dict[str, InstanceStats]
    unscored: dict[str, str]  # instance -> reason
    raw: dict[str, Any] = field(repr=False, compare=False)


@dataclass(frozen=True)
class Reference:
    """A loaded, validated reference file for one suite."""

    reference_id: str
    suite: str
    scale_floor_relative: float
    scale_floor_absolute: float
    tasks: dict[str, TaskReference]
    path: Path | None
    sha256: str | None
    simulated: bool = False
    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def n_scored(self) -> int:
        """Number of scored instances over all tasks."""
        return sum(len(task.scored) for task in self.tasks.values())

    @property
    def n_unscored(self) -> int:
        """Number of instances listed in ``unscored_reference_instances``."""
        return sum(len(task.unscored) for task in self.tasks.values())


def _reference_path(
    source: str | os.PathLike[str], reference_id: str | None, references_dir: Path
) -> tuple[Path, str | None]:
    """Resolve ``source`` (a suite name or a path) to a file path and its expected suite."""
    text = os.fspath(source)
    looks_like_path = (
        isinstance(source, os.PathLike)
        or os.sep in text
        or "/" in text
        or text.endswith(".json")
        or Path(text).is_file()
    )
    if looks_like_path:
        return Path(text), None
    return references_dir / (reference_id or FIXED_REFERENCE_ID) / f"{text}.json", text


def _missing_reference_error(path: Path, reference_id: str, suite: str | None) -> ReferenceProblem:
    if reference_id == FIXED_REFERENCE_ID:
        detail = (
            f"the fixed reference '{FIXED_REFERENCE_ID}' is not bundled with the kit (its values "
            f"come with the TCSExam release). Put the release's {suite or '<suite>'}.json "
            f"at {path} "
            f"(see references/{FIXED_REFERENCE_ID}/README.md), point --references-dir or "
            "TCSEXAM_REFERENCES at a folder that holds it, or pass a custom reference file with "
            "--reference PATH"
        )
    else:
        detail = (
            f"no file for reference '{reference_id}' and suite '{suite}'; expected {path}. Pass "
            "--reference PATH, or --references-dir DIR for another references folder"
        )
    return ReferenceProblem("Reference file not found", [Problem(str(path), detail=detail)])


def load_reference(
    source: str | os.PathLike[str],
    *,
    reference_id: str | None = None,
    references_dir: str | os.PathLike[str] | None = None,
) -> Reference:
    """Load and validate a reference file.

    Parameters
    ----------
    source : str or path
        A suite name (``"lite"``, ``"full"``, ``"demo-lite"``...), resolved to
        ``<references_dir>/<reference_id>/<suite>.json``, or the path of a file.
    reference_id : str, optional
        The id the file must declare. For a suite name it defaults to the fixed
        reference ``paper-k3-fixed-260925``.
    references_dir : path, optional
        Folder of references (default: ``$TCSEXAM_REFERENCES`` or the kit's own).

    Raises
    ------
    ReferenceProblem
        The file is absent (the message says where it goes), malformed, or its values
        are inconsistent.

    Examples
    --------
    >>> ref = load_reference("demo-lite", reference_id="demo-k3-sim-v1")
    >>> ref.reference_id, ref.simulated
    ('demo-k3-sim-v1', True)
    """
    refs_dir = resolve_references_dir(references_dir)
    path, suite = _reference_path(source, reference_id, refs_dir)
    if not path.is_file():
        raise _missing_reference_error(path, reference_id or FIXED_REFERENCE_ID, suite)
    try:
        text = path.read_text(encoding="utf-8")
        data = parse_json_text(text, str(path), lambda _data: _describe_reference_path)
        validate_with_schema(data, "reference", str(path), _describe_reference_path)
    except ReferenceProblem:
        raise
    except (InputRefused, OSError, UnicodeDecodeError) as exc:
        problems = getattr(exc, "problems", None) or [Problem(str(path), detail=str(exc))]
        raise ReferenceProblem(f"Reference file {path} is not valid", problems) from exc
    reference = build_reference(data, source=str(path), path=path, sha256=sha256_file(path))
    expected = []
    if reference_id is not None and reference.reference_id != reference_id:
        expected.append(
            Problem(
                str(path),
                field="reference_id",
                value=reference.reference_id,
                allowed=f"'{reference_id}' (the id that was asked for)",
            )
        )
    if suite is not None and reference.suite != suite:
        expected.append(
            Problem(
                str(path),
                field="suite",
                value=reference.suite,
                allowed=f"'{suite}' (the file name)",
            )
        )
    if expected:
        raise ReferenceProblem(f"Reference file {path} is not the one asked for", expected)
    return reference


def _describe_reference_path(path: list[Any]) -> str:
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


def build_reference(
    data: dict[str, Any],
    *,
    source: str = "reference",
    path: Path | None = None,
    sha256: str | None = None,
) -> Reference:
    """Check the relations inside schema-valid reference data and compute instance stats.

    Raises :class:`ReferenceProblem` listing every inconsistency.
    """
    problems: list[Problem] = []
    rel_floor = float(data["scale_floor_relative"])
    abs_floor = float(data["scale_floor_absolute"])
    if data["reference_id"] == FIXED_REFERENCE_ID:
        for name, got, want in (
            ("scale_floor_relative", rel_floor, FIXED_SCALE_FLOOR_RELATIVE),
            ("scale_floor_absolute", abs_floor, FIXED_SCALE_FLOOR_ABSOLUTE),
        ):
            if got != want:
                problems.append(
                    Problem(
                        source,
                        field=name,
                        value=got,
                        allowed=f"{want} (the fixed reference's floor)",
                    )
                )

    listed: dict[tuple[str, str], str] = {}
    for position, entry in enumerate(data["unscored_reference_instances"]):
        key = (entry["task"], entry["instance"])
        where = f"{source} unscored_reference_instances[{position}]"
        if entry["task"] not in data["tasks"]:
            problems.append(
                Problem(
                    where,
                    field="task",
                    value=entry["task"],
                    allowed="a task of this file: " + ", ".join(data["tasks"]),
                )
            )
        elif key in listed:
            problems.append(
                Problem(
                    where,
                    field="instance",
                    value=entry["instance"],
                    detail=f"listed twice for task '{entry['task']}'",
                )
            )
        listed[key] = entry["reason"]

    tasks: dict[str, TaskReference] = {}
    for task_name, task in data["tasks"].items():
        scored: dict[str, InstanceStats] = {}
        unscored: dict[str, str] = {}
        for instance, values in task["instances"].items():
            where = f"{source} task '{task_name}' instance '{instance}'"
            if task["kind"] == "solve":
                bad = [v for v in values if v is not None and v not in (0, 1)]
                if bad or any(isinstance(v, bool) for v in values):
                    problems.append(
                        Problem(
                            where,
                            field="values",
                            value=values,
                            allowed="1 (solved), 0 (not solved) or null",
                        )
                    )
                    continue
            elif any(isinstance(v, bool) for v in values):
                problems.append(
                    Problem(
                        where,
                        field="values",
                        value=values,
                        allowed="finite numbers or null (not booleans)",
                    )
                )
                continue
            stats = compute_instance_stats(values, rel_floor, abs_floor)
            reason = listed.get((task_name, instance))
            if stats is None and reason is None:
                problems.append(
                    Problem(
                        where,
                        field="values",
                        value=values,
                        detail="fewer than two usable values but not listed in "
                        "unscored_reference_instances",
                    )
                )
            elif stats is not None and reason is not None:
                problems.append(
                    Problem(
                        where,
                        field="values",
                        value=values,
                        detail=f"listed as unscored ({reason!r}) but has "
                        f"{stats.n_usable} usable values",
                    )
                )
            elif stats is None:
                unscored[instance] = reason
            else:
                scored[instance] = stats
        for (listed_task, instance), reason in listed.items():
            if listed_task == task_name and instance not in task["instances"]:
                unscored[instance] = reason
        tasks[task_name] = TaskReference(
            task_name, task["kind"], task["direction"], scored, unscored, raw=task
        )
        if not scored and not problems:
            problems.append(
                Problem(
                    f"{source} task '{task_name}'",
                    detail="has no scored instance (needs at least one instance "
                    "with two usable values)",
                )
            )
    if problems:
        raise ReferenceProblem(f"Reference {source} is inconsistent", problems)
    return Reference(
        reference_id=data["reference_id"],
        suite=data["suite"],
        scale_floor_relative=rel_floor,
        scale_floor_absolute=abs_floor,
        tasks=tasks,
        path=path,
        sha256=sha256,
        simulated=bool(data.get("simulated", False)),
        raw=data,
    )


def list_reference_ids(references_dir: str | os.PathLike[str] | None = None) -> list[str]:
    """Reference ids that have at least one suite file under the references folder."""
    refs_dir = resolve_references_dir(references_dir)
    if not refs_dir.is_dir():
        return []
    return sorted(
        p.name
        for p in refs_dir.iterdir()
        if p.is_dir() and p.name not in {"schemas", "suites"} and any(p.glob("*.json"))
    )
