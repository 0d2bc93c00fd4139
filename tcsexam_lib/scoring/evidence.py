"""Cross-checking solver rows of the attempts table against solver-score outputs.

Every adopted ``valid`` solver row needs one output with the same score (within
:data:`SCORE_TOLERANCE`) against the cohort's reference, else an ``error`` that blocks the
model's index.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputRefused, Problem
from ..jsonio import read_json_with_digest
from ..schemas import schema_accepts, schema_errors, schema_problem
from ..vocab import ADOPTED_STATUSES
from .attempts import AttemptRows
from .issues import Issue
from .solver_document import SolverDocument

#: The schema every solver-score output of an evidence folder is checked against.
SOLVER_OUTPUT_SCHEMA = "solver-output"

#: Largest absolute difference accepted between a table score and its evidence.
SCORE_TOLERANCE = 1e-9

#: The issue code of a table score that is not its solver-score output's (the one check).
SCORE_MISMATCH = "solver_evidence_score_mismatch"


@dataclass(frozen=True)
class SolverOutput:
    """One solver-score output of an evidence folder: where it is, its bytes' sha256, its data."""

    path: Path
    sha256: str
    data: dict[str, Any]

    @property
    def document(self) -> SolverDocument:
        """The output, read by attribute."""
        return SolverDocument(self.data)


def read_solver_outputs(
    evidence_dir: str | os.PathLike[str],
) -> dict[tuple[str, str, str], SolverOutput]:
    """Map ``(model, task, attempt)`` to the output of every file under an evidence folder;
    a file that is not such an output, or a second output for a key, is refused."""
    folder = Path(evidence_dir)
    if not folder.is_dir():
        raise InputRefused(
            "Solver evidence folder not found", [Problem(str(folder), detail="no such folder")]
        )
    found: dict[tuple[str, str, str], SolverOutput] = {}
    problems = []
    for path in sorted(folder.rglob("*.json")):
        data, digest = read_json_with_digest(path)
        if not schema_accepts(data, SOLVER_OUTPUT_SCHEMA):
            problems.append(
                Problem(
                    str(path),
                    detail="not a solver-score output with model and attempt (run tcsexam "
                    "solver-score with --model and --attempt)",
                    allowed=f"an output matching references/schemas/{SOLVER_OUTPUT_SCHEMA}"
                    ".schema.json",
                )
            )
            problems.extend(
                schema_problem(error, str(path))
                for error in schema_errors(data, SOLVER_OUTPUT_SCHEMA)
            )
            continue
        document = SolverDocument(data)
        key = (document.model, document.task, document.attempt)
        if key in found:
            problems.append(
                Problem(
                    str(path),
                    detail=f"second output for model '{key[0]}' task "
                    f"'{key[1]}' attempt '{key[2]}' (first: {found[key].path})",
                )
            )
            continue
        found[key] = SolverOutput(path, digest, data)
    if problems:
        raise InputRefused.from_problems(f"Solver evidence in {folder} refused", problems)
    return found


@dataclass(frozen=True)
class EvidenceFindings:
    """What the evidence check found: ``summaries`` (each model's counts) and ``issues``
    (each disagreeing row, in table order, an ``error``)."""

    evidence_dir: str
    summaries: dict[str, dict[str, Any]]
    issues: list[Issue]

    @property
    def consistent(self) -> bool:
        """True when every checked row matched its output."""
        return not self.issues


