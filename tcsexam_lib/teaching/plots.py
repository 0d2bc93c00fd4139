"""The teaching notebook's plots (matplotlib, imported lazily), each a closed Figure.

Scores come from :mod:`tcsexam_lib.formulas`; a curve drawn only as a picture says so.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from ..formulas import (
    compute_instance_stats,
    instance_score,
    mean_score,
    phi,
    scale_terms,
    track_contribution,
    z_score,
)
from ..scoring.index_document import ModelResult, as_model_result
from ..vocab import FIXED_SCALE_FLOOR_ABSOLUTE, FIXED_SCALE_FLOOR_RELATIVE, TRACK_LETTERS, TRACK_OF
from .formula_text import SEED_VALUES, check_track_means, solver_case, takes_solver_settings
from .uncertainty import SLIDER_COHORT, TASKS_PER_TRACK, analyse, could_be_first

#: Okabe-Ito colours (colour-blind safe).
BLUE, ORANGE, GREEN, VERMILLION, SKY, GREY = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#D55E00",
    "#56B4E9",
    "#6b6b6b",
)


def _figure(ncols: int = 1, size: tuple[float, float] = (6.5, 3.5)) -> tuple[Any, Any]:
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, ncols, figsize=size, layout="constrained")
    plt.close(fig)  # returned, not shown twice
    return fig, axes


def figure_png(fig: Any) -> bytes:
    """The figure as PNG bytes (for an image widget)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90)
    return buffer.getvalue()


@takes_solver_settings
def plot_phi_curve(
    values: Sequence[float] = SEED_VALUES,
    a: float = 12,
    **settings: Any,
):
    """The instance score as a function of the candidate value ``A``, with ``a`` marked."""
    import numpy as np

    *_, direction, stats = solver_case(values, a, **settings)
    grid = np.linspace(stats.mu - 4 * stats.scale, stats.mu + 4 * stats.scale, 161)
    curve = [instance_score(float(x), stats, direction)[1] for x in grid]
    z, score = instance_score(a, stats, direction)
    fig, ax = _figure()
    ax.plot(grid, curve, color=BLUE, label=f"instance score Phi(z), {direction}")
    ax.plot([a], [score], "o", color=VERMILLION, label=f"A = {a:g}: z = {z:.3g}, score {score:.4g}")
    ax.axhline(0.5, color=GREY, linewidth=0.6, linestyle=":")
    ax.axvline(stats.mu, color=GREY, linewidth=0.6, linestyle=":")
    ax.set_xlabel(f"candidate value A (reference mu = {stats.mu:g}, scale = {stats.scale:g})")
    ax.set_ylabel("instance score")
    ax.set_ylim(-0.02, 1.02)
    formula = "(A - mu)" if direction == "maximize" else "(mu - A)"
    ax.set_title(f"score = Phi({formula} / scale)", parse_math=False)
    ax.legend(loc="upper left" if direction == "maximize" else "upper right")
    return fig


@takes_solver_settings
def plot_solver_instance(
    values: Sequence[float],
    a: float,
    **settings: Any,
):
    """The reference's normal curve (mu, scale), Phi(z) shaded (left of A when maximising)."""
    import numpy as np
    from scipy.stats import norm

    *_, direction, stats = solver_case(values, a, **settings)
    z, score = instance_score(a, stats, direction)
    mu, scale = stats.mu, stats.scale
    points = [*values, a, mu - 4 * scale, mu + 4 * scale]
    low, high = min(points), max(points)
    pad = 0.05 * (high - low) or 1.0
    low, high = low - pad, high + pad
    grid = np.union1d(np.linspace(low, high, 400), mu + scale * np.linspace(-4, 4, 161))
    grid = grid[(grid >= low) & (grid <= high)]
    density = norm.pdf((grid - mu) / scale)  # drawing only: the normal curve's shape
    fig, ax = _figure(size=(5.2, 2.9))
    ax.plot(grid, density, color=BLUE, label=f"reference: mu {mu:.4g}, scale {scale:.3g}")
    shaded = grid <= a if direction == "maximize" else grid >= a
    ax.fill_between(grid, 0, density, where=shaded, color=SKY, alpha=0.6, label="Phi(z)")
    ax.axvline(a, color=VERMILLION, linewidth=1.5, label=f"A = {a:g}")
    ax.plot(list(values), [0.0] * len(values), "|", color="black", markersize=14,
            clip_on=False, label="reference values")  # fmt: skip
    ax.set_xlim(low, high)
    ax.set_ylim(0, 0.45)
    ax.set_yticks([])
    ax.spines[["left", "right", "top"]].set_visible(False)
    ax.set_xlabel("value (A and the reference runs)")
    ax.set_title(f"z = {z:.4g}, instance score Phi(z) = {score:.4f} (shaded area)", fontsize=10)
    ax.legend(loc="upper left", fontsize=7, frameon=False)
    return fig


