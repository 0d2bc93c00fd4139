"""The teaching notebook's exercises (``teaching/exercises.py``): every check with a right
and a wrong answer, what it says and why, and the refusals of an answer of the wrong kind.
"""

from __future__ import annotations

import math
import re

import pytest

from tcsexam_lib import teaching
from tcsexam_lib.teaching.exercises import EXERCISES

RIGHT_ANSWERS = {
    "relative-score": 0.4207,
    "scale-floor": ("sample_std", "absolute_floor", "relative_floor"),
    "averaging-order": 0.2,
    "cohort-status": {"model-x": "complete", "model-y": "provisional", "model-z": "incomplete"},
}


# --- Exercises -----------------------------------------------------------------------------


def test_every_exercise_has_a_right_answer_here():
    assert set(RIGHT_ANSWERS) == set(EXERCISES)
    assert sorted(e.number for e in EXERCISES.values()) == [1, 2, 3, 4]


@pytest.mark.parametrize("exercise", sorted(RIGHT_ANSWERS))
def test_a_right_answer_is_right_and_says_why(exercise):
    check = teaching.check_answer(exercise, RIGHT_ANSWERS[exercise])
    assert check.correct is True and check.answered is True
    assert check.verdict == "right"
    assert check.why
    assert repr(check).startswith(f"Exercise {EXERCISES[exercise].number} ({exercise}): right.")
    assert "&#10004;" in check._repr_html_() and "#0072B2" in check._repr_html_()


@pytest.mark.parametrize("exercise", sorted(RIGHT_ANSWERS))
def test_no_answer_yet_is_neither_right_nor_an_error(exercise):
    check = teaching.check_answer(exercise, None)
    assert check.correct is False and check.answered is False
    assert check.verdict == "not answered yet"
    assert check.why  # a hint


def test_exercises_answer_by_number_too():
    assert teaching.check_answer(1, 0.4207).correct
    assert teaching.check_answer(4, RIGHT_ANSWERS["cohort-status"]).correct


def test_exercise_1_right_answer_shows_the_steps():
    why = teaching.check_answer("relative-score", 0.42067).why
    assert "mu = 12, s = 2 (ddof 1)" in why
    assert "z = (14 - 12)/2 = 1" in why
    assert "relative_score = (0.8413 + 0)/2 = 0.4207" in why


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        (0.8413, "instance score Phi(1) alone"),
        (0.4449, "population std (ddof 0"),
        (0.0793, "flipped the sign of z"),
        (1, "that is z of example-1"),
        (0.25, "the seed's worked example, with A = 12"),
        (0.3, "0.3 is not it. For example-1 compute mu"),
    ],
)
def test_exercise_1_wrong_answers_say_what_went_wrong(answer, why):
    check = teaching.check_answer("relative-score", answer)
    assert check.correct is False and check.answered is True
    assert why in check.why
    assert "&#10008;" in check._repr_html_()


def test_exercise_2_names_the_wrong_parts_without_giving_them_away():
    check = teaching.check_answer("scale-floor", ("sample_std", "relative_floor", "relative_floor"))
    assert not check.correct
    assert check.why.startswith("a, c right; b not right.")
    assert "absolute_floor" not in check.why.split(".")[0]
    by_label = teaching.check_answer(
        "scale-floor", {"a": "sample_std", "b": "absolute_floor", "c": "relative_floor"}
    )
    assert by_label.correct
    assert "c [49.5, 50, 50.5]: sample_std 0.5, relative_floor 1" in by_label.why


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        (3 / 7, "you pooled the 7 attempts"),
        (0.6, "added thm-1's three repeats"),
        (1.0, "that is thm-1's task mean"),
    ],
)
def test_exercise_3_wrong_answers_say_what_went_wrong(answer, why):
    check = teaching.check_answer("averaging-order", answer)
    assert not check.correct and why in check.why


def test_exercise_3_right_answer_contrasts_pooling():
    why = teaching.check_answer("averaging-order", 0.2).why
    assert "P = mean over the 5 tasks = 0.2" in why and "0.4286" in why


def test_exercise_4_wrong_answer_names_the_wrong_models():
    check = teaching.check_answer(
        "cohort-status", {"model-x": "incomplete", "model-y": "provisional", "model-z": "complete"}
    )
    assert not check.correct
    assert check.why.startswith("model-y right; model-x, model-z not right. Hint:")


def test_exercise_4_right_answer_shows_the_deciding_issues():
    why = teaching.check_answer("cohort-status", RIGHT_ANSWERS["cohort-status"]).why
    assert "warning: model-x/theorem/thm-4" in why
    assert "model-z: status incomplete, index None" in why


@pytest.mark.parametrize(
    ("exercise", "answer", "match"),
    [
        (
            "relative-score",
            "0.42",
            r"expected a number such as 0\.5; got '0\.42' \(str\): write the number without "
            r"quotes, e\.g\. 0\.42$",
        ),
        ("relative-score", "abc", r"expected a number such as 0\.5; got 'abc' \(str\)$"),
        ("relative-score", True, r"got True \(bool\)"),
        ("relative-score", math.inf, "not a finite number"),
        ("averaging-order", [0.2], r"expected a number"),
        ("scale-floor", ("sample_std",), r"expected three scale terms"),
        ("scale-floor", {"a": "sample_std"}, r"one answer for each of a, b, c; got a"),
        ("scale-floor", ("std", "sample_std", "sample_std"), r"each answer is one of sample_std"),
        ("cohort-status", {"model-x": "complete"}, r"with the keys model-x, model-y, model-z"),
        ("cohort-status", ["complete"] * 3, r"expected a dict \{model: status\}"),
        (
            "cohort-status",
            {"model-x": "done", "model-y": "complete", "model-z": "complete"},
            r"each status is one of complete, provisional, incomplete",
        ),
    ],
)
def test_answers_of_the_wrong_kind_are_answered_in_one_line(exercise, answer, match):
    """No error (Run All goes on): a verdict saying what is expected, on one line."""
    check = teaching.check_answer(exercise, answer)
    assert not check.correct and not check.kind_ok and check.answered
    assert re.search(match, check.why)
    assert check.verdict == "not the kind of answer expected"
    text = repr(check)
    assert "\n" not in text and text.startswith(f"Exercise {check.number} ({exercise}): not the")
    assert "\n" not in check.why and "<br>" not in check._repr_html_()


@pytest.mark.parametrize("exercise", ["nope", 0, 5, True, None])
def test_unknown_exercises_are_refused(exercise):
    with pytest.raises(
        ValueError, match=r"unknown exercise .*the exercises are 1 \(relative-score\)"
    ):
        teaching.check_answer(exercise, 0.5)
