"""Publishing a run set: a staging folder ``<output>/.<run set>.staging-<pid>``, switched
into place in one rename, so no reader sees two runs mixed.

Symlinks are never followed when removing or replacing; a real folder the kit did not
write (no ``run-set.json``) is refused (docs/reports.md).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..errors import InputRefused, Problem
from ..folders import remove_tree
from ..jsonio import read_json
from .run_set_document import MANIFEST, MANIFEST_KIND, RunSetDocument  # named with it

#: Shared styling and scripts of every page, one copy per report folder.
ASSETS = "_assets"

_STAGING = re.compile(r"^\.(?P<name>.+)\.(?:staging|old)-(?P<pid>\d+)$")


def staging_folder(output: Path, name: str) -> Path:
    """The staging folder of run set ``name`` for this process.

    >>> staging_folder(Path("out"), "lite-offline").name.startswith(".lite-offline.staging-")
    True
    """
    return output / f".{name}.staging-{os.getpid()}"


def process_alive(pid: int) -> bool:
    """True unless process ``pid`` is gone (one of another user counts as alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - someone else's process
        return True
    return True


def remove_stale_staging(output: Path) -> list[Path]:
    """Remove staging folders left by runs that were killed (their process is gone).

    >>> import tempfile
    >>> out = Path(tempfile.mkdtemp())
    >>> (out / ".lite-offline.staging-999999999").mkdir()
    >>> [p.name for p in remove_stale_staging(out)], list(out.iterdir())
    (['.lite-offline.staging-999999999'], [])
    """
    removed = []
    if not output.is_dir():
        return removed
    for entry in sorted(output.iterdir()):
        match = _STAGING.match(entry.name)
        if match and not entry.is_symlink() and not process_alive(int(match["pid"])):
            remove_tree(entry)
            removed.append(entry)
    return removed


def is_run_set_folder(path: Path) -> bool:
    """True when ``path`` is a real folder holding a ``run-set.json`` the kit wrote."""
    manifest = path / MANIFEST
    if path.is_symlink() or not path.is_dir() or not manifest.is_file():
        return False
    try:
        data = read_json(manifest)
    except InputRefused:
        return False
    return isinstance(data, dict) and data.get("kind") == MANIFEST_KIND


def refuse_foreign_folders(output: Path, names: list[str], source: str) -> None:
    """Refuse to replace a real folder at ``<output>/<name>`` that the kit did not write."""
    problems = []
    for name in names:
        target = output / name
        if target.is_symlink() or not target.exists():
            continue  # nothing there, or a link the runner replaces (never follows)
        if not is_run_set_folder(target):
            problems.append(
                Problem(
                    str(target),
                    field="output",
                    value=str(output),
                    detail="this folder has no run-set.json (it was not written by this "
                    "version of tcsexam report); the runner replaces only the run-set folders "
                    "it wrote",
                    allowed="move or remove it, or choose another output folder",
                )
            )
    if problems:
        raise InputRefused.from_problems(f"Output folder refused ({source})", problems)


def new_staging(output: Path, name: str) -> Path:
    """A fresh, empty staging folder for run set ``name`` (0777 less the umask)."""
    output.mkdir(parents=True, exist_ok=True)
    folder = staging_folder(output, name)
    if folder.exists() or folder.is_symlink():
        remove_tree(folder)
    folder.mkdir()
    return folder


def read_manifests(output: Path) -> list[RunSetDocument]:
    """The ``run-set.json`` of every run set published in ``output``, by folder name."""
    if not output.is_dir():
        return []
    manifests = []
    for entry in sorted(output.iterdir()):
        if entry.name.startswith((".", "_")) or not is_run_set_folder(entry):
            continue
        manifests.append(RunSetDocument(read_json(entry / MANIFEST), folder=entry.name))
    return manifests


def make_output_folder(folder: Path, where: str, allowed: str) -> None:
    """Create the output folder (and its parents), or refuse: nothing else is written yet.
    ``where`` gave the folder (an option, parameter files); ``allowed`` words the refusal.

    >>> import tempfile
    >>> make_output_folder(Path(tempfile.mkdtemp()) / "a" / "b", "--output", "a folder")
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputRefused(
            "Output folder refused",
            [
                Problem(
                    where,
                    field="output",
                    value=str(folder),
                    detail=f"the folder cannot be created ({exc.strerror or type(exc).__name__})",
                    allowed=allowed,
                )
            ],
        ) from exc


def ensure_real_folder(path: Path) -> Path:
    """``path`` as a real folder of the kit: a symlink there is replaced, never followed."""
    if path.is_symlink() or path.is_file():
        path.unlink()
    path.mkdir(parents=True, exist_ok=True)
    return path
