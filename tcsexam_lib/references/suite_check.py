"""A reference checked against its suite's task list: the suite's solver tasks must be
exactly the reference file's tasks (the spec), with the same verdict by id or by path and
before ``reference build`` writes."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..errors import TcsexamError, quoted_names
from ..jsonio import read_json_with_digest
from .load import looks_like_path
from .rules import Finding


def _suite_file(
    suite: str, places: list[Path], explicit: Path | None, explicit_suite: str | None
) -> Path | None:
    """The suite file a reference of ``suite`` is compared with: ``--suite``'s when it is
    that suite's, else the first ``<place>/<suite>.json``."""
    if explicit is not None and explicit_suite == suite:
        return explicit
    return next((p / f"{suite}.json" for p in places if (p / f"{suite}.json").is_file()), None)


def compare_suite_lists(
    loaded: dict[str, tuple[Any, Any]],
    places: list[Path],
    explicit: Path | None,
    notes: list[str],
) -> list[Finding]:
    """Each loaded suite file's reference against its suite's task list (``explicit``, else
    the first in ``places``); a note where there is none."""
    findings = []
    explicit_suite = None
    if explicit is not None:
        try:
            explicit_suite = read_json_with_digest(explicit)[0]["suite"]
        except (TcsexamError, KeyError, TypeError) as exc:
            return [
                Finding.about("suite_tasks", str(explicit), f"cannot read its suite name: {exc}")
            ]
        if explicit_suite not in loaded:
            detail = (
                f"--suite names suite '{explicit_suite}', but the reference file(s) checked are "
                f"of suite(s) {quoted_names(sorted(loaded), 10)}"
            )
            findings.append(Finding.about("suite_tasks", str(explicit), detail))
    for suite, (report, data) in loaded.items():
        if not isinstance(data, dict) or not isinstance(data.get("tasks"), dict):
            continue
        suite_path = _suite_file(suite, places, explicit, explicit_suite)
        if suite_path is None:
            where = " or ".join(str(p / f"{suite}.json") for p in places)
            notes.append(
                f"{where} absent: the solver task list of suite '{suite}' was not compared "
                "(name the suite file with --suite)"
            )
            continue
        try:
            listed = set(read_json_with_digest(suite_path)[0]["tracks"]["solver"])
        except (TcsexamError, KeyError, TypeError) as exc:
            findings.append(
                Finding.about(
                    "suite_tasks", str(suite_path), f"cannot read its solver tasks: {exc}"
                )
            )
            continue
        tasks = set(data["tasks"])
        for task in sorted(tasks - listed):
            detail = f"task '{task}' is not a solver task of {suite_path}"
            findings.append(Finding.about("suite_tasks", report.path, detail, task))
        for task in sorted(listed - tasks):
            detail = f"solver task '{task}' of {suite_path} has no entry in this reference file"
            findings.append(Finding.about("suite_tasks", report.path, detail, task))
    return findings


def suite_places(folder: Path, refs_dir: Path, by_id: bool) -> list[Path]:
    """Where suite files are looked for: ``suites/`` beside the reference's folder, then the
    references folder's."""
    places = [] if by_id else [folder.parent / "suites"]
    if refs_dir / "suites" not in places:
        places.append(refs_dir / "suites")
    return places


def named_suite_file(
    suite: str | os.PathLike[str] | None, refs_dir: Path
) -> tuple[Path | None, list[Finding]]:
    """The suite file named with ``--suite`` (a name or a path), or a finding that there is none.

    >>> named_suite_file(None, Path("references"))
    (None, [])
    >>> _, [finding] = named_suite_file("nope", Path("/nonexistent"))
    >>> print(finding)
    [not_found] /nonexistent/suites/nope.json: no such suite file (--suite)
    """
    if suite is None:
        return None, []
    path = Path(suite) if looks_like_path(suite) else refs_dir / "suites" / f"{suite}.json"
    if not path.is_file():
        return None, [Finding.about("not_found", str(path), "no such suite file (--suite)")]
    return path, []
