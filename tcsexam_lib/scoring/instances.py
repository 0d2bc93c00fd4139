"""A task's instance records, checked and scored as columns (every candidate at once,
:func:`~tcsexam_lib.formulas.instance_scores`), turned into the output's rows."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import compress
from typing import Any

import numpy as np

from ..gcpause import no_collections
from ..references.model import Reference, TaskReference
from ..references.records import ABSENT, TaskRecords

#: The fields of a record that the output rows hold under their own names.
OWN_FIELDS = frozenset({"instance", "status", "A", "solved"})


def instance_rows(
    data: TaskRecords, reference: Reference
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[float]]:
    """The output rows of the scored instances (record order, with reference statistics,
    ``z`` and score; a completed failure scores 0, no ``z``) and of the others (with the
    reason they are not counted), and the scores; ``data`` passed every scoring rule."""
    records, columns, task_ref = data.records, data.columns, data.task
    in_scored = data.matched[0]
    names, statuses = columns.names, columns.statuses
    if in_scored is not None:  # the scored records only, in record order
        names, statuses = list(compress(names, in_scored)), list(compress(statuses, in_scored))
    stats = data.instance_stats[2]
    ok = data.scored_wanted
    zs, scores = data.z_and_scores
    candidates = data.candidates
    if data.exact_candidates:  # output A as the record gives it: an int beyond 2**53 exact
        candidates = candidates.astype(object)
        for k, value, _ in data.exact_candidates:
            candidates[k] = value
    if ok.all():
        values, z_values, score_values = candidates.tolist(), zs.tolist(), scores.tolist()
    else:  # a completed failure has no A and no z, and scores 0
        values, z_values = np.full(len(ok), None, dtype=object), np.full(len(ok), None, object)
        values[ok], z_values[ok] = candidates, zs
        score_values = np.zeros(len(ok))
        score_values[ok] = scores
        values, z_values, score_values = values.tolist(), z_values.tolist(), score_values.tolist()
    with no_collections():  # the rows hold no reference cycles
        rows = _scored_rows(names, statuses, values, *stats, z_values, score_values)
    _add_record_fields(records, in_scored, rows, columns.fields, columns.values, ok)
    unscored_rows = (
        []
        if in_scored is None
        else [
            _unscored_row(record, task_ref, reference)
            for record, scored in zip(records, in_scored, strict=True)
            if not scored
        ]
    )
    return rows, unscored_rows, score_values


def _scored_rows(*columns: list[Any]) -> list[dict[str, Any]]:
    """The rows of the scored instances from their columns (failures: no A, no z, score 0)."""
    return [
        {
            "instance": name,
            "status": status,
            "A": value,
            "mu": mu,
            "s": s,
            "scale": scale,
            "scale_term": term,
            "z": z,
            "score": score,
        }
        for name, status, value, mu, s, scale, term, z, score in zip(*columns, strict=True)
    ]


def _add_record_fields(
    records: list[dict[str, Any]],
    in_scored: list[bool] | None,
    rows: list[dict[str, Any]],
    fields: frozenset[str],
    values: list[Any],
    ok: np.ndarray,
) -> None:
    """Add to each scored row a failure's reported ``A``, ``solved`` and further fields
    (``in_scored``: which records are scored, ``None`` all; ``ok``: valid candidates)."""
    further = fields - {"instance", "status", "A"}
    if not further and "A" not in fields:
        return
    # row k is record scored[k]
    scored = None if in_scored is None else list(compress(range(len(records)), in_scored))
    rows_to_visit: Iterable[int] = range(len(rows))
    if not further:  # only the reported A of a completed failure that has one
        rows_to_visit = [
            k
            for k in np.flatnonzero(~ok).tolist()
            if values[k if scored is None else scored[k]] is not ABSENT
        ]
    for k in rows_to_visit:
        row, record = rows[k], records[k if scored is None else scored[k]]
        if row["z"] is None and "A" in record:
            row["A_reported"] = record["A"]
        if further:
            if "solved" in record:
                row["solved"] = record["solved"]
            keep_extra_fields(row, record)


def keep_extra_fields(row: dict[str, Any], record: dict[str, Any]) -> None:
    """Copy a record's further fields into its row; one the kit computes (``score``,
    ``mu``...) becomes ``record_<name>``, so a judge's ``score`` never changes the score."""
    for key, value in record.items():
        if key not in OWN_FIELDS:
            row[f"record_{key}" if key in row else key] = value


def _unscored_row(
    record: dict[str, Any], task_ref: TaskReference, reference: Reference
) -> dict[str, Any]:
    """The row of a record outside the scored set, with the reason it is not counted."""
    name = record["instance"]
    reason = task_ref.unscored.get(name)
    if reason is None:
        reason = (
            f"not an instance of task '{task_ref.name}' in reference '{reference.reference_id}'"
        )
    else:
        reason = f"listed in unscored_reference_instances: {reason}"
    row = {
        "instance": name,
        "status": record["status"],
        "reason": reason,
        **{k: record[k] for k in ("A", "solved") if k in record},
    }
    keep_extra_fields(row, record)
    return row
