"""The teaching notebook's exercises: a ladder from one instance to a whole attempts table.

Every true answer is computed by the library; the mistakes a check recognises are
contrasts, labelled so. How a check answers: docs/teaching.md, "What a student finds".
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from typing import Any

from ..formulas import combine_track_means, mean_score, phi, scale_terms, z_score
from ..scoring.solver import score_solver_task
from ..stats.wording import name_list
from ..vocab import FIXED_SCALE_FLOOR_ABSOLUTE, FIXED_SCALE_FLOOR_RELATIVE, TRACK_LETTERS, TRACKS
from .answers import (
    POINTS_TOLERANCE,
    Check,
    Exercise,
    Solution,
    WrongKind,
    as_names,
    as_yes_no,
    numeric_check,
    refuse_outside,
)
from .examples import (
    DIFFER_PAIR,
    FLOOR_CASE,
    INDEX_MODEL,
    MINIMIZE_CASE,
    RELATIVE_SCORE_A,
    SELF_CHECK_MODEL,
    ZERO_CASE,
    index_exercise_cohort,
    one_instance_reference,
    status_exercise_cohort,
    teaching_reference,
    worked_example_records,
)
from .self_check import (
    STATUS_HINTS,
    STATUSES,
    check_self_check,
    self_check_truth,
    show_self_check,
)
from .uncertainty import READING_COHORT, READING_TASKS, could_be_first, pairs

#: The fixed reference's floors (relative, absolute), used by every exercise.
_FLOORS = (FIXED_SCALE_FLOOR_RELATIVE, FIXED_SCALE_FLOOR_ABSOLUTE)

#: Exercise 3's two instances: the sample std sets one scale, the absolute floor the other.
MINIMIZE_CASES = (MINIMIZE_CASE, ZERO_CASE)


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

    >>> print(case_derivation(MINIMIZE_CASE).split("; z")[0])
    reference [190.0, 200.0, 210.0], minimize: mu = 200, s = 10 (ddof 1); the scale is the largest of sample_std 10, relative_floor 4, absolute_floor 1e-09: 10 (set by sample_std)
    """  # noqa: E501 - a doctest output line
    values, direction, _ = case
    row, stats = score_case(case)
    terms = scale_terms(stats.mu, stats.s, *_FLOORS)  # one_instance_reference's floors
    shown = ", ".join(f"{name} {value:.4g}" for name, value in terms.items())
    sign = "(A - mu)" if direction == "maximize" else "(mu - A)"
    return (
        f"reference {list(values)}, {direction}: mu = {stats.mu:.6g}, s = {stats.s:.4g} "
        f"(ddof 1); the scale is the largest of {shown}: {stats.scale:.4g} (set by "
        f"{stats.scale_term}); z = {sign}/scale = {row.z:.4g}; instance score "
        f"Phi({row.z:.4g}) = {row.score:.4f}."
    )


# --- 1. A relative score by hand ----------------------------------------------------------


def _relative_score_truth() -> float:
    records = worked_example_records(RELATIVE_SCORE_A)
    return score_solver_task(teaching_reference(), "maxcut-mqlib", records).relative_score


def _check_relative_score(answer: Any) -> Check:
    exercise = EXERCISES["relative-score"]
    reference = teaching_reference()
    result = score_solver_task(reference, "maxcut-mqlib", worked_example_records(RELATIVE_SCORE_A))
    row = result.rows[0]
    stats = reference.tasks["maxcut-mqlib"].scored["example-1"]
    a = RELATIVE_SCORE_A
    # Contrasts (common mistakes), not the rule:
    population_s = statistics.pstdev([float(v) for v in stats.values])  # ddof 0
    scale_0 = max(scale_terms(stats.mu, population_s, *_FLOORS).values())
    with_ddof_0 = mean_score([phi(z_score(a, stats.mu, scale_0, "maximize")), 0.0])
    flipped = mean_score([phi(z_score(a, stats.mu, stats.scale, "minimize")), 0.0])
    at_14 = score_solver_task(reference, "maxcut-mqlib", worked_example_records(14))
    mistakes = [
        (row.score, "that is example-1's instance score alone. The relative score is the "
         "mean over both scored instances, and the timed-out example-2 scores 0."),
        (with_ddof_0, f"you used the population std (ddof 0, s = {population_s:.4g}). "
         "The kit uses the sample std (ddof 1)."),
        (flipped, "you flipped the sign of z: this task maximizes, so z = (A - mu)/scale."),
        (row.z, "that is z of example-1; the instance score is Phi(z), and the relative "
         "score averages the instance scores."),
        (0.25, "0.25 is the seed's worked example, with A = 12."),
        (at_14.relative_score, f"that is the score with A = 14; here A = {a}."),
    ]  # fmt: skip
    right = (
        f"example-1: mu = {stats.mu:g}, s = {stats.s:g} (ddof 1), scale = {stats.scale:g} "
        f"(set by {stats.scale_term}), z = ({a} - {stats.mu:g})/{stats.scale:g} = {row.z:g}, "
        f"instance score Phi({row.z:g}) = {row.score:.4f}; the timed-out example-2 scores "
        f"0; relative_score = ({row.score:.4f} + 0)/2 = {result.relative_score:.4f}."
    )
    hint = "Work through mu, s, the scale, z and Phi(z) of example-1, then the task's mean."
    return numeric_check(exercise, answer, result.relative_score, right, mistakes, hint)


