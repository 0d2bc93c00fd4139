"""Whether a notebook runs again: what it reads (:class:`JobInputs`), its key, and why.

A job's key is the sha256 of what it reads (not the date): an intact stored entry is
reused, else :func:`decide` names the first item that changed (docs/reports.md, "A
living leaderboard").
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from ..digests import disk_digest, sha256_bytes, sha256_file, sha256_text
from ..environment import environment_fingerprint, kit_fingerprint
from ..jsonio import dumps_json
from .execute import NotebookJob
from .notebooks import INPUT_FOLDER, notebook
from .store import Store, StoredNotebook

#: Why a notebook runs when it was never made, and under ``--force``.
NEW = "new: no stored page"
FORCED = "--force"


@dataclass(frozen=True)
class JobInputs:
    """What a notebook job reads, in order: ``(name, sha256)`` items; and its key.

    >>> a = JobInputs("rs/m/index", (("notebooks/index.ipynb", "1"), ("the kit", "2")))
    >>> b = JobInputs("rs/m/index", (("notebooks/index.ipynb", "1"), ("the kit", "3")))
    >>> a.key != b.key, a.first_change(b.items)
    (True, 'the kit changed')
    """

    label: str
    items: tuple[tuple[str, str], ...]

    @property
    def key(self) -> str:
        return sha256_text(json.dumps([list(item) for item in self.items]))

    def first_change(self, before: list[tuple[str, str]] | tuple[tuple[str, str], ...]) -> str:
        """The first item that differs from ``before`` (what the last page read), in words."""
        previous = dict(before)
        for name, digest in self.items:
            if name not in previous:
                return f"{name} is new"
            if previous[name] != digest:  # "parameter changes": its value, not "changes changed"
                parameter = name.removeprefix("parameter ")
                return (
                    f"{name} changed"
                    if parameter == name
                    else f"new value of parameter '{parameter}'"
                )
        gone = [name for name in previous if name not in dict(self.items)]
        return f"{gone[0]} is no longer given" if gone else "what it read is not recorded"


class InputDigests:
    """Digests of what notebooks read, each read once: new files from memory, the rest from disk."""

    def __init__(self, folder: Path, files: dict[str, bytes]) -> None:
        self.folder = Path(os.path.normpath(folder))
        self.files = files
        self._disk: dict[Path, str] = {}
        self._sha: dict[str, str] = {}
        self._folders: dict[str, str] = {}

    def _file_sha(self, name: str) -> str:
        if name not in self._sha:
            self._sha[name] = sha256_bytes(self.files[name])
        return self._sha[name]

    def digest(self, path: Path, is_folder: bool) -> str:
        """The sha256 of a file's bytes, or of a folder's sorted (name, sha256) listing."""
        path = Path(os.path.normpath(path))
        try:
            inside = path.relative_to(self.folder).as_posix()
        except ValueError:
            inside = None
        if inside is not None:
            if not is_folder:
                return self._file_sha(inside) if inside in self.files else "absent"
            if inside not in self._folders:
                prefix = "" if inside == "." else inside + "/"
                listing = sorted(
                    (name[len(prefix) :], self._file_sha(name))
                    for name in self.files
                    if name.startswith(prefix)
                )
                self._folders[inside] = sha256_text(json.dumps(listing))
            return self._folders[inside]
        if path not in self._disk:
            self._disk[path] = disk_digest(path, is_folder)
        return self._disk[path]


def job_inputs(job: NotebookJob, digests: InputDigests) -> JobInputs:
    """What ``job`` reads (see the module's docstring), as a :class:`JobInputs`."""
    declared = notebook(job.name)
    final = job.final_folder or job.folder
    items = [(job.source_name or job.source.name, sha256_file(job.source))]
    items += [
        (f"parameter {name}", sha256_text(dumps_json(value)))
        for name, value in sorted(job.parameters.items())
    ]
    folders = set(declared.of_kind(INPUT_FOLDER))
    for name in declared.read(job.parameters):
        value = str(job.parameters[name])
        path = Path(value) if Path(value).is_absolute() else final / value
        items.append((f"input {name} ({value})", digests.digest(path, name in folders)))
        beside = declared.reads_beside.get(name)
        if beside:
            items.append((f"input {beside}", digests.digest(path.parent / beside, False)))
    page = [job.label, job.nav, job.footer]
    items += [
        ("the kit", kit_fingerprint()),
        ("the environment", environment_fingerprint()),
        ("the page's title, navigation and footer", sha256_text(json.dumps(page))),
    ]
    return JobInputs(job.label, tuple(items))


@dataclass
class Decision:
    """A job, what it reads, and the stored entry it reuses (``None``: it runs, ``why``)."""

    job: NotebookJob
    inputs: JobInputs
    entry: StoredNotebook | None
    why: str = ""

    @property
    def reused(self) -> bool:
        return self.entry is not None


def decide(
    jobs: list[NotebookJob],
    digests: InputDigests,
    store: Store,
    published: dict[str, str],
    *,
    force: bool = False,
) -> list[Decision]:
    """For each job: reuse its intact stored entry, or run it and say why (``published``:
    the labels of the pages published before -> their keys)."""
    decisions = []
    for job in jobs:
        inputs = job_inputs(job, digests)
        if force:
            decisions.append(Decision(job, inputs, None, FORCED))
            continue
        entry, damage = store.entry(inputs.key)
        if entry is not None and not damage:
            decisions.append(Decision(job, inputs, entry))
            continue
        if damage:
            decisions.append(Decision(job, inputs, None, damage))
            continue
        before = published.get(job.label)
        previous, _ = store.entry(before) if before else (None, "")
        why = NEW if previous is None else inputs.first_change(previous.inputs)
        decisions.append(Decision(job, inputs, None, why))
    return decisions


def describe_reuse(decisions: list[Decision]) -> str:
    """One line: how many notebooks are reused and how many run.

    >>> describe_reuse([])
    '0 notebook(s) reused from the store, 0 to run'
    """
    reused = sum(1 for d in decisions if d.reused)
    return f"{reused} notebook(s) reused from the store, {len(decisions) - reused} to run"