def check_solver_evidence(
    attempts: AttemptRows,
    outputs: dict[tuple[str, str, str], SolverOutput],
    *,
    evidence_dir: str | os.PathLike[str],
    reference_id: str,
    reference_sha256: str | None = None,
) -> EvidenceFindings:
    """Check each adopted ``valid`` solver row against its solver-score output.

    Issue codes: ``solver_evidence_missing``, ``solver_evidence_score_mismatch`` and
    ``solver_evidence_reference_mismatch`` (another reference id, or another file with
    ``reference_sha256``); each blocks the model's index.
    """
    solver_rows = [
        (model, item, row)
        for (model, track, item), row in zip(attempts.keys(), attempts.rows, strict=True)
        if track == "solver"
        and row["adoption_status"] in ADOPTED_STATUSES
        and row["score_status"] == "valid"
    ]
    summaries: dict[str, dict[str, Any]] = {}
    found_issues: list[Issue] = []
    for model, item, row in solver_rows:
        attempt = row["attempt"]
        summary = summaries.setdefault(model, empty_evidence_summary(evidence_dir))
        issues = _row_issues(
            (model, "solver", item),
            row,
            outputs.get((model, item, attempt)),
            evidence_dir,
            reference_id,
            reference_sha256,
        )
        summary["rows_checked"] += 1
        summary["matched"] += not issues
        for issue in issues:
            summary[_COUNTED_AS[issue.code]] += 1
        found_issues.extend(issues)
    return EvidenceFindings(str(evidence_dir), summaries, found_issues)


#: Which summary count each evidence issue adds to.
_COUNTED_AS = {
    "solver_evidence_missing": "missing",
    "solver_evidence_reference_mismatch": "reference_mismatch",
    SCORE_MISMATCH: "score_mismatch",
}


def _row_issues(
    key: tuple[str, str, str],
    row: dict[str, Any],
    found: SolverOutput | None,
    evidence_dir: str | os.PathLike[str],
    reference_id: str,
    reference_sha256: str | None,
) -> list[Issue]:
    """What is wrong with one adopted valid solver row's evidence (nothing: it matches)."""
    where = {"attempt": row["attempt"], "line": row["line"]}
    if found is None:
        text = f"no solver-score output in {evidence_dir}"
        return [Issue.about("solver_evidence_missing", key, text, **where)]
    output, path = found.document, found.path
    issues = []
    recorded_sha = output.reference_sha256
    if output.reference_id != reference_id:
        text = (
            f"{path} was scored against reference '{output.reference_id}', the cohort "
            f"declares '{reference_id}'"
        )
    elif reference_sha256 is not None and recorded_sha != reference_sha256:
        text = (
            f"{path} was scored against a reference file with sha256 {recorded_sha}, not the "
            f"cohort's '{reference_id}' file (sha256 {reference_sha256}): same id, other values"
        )
    else:
        text = None
    if text is not None:
        issues.append(
            Issue.about(
                "solver_evidence_reference_mismatch", key, text, **where, evidence=str(path)
            )
        )
    mismatch = score_mismatch(key, row["score"], output.relative_score, evidence=str(path), **where)
    if mismatch is not None:
        issues.append(mismatch)
    return issues


def score_mismatch(
    key: tuple[str, str, str],
    table_score: Any,
    evidence_score: float,
    *,
    evidence: str,
    attempt: str,
    line: int,
) -> Issue | None:
    """The one check of a solver row's score against its output: a finite number within
    :data:`SCORE_TOLERANCE` of ``relative_score``, else a ``solver_evidence_score_mismatch``.

    >>> key = ("m", "solver", "t")
    >>> score_mismatch(key, 0.25, 0.25, evidence="e.json", attempt="1", line=2) is None
    True
    >>> print(score_mismatch(key, 0.3, 0.25, evidence="e.json", attempt="1", line=2).message)
    m/solver/t attempt '1' (line 2): table score 0.3 differs from relative_score 0.25 in e.json
    """
    if (
        isinstance(table_score, float)
        and math.isfinite(table_score)
        and abs(table_score - float(evidence_score)) <= SCORE_TOLERANCE
    ):
        return None
    text = (
        f"table score {table_score!r} differs from relative_score {evidence_score!r} in {evidence}"
    )
    return Issue.about(
        SCORE_MISMATCH,
        key,
        text,
        attempt=attempt,
        line=line,
        evidence=evidence,
        table_score=table_score,
        evidence_score=evidence_score,
    )


def empty_evidence_summary(evidence_dir: str | os.PathLike[str]) -> dict[str, Any]:
    """The evidence summary of a model with no solver row checked yet."""
    return {
        "evidence_dir": str(evidence_dir),
        "rows_checked": 0,
        "matched": 0,
        "missing": 0,
        "score_mismatch": 0,
        "reference_mismatch": 0,
    }