def plot_track_contributions(means: Mapping[str, float]):
    """The index as a stacked bar of the tracks' contributions, in points."""
    checked = check_track_means(means)
    fig, ax = _figure(size=(5.2, 2.2))
    left = 0.0
    for track, mean in checked.items():
        points = track_contribution(track, mean)
        ax.barh([0], [points], left=left, color=TRACK_OF[track].colour,
                label=f"{TRACK_LETTERS[track]} {points:.4g}")  # fmt: skip
        left += points
    ax.axvline(100, color=GREY, linestyle=":", linewidth=1)
    ax.set_xlim(0, max(130.0, left * 1.05))
    ax.set_yticks([])
    ax.set_xlabel("index (points); the dotted line is 100")
    ax.set_title(f"index = {left:.4g} points", fontsize=10)
    fig.legend(loc="outside lower center", ncols=len(checked), fontsize=8, frameon=False)
    return fig


def plot_floor_effect(
    mu: float = 1000.0,
    *,
    rel_floor: float = FIXED_SCALE_FLOOR_RELATIVE,
    abs_floor: float = FIXED_SCALE_FLOOR_ABSOLUTE,
):
    """What the relative floor does on ILLUSTRATIVE references ``[mu-d, mu, mu+d]`` as d shrinks.

    Left: the scale and its terms; right: a candidate one unit better, with and (contrast)
    without the floor.
    """
    import numpy as np

    spreads = np.logspace(-3, 3, 121)
    rows = []
    for d in spreads:
        stats = compute_instance_stats([mu - d, mu, mu + d], rel_floor, abs_floor)
        terms = scale_terms(stats.mu, stats.s, rel_floor, abs_floor)
        a = mu + 1
        rule = instance_score(a, stats, "maximize")[1]
        no_floor = phi(z_score(a, stats.mu, stats.s, "maximize"))  # contrast, not the rule
        rows.append((stats.s, terms["relative_floor"], stats.scale, rule, no_floor))
    s, rel, scale, rule, no_floor = (np.array(column) for column in zip(*rows, strict=True))
    fig, (left, right) = _figure(ncols=2, size=(9.5, 3.4))
    left.loglog(spreads, scale, color=BLUE, linewidth=3, label="scale (the rule)")
    left.loglog(spreads, s, color=ORANGE, linestyle="--", label="sample_std s")
    left.loglog(spreads, rel, color=GREEN, linestyle=":", linewidth=2,
                label=f"relative_floor {rel_floor:g}*|mu| = {rel[0]:.3g}")  # fmt: skip
    left.set_xlabel("spread of the reference runs, d (their sample std)")
    left.set_ylabel("scale")
    left.set_title(f"ILLUSTRATIVE reference [mu-d, mu, mu+d], mu = {mu:g}", fontsize=10)
    left.legend(fontsize=8, loc="upper left")
    right.semilogx(spreads, rule, color=BLUE, linewidth=3, label="with the floors (the rule)")
    right.semilogx(spreads, no_floor, color=VERMILLION, linestyle="--",
                   label="scale = s alone (contrast, not the rule)")  # fmt: skip
    right.set_xlabel("spread of the reference runs, d")
    right.set_ylabel(f"score of A = mu + 1 = {mu + 1:g}")
    right.set_ylim(0.45, 1.02)
    right.set_title("a candidate one unit better than the mean", fontsize=10)
    right.legend(fontsize=8, loc="center right")
    return fig


