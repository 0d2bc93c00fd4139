"""Across a run set's models: the lead, the leaderboard, task x model (3 to 200 models);
docs/reports.md, "The cohort report", says what each column means."""

from __future__ import annotations

import html
from typing import Any

import pandas as pd

from ..number_format import MEAN, POINTS, TEXT, format_value, task_kind
from ..scoring.index_document import IndexDocument, ModelResult, as_index_document
from ..stats.document import StatsDocument, as_stats_document
from ..stats.wording import COULD_BE_FIRST_TIP, lead_sentence, percent
from ..vocab import INDEX_FORMULA, LETTERS, LETTERS_TEXT, TRACK_DECLARATION, TRACKS
from .charts import describe, label_simulated, new_axes
from .notebook import INDEX_REPORT, Note
from .tables import Cell, number_cell

#: Up to this many models, task x model shows a task per row (a column per model);
#: beyond, a model per row (the models in rank order, a column per task).
WIDE_MODELS = 12

#: The leaderboard's column tooltips (the page shows plain names; hover for the meaning).
LEADERBOARD_TIPS = {
    "rank": "1 = highest index; a model without an index has no rank",
    "index": f"TCSExam index in points: {INDEX_FORMULA} (higher is better; it can exceed 100)",
    "±": "how far the index's {level} interval reaches from it (the tasks of each track drawn "
    "again from the same pool): one number when both sides are equal, +above / −below when "
    "the interval is asymmetric",
    "could be first": COULD_BE_FIRST_TIP,
    "possible ranks": "the ranks the paired tests allow, for all models at once (1 = best)",
    "tie group": "the tie groups that hold the model, numbered 1, 2, ... down the ranking: "
    "each is the longest run of consecutive models in which no pair is shown to differ; 1–2: "
    "the model is in two (it is not shown to differ from either of two models that are)",
    "status": "complete: every planned result is there; provisional: some adopted attempt "
    "awaits confirmation; incomplete: no index is published",
    **{t.letter: t.tip for t in TRACK_DECLARATION},
    "note": "why a model has no index, or what awaits confirmation",
}


def ranked_models(
    result: IndexDocument | dict[str, Any], stats: StatsDocument | dict[str, Any] | None = None
) -> list[tuple[str, ModelResult]]:
    """Models with an index in rank order (the stats' ranking, else by index), then the rest.

    >>> models = {"b": {"index": 50.0}, "c": {"index": None}, "a": {"index": 70.0}}
    >>> [m for m, _ in ranked_models({"models": models})]
    ['a', 'b', 'c']
    """
    models = as_index_document(result).results
    if stats is not None:
        order = list(as_stats_document(stats).ranking)
    else:
        order = sorted(
            (m for m, e in models.items() if e.index is not None),
            key=lambda m: (-models[m].index, m),
        )
    rest = sorted(m for m, e in models.items() if e.index is None)
    return [(m, models[m]) for m in [*order, *rest]]


def lead_note(stats: StatsDocument | dict[str, Any]) -> Note:
    """One line: is the lead real? (From the stats document's ``leader_group``.)

    >>> stats = {"level": 0.95, "leader_group": ["a", "b"], "ranking": ["a", "b"]}
    >>> lead_note(stats).text.startswith("The lead is not established: a and b")
    True
    """
    stats = as_stats_document(stats)
    untested = stats.pairs_untested
    text, real = lead_sentence(stats.leader_group, len(stats.ranking), stats.level, untested)
    css = "tcs-lead" if real else "tcs-lead open"
    return Note(text, f"<p class='{css}'>{html.escape(text)}</p>")


def _note(entry: ModelResult) -> str:
    if entry.status == "incomplete":  # why the model has no index
        blocking = len(entry.blocking_issues)
        cov = entry.coverage
        missing = cov.tasks_planned - cov.tasks_complete
        return (
            f"{missing} of {cov.tasks_planned} tasks without a result; {blocking} blocking "
            f"issue{'s' if blocking != 1 else ''}"
        )
    if entry.status == "provisional":
        waiting = sum(1 for i in entry.issues if i.code == "provisional_attempt")
        return f"{waiting} adopted attempt{'s' if waiting != 1 else ''} to confirm"
    return ""


