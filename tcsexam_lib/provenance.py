"""The provenance block of every output: kit version, metric id, reference id and sha256,
every input's sha256, the command or parameters, and the environment."""

from __future__ import annotations

import datetime as _dt
import os
from pathlib import Path
from typing import Annotated, Any, Literal, Protocol

from .digests import sha256_file
from .documents import Doc, Record, Sha256
from .environment import COMPUTATION_PATH, Environment, describe_environment
from .paths import resolve_references_dir
from .version import VERSION
from .vocab import METRIC_ID


class ReferenceFile(Protocol):
    """What provenance records of a loaded solver reference: its id, file and sha256."""

    reference_id: str
    path: Path | None
    sha256: str | None


Text = Annotated[str, Doc("text", min_length=1)]
TextOrNull = Annotated[str | None, Doc("text or null")]
WholeNumber = Annotated[int, Doc("a whole number")]


class SolverScoreParameters(Record):
    """The parameters ``run_solver_score`` is called again with."""

    task: Text
    records: Text
    reference: Text
    reference_id: TextOrNull = None
    references_dir: TextOrNull = None
    model: TextOrNull = None
    attempt: TextOrNull = None


class ScoreParameters(Record):
    """The parameters ``run_score`` is called again with."""

    suite: Text
    attempts: Text
    cohort: Text
    references_dir: TextOrNull = None
    solver_evidence: TextOrNull = None


class StatsParameters(Record):
    """The parameters ``run_stats`` is called again with."""

    index: Text
    resamples: WholeNumber
    seed: WholeNumber
    level: Annotated[float, Doc("a number")]


class ModelIndexParameters(Record):
    """The parameters ``run_model_index`` is called again with."""

    index: Text
    model: Text


#: The library function ``tcsexam verify`` calls again, and the parameters it takes.
ENTRY_POINTS: dict[str, type[Record]] = {
    "run_solver_score": SolverScoreParameters,
    "run_score": ScoreParameters,
    "run_stats": StatsParameters,
    "run_model_index": ModelIndexParameters,
}


class ReferenceRecord(Record):
    """The reference an output was computed against (``None`` fields: from another output)."""

    SCHEMA = ("provenance", "/$defs/reference")
    reference_id: str | None = None
    path: Annotated[str | None, Doc("a file path (text) or null")] = None
    resolved: Annotated[str | None, Doc("a file path (text) or null")] = None
    sha256: Annotated[Sha256 | None, Doc("a sha256 in hex, or null")] = None


class InputRecord(Record):
    """An input file: its path as given, resolved, and the sha256 of its bytes."""

    SCHEMA = ("provenance", "/$defs/input")
    path: Annotated[str, Doc("a file path (text)", min_length=1)]
    resolved: str = None
    sha256: Annotated[Sha256, Doc("a sha256 in hex")]


class Provenance(Record):
    """The provenance block of an output (see :func:`build_provenance`)."""

    SCHEMA = ("provenance", "/$defs/provenance")
    kit: str = None
    kit_version: str = None
    metric_id: str = None
    producer: str = None
    entry_point: Annotated[
        Literal[(*ENTRY_POINTS, None)],
        Doc(
            "run_solver_score, run_score, run_stats or run_model_index (a model's entry of an "
            "index, alone)"
        ),
    ] = None
    cwd: Annotated[str | None, Doc("the working folder of the run (text)")] = None
    parameters: dict[str, Annotated[str | int | float | None, Doc("text, a number or null")]]
    references_dir: Annotated[str | None, Doc("a folder path (text) or null")] = None
    reference: ReferenceRecord = None
    inputs: dict[str, InputRecord]
    environment: Environment = None
    created_utc: str = None
    paths_relative_to: Annotated[
        Literal["output_folder"], Doc("output_folder: every path is relative to it")
    ] = None

    @classmethod
    def schema_extra(cls) -> dict[str, Any]:
        """The parameters each entry point is called again with (``if``/``then``)."""
        from .schemas import inline_schema

        rules = []
        for name, parameters in ENTRY_POINTS.items():
            check = {"properties": {"entry_point": {"const": name}}, "required": ["entry_point"]}
            shape = inline_schema(parameters)
            shape.pop("type")
            rules.append({"if": check, "then": {"properties": {"parameters": shape}}})
        return {"allOf": rules}


class OutputWithProvenance(Record):
    """Any output of the kit, as ``tcsexam verify`` reads it: its provenance block."""

    SCHEMA = ("provenance", "")
    TITLE = "The provenance block of a kit output, as tcsexam verify reads it"
    DESCRIPTION = (
        "tcsexam verify recomputes an output (of tcsexam solver-score, score or stats) from "
        "its provenance: the library function (entry_point), its parameters, the working "
        "folder they are relative to, the references folder, the reference file and every "
        "input file with its sha256, and the environment it was computed in (compared by "
        "tcsexam verify, never a cause of MISMATCH by itself)."
    )
    provenance: Provenance


def kit_version() -> str:
    """The kit's version (the packaging metadata reads the same constant)."""
    return VERSION


