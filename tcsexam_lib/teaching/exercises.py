"""The teaching notebook's exercises and the checks that say right or wrong, and why.

``check_answer(exercise, answer)`` looks the exercise up (by id or number) and returns a
:class:`Check`: ``correct`` (bool) and ``why`` (text), shown as a coloured box in a
notebook and as text elsewhere. It never prints. ``answer=None`` means "not answered
yet" (not correct, no error), so the notebook runs top to bottom before a student has
answered. An answer of the wrong kind (text for a number, an unknown term or status) is
answered in one line that says what is expected (a :class:`Check` whose ``kind_ok`` is
False; no traceback, and *Run All* goes on); :func:`check_answer` raises
:class:`ValueError` only for an exercise that does not exist.

The true answers are computed by the library (:func:`tcsexam_lib.score_solver_task`,
:func:`tcsexam_lib.compute_instance_stats`, :func:`tcsexam_lib.run_score` on a tiny
cohort), never typed in. The common mistakes that a check recognises (ddof 0, a
forgotten failure, pooled repeats...) are computed here as contrasts, labelled so: they
are not the rules.
"""

from __future__ import annotations

import html
import math
import numbers
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..formulas import (
    SCALE_TERMS,
    compute_instance_stats,
    mean_score,
    phi,
    scale_terms,
    z_score,
)
from ..scoring.solver import score_solver_task
from ..vocab import FIXED_SCALE_FLOOR_ABSOLUTE, FIXED_SCALE_FLOOR_RELATIVE
from .examples import (
    Attempt,
    TinyCohort,
    score_tiny_cohort,
    teaching_reference,
    worked_example_records,
)

#: The fixed reference's floors (relative, absolute), used by every exercise.
FLOORS = (FIXED_SCALE_FLOOR_RELATIVE, FIXED_SCALE_FLOOR_ABSOLUTE)

#: Numeric answers within this distance of the library's value count as right.
TOLERANCE = 1e-3

#: The model statuses of ``tcsexam score``.
STATUSES = ("complete", "provisional", "incomplete")

_COLOURS = {"right": "#0072B2", "wrong": "#D55E00", "unanswered": "#6b6b6b"}  # Okabe-Ito


@dataclass(frozen=True, repr=False)
class Check:
    """The verdict on one answer: ``correct`` and ``why`` (what was right or wrong)."""

    exercise: str
    number: int
    correct: bool
    why: str
    answered: bool = True
    #: False for an answer of the wrong kind (``why`` then says what is expected).
    kind_ok: bool = True

    @property
    def verdict(self) -> str:
        """``right``, ``not right yet``, ``not answered yet`` or ``not the kind of answer
        expected``."""
        if not self.kind_ok:
            return "not the kind of answer expected"
        if not self.answered:
            return "not answered yet"
        return "right" if self.correct else "not right yet"

    def __repr__(self) -> str:
        head = f"Exercise {self.number} ({self.exercise}): {self.verdict}"
        return f"{head}: {self.why}" if not self.kind_ok else f"{head}.\n{self.why}"

    def _repr_html_(self) -> str:
        key = "right" if self.correct else ("wrong" if self.answered else "unanswered")
        mark = {"right": "&#10004;", "wrong": "&#10008;", "unanswered": "&#8230;"}[key]
        why = html.escape(self.why).replace("\n", "<br>")
        head = f"<b>{mark} Exercise {self.number}: {self.verdict}.</b>"
        return (
            f'<div style="border-left:6px solid {_COLOURS[key]};background:#f7f7f7;'
            f'color:#1a1a1a;padding:6px 10px;margin:4px 0">'
            f"{head}{' ' if not self.kind_ok else '<br>'}{why}</div>"
        )


class _WrongKind(ValueError):
    """An answer of the wrong kind (turned into a :class:`Check` by :func:`check_answer`)."""


@dataclass(frozen=True)
class Exercise:
    """One exercise: its id, number, a one-line question and its check."""

    id: str
    number: int
    question: str
    expects: str
    check: Callable[[Any], Check]


def _number(exercise: Exercise, answer: Any) -> float:
    if isinstance(answer, bool) or not isinstance(answer, numbers.Real):
        hint = ""
        if isinstance(answer, str) and _parses_as_number(answer):
            hint = f": write the number without quotes, e.g. {answer.strip()}"
        raise _WrongKind(
            f"expected {exercise.expects}; got {answer!r} ({type(answer).__name__}){hint}"
        )
    value = float(answer)
    if not math.isfinite(value):
        raise _WrongKind(f"expected {exercise.expects}; got {answer!r}, not a finite number")
    return value


