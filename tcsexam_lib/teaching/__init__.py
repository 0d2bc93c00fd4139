"""Helpers of the teaching notebook (``notebooks/teaching.ipynb``).

The notebook stays thin: every number it shows comes from a call here or in
:mod:`tcsexam_lib`, and every formula from :mod:`tcsexam_lib.formulas`.

- the formulas as text (the widgets' fallbacks): :func:`solver_score_report`,
  :func:`track_means_report`, :func:`ddof_contrast_report`;
- widgets (ipywidgets, imported lazily): :func:`solver_score_widget`,
  :func:`track_means_widget`, :func:`tasks_per_track_widget`; :func:`strip_widget_views`
  keeps their plain-text form in a stored notebook;
- exercises: :func:`check_answer` returns a :class:`Check` (``correct``, ``why``);
  :func:`solution` is an exercise's folded solution (its answer, computed, and the
  derivation); the exercises' ILLUSTRATIVE data (:mod:`.exercise_data`);
- examples: the seed's worked example (:func:`teaching_reference`,
  :func:`worked_example_records`) and tiny ILLUSTRATIVE cohorts scored with
  :func:`tcsexam_lib.run_score` (:func:`score_tiny_cohort`,
  :func:`status_walkthrough`);
- uncertainty: :func:`interval_report` (intervals, could be first, which pairs differ,
  with 5 to 160 tasks per track; the slider :func:`tasks_per_track_widget`),
  :func:`reading_exercise_report`, :func:`methods_note` (the stats library's own
  description of its methods, folded);
- plots (matplotlib, imported lazily): :func:`plot_phi_curve`,
  :func:`plot_solver_instance`, :func:`plot_floor_effect`,
  :func:`plot_averaging_order`, :func:`plot_track_contributions`,
  :func:`plot_index_intervals`.

Apart from the seed's worked examples (relative score 0.25, index 55.5), every value
here is ILLUSTRATIVE: not a TCSExam reference value or result.
"""

from typing import Any

from ..exports import public_surface

#: Every public name of the teaching helpers, under the module that defines it: written
#: once; ``__all__`` and the lookup on first use come from it.
_PUBLIC: dict[str, tuple[str, ...]] = {
    "answers": ("Check", "Solution"),
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
    "exercise_data": (
        "DIFFER_PAIR",
        "FLOOR_CASE",
        "MINIMIZE_CASE",
        "RELATIVE_SCORE_A",
        "index_exercise_cohort",
        "index_exercise_scores",
        "self_check_cohort",
        "status_exercise_cohort",
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