def created_utc() -> str:
    """When an output is made, in UTC to the second: now, or ``$SOURCE_DATE_EPOCH`` (for
    byte-identical files from two runs).

    >>> import os
    >>> os.environ["SOURCE_DATE_EPOCH"] = "0"; created_utc()
    '1970-01-01T00:00:00Z'
    >>> del os.environ["SOURCE_DATE_EPOCH"]
    """
    epoch = source_date_epoch()
    moment = (
        _dt.datetime.now(_dt.UTC) if epoch is None else _dt.datetime.fromtimestamp(epoch, _dt.UTC)
    )
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def source_date_epoch() -> int | None:
    """``$SOURCE_DATE_EPOCH`` (whole seconds since 1970), or ``None`` when it is not set."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    return int(epoch) if epoch.isdigit() else None


#: An input file: its path, or its path and the sha256 of the bytes already read.
InputFile = str | os.PathLike[str] | tuple[str | os.PathLike[str], str | None] | None


def describe_inputs(
    inputs: dict[str, InputFile], base_dir: str | os.PathLike[str] | None = None
) -> dict[str, Any]:
    """Path as given (relative to ``base_dir``), resolved path and sha256 of each input;
    ``None`` skipped, a ``(path, sha256)`` already hashed."""
    described = {}
    for role, entry in inputs.items():
        path, digest = entry if isinstance(entry, tuple) else (entry, None)
        if path is None:
            continue
        full = Path(path) if base_dir is None else Path(base_dir, path)
        described[role] = {
            "path": str(path),
            "resolved": str(full.resolve()),
            "sha256": digest or sha256_file(full),
        }
    return described


def build_provenance(
    producer: str,
    entry_point: str | None,
    parameters: dict[str, Any],
    inputs: dict[str, InputFile],
    reference: ReferenceFile | str | None,
    *,
    base_dir: str | os.PathLike[str] | None = None,
) -> dict[str, Any]:
    """The provenance block of an output.

    ``entry_point``: the function ``tcsexam verify`` calls again with ``parameters``.
    Relative paths are relative to ``cwd`` (``base_dir``, else the working folder), a given
    ``references_dir`` absolute; ``reference`` only by id when computed from another output.
    """
    references_dir = None
    if "references_dir" in parameters:
        references_dir = str(resolve_references_dir(parameters["references_dir"]).resolve())
    if isinstance(reference, str):
        reference_id, path, digest = reference, None, None
    elif reference is None:
        reference_id, path, digest = None, None, None
    else:
        reference_id, path, digest = reference.reference_id, reference.path, reference.sha256
    return {
        "kit": "tcsexam-kit",
        "kit_version": kit_version(),
        "metric_id": METRIC_ID,
        "producer": producer,
        "entry_point": entry_point,
        "cwd": os.getcwd() if base_dir is None else str(Path(base_dir).resolve()),
        "parameters": {
            k: (str(v) if isinstance(v, os.PathLike) else v) for k, v in parameters.items()
        },
        "references_dir": references_dir,
        "reference": {
            "reference_id": reference_id,
            "path": None if path is None else str(path),
            "resolved": None if path is None else str(Path(path).resolve()),
            "sha256": digest,
        },
        "inputs": describe_inputs(inputs, base_dir),
        "environment": describe_environment(
            entry_point if entry_point in COMPUTATION_PATH else "report"
        ),
        "created_utc": created_utc(),
    }


#: Marker of a provenance block whose paths are relative to the output file's folder.
RELATIVE_TO_OUTPUT = "output_folder"


def _relative_text(value: Any, folder: Path) -> Any:
    """An absolute path string made relative to ``folder`` (POSIX); anything else as is."""
    if isinstance(value, os.PathLike):
        value = str(value)
    if isinstance(value, str) and value and os.path.isabs(value):  # os.path: 1,600 a run
        return os.path.relpath(value, folder).replace(os.sep, "/")
    return value


def relative_provenance(
    provenance: dict[str, Any], folder: str | os.PathLike[str]
) -> dict[str, Any]:
    """The provenance block with every absolute path relative to ``folder``, the output's
    folder (published reports must not show the machine's folders).

    >>> block = {"cwd": "/home/me/kit", "parameters": {"attempts": "/home/me/kit/a.csv",
    ...          "suite": "lite"}, "references_dir": "/home/me/kit/references",
    ...          "reference": {"path": None, "resolved": None},
    ...          "inputs": {"attempts": {"path": "/home/me/kit/a.csv",
    ...                                  "resolved": "/home/me/kit/a.csv", "sha256": "x"}}}
    >>> out = relative_provenance(block, "/home/me/kit/build/reports/lite-offline")
    >>> out["cwd"], out["parameters"]["attempts"], out["parameters"]["suite"]
    ('.', '../../../a.csv', 'lite')
    >>> out["inputs"]["attempts"]["resolved"], out["paths_relative_to"]
    ('../../../a.csv', 'output_folder')
    """
    folder = Path(folder).resolve()
    out = dict(provenance)
    out["cwd"] = "."
    out["paths_relative_to"] = RELATIVE_TO_OUTPUT
    out["parameters"] = {
        key: _relative_text(value, folder) for key, value in provenance["parameters"].items()
    }
    out["references_dir"] = _relative_text(provenance.get("references_dir"), folder)
    out["reference"] = {
        key: _relative_text(value, folder) if key in ("path", "resolved") else value
        for key, value in (provenance.get("reference") or {}).items()
    }
    out["inputs"] = {
        role: {
            key: _relative_text(value, folder) if key in ("path", "resolved") else value
            for key, value in described.items()
        }
        for role, described in (provenance.get("inputs") or {}).items()
    }
    return out
