"""Provenance: what produced an output, so that anyone can check it later.

Every output of the kit carries a ``provenance`` block: the kit version, the metric
id, the reference id and the sha256 of the reference file, the sha256 of every input
file, and the command (or notebook parameters) that produced it.
"""

from __future__ import annotations

import datetime as _dt
import os
from functools import cache
from pathlib import Path
from typing import Any

from .jsonio import sha256_file
from .vocab import METRIC_ID


@cache
def kit_version() -> str:
    """The installed kit's version (``0.0.0+unknown`` when run from a plain checkout)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tcsexam-kit")
    except PackageNotFoundError:  # pragma: no cover - running from a plain checkout
        return "0.0.0+unknown"


def describe_inputs(
    inputs: dict[str, str | os.PathLike[str] | None], digests: dict[str, str] | None = None
) -> dict[str, Any]:
    """Path (as given, and resolved) and sha256 of each named input file.

    ``None`` entries are skipped. ``path`` is the path as the caller gave it (relative
    paths are relative to the provenance's ``cwd``); ``resolved`` is its absolute form.
    ``digests`` gives the sha256 of inputs already read (by role), so that a file is
    read once; the others are hashed here.
    """
    known = digests or {}
    described = {}
    for role, path in inputs.items():
        if path is None:
            continue
        described[role] = {
            "path": str(path),
            "resolved": str(Path(path).resolve()),
            "sha256": known.get(role) or sha256_file(path),
        }
    return described


def build_provenance(
    *,
    producer: str,
    parameters: dict[str, Any],
    inputs: dict[str, str | os.PathLike[str] | None],
    reference_id: str | None,
    reference_path: Path | None,
    reference_sha256: str | None,
    entry_point: str | None = None,
    references_dir: str | os.PathLike[str] | None = None,
    digests: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The provenance block of an output.

    ``producer`` names the command (``tcsexam solver-score``) or the notebook;
    ``parameters`` are its arguments, enough to run it again: relative paths in them
    are relative to ``cwd``, the working folder of the run. ``entry_point`` names the
    library function that computed the output (``tcsexam verify`` calls it again) and
    ``references_dir`` the references folder actually used (absolute). ``digests``:
    see :func:`describe_inputs`.
    """
    return {
        "kit": "tcsexam-kit",
        "kit_version": kit_version(),
        "metric_id": METRIC_ID,
        "producer": producer,
        "entry_point": entry_point,
        "cwd": os.getcwd(),
        "parameters": {
            k: (str(v) if isinstance(v, os.PathLike) else v) for k, v in parameters.items()
        },
        "references_dir": None if references_dir is None else str(Path(references_dir).resolve()),
        "reference": {
            "reference_id": reference_id,
            "path": None if reference_path is None else str(reference_path),
            "resolved": None if reference_path is None else str(Path(reference_path).resolve()),
            "sha256": reference_sha256,
        },
        "inputs": describe_inputs(inputs, digests),
        "created_utc": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
