"""Loading a reference by suite name or path, or from parsed content, through :mod:`.rules`;
an absent fixed-reference file is refused saying where the release file goes."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..errors import InputRefused, Problem, ReferenceProblem
from ..jsonio import read_json_with_digest
from ..paths import resolve_references_dir
from ..vocab import FIXED_REFERENCE_ID
from .model import Reference
from .rules import (
    REFERENCE_RULES,
    REFERENCE_SCHEMA_RULES,
    ReferenceInput,
    describe_path,
    placement_findings,
)


def looks_like_path(source: str | os.PathLike[str]) -> bool:
    """True when ``source`` names a file (a path) rather than a suite or reference id."""
    text = os.fspath(source)
    return (
        isinstance(source, os.PathLike)
        or os.sep in text
        or "/" in text
        or text.endswith(".json")
        or Path(text).is_file()
    )


def reference_file(
    source: str | os.PathLike[str], reference_id: str | None, references_dir: Path
) -> tuple[Path, str | None]:
    """Resolve ``source`` (a suite name or a path) to a file path and its expected suite."""
    if looks_like_path(source):
        return Path(source), None
    text = os.fspath(source)
    return references_dir / (reference_id or FIXED_REFERENCE_ID) / f"{text}.json", text


def _missing_reference_error(
    path: Path, reference_id: str | None, suite: str | None
) -> ReferenceProblem:
    folder, others = path.parent.parent, []
    if reference_id is None and suite:  # a suite name: the folder's references for it
        others = [i for i in list_reference_ids(folder) if (folder / i / path.name).is_file()]
    if others:
        detail = (
            f"no --reference-id was given, so the fixed reference '{FIXED_REFERENCE_ID}' was "
            f"looked for; {folder} holds suite '{suite}' of reference(s) {', '.join(others)}: "
            f"add --reference-id {others[0]} (or, for the fixed reference itself: Put the "
            f"release's {suite}.json at {path})"
        )
    elif reference_id in (None, FIXED_REFERENCE_ID):
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

    ``source``: a suite name (under ``<references_dir>/<reference_id>/``) or a path. Raises
    :class:`ReferenceProblem` when the file is absent (saying where it goes), malformed, or
    inconsistent.

    >>> ref = load_reference("demo-lite", reference_id="demo-k3-sim-v1")
    >>> ref.reference_id, ref.simulated
    ('demo-k3-sim-v1', True)
    """
    refs_dir = resolve_references_dir(references_dir)
    path, suite = reference_file(source, reference_id, refs_dir)
    if not path.is_file():
        raise _missing_reference_error(path, reference_id, suite)
    try:
        data, digest = read_json_with_digest(path, lambda _data: describe_path)
    except InputRefused as exc:
        problems = exc.problems or [Problem(str(path), detail=exc.summary)]
        raise ReferenceProblem(f"Reference file {path} is not valid", problems) from exc
    reference = reference_from_data(data, source=str(path), path=path, sha256=digest)
    findings = placement_findings(data, str(path), expected_id=reference_id, expected_suite=suite)
    if findings:
        raise ReferenceProblem(
            f"Reference file {path} is not the one asked for", [f.problem for f in findings]
        )
    return reference


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


def reference_from_data(
    data: Any,
    *,
    source: str = "reference",
    path: Path | None = None,
    sha256: str | None = None,
) -> Reference:
    """A :class:`Reference` from parsed content; raises :class:`ReferenceProblem` with every
    finding of the first layer that has any (schema, then relations).

    >>> ref = reference_from_data({"reference_id": "example", "suite": "lite",
    ...     "scale_floor_relative": 0.02, "scale_floor_absolute": 1e-9,
    ...     "tasks": {"t": {"kind": "objective", "direction": "maximize",
    ...                     "instances": {"g1": [10, 12, 14]}}},
    ...     "unscored_reference_instances": []})
    >>> ref.tasks["t"].scored["g1"].scale
    2.0
    """
    document = ReferenceInput(data, source)
    findings = REFERENCE_SCHEMA_RULES.refusal(document)
    if findings:
        raise ReferenceProblem(
            f"Reference file {source} is not valid", [f.problem for f in findings]
        )
    findings = REFERENCE_RULES.refusal(document)
    if findings:
        raise ReferenceProblem(f"Reference {source} is inconsistent", [f.problem for f in findings])
    tasks = document.task_references()
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
