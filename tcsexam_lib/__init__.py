"""tcsexam_lib: scoring rules of the TCSExam benchmark.

The public surface is :data:`_PUBLIC` (everything else is internal), each name imported
when first used: the formulas; :func:`score_solver_task` (0..1, higher is better, 0.5 = as
good as the reference mean); :func:`run_score` (the index in points, higher is better, may
exceed 100) and the other commands as functions; validated inputs; the outputs as typed
documents (:func:`load_index`...); :class:`TcsexamError`; ``views`` and ``teaching``.
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
    "scoring.commands": ("run_solver_score", "run_score"),
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
