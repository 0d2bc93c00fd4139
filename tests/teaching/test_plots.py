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
