"""The kit's sha256 digests, of bytes, files, folders and values (one home: provenance,
``verify``, the lock record, the reference check and the report runner take them from here).

For a publication's inputs a file on disk is read once per run while its size and time stay
the same (:func:`disk_digest`).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any


def sha256_bytes(data: bytes) -> str:
    """The sha256 (hex) of ``data``."""
    return hashlib.sha256(data).hexdigest()


def sha256_text(text: str) -> str:
    """The sha256 of ``text`` as UTF-8 bytes (what a written file's digest will be).

    >>> sha256_text("")[:12]
    'e3b0c44298fc'
    """
    return sha256_bytes(text.encode("utf-8"))


def sha256_file(path: str | os.PathLike[str]) -> str:
    """The sha256 (hex) of a file's bytes."""
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def canonical(value: Any) -> str:
    """The sha256 of a value's canonical JSON (sorted keys).

    >>> canonical({"b": 1, "a": 2}) == canonical({"a": 2, "b": 1})
    True
    """
    return sha256_text(json.dumps(value, sort_keys=True, ensure_ascii=False))


def disk_digest(path: Path, is_folder: bool) -> str:
    """The sha256 of a file, or of a folder's sorted (name, sha256) listing (``absent``);
    read once per run while its size and time stay the same."""
    path = Path(path)
    if not is_folder:
        return _file_digest(path) if path.is_file() else "absent"
    if not path.is_dir():
        return "absent"
    listing = sorted(
        (p.relative_to(path).as_posix(), _file_digest(p)) for p in path.rglob("*") if p.is_file()
    )
    return sha256_text(json.dumps(listing))


_READ: dict[tuple[str, int, int, int], str] = {}


def _file_digest(path: Path) -> str:
    found = path.stat()
    key = (str(path), found.st_ino, found.st_size, found.st_mtime_ns)
    if key not in _READ:
        _READ[key] = sha256_file(path)
    return _READ[key]


def folder_digests(folder: Path) -> dict[str, str]:
    """The sha256 of every file under ``folder``, by its POSIX path relative to it.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.txt").write_text("")
    >>> folder_digests(folder)["a.txt"][:12]
    'e3b0c44298fc'
    """
    return {
        path.relative_to(folder).as_posix(): sha256_file(path)
        for path in sorted(folder.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }
