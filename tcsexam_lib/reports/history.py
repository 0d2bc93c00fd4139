"""An output folder's publication history (``history.jsonl``) and what changed since the last.

One record appended per publication, never rewritten; :class:`Changes` is said in the same
words on the landing page and the cohort report.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from ..digests import canonical, disk_digest
from ..documents import Doc, Interval, Record
from ..documents import field as record_field
from ..environment import environment_fingerprint, kit_fingerprint
from ..number_format import points
from ..paths import resolve_references_dir
from ..provenance import created_utc, kit_version
from ..scoring.index_document import Status
from ..stats.wording import name_list, percent

#: The history file in an output folder.
HISTORY = "history.jsonl"
#: ``kind`` of a record (tells the kit's records from anything else).
RECORD_KIND = "tcsexam report publication"
SCHEMA = "history-record"


class PublishedModel(Record):
    """A model as a publication left it: status, index, interval, rank interval, first."""

    SCHEMA = (SCHEMA, "/$defs/model")
    status: Status = record_field()
    index: Annotated[float | None, Doc("points")] = record_field()
    index_ci: Annotated[Interval | None, Doc("the index's interval, points")] = record_field()
    rank_ci: Annotated[
        Annotated[list[Annotated[int, Doc(ge=1)]], Doc(min_length=2, max_length=2)] | None,
        Doc("the ranks the paired tests allow, best and worst (1 = best)"),
    ] = record_field()
    could_be_first: Annotated[bool, Doc("no model shown to be ahead of it")] = record_field()


class PublicationRecord(Record):
    """One publication of a run set, as its line of ``history.jsonl``."""

    SCHEMA = (SCHEMA, "")
    TITLE = "One publication of a run set: a line of history.jsonl (tcsexam report)"
    DESCRIPTION = (
        "tcsexam report appends one record to <output>/history.jsonl each time it publishes "
        "a run set; a record is never rewritten. Generated from the kit's typed document "
        "tcsexam_lib.reports.history.PublicationRecord (make schemas)."
    )
    kind: Literal["tcsexam report publication"] = record_field()
    run_set: Annotated[str, Doc("<suite>-<protocol>, the run set's folder")] = record_field()
    date: Annotated[str, Doc("when it was published, UTC (SOURCE_DATE_EPOCH when set)")] = (
        record_field()
    )
    kit_version: str = record_field()
    reference_id: str | None = record_field()
    suite: str = record_field()
    protocol: Literal["online", "offline"] = record_field()
    level: Annotated[float | None, Doc("the level of the intervals")] = record_field()
    inputs: Annotated[
        dict[str, str],
        Doc(
            "the sha256 of what the publication read: parameters, cohort, attempts, records, "
            "references, notebooks, compared (the run sets its cohort report compares with), "
            "kit, environment (not the date: a new date alone publishes nothing)"
        ),
    ] = record_field()
    results: dict[str, PublishedModel] = record_field(PublishedModel, shape="dict", key="models")

    def made_with(self) -> tuple[str | None, str | None]:
        """The digests of the kit and of the environment that made this publication."""
        return self.inputs.get("kit"), self.inputs.get("environment")


def publication_record(rs: Any, inputs: dict[str, str]) -> dict[str, Any]:
    """The record of publishing run set ``rs`` (a :class:`.runsets.RunSetResult`)."""
    stats = rs.stats.head if rs.stats is not None else None
    intervals = {} if stats is None else stats.results
    leaders = set() if stats is None else set(stats.leader_group)
    models = {}
    for model, entry in rs.score.results.items():
        found = intervals.get(model)
        models[model] = {
            "status": entry.status,
            "index": entry.index,
            "index_ci": None if found is None else found.index_ci,
            "rank_ci": None if found is None else found.rank_ci,
            "could_be_first": model in leaders,
        }
    return {
        "kind": RECORD_KIND,
        "run_set": rs.params.name,
        "date": created_utc(),
        "kit_version": kit_version(),
        "reference_id": rs.score.reference_id,
        "suite": rs.params.suite,
        "protocol": rs.params.protocol,
        "level": None if stats is None else stats.level,
        "inputs": inputs,
        "models": models,
    }


def publication_inputs(params: Any, notebooks: dict[str, Path], compared: Any) -> dict[str, str]:
    """The digests of what a run set's publication reads (parameters, inputs, notebooks, kit,
    environment); not the date, so that a new date alone publishes nothing."""
    references = resolve_references_dir(params.references_dir)
    return {
        "parameters": canonical(
            [params.suite, params.protocol, params.description, list(params.notebooks)]
        ),  # fmt: skip
        "cohort": disk_digest(params.cohort, False),
        "attempts": disk_digest(params.attempts, False),
        "records": disk_digest(params.records, True),
        "references": disk_digest(references, True),
        "notebooks": canonical(
            {name: disk_digest(path, False) for name, path in notebooks.items()}
        ),
        "compared": canonical(compared),
        "kit": kit_fingerprint(),
        "environment": environment_fingerprint(),
    }


# --- the history file ------------------------------------------------------------------


def read_history(output: str | os.PathLike[str]) -> list[PublicationRecord]:
    """Every record of ``<output>/history.jsonl``, oldest first (a line that is not one,
    such as one cut short by a crash, is left out)."""
    path = Path(output) / HISTORY
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    records = []
    for line in lines:
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if isinstance(data, dict) and data.get("kind") == RECORD_KIND:
            records.append(PublicationRecord(data))
    return records


def last_publications(
    records: list[PublicationRecord], run_set: str, count: int = 1
) -> list[PublicationRecord]:
    """The last ``count`` records of ``run_set``, oldest first."""
    mine = [record for record in records if record.run_set == run_set]
    return mine[-count:] if count else []


def append_publication(output: str | os.PathLike[str], record: dict[str, Any]) -> None:
    """Append one record to the history file in one write (a line cut short by a crash
    before it is left as it is, and the record starts on a line of its own)."""
    path = Path(output) / HISTORY
    line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n"
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o666)
    try:
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            line = "\n" + line
        data = line.encode("utf-8")
        while data:
            data = data[os.write(fd, data) :]
        os.fsync(fd)
    finally:
        os.close(fd)


# --- what changed ------------------------------------------------------------------------


@dataclass
class Changes:
    """What changed in a run set since its previous publication (``since``: its date;
    ``None``: no previous publication is recorded)."""

    since: str | None = None
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    #: model, previous status, status
    status: list[list[str]] = field(default_factory=list)
    #: model, previous index, index, previous interval's low and high ends
    moved: list[list[Any]] = field(default_factory=list)
    first_now: list[str] = field(default_factory=list)
    first_no_longer: list[str] = field(default_factory=list)
    #: previous and current reference id, kit version (when they changed)
    reference: list[str | None] | None = None
    kit_version: list[str] | None = None
    level: float = 0.95

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Changes | None:
        """The changes a cohort notebook was given (``None``: none given, standalone)."""
        if not data:
            return None
        known = {name for name in cls.__dataclass_fields__}
        return cls(**{key: value for key, value in data.items() if key in known})

    def lines(self, limit: int = 8) -> list[str]:
        """What changed, one line each (names past ``limit`` counted).

        >>> Changes().lines()
        ['First publication of this run set recorded in this folder.']
        >>> changes = Changes("2026-12-01T00:00:00Z", added=["m3"], status=[["m1",
        ...     "provisional", "complete"]], moved=[["m1", 50.0, 70.0, 40.0, 60.0]])
        >>> for line in changes.lines():
        ...     print(line)
        Added: m3.
        m1: provisional → complete.
        m1: index 50.00 → 70.00, outside its previous 95% interval [40.00, 60.00].
        """
        if self.since is None:
            return ["First publication of this run set recorded in this folder."]
        lines = []
        if self.reference:
            lines.append(f"Reference changed: {self.reference[0]} → {self.reference[1]}.")
        if self.kit_version:
            lines.append(f"Kit version changed: {self.kit_version[0]} → {self.kit_version[1]}.")
        if self.added:
            lines.append(f"Added: {name_list(self.added, limit)}.")
        if self.removed:
            lines.append(f"Removed: {name_list(self.removed, limit)}.")
        lines += [f"{model}: {old} → {new}." for model, old, new in self.status[:limit]]
        if len(self.status) > limit:
            lines.append(f"… and {len(self.status) - limit} more status changes.")
        level = percent(self.level)
        for model, old, new, low, high in self.moved[:limit]:
            lines.append(f"{model}: index {points(old)} → {points(new)}, outside its previous "
                         f"{level} interval [{points(low)}, {points(high)}].")  # fmt: skip
        if len(self.moved) > limit:
            lines.append(f"… and {len(self.moved) - limit} more indexes moved that far.")
        if self.first_now:
            lines.append(f"Could be first now: {name_list(self.first_now, limit)}.")
        if self.first_no_longer:
            lines.append(f"No longer could be first: {name_list(self.first_no_longer, limit)}.")
        return lines or [
            "No model added or removed, no status changed, no index moved outside its "
            "interval, the same models could be first."
        ]


def compare_publications(
    previous: PublicationRecord | dict[str, Any] | None, current: dict[str, Any]
) -> Changes:
    """What changed from the ``previous`` record of a run set to the ``current`` one (an
    index *moved* when it lies outside the interval the previous publication gave it).

    >>> old = {"date": "d0", "reference_id": "r", "kit_version": "1", "models": {
    ...     "a": {"status": "complete", "index": 50.0, "index_ci": [45.0, 55.0],
    ...           "could_be_first": True},
    ...     "b": {"status": "provisional", "index": 40.0, "index_ci": [30.0, 50.0],
    ...           "could_be_first": False}}}
    >>> new = {"reference_id": "r", "kit_version": "1", "level": 0.95, "models": {
    ...     "a": {"status": "complete", "index": 50.5, "index_ci": [45.0, 56.0],
    ...           "could_be_first": False},
    ...     "b": {"status": "complete", "index": 60.0, "index_ci": [50.0, 70.0],
    ...           "could_be_first": True}, "c": {"status": "incomplete", "index": None}}}
    >>> changes = compare_publications(old, new)
    >>> changes.added, changes.status, changes.moved, changes.first_now, changes.first_no_longer
    (['c'], [['b', 'provisional', 'complete']], [['b', 40.0, 60.0, 30.0, 50.0]], ['b'], ['a'])
    """
    level = current.get("level") or 0.95
    if previous is None:
        return Changes(level=level)
    before = dict(previous.get("models") or {})
    now = dict(current.get("models") or {})
    changes = Changes(since=previous.get("date"), level=level)
    changes.added = [model for model in now if model not in before]
    changes.removed = [model for model in before if model not in now]
    for model, entry in now.items():
        old = before.get(model)
        if old is None:
            continue
        if old.get("status") != entry.get("status"):
            changes.status.append([model, old.get("status"), entry.get("status")])
        ci, index = old.get("index_ci"), entry.get("index")
        if ci and index is not None and old.get("index") is not None:
            if not ci[0] <= index <= ci[1]:
                changes.moved.append([model, old.get("index"), index, ci[0], ci[1]])
    first_before = {m for m, e in before.items() if e.get("could_be_first")}
    first_now = [m for m, e in now.items() if e.get("could_be_first")]
    changes.first_now = [m for m in first_now if m not in first_before]
    changes.first_no_longer = [m for m in before if m in first_before and m not in first_now]
    if previous.get("reference_id") != current.get("reference_id"):
        changes.reference = [previous.get("reference_id"), current.get("reference_id")]
    if previous.get("kit_version") != current.get("kit_version"):
        changes.kit_version = [previous.get("kit_version"), current.get("kit_version")]
    return changes