def leaderboard(
    result: IndexDocument | dict[str, Any],
    stats: StatsDocument | dict[str, Any] | None = None,
    pages: dict[str, dict[str, str]] | None = None,
) -> pd.DataFrame:
    """The leaderboard, best first: rank, model, index, ±, ..., track means, note.

    Incomplete models come last without rank; ``stats`` adds the interval columns
    (:func:`~.stats.interval_columns`); ``pages`` links each model to its pages.

    >>> cov = {"tasks_planned": 2, "tasks_complete": 1, "attempts_planned": 2,
    ...        "attempts_adopted_valid": 1}
    >>> means = {"P": 1.0, "S": 0.5, "C": 1.0, "O": 0.0}
    >>> result = {"models": {
    ...     "b": {"status": "complete", "index": 75.0, "track_means": means, "issues": [],
    ...           "coverage": cov},
    ...     "a": {"status": "incomplete", "index": None, "track_means": means,
    ...           "issues": [{"severity": "error"}], "coverage": cov}}}
    >>> table = leaderboard(result)
    >>> [[str(v) for v in row] for row in table[["rank", "model", "index", "status"]].values]
    [['1', 'b', '75.0', 'complete'], ['None', 'a', 'None', 'incomplete']]
    >>> stats = {"level": 0.95, "tie_groups": [["b"]], "leader_group": ["b"], "ranking": ["b"],
    ...     "models": {"b": {"index": 75.0, "index_ci": [68.5, 81.5], "index_ci_half_width": 6.5,
    ...                      "rank_ci": [1, 1]},
    ...                "a": {"index": None, "index_ci": None, "index_ci_half_width": None,
    ...                      "rank_ci": None}}}
    >>> row = leaderboard(result, stats).iloc[0]
    >>> str(row["±"]), row["could be first"], str(row["possible ranks"]), str(row["tie group"])
    ('6.50', 'yes', '1', '1')
    """
    from .stats import interval_columns

    pages = pages or {}
    stats = None if stats is None else as_stats_document(stats)
    rows = []
    rank = 0
    for model, entry in ranked_models(result, stats):
        ranked = entry.index is not None
        rank += ranked
        page = pages.get(model, {}).get(INDEX_REPORT)
        means = entry.track_means
        rows.append(
            {
                "rank": rank if ranked else None,
                "model": Cell(model, href=page) if page else model,
                "index": entry.index,
                **({} if stats is None else interval_columns(stats, model)),
                "status": entry.status,
                **{x: means[x] for x in LETTERS},
                "note": _note(entry),
            }
        )
    intervals = [] if stats is None else ["±", "could be first", "possible ranks", "tie group"]
    columns = ["rank", "model", "index", *intervals, "status", *LETTERS, "note"]
    table = pd.DataFrame(rows, columns=columns, dtype=object)
    level = percent(stats.level) if stats is not None else "95%"
    table.attrs["tooltips"] = {
        c: tip.replace("{level}", level) for c, tip in LEADERBOARD_TIPS.items()
    }
    table.attrs["kinds"] = {"rank": "count", "index": POINTS, "±": POINTS,
                            **dict.fromkeys(LETTERS, MEAN)}  # fmt: skip
    table.attrs["caption"] = (
        f"Index in points, ± how far its {level} interval reaches (+above / −below when it is "
        f"asymmetric); {LETTERS_TEXT}: track means. "
        "Hover a column name for its meaning."
    )
    table.attrs["empty_text"] = "The cohort declares no model."
    return table