# --- 2. A floor case, 3. a minimize task ----------------------------------------------------


def _instance_mistakes(case) -> list[tuple[float, str]]:
    _, direction, a = case
    row, stats = score_case(case)
    other = "minimize" if direction == "maximize" else "maximize"
    verb, sign = ("maximizes", "(A - mu)") if direction == "maximize" else ("minimizes", "(mu - A)")
    # Contrasts (common mistakes), not the rule: a scale term that does not win, the sign
    terms = scale_terms(stats.mu, stats.s, *_FLOORS)
    wrong = {k: v for k, v in terms.items() if k != stats.scale_term and v > 1e-6}
    named = {"sample_std": "the sample std s =", "relative_floor": "the relative floor 0.02|mu| ="}
    largest = "The scale is the largest of s, 0.02|mu| and 1e-9: compare the three."
    mistakes = [
        (phi(z_score(a, stats.mu, v, direction)), f"you took {named[k]} {v:.4g} as the scale. "
         f"{largest}") for k, v in wrong.items()
    ]  # fmt: skip
    mistakes += [
        (phi(z_score(a, stats.mu, stats.scale, other)),
         f"you flipped the sign of z: this task {verb}, so z = {sign}/scale."),
        *((phi(z_score(a, stats.mu, v, other)), f"two slips: the sign of z (this task {verb}) "
           f"and the scale. {largest}") for v in wrong.values()),
        (row.z, "that is z; the instance score is Phi(z)."),
    ]  # fmt: skip
    return mistakes


def _check_instance(exercise_id: str, case, answer: Any) -> Check:
    exercise = EXERCISES[exercise_id]
    row, _ = score_case(case)
    hint = "Compute mu, s and the three terms of the scale, then z and Phi(z)."
    mistakes = _instance_mistakes(case)
    return numeric_check(exercise, answer, row.score, case_derivation(case), mistakes, hint)


def _check_minimize(answer: Any) -> Check:
    exercise = EXERCISES["minimize"]
    scores = [score_case(case)[0].score for case in MINIMIZE_CASES]
    mistakes = [
        (scores[0], "that is inst-1's instance score alone: average both instances."),
        (mean_score([scores[0], 0.5]), "inst-2: A = 2e-9 is not the reference mean 0. With s "
         "and 0.02|mu| both 0, the absolute floor 1e-9 sets the scale."),
    ]  # fmt: skip
    for k, case in enumerate(MINIMIZE_CASES):
        for value, why in _instance_mistakes(case)[:-1]:  # not "that is z"
            mistakes.append(
                (mean_score([*scores[:k], value, *scores[k + 1 :]]), f"inst-{k + 1}: {why}")
            )
    derivation = "\n".join(
        f"inst-{k}: {case_derivation(case)}" for k, case in enumerate(MINIMIZE_CASES, start=1)
    )
    right = (
        f"{derivation}\nrelative_score = ({scores[0]:.4f} + {scores[1]:.4f})/2 = "
        f"{mean_score(scores):.4f}."
    )
    hint = "For each instance: mu, s, the three terms of the scale, z and Phi(z); then the mean."
    return numeric_check(exercise, answer, mean_score(scores), right, mistakes, hint)


# --- 4. The index of a model, from its task scores ------------------------------------------


def _pooled_means(entry) -> dict[str, float]:
    """Contrast, not the rule: each track's mean over its pooled attempts."""
    return {
        track: mean_score([s for task in entry.tasks if task.track == track for s in task.scores])
        for track in TRACKS
    }


def _index_truth() -> float:
    return index_exercise_cohort().model(INDEX_MODEL).index


