"""The teaching helpers: exercise checks, the widgets and their static fallbacks, the tiny
ILLUSTRATIVE cohorts and the plots (``tcsexam_lib.teaching``)."""

from __future__ import annotations

import math

import matplotlib
import nbformat
import pytest

from tcsexam_lib import teaching
from tcsexam_lib.teaching.exercises import EXERCISES
from tcsexam_lib.teaching.widgets import FALLBACK_NOTE, WIDGET_VIEW_MIMETYPE

matplotlib.use("Agg")

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
        ("relative-score", "0.42", r"expects a number such as 0\.5; got '0\.42' \(str\)"),
        ("relative-score", True, r"got True \(bool\)"),
        ("relative-score", math.inf, "not a finite number"),
        ("averaging-order", [0.2], r"expects a number"),
        ("scale-floor", ("sample_std",), r"expects three scale terms"),
        ("scale-floor", {"a": "sample_std"}, r"one answer for each of a, b, c; got a"),
        ("scale-floor", ("std", "sample_std", "sample_std"), r"each answer is one of sample_std"),
        ("cohort-status", {"model-x": "complete"}, r"with the keys model-x, model-y, model-z"),
        ("cohort-status", ["complete"] * 3, r"expects a dict \{model: status\}"),
        (
            "cohort-status",
            {"model-x": "done", "model-y": "complete", "model-z": "complete"},
            r"each status is one of complete, provisional, incomplete",
        ),
    ],
)
def test_answers_of_the_wrong_kind_are_refused(exercise, answer, match):
    with pytest.raises(ValueError, match=match):
        teaching.check_answer(exercise, answer)


@pytest.mark.parametrize("exercise", ["nope", 0, 5, True, None])
def test_unknown_exercises_are_refused(exercise):
    with pytest.raises(
        ValueError, match=r"unknown exercise .*the exercises are 1 \(relative-score\)"
    ):
        teaching.check_answer(exercise, 0.5)


# --- Reports (the widgets' static fallbacks) -----------------------------------------------


def test_solver_report_of_the_seed():
    text = teaching.solver_score_report()
    assert "mu = 12, s = 2 (sample std, ddof 1)" in text
    assert "sample_std                  2  <- sets the scale" in text
    assert text.endswith("z = (A - mu)/scale = 0\ninstance score Phi(z) = 0.5000")


def test_solver_report_names_the_floor_that_wins():
    tight = teaching.solver_score_report([999, 1000, 1001], 1001)
    assert "relative_floor 0.02*|mu|    20  <- sets the scale" in tight
    assert "z = (A - mu)/scale = 0.05" in tight
    constant = teaching.solver_score_report([0, 0, 0], 0)
    assert "absolute_floor              1e-09  <- sets the scale" in constant
    assert "Phi(z) = 0.5000" in constant


def test_solver_report_minimise_flips_z():
    text = teaching.solver_score_report([10, 12, 14], 14, direction="minimize")
    assert "z = (mu - A)/scale = -1" in text and "Phi(z) = 0.1587" in text


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"direction": "up"}, r"direction must be one of maximize, minimize; got 'up'"),
        ({"values": [5]}, r"fewer than two usable values"),
        ({"values": [5, None]}, r"fewer than two usable values"),
        ({"a": math.nan}, r"A must be a finite number"),
        ({"rel_floor": -0.1}, r"rel_floor must be >= 0"),
        ({"abs_floor": 0}, r"abs_floor must be > 0"),
    ],
)
def test_solver_report_refuses_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        teaching.solver_score_report(**kwargs)


def test_track_means_report_of_the_seed_gives_55_5():
    text = teaching.track_means_report(teaching.SEED_MEANS)
    assert "C (construction)  1.2    x 30 = 36 points" in text
    assert text.endswith("index = 30*P + 30*S + 30*C + 10*O = 55.5 points")


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"theorem": 1.5}, r"the theorem mean must be in \[0, 1\]; got 1\.5"),
        ({"solver": -0.1}, r"the solver mean must be in \[0, 1\]"),
        ({"construction": -1}, r"the construction mean must be >= 0"),
        ({"conjecture": math.nan}, r"the conjecture mean must be a finite number"),
        ({"model": 1}, r"unknown \['model'\]"),
    ],
)
def test_track_means_report_refuses_impossible_means(change, match):
    with pytest.raises(ValueError, match=match):
        teaching.track_means_report({**teaching.SEED_MEANS, **change})


