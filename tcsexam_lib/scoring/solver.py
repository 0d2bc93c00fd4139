"""Solver relative score of one task against a fixed reference (the formula:
:mod:`tcsexam_lib.formulas`); the records checked against their schema, then
:data:`~tcsexam_lib.references.record_rules.SCORING_RULES`, and scored as columns."""

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
    """Score one task's instance records against a reference: a :class:`SolverDocument`
    whose ``relative_score`` is the mean instance score in [0, 1] (higher is better, 0.5 =
    as good as the reference mean), every record in a row or ``unscored_instances``.

    Integers beyond 2**53 are exact. Refuses (naming every instance) missing or duplicate
    instances, infrastructure or unknown statuses, an ``ok`` record without a usable value,
    ``solved`` on an objective task.

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
