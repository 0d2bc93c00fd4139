"""The report notebooks' one import: ``from tcsexam_lib import views``.

Notebooks hold no formula: they draw the outputs of ``tcsexam solver-score``, ``score`` and
``stats`` (docs/reports.md, "The notebooks"). Importing it is cheap: matplotlib and the
scoring modules are imported when first used.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ..errors import InputRefused
from ..exports import public_surface
from ..number_format import MISSING_TEXT  # noqa: F401 - public: listed in also= below
from .lab_tables import enable_interactive_tables

# Bound here, not on first use: the first import of views/leaderboard.py sets this package's
# attribute ``leaderboard`` to that module, which a lookup on first use would never replace.
from .leaderboard import leaderboard  # noqa: F401 - public: listed in _PUBLIC below
from .notebook import (
    one_line_errors,
    read_index_output,
    read_solver_output_files,
    refuse_unknown_parameters,
    require_parameters,
)
from .parameters import check_notebook_parameters
from .tables import configure_display

#: Every public name of the views, under the module that defines it: written once;
#: ``__all__`` and the lookup on first use come from it (with the names of this module).
_PUBLIC: dict[str, tuple[str, ...]] = {
    "charts": ("alt_text", "describe"),
    "compare": ("compare_run_sets", "run_set_comparisons"),
    "index": (
        "COVERAGE_COLOURS",
        "check_protocol",
        "coverage_matrix",
        "explain_status",
        "issues_table",
        "plot_coverage",
        "plot_repeat_spread",
        "plot_track_contributions",
        "repeat_spread_table",
        "status_table",
        "task_table",
        "track_table",
    ),
    "leaderboard": (
        "changes_note",
        "lead_note",
        "leaderboard",
        "plot_task_heatmap",
        "ranked_models",
        "task_model_table",
    ),
    "notebook": (
        "SIMULATED_TEXT",
        "Note",
        "cohort_models",
        "data_banner",
        "declared_parameters",
        "header",
        "one_line_errors",
        "published_pages",
        "read_index_output",
        "read_solver_output_files",
        "refuse_model_outside_cohort",
        "refuse_unknown_parameters",
        "require_parameters",
        "show",
        "status_line",
    ),
    "pair_tables": ("neighbours_table", "pairs_table", "pairs_view", "plot_pair_matrix"),
    "solver": (
        "Z_DISPLAY_LIMIT",
        "any_simulated",
        "evidence_link",
        "far_values_table",
        "floor_instances_table",
        "instance_table",
        "plot_instance_scores",
        "plot_z_histogram",
        "relative_score_table",
        "scale_term_table",
        "solver_plan_table",
        "unscored_table",
    ),
    "stats": (
        "index_interval_note",
        "interval_columns",
        "plot_index_intervals",
        "stats_result",
        "ties_note",
        "track_intervals_table",
    ),
    "tables": ("Cell", "configure_display", "format_number", "table_html"),
}

_SURFACE = public_surface(
    __name__, _PUBLIC, also=("MISSING_TEXT", "index_result", "setup", "solver_outputs")
)

__all__ = _SURFACE.all

__dir__ = _SURFACE.dir


def __getattr__(name: str) -> Any:
    return _SURFACE.getattr(name)


PathLike = str | os.PathLike[str]

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from ..scoring.index_document import IndexDocument
    from ..scoring.solver_document import SolverDocument


def setup(notebook: str, namespace: dict[str, Any]) -> None:
    """The first cell of a report notebook: check the parameters, set up the display.

    Parameter problems are refused in one message; relative paths found in the kit's folder
    are made absolute in ``namespace``.
    """
    one_line_errors()
    problems = []
    try:
        refuse_unknown_parameters(notebook, namespace)
    except InputRefused as exc:
        problems += exc.problems
    checked = check_notebook_parameters(notebook, namespace)
    problems += checked.problems
    if problems:
        raise InputRefused.from_problems("Notebook parameters refused", problems)
    namespace.update(checked.resolved)
    configure_display()
    enable_interactive_tables()


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
) -> IndexDocument:
    """The index output a notebook shows: ``index_json`` read, else computed as ``tcsexam score``.

    Empty strings stand for "not given" (papermill defaults); ``output`` writes it.
    """
    if index_json:
        return read_index_output(index_json)
    require_parameters(suite=suite, attempts=attempts, cohort=cohort)
    from ..scoring.commands import run_score

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
) -> list[SolverDocument]:
    """One model's solver-score outputs: ``solver_outputs_dir`` read, else scored from records.

    Scored as ``tcsexam solver-score`` does; written to ``output_dir`` when given.
    """
    if solver_outputs_dir:
        return read_solver_output_files(solver_outputs_dir, tasks)
    require_parameters(records_dir=records_dir, suite=suite, reference_id=reference_id)
    from ..jsonio import write_json_atomic
    from ..references.load import load_reference
    from ..scoring.commands import score_records_files
    from ..scoring.records_folder import find_records, solver_output_path

    records = find_records(records_dir, model=model, tasks=tasks)
    reference = load_reference(
        suite, reference_id=reference_id, references_dir=references_dir or None
    )
    outputs = score_records_files(
        records, reference, references_dir=references_dir or None, producer=producer
    )
    if output_dir:
        for item, out in zip(records, outputs, strict=True):
            write_json_atomic(solver_output_path(output_dir, item.task, item.attempt), out.data)
    return outputs
