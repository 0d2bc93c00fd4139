"""The teaching notebook's exercises (``teaching/exercises.py``): every check with a right
answer worked out by hand here, the mistakes it recognises and what it says of them, the
task (never the answer) before an answer is given, the folded solutions, and the refusals
of an answer of the wrong kind.
"""

from __future__ import annotations

import math
import re

import pytest

from tcsexam_lib import teaching
from tcsexam_lib.teaching.exercises import EXERCISES

#: The right answers, worked out by hand (the library must agree).
RIGHT_ANSWERS = {
    # example-1: mu 12, s 2, scale 2, z = (13 - 12)/2 = 0.5, Phi(0.5) = 0.69146; timeout 0
    "relative-score": 0.6914625 / 2,
    # mu 100, s 0.2 < 0.02 * 100 = 2: scale 2, z = 3/2 = 1.5, Phi(1.5) = 0.93319
    "floor-case": 0.9331928,
    # inst-1: mu 200, s 10 > 4: scale 10, z = (200 - 197)/10 = 0.3, Phi(0.3) = 0.61791;
    # inst-2: mu 0, s 0, 0: scale 1e-9, z = (0 - 2e-9)/1e-9 = -2, Phi(-2) = 0.02275
    "minimize": (0.6179114 + 0.0227501) / 2,
    # P = (1/3 + 1 + 1 + 0 + 0)/5, S = 0.6, C = (1 + 1.3)/2, O = 1: 14 + 18 + 34.5 + 10
    "index": 76.5,
    "statuses": {"model-x": "complete", "model-y": "provisional", "model-z": "incomplete"},
    "could-be-first": ["osprey", "heron"],
    "differ": "no",
    # P = (1 + 0 + 1 + 0 + 0)/5, S = 0.25 (provisional), C = (1.2 + 0.65)/2, O = 0
    "self-check": {"status": "provisional", "index": 12 + 7.5 + 27.75 + 0},
}


#: What must not show before an answer is given (differ: the task offers "yes" or "no").
ANSWER_PARTS = {
    "relative-score": ["0.346", "0.3457"],
    "floor-case": ["0.933"],
    "minimize": ["0.320", "0.3203"],
    "index": ["76.5"],
    "statuses": ["complete", "provisional", "incomplete"],
    "could-be-first": ["osprey", "heron"],
    "differ": [],
    "self-check": ["provisional", "47.25"],
}


def test_the_ladder_has_eight_exercises_with_a_right_answer_here():
    assert set(RIGHT_ANSWERS) == set(EXERCISES)
    assert [e.number for e in EXERCISES.values()] == list(range(1, 9))


@pytest.mark.parametrize("exercise", list(RIGHT_ANSWERS))
def test_a_right_answer_is_right_and_says_why(exercise):
    check = teaching.check_answer(exercise, RIGHT_ANSWERS[exercise])
    assert check.correct is True and check.answered is True, check.why
    assert check.verdict == "right"
    assert check.why
    assert repr(check).startswith(f"Exercise {EXERCISES[exercise].number} ({exercise}): right.")
    assert "&#10004;" in check._repr_html_() and "#0072B2" in check._repr_html_()


@pytest.mark.parametrize("exercise", list(RIGHT_ANSWERS))
def test_not_answered_yet_gives_the_task_and_never_the_answer(exercise):
    check = teaching.check_answer(exercise, None)
    assert check.correct is False and check.answered is False
    assert check.verdict == "not answered yet"
    assert check.why == f"Task: {EXERCISES[exercise].task}"
    for part in ANSWER_PARTS[exercise]:
        assert part not in check.why, part


@pytest.mark.parametrize("exercise", list(RIGHT_ANSWERS))
def test_the_folded_solution_is_the_library_s_answer_and_derivation(exercise):
    solution = teaching.solution(exercise)
    assert solution.number == EXERCISES[exercise].number
    assert solution.derivation == teaching.check_answer(exercise, RIGHT_ANSWERS[exercise]).why
    html = solution._repr_html_()
    assert html.startswith('<details class="tcs-solution"><summary>')  # folded until clicked
    assert "<details open" not in html
    assert repr(solution).startswith(f"Solution to exercise {solution.number} ({exercise})")


def test_exercises_answer_by_number_too():
    assert teaching.check_answer(1, 0.3457).correct
    assert teaching.check_answer(5, RIGHT_ANSWERS["statuses"]).correct


