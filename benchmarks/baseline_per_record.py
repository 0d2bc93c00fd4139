"""The benchmark's baseline: the kit's earlier per-record scoring loop (kit 0.1.0 before
the speed work), kept only to be timed beside the column-wise scoring of today.

It is the earlier ``score_solver_task`` restricted to what the benchmark's records hold
(an objective task, ``ok`` and ``timeout`` records, no field beyond ``instance``,
``status`` and ``A``): the records validated against their schema by the full validator,
then every record in turn (duplicate, status, value), its ``z`` and ``Phi(z)`` from the
scalar formulas, and its output row. Not used by the kit.
"""

from __future__ import annotations

import math
from typing import Any

import jsonschema

from tcsexam_lib.formulas import instance_score
from tcsexam_lib.schemas import load_schema
from tcsexam_lib.vocab import INFRASTRUCTURE_STATUSES, KNOWN_RECORD_STATUSES


def score_per_record(reference: Any, task: str, records: list[dict[str, Any]]) -> dict[str, Any]:
    """The relative score and rows of one objective task, one record at a time."""
    validator = jsonschema.Draft202012Validator(load_schema("records"))
    if list(validator.iter_errors(records)):
        raise ValueError("records refused")
    task_ref = reference.tasks[task]
    seen: dict[str, int] = {}
    rows = []
    for position, record in enumerate(records, start=1):
        name, status = record["instance"], record["status"]
        if name in seen or status not in KNOWN_RECORD_STATUSES or "solved" in record:
            raise ValueError(f"record #{position} refused")
        seen[name] = position
        stats = task_ref.scored.get(name)
        if stats is None or status in INFRASTRUCTURE_STATUSES:
            raise ValueError(f"record #{position} refused")
        row = {
            "instance": name,
            "status": status,
            "A": None,
            "mu": stats.mu,
            "s": stats.s,
            "scale": stats.scale,
            "scale_term": stats.scale_term,
            "z": None,
            "score": 0.0,
        }
        if status == "ok":
            a = record.get("A")
            if isinstance(a, bool) or not isinstance(a, int | float) or not math.isfinite(a):
                raise ValueError(f"record #{position} refused")
            row["A"] = float(a)
            row["z"], row["score"] = instance_score(row["A"], stats, task_ref.direction)
        rows.append(row)
    return {"relative_score": math.fsum(row["score"] for row in rows) / len(rows), "rows": rows}
