"""The kit's own folders: replaced in one step, removed without following a symlink."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
from pathlib import Path


def remove_tree(path: Path) -> None:
    """Remove the kit's own folder ``path``; symlinks are unlinked, never followed."""
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)


_RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically (Linux ``renameat2``); False where it is not offered."""
    libc_name = ctypes.util.find_library("c")
    if not libc_name:  # pragma: no cover - not Linux
        return False
    libc = ctypes.CDLL(libc_name, use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is None:  # pragma: no cover - old C library
        return False
    at_fdcwd = -100
    result = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE)
    return result == 0


def switch_into_place(staging: Path, final: Path) -> None:
    """Put the finished staging folder at ``final`` and remove what was there: one atomic
    exchange where the system offers it, else two renames; a symlink is never followed.

    >>> import tempfile
    >>> out = Path(tempfile.mkdtemp())
    >>> for name in ("old", "new"):
    ...     (out / name).mkdir(); _ = (out / name / "page.html").write_text(name)
    >>> switch_into_place(out / "new", out / "old")
    >>> (out / "old" / "page.html").read_text(), sorted(p.name for p in out.iterdir())
    ('new', ['old'])
    """
    if not (final.exists() or final.is_symlink()):
        os.rename(staging, final)
        return
    if final.is_dir() and not final.is_symlink() and _exchange(staging, final):
        remove_tree(staging)  # now holds the previous folder
        return
    old = final.parent / f".{final.name}.old-{os.getpid()}"
    os.rename(final, old)  # renames a symlink itself, not its target
    os.rename(staging, final)
    remove_tree(old)
