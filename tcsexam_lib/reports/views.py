"""The report notebooks' one import: ``from tcsexam_lib import views``.

The notebooks in ``notebooks/`` hold no formula: every number they show comes from the
outputs of ``tcsexam solver-score`` and ``tcsexam score`` (written by the report runner,
or computed here by the same library calls when a notebook runs standalone on raw
inputs), turned into tables and plots by :mod:`.solver_views` and :mod:`.index_views`.
"""

from __future__ import annotations

import os
from typing import Any

from ..jsonio import write_json_atomic
from ..references.load import load_reference
from ..scoring.commands import run_score
from .index_views import (
    COVERAGE_COLOURS,
    check_protocol,
    coverage_matrix,
    explain_status,
    issues_table,
    plot_coverage,
    plot_repeat_spread,
    plot_track_contributions,
    repeat_spread_table,
    status_table,
    task_table,
    track_table,
)
from .notebook import (
    MISSING_TEXT,
    SIMULATED_TEXT,
    Note,
    any_simulated,
    configure_display,
    data_banner,
    declared_parameters,
    read_index_output,
    read_solver_output_files,
    refuse_unknown_parameters,
    require_parameters,
    table_html,
)
from .records import find_records, score_records_files, solver_output_path
from .solver_views import (
    Z_DISPLAY_LIMIT,
    floor_instances_table,
    instance_table,
    plot_instance_scores,
    plot_z_histogram,
    relative_score_table,
    scale_term_table,
    unscored_table,
)

__all__ = [
    "COVERAGE_COLOURS",
    "MISSING_TEXT",
    "SIMULATED_TEXT",
    "Z_DISPLAY_LIMIT",
    "Note",
    "any_simulated",
    "check_protocol",
    "configure_display",
    "coverage_matrix",
    "data_banner",
    "declared_parameters",
    "explain_status",
    "floor_instances_table",
    "index_result",
    "instance_table",
    "issues_table",
    "plot_coverage",
    "plot_instance_scores",
    "plot_repeat_spread",
    "plot_track_contributions",
    "plot_z_histogram",
    "read_index_output",
    "read_solver_output_files",
    "refuse_unknown_parameters",
    "relative_score_table",
    "repeat_spread_table",
    "require_parameters",
    "scale_term_table",
    "solver_outputs",
    "status_table",
    "table_html",
    "task_table",
    "track_table",
    "unscored_table",
]

PathLike = str | os.PathLike[str]


def index_result(
    *,
    index_json: PathLike = "",
    suite: str = "",
    attempts: PathLike = "",
    cohort: PathLike = "",
    references_dir: PathLike = "",
    solver_evidence: PathLike = "",
    output: PathLike = "",
    producer: str = "notebook",
) -> dict[str, Any]:
    """The index output a notebook shows: the written ``index_json``, else computed.

    With ``index_json`` (what the report runner passes) the file is read; otherwise the
    index is computed from the raw inputs exactly as ``tcsexam score`` does (and written
    to ``output`` when given). Empty strings stand for "not given" (papermill defaults).
    """
    if index_json:
        return read_index_output(index_json)
    require_parameters(suite=suite, attempts=attempts, cohort=cohort)
    return run_score(
        suite=suite,
        attempts=attempts,
        cohort=cohort,
        references_dir=references_dir or None,
        solver_evidence=solver_evidence or None,
        output=output or None,
        producer=producer,
    )


def solver_outputs(
    model: str,
    *,
    solver_outputs_dir: PathLike = "",
    records_dir: PathLike = "",
    suite: str = "",
    reference_id: str = "",
    references_dir: PathLike = "",
    tasks: list[str] | str | None = None,
    output_dir: PathLike = "",
    producer: str = "notebook",
) -> list[dict[str, Any]]:
    """The solver-score outputs of one model: the written ones, else scored from records.

    With ``solver_outputs_dir`` (what the report runner passes) the outputs are read;
    otherwise every ``<model>/<task>/<attempt>.json`` of ``records_dir`` is scored against
    the reference as ``tcsexam solver-score`` does (and written to
    ``output_dir/<task>-<attempt>.json`` when given).
    """
    if solver_outputs_dir:
        return read_solver_output_files(solver_outputs_dir, tasks)
    require_parameters(records_dir=records_dir, suite=suite, reference_id=reference_id)
    records = find_records(records_dir, model=model, tasks=tasks)
    reference = load_reference(
        suite, reference_id=reference_id, references_dir=references_dir or None
    )
    outputs = score_records_files(
        records, reference, references_dir=references_dir or None, producer=producer
    )
    if output_dir:
        for item, out in zip(records, outputs, strict=True):
            write_json_atomic(solver_output_path(output_dir, item.task, item.attempt), out)
    return outputs