def _parses_as_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= TOLERANCE


def _partly_right(exercise: Exercise, labels: list[str], wrong: list[str], hint: str) -> Check:
    """A wrong answer to a multi-part exercise: which parts are right, which not, and a hint."""
    right_ones = [label for label in labels if label not in wrong]
    why = f"{', '.join(right_ones) or 'none'} right; {', '.join(wrong)} not right. {hint}"
    return Check(exercise.id, exercise.number, False, why)


def _numeric_check(
    exercise: Exercise,
    answer: Any,
    truth: float,
    right_why: str,
    mistakes: list[tuple[float, str]],
    hint: str,
) -> Check:
    if answer is None:
        return Check(exercise.id, exercise.number, False, hint, answered=False)
    value = _number(exercise, answer)
    if _close(value, truth):
        return Check(exercise.id, exercise.number, True, right_why)
    for mistaken, why in mistakes:
        if _close(value, mistaken):
            return Check(exercise.id, exercise.number, False, f"{value:.4g}: {why}")
    return Check(exercise.id, exercise.number, False, f"{value:.4g} is not it. {hint}")


# --- Exercise 1: a relative score by hand -------------------------------------------------

#: The candidate value of exercise 1 on example-1 (ILLUSTRATIVE; the seed has 12).
EXERCISE_1_A = 14


def _check_relative_score(answer: Any) -> Check:
    exercise = EXERCISES["relative-score"]
    reference = teaching_reference()
    result = score_solver_task(reference, "maxcut-mqlib", worked_example_records(EXERCISE_1_A))
    truth = result.relative_score
    row = result.rows[0]
    stats = reference.tasks["maxcut-mqlib"].scored["example-1"]
    # Contrasts (common mistakes), not the rule:
    population_s = statistics.pstdev([float(v) for v in stats.values])  # ddof 0
    floors = reference.scale_floor_relative, reference.scale_floor_absolute
    scale_0 = max(scale_terms(stats.mu, population_s, *floors).values())
    z_0 = z_score(EXERCISE_1_A, stats.mu, scale_0, "maximize")
    z_min = z_score(EXERCISE_1_A, stats.mu, stats.scale, "minimize")
    mistakes = [
        (
            row.score,
            f"that is example-1's instance score Phi({row.z:g}) alone. The relative score "
            "is the mean over both scored instances, and the timed-out example-2 scores 0.",
        ),
        (
            mean_score([phi(z_0), 0.0]),
            f"you used the population std (ddof 0, s = {population_s:.4g}, z = {z_0:.4g}). "
            f"The kit uses the sample std (ddof 1): s = {stats.s:g}.",
        ),
        (
            mean_score([phi(z_min), 0.0]),
            f"you flipped the sign of z (z = {z_min:g}): this task maximises, so "
            "z = (A - mu)/scale.",
        ),
        (
            row.z,
            "that is z of example-1; the instance score is Phi(z), and the relative score "
            "averages the instance scores.",
        ),
        (
            0.25,
            f"0.25 is the seed's worked example, with A = 12 (z = 0). Here A = {EXERCISE_1_A}.",
        ),
    ]
    right = (
        f"example-1: mu = {stats.mu:g}, s = {stats.s:g} (ddof 1), scale = {stats.scale:g} "
        f"(set by {stats.scale_term}), "
        f"z = ({EXERCISE_1_A} - {stats.mu:g})/{stats.scale:g} = {row.z:g}, "
        f"instance score Phi({row.z:g}) = {row.score:.4f}; the timed-out example-2 "
        f"scores 0; relative_score = ({row.score:.4f} + 0)/2 = {truth:.4f}."
    )
    hint = (
        "For example-1 compute mu, s (ddof 1), scale = max(s, 0.02|mu|, 1e-9), "
        "z = (A - mu)/scale and Phi(z); the timeout scores 0; average over the 2 scored "
        "instances. Give 3 decimals."
    )
    return _numeric_check(exercise, answer, truth, right, mistakes, hint)


# --- Exercise 2: which term sets the scale ------------------------------------------------

#: Exercise 2's three ILLUSTRATIVE references (values of one instance each).
EXERCISE_2_REFERENCES: dict[str, tuple[float, ...]] = {
    "a": (1, 5, 9),
    "b": (2e-10, 3e-10, 4e-10),
    "c": (49.5, 50, 50.5),
}


def _refuse_outside(answer: Mapping[str, Any], allowed: Sequence[str], what: str) -> None:
    """Refuse an answer whose values are not all among ``allowed`` (wrong kind)."""
    bad = {k: v for k, v in answer.items() if v not in allowed}
    if bad:
        raise _WrongKind(f"{bad}: each {what} is one of {', '.join(allowed)}")


