"""Disk space: a run refused (exit 2) when clearly short, and named when it runs out.

The estimate is docs/reports.md's (outputs that changed, new assets, each page that runs
at its last size or a floor); a failure from a full disk starts ``No space left on device``.
"""

from __future__ import annotations

import errno
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import InputRefused, Problem

#: Below this many free bytes a failure is taken for a full disk.
LOW_SPACE = 1 << 20
#: The floor of a page that ran no notebook before: the template of a page.
PAGE_FLOOR = 32 << 10


def human_bytes(size: int) -> str:
    """A size as people read it.

    >>> human_bytes(512), human_bytes(3_500_000), human_bytes(2_400_000_000)
    ('512 bytes', '3.5 MB', '2.4 GB')
    """
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} bytes"


def free_bytes(folder: Path) -> int:
    """Free bytes of the file system ``folder`` is (or will be) on."""
    for candidate in (folder, *folder.parents):
        if candidate.exists():
            return shutil.disk_usage(candidate).free
    return shutil.disk_usage(Path.cwd()).free  # pragma: no cover - no folder at all


def space_needed(
    plan: Any, stores: dict[Path, Any], assets: Callable[[Path], int]
) -> dict[Path, tuple[int, str]]:
    """Bytes each output folder needs for ``plan``, and how they add up (in words);
    ``assets(folder)``: what the shared assets will take there (0 when present)."""
    needs: dict[Path, list[int]] = {}
    for rs in plan.run_sets:
        folder = rs.params.output
        need = needs.setdefault(folder, [0, 0, 0])  # outputs' bytes, pages, pages' bytes
        need[0] += sum(len(data) for name, data in rs.files.items() if name not in rs.kept)
        published = stores[folder].published(rs.params.name).get("jobs", {})
        for r, job in plan.planned:
            decision = plan.decisions[job.label]
            if r is not rs or decision.reused:
                continue
            need[2] += _page_estimate(stores[folder], published.get(job.label), job.source)
            need[1] += 1
    out = {}
    for folder, (outputs, pages, rendered) in needs.items():
        shared = assets(folder)
        total = outputs + shared + rendered
        how = (
            f"{human_bytes(outputs)} of outputs, {human_bytes(shared)} of shared assets, "
            f"{pages} page(s) to render at about {human_bytes(rendered)} "
            "(their last sizes, else a floor)"
        )
        out[folder] = (total, how)
    return out


def _page_estimate(store: Any, previous_key: str | None, source: Path) -> int:
    if previous_key:
        entry, _ = store.entry(previous_key)
        if entry is not None:
            return entry.executed.size + entry.html.size
    try:
        return 2 * source.stat().st_size + PAGE_FLOOR
    except OSError:
        return PAGE_FLOOR


def refuse_short_space(needs: dict[Path, tuple[int, str]]) -> None:
    """Refuse (exit 2, nothing written) when a file system has less free space than needed."""
    problems = []
    for folder, (need, how) in sorted(needs.items()):
        free = free_bytes(folder)
        if free < need:
            problems.append(
                Problem(
                    str(folder),
                    field="free space",
                    value=human_bytes(free),
                    detail=f"this run needs at least {human_bytes(need)} there ({how})",
                    allowed=f"an output folder on a file system with {human_bytes(need)} or "
                    "more free (free some space, choose another --output, or publish fewer "
                    "run sets at once)",
                )
            )
    if problems:
        raise InputRefused.from_problems(
            "Not enough free space for the reports; nothing was written", problems
        )


def _enospc(exc: BaseException | None) -> bool:
    seen = 0
    while exc is not None and seen < 20:
        if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
            return True
        if "No space left on device" in str(exc):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def no_space_note(folder: Path, exc: BaseException | None = None) -> str:
    """``No space left on device (...)`` when ``exc`` is one or the disk is (nearly) full.

    >>> no_space_note(Path("."), OSError(errno.ENOSPC, "No space left on device"))[:23]
    'No space left on device'
    >>> no_space_note(Path("."), ValueError("Notebook does not appear to be JSON")) in (
    ...     "", no_space_note(Path(".")))  # said only when the disk is (nearly) full
    True
    """
    try:
        free = free_bytes(Path(folder))
    except OSError:
        free = None
    if not _enospc(exc) and (free is None or free >= LOW_SPACE):
        return ""
    left = "" if free is None else f": {human_bytes(free)} free on the output's file system"
    return f"No space left on device{left}"
