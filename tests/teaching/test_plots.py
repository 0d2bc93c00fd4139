"""The teaching notebook's plots (``teaching/plots.py``): closed figures with labelled axes,
no mathtext, Okabe-Ito colours.
"""

from __future__ import annotations

import matplotlib

from tcsexam_lib import teaching

matplotlib.use("Agg")


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
        teaching.plot_index_intervals(20),
    ]
    assert plt.get_fignums() == []  # closed: a notebook shows each once, as the cell's value
    for fig in figures:
        for ax in fig.axes:
            assert ax.get_xlabel(), f"an axis without a label in {fig}"


def test_plots_never_parse_task_ids_as_mathtext():
    entry = teaching.index_exercise_cohort().model("illustrative-index")
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
    intervals = teaching.plot_index_intervals(20)
    names = [label.get_text() for label in intervals.axes[0].get_yticklabels()]
    assert sorted(names) == ["illustrative-a", "illustrative-b", "illustrative-c"]
    assert all(label.get_parse_math() is False for label in intervals.axes[0].get_yticklabels())


def test_the_interval_plot_keeps_its_axis_as_the_tasks_grow():
    """The slider's picture: the same x range at every number of tasks, intervals narrower."""
    few, many = teaching.plot_index_intervals(5), teaching.plot_index_intervals(80)
    assert few.axes[0].get_xlim() == many.axes[0].get_xlim()

    def widths(fig):
        lines = [line for line in fig.axes[0].get_lines() if len(line.get_xdata()) == 2]
        return sorted(abs(line.get_xdata()[1] - line.get_xdata()[0]) for line in lines)

    assert all(m < f for f, m in zip(widths(few), widths(many), strict=True))


def test_plot_colours_are_okabe_ito():
    okabe_ito = {"#0072b2", "#e69f00", "#009e73", "#d55e00", "#56b4e9", "#cc79a7"}
    fig = teaching.plot_floor_effect()
    colours = {
        matplotlib.colors.to_hex(line.get_color()) for ax in fig.axes for line in ax.get_lines()
    }
    assert colours <= okabe_ito