def test_track_means_report_refuses_missing_tracks():
    with pytest.raises(ValueError, match=r"missing \['conjecture'\]"):
        teaching.track_means_report({"theorem": 0, "solver": 0, "construction": 0})


def test_track_means_report_allows_a_construction_bonus_above_100_points():
    text = teaching.track_means_report(
        {"theorem": 1, "solver": 1, "construction": 1.5, "conjecture": 1}
    )
    assert text.endswith("= 115 points")


def test_ddof_contrast_labels_ddof_0_as_a_contrast():
    text = teaching.ddof_contrast_report([10, 12, 14], 14)
    assert "ddof 1 (the rule)          2          2          1          0.8413" in text
    assert "ddof 0 (contrast only)     1.63299" in text
    two = teaching.ddof_contrast_report([5, 7], 7)
    assert "ddof 0 spread / ddof 1 spread = 0.707107" in two


# --- Widgets --------------------------------------------------------------------------------


def test_solver_widget_fallback_is_the_static_report():
    widget = teaching.solver_score_widget([10, 12, 14], 12)
    assert widget.text == teaching.solver_score_report([10, 12, 14], 12)
    bundle = widget._repr_mimebundle_()
    assert WIDGET_VIEW_MIMETYPE in bundle
    assert bundle["text/plain"] == f"{FALLBACK_NOTE}\n{widget.text}"
    assert repr(widget) == bundle["text/plain"]


def test_moving_the_solver_sliders_recomputes_the_readout_and_the_plot():
    widget = teaching.solver_score_widget()
    readout, image = widget.box.children[-1].children
    before = bytes(image.value)
    widget.controls["a"].value = 14
    assert "Phi(z) = 0.8413" in widget.text and "Phi(z) = 0.8413" in readout.value
    assert bytes(image.value) != before and bytes(image.value).startswith(b"\x89PNG")
    for name, value in (("v1", 11.9), ("v2", 12), ("v3", 12.1)):
        widget.controls[name].value = value
    assert "relative_floor 0.02*|mu|    0.24  <- sets the scale" in widget.text
    widget.controls["direction"].value = "minimize"
    assert "z = (mu - A)/scale" in widget.text
    widget.controls["rel_floor"].value = 0.5
    assert "relative_floor 0.5*|mu|" in widget.text
    assert widget.text == teaching.solver_score_report(
        [11.9, 12, 12.1], 14, rel_floor=0.5, direction="minimize"
    )


def test_track_means_widget_shows_the_index_and_each_contribution():
    widget = teaching.track_means_widget()
    assert widget.text == teaching.track_means_report(teaching.SEED_MEANS)
    widget.controls["construction"].value = 1.5
    assert "C (construction)  1.5    x 30 = 45 points" in widget.text
    assert widget.text.endswith("= 64.5 points")
    assert set(widget.controls) == {"theorem", "solver", "construction", "conjecture"}


def test_widgets_refuse_bad_arguments():
    with pytest.raises(ValueError, match=r"sliders for 3 reference values; got \[1, 2\]"):
        teaching.solver_score_widget([1, 2], 1)
    with pytest.raises(ValueError, match=r"direction must be one of"):
        teaching.solver_score_widget(direction="sideways")
    with pytest.raises(ValueError, match=r"the solver mean must be in \[0, 1\]"):
        teaching.track_means_widget({**teaching.SEED_MEANS, "solver": 2})


def test_strip_widget_views_keeps_the_plain_text_and_drops_the_state():
    notebook = nbformat.v4.new_notebook(metadata={"widgets": {"state": {}}})
    cell = nbformat.v4.new_code_cell("widget")
    cell.outputs = [
        nbformat.v4.new_output(
            "display_data", data={"text/plain": "fallback", WIDGET_VIEW_MIMETYPE: {"model_id": "a"}}
        ),
        nbformat.v4.new_output("display_data", data={WIDGET_VIEW_MIMETYPE: {"model_id": "b"}}),
        nbformat.v4.new_output("stream", name="stdout", text="kept\n"),
    ]
    notebook.cells += [cell, nbformat.v4.new_markdown_cell("text")]
    stripped, resources = teaching.strip_widget_views(notebook, {"r": 1})
    assert resources == {"r": 1}
    assert "widgets" not in stripped.metadata
    outputs = stripped.cells[0].outputs
    assert [dict(o.get("data", {})) for o in outputs] == [{"text/plain": "fallback"}, {}]
    assert outputs[1].text == "kept\n"
    nbformat.validate(stripped)


# --- Tiny cohorts ---------------------------------------------------------------------------