def _scale_answer(exercise: Exercise, answer: Any) -> dict[str, str]:
    labels = list(EXERCISE_2_REFERENCES)
    if isinstance(answer, Mapping):
        given = dict(answer)
    elif isinstance(answer, list | tuple) and len(answer) == len(labels):
        given = dict(zip(labels, answer, strict=True))
    else:
        raise _WrongKind(f"expected {exercise.expects}; got {answer!r}")
    if sorted(given) != labels:
        raise _WrongKind(
            f"expected one answer for each of "
            f"{', '.join(labels)}; got {', '.join(map(str, given)) or 'none'}"
        )
    _refuse_outside(given, SCALE_TERMS, "answer")
    return given


def _check_scale_floor(answer: Any) -> Check:
    exercise = EXERCISES["scale-floor"]
    hint = (
        "For each reference compute the three terms: s (ddof 1), 0.02*|mu| and 1e-9; the "
        f"largest sets the scale. Answer with three names among {', '.join(SCALE_TERMS)}."
    )
    if answer is None:
        return Check(exercise.id, exercise.number, False, hint, answered=False)
    given = _scale_answer(exercise, answer)
    lines, wrong = [], []
    for label, values in EXERCISE_2_REFERENCES.items():
        stats = compute_instance_stats(values, *FLOORS)
        terms = scale_terms(stats.mu, stats.s, *FLOORS)
        shown = ", ".join(f"{name} {value:.3g}" for name, value in terms.items())
        if given[label] == stats.scale_term:
            lines.append(f"{label} {list(values)}: {shown} -> {stats.scale_term} (right)")
        else:
            wrong.append(label)
    if wrong:
        return _partly_right(exercise, list(EXERCISE_2_REFERENCES), wrong, hint)
    return Check(exercise.id, exercise.number, True, "\n".join(lines))


# --- Exercise 3: the averaging order ------------------------------------------------------


@lru_cache(maxsize=1)
def exercise_3_cohort() -> TinyCohort:
    """Exercise 3's ILLUSTRATIVE model: 3 attempts of ``thm-1`` (each 1), 0 elsewhere."""
    zero = {item: [0] for item in ("thm-2", "thm-3", "thm-4", "thm-5")}
    return score_tiny_cohort(
        {"illustrative-repeats": {"thm-1": [1, 1, 1], **zero}},
        {"illustrative-repeats": {"default": 1, "thm-1": 3}},
    )


def _check_averaging_order(answer: Any) -> Check:
    exercise = EXERCISES["averaging-order"]
    entry = exercise_3_cohort().model("illustrative-repeats")
    theorem = [task for task in entry.tasks if task.track == "theorem"]
    truth = entry.tracks["theorem"].mean
    attempts = [score for task in theorem for score in task.scores]
    # Contrasts (common mistakes), not the rule:
    pooled = mean_score(attempts)
    summed = math.fsum(attempts) / len(theorem)
    mistakes = [
        (
            pooled,
            f"you pooled the {len(attempts)} attempts, so thm-1 weighed 3 times as much as "
            "the others. First average each task's attempts, then the tasks.",
        ),
        (
            summed,
            "you added thm-1's three repeats instead of averaging them: its task mean is 1.",
        ),
        (1.0, "that is thm-1's task mean; P averages the 5 theorem tasks."),
    ]
    means = ", ".join(f"{task.item} {task.mean:g}" for task in theorem)
    right = (
        f"step 1, task means: {means}; step 2, P = mean over the {len(theorem)} tasks = "
        f"{truth:g}. Three repeats weigh the same as one: pooling the attempts would give "
        f"{pooled:.4f}."
    )
    hint = "Average each task's attempts first, then average the task means of the track."
    return _numeric_check(exercise, answer, truth, right, mistakes, hint)


# --- Exercise 4: predict the statuses -----------------------------------------------------


@lru_cache(maxsize=1)
def exercise_4_cohort() -> TinyCohort:
    """Exercise 4's ILLUSTRATIVE cohort of three models (statuses to predict)."""
    return score_tiny_cohort(
        {
            "model-x": {"thm-4": [Attempt(1, "excluded"), Attempt(0)]},
            "model-y": {
                "con-1": [
                    Attempt(None, "excluded", "judge_failed", "ILLUSTRATIVE: judge crashed"),
                    Attempt(1.0),
                ],
                "conj-1": [Attempt(0, "selected_provisional", note="ILLUSTRATIVE: awaits a check")],
            },
            "model-z": {
                "maxcut-mqlib": [
                    0.25,
                    Attempt(0.3, "excluded", note="ILLUSTRATIVE: wrong machine"),
                ]
            },
        },
        {"model-z": {"default": 1, "maxcut-mqlib": 2}},
    )


