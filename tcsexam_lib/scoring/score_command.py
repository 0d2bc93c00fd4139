"""What ``tcsexam score`` runs: the index of a cohort, its solver rows cross-checked.

:func:`run_score` returns the exact document ``tcsexam score`` writes (typed:
:mod:`.index_document`; its JSON as ``.data``), so that a notebook that calls it writes the
same file as the command line; each of its parameters is an option of the command.
"""

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
    """Compute the index of a cohort and (optionally) write the result atomically.

    ``"simulated": true`` is added when the suite, the cohort or the reference is marked
    simulated (demo data).

    With ``solver_evidence`` (a folder of solver-score outputs), each adopted solver
    row is cross-checked against its output; a disagreement is an ``error`` issue of the
    model (``solver_evidence_*`` codes) that, like every ``error``, makes its task and
    the model ``incomplete`` (index ``null``): no index rests on a score its evidence
    contradicts. ``solver_evidence`` summarises the check; the rows are kept as they
    are, and nothing is replaced.

    With ``solver_records`` (a records folder ``<model>/<task>/<attempt>.json``) instead,
    the records are scored, the blank solver scores of a copy of the table filled from them,
    and the filled copy and the evidence written beside ``output`` (see
    :func:`~.from_records.run_score_with_records`).
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
