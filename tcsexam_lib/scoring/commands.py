"""What the scoring commands (and the notebooks) run: load, score, attach provenance, write.
They return the exact document the command writes, so a notebook writes the same file."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from ..jsonio import write_json_atomic
from ..outputfiles import refuse_output_over_inputs
from ..provenance import RELATIVE_TO_OUTPUT, InputFile, build_provenance
from ..references.load import load_reference
from ..references.model import Reference
from ..references.suites import Suite, load_suite
from .attempts import AttemptRows
from .cohort import Cohort, load_cohort, load_cohort_reference
from .evidence import SolverOutput, check_solver_evidence
from .index import compute_index
from .index_document import IndexDocument
from .solver_document import SolverDocument

PathLike = str | os.PathLike[str]


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
    loaded_reference: Reference | None = None,
) -> SolverDocument:
    """Score one task's records file and (optionally) write the result atomically; nothing
    is written when the input is refused.

    ``"simulated": true`` is added for a simulated reference; ``loaded_reference`` saves
    loading it again (the report runner).
    """
    from ..references.records import read_records_with_digest  # numpy: not for score
    from .solver import score_solver_task

    parameters = {
        "task": task,
        "records": records,
        "reference": reference,
        "reference_id": reference_id,
        "references_dir": references_dir,
        "model": model,
        "attempt": attempt,
    }
    ref = loaded_reference or load_reference(
        reference, reference_id=reference_id, references_dir=references_dir
    )
    data, digest = read_records_with_digest(records)
    result = score_solver_task(ref, task, data, source=str(records), model=model, attempt=attempt)
    if ref.simulated:
        result.mark_simulated()  # scored against a simulated (demo) reference
    inputs: dict[str, InputFile] = {"records": (records, digest)}
    result.set_provenance(build_provenance(producer, "run_solver_score", parameters, inputs, ref))
    write_output(output, result.data, [records, ref.path])
    return result


@dataclass(frozen=True)
class ScoringInputs:
    """The loaded suite, cohort and reference of an index, and their ``references_dir``."""

    suite: Suite
    cohort: Cohort
    reference: Reference
    references_dir: PathLike | None = None

    @property
    def simulated(self) -> bool:
        """True when the suite, the cohort or the reference is marked simulated."""
        return bool(
            self.suite.simulated or self.reference.simulated or self.cohort.raw.get("simulated")
        )


def load_scoring_inputs(
    suite: str, cohort: PathLike, references_dir: PathLike | None = None
) -> ScoringInputs:
    """Load the suite, the cohort (checked against it) and the cohort's reference."""
    suite_obj = load_suite(suite, references_dir=references_dir)
    cohort_obj = load_cohort(cohort, suite=suite_obj)
    reference = load_cohort_reference(cohort_obj, suite_obj, references_dir=references_dir)
    return ScoringInputs(suite_obj, cohort_obj, reference, references_dir)


def index_document(
    inputs: ScoringInputs,
    table: AttemptRows,
    *,
    attempts: tuple[PathLike, str | None],
    evidence: tuple[PathLike, dict[tuple[str, str, str], SolverOutput]] | None = None,
    producer: str = "tcsexam score",
    base_dir: PathLike | None = None,
) -> IndexDocument:
    """The ``tcsexam score`` output of a validated attempts table against loaded inputs.

    ``evidence`` is checked against every adopted valid solver row; relative paths are
    relative to ``base_dir``.
    """
    evidence_dir, outputs = evidence if evidence is not None else (None, {})
    findings = None
    if evidence_dir is not None:
        findings = check_solver_evidence(
            table,
            outputs,
            evidence_dir=evidence_dir,
            reference_id=inputs.reference.reference_id,
            reference_sha256=inputs.reference.sha256,
        )
    result = compute_index(
        table,
        inputs.suite,
        inputs.cohort,
        reference_id=inputs.reference.reference_id,
        found=findings.issues if findings else (),
    )
    if inputs.simulated:
        result.mark_simulated()  # simulated (demo) inputs: not TCSExam results
    if findings is not None:
        result.attach_evidence(findings)
    files: dict[str, InputFile] = {
        "attempts": attempts,
        "cohort": (inputs.cohort.path, inputs.cohort.sha256),
        "suite": (inputs.suite.path, inputs.suite.sha256),
    }
    for found in sorted(outputs.values(), key=lambda o: o.path):
        role = f"solver_evidence/{found.path.relative_to(evidence_dir).as_posix()}"
        files[role] = (found.path, found.sha256)
    parameters = {
        "suite": inputs.suite.name,
        "attempts": attempts[0],
        "cohort": inputs.cohort.path,
        "references_dir": inputs.references_dir,
        "solver_evidence": evidence_dir,
    }
    result.set_provenance(
        build_provenance(
            producer, "run_score", parameters, files, inputs.reference, base_dir=base_dir
        )
    )
    return result


def write_output(
    output: PathLike | None, result: dict[str, Any], inputs: list[Any], folders: list[Any] = ()
) -> None:
    """Write ``result`` atomically, refusing to replace an input or land in an input folder."""
    if output is None:
        return
    refuse_output_over_inputs(
        output,
        inputs,
        field="--output",
        allowed="a path that is not one of the inputs",
        folders=list(folders),
    )
    write_json_atomic(output, result)


def model_index_provenance(index: PathLike, model: str, producer: str) -> dict[str, Any]:
    """The provenance of one model's entry of an index: no time and no digest of the index,
    so the file changes only when the model's entry does."""
    block = build_provenance(producer, "run_model_index", {"index": index, "model": model}, {},
                             None)  # fmt: skip
    block.pop("created_utc")
    return {**block, "cwd": ".", "paths_relative_to": RELATIVE_TO_OUTPUT}


def run_model_index(*, index: PathLike, model: str) -> IndexDocument:
    """The entry of ``model`` in the index output ``index``, alone, as an index output
    (the runner's ``models/<model>/model.index.json``)."""
    from .index_document import load_index

    provenance = model_index_provenance(index, model, "tcsexam report")  # as the runner writes it
    return load_index(index).for_model(model, provenance)
