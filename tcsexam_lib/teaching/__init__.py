"""Helpers of the teaching notebook (``notebooks/teaching.ipynb``): formulas as text, widgets,
exercises, examples, uncertainty and plots (docs/teaching.md).

Every number comes from the library, every formula from :mod:`tcsexam_lib.formulas`; apart
from the seed's (relative score 0.25, index 55.5), every value here is ILLUSTRATIVE.
"""

from typing import Any

from ..exports import public_surface

#: Every public name of the teaching helpers, under the module that defines it: written
#: once; ``__all__`` and the lookup on first use come from it.
_PUBLIC: dict[str, tuple[str, ...]] = {
    "answers": ("Check", "Solution"),
    "examples": (
        "Attempt",
        "DIFFER_PAIR",
        "FLOOR_CASE",
        "MINIMIZE_CASE",
        "RELATIVE_SCORE_A",
        "SUITE_TRACKS",
        "TEACHING_REFERENCE_ID",
        "TinyCohort",
        "index_exercise_cohort",
        "index_exercise_scores",
        "one_instance_reference",
        "score_tiny_cohort",
        "seed_attempts",
        "self_check_cohort",
        "status_exercise_cohort",
        "status_walkthrough",
        "teaching_reference",
        "teaching_reference_data",
        "worked_example_records",
        "worked_example_relative_score",
    ),
    "exercises": ("EXERCISES", "check_answer", "solution"),
    "plots": (
        "plot_averaging_order",
        "plot_floor_effect",
        "plot_index_intervals",
        "plot_phi_curve",
        "plot_solver_instance",
        "plot_track_contributions",
    ),
    "formula_text": (
        "SEED_MEANS",
        "SEED_VALUES",
        "ddof_contrast_report",
        "solver_score_report",
        "track_means_report",
    ),
    "uncertainty": (
        "TASKS_PER_TRACK",
        "interval_report",
        "methods_note",
        "reading_exercise_report",
    ),
    "widgets": (
        "TeachingWidget",
        "solver_score_widget",
        "strip_widget_views",
        "tasks_per_track_widget",
        "track_means_widget",
    ),
}

_SURFACE = public_surface(__name__, _PUBLIC)

__all__ = _SURFACE.all

__dir__ = _SURFACE.dir


def __getattr__(name: str) -> Any:
    return _SURFACE.getattr(name)