def plot_averaging_order(entry: ModelResult | Mapping[str, Any], track: str = "theorem"):
    """Why three repeats weigh the same as one: scores, task means and the track mean, beside
    pooled attempts (a contrast, not the rule), and each task's weight both ways."""
    import numpy as np

    entry = as_model_result(entry)
    tasks = [t for t in entry.tasks if t.track == track]
    items = [t.item for t in tasks]
    positions = np.arange(len(tasks))
    attempts = [score for t in tasks for score in t.scores]
    rule_mean = entry.tracks[track].mean
    pooled_mean = mean_score(attempts)  # contrast, not the rule
    fig, (left, right) = _figure(ncols=2, size=(9.5, 3.4))
    left.bar(positions, [t.mean for t in tasks], color=SKY, label="task mean (step 1)")
    for position, task in zip(positions, tasks, strict=True):
        n = len(task.scores)
        offsets = np.linspace(-0.2, 0.2, n) if n > 1 else [0.0]
        left.plot(position + np.asarray(offsets), task.scores, "o", color="black",
                  label="an attempt" if position == 0 else None)  # fmt: skip
    letter = TRACK_LETTERS[track]
    left.axhline(rule_mean, color=BLUE, linewidth=2,
                 label=f"{letter} = mean of the task means = {rule_mean:.4g}")  # fmt: skip
    left.axhline(pooled_mean, color=VERMILLION, linestyle="--",
                 label=f"pooled attempts = {pooled_mean:.4g} (not the rule)")  # fmt: skip
    left.set_xticks(positions, items, parse_math=False)
    left.set_xlabel(f"{track} task")
    left.set_ylim(-0.05, 1.35)
    left.set_ylabel("score")
    left.set_title(f"{track} track: averaging order", fontsize=10)
    left.legend(fontsize=8, loc="upper right")
    width = 0.38
    rule_weights = [1 / len(tasks)] * len(tasks)
    pooled_weights = [len(t.scores) / len(attempts) for t in tasks]
    right.bar(positions - width / 2, rule_weights, width, color=BLUE, label="the rule")
    right.bar(positions + width / 2, pooled_weights, width, color=VERMILLION, hatch="//",
              label="pooled attempts (not the rule)")  # fmt: skip
    right.set_xticks(positions, items, parse_math=False)
    right.set_xlabel(f"{track} task")
    right.set_ylabel(f"weight of the task in {letter}")
    right.set_title("each task weighs the same, whatever its repeats", fontsize=10)
    right.legend(fontsize=8)
    return fig


def plot_index_intervals(n_tasks: int, level: float = 0.95):
    """The slider cohort's index intervals with ``n_tasks`` per track, on a fixed axis."""
    cohort = SLIDER_COHORT
    out = analyse(cohort, n_tasks, level)
    widest = analyse(cohort, min(TASKS_PER_TRACK), level)
    low_end = float(min(widest.index_ci[0])) - 2
    high_end = float(max(widest.index_ci[1])) + 2
    leaders = set(could_be_first(cohort, n_tasks, level))
    fig, ax = _figure(size=(5.2, 2.4))
    for position, row in enumerate(reversed(out.order)):
        name = cohort.names[row]
        colour = BLUE if name in leaders else GREY
        low, high = out.index_ci[0][row], out.index_ci[1][row]
        ax.plot([low, high], [position, position], color=colour, linewidth=3)
        ax.plot([out.index[row]], [position], "o", color=colour)
    ax.set_yticks(range(len(out.order)), [cohort.names[r] for r in reversed(out.order)],
                  parse_math=False)  # fmt: skip
    ax.set_xlim(low_end, high_end)
    ax.set_ylim(-0.6, len(out.order) - 0.4)
    ax.set_xlabel(f"index (points) with its {level:.0%} interval; blue: could be first")
    ax.set_title(f"ILLUSTRATIVE: {n_tasks} tasks per track", fontsize=10)
    return fig
