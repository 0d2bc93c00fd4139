"""Every sentence of the teaching notebook that states a number is checked against the library.

The notebook's prose (its markdown cells) is read as a student reads it. Each sentence
that states a number is a :class:`Claim`: an exact passage of the text (whitespace
normalised) and a check that computes the same figures with ``tcsexam_lib``. A test
fails if a passage is no longer in the notebook, if the library disagrees with it, or if
a digit is left in the prose that no claim covers (outside headings, the contents,
exercise and step numbers, ``ddof 1``, and ids such as ``thm-1`` in code spans): a new
sentence with a number needs its check here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import nbformat
import numpy as np
import pytest

from tcsexam_lib import (
    FIXED_REFERENCE_ID,
    TRACK_WEIGHTS,
    combine_track_means,
    compute_instance_stats,
    instance_score,
    score_solver_task,
    teaching,
)
from tcsexam_lib.errors import InputRefused
from tcsexam_lib.formulas import phi, track_contribution
from tcsexam_lib.stats.intervals import stratified_standard_error, track_moments, undrawn_share
from tcsexam_lib.stats.method import METHOD
from tcsexam_lib.teaching import examples, uncertainty
from tcsexam_lib.teaching.answers import TOLERANCE
from tcsexam_lib.vocab import (
    COMPLETED_FAILURE_STATUSES,
    FIXED_SCALE_FLOOR_ABSOLUTE,
    FIXED_SCALE_FLOOR_RELATIVE,
)

TEACHING = Path(__file__).resolve().parents[2] / "notebooks" / "teaching.ipynb"
#: A learner's pace through prose, formulas, code and printed tables, in words a minute, and
#: the minutes an exercise takes: issue 41's reader (2026-12-06) took about 45 minutes for
#: 5,700 words (127 a minute) and 30 to 45 for the eight exercises.
WORDS_PER_MINUTE = 130
MINUTES_PER_EXERCISE = 5


def total_minutes() -> int:
    """Reading (unfolded words at a learner's pace) plus the exercises, in minutes."""
    return math.ceil(reading_words()[0] / WORDS_PER_MINUTE) + MINUTES_PER_EXERCISE * len(
        teaching.EXERCISES
    )


def _normalised(text: str) -> str:
    return " ".join(text.split())


def _notebook() -> nbformat.NotebookNode:
    return nbformat.read(TEACHING, as_version=4)


def _prose() -> list[str]:
    return [_normalised(c.source) for c in _notebook().cells if c.cell_type == "markdown"]


def _code() -> str:
    return "\n".join(c.source for c in _notebook().cells if c.cell_type == "code")


def _headings() -> dict[str, str]:
    """``{"4": "The scale and its two floors", ...}``."""
    found = {}
    for text in (c.source for c in _notebook().cells if c.cell_type == "markdown"):
        for number, title in re.findall(r"^## (\d+)\. (.+)$", text, flags=re.MULTILINE):
            found[number] = title
    return found


# --- the library's figures the prose quotes ----------------------------------------------


def _stats(values):
    return compute_instance_stats(
        list(values), FIXED_SCALE_FLOOR_RELATIVE, FIXED_SCALE_FLOOR_ABSOLUTE
    )


def _score(values, a, direction="maximize"):
    return instance_score(a, _stats(values), direction)


def _seed_cohort_b():
    model = "illustrative-model-b"
    cohort = teaching.score_tiny_cohort(
        {model: {"thm-1": [1, 1, 0]}}, {model: {"default": 1, "thm-1": 3}}
    )
    return cohort.model(model)


def _plan(cohort, model) -> dict[str, int]:
    return {task.item: task.planned_attempts for task in cohort.model(model).tasks}


def _widths(n_tasks):
    out = uncertainty.analyse(uncertainty.SLIDER_COHORT, n_tasks)
    return out.index_ci[1] - out.index_ci[0]


def _differ(cohort, n_tasks, first, second) -> bool:
    pair = next(
        p for p in uncertainty.pairs(cohort, n_tasks) if {p.first, p.second} == {first, second}
    )
    return pair.differ


def reading_words() -> tuple[int, int]:
    """(words a reader meets unfolding nothing, words folded away): prose, code and text
    outputs; images aside. Folded: the solutions and the methods note."""

    def words(text: str) -> int:
        return len(text.split())

    shown = folded = 0
    for cell in _notebook().cells:
        shown += words(cell.source)
        outputs = 0
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "image/png" in data:
                continue
            outputs += words(output.get("text", "") or data.get("text/plain", ""))
        hidden = "solution" in cell.metadata.get("tags", []) or "methods_note" in cell.source
        folded += outputs if hidden else 0
        shown += 0 if hidden else outputs
    return shown, folded


# --- checks --------------------------------------------------------------------------------


def _check_two_scores():
    assert _score([10, 12, 14], 12)[1] == 0.5
    assert _score([10, 12, 14], 12 + 4 * 2)[1] > 0.99  # several spreads better: near 1
    timeout = score_solver_task(
        teaching.one_instance_reference([10, 12, 14]),
        "illustrative-task",
        [{"instance": "example-1", "status": "timeout"}],
    )
    assert timeout.relative_score == 0.0


def _check_weights():
    assert TRACK_WEIGHTS == {"theorem": 30, "solver": 30, "construction": 30, "conjecture": 10}


def _check_index_above_100():
    _check_weights()
    means = {"theorem": 1.0, "solver": 1.0, "construction": 1.5, "conjecture": 1.0}
    assert combine_track_means(means) == 115 > 100


def _check_reading_time():
    assert 75 <= total_minutes() <= 105, total_minutes()  # about an hour and a half


def _check_not_the_fixed_reference():
    assert teaching.teaching_reference().reference_id != FIXED_REFERENCE_ID


def _check_phi_percentile():
    assert round(phi(1.0), 2) == 0.84


def _check_three_runs():
    assert len(teaching.SEED_VALUES) == 3  # beaten 0, 1, 2 or 3 times


def _section(number: str, word: str) -> Callable[[], None]:
    def check():
        assert word in _headings()[number].lower(), _headings()[number]

    return check


def _check_missing_is_not_zero():
    walk = teaching.status_walkthrough()
    assert walk.model("walk-incomplete").index is None


def _check_seed_example():
    data = teaching.teaching_reference_data()["tasks"]["maxcut-mqlib"]["instances"]
    assert data["example-1"] == [10, 12, 14]
    assert teaching.worked_example_records() == [
        {"instance": "example-1", "status": "ok", "A": 12},
        {"instance": "example-2", "status": "timeout"},
    ]


def _check_at_least_two_values():
    assert _stats([5]) is None and _stats([5, None]) is None and _stats([5, 7]) is not None


def _check_formulas():
    rng = np.random.default_rng(7)
    for values in (rng.normal(50, 5, 3), rng.normal(0, 1e-12, 4), np.full(3, 200.0)):
        stats = _stats(values.tolist())
        mu, s = float(np.mean(values)), float(np.std(values, ddof=1))
        assert math.isclose(stats.mu, mu, rel_tol=1e-12, abs_tol=1e-15)
        assert math.isclose(stats.s, s, rel_tol=1e-9, abs_tol=1e-15)
        expected = max(s, FIXED_SCALE_FLOOR_RELATIVE * abs(mu), FIXED_SCALE_FLOOR_ABSOLUTE)
        assert math.isclose(stats.scale, expected, rel_tol=1e-9)


def _check_floors():
    reference = teaching.teaching_reference()
    assert (reference.scale_floor_relative, reference.scale_floor_absolute) == (0.02, 1e-9)
    assert (FIXED_SCALE_FLOOR_RELATIVE, FIXED_SCALE_FLOOR_ABSOLUTE) == (0.02, 1e-9)


def _check_failures_score_zero():
    reference = teaching.one_instance_reference([10, 12, 14])
    for status in sorted(COMPLETED_FAILURE_STATUSES):
        out = score_solver_task(
            reference, "illustrative-task", [{"instance": "example-1", "status": status}]
        )
        assert out.rows[0].score == 0.0, status


def _check_timeout_whatever_values():
    for values in ([5, 7], [1e6, 2e6], [-3, 3]):
        data = teaching.teaching_reference_data()
        data["tasks"]["maxcut-mqlib"]["instances"]["example-2"] = values
        from tcsexam_lib.references.load import reference_from_data

        reference = reference_from_data(data, source="test")
        out = score_solver_task(reference, "maxcut-mqlib", teaching.worked_example_records())
        assert out.rows[1].score == 0.0


def _check_a_equals_mu():
    assert _score([10, 12, 14], 12) == (0.0, 0.5)


def _check_infrastructure_refused():
    reference = teaching.one_instance_reference([10, 12, 14])
    for status in ("missing", "judge_failed"):
        with pytest.raises(InputRefused, match=status):
            score_solver_task(
                reference, "illustrative-task", [{"instance": "example-1", "status": status}]
            )


def _check_worked_relative_score():
    assert teaching.worked_example_relative_score() == 0.25


def _check_ddof_factor():
    for values, factor in (([10, 12, 14], 2 / 3), ([5, 7], 1 / 2)):
        n = len(values)
        assert math.isclose((n - 1) / n, factor)
        ratio = float(
            re.search(r"spread = ([\d.]+)", teaching.ddof_contrast_report(values, 0)).group(1)
        )
        assert math.isclose(ratio**2, factor, rel_tol=1e-5)
    assert _stats([10, 12, 14]).s == 2.0  # ddof 1, the rule


def _check_ddof_cells():
    assert "ddof_contrast_report([10, 12, 14], 14)" in _code()
    assert "ddof_contrast_report([5, 7], 7)" in _code()
    assert teaching.teaching_reference_data()["tasks"]["maxcut-mqlib"]["instances"][
        "example-2"
    ] == [5, 7]


def _check_phi_plot():
    assert "plot_phi_curve([10, 12, 14], 12)" in _code()
    stats = _stats([10, 12, 14])
    assert _score([10, 12, 14], stats.mu + 4 * stats.scale)[1] > 0.999
    assert _score([10, 12, 14], stats.mu - 4 * stats.scale)[1] < 0.001


def _check_slider_bullet_1():
    assert "solver_score_widget([10, 12, 14], 12)" in _code()
    assert _score([10, 12, 14], 14) == (1.0, pytest.approx(0.8413, abs=5e-5))
    z, score = _score([10, 12, 14], 14, "minimize")
    assert z == -1.0 and round(score, 4) == 0.1587


def _check_slider_bullet_2():
    stats = _stats([11.9, 12, 12.1])
    assert round(stats.s, 6) == 0.1 and round(0.02 * abs(stats.mu), 6) == 0.24
    assert stats.scale_term == "relative_floor"
    z, score = instance_score(12.1, stats, "maximize")
    assert (round(z, 2), round(score, 2)) == (0.42, 0.66)
    alone = (12.1 - stats.mu) / stats.s  # contrast: the sample std alone
    assert (round(alone, 6), round(phi(alone), 2)) == (1.0, 0.84)
    assert "solver_score_report([11.9, 12, 12.1], 12.1)" in _code()


def _check_slider_bullet_3():
    stats = _stats([0, 0, 0])
    assert stats.scale_term == "absolute_floor"
    assert instance_score(0, stats, "maximize")[1] == 0.5


def _check_exercise_1():
    assert examples.RELATIVE_SCORE_A == 13
    assert "A = 13 on example-1" in teaching.EXERCISES["relative-score"].task


def _check_three_decimals():
    assert TOLERANCE >= 5e-4  # an answer rounded to 3 decimals is accepted
    for exercise in ("relative-score", "floor-case", "minimize"):
        truth = teaching.EXERCISES[exercise].truth()
        assert teaching.check_answer(exercise, round(truth, 3)).correct


def _check_two_percent():
    stats = _stats([999, 1000, 1001])
    z, _ = instance_score(1000 + 0.02 * 1000, stats, "maximize")
    assert math.isclose(z, 1.0)


def _check_absolute_floor():
    stats = _stats([0, 0, 0])
    assert stats.scale == 1e-9 and _score([0, 0, 0], 1e-6)[1] > 0.999


def _check_tight_example():
    stats = _stats([999, 1000, 1001])
    assert stats.s == 1 and stats.scale == 20 and stats.scale_term == "relative_floor"
    assert math.isclose(_score([999, 1000, 1001], 1001)[0], 0.05)


def _check_floor_picture():
    mu = 1000.0
    for d in np.logspace(-3, 3, 61):
        stats = _stats([mu - d, mu, mu + d])
        assert stats.scale >= 20 - 1e-9
        if d <= 20:
            assert instance_score(mu + 1, stats, "maximize")[1] < 0.52
    assert round(phi(1 / 1.0), 2) == 0.84 and phi(1 / 0.3) > 0.999


def _check_exercise_2():
    assert examples.FLOOR_CASE == ((99.8, 100.0, 100.2), "maximize", 103.0)


def _check_minimise_reads_the_same():
    assert _score([10, 12, 14], 10, "minimize")[1] > 0.5
    assert _score([10, 12, 14], 12, "minimize")[1] == 0.5
    assert "one_instance_reference([10, 12, 14], direction)" in _code()


def _check_solve_maximises():
    from tcsexam_lib.references.load import reference_from_data

    data = {
        "reference_id": "test-solve", "suite": "teaching", "scale_floor_relative": 0.02,
        "scale_floor_absolute": 1e-9, "unscored_reference_instances": [],
        "tasks": {"t": {"kind": "solve", "direction": "minimize", "instances": {"i": [0, 1]}}},
    }  # fmt: skip
    with pytest.raises(InputRefused, match=r"'direction' = \"minimize\" \(allowed: \"maximize\"\)"):
        reference_from_data(data, source="test")


def _check_exercise_3():
    assert examples.MINIMIZE_CASE == ((190.0, 200.0, 210.0), "minimize", 197.0)
    assert examples.ZERO_CASE == ((0.0, 0.0, 0.0), "minimize", 2e-9)
    terms = [
        teaching.exercises.score_case(c)[1].scale_term for c in teaching.exercises.MINIMIZE_CASES
    ]
    assert terms == ["sample_std", "absolute_floor"]


def _check_solver_sliders_stop_at_30():
    widget = teaching.solver_score_widget([10, 12, 14], 12)
    assert widget.controls["a"].max == widget.controls["v1"].max == 30
    assert math.isclose(phi(0.0), 0.5)  # formulas.phi, which exercises 1 to 3 name


def _check_seed_index():
    _check_weights()
    assert combine_track_means(teaching.SEED_MEANS) == 55.5
    assert teaching.SEED_MEANS == {
        "theorem": 0.4,
        "solver": 0.25,
        "construction": 1.2,
        "conjecture": 0.0,
    }


def _check_track_slider_ranges():
    sliders = teaching.track_means_widget(teaching.SEED_MEANS).controls
    assert [(s.min, s.max) for s in sliders.values()] == [(0, 1), (0, 1), (0, 2), (0, 1)]
    for track in ("theorem", "solver", "conjecture"):
        with pytest.raises(ValueError, match=r"in \[0, 1\]"):
            teaching.track_means_report({**teaching.SEED_MEANS, track: 1.01})
    teaching.track_means_report({**teaching.SEED_MEANS, "construction": 1.9})
    assert track_contribution("conjecture", 1.0) == 10
    ones = {"theorem": 1.0, "solver": 1.0, "construction": 1.0, "conjecture": 1.0}
    assert combine_track_means(ones) == 100
    assert combine_track_means({**ones, "construction": 1.01}) > 100


def _check_teaching_suite():
    counts = {track: len(items) for track, items in teaching.SUITE_TRACKS.items()}
    assert counts == {"theorem": 5, "solver": 1, "construction": 2, "conjecture": 1}
    assert teaching.SUITE_TRACKS["solver"] == ("maxcut-mqlib",)


def _check_repeats_weigh_the_same():
    entry = _seed_cohort_b()
    theorem = [task for task in entry.tasks if task.track == "theorem"]
    assert [len(task.scores) for task in theorem] == [3, 1, 1, 1, 1]
    assert entry.tracks["theorem"].mean == pytest.approx(np.mean([t.mean for t in theorem]))


def _check_p_formula():
    entry = _seed_cohort_b()
    tasks = [task for task in entry.tasks if task.track == "theorem"]
    formula = sum(sum(t.scores) / len(t.scores) for t in tasks) / len(tasks)
    assert math.isclose(entry.tracks["theorem"].mean, formula)


def _check_averaging_example():
    entry = _seed_cohort_b()
    thm_1 = next(task for task in entry.tasks if task.item == "thm-1")
    assert thm_1.scores == [1.0, 1.0, 0.0] and math.isclose(thm_1.mean, 2 / 3)
    assert math.isclose(entry.tracks["theorem"].mean, 1 / 3)
    pooled = [s for task in entry.tasks if task.track == "theorem" for s in task.scores]
    assert len(pooled) == 7 and math.isclose(sum(pooled) / 7, 3 / 7) and round(3 / 7, 2) == 0.43


def _check_exercise_4_plan():
    plan = _plan(examples.index_exercise_cohort(), examples.INDEX_MODEL)
    assert plan.pop("thm-1") == 3 and plan.pop("con-1") == 2 and set(plan.values()) == {1}


def _check_valid_zero():
    entry = teaching.score_tiny_cohort({"m": {}}).model("m")
    assert entry.status == "complete" and 0.0 in [s for t in entry.tasks for s in t.scores]


def _check_walkthrough_rows():
    walk = teaching.status_walkthrough()
    incomplete = walk.model("walk-incomplete")
    thm_1 = next(t for t in incomplete.tasks if t.item == "thm-1")
    assert thm_1.planned_attempts == 3 and len(thm_1.rows) == 2
    thm_3 = next(t for t in walk.model("walk-complete").tasks if t.item == "thm-3")
    assert thm_3.rows[0].adoption_status == "excluded"


def _check_excluded_kept_out():
    walk = teaching.status_walkthrough()
    entry = walk.model("walk-complete")
    assert entry.index == 55.5
    thm_3 = next(t for t in entry.tasks if t.item == "thm-3")
    assert thm_3.rows[0].score == 1.0 and thm_3.rows[0].adoption_status == "excluded"
    averaged_in = sum(row.score for row in thm_3.rows) / len(thm_3.rows)
    p_then = (1 + 1 + averaged_in + 0 + 0) / 5  # contrast: thm-1, thm-2 score 1
    assert (averaged_in, p_then) == (0.5, 0.5)


def _check_exercise_5_plan():
    cohort = examples.status_exercise_cohort()
    for model in ("model-x", "model-y", "model-z"):
        plan = _plan(cohort, model)
        expected = 2 if model == "model-z" else 1
        assert plan.pop("maxcut-mqlib") == expected and set(plan.values()) == {1}


def _check_level():
    """The notebook's intervals are at the 95% level (its calls use the default)."""
    import inspect

    for report in (uncertainty.interval_report, uncertainty.reading_exercise_report):
        assert inspect.signature(report).parameters["level"].default == 0.95
    assert "95% interval" in uncertainty.interval_report(20)


def _check_standard_error():
    _check_weights()
    values = uncertainty.simulated_task_means(uncertainty.SLIDER_COHORT, 20)
    weights = np.array(list(TRACK_WEIGHTS.values()), dtype=float)
    by_hand = np.sqrt(
        sum(
            weights[t] ** 2 * np.var(values[t], axis=1, ddof=1) / values[t].shape[1]
            for t in range(4)
        )
    )
    moments = track_moments(values)
    assert np.allclose(stratified_standard_error(moments.sd, moments.n), by_hand)


def _check_slider_story():
    assert uncertainty.DEFAULT_TASKS == 20 and "tasks_per_track_widget(20)" in _code()
    assert "interval_report(80)" in _code()
    ratio = _widths(80) / _widths(20)
    assert ((0.25 < ratio) & (ratio < 0.6)).all(), ratio
    cohort = uncertainty.SLIDER_COHORT
    assert not _differ(cohort, 20, "illustrative-b", "illustrative-a")
    assert _differ(cohort, 80, "illustrative-b", "illustrative-a")
    c, b = (cohort.names.index(name) for name in ("illustrative-c", "illustrative-b"))
    low, high = uncertainty.analyse(cohort, 5).index_ci
    assert low[c] < high[b] and _differ(cohort, 5, "illustrative-c", "illustrative-b")


def _check_sign_flip_share():
    """The p-value is the share of the sign patterns at least as far from 0 (brute force)."""
    import itertools

    from tcsexam_lib.stats.signflip import sign_flip_p

    parts = [np.array([[0.3, -0.1, 0.2]]), np.array([[0.5, 0.4, -0.2]])] + [np.zeros((1, 3))] * 2
    flat = np.concatenate(parts, axis=1)[0]
    signs = np.array(list(itertools.product([-1, 1], repeat=flat.size)))
    share = np.mean(np.abs(signs @ flat) >= abs(flat.sum()) - 1e-12)
    assert math.isclose(sign_flip_p(parts, [False] * 4)[0][0], share)


def _check_score_ranges():
    from tcsexam_lib.vocab import SCORE_RANGES, score_in_range

    for track in ("theorem", "conjecture"):
        assert SCORE_RANGES[track].startswith("exactly 0 or 1 (1 only if")
        assert [score_in_range(track, x) for x in (0, 0.5, 1)] == [True, False, True]
    assert [score_in_range("solver", x) for x in (-0.01, 0, 1, 1.01)] == [False, True, True, False]
    assert [score_in_range("construction", x) for x in (-0.01, 0, 1.5)] == [False, True, True]


def _check_holm():
    _check_reading_cohort()
    assert "holm" in METHOD["name"] and "Holm" in METHOD["p_holm"]


def _check_pair_interval_alone():
    assert "ci: this pair's alone, not adjusted" in METHOD["pairs"]


def _check_width_against_se():
    """Issue 41: the width is about 2 x 1.96 SE with many tasks, wider on undrawn share
    tracks (statistics v4)."""
    cohort = uncertainty.SLIDER_COHORT
    assert "(width 7.36; SE 0.85; undrawn share: P, S, O)" in uncertainty.interval_report(20)
    assert round(undrawn_share(20, 0.05), 2) == 0.17
    out = uncertainty.analyse(cohort, 160)
    b = cohort.names.index("illustrative-b")  # no track reaches the undrawn share
    assert uncertainty.reaching_tracks(cohort, 160, b) == []
    width = out.index_ci[1][b] - out.index_ci[0][b]
    assert abs(width / out.index_se[b] - 2 * 1.96) < 0.25


def _check_reading_cohort():
    assert uncertainty.READING_TASKS == 20 and len(uncertainty.READING_COHORT.models) == 4
    for pair in uncertainty.pairs(uncertainty.READING_COHORT, uncertainty.READING_TASKS):
        assert pair.differ == (pair.p_holm <= 0.05)


def _check_exercise_8_plan():
    plan = _plan(examples.self_check_cohort(), examples.SELF_CHECK_MODEL)
    assert plan.pop("thm-1") == 2 and set(plan.values()) == {1}


def _check_cheat_sheet_scale():
    _check_floors()
    assert _stats([999, 1000, 1001]).scale_term == "relative_floor"
    assert _stats([0, 0, 0]).scale_term == "absolute_floor"


def _check_summary_instance():
    _check_a_equals_mu()
    _check_failures_score_zero()


def _check_seed_relative_and_index():
    _check_worked_relative_score()
    _check_seed_index()


def _check_interval_narrows():
    """About half (the standard error), less where the undrawn share (about 3.7 / n_t) sets
    an end."""
    ratio = _widths(80) / _widths(20)
    assert ((0.25 < ratio) & (ratio < 0.6)).all()


@dataclass(frozen=True)
class Claim:
    passage: str
    check: Callable[[], None]


CLAIMS = [
    # the introduction
    Claim("a solver task's **relative score**, in [0, 1]: 0.5 is as good as the mean of the "
          "reference runs, near 1 beats it by several reference spreads, 0 is a failure",
          _check_two_scores),
    Claim("$30P + 30S + 30C + 10O$: it can exceed 100", _check_index_above_100),
    Claim("about an hour and a half, the exercises included", _check_reading_time),
    Claim("the reference used is not the fixed reference `paper-k3-fixed-260925`",
          _check_not_the_fixed_reference),
    # 1. why
    Claim('A score of 0.84 reads "better than 84% of what the reference runs would typically '
          'give"', _check_phi_percentile),
    Claim("three runs can only be beaten 0, 1, 2 or 3 times", _check_three_runs),
    Claim("the floors of section 4", _section("4", "floors")),
    Claim("a 0 in its place", _check_missing_is_not_zero),
    # 2. the solver relative score
    Claim("`example-1` with the values $[10, 12, 14]$ (three reference runs)", _check_seed_example),
    Claim("The candidate reaches $A = 12$ on `example-1` and **times out** on `example-2`",
          _check_seed_example),
    Claim(r"($n \ge 2$)", _check_at_least_two_values),
    Claim(r"$$\mu = \frac{1}{n}\sum_{i=1}^{n} v_i \qquad s = \sqrt{\frac{1}{n-1}\sum_{i=1}^{n} "
          r"\left(v_i - \mu\right)^2} \qquad \mathrm{scale} = \max\left(s,\; r\,|\mu|,\; "
          r"a\right)$$", _check_formulas),
    Claim("with the reference's floors $r = 0.02$ (relative) and $a = 10^{-9}$ (absolute)",
          _check_floors),
    Claim("a completed failure scores 0", _check_failures_score_zero),
    Claim("a timed-out instance scores 0 whatever they are", _check_timeout_whatever_values),
    Claim("$A = 12$ equals the reference mean: $z = 0$ and the score is exactly "
          r"$\Phi(0) = 0.5$", _check_a_equals_mu),
    Claim("`memory_limit`) scores 0", _check_failures_score_zero),
    Claim("is *refused*, never counted as 0", _check_infrastructure_refused),
    Claim("$(0.5 + 0)/2 = 0.25$", _check_worked_relative_score),
    Claim("$n-1$ (the rule)", _check_ddof_factor),
    Claim("on average by the factor $(n-1)/n$: $2/3$ with three runs, $1/2$ with two",
          _check_ddof_factor),
    Claim(r"by $\sqrt{2/3} = 0.816$ and $\sqrt{1/2} = 0.707$ (the ratios printed below)",
          _check_ddof_factor),
    Claim("the seed's values with an *ILLUSTRATIVE* $A = 14$, and `example-2`'s *ILLUSTRATIVE* "
          "values with $A = 7$", _check_ddof_cells),
    # 3. Phi, the sliders, exercise 1
    Claim("the seed's $A = 12$ is marked", _check_phi_plot),
    Claim("The score saturates towards 0 and 1", _check_phi_plot),
    Claim("move $A$ from 12 to 14: $z = 1$ and the score is 0.8413; switch the direction to "
          "*minimize*: $z = -1$ and the score is 0.1587", _check_slider_bullet_1),
    Claim("set the reference values to 11.9, 12 and 12.1 and $A$ to 12.1: the sample std (0.1) "
          r"is below $0.02\,|\mu| = 0.24$, so the **relative floor** sets the scale and "
          "$z = 0.42$, a score of 0.66, where the sample std alone would give $z = 1$ and 0.84",
          _check_slider_bullet_2),
    Claim("set the three reference values and $A$ to 0: only the **absolute floor** is left, "
          "and the score is 0.5", _check_slider_bullet_3),
    Claim("the candidate reaches $A = 13$ on `example-1`", _check_exercise_1),
    Claim("formulas of section 2", _section("2", "solver relative score")),
    Claim("your number (3 decimals)", _check_three_decimals),
    # 4. the floors, exercise 2
    Claim(r"$\mathrm{scale} = \max\left(s,\; 0.02\,|\mu|,\; 10^{-9}\right)$", _check_floors),
    Claim(r"($0.02\,|\mu|$)", _check_floors),
    Claim(r"one unit of $z$ needs 2% of $|\mu|$", _check_two_percent),
    Claim("**`absolute_floor`** ($10^{-9}$) only when both are (nearly) zero, as for a constant "
          "reference at 0: it keeps the division defined, and any candidate measurably better "
          "then scores almost 1", _check_absolute_floor),
    Claim("In the tight example the sample std is 1, but the relative floor "
          r"$0.02 \cdot 1000 = 20$ sets the scale: 1001 gets $z = 0.05$, not 1",
          _check_tight_example),
    Claim(r"$[\mu - d, \mu, \mu + d]$ with $\mu = 1000$: as the runs agree more closely the "
          "sample std $d$ falls, but the scale stops at 20 (left), and a candidate one unit "
          "better than the mean stays near 0.5, where the sample std alone would give 0.84 at "
          "$d = 1$ and above 0.999 once $d$ is below 0.3 (right)", _check_floor_picture),
    Claim("gave 99.8, 100 and 100.2; the candidate reaches $A = 103$", _check_exercise_2),
    Claim("What is its instance score (3 decimals)?", _check_three_decimals),
    Claim("What is the task's `relative_score` (3 decimals)?", _check_three_decimals),
    # 5. direction, exercise 3
    Claim("a value *below* the reference mean scores above 0.5", _check_minimise_reads_the_same),
    Claim("0.5 is as good as the reference mean. The values $[10, 12, 14]$ scored",
          _check_minimise_reads_the_same),
    Claim('`](#Glossary) tasks, 1 solved and 0 not, always maximize)', _check_solve_maximises),
    Claim("On `inst-1` the reference runs gave 190, 200 and 210 and the candidate reaches "
          "$A = 197$; on `inst-2` every reference run reached 0 and the candidate reaches "
          r"$A = 2 \times 10^{-9}$", _check_exercise_3),
    Claim("the sliders of section 3.1 stop at 30", _check_solver_sliders_stop_at_30),
    # glossary, where the task scores come from
    Claim("that the chance of any false \"shown to differ\" among them stays at most 5%",
          _check_holm),
    Claim("($P$): 1 if the judge accepted a complete proof, else 0 (partial credit counts 0)",
          _check_score_ranges),
    Claim("($O$): 1 if the judge accepted a complete proof or disproof, else 0",
          _check_score_ranges),
    Claim("the relative score against the fixed reference, in [0, 1]", _check_score_ranges),
    Claim("the task's own reward, at least 0 and never transformed", _check_score_ranges),
    Claim("the bonus for beating the reference, so it can exceed 1", _check_index_above_100),
    # 6. the index, exercise 4
    Claim(r"$$\text{index} = 30\,P + 30\,S + 30\,C + 10\,O$$", _check_weights),
    Claim(r"$P = 0.4,\ S = 0.25,\ C = 1.2,\ O = 0$ gives **55.5** points", _check_seed_index),
    Claim("$C$ may exceed 1 and the **index may exceed 100**", _check_index_above_100),
    Claim("($P$, $S$, $O$ in [0, 1]; $C$ from 0 to 2 here, though a construction mean has no "
          "upper bound)", _check_track_slider_ranges),
    Claim("move $O$ to 1 (it adds only 10 points); move $C$ past 1 with the others at 1 to pass "
          "100", _check_track_slider_ranges),
    Claim("suite (5 theorem tasks, the solver task of section 2, 2 construction tasks, 1 "
          "conjecture task)", _check_teaching_suite),
    Claim("3 repeats weigh the same as 1", _check_repeats_weigh_the_same),
    Claim(r"adopted attempt scores $x_{j,1}, \dots, x_{j,m_j}$ ($m_j$ attempts)", _check_p_formula),
    Claim(r"$$P = \frac{1}{|T|}\sum_{j \in T} \left( \frac{1}{m_j}\sum_{k=1}^{m_j} x_{j,k} "
          r"\right)$$", _check_p_formula),
    Claim("plans 3 attempts of `thm-1` (scores 1, 1, 0) and 1 of every other task. `thm-1` is "
          "worth its mean 2/3, and each of the 5 theorem tasks weighs 1/5: "
          "$P = (2/3 + 1 + 0 + 0 + 0)/5 = 1/3$. Pooling the seven attempts would give "
          r"$3/7 \approx 0.43$", _check_averaging_example),
    Claim("it planned 3 attempts of `thm-1`, 2 of `con-1` and 1 of every other task",
          _check_exercise_4_plan),
    # 7. statuses, exercise 5
    Claim("(a legitimate 0 is valid)", _check_valid_zero),
    Claim("`walk-incomplete` plans 3 attempts of `thm-1` but has 2", _check_walkthrough_rows),
    Claim("`walk-complete` keeps the seed's index 55.5: its excluded attempt scored 1, but only "
          "the adopted one counts (averaged in, it would make `thm-3`'s mean 0.5 and $P$ 0.5)",
          _check_excluded_kept_out),
    Claim("Each plans 1 attempt per task, except `model-z`, which plans 2 attempts of "
          "`maxcut-mqlib`", _check_exercise_5_plan),
    # 8. uncertainty, exercises 6 and 7
    Claim("A model's **95% interval**", _check_level),
    Claim("about 95 times in 100", _check_level),
    Claim(r"$$\mathrm{SE} = \sqrt{\sum_t \frac{W_t^2\, s_t^2}{n_t}}$$", _check_standard_error),
    Claim("(30 for $P$, $S$ and $C$; 10 for $O$), $s_t$ the sample standard deviation (ddof 1)",
          _check_standard_error),
    Claim("With many tasks the width is about $2 \\times 1.96$ SE; it is wider with few tasks (a "
          "t quantile replaces 1.96)", _check_width_against_se),
    Claim("the interval reaches as far as a share of about 17% of tasks at the far bound would "
          "take it (with 20 tasks; the share is $1 - 0.025^{1/n_t}$, the largest share that $n_t$ "
          "tasks all miss with probability 2.5%)", _check_width_against_se),
    Claim("With 20 tasks per track `illustrative-a` has an SE of 0.85 points but a width of "
          "7.36: three of its tracks reach that share", _check_width_against_se),
    Claim("shown to differ** when its adjusted p is at most 5%", _check_reading_cohort),
    Claim("whose total is at least as far from 0 as the difference seen", _check_sign_flip_share),
    Claim("and it can exclude 0 while the adjusted verdict", _check_pair_interval_alone),
    Claim("starting at 20. Move it to 80: every interval narrows to half or less, and "
          "`illustrative-b` and `illustrative-a`, not shown to differ at 20, now differ. At 5 "
          "the intervals of `illustrative-c` and `illustrative-b` overlap, yet the paired test "
          "shows them to differ. The next cell prints the readout for 80", _check_slider_story),
    Claim("four models, 20 tasks per track", _check_reading_cohort),
    Claim("pair differs when its [adjusted p](#Glossary) is at most 5%", _check_reading_cohort),
    # 9. self-check
    Claim("It plans 2 attempts of `thm-1` and 1 of every other task", _check_exercise_8_plan),
    # 10. summary, 11. cheat sheet
    Claim(r"| solver instance score $\Phi(z)$ | [0, 1] | higher is better | 0.5 = the reference "
          "mean; completed failures 0 |", _check_summary_instance),
    Claim("| task `relative_score` | [0, 1] | higher is better | mean over the scored instances "
          "(seed: 0.25) |", _check_worked_relative_score),
    Claim("| index $30P + 30S + 30C + 10O$ | points, ≥ 0 | higher is better | may exceed 100 "
          "(seed: 55.5) |", _check_seed_relative_and_index),
    Claim(r"$\max(s,\ 0.02\,\lvert\mu\rvert,\ 10^{-9})$: the relative floor for tight "
          "runs, the absolute one for runs at 0", _check_cheat_sheet_scale),
    Claim(r"$A = \mu$ gives 0.5; a completed failure (timeout, crash...) 0",
          _check_summary_instance),
    Claim("$30P + 30S + 30C + 10O$ points; $C$ may exceed 1, the index 100",
          _check_index_above_100),
    Claim("half as wide or less with four times the tasks", _check_interval_narrows),
    Claim("relative score 0.25; index 55.5", _check_seed_relative_and_index),
]  # fmt: skip

#: Digits that state no quantity: section and exercise numbers, steps, the contents,
#: names (ddof 1) and ids in code spans (``thm-1``).
STRUCTURE = [
    r"#{2,3} \d+(\.\d+)?\.? ",  # a numbered heading
    r"#{3} Exercises? \d+( and \d+)?",
    r"\(#[^)\s]*\)",  # a link to a heading in the notebook: (#1.-Why-the-scores...)
    r"(?<=\s)\d+\. (?=\[?[A-Z])",  # a line of the contents
    r"\bsections? \d+(\.\d+)?( to \d+)?",  # a reference to a section
    r"Exercises? \d+( and \d+)?",
    r"[Ss]teps? \d( and \d)?",
    r"\(\d\)",  # an enumeration: (1) ... (2)
    r"ddof[ -][01]",
    r"\b[a-z]_\d\b",  # a subscript: v_1
    r"`[a-z][a-z0-9_]*(-[a-z0-9]+)+`",  # an id: example-1, thm-3, con-2
]


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.passage[:60])
def test_each_claim_is_in_the_notebook_and_the_library_agrees(claim):
    assert any(claim.passage in text for text in _prose()), "passage not found in the notebook"
    claim.check()


