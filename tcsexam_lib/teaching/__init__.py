"""Helpers of the teaching notebook (``notebooks/teaching.ipynb``).

The notebook stays thin: every number it shows comes from a call here or in
:mod:`tcsexam_lib`, and every formula from :mod:`tcsexam_lib.formulas`.

- reports (static text, the widgets' fallbacks): :func:`solver_score_report`,
  :func:`track_means_report`, :func:`ddof_contrast_report`;
- widgets (ipywidgets, imported lazily): :func:`solver_score_widget`,
  :func:`track_means_widget`; :func:`strip_widget_views` keeps their plain-text form in
  a stored notebook;
- exercises: :func:`check_answer` returns a :class:`Check` (``correct``, ``why``);
  :func:`check_solution` checks a solution's answer (nothing shown when right);
- examples: the seed's worked example (:func:`teaching_reference`,
  :func:`worked_example_records`) and tiny ILLUSTRATIVE cohorts scored with
  :func:`tcsexam_lib.run_score` (:func:`score_tiny_cohort`,
  :func:`status_walkthrough`);
- uncertainty: :func:`close_indexes_report` (why two close indexes may not differ);
- plots (matplotlib, imported lazily): :func:`plot_phi_curve`,
  :func:`plot_solver_instance`, :func:`plot_floor_effect`,
  :func:`plot_averaging_order`, :func:`plot_track_contributions`.

Apart from the seed's worked examples (relative score 0.25, index 55.5), every value
here is ILLUSTRATIVE: not a TCSExam reference value or result.
"""

from typing import Any

from ..exports import public_surface

#: Every public name of the teaching helpers, under the module that defines it: written
#: once; ``__all__`` and the lookup on first use come from it.
_PUBLIC: dict[str, tuple[str, ...]] = {
    "examples": (
        "SUITE_TRACKS",
        "TEACHING_REFERENCE_ID",
        "Attempt",
        "TinyCohort",
        "one_instance_reference",
        "score_tiny_cohort",
        "seed_attempts",
        "status_walkthrough",
        "teaching_reference",
        "teaching_reference_data",
        "worked_example_records",
        "worked_example_relative_score",
    ),
    "exercises": (
        "EXERCISE_1_A",
        "EXERCISE_2_REFERENCES",
        "EXERCISES",
        "Check",
        "check_answer",
        "check_solution",
        "exercise_3_cohort",
        "exercise_4_cohort",
    ),
    "plots": (
        "plot_averaging_order",
        "plot_floor_effect",
        "plot_phi_curve",
        "plot_solver_instance",
        "plot_track_contributions",
    ),
    "reports": (
        "SEED_MEANS",
        "SEED_VALUES",
        "ddof_contrast_report",
        "solver_score_report",
        "track_means_report",
    ),
    "uncertainty": ("close_indexes_report",),
    "widgets": (
        "TeachingWidget",
        "solver_score_widget",
        "strip_widget_views",
        "track_means_widget",
    ),
}

_SURFACE = public_surface(__name__, _PUBLIC)

__all__ = _SURFACE.all

__dir__ = _SURFACE.dir


def __getattr__(name: str) -> Any:
    return _SURFACE.getattr(name)