def _check_index(answer: Any) -> Check:
    exercise = EXERCISES["index"]
    entry = index_exercise_cohort().model(INDEX_MODEL)
    means = {track: entry.tracks[track].mean for track in TRACKS}
    pooled = _pooled_means(entry)
    first = "Average each task's attempts first, then the tasks."
    mistakes = [
        (combine_track_means(pooled), f"you pooled the attempts of each track: a task with "
         f"repeats then weighs more. {first}"),
        (combine_track_means({**means, "theorem": pooled["theorem"]}), "P pools thm-1's "
         f"three attempts with the other tasks'. {first}"),
        (combine_track_means({**means, "construction": pooled["construction"]}), "C pools "
         f"con-1's two attempts with con-2's. {first}"),
        (25 * sum(means.values()), "the four tracks do not weigh the same: 30 points each "
         "for P, S and C, 10 for O."),
        (combine_track_means({**means, "conjecture": 0.0}), "the conjecture track counts "
         "too (weight 10)."),
    ]  # fmt: skip
    parts = [
        f"{TRACK_LETTERS[t]} = {means[t]:.4g} x {entry.tracks[t].weight:g} = "
        f"{entry.tracks[t].contribution:.4g}"
        for t in TRACKS
    ]
    tasks = ", ".join(f"{task.item} {task.mean:.4g}" for task in entry.tasks)
    right = (
        f"step 1, each task's mean over its attempts: {tasks}; step 2, each track's mean "
        f"over its tasks; step 3, the weights: {'; '.join(parts)}; index = "
        f"{entry.index:.4g} points."
    )
    hint = f"{first} Then weigh the track means: 30P + 30S + 30C + 10O."
    return numeric_check(exercise, answer, entry.index, right, mistakes, hint, POINTS_TOLERANCE)


# --- 5. Predict the statuses ---------------------------------------------------------------


def _statuses_truth() -> dict[str, str]:
    return {m: e.status for m, e in status_exercise_cohort().result.results.items()}


def _check_statuses(answer: Any) -> Check:
    exercise = EXERCISES["statuses"]
    cohort = status_exercise_cohort()
    truth = _statuses_truth()
    models = list(truth)
    if not isinstance(answer, Mapping) or sorted(answer) != sorted(models):
        raise WrongKind(
            f"expected {exercise.expects}, with the keys {', '.join(models)}; got {answer!r}"
        )
    refuse_outside(dict(answer), STATUSES, "status")
    wrong = [m for m in models if answer[m] != truth[m]]
    if wrong:
        right_ones = name_list([m for m in models if m not in wrong]) or "none"
        hints = " ".join(STATUS_HINTS[truth[m]].format(model=m) for m in wrong)
        return exercise.wrong(f"{right_ones} right; {name_list(wrong)} not right. {hints}")
    said = ", ".join(f"{m} {truth[m]}" for m in models)
    return exercise.right(f"{said}. What the kit says of each:\n{cohort.status_report()}")


# --- 6. Which models could be first? 7. Do these two differ? -------------------------------


def _reading_pairs():
    return pairs(READING_COHORT, READING_TASKS)


def _could_be_first_truth() -> list[str]:
    return could_be_first(READING_COHORT, READING_TASKS)


def _check_could_be_first(answer: Any) -> Check:
    exercise = EXERCISES["could-be-first"]
    names = READING_COHORT.names
    answered = as_names(exercise, answer, names)
    truth = set(_could_be_first_truth())
    ahead = {pair.second: pair.first for pair in _reading_pairs() if pair.differ}
    if answered == truth:
        behind = [f"{ahead[n]} is shown to be ahead of {n}" for n in names if n in ahead]
        return exercise.right(
            f"{name_list([n for n in names if n in truth])}: no model is shown to be "
            f"ahead of them. The others: {'; '.join(behind)}."
        )
    hints = [
        f"{n}: the row {ahead[n]} - {n} says a model is shown to be ahead of it."
        for n in names
        if n in answered - truth
    ]
    hints += [
        f"{n}: is any model shown to be ahead of it? Read every row where it comes second."
        for n in names
        if n in truth - answered
    ]
    return exercise.wrong("Not yet. " + " ".join(hints))


def _differ_pair():
    wanted = set(DIFFER_PAIR)
    return next(p for p in _reading_pairs() if {p.first, p.second} == wanted)


def _differ_truth() -> str:
    return "yes" if _differ_pair().differ else "no"


def _check_differ(answer: Any) -> Check:
    exercise = EXERCISES["differ"]
    said = as_yes_no(exercise, answer)
    pair = _differ_pair()
    row = f"the row {pair.first} - {pair.second}"
    if said != pair.differ:
        return exercise.wrong(
            f"Read {row} alone: a difference is shown when its adjusted p is at most 5%. "
            "What the other rows say of either model decides nothing about this pair."
        )
    if pair.differ:
        return exercise.right(f"Yes: {row} has an adjusted p of at most 5%.")
    third = [
        p
        for p in _reading_pairs()
        if p.differ and len({p.first, p.second} & {pair.first, pair.second}) == 1
    ]
    via = f" ({third[0].first} differs from {third[0].second})" if third else ""
    n_pairs = len(_reading_pairs())
    holds = "holds 0 too" if pair.ci[0] <= 0 <= pair.ci[1] else "excludes 0, yet the verdict"
    return exercise.right(
        f"No: {row} has an adjusted p above 5%: the verdict adjusts for {n_pairs} pairs. "
        f"Its interval, this pair alone, {holds}. That another model differs from one of "
        f"them{via} tells nothing about these two."
    )