def _grid(
    result: IndexDocument | dict[str, Any], stats: StatsDocument | dict[str, Any] | None
) -> tuple[list[tuple[str, str]], dict[str, dict[tuple[str, str], float | None]], list[str]]:
    """Every (track, task) in the index output's order, each model's task means, and the
    models in rank order."""
    result = as_index_document(result)
    means = {
        model: {(task.track, task.item): task.mean for task in entry.tasks}
        for model, entry in result.results.items()
    }
    seen = dict.fromkeys(key for by_task in means.values() for key in by_task)
    order = {t: k for k, t in enumerate(TRACKS)}
    tasks = sorted(seen, key=lambda key: order.get(key[0], len(order)))
    return tasks, means, [m for m, _ in ranked_models(result, stats)]


def task_model_table(
    result: IndexDocument | dict[str, Any], stats: StatsDocument | dict[str, Any] | None = None
) -> pd.DataFrame:
    """Every task mean of every model: a task per row, a model per row past :data:`WIDE_MODELS`.

    >>> t = {"track": "solver", "item": "x", "mean": 0.25}
    >>> table = task_model_table({"models": {"m": {"index": 1.0, "tasks": [t]}}})
    >>> [str(v) for v in table.values[0]]
    ['solver', 'x', '0.250']
    """
    tasks, means, models = _grid(result, stats)

    def cell(model: str, key: tuple[str, str]) -> Cell | None:
        return number_cell(means[model].get(key), task_kind(key[0]))

    if len(models) <= WIDE_MODELS:
        rows = [
            {"track": track, "task": item, **{m: cell(m, (track, item)) for m in models}}
            for track, item in tasks
        ]
        table = pd.DataFrame(rows, columns=["track", "task", *models], dtype=object)
    else:
        rows = [{"model": m, **{f"{t}/{i}": cell(m, (t, i)) for t, i in tasks}} for m in models]
        table = pd.DataFrame(rows, columns=["model", *(f"{t}/{i}" for t, i in tasks)],
                             dtype=object)  # fmt: skip
    table.attrs["kinds"] = {"track": TEXT, "task": TEXT, "model": TEXT}
    table.attrs["caption"] = (
        "Mean over the adopted valid attempts of each task (theorems and conjectures: pass "
        "or fail, or the share passed over repeats; — where a task has no mean)."
    )
    table.attrs["empty_text"] = "No task mean to show."
    return table


def plot_task_heatmap(
    result: IndexDocument | dict[str, Any],
    stats: StatsDocument | dict[str, Any] | None = None,
    ax: Any = None,
):
    """Heatmap of the task means (cividis); cells written out up to :data:`WIDE_MODELS` models.

    >>> t = {"track": "solver", "item": "x", "mean": 0.25}
    >>> plot_task_heatmap({"models": {"m": {"index": 1.0, "tasks": [t]}}}).axes[0].get_title()
    'Task means, task x model'
    """
    import numpy as np
    from matplotlib.patches import Rectangle

    tasks, means, models = _grid(result, stats)
    grid = np.array(
        [[np.nan if means[m].get(k) is None else float(means[m][k]) for m in models] for k in tasks]
    ).reshape(len(tasks), len(models))
    by_task = len(models) <= WIDE_MODELS
    labels = [item for _, item in tasks]
    if not by_task:
        grid = grid.T
    n_rows, n_cols = grid.shape
    if by_task:
        fig, ax = new_axes(ax, size=(min(13.0, 3.2 + 1.0 * n_cols), 1.4 + 0.3 * n_rows))
    else:  # fixed margins: names on the left, tasks on top, the colour bar on the right
        size = (min(13.0, 3.4 + 0.24 * n_cols), 2.2 + 0.15 * n_rows)
        fig, ax = new_axes(ax, size=size, margins=(1.0, 0.3, 1.3, 1.6))
    ax.add_patch(Rectangle((-0.5, -0.5), n_cols, n_rows, facecolor="white", hatch="///",
                           edgecolor="#999999", linewidth=0, zorder=0))  # fmt: skip
    # one scale for every track: 0 to 1 (a construction reward above 1, the reference level,
    # is drawn as 1; the numbers are in the table)
    image = ax.imshow(np.ma.masked_invalid(grid), cmap="cividis", vmin=0.0, vmax=1.0,
                      aspect="auto", interpolation="nearest", zorder=1)  # fmt: skip
    if by_task:
        _write_cells(ax, grid, tasks)
    bounds = [k for k in range(1, len(tasks)) if tasks[k][0] != tasks[k - 1][0]]
    for k in bounds:  # white lines between tracks
        (ax.axhline if by_task else ax.axvline)(k - 0.5, color="white", linewidth=2.5)
    _label_axes(ax, by_task, models, labels)
    ax.set_title("Task means, task x model" if by_task else "Task means, model x task")
    if by_task:
        bar = fig.colorbar(image, ax=ax, shrink=0.5, extend="max")
    else:  # at the top right, where the reader starts
        bar = fig.colorbar(
            image,
            cax=ax.inset_axes([1.03, 1 - min(0.3, 60 / n_rows), 0.04, min(0.3, 60 / n_rows)]),
            extend="max",
        )
    bar.set_label("task mean (1 or more: brightest; hatched: no mean)", fontsize=8)
    tracks_shown = ", ".join(f"{t.letter} {t.name}" for t in TRACK_DECLARATION)
    binary = " and ".join(t.name for t in TRACK_DECLARATION if t.binary)
    describe(
        fig,
        f"Heatmap of the task means of {len(models)} models on {len(tasks)} tasks "
        f"({tracks_shown}), {'a task per row' if by_task else 'a model per row, best first'};"
        f" darker is lower, hatched is no mean; {binary} results are pass (1) or fail (0). The "
        "same numbers are in the table below.",
    )
    return label_simulated(fig, bool(as_index_document(result).simulated))