def test_exercise_1_right_answer_shows_the_steps():
    why = teaching.check_answer("relative-score", 0.34573).why
    assert "mu = 12, s = 2 (ddof 1)" in why
    assert "z = (13 - 12)/2 = 0.5" in why
    assert "relative_score = (0.6915 + 0)/2 = 0.3457" in why


_WRONG = [
    ("relative-score", 0.6915, "instance score alone"),
    ("relative-score", (1 + math.erf(0.6124 / math.sqrt(2))) / 4, "population std (ddof 0"),
    ("relative-score", 0.1543, "flipped the sign of z"),
    ("relative-score", 0.5, "that is z of example-1"),
    ("relative-score", 0.25, "the seed's worked example, with A = 12"),
    ("relative-score", 0.4207, "that is the score with A = 14"),
    ("relative-score", 0.3, "0.3 is not it. Work through mu, s"),
    ("floor-case", 1.0, "you took the sample std s = 0.2 as the scale"),
    ("floor-case", 0.0668, "flipped the sign of z: this task maximizes"),
    ("floor-case", 1.5, "that is z"),
    ("minimize", 0.2025, "inst-1: you flipped the sign of z: this task minimizes, so z = (mu - A)"),
    ("minimize", 0.7974, "inst-2: you flipped the sign of z"),
    ("minimize", 0.3981, "inst-1: you took the relative floor 0.02|mu| = 4 as the scale"),
    ("minimize", 0.1247, "inst-1: two slips"),
    ("minimize", 0.559, "inst-2: A = 2e-9 is not the reference mean 0"),
    ("minimize", 0.6179, "that is inst-1's instance score alone"),
    ("index", 73.857, "you pooled the attempts of each track"),
    ("index", 75.357, "P pools thm-1's three attempts"),
    ("index", 75.0, "C pools con-1's two attempts"),
    ("index", 80.417, "the four tracks do not weigh the same"),
    ("index", 66.5, "the conjecture track counts too"),
    ("self-check", {"status": "provisional", "index": 45.25}, "counts an excluded attempt"),
    ("self-check", {"status": "provisional", "index": None}, "has an index: compute it"),
    ("self-check", ("complete", 47.25), "look at how each row is adopted"),
    ("self-check", ("provisional", 50), "each task's mean over its adopted valid attempts"),
]


@pytest.mark.parametrize(("exercise", "answer", "why"), _WRONG)
def test_wrong_answers_say_what_went_wrong(exercise, answer, why):
    check = teaching.check_answer(exercise, answer)
    assert check.correct is False and check.answered is True and check.kind_ok
    assert why in check.why, check.why
    assert "&#10008;" in check._repr_html_()


def test_the_statuses_hints_name_the_wrong_models_only():
    check = teaching.check_answer(
        "statuses", {"model-x": "incomplete", "model-y": "provisional", "model-z": "complete"}
    )
    assert not check.correct
    assert check.why.startswith("model-y right; model-x and model-z not right.")
    assert "model-x: an excluded row never counts" in check.why
    assert "model-z: count its adopted valid rows" in check.why
    assert "model-y:" not in check.why


def test_the_right_statuses_show_the_deciding_issues():
    why = teaching.check_answer("statuses", RIGHT_ANSWERS["statuses"]).why
    assert "warning: model-x/theorem/thm-4" in why
    assert "model-z: status incomplete, index None" in why


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        (["osprey"], "heron: is any model shown to be ahead of it?"),
        (["osprey", "heron", "wren"], "wren: the row osprey - wren says"),
        ("osprey", "heron: is any model shown to be ahead of it?"),
    ],
)
def test_could_be_first_hints_point_at_the_row_to_read(answer, hint):
    check = teaching.check_answer("could-be-first", answer)
    assert not check.correct and hint in check.why
    assert teaching.check_answer("could-be-first", {"heron", "osprey"}).correct


def test_do_they_differ_reads_the_pair_itself():
    wrong = teaching.check_answer("differ", "yes")
    assert not wrong.correct and "Read the row heron - wren alone" in wrong.why
    right = teaching.check_answer("differ", False)
    assert right.correct and "osprey differs from wren" in right.why


