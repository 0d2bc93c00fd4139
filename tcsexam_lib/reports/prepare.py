"""A run set scored in memory: every input loaded once, every refusal before anything is written."""

from __future__ import annotations

from dataclasses import dataclass

from ..csvio import CsvTable
from ..scoring.attempts import AttemptRows
from ..scoring.cohort import load_cohort_reference
from ..scoring.commands import ScoringInputs, fill_from_records
from ..scoring.fill import FillResult
from ..scoring.records_folder import RecordsFile
from ..scoring.solver_document import SolverDocument
from .outputs import PRODUCER
from .params import ReportParams


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


def prepare_run_set(params: ReportParams) -> PreparedRunSet:
    """Score one run set in memory, loading each input once; raise what would be refused
    (the filled copy of the attempts table included)."""
    suite, cohort = params.loaded_suite, params.loaded_cohort
    if suite is None or cohort is None:
        raise ValueError("run-set parameters come from load_report_params (suite and cohort)")
    reference = load_cohort_reference(cohort, suite, references_dir=params.references_dir)
    inputs = ScoringInputs(suite, cohort, reference, params.references_dir)
    filled = fill_from_records(
        inputs,
        params.attempts,
        params.records,
        producer=PRODUCER,
        source=str(params.source),
        summary=f"Run set {params.source}",
    )
    return PreparedRunSet(
        params, inputs, filled.records, filled.outputs, filled.filled, filled.fill, filled.table
    )
