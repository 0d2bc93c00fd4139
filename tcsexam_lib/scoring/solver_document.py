"""The ``tcsexam solver-score`` output: its typed document (the published
``references/schemas/solver-output.schema.json`` is generated from it), the one module
writing its keys, and its tables for notebooks (``instances``, ``unscored``)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Annotated, Any, Literal

from ..documents import Doc, Record, field, frame
from ..jsonio import read_json

if TYPE_CHECKING:  # pragma: no cover - annotations only
    import pandas as pd

SCHEMA = "solver-output"


class InstanceRow(Record):
    """One scored instance: the candidate's value, the reference statistics, ``z`` and
    the instance score (a completed failure: no ``A``, no ``z``, score 0)."""

    SCHEMA = (SCHEMA, "/$defs/instance")
    instance: str
    status: str
    A: Annotated[float | None, Doc("the candidate's value (null for a completed failure)")]
    mu: Annotated[float, Doc("mean of the usable reference values")]
    s: Annotated[float, Doc("their sample std (ddof 1)")]
    scale: Annotated[float, Doc("max(s, rel_floor*|mu|, abs_floor)")]
    scale_term: Literal["sample_std", "relative_floor", "absolute_floor"]
    z: Annotated[float | None, Doc("null for a completed failure")]
    score: Annotated[float, Doc("Phi(z); 0 for a completed failure", ge=0, le=1)]
    A_reported: Annotated[Any, Doc("the A a completed failure's record gave (not scored)")] = None
    solved: bool | None = None


class UnscoredRow(Record):
    """A record outside the scored instances, kept with the reason it is not counted."""

    SCHEMA = (SCHEMA, "/$defs/unscored")
    instance: str
    status: str
    reason: str
    A: float | bool | None = None
    solved: bool | None = None


class ReferenceFile(Record):
    """The reference file a solver-score output was scored against, as provenance records it."""

    SCHEMA = (SCHEMA, "/$defs/reference_file")
    sha256: Annotated[str | None, Doc("the sha256 of the reference file, or null")] = None


class SolverProvenance(Record):
    """What the solver evidence check reads of a solver-score output's provenance."""

    SCHEMA = (SCHEMA, "/$defs/solver_provenance")
    reference: ReferenceFile = None


