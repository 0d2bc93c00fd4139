"""The store of executed notebooks and pages (``<output>/.tcsexam-store/``): by content, checked.

Objects by sha256 (published pages are hard links to them), entries per job key written
after their objects: an interrupted run leaves at worst garbage, collected only under the
exclusive lock (docs/reports.md).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import shutil
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..digests import sha256_file
from ..jsonio import dumps_json
from ..outputfiles import write_text_atomic
from .publish import process_alive
from .run_set_document import MANIFEST

#: The store's folder in the output folder.
STORE = ".tcsexam-store"
#: ``kind`` of an entry (tells the kit's entries from anything else).
ENTRY_KIND = "tcsexam report stored notebook"

_TEMPORARY = re.compile(r"^\.tmp-(?P<pid>\d+)-")
_HEX = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class StoredFile:
    """One object of an entry: its sha256 and size."""

    sha256: str
    size: int


@dataclass
class StoredNotebook:
    """A stored notebook job: its key, label, what the key was made of, its two files."""

    key: str
    label: str
    inputs: list[tuple[str, str]]
    executed: StoredFile
    html: StoredFile
    log: str = ""
    seconds: float = 0.0
    kind: str = field(default=ENTRY_KIND)

    @classmethod
    def from_json(cls, data: Any) -> StoredNotebook:
        """Parse an entry; raise ``ValueError`` when it is not one the kit wrote."""
        if not isinstance(data, dict) or data.get("kind") != ENTRY_KIND:
            raise ValueError("not an entry of the store")
        try:
            return cls(
                key=str(data["key"]),
                label=str(data["label"]),
                inputs=[(str(name), str(digest)) for name, digest in data["inputs"]],
                executed=StoredFile(**data["executed"]),
                html=StoredFile(**data["html"]),
                log=str(data.get("log", "")),
                seconds=float(data.get("seconds", 0.0)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"an entry without {exc}") from exc


class Store:
    """The store of one output folder.

    >>> import tempfile
    >>> out = Path(tempfile.mkdtemp())
    >>> page = out / "page.html"
    >>> _ = page.write_text("<p>hi</p>")
    >>> store = Store(out)
    >>> stored = store.add_file(page)
    >>> store.object_path(stored.sha256).read_text(), store.check_file(stored)
    ('<p>hi</p>', '')
    >>> _ = store.object_path(stored.sha256).write_text("<p>ho</p>")
    >>> store.check_file(stored)
    'altered (its sha256 is not the one recorded)'
    """

    def __init__(self, output: Path) -> None:
        self.output = Path(output)
        self.root = self.output / STORE
        self._lock: Any = None

    # --- objects ---------------------------------------------------------------------

    def object_path(self, digest: str) -> Path:
        return self.root / "objects" / digest[:2] / digest

    def _temporary(self, folder: Path, name: str) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        return folder / f".tmp-{os.getpid()}-{name}"

    def add_file(self, path: Path) -> StoredFile:
        """Store the file at ``path`` as an object (a hard link to it where possible)."""
        digest, size = sha256_file(path), path.stat().st_size
        stored = StoredFile(digest, size)
        target = self.object_path(digest)
        if target.is_file() and not self.check_file(stored):
            return stored  # already there, intact
        temporary = self._temporary(target.parent, digest)
        temporary.unlink(missing_ok=True)
        try:
            os.link(path, temporary)
        except OSError:  # no hard links here: a copy
            shutil.copyfile(path, temporary)
            shutil.copymode(path, temporary)
            with open(temporary, "rb+") as handle:
                os.fsync(handle.fileno())
        os.replace(temporary, target)
        return stored

    def check_file(self, stored: StoredFile) -> str:
        """What is wrong with an object ("" when it is there with its recorded bytes)."""
        path = self.object_path(stored.sha256)
        try:
            if path.is_symlink() or not path.is_file():
                return "missing"
            if path.stat().st_size != stored.size:
                return "truncated or altered (its size is not the one recorded)"
            if sha256_file(path) != stored.sha256:
                return "altered (its sha256 is not the one recorded)"
        except OSError as exc:
            return f"unreadable ({exc.strerror or exc})"
        return ""

    def link_out(self, stored: StoredFile, destination: Path) -> None:
        """Put an object at ``destination`` (a hard link, else a copy); replace what is there."""
        destination.parent.mkdir(parents=True, exist_ok=True)
        temporary = destination.parent / f".tmp-{os.getpid()}-{destination.name}"
        temporary.unlink(missing_ok=True)
        source = self.object_path(stored.sha256)
        try:
            os.link(source, temporary)
        except OSError as exc:
            if exc.errno == errno.ENOSPC:
                raise
            shutil.copyfile(source, temporary)
            shutil.copymode(source, temporary)
        os.replace(temporary, destination)

    # --- entries ---------------------------------------------------------------------

    def entry_path(self, key: str) -> Path:
        return self.root / "entries" / key[:2] / f"{key}.json"

    def entry(self, key: str) -> tuple[StoredNotebook | None, str]:
        """The entry of ``key`` and what is wrong with it: ``(None, "")`` when there is none,
        ``(None, why)`` when it is damaged, ``(entry, why)`` when one of its objects is."""
        path = self.entry_path(key)
        if not path.exists():
            return None, ""
        try:
            entry = StoredNotebook.from_json(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            return None, f"its stored entry is damaged ({exc})"
        if entry.key != key:
            return None, "its stored entry is damaged (it names another key)"
        for what, stored in (("executed notebook", entry.executed), ("page", entry.html)):
            problem = self.check_file(stored)
            if problem:
                return entry, f"its stored {what} is {problem}"
        return entry, ""

    def put_entry(self, entry: StoredNotebook) -> None:
        """Record an entry (its objects are already stored)."""
        data = asdict(entry)
        data["inputs"] = [list(item) for item in entry.inputs]
        write_text_atomic(self.entry_path(entry.key), dumps_json(data))

    def verify(self) -> list[str]:
        """Every problem of the store: an entry damaged, or one of its objects.

        >>> import tempfile
        >>> Store(Path(tempfile.mkdtemp())).verify()
        []
        """
        problems = []
        for path in _files(self.root / "entries"):
            if _TEMPORARY.match(path.name) or path.name.startswith("."):
                continue
            entry, problem = self.entry(path.stem)
            if problem:
                problems.append(f"{path.relative_to(self.root).as_posix()}: {problem}")
        return problems

    # --- what each run set published ---------------------------------------------------

    def published_path(self, run_set: str) -> Path:
        return self.root / "published" / f"{run_set}.json"

    def published(self, run_set: str) -> dict[str, Any]:
        """What ``run_set`` last published (empty when unknown or unreadable)."""
        try:
            data = json.loads(self.published_path(run_set).read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            return {}
        return data if isinstance(data, dict) else {}

    def set_published(self, run_set: str, data: dict[str, Any]) -> None:
        write_text_atomic(self.published_path(run_set), dumps_json(data))

    # --- locking and garbage ---------------------------------------------------------

    @property
    def held(self) -> bool:
        """True while this run holds the store's shared lock."""
        return self._lock is not None

    @contextlib.contextmanager
    def shared(self, create: bool = True) -> Iterator[Store]:
        """Hold the store's shared lock for the block (every run does); with ``create``
        off, only a store that is there (nothing is written)."""
        if not create and not (self.root / "lock").is_file():
            yield self
            return
        self.root.mkdir(parents=True, exist_ok=True)
        handle = open(self.root / "lock", "a+b")  # noqa: SIM115 - held for the block
        try:
            _flock(handle, shared=True)
            self._lock = handle
            yield self
        finally:
            self._lock = None
            handle.close()

    def collect_garbage(self) -> int:
        """Remove the entries and objects no published run set uses, and temporary files
        of runs that are gone; only when no other run holds the store. Returns how many."""
        if not self.root.is_dir():
            return 0
        with open(self.root / "lock", "a+b") as handle:
            if not _flock(handle, shared=False, wait=False):
                return 0  # another run is under way: its objects may not be named yet
            keys: set[str] = set()
            for path in sorted((self.root / "published").glob("*.json")):
                if not (self.output / path.stem / MANIFEST).is_file():
                    path.unlink(missing_ok=True)  # that run set is no longer published here
                    continue
                keys |= set(self.published(path.stem).get("jobs", {}).values())
            objects: set[str] = set()
            for key in keys:
                entry, _ = self.entry(key)
                if entry is not None:
                    objects |= {entry.executed.sha256, entry.html.sha256}
            removed = 0
            for path in _files(self.root / "entries"):
                if _stale_temporary(path) or (
                    not _TEMPORARY.match(path.name) and path.stem not in keys
                ):
                    path.unlink(missing_ok=True)
                    removed += 1
            for path in _files(self.root / "objects"):
                if _stale_temporary(path) or (
                    not _TEMPORARY.match(path.name)
                    and (not _HEX.match(path.name) or path.name not in objects)
                ):
                    path.unlink(missing_ok=True)
                    removed += 1
            return removed


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() or p.is_symlink())


def _stale_temporary(path: Path) -> bool:
    match = _TEMPORARY.match(path.name)
    return match is not None and not process_alive(int(match["pid"]))


def _flock(handle: Any, *, shared: bool, wait: bool = True) -> bool:
    """Lock an open file (shared or exclusive); False when ``wait`` is off and it is held."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no locking, no garbage collection
        return shared
    flags = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
    try:
        fcntl.flock(handle.fileno(), flags | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    return True
