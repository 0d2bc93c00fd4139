"""The ``tcsexam solver-score`` output: its typed document, how it is assembled, its tables.

:class:`SolverDocument` with :class:`InstanceRow` and :class:`UnscoredRow` declares the
output's shape once, checked against ``references/schemas/solver-output.schema.json`` by
a test. This is the one module that writes the document's keys
(:func:`assemble_solver_output` and the document's methods); every other module reads it
by attribute. For notebooks: :attr:`SolverDocument.instances` (one row per scored
instance) and :attr:`SolverDocument.unscored` (one row per record kept aside).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ..documents import Record, field, frame
from ..jsonio import read_json

if TYPE_CHECKING:  # pragma: no cover - annotations only
    import pandas as pd

SCHEMA = "solver-output"


class InstanceRow(Record):
    """One scored instance: the candidate's value, the reference statistics, ``z`` and
    the instance score (a completed failure: no ``A``, no ``z``, score 0)."""

    SCHEMA = (SCHEMA, "/$defs/instance")
    instance: str = field()
    status: str = field()
    A: float | None = field()
    mu: float = field()
    s: float = field()
    scale: float = field()
    scale_term: str = field()
    z: float | None = field()
    score: float = field()
    A_reported: Any = field(default=None)
    solved: bool | None = field(default=None)


class UnscoredRow(Record):
    """A record outside the scored instances, kept with the reason it is not counted."""

    SCHEMA = (SCHEMA, "/$defs/unscored")
    instance: str = field()
    status: str = field()
    reason: str = field()
    A: Any = field(default=None)
    solved: bool | None = field(default=None)


class SolverDocument(Record):
    """A ``tcsexam solver-score`` output: one task's relative score against a reference.

    ``relative_score`` is the mean instance score over the scored instances, in [0, 1]
    (higher is better; 0.5 = as good as the reference mean).

    Examples
    --------
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
    model: str | None = field(default=None)
    attempt: str | None = field(default=None)
    task: str = field()
    reference_id: str = field()
    suite: str = field()
    kind: str = field()
    direction: str = field()
    scale_floor_relative: float = field()
    scale_floor_absolute: float = field()
    relative_score: float = field()
    n_scored: int = field()
    n_records: int = field()
    rows: list[InstanceRow] = field(InstanceRow, shape="list", key="instances")
    unscored_rows: list[UnscoredRow] = field(UnscoredRow, shape="list", key="unscored_instances")
    simulated: bool = field(default=False)
    provenance: dict[str, Any] | None = field(default=None)

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
        ``z`` and the score (with the task and, when recorded, the model and attempt)."""
        return self._rows_frame(self.rows, InstanceRow)

    @property
    def unscored(self) -> pd.DataFrame:
        """One row per record outside the scored instances, with the reason.

        Examples
        --------
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