@pytest.mark.parametrize(
    ("exercise", "answer", "match"),
    [
        (
            "relative-score",
            "0.35",
            r"expected a number such as 0\.5; got '0\.35' \(str\): write the number without "
            r"quotes, e\.g\. 0\.35$",
        ),
        ("relative-score", "abc", r"expected a number such as 0\.5; got 'abc' \(str\)$"),
        ("floor-case", True, r"got True \(bool\)"),
        ("minimize", math.inf, "not a finite number"),
        ("index", [76.5], r"expected a number"),
        ("statuses", {"model-x": "complete"}, r"with the keys model-x, model-y, model-z"),
        ("statuses", ["complete"] * 3, r"expected a dict \{model: status\}"),
        (
            "statuses",
            {"model-x": "done", "model-y": "complete", "model-z": "complete"},
            r"each status is one of complete, provisional, incomplete",
        ),
        ("could-be-first", ["eagle"], r"'eagle' is not one of the names: osprey, heron, wren"),
        ("could-be-first", 3, r"expected a list of names"),
        ("differ", "maybe", r'expected "yes" or "no"; got \'maybe\''),
        ("self-check", "provisional", r"expected a dict \{\"status\": \.\.\., \"index\": \.\.\.\}"),
        ("self-check", ("done", 47.25), r"each status is one of complete, provisional"),
        ("self-check", ("provisional", "47.25"), r"write the number without quotes"),
    ],
)
def test_answers_of_the_wrong_kind_are_answered_in_one_line(exercise, answer, match):
    """No error (Run All goes on): a verdict saying what is expected, on one line."""
    check = teaching.check_answer(exercise, answer)
    assert not check.correct and not check.kind_ok and check.answered
    assert re.search(match, check.why), check.why
    assert check.verdict == "not the kind of answer expected"
    text = repr(check)
    assert "\n" not in text and text.startswith(f"Exercise {check.number} ({exercise}): not the")
    assert "\n" not in check.why and "<br>" not in check._repr_html_()


@pytest.mark.parametrize("exercise", ["nope", 0, 9, True, None])
def test_unknown_exercises_are_refused(exercise):
    with pytest.raises(
        ValueError, match=r"unknown exercise .*the exercises are 1 \(relative-score\)"
    ):
        teaching.check_answer(exercise, 0.5)
    with pytest.raises(ValueError, match=r"unknown exercise"):
        teaching.solution(exercise)


def test_no_answer_is_shown_above_its_exercise():
    """Each exercise's answer is absent from the notebook's outputs before its own cells."""
    import nbformat

    from tcsexam_lib.paths import KIT_ROOT

    notebook = nbformat.read(KIT_ROOT / "notebooks" / "teaching.ipynb", as_version=4)
    outputs = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        match = re.search(r'teaching\.check_answer\("([\w-]+)"', cell.source)
        if match:
            exercise = match.group(1)
            answer = teaching.solution(exercise).answer
            if exercise in ("relative-score", "floor-case", "minimize", "index", "self-check"):
                number = re.search(r"\d+\.\d+|\d+", answer).group(0)
                shown = "\n".join(outputs)
                assert number not in shown, (exercise, number)
        for output in cell.outputs:
            outputs.append(output.get("text", "") or output.get("data", {}).get("text/plain", ""))


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        (76.51, None),  # P rounded to 3 decimals (0.467): 76.51, the method was right
        (76.46, None),
        (73.86, "you pooled the attempts of each track"),  # as that hint prints it
        (75.36, "P pools thm-1's three attempts"),
        (80.42, "the four tracks do not weigh the same"),
    ],
)
def test_exercise_4_forgives_rounding_and_knows_each_mistake_as_its_hint_prints_it(answer, why):
    check = teaching.check_answer("index", answer)
    assert check.correct is (why is None), check.why
    if why:
        assert check.why.startswith(f"{answer:.4g}: {why}"), check.why


def test_every_printed_mistake_is_recognised_at_its_printed_rounding():
    for exercise, answer, why in _WRONG:
        if isinstance(answer, float) and "is not it" not in why:
            printed = float(f"{answer:.4g}")  # as the hint prints it
            assert why in teaching.check_answer(exercise, printed).why, (exercise, printed)


@pytest.mark.parametrize("status", ["complete", "provisional", "incomplete"])
@pytest.mark.parametrize("index", [None, 47.25, 45.25, 50.0])
def test_exercise_8_feedback_never_states_the_true_status(status, index):
    truth = RIGHT_ANSWERS["self-check"]["status"]
    check = teaching.check_answer("self-check", {"status": status, "index": index})
    assert check.correct or status == truth or truth not in check.why, check.why