class SolverDocument(Record):
    """A ``tcsexam solver-score`` output: ``relative_score``, the mean instance score in
    [0, 1] (higher is better; 0.5 = as good as the reference mean).

    >>> from tcsexam_lib.teaching import teaching_reference, worked_example_records
    >>> from tcsexam_lib import score_solver_task
    >>> document = score_solver_task(
    ...     teaching_reference(), "maxcut-mqlib", worked_example_records())
    >>> document.relative_score, document.rows[0].scale_term
    (0.25, 'sample_std')
    >>> document.instances[["instance", "status", "score"]].values.tolist()
    [['example-1', 'ok', 0.5], ['example-2', 'timeout', 0.0]]
    """

    SCHEMA = (SCHEMA, "")
    TITLE = "A tcsexam solver-score output (as solver evidence: with its model and attempt)"
    DESCRIPTION = (
        "Everything tcsexam solver-score writes; the kit's typed document "
        "tcsexam_lib.scoring.solver_document.SolverDocument, from which this schema is "
        "generated (make schemas). As solver evidence (tcsexam score --solver-evidence, the "
        "report runner) an output must name its model and attempt (tcsexam solver-score "
        "--model --attempt): they are required here, and optional in an output written "
        "without them. Further fields are allowed and ignored by readers."
    )
    #: Required by the published schema, which is what solver evidence must be (it names
    #: its model and attempt); solver-score writes them only when given.
    EVIDENCE_REQUIRED = ("model", "attempt")
    model: Annotated[str, Doc("the model id (tcsexam solver-score --model)", min_length=1)] = None
    attempt: Annotated[
        str, Doc("the attempt id (tcsexam solver-score --attempt)", min_length=1)
    ] = None
    task: Annotated[str, Doc("the solver task id", min_length=1)]
    reference_id: Annotated[str, Doc("the reference id it was scored against", min_length=1)]
    suite: Annotated[str, Doc("the suite of the reference file")] = None
    kind: Literal["objective", "solve"] = None
    direction: Literal["maximize", "minimize"] = None
    scale_floor_relative: Annotated[float, Doc("the reference's relative floor")] = None
    scale_floor_absolute: Annotated[float, Doc("the reference's absolute floor")] = None
    relative_score: Annotated[float, Doc("a relative score in [0, 1]", ge=0, le=1)]
    n_scored: Annotated[int, Doc("scored reference instances", ge=0)] = None
    n_records: Annotated[int, Doc("records read", ge=0)] = None
    rows: Annotated[list[InstanceRow], Doc("one row per scored instance, in record order")] = field(
        key="instances", default=None
    )
    unscored_rows: Annotated[
        list[UnscoredRow], Doc("records outside the scored set, with the reason")
    ] = field(key="unscored_instances", default=None)
    simulated: Annotated[bool, Doc("true when scored against a simulated (demo) reference")] = False
    provenance: SolverProvenance = None

    @classmethod
    def schema_extra(cls) -> dict[str, Any]:
        """As solver evidence, an output names its model and attempt (see ``DESCRIPTION``)."""
        fields = cls.fields()
        keys = [k for k, f in fields.items() if not f.optional or k in cls.EVIDENCE_REQUIRED]
        return {"required": keys}

    @property
    def reference_sha256(self) -> str | None:
        """The sha256 of the reference file its provenance records, if any."""
        reference = (self.provenance or {}).get("reference") or {}
        return reference.get("sha256")

    def set_provenance(self, provenance: dict[str, Any]) -> None:
        """The provenance block (it closes the document)."""
        self.data["provenance"] = provenance

    def mark_simulated(self) -> None:
        """Say that the reference is simulated (demo) data."""
        self.data["simulated"] = True

    @property
    def instances(self) -> pd.DataFrame:
        """One row per scored instance: status, ``A``, ``mu``, ``s``, ``scale``, its term,
        ``z``, score (and task, model, attempt)."""
        return self._rows_frame(self.rows, InstanceRow)

    @property
    def unscored(self) -> pd.DataFrame:
        """One row per record outside the scored instances, with the reason.

        >>> from tcsexam_lib.teaching import teaching_reference, worked_example_records
        >>> from tcsexam_lib import score_solver_task
        >>> records = [*worked_example_records(), {"instance": "new", "status": "ok", "A": 3}]
        >>> document = score_solver_task(teaching_reference(), "maxcut-mqlib", records)
        >>> document.unscored[["instance", "status", "A"]].values.tolist()
        [['new', 'ok', 3]]
        """
        return self._rows_frame(self.unscored_rows, UnscoredRow)

    def _rows_frame(self, rows: list[Record], record: type[Record]) -> pd.DataFrame:
        head = {"model": self.model, "attempt": self.attempt, "task": self.task}
        rows = [{**head, **row.data} for row in rows]
        return frame(rows, [*head, *record.fields()], index=["task", "instance"], further=True)


def assemble_solver_output(
    *,
    model: str | None,
    attempt: str | None,
    task: str,
    reference: Any,
    kind: str,
    direction: str,
    relative_score: float,
    n_records: int,
    rows: list[dict[str, Any]],
    unscored_rows: list[dict[str, Any]],
) -> SolverDocument:
    """The solver-score output of one task (``model`` and ``attempt`` when given)."""
    data: dict[str, Any] = {}
    if model is not None:
        data["model"] = model
    if attempt is not None:
        data["attempt"] = str(attempt)
    data.update(
        {
            "task": task,
            "reference_id": reference.reference_id,
            "suite": reference.suite,
            "kind": kind,
            "direction": direction,
            "scale_floor_relative": reference.scale_floor_relative,
            "scale_floor_absolute": reference.scale_floor_absolute,
            "relative_score": relative_score,
            "n_scored": len(rows),
            "n_records": n_records,
            "instances": rows,
            "unscored_instances": unscored_rows,
        }
    )
    return SolverDocument(data)


def as_solver_document(output: SolverDocument | dict[str, Any]) -> SolverDocument:
    """A solver-score output as a document (its parsed JSON is wrapped, not copied)."""
    return output if isinstance(output, SolverDocument) else SolverDocument(output)


def load_solver_output(path: str | os.PathLike[str]) -> SolverDocument:
    """Read a ``tcsexam solver-score`` output (strict JSON) as a :class:`SolverDocument`."""
    return SolverDocument(read_json(path))
