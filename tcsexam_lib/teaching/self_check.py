"""Exercise 8 of the teaching notebook, the self-check: from an attempts table to a status
and an index (its check, its answer and the contrast its hints recognise)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..formulas import combine_track_means, mean_score
from ..vocab import TRACK_LETTERS, TRACKS
from .answers import POINTS_TOLERANCE, Check, Exercise, WrongKind, as_number, close, refuse_outside
from .examples import SELF_CHECK_MODEL, self_check_cohort

#: The model statuses of ``tcsexam score``.
STATUSES = ("complete", "provisional", "incomplete")

#: A hint for a model whose status was mistaken, by its true status.
STATUS_HINTS = {
    "complete": "{model}: an excluded row never counts, and a missing note is a warning, "
    "which changes no status. Does every planned attempt have an adopted valid row?",
    "provisional": "{model}: every planned attempt has an adopted valid row; look at how "
    "each row is adopted.",
    "incomplete": "{model}: count its adopted valid rows against the attempts it plans.",
}


def self_check_truth() -> dict[str, Any]:
    entry = self_check_cohort().model(SELF_CHECK_MODEL)
    return {"status": entry.status, "index": entry.index}


def show_self_check(truth: dict[str, Any]) -> str:
    index = "None" if truth["index"] is None else f"{truth['index']:.4g}"
    return f"status {truth['status']}, index {index}"


def _self_check_answer(exercise: Exercise, answer: Any) -> tuple[str, float | None]:
    if isinstance(answer, Mapping) and sorted(answer) == ["index", "status"]:
        status, index = answer["status"], answer["index"]
    elif isinstance(answer, list | tuple) and len(answer) == 2:
        status, index = answer
    else:
        raise WrongKind(f"expected {exercise.expects}; got {answer!r}")
    refuse_outside({"status": status}, STATUSES, "status")
    return status, None if index is None else as_number(exercise, index)


def _index_counting_excluded(entry) -> float:
    """Contrast, not the rule: the index had every row with a score been averaged."""
    means = {}
    for track in TRACKS:
        task_means = [
            mean_score([row.score for row in task.rows if row.score is not None])
            for task in entry.tasks
            if task.track == track
        ]
        means[track] = mean_score(task_means)
    return combine_track_means(means)


def check_self_check(exercise: Exercise, answer: Any) -> Check:
    """Exercise 8's check: the status and the index of one model; a wrong status gets the
    hint of its true status's rule, never the status itself."""
    status, index = _self_check_answer(exercise, answer)
    entry = self_check_cohort().model(SELF_CHECK_MODEL)
    problems = []  # never the true status: the hints use the status answered
    if status != entry.status:
        problems.append(STATUS_HINTS[entry.status].format(model="The status"))
    if status == "incomplete" and index is not None:
        problems.append("An incomplete model has no index: answer None.")
    elif status != "incomplete" and index is None:
        problems.append(f"A {status} model has an index: compute it.")
    elif None not in (index, entry.index) and not close(index, entry.index, POINTS_TOLERANCE):
        if close(index, _index_counting_excluded(entry), POINTS_TOLERANCE):
            problems.append("The index counts an excluded attempt: excluded rows are kept, "
                            "never averaged.")  # fmt: skip
        else:
            problems.append("The index: each task's mean over its adopted valid attempts, "
                            "then each track's mean, then 30P + 30S + 30C + 10O.")  # fmt: skip
    if problems:
        return exercise.wrong(" ".join(problems))
    means = "; ".join(f"{TRACK_LETTERS[t]} = {entry.tracks[t].mean:.4g}" for t in TRACKS)
    report = self_check_cohort().status_report()
    return exercise.right(f"{show_self_check(self_check_truth())}; {means}.\n{report}")
