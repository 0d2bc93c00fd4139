"""tcsexam_lib: scoring rules of the TCSExam benchmark.

Public surface (everything else is internal):

- the formulas (:mod:`tcsexam_lib.formulas`): :func:`compute_instance_stats`,
  :func:`scale_terms`, :func:`z_score`, :func:`phi`, :func:`instance_score`,
  :func:`mean_score` and :func:`combine_track_means` (the index from the track means);
- :func:`load_reference` / :class:`Reference` / :func:`reference_from_data`: a validated
  solver reference; :func:`check_reference` reports every finding on reference files;
- :func:`score_solver_task`: a task's relative score against a reference (0..1, higher
  is better, 0.5 = as good as the reference mean);
- :func:`load_suite`, :func:`load_cohort`, :func:`read_attempts`: validated inputs;
- :func:`compute_index`; :func:`run_solver_score` and :func:`run_score` do what the
  commands do (load, score, add provenance, write): the weighted TCSExam index in points
  (``vocab.INDEX_FORMULA``; higher is better; may exceed 100);
- the outputs as typed documents with tidy tables for notebooks: :func:`load_index`
  (:class:`IndexDocument`: ``.models``, ``.tracks``, ``.tasks``, ``.attempts``,
  ``.issues``), :func:`load_solver_output` (:class:`SolverDocument`),
  :func:`load_stats` (:class:`StatsDocument`: ``.models``, ``.pairs``) and
  :func:`load_run_set` (:class:`RunSetDocument`);
- :func:`verify_output`: recompute an output from its recorded inputs;
- :func:`run_stats` (``tcsexam stats``): intervals, paired comparisons, rank intervals
  and tie groups beside the index of a ``tcsexam score`` output;
- :func:`run_report` (``tcsexam report``): run sets of ``params/*.yaml`` scored and
  rendered into HTML reports; :func:`load_report_params` checks one such file and
  :func:`fill_solver_rows` fills blank solver scores of an attempts table (a copy)
  from solver-score outputs; ``views`` is what the report notebooks import;
- :class:`TcsexamError` and its subclasses, the only exceptions raised on purpose;
- ``teaching`` (``from tcsexam_lib import teaching``): the teaching notebook's sliders,
  exercise checks, tiny ILLUSTRATIVE cohorts and plots.

Names are imported when first used, so that ``import tcsexam_lib`` stays cheap. Each public
name is written once, in :data:`_PUBLIC` below; ``__all__`` and the lookup come from it
(:func:`~tcsexam_lib.exports.public_surface`).
"""

from __future__ import annotations

from typing import Any

from .exports import public_surface

#: Every public name, under the module (in this package) that defines it: the one list
#: of the public surface. ``__all__`` and the lookup on first use both come from it.
_PUBLIC: dict[str, tuple[str, ...]] = {
    "vocab": ("FIXED_REFERENCE_ID", "METRIC_ID", "TRACKS", "TRACK_LETTERS", "TRACK_WEIGHTS"),
    "errors": ("InputRefused", "OutputRefused", "Problem", "ReferenceProblem", "TcsexamError"),
    "formulas": (
        "SCALE_TERMS",
        "InstanceStats",
        "combine_track_means",
        "compute_instance_stats",
        "instance_score",
        "mean_score",
        "phi",
        "scale_terms",
        "z_score",
    ),
    "scoring.issues": ("Issue", "ISSUE_CODES"),
    "references.model": ("Reference",),
    "references.load": ("load_reference", "reference_from_data"),
    "references.check": ("check_reference",),
    "references.suites": ("Suite", "load_suite"),
    "scoring.cohort": ("Cohort", "load_cohort", "load_cohort_reference"),
    "scoring.attempts": ("read_attempts", "validate_attempts"),
    "references.records": ("read_records",),
    "scoring.solver": ("score_solver_task",),
    "scoring.index": ("compute_index",),
    "scoring.index_document": ("IndexDocument", "load_index"),
    "scoring.solver_document": ("SolverDocument", "load_solver_output"),
    "scoring.commands": ("run_solver_score",),
    "scoring.score_command": ("run_score",),
    "verify": ("verify_output",),
    "jsonio": ("write_json_atomic",),
    "scoring.fill": ("fill_solver_rows",),
    "reports.params": ("load_report_params",),
    "reports.runner": ("run_report",),
    "reports.run_set_document": ("RunSetDocument", "load_run_set"),
    "stats.command": ("run_stats",),
    "stats.document": ("StatsDocument", "load_stats"),
}

#: Public modules, imported when first used (``from tcsexam_lib import views``).
_PUBLIC_MODULES = {"views": "views", "teaching": "teaching"}

_SURFACE = public_surface(__name__, _PUBLIC, modules=_PUBLIC_MODULES, also=("__version__", "views"))

#: Public name -> the module that defines it.
_EXPORTS = _SURFACE.exports

__all__ = _SURFACE.all

__dir__ = _SURFACE.dir


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from .version import VERSION

        return VERSION
    return _SURFACE.getattr(name)
