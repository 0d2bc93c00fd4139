"""What the scoring commands (and the notebooks) run: load, score, attach provenance, write.

:func:`run_solver_score` and :func:`~.score_command.run_score` return the exact document
that ``tcsexam solver-score`` and ``tcsexam score`` write (typed: :mod:`.solver_document` and
:mod:`.index_document`; its JSON as ``.data``), so a notebook that calls them writes the
same file as the command line. The report runner loads each input of a run
set once: it passes the loaded reference to :func:`run_solver_score` and builds the
index with :func:`index_document` from :class:`ScoringInputs` it loaded itself.
"""

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
    """Score one task's records file and (optionally) write the result atomically.

    Nothing is written when the input is refused. ``model`` and ``attempt``, when
    given, are recorded so that the output says whose it is; ``"simulated": true`` is
    added when the reference is marked simulated (demo data). ``loaded_reference`` is
    the reference that ``reference``, ``reference_id`` and ``references_dir`` name,
    already loaded (the report runner loads it once for every records file).
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
    """What an index is computed against, loaded: the suite, cohort and reference.

    ``references_dir`` is the folder they were read from, as the caller named it.
    """

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

    ``attempts`` is the table's path and the sha256 of its bytes; ``evidence`` the
    folder of solver-score outputs and those outputs (read by the caller), checked
    against every adopted valid solver row. Relative paths are relative to ``base_dir``
    (default: the working folder), which the provenance records as its ``cwd``.
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
    """The provenance of one model's entry of an index, alone (see :func:`run_model_index`).

    It names the index and the model but holds no time and no digest of the index, so that
    the file changes only when the model's entry does (``tcsexam verify`` compares it with
    the index as it is now).
    """
    block = build_provenance(producer, "run_model_index", {"index": index, "model": model}, {},
                             None)  # fmt: skip
    block.pop("created_utc")
    return {**block, "cwd": ".", "paths_relative_to": RELATIVE_TO_OUTPUT}


def run_model_index(*, index: PathLike, model: str) -> IndexDocument:
    """The entry of ``model`` in the index output ``index``, alone, as an index output.

    What the report runner publishes as ``models/<model>/model.index.json`` (a model's
    pages read it); see :meth:`IndexDocument.for_model`.
    """
    from .index_document import load_index

    provenance = model_index_provenance(index, model, "tcsexam report")  # as the runner writes it
    return load_index(index).for_model(model, provenance)