def _check_cohort_status(answer: Any) -> Check:
    exercise = EXERCISES["cohort-status"]
    cohort = exercise_4_cohort()
    models = list(cohort.result.results)
    hint = (
        "excluded rows are kept but never count; a warning does not change a status; "
        "provisional = complete but some adopted row is selected_provisional; incomplete = "
        "some planned task or repeat lacks an adopted valid row."
    )
    if answer is None:
        return Check(
            exercise.id,
            exercise.number,
            False,
            f"give a status for each of {', '.join(models)}. Hint: {hint}",
            answered=False,
        )
    if not isinstance(answer, Mapping) or sorted(answer) != sorted(models):
        raise _WrongKind(
            f"expected {exercise.expects}, with the keys {', '.join(models)}; got {answer!r}"
        )
    _refuse_outside(answer, STATUSES, "status")
    wrong = [m for m in models if answer[m] != cohort.model(m).status]
    if wrong:
        return _partly_right(exercise, models, wrong, f"Hint: {hint}")
    return Check(exercise.id, exercise.number, True, cohort.status_report())


# --- The registry -------------------------------------------------------------------------

EXERCISES: dict[str, Exercise] = {
    exercise.id: exercise
    for exercise in (
        Exercise(
            "relative-score",
            1,
            "The seed's task with A = 14 on example-1 (example-2 still times out): "
            "what is relative_score?",
            "a number such as 0.5",
            _check_relative_score,
        ),
        Exercise(
            "scale-floor",
            2,
            "Which term sets the scale of references a, b and c?",
            "three scale terms, e.g. ('sample_std', 'sample_std', 'sample_std') or a dict "
            "{'a': ..., 'b': ..., 'c': ...}",
            _check_scale_floor,
        ),
        Exercise(
            "averaging-order",
            3,
            "3 attempts of thm-1 scoring 1, 1, 1 and one attempt scoring 0 of each other "
            "theorem task: what is P?",
            "a number such as 0.5",
            _check_averaging_order,
        ),
        Exercise(
            "cohort-status",
            4,
            "What is the status of model-x, model-y and model-z?",
            "a dict {model: status}",
            _check_cohort_status,
        ),
    )
}


def check_answer(exercise: str | int, answer: Any) -> Check:
    """Check an answer to an exercise of the teaching notebook (by id or number).

    An answer of the wrong kind gets a :class:`Check` saying, in one line, what is
    expected (not an error); an unknown exercise raises :class:`ValueError`.

    Examples
    --------
    >>> check_answer("relative-score", 0.4207).correct
    True
    >>> check_answer(1, 0.8413).why.startswith("0.8413: that is example-1's instance score")
    True
    >>> check_answer(1, None).verdict
    'not answered yet'
    >>> wrong_kind = check_answer(1, "0.421")
    >>> wrong_kind.verdict
    'not the kind of answer expected'
    >>> print(wrong_kind.why)
    expected a number such as 0.5; got '0.421' (str): write the number without quotes, e.g. 0.421
    """
    found = None
    if isinstance(exercise, int) and not isinstance(exercise, bool):
        found = next((e for e in EXERCISES.values() if e.number == exercise), None)
    elif isinstance(exercise, str):
        found = EXERCISES.get(exercise)
    if found is None:
        known = ", ".join(f"{e.number} ({e.id})" for e in EXERCISES.values())
        raise ValueError(f"unknown exercise {exercise!r}; the exercises are {known}")
    try:
        return found.check(answer)
    except _WrongKind as wrong:
        return Check(found.id, found.number, False, str(wrong), kind_ok=False)


def check_solution(exercise: str | int, answer: Any) -> None:
    """The check of a solution's answer: nothing when it is right, an error when not.

    The teaching notebook's folded solution cells call it, so that they show nothing
    after *Run All* (JupyterLab unfolds a cell's outputs when it runs) while nbval still
    fails on a solution that the library does not accept.

    Examples
    --------
    >>> check_solution("relative-score", 0.4207)
    >>> try:
    ...     check_solution("relative-score", 0.5)
    ... except AssertionError as exc:
    ...     print(str(exc)[:55])
    the solution's answer to exercise 1 is not right: 0.5 i
    """
    check = check_answer(exercise, answer)
    if not check.correct:
        raise AssertionError(
            f"the solution's answer to exercise {check.number} is not right: {check.why}"
        )
