"""Cross-checking solver rows of the attempts table against solver-score outputs.

An evidence folder holds ``tcsexam solver-score`` outputs (any layout; the kit's
runner writes ``<model>/<task>/<attempt>.json``), each naming its ``model``,
``task`` and ``attempt``. Every adopted ``valid`` solver row of the attempts table must have
one output with the same score (within :data:`SCORE_TOLERANCE`) computed against the
cohort's reference. A missing output, another score or another reference id is an
issue in the index output; the row keeps its place and nothing is replaced.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import pandas as pd

from .errors import InputRefused, Problem
from .jsonio import read_json
from .vocab import ADOPTED_STATUSES

#: Largest absolute difference accepted between a table score and its evidence.
SCORE_TOLERANCE = 1e-9


def index_solver_outputs(evidence_dir: str | os.PathLike[str]) -> dict[tuple[str, str, str], Any]:
    """Map ``(model, task, attempt)`` to ``(path, output)`` for every output under a folder.

    Files that are not solver-score outputs naming a model and an attempt are refused,
    as are two outputs for the same key.
    """
    folder = Path(evidence_dir)
    if not folder.is_dir():
        raise InputRefused(
            "Solver evidence folder not found", [Problem(str(folder), detail="no such folder")]
        )
    found: dict[tuple[str, str, str], Any] = {}
    problems = []
    for path in sorted(folder.rglob("*.json")):
        data = read_json(path)
        keys = ("model", "task", "attempt", "relative_score", "reference_id")
        if not isinstance(data, dict) or any(k not in data for k in keys):
            problems.append(
                Problem(
                    str(path),
                    detail="not a solver-score output with model and "
                    "attempt (run tcsexam solver-score with --model and --attempt)",
                    allowed="fields " + ", ".join(keys),
                )
            )
            continue
        key = (str(data["model"]), str(data["task"]), str(data["attempt"]))
        if key in found:
            problems.append(
                Problem(
                    str(path),
                    detail=f"second output for model '{key[0]}' task "
                    f"'{key[1]}' attempt '{key[2]}' (first: {found[key][0]})",
                )
            )
            continue
        found[key] = (path, data)
    if problems:
        raise InputRefused.from_problems(f"Solver evidence in {folder} refused", problems)
    return found


def check_solver_evidence(
    attempts: pd.DataFrame,
    evidence_dir: str | os.PathLike[str],
    *,
    reference_id: str,
    reference_sha256: str | None = None,
) -> dict[str, dict[str, Any]]:
    """Check each adopted ``valid`` solver row against its solver-score output.

    An adopted row that is not ``valid`` has no score to check (the index already
    reports it as an ``error``), so it needs no output.

    Returns, per model, ``{"summary": {...}, "issues": [...]}`` with issue codes
    ``solver_evidence_missing``, ``solver_evidence_score_mismatch`` and
    ``solver_evidence_reference_mismatch`` (another reference id, or, when
    ``reference_sha256`` is given, the same id but another reference file: the output's
    provenance records a different sha256).
    """
    outputs = index_solver_outputs(evidence_dir)
    solver_rows = attempts[
        (attempts["track"] == "solver")
        & attempts["adoption_status"].isin(ADOPTED_STATUSES)
        & (attempts["score_status"] == "valid")
    ]
    per_model: dict[str, dict[str, Any]] = {}
    for _, row in solver_rows.iterrows():
        model, item, attempt = row["model"], row["item"], str(row["attempt"])
        entry = per_model.setdefault(
            model,
            {
                "summary": {
                    "evidence_dir": str(evidence_dir),
                    "rows_checked": 0,
                    "matched": 0,
                    "missing": 0,
                    "score_mismatch": 0,
                    "reference_mismatch": 0,
                },
                "issues": [],
            },
        )
        summary = entry["summary"]
        summary["rows_checked"] += 1
        where = f"{model}/solver/{item} attempt '{attempt}' (line {row['line']})"
        base = {
            "severity": "error",
            "model": model,
            "track": "solver",
            "item": item,
            "attempt": attempt,
            "line": int(row["line"]),
        }
        found = outputs.get((model, item, attempt))
        if found is None:
            summary["missing"] += 1
            entry["issues"].append(
                {
                    "code": "solver_evidence_missing",
                    **base,
                    "message": f"{where}: no solver-score output in {evidence_dir}",
                }
            )
            continue
        path, output = found
        ok = True
        if output["reference_id"] != reference_id:
            ok = False
            summary["reference_mismatch"] += 1
            entry["issues"].append(
                {
                    "code": "solver_evidence_reference_mismatch",
                    **base,
                    "evidence": str(path),
                    "message": f"{where}: {path} was scored against reference "
                    f"'{output['reference_id']}', the cohort declares "
                    f"'{reference_id}'",
                }
            )
        else:
            recorded_sha = ((output.get("provenance") or {}).get("reference") or {}).get("sha256")
            if reference_sha256 is not None and recorded_sha != reference_sha256:
                ok = False
                summary["reference_mismatch"] += 1
                entry["issues"].append(
                    {
                        "code": "solver_evidence_reference_mismatch",
                        **base,
                        "evidence": str(path),
                        "message": f"{where}: {path} was scored against a reference file with "
                        f"sha256 {recorded_sha}, not the cohort's '{reference_id}' file "
                        f"(sha256 {reference_sha256}): same id, other values",
                    }
                )
        table_score = row["score"]
        if row["score_status"] == "valid" and not (
            isinstance(table_score, float)
            and math.isfinite(table_score)
            and abs(table_score - float(output["relative_score"])) <= SCORE_TOLERANCE
        ):
            ok = False
            summary["score_mismatch"] += 1
            entry["issues"].append(
                {
                    "code": "solver_evidence_score_mismatch",
                    **base,
                    "evidence": str(path),
                    "table_score": table_score,
                    "evidence_score": output["relative_score"],
                    "message": f"{where}: table score {table_score!r} differs "
                    f"from relative_score {output['relative_score']!r} in {path}",
                }
            )
        if ok:
            summary["matched"] += 1
    return per_model