def unchecked_sentences(prose: list[str]) -> list[str]:
    """The sentences (table cells) of ``prose`` with a digit that no claim covers."""
    unchecked = []
    for text in prose:
        for claim in CLAIMS:
            text = text.replace(claim.passage, " ")
        for pattern in STRUCTURE:
            text = re.sub(pattern, " ", text)
        unchecked += [m.group(0).strip() for m in re.finditer(r"[^.!?|]*\d[^.!?|]*", text)]
    return unchecked


def test_no_number_in_the_prose_goes_unchecked():
    assert unchecked_sentences(_prose()) == [], "sentences stating a number that no claim checks"


def test_an_unchecked_number_is_found():
    prose = [*_prose(), _normalised("## 12. More\n\nA new model scores 42 points. Exercise 9.")]
    found = unchecked_sentences(prose)
    assert len(found) == 1 and found[0].endswith("A new model scores 42 points"), found


def test_the_manual_states_the_word_count_and_the_reading_time():
    """docs/teaching.md says how long the notebook takes: the words to the nearest hundred,
    the reading minutes at a learner's pace and the exercises' minutes (each rounded up),
    their total, and the folded words to the nearest hundred."""
    text = _normalised((TEACHING.parents[1] / "docs" / "teaching.md").read_text(encoding="utf-8"))
    shown, folded = reading_words()
    words = int(re.search(r"About \*\*([\d,]+) words\*\*", text).group(1).replace(",", ""))
    found = re.search(
        rf"about \*\*(\d+) minutes\*\* at {WORDS_PER_MINUTE} words a minute.*?"
        rf"\*\*(\d+) minutes\*\* for the (\d+) exercises.*?about \*\*(\d+) minutes\*\* in all",
        text,
    )
    reading, exercises, count, total = (int(g) for g in found.groups())
    extra = int(re.search(r"add about ([\d,]+) words", text).group(1).replace(",", ""))
    assert words == round(shown, -2), shown
    assert reading == math.ceil(shown / WORDS_PER_MINUTE)
    assert (count, exercises) == (len(teaching.EXERCISES), MINUTES_PER_EXERCISE * count)
    assert total == total_minutes() == reading + exercises
    assert extra == round(folded, -2), folded
