"""Solver relative score of one task against a fixed reference.

For each scored reference instance with mean ``mu``, sample standard deviation ``s``
and ``scale = max(s, rel_floor*|mu|, abs_floor)``, a valid candidate value ``A``
scores ``Phi(z)`` with ``z = (A - mu)/scale`` (maximise) or ``z = (mu - A)/scale``
(minimise). Higher is better: 0.5 means "as good as the reference mean", values
near 1 beat it by several reference spreads. Completed solver failures score 0.
The task's ``relative_score`` is the mean over the scored instances, in [0, 1].

The records are checked against their schema, then against every rule of
:data:`~tcsexam_lib.references.record_rules.SCORING_RULES` (the fast tests read them as
columns; a refused set of records is explained record by record, naming every problem),
and scored as columns (:mod:`.instances`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import InputRefused, Problem
from ..formulas import relative_score
from ..references.model import Reference
from ..references.record_rules import SCORING_RULES
from ..references.records import (
    RECORDS_SCHEMA_RULES,
    RecordsDocument,
    TaskRecords,
    describe_record_path,
)
from ..schemas import refuse_document
from .instances import instance_rows
from .solver_document import SolverDocument, assemble_solver_output


def score_solver_task(
    reference: Reference,
    task: str,
    records: Sequence[dict[str, Any]],
    *,
    source: str = "records",
    model: str | None = None,
    attempt: str | None = None,
) -> SolverDocument:
    """Score one task's instance records against a reference.

    Parameters
    ----------
    reference : Reference
        A loaded reference (see :func:`load_reference`).
    task : str
        The solver task id; it must be a task of the reference.
    records : list of dict
        One record per instance: ``instance``, ``status`` and the value ``A``
        (``solve`` tasks may give the boolean ``solved`` instead).
    source : str
        Name of the records file, used in messages.
    model, attempt : str, optional
        Whose records these are (recorded first in the output when given).

    Returns
    -------
    SolverDocument
        ``task``, ``reference_id``, ``kind``, ``direction``, ``relative_score`` (mean
        instance score in [0, 1]; higher is better, 0.5 = as good as the reference
        mean), ``n_scored``, per-instance rows (``instance``, ``status``, ``A``, ``mu``,
        ``s``, ``scale``, ``scale_term``, ``z``, ``score``) and ``unscored_instances``
        (records outside the scored set, with a reason). Every record appears once.

    JSON integers beyond 2**53 (in the records or the reference) are scored exactly
    (:func:`~tcsexam_lib.formulas.exact_z`), never rounded to floats first.

    Raises
    ------
    InputRefused
        Missing records for scored instances, duplicate instances, infrastructure or
        unknown statuses, an ``ok`` record without a usable value, ``solved`` on an
        objective task. The message names every offending instance.

    Examples
    --------
    The worked example of the scoring rules:

    >>> from tcsexam_lib import reference_from_data
    >>> ref = reference_from_data({
    ...     "reference_id": "example", "suite": "lite",
    ...     "scale_floor_relative": 0.02, "scale_floor_absolute": 1e-9,
    ...     "tasks": {"maxcut-mqlib": {"kind": "objective", "direction": "maximize",
    ...               "instances": {"example-1": [10, 12, 14], "example-2": [5, 7]}}},
    ...     "unscored_reference_instances": []})
    >>> out = score_solver_task(ref, "maxcut-mqlib", [
    ...     {"instance": "example-1", "status": "ok", "A": 12},
    ...     {"instance": "example-2", "status": "timeout"}])
    >>> out.relative_score, [row.score for row in out.rows]
    (0.25, [0.5, 0.0])
    """
    document = RecordsDocument(records, source, describe_record_path(records))
    refuse_document(RECORDS_SCHEMA_RULES, document, "records")
    if task not in reference.tasks:
        raise InputRefused(
            "Task is not in the reference",
            [
                Problem(
                    f"reference '{reference.reference_id}' ({reference.suite})",
                    field="task",
                    value=task,
                    allowed=", ".join(sorted(reference.tasks)),
                )
            ],
        )
    task_ref = reference.tasks[task]
    data = TaskRecords(records, task_ref, source, read_columns=document.columns)
    problems = SCORING_RULES.refusal(data)
    if problems:
        raise InputRefused.from_problems(f"Cannot score task '{task}' from {source}", problems)
    rows, unscored_rows, scores = instance_rows(data, reference)
    return assemble_solver_output(
        model=model,
        attempt=attempt,
        task=task,
        reference=reference,
        kind=task_ref.kind,
        direction=task_ref.direction,
        relative_score=relative_score(scores, len(rows)),
        n_records=len(records),
        rows=rows,
        unscored_rows=unscored_rows,
    )
