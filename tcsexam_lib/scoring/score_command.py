"""What ``tcsexam score`` runs: the index of a cohort, its solver rows cross-checked; the
exact document the command writes, so a notebook writes the same file."""

from __future__ import annotations

import os

from ..csvio import read_csv_table
from ..errors import InputRefused, Problem
from .attempts import validate_attempts
from .commands import index_document, load_scoring_inputs, write_output
from .evidence import read_solver_outputs
from .from_records import run_score_with_records
from .index_document import IndexDocument

PathLike = str | os.PathLike[str]


def run_score(
    *,
    suite: str,
    attempts: PathLike,
    cohort: PathLike,
    references_dir: PathLike | None = None,
    output: PathLike | None = None,
    solver_evidence: PathLike | None = None,
    solver_records: PathLike | None = None,
    producer: str = "tcsexam score",
) -> IndexDocument:
    """Compute the index of a cohort and (optionally) write the result atomically
    (``"simulated": true`` for simulated inputs).

    ``solver_evidence``: a folder of solver-score outputs; each adopted solver row is
    cross-checked and a disagreement is an ``error`` (``solver_evidence_*``) that makes the
    model ``incomplete``. ``solver_records``: a records folder scored instead
    (:func:`~.from_records.run_score_with_records`).
    """
    if solver_records is not None:
        if solver_evidence is not None:
            raise InputRefused(
                "Give the solver evidence or the records, not both",
                [Problem("--solver-evidence", field="--solver-records", value=str(solver_records),
                         allowed="one of the two (the records' outputs are the evidence)")],
            )  # fmt: skip
        if output is None:
            raise InputRefused(
                "--solver-records writes its evidence beside the index: name the output",
                [Problem("run_score", field="output", value=None, allowed="a path")],
            )
        return run_score_with_records(
            suite=suite,
            attempts=attempts,
            cohort=cohort,
            solver_records=solver_records,
            output=output,
            references_dir=references_dir,
            producer=producer,
        )
    inputs = load_scoring_inputs(suite, cohort, references_dir)
    csv_table = read_csv_table(attempts, kind="Attempts file")
    table = validate_attempts(csv_table, suite=inputs.suite, cohort=inputs.cohort)
    evidence = None
    if solver_evidence is not None:
        evidence = (solver_evidence, read_solver_outputs(solver_evidence))
    result = index_document(
        inputs, table, attempts=(attempts, csv_table.sha256), evidence=evidence, producer=producer
    )
    read = [attempts, cohort, inputs.suite.path, inputs.reference.path]
    read += [found.path for found in (evidence[1] if evidence else {}).values()]
    write_output(output, result.data, read, folders=[solver_evidence])
    return result
