"""What the commands (and the notebooks) run: load, score, attach provenance, write.

:func:`run_solver_score` and :func:`run_score` return the exact JSON document that
``tcsexam solver-score`` and ``tcsexam score`` write, so a notebook that calls them
writes the same file as the command line. :func:`solver_score_document` and
:func:`index_document` build those documents from inputs already loaded: the report
runner loads each input of a run set once and calls them.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pandas as pd

from ..csvio import read_csv_table
from ..jsonio import refuse_output_over_inputs, write_json_atomic
from ..paths import resolve_references_dir
from ..provenance import build_provenance
from ..references.load import load_reference
from ..references.model import Reference
from ..references.suites import Suite, load_suite
from .attempts import validate_attempts
from .cohort import Cohort, load_cohort, load_cohort_reference
from .evidence import SolverOutput, check_solver_evidence, read_solver_outputs
from .index import compute_index
from .solver import read_records_with_digest, score_solver_task

PathLike = str | os.PathLike[str]


def solver_score_document(
    reference: Reference,
    *,
    task: str,
    records: Any,
    records_path: PathLike,
    records_sha256: str,
    reference_arg: PathLike,
    reference_id: str | None = None,
    references_dir: PathLike | None = None,
    model: str | None = None,
    attempt: str | None = None,
    producer: str = "tcsexam solver-score",
) -> dict[str, Any]:
    """The ``tcsexam solver-score`` output of records already read, against a loaded reference.

    ``reference_arg``, ``reference_id`` and ``references_dir`` are recorded as the
    parameters that load ``reference`` again (``tcsexam verify`` does).
    """
    result: dict[str, Any] = {}
    if model is not None:
        result["model"] = model
    if attempt is not None:
        result["attempt"] = str(attempt)
    result.update(score_solver_task(reference, task, records, source=str(records_path)))
    if reference.simulated:
        result["simulated"] = True  # scored against a simulated (demo) reference
    result["provenance"] = build_provenance(
        producer=producer,
        parameters={
            "task": task,
            "records": records_path,
            "reference": reference_arg,
            "reference_id": reference_id,
            "references_dir": references_dir,
            "model": model,
            "attempt": attempt,
        },
        inputs={"records": records_path},
        digests={"records": records_sha256},
        reference_id=reference.reference_id,
        reference_path=reference.path,
        reference_sha256=reference.sha256,
        entry_point="run_solver_score",
        references_dir=resolve_references_dir(references_dir),
    )
    return result


def run_solver_score(
    *,
    task: str,
    records: PathLike,
    reference: PathLike,
    reference_id: str | None = None,
    references_dir: PathLike | None = None,
    model: str | None = None,
    attempt: str | None = None,
    output: PathLike | None = None,
    producer: str = "tcsexam solver-score",
) -> dict[str, Any]:
    """Score one task's records file and (optionally) write the result atomically.

    Nothing is written when the input is refused. ``model`` and ``attempt``, when
    given, are recorded so that the output says whose it is; ``"simulated": true`` is
    added when the reference is marked simulated (demo data).
    """
    ref = load_reference(reference, reference_id=reference_id, references_dir=references_dir)
    data, digest = read_records_with_digest(records)
    result = solver_score_document(
        ref,
        task=task,
        records=data,
        records_path=records,
        records_sha256=digest,
        reference_arg=reference,
        reference_id=reference_id,
        references_dir=references_dir,
        model=model,
        attempt=attempt,
        producer=producer,
    )
    _write_output(output, result, [records, ref.path])
    return result


def index_document(
    table: pd.DataFrame,
    *,
    suite: Suite,
    cohort: Cohort,
    reference: Reference,
    attempts_path: PathLike,
    attempts_sha256: str | None = None,
    references_dir: PathLike | None = None,
    evidence_dir: PathLike | None = None,
    evidence: dict[tuple[str, str, str], SolverOutput] | None = None,
    producer: str = "tcsexam score",
) -> dict[str, Any]:
    """The ``tcsexam score`` output of a validated attempts table and loaded inputs.

    ``evidence`` are the solver-score outputs of ``evidence_dir`` (read by the caller),
    checked against every adopted valid solver row.
    """
    result = compute_index(table, suite, cohort, reference_id=reference.reference_id)
    if suite.simulated or reference.simulated or cohort.raw.get("simulated"):
        result["simulated"] = True  # simulated (demo) inputs: not TCSExam results
    evidence_inputs: dict[str, Path] = {}
    evidence_digests: dict[str, str] = {}
    if evidence_dir is not None:
        outputs = evidence if evidence is not None else read_solver_outputs(evidence_dir)
        _attach_evidence(result, table, outputs, evidence_dir, reference)
        for found in sorted(outputs.values(), key=lambda o: o.path):
            role = f"solver_evidence/{found.path.relative_to(evidence_dir).as_posix()}"
            evidence_inputs[role] = found.path
            evidence_digests[role] = found.sha256
    result["provenance"] = build_provenance(
        producer=producer,
        parameters={
            "suite": suite.name,
            "attempts": attempts_path,
            "cohort": cohort.path,
            "references_dir": references_dir,
            "solver_evidence": evidence_dir,
        },
        inputs={
            "attempts": attempts_path,
            "cohort": cohort.path,
            "suite": suite.path,
            **evidence_inputs,
        },
        digests={
            "attempts": attempts_sha256,
            "cohort": cohort.sha256,
            "suite": suite.sha256,
            **evidence_digests,
        },
        reference_id=reference.reference_id,
        reference_path=reference.path,
        reference_sha256=reference.sha256,
        entry_point="run_score",
        references_dir=resolve_references_dir(references_dir),
    )
    return result


def run_score(
    *,
    suite: str,
    attempts: PathLike,
    cohort: PathLike,
    references_dir: PathLike | None = None,
    output: PathLike | None = None,
    solver_evidence: PathLike | None = None,
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
    reference = load_cohort_reference(cohort_obj, suite_obj, references_dir=references_dir)
    csv_table = read_csv_table(attempts, kind="Attempts file")
    table = validate_attempts(csv_table, suite=suite_obj, cohort=cohort_obj)
    evidence = read_solver_outputs(solver_evidence) if solver_evidence is not None else None
    result = index_document(
        table,
        suite=suite_obj,
        cohort=cohort_obj,
        reference=reference,
        attempts_path=attempts,
        attempts_sha256=csv_table.sha256,
        references_dir=references_dir,
        evidence_dir=solver_evidence,
        evidence=evidence,
        producer=producer,
    )
    evidence_files = [found.path for found in (evidence or {}).values()]
    _write_output(
        output, result, [attempts, cohort, suite_obj.path, reference.path, *evidence_files]
    )
    return result


def _write_output(output: PathLike | None, result: dict[str, Any], inputs: list[Any]) -> None:
    """Write ``result`` atomically, refusing to replace one of its own inputs."""
    if output is None:
        return
    refuse_output_over_inputs(
        output, inputs, field="--output", allowed="a path that is not one of the inputs"
    )
    write_json_atomic(output, result)


def _attach_evidence(
    result: dict[str, Any],
    table: pd.DataFrame,
    outputs: dict[tuple[str, str, str], SolverOutput],
    evidence_dir: PathLike,
    reference: Reference,
) -> None:
    checked = check_solver_evidence(
        table,
        outputs,
        evidence_dir=evidence_dir,
        reference_id=reference.reference_id,
        reference_sha256=reference.sha256,
    )
    consistent = True
    for model, entry in result["models"].items():
        found = checked.get(model) or {
            "summary": {"evidence_dir": str(evidence_dir), "rows_checked": 0},
            "issues": [],
        }
        entry["solver_evidence"] = found["summary"]
        entry["issues"].extend(found["issues"])
        consistent = consistent and not found["issues"]
    result["solver_evidence"] = {"evidence_dir": str(evidence_dir), "consistent": consistent}