def _write_cells(ax: Any, grid: Any, tasks: list[tuple[str, str]]) -> None:
    """Each cell's task mean written out (a task per row), dark on the light cells."""
    import numpy as np

    for i, (track, _) in enumerate(tasks):
        for j in range(grid.shape[1]):
            value = grid[i, j]
            text = "—" if np.isnan(value) else format_value(value, task_kind(track))
            colour = "black" if np.isnan(value) or value > 0.55 else "white"
            ax.text(j, i, text, ha="center", va="center", fontsize=9, color=colour)


def _label_axes(ax: Any, by_task: bool, models: list[str], labels: list[str]) -> None:
    """Models and tasks on the heatmap's axes (tasks on top when a model is a row)."""
    if by_task:
        n = len(models)
        ax.set_xticks(range(n), models, rotation=30 if n > 4 else 0,
                      ha="right" if n > 4 else "center", fontsize=9)  # fmt: skip
        ax.set_yticks(range(len(labels)), labels, fontsize=9)
    else:
        ax.set_xticks(range(len(labels)), labels, rotation=90, fontsize=8)
        ax.set_yticks(range(len(models)), models, fontsize=9 if len(models) <= 60 else 7)
        ax.xaxis.set_ticks_position("top")


def changes_note(changes: dict[str, Any] | None) -> Note:
    """What changed since the previous publication (``changes`` from the runner), in words.

    >>> print(changes_note({"since": "2026-12-01T00:00:00Z", "added": ["m3"]}).text)
    Since the previous publication (2026-12-01T00:00:00Z):
    - Added: m3.
    >>> print(changes_note({}).text)
    Run standalone: the report runner says here what changed since the last publication.
    """
    from ..reports.history import Changes

    found = Changes.from_dict(changes)
    if found is None:
        return Note("Run standalone: the report runner says here what changed since the last "
                    "publication.")  # fmt: skip
    lines = found.lines()
    if found.since is None:
        return Note(lines[0], f"<div class='tcs-changes'><p>{html.escape(lines[0])}</p></div>")
    head = f"Since the previous publication ({found.since}):"
    items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
    box = f"<div class='tcs-changes'><p><b>{html.escape(head)}</b></p><ul>{items}</ul></div>"
    return Note("\n".join([head, *(f"- {line}" for line in lines)]), box)
