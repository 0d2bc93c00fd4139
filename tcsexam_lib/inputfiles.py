"""Reading an input file safely: a regular file (not a folder, device or pipe), under its
kind's size limit, as UTF-8 (a leading BOM dropped); refusals name the file and limit."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import InputRefused, Problem

MIB = 1 << 20

_NOT_REGULAR = "not a regular file (a folder, a device or a pipe)"

#: The largest input of each kind, in bytes (the input-safety policy, docs/input-safety.md).
MAX_BYTES = {"json": 256 * MIB, "csv": 512 * MIB, "yaml": 1 * MIB}


def read_input_bytes(
    path: str | os.PathLike[str], kind: str = "Input file", limit: int = MAX_BYTES["json"]
) -> bytes:
    """The bytes of an input file; refused by name when missing, unreadable, not a regular
    file, or larger than ``limit`` bytes (``kind`` starts the summary).

    >>> try:
    ...     read_input_bytes("/dev/zero")
    ... except InputRefused as exc:
    ...     print(exc.problems[0].detail)
    not a regular file (a folder, a device or a pipe)
    """
    path = Path(path)
    try:
        info = os.stat(path)  # before opening: opening a pipe would wait for a writer
        if not stat.S_ISREG(info.st_mode):
            raise InputRefused(f"{kind} refused", [Problem(str(path), detail=_NOT_REGULAR)])
        if info.st_size > limit:
            detail = f"{info.st_size:,} bytes, more than the {limit:,} allowed for this input"
            raise InputRefused(f"{kind} too large", [Problem(str(path), detail=detail)])
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except FileNotFoundError as exc:
        raise InputRefused(
            f"{kind} not found", [Problem(str(path), detail="no such file")]
        ) from exc
    except IsADirectoryError as exc:
        raise InputRefused(f"{kind} refused", [Problem(str(path), detail=_NOT_REGULAR)]) from exc
    except OSError as exc:
        raise InputRefused(f"{kind} unreadable", [Problem(str(path), detail=str(exc))]) from exc
    if len(data) > limit:  # it grew while being read
        detail = f"more than the {limit:,} bytes an input of this kind may have"
        raise InputRefused(f"{kind} too large", [Problem(str(path), detail=detail)])
    return data


def decode_text(data: bytes, path: str | os.PathLike[str], kind: str = "Input file") -> str:
    """UTF-8 text (a leading byte-order mark dropped); other bytes are refused by name."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputRefused(f"{kind} is not UTF-8", [Problem(str(path), detail=str(exc))]) from exc
