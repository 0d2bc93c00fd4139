"""A run set scored in memory: every input loaded once, every refusal before anything is written.

:func:`prepare_run_set` loads a run set's reference once, scores every records file
against it, fills the blank solver scores of a copy of the attempts table in memory and
validates the copy: whatever would be refused is refused here, before the report runner
(:mod:`.runner`) writes anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..csvio import CsvTable, read_csv_table
from ..errors import InputRefused, Problem
from ..scoring.attempts import AttemptRows, validate_attempts
from ..scoring.cohort import load_cohort_reference
from ..scoring.commands import ScoringInputs
from ..scoring.solver_document import SolverDocument
from .fill import FillResult, fill_table
from .outputs import PRODUCER
from .params import ReportParams
from .records import RecordsFile, check_records_folder, find_records, score_records_files


@dataclass(frozen=True)
class PreparedRunSet:
    """A run set scored in memory: everything the writing step needs, nothing written yet."""

    params: ReportParams
    inputs: ScoringInputs
    records: list[RecordsFile]
    outputs: list[SolverDocument]
    filled: CsvTable
    fill: FillResult
    table: AttemptRows


def _check_fill(params: ReportParams, records: list[RecordsFile], fill: FillResult) -> None:
    """Refuse records files no solver row names, and blank valid scores without records."""
    paths = {(r.model, r.task, r.attempt): r.path for r in records}
    problems = [
        Problem(
            str(paths[(o["model"], o["task"], o["attempt"])]),
            field="attempt",
            value=o["attempt"],
            detail=f"no solver row {o['model']}/{o['task']} attempt '{o['attempt']}' "
            f"in {params.attempts}",
            allowed="a records file whose model, task and attempt have a row in the attempts "
            "table (add the row: excluded, with a note, if it is not adopted)",
        )
        for o in fill.orphans
    ]
    problems += [
        Problem(
            f"{params.attempts} line {u['line']}",
            field="score",
            value="",
            detail="blank valid solver score and no records file "
            f"{params.records / u['model'] / u['item'] / (u['attempt'] + '.json')}",
            allowed="a relative score in [0, 1], or that records file (the runner fills the "
            "score from it)",
        )
        for u in fill.unfilled
    ]
    if problems:
        raise InputRefused.from_problems(f"Run set {params.source} refused", problems)


def prepare_run_set(params: ReportParams) -> PreparedRunSet:
    """Score one run set in memory, loading each input once; raise what would be refused.

    The suite and cohort come loaded with ``params``; the reference is loaded once and
    every records file scored against it; the attempts table is read once, its blank
    solver scores filled in memory, and the filled copy validated.
    """
    suite, cohort = params.loaded_suite, params.loaded_cohort
    if suite is None or cohort is None:
        raise ValueError("run-set parameters come from load_report_params (suite and cohort)")
    reference = load_cohort_reference(cohort, suite, references_dir=params.references_dir)
    inputs = ScoringInputs(suite, cohort, reference, params.references_dir)
    records = find_records(params.records)
    check_records_folder(
        params.records,
        records,
        models=params.models,
        solver_tasks=set(suite.tracks["solver"]),
        suite=params.suite,
        source=str(params.source),
    )
    outputs = score_records_files(
        records, reference, references_dir=params.references_dir, producer=PRODUCER
    )
    filled, fill = fill_table(read_csv_table(params.attempts, kind="Attempts file"), outputs)
    _check_fill(params, records, fill)
    try:
        table = validate_attempts(filled, suite=suite, cohort=cohort)
    except InputRefused as exc:
        raise InputRefused(f"Run set {params.source}: {exc.summary}", exc.problems) from exc
    return PreparedRunSet(params, inputs, records, outputs, filled, fill, table)
