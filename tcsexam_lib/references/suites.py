"""Suites: the task ids of each track, ``references/suites/<suite>.json``."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from ..errors import InputRefused, Problem, did_you_mean
from ..jsonio import read_json_with_digest
from ..paths import resolve_references_dir
from ..schemas import validate_with_schema
from ..vocab import TRACKS


@dataclass(frozen=True)
class Suite:
    """The task ids of each track of one suite."""

    name: str
    tracks: dict[str, tuple[str, ...]]
    path: Path | None = None
    sha256: str | None = None
    simulated: bool = False

    @cached_property
    def _owner(self) -> dict[str, str]:
        return {item: track for track, items in self.tracks.items() for item in items}

    def track_of(self, item: str) -> str | None:
        """The track that holds ``item``, or ``None``."""
        return self._owner.get(item)

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

    >>> suite = load_suite("demo-lite")
    >>> [len(items) for items in suite.tracks.values()] == [5] * len(TRACKS)
    True
    """
    folder = resolve_references_dir(references_dir)
    path = folder / "suites" / f"{name}.json"
    if not path.is_file():
        known = available_suites(references_dir)
        close = did_you_mean(name, known)
        detail = f"no suites/{name}.json in the references folder {folder}"
        if references_dir is None:
            detail += (
                "; a suite of your own is read from yours: --references-dir DIR (a run set's "
                f"references_dir, or TCSEXAM_REFERENCES=DIR) with DIR/suites/{name}.json"
            )
        detail += f"; or {close}" if close else ""
        raise InputRefused(
            "Suite not found",
            [
                Problem(
                    str(path),
                    field="suite",
                    value=name,
                    detail=detail,
                    allowed=(", ".join(known) if known else "none present")
                    + "; the task lists of 'lite' and 'full' come with the TCSExam release",
                )
            ],
        )
    data, digest = read_json_with_digest(path)
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
        digest,
        bool(data.get("simulated", False)),
    )
