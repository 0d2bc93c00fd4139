"""What the commands (and the notebooks) run: load, score, attach provenance, write.

Both :func:`run_solver_score` and :func:`run_score` return the exact JSON document
that ``tcsexam solver-score`` and ``tcsexam score`` write, so a notebook that calls
them writes the same file as the command line.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .attempts import read_attempts
from .evidence import check_solver_evidence
from .index import compute_index
from .jsonio import refuse_output_over_inputs, write_json_atomic
from .paths import resolve_references_dir
from .plan import load_cohort, load_cohort_reference, load_suite
from .provenance import build_provenance
from .reference import load_reference
from .solver import read_records, score_solver_task


def run_solver_score(
    *,
    task: str,
    records: str | os.PathLike[str],
    reference: str | os.PathLike[str],
    reference_id: str | None = None,
    references_dir: str | os.PathLike[str] | None = None,
    model: str | None = None,
    attempt: str | None = None,
    output: str | os.PathLike[str] | None = None,
    producer: str = "tcsexam solver-score",
) -> dict[str, Any]:
    """Score one task's records file and (optionally) write the result atomically.

    Nothing is written when the input is refused. ``model`` and ``attempt``, when
    given, are recorded so that the output says whose it is; ``"simulated": true`` is
    added when the reference is marked simulated (demo data).
    """
    ref = load_reference(reference, reference_id=reference_id, references_dir=references_dir)
    data = read_records(records)
    result: dict[str, Any] = {}
    if model is not None:
        result["model"] = model
    if attempt is not None:
        result["attempt"] = str(attempt)
    result.update(score_solver_task(ref, task, data, source=str(records)))
    if ref.simulated:
        result["simulated"] = True  # scored against a simulated (demo) reference
    result["provenance"] = build_provenance(
        producer=producer,
        parameters={
            "task": task,
            "records": records,
            "reference": reference,
            "reference_id": reference_id,
            "references_dir": references_dir,
            "model": model,
            "attempt": attempt,
        },
        inputs={"records": records},
        reference_id=ref.reference_id,
        reference_path=ref.path,
        reference_sha256=ref.sha256,
        entry_point="run_solver_score",
        references_dir=resolve_references_dir(references_dir),
    )
    _write_output(output, result, [records, ref.path])
    return result


def run_score(
    *,
    suite: str,
    attempts: str | os.PathLike[str],
    cohort: str | os.PathLike[str],
    references_dir: str | os.PathLike[str] | None = None,
    output: str | os.PathLike[str] | None = None,
    solver_evidence: str | os.PathLike[str] | None = None,
    producer: str = "tcsexam score",
) -> dict[str, Any]:
    """Compute the index of a cohort and (optionally) write the result atomically.

    ``"simulated": true`` is added when the suite, the cohort or the reference is marked
    simulated (demo data).

    With ``solver_evidence`` (a folder of solver-score outputs), each adopted solver
    row is cross-checked against its output; disagreements become issues of the model
    (``solver_evidence_*`` codes) and ``solver_evidence`` summarises the check. The
    statuses keep their meaning (they describe the attempts table), the rows are kept
    as they are, and nothing is replaced.
    """
    suite_obj = load_suite(suite, references_dir=references_dir)
    cohort_obj = load_cohort(cohort, suite=suite_obj)
    ref = load_cohort_reference(cohort_obj, suite_obj, references_dir=references_dir)
    table = read_attempts(attempts, suite=suite_obj, cohort=cohort_obj)
    result = compute_index(table, suite_obj, cohort_obj, reference_id=ref.reference_id)
    if suite_obj.simulated or ref.simulated or cohort_obj.raw.get("simulated"):
        result["simulated"] = True  # simulated (demo) inputs: not TCSExam results
    if solver_evidence is not None:
        _attach_evidence(result, table, solver_evidence, ref.reference_id, ref.sha256)
    result["provenance"] = build_provenance(
        producer=producer,
        parameters={
            "suite": suite,
            "attempts": attempts,
            "cohort": cohort,
            "references_dir": references_dir,
            "solver_evidence": solver_evidence,
        },
        inputs={
            "attempts": attempts,
            "cohort": cohort,
            "suite": suite_obj.path,
            **_evidence_inputs(solver_evidence),
        },
        reference_id=ref.reference_id,
        reference_path=ref.path,
        reference_sha256=ref.sha256,
        entry_point="run_score",
        references_dir=resolve_references_dir(references_dir),
    )
    _write_output(output, result, [attempts, cohort, suite_obj.path, ref.path])
    return result


def _write_output(output: Any, result: dict[str, Any], inputs: list[Any]) -> None:
    """Write ``result`` atomically, refusing to replace one of its own inputs."""
    if output is None:
        return
    refuse_output_over_inputs(
        output, inputs, field="--output", allowed="a path that is not one of the inputs"
    )
    write_json_atomic(output, result)


def _evidence_inputs(evidence_dir: str | os.PathLike[str] | None) -> dict[str, Path]:
    """Every solver-score output read from the evidence folder, as a provenance input."""
    if evidence_dir is None:
        return {}
    folder = Path(evidence_dir)
    return {
        f"solver_evidence/{path.relative_to(folder).as_posix()}": path
        for path in sorted(folder.rglob("*.json"))
    }


def _attach_evidence(
    result: dict[str, Any],
    table: Any,
    evidence_dir: Any,
    reference_id: str,
    reference_sha256: str | None = None,
) -> None:
    checked = check_solver_evidence(
        table, evidence_dir, reference_id=reference_id, reference_sha256=reference_sha256
    )
    consistent = True
    for model, entry in result["models"].items():
        found = checked.get(
            model, {"summary": {"evidence_dir": str(evidence_dir), "rows_checked": 0}, "issues": []}
        )
        entry["solver_evidence"] = found["summary"]
        entry["issues"].extend(found["issues"])
        consistent = consistent and not found["issues"]
    result["solver_evidence"] = {"evidence_dir": str(evidence_dir), "consistent": consistent}
