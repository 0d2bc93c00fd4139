"""The exercises' ILLUSTRATIVE data (no TCSExam value); cohorts scored once each (cached)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..formulas import scale_terms
from ..scoring.solver import score_solver_task
from .examples import Attempt, TinyCohort, one_instance_reference, score_tiny_cohort

#: Exercise 1: the seed's task with this candidate on example-1 (the seed has 12, and
#: the section's readouts show 12 and 14).
RELATIVE_SCORE_A = 13
#: Exercise 2 (a floor case: the relative floor wins) and exercise 3 (a minimize task: the
#: sample std wins): one instance each, as (reference values, direction, candidate A).
FLOOR_CASE = ((99.8, 100.0, 100.2), "maximize", 103.0)
MINIMIZE_CASE = ((190.0, 200.0, 210.0), "minimize", 197.0)
#: Exercise 3's second instance: every reference run reached 0, the absolute floor wins.
ZERO_CASE = ((0.0, 0.0, 0.0), "minimize", 2e-9)
#: Exercise 7: the pair of the reading exercise's cohort to compare.
DIFFER_PAIR = ("heron", "wren")

#: An instance case: (reference values, direction, candidate A).
Case = tuple[tuple[float, ...], str, float]


def score_case(case: Case) -> tuple[Any, Any]:
    """A case scored by the library: its row (``z``, ``score``) and its instance statistics."""
    values, direction, a = case
    reference = one_instance_reference(list(values), direction)
    record = {"instance": "example-1", "status": "ok", "A": a}
    row = score_solver_task(reference, "illustrative-task", [record]).rows[0]
    return row, reference.tasks["illustrative-task"].scored["example-1"]


def case_derivation(case: Case) -> str:
    """How the library scores a case, step by step (the solution of exercises 2 and 3).

    Examples
    --------
    >>> print(case_derivation(MINIMIZE_CASE).split("; z")[0])
    reference [190.0, 200.0, 210.0], minimize: mu = 200, s = 10 (ddof 1); the scale is the largest of sample_std 10, relative_floor 4, absolute_floor 1e-09: 10 (set by sample_std)
    """  # noqa: E501 - a doctest output line
    values, direction, _ = case
    row, stats = score_case(case)
    reference = one_instance_reference(list(values), direction)
    floors = reference.scale_floor_relative, reference.scale_floor_absolute
    terms = scale_terms(stats.mu, stats.s, *floors)
    shown = ", ".join(f"{name} {value:.4g}" for name, value in terms.items())
    sign = "(A - mu)" if direction == "maximize" else "(mu - A)"
    return (
        f"reference {list(values)}, {direction}: mu = {stats.mu:.6g}, s = {stats.s:.4g} "
        f"(ddof 1); the scale is the largest of {shown}: {stats.scale:.4g} (set by "
        f"{stats.scale_term}); z = {sign}/scale = {row.z:.4g}; instance score "
        f"Phi({row.z:.4g}) = {row.score:.4f}."
    )


#: The models of exercise 4 and of the self-check.
INDEX_MODEL = "illustrative-index"
SELF_CHECK_MODEL = "illustrative-self-check"


@lru_cache(maxsize=1)
def index_exercise_cohort() -> TinyCohort:
    """Exercise 4's model: repeats on thm-1 (3) and con-1 (2), one attempt elsewhere."""
    scores = {
        "thm-1": [1, 0, 0],
        "thm-2": [1],
        "thm-3": [1],
        "thm-4": [0],
        "thm-5": [0],
        "maxcut-mqlib": [0.6],
        "con-1": [0.5, 1.5],
        "con-2": [1.3],
        "conj-1": [1],
    }
    return score_tiny_cohort(
        {INDEX_MODEL: scores}, {INDEX_MODEL: {"default": 1, "thm-1": 3, "con-1": 2}}
    )


def index_exercise_scores() -> str:
    """Exercise 4's attempt scores, a line per task (every attempt adopted and valid).

    Examples
    --------
    >>> print(index_exercise_scores().splitlines()[0])
    theorem       thm-1         1, 0, 0
    """
    entry = index_exercise_cohort().model(INDEX_MODEL)
    return "\n".join(
        f"{task.track:<12}  {task.item:<12}  {', '.join(f'{s:g}' for s in task.scores)}"
        for task in entry.tasks
    )


@lru_cache(maxsize=1)
def status_exercise_cohort() -> TinyCohort:
    """Exercise 5's cohort of three models (statuses to predict)."""
    judge = Attempt(None, "excluded", "judge_failed", "ILLUSTRATIVE: judge crashed")
    pending = Attempt(0, "selected_provisional", note="ILLUSTRATIVE: awaits a check")
    other_machine = Attempt(0.3, "excluded", note="ILLUSTRATIVE: wrong machine")
    return score_tiny_cohort(
        {
            "model-x": {"thm-4": [Attempt(1, "excluded"), Attempt(0)]},
            "model-y": {"con-1": [judge, Attempt(1.0)], "conj-1": [pending]},
            "model-z": {"maxcut-mqlib": [0.25, other_machine]},
        },
        {"model-z": {"default": 1, "maxcut-mqlib": 2}},
    )


#: The self-check's notes.
SELF_CHECK_NOTES = (
    "ILLUSTRATIVE: ran with a wrong time limit",
    "ILLUSTRATIVE: judge crashed; re-judged",
    "ILLUSTRATIVE: certificate awaits a re-check",
)


@lru_cache(maxsize=1)
def self_check_cohort() -> TinyCohort:
    """The self-check's model: its whole attempts table is shown to the student."""
    timing, judge, certificate = SELF_CHECK_NOTES
    attempts = {
        "thm-1": [Attempt(1), Attempt(0, "excluded", note=timing), Attempt(1)],
        "thm-2": [0],
        "thm-3": [1],
        "thm-4": [0],
        "thm-5": [0],
        "maxcut-mqlib": [Attempt(0.25, "selected_provisional", note=certificate)],
        "con-1": [Attempt(None, "excluded", "judge_failed", judge), Attempt(1.2)],
        "con-2": [0.65],
        "conj-1": [0],
    }
    return score_tiny_cohort(
        {SELF_CHECK_MODEL: attempts}, {SELF_CHECK_MODEL: {"default": 1, "thm-1": 2}}
    )