# --- The registry -------------------------------------------------------------------------


_NUMBER = "a number such as 0.5"

EXERCISES: dict[str, Exercise] = {
    exercise.id: exercise
    for exercise in (
        Exercise(
            "relative-score",
            1,
            f"the seed's task with A = {RELATIVE_SCORE_A} on example-1 (example-2 still times "
            "out): give its relative_score, 3 decimals.",
            _NUMBER,
            _check_relative_score,
            _relative_score_truth,
            "{:.4f}".format,
        ),
        Exercise(
            "floor-case",
            2,
            f"reference values {list(FLOOR_CASE[0])}, a {FLOOR_CASE[1]} task, A = "
            f"{FLOOR_CASE[2]:g}: give the instance score, 3 decimals.",
            _NUMBER,
            lambda answer: _check_instance("floor-case", FLOOR_CASE, answer),
            lambda: score_case(FLOOR_CASE)[0].score,
            "{:.4f}".format,
        ),
        Exercise(
            "minimize",
            3,
            "a minimize task: inst-1 reference values [190, 200, 210], A = 197; inst-2 "
            "reference values [0, 0, 0], A = 2e-9: give its relative_score, 3 decimals.",
            _NUMBER,
            _check_minimize,
            lambda: mean_score([score_case(case)[0].score for case in MINIMIZE_CASES]),
            "{:.4f}".format,
        ),
        Exercise(
            "index",
            4,
            f"give the index of {INDEX_MODEL} in points.",
            "a number such as 50.0",
            _check_index,
            _index_truth,
            lambda x: f"{x:.4g} points",
        ),
        Exercise(
            "statuses",
            5,
            "give the status of model-x, model-y and model-z.",
            "a dict {model: status}",
            _check_statuses,
            _statuses_truth,
            lambda x: ", ".join(f"{m} {s}" for m, s in x.items()),
        ),
        Exercise(
            "could-be-first",
            6,
            "name the models that could be first.",
            'a list of names, e.g. ["osprey"]',
            _check_could_be_first,
            _could_be_first_truth,
            name_list,
        ),
        Exercise(
            "differ",
            7,
            f'do {DIFFER_PAIR[0]} and {DIFFER_PAIR[1]} differ? Answer "yes" or "no".',
            '"yes" or "no"',
            _check_differ,
            _differ_truth,
        ),
        Exercise(
            "self-check",
            8,
            f"give the status and the index of {SELF_CHECK_MODEL}.",
            'a dict {"status": ..., "index": ...} (index None when there is none)',
            lambda answer: check_self_check(EXERCISES["self-check"], answer),
            self_check_truth,
            show_self_check,
        ),
    )
}


def _find(exercise: str | int) -> Exercise:
    found = None
    if isinstance(exercise, int) and not isinstance(exercise, bool):
        found = next((e for e in EXERCISES.values() if e.number == exercise), None)
    elif isinstance(exercise, str):
        found = EXERCISES.get(exercise)
    if found is None:
        known = ", ".join(f"{e.number} ({e.id})" for e in EXERCISES.values())
        raise ValueError(f"unknown exercise {exercise!r}; the exercises are {known}")
    return found


def check_answer(exercise: str | int, answer: Any) -> Check:
    """Check an answer to an exercise (by id or number); ``None`` gives the task again.

    A wrong kind of answer gets a one-line :class:`Check`; an unknown exercise: ``ValueError``.

    >>> check_answer("relative-score", 0.3457).correct
    True
    >>> check_answer(1, 0.6915).why.startswith("0.6915: that is example-1's instance score")
    True
    >>> check_answer(1, None).why.startswith("Task: the seed's task with A = 13")
    True
    >>> print(check_answer(1, "0.346").why)  # doctest: +NORMALIZE_WHITESPACE
    expected a number such as 0.5; got '0.346' (str): write the number without quotes,
    e.g. 0.346
    """
    found = _find(exercise)
    if answer is None:
        return found.unanswered()
    try:
        return found.check(answer)
    except WrongKind as wrong:
        return Check(found.id, found.number, False, str(wrong), kind_ok=False)


def solution(exercise: str | int) -> Solution:
    """An exercise's true answer and derivation (what :func:`check_answer` says of it; checked).

    >>> solution("minimize").answer
    '0.3203'
    """
    found = _find(exercise)
    truth = found.truth()
    check = found.check(truth)
    if not check.correct:
        raise AssertionError(f"exercise {found.number}'s own answer is refused: {check.why}")
    return Solution(found.id, found.number, found.show(truth), check.why)