def test_the_seed_cohort_gives_55_5():
    cohort = teaching.score_tiny_cohort({"m": {}})
    entry = cohort.model("m")
    assert (entry["status"], entry["index"]) == ("complete", 55.5)
    assert cohort.result["simulated"] is True
    assert "provenance" not in cohort.result  # it would name a removed temporary folder
    assert teaching.worked_example_relative_score() == 0.25


def test_status_walkthrough_has_every_status_and_an_excluded_attempt():
    walk = teaching.status_walkthrough()
    statuses = {name: entry["status"] for name, entry in walk.result["models"].items()}
    assert statuses == {
        "walk-complete": "complete",
        "walk-provisional": "provisional",
        "walk-incomplete": "incomplete",
    }
    complete = walk.model("walk-complete")
    assert complete["index"] == 55.5  # the excluded attempt scoring 1 is not aggregated
    thm_3 = next(t for t in complete["tasks"] if t["item"] == "thm-3")
    assert [r["adoption_status"] for r in thm_3["rows"]] == ["excluded", "selected"]
    assert thm_3["adopted_valid_attempts"] == ["2"] and thm_3["mean"] == 0.0
    assert walk.model("walk-provisional")["index"] == 55.5
    assert walk.model("walk-incomplete")["index"] is None
    codes = {issue["code"] for issue in walk.model("walk-incomplete")["issues"]}
    assert codes == {"missing_attempt", "adopted_not_valid"}
    confirmed = teaching.status_walkthrough(confirmed=True)
    assert confirmed.model("walk-provisional")["status"] == "complete"


def test_attempts_table_shows_the_listed_rows():
    walk = teaching.status_walkthrough()
    table = walk.attempts_table(listed_only=True)
    assert list(table["item"]) == ["thm-3", "thm-3", "con-2", "thm-1", "thm-1", "con-1"]
    assert list(table.columns) == [
        "model",
        "track",
        "item",
        "attempt",
        "score",
        "adoption_status",
        "score_status",
        "note",
    ]
    assert table["note"].str.len().max() <= 50  # pandas shows at most 50 characters
    assert len(walk.attempts_table(models=["walk-complete"])) == 10


def test_tiny_cohort_refuses_unknown_items_models_and_statuses():
    with pytest.raises(ValueError, match=r"unknown item 'thm-9' of the teaching suite"):
        teaching.score_tiny_cohort({"m": {"thm-9": [1]}})
    with pytest.raises(ValueError, match=r"names models that have no attempts: \['other'\]"):
        teaching.score_tiny_cohort({"m": {}}, {"other": 2})
    with pytest.raises(ValueError, match=r"adoption_status 'chosen' is not one of selected"):
        teaching.Attempt(1, "chosen")
    with pytest.raises(ValueError, match=r"score_status 'ok' is not one of valid"):
        teaching.Attempt(1, "selected", "ok")


# --- Plots -----------------------------------------------------------------------------------


def test_plots_return_closed_figures_with_labelled_axes():
    import matplotlib.pyplot as plt

    entry = teaching.status_walkthrough().model("walk-complete")
    figures = [
        teaching.plot_phi_curve(),
        teaching.plot_solver_instance([10, 12, 14], 14, direction="minimize"),
        teaching.plot_floor_effect(),
        teaching.plot_averaging_order(entry),
        teaching.plot_track_contributions(teaching.SEED_MEANS),
    ]
    assert plt.get_fignums() == []  # closed: a notebook shows each once, as the cell's value
    for fig in figures:
        for ax in fig.axes:
            assert ax.get_xlabel(), f"an axis without a label in {fig}"


def test_plots_never_parse_task_ids_as_mathtext():
    entry = teaching.exercise_3_cohort().model("illustrative-repeats")
    fig = teaching.plot_averaging_order(entry)
    for ax in fig.axes:
        labels = ax.get_xticklabels()
        assert [label.get_text() for label in labels] == [
            "thm-1",
            "thm-2",
            "thm-3",
            "thm-4",
            "thm-5",
        ]
        assert all(label.get_parse_math() is False for label in labels)


def test_plot_colours_are_okabe_ito():
    okabe_ito = {"#0072b2", "#e69f00", "#009e73", "#d55e00", "#56b4e9", "#cc79a7"}
    fig = teaching.plot_floor_effect()
    colours = {
        matplotlib.colors.to_hex(line.get_color()) for ax in fig.axes for line in ax.get_lines()
    }
    assert colours <= okabe_ito
