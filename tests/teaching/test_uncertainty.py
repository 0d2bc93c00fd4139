"""Reading the uncertainty (``teaching/uncertainty.py``): the simulated cohorts are what they
say, the reports quote ``tcsexam stats``' analysis, the reading exercise shows no verdict,
and the methods note is the stats library's own text (and says so loudly when it is not).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from tcsexam_lib import teaching
from tcsexam_lib.stats.analysis import analyse_cohort
from tcsexam_lib.stats.method import METHOD
from tcsexam_lib.teaching import uncertainty


@pytest.mark.parametrize("n_tasks", uncertainty.TASKS_PER_TRACK)
def test_each_simulated_model_keeps_its_shift_and_spread_at_every_number_of_tasks(n_tasks):
    for cohort in (uncertainty.SLIDER_COHORT, uncertainty.READING_COHORT):
        tracks = uncertainty.simulated_task_means(cohort, n_tasks)
        assert len(tracks) == 4 and all(t.shape == (len(cohort.models), n_tasks) for t in tracks)
        for values in tracks:
            assert values.min() >= 0 and values.max() <= 1
            for row, (_, shift, spread) in enumerate(cohort.models):
                difference = values[row] - values[0]
                assert difference.mean() == pytest.approx(shift, abs=1e-12)
                assert difference.std(ddof=1) == pytest.approx(spread, abs=1e-12)


def test_the_simulated_values_are_seeded():
    first = uncertainty.simulated_task_means(uncertainty.SLIDER_COHORT, 20)
    again = uncertainty.simulated_task_means(uncertainty.SLIDER_COHORT, 20)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    with pytest.raises(ValueError, match=r"n_tasks must be a whole number >= 3; got 2"):
        uncertainty.simulated_task_means(uncertainty.SLIDER_COHORT, 2)


def test_the_interval_report_quotes_the_stats_analysis():
    values = uncertainty.simulated_task_means(uncertainty.SLIDER_COHORT, 40)
    names = uncertainty.SLIDER_COHORT.names
    out = analyse_cohort(values, names=names)
    text = teaching.interval_report(40)
    for row in out.order:
        low, high = out.index_ci[0][row], out.index_ci[1][row]
        assert (
            f"{names[row]}: index {out.index[row]:.2f}, 95% interval [{low:.2f}, {high:.2f}]"
            in text
        )
    leaders = [names[k] for k in out.leader_group]
    assert f"Could be first: {' and '.join(leaders)}" in text
    assert text.count(": shown to differ") + text.count(": not shown to differ") == 3


@pytest.mark.parametrize("n_tasks", uncertainty.TASKS_PER_TRACK)
def test_a_pair_s_interval_and_its_verdict_say_how_each_is_read(n_tasks):
    """Issue 41, defect 1: the interval is this pair's alone, the verdict Holm-adjusted."""
    text = teaching.interval_report(n_tasks)
    assert "each interval:\n  this pair alone; the verdict adjusts for 3 pairs" in text
    assert "cannot be told apart" not in text
    solution = teaching.solution("differ").derivation
    assert "the verdict adjusts for 6 pairs" in solution and "this pair alone" in solution


@pytest.mark.parametrize("n_tasks", uncertainty.TASKS_PER_TRACK)
def test_each_width_stands_beside_its_se_and_the_cap_is_named_where_it_widens(n_tasks):
    """Issue 41, defect 2: each model's SE beside its width; undrawn share tracks named."""
    out = uncertainty.analyse(uncertainty.SLIDER_COHORT, n_tasks)
    text = teaching.interval_report(n_tasks)
    for row, name in enumerate(uncertainty.SLIDER_COHORT.names):
        width = out.index_ci[1][row] - out.index_ci[0][row]
        line = next(line for line in text.splitlines() if line.startswith(f"  {name}:"))
        assert f"(width {width:.2f}; SE {out.index_se[row]:.2f}" in line
        reach = uncertainty.reaching_tracks(uncertainty.SLIDER_COHORT, n_tasks, row)
        assert ("undrawn share: " + ", ".join(reach) in line) is bool(reach), line
        if not reach:  # about 2 x 1.96 SE (wider with few tasks, C's skew)
            assert 3.9 * out.index_se[row] < width < 8 * out.index_se[row]
    assert "a share 1 - (alpha/2)^(1/n_t) of tasks at the far bound" in text
    a = uncertainty.SLIDER_COHORT.names.index("illustrative-a")
    assert uncertainty.reaching_tracks(uncertainty.SLIDER_COHORT, 20, a) == ["P", "S", "O"]


def test_more_tasks_narrow_every_interval():
    widths = []
    for n_tasks in uncertainty.TASKS_PER_TRACK:
        out = uncertainty.analyse(uncertainty.SLIDER_COHORT, n_tasks)
        widths.append(out.index_ci[1] - out.index_ci[0])
    for fewer, more in zip(widths, widths[1:]):  # noqa: B905 - pairs of neighbours
        assert (more < fewer).all()


def test_the_reading_exercise_shows_the_figures_but_no_verdict():
    text = teaching.reading_exercise_report()
    assert "differ" not in text and "Could be first" not in text and "cannot" not in text
    assert len(re.findall(r"adjusted p (< 0\.001|\d\.\d{3})", text)) == 6
    for pair in uncertainty.pairs(uncertainty.READING_COHORT, uncertainty.READING_TASKS):
        assert f"{pair.first} - {pair.second}: {pair.delta:.2f} points" in text


def test_the_reading_exercise_has_margins_a_methods_change_would_not_erase():
    """Its verdicts are far from the 5% line, so that the exercise keeps its answers while
    the statistics methods are refined (a change that flips one fails here, loudly)."""
    for pair in uncertainty.pairs(uncertainty.READING_COHORT, uncertainty.READING_TASKS):
        assert pair.p_holm < 0.005 or pair.p_holm > 0.25, pair


def test_the_methods_note_is_the_stats_library_s_own_words():
    note = teaching.methods_note()
    assert dict(note.parts)["methods, by name"] == METHOD["name"]
    html = note._repr_html_()
    assert html.startswith('<details class="tcs-methods"><summary>') and "<details open" not in html
    assert repr(note).startswith("How tcsexam stats computes each figure")


def test_the_methods_note_fails_loudly_when_the_library_no_longer_describes_a_part():
    with pytest.raises(KeyError, match=r"no longer describes \['tie_groups_v9'\]"):
        teaching.methods_note(("name", "tie_groups_v9"))
