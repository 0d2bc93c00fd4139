"""Views across the models of a run set: the leaderboard, the ranked index, task x model.

A cohort report leads with the leaderboard (status first, then the index in points and
the four track means), ranks the models that have an index in a chart, shows every
task's mean for every model as a heatmap, and, where another run set holds the same
models under the other solver protocol or another suite, puts the two side by side.

With the run set's ``tcsexam stats`` document, the leaderboard also shows each index's
± half-width, rank interval and tie group (see :mod:`.stats_views`, which draws the
intervals and the pairwise differences).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..scoring.index_document import IndexDocument, ModelResult, as_index_document
from ..vocab import TRACK_LETTERS, TRACKS
from .notebook import OKABE_ITO, Note, label_simulated, name_models_without_index, new_axes
from .run_set_document import RunSetSummary
from .stats_views import interval_columns

_STATUS_ORDER = {"complete": 0, "provisional": 1, "incomplete": 2}


Result = IndexDocument | dict[str, Any]


def _ranked(result: Result) -> list[tuple[str, ModelResult]]:
    """Models with an index by index (highest first), then those without, by name."""
    models = list(as_index_document(result).results.items())
    with_index = sorted(
        (m for m in models if m[1].index is not None), key=lambda m: (-m[1].index, m[0])
    )
    without = sorted((m for m in models if m[1].index is None), key=lambda m: m[0])
    return with_index + without


def _why_no_index(entry: ModelResult) -> str:
    blocking = entry.blocking_issues
    cov = entry.coverage
    missing = cov.tasks_planned - cov.tasks_complete
    return (
        f"{missing} of {cov.tasks_planned} tasks incomplete, {len(blocking)} blocking "
        f"issue{'s' if len(blocking) != 1 else ''} (see the model's index report)"
    )


def leaderboard(result: Result, stats: dict[str, Any] | None = None) -> pd.DataFrame:
    """The cohort's leaderboard: rank, status, model, index, P, S, C, O and a note.

    Models with an index are ranked by it (1 = highest); a provisional model is ranked
    but says what awaits confirmation; an incomplete model has no rank and no index,
    and the note says why. With the ``tcsexam stats`` document of the same index
    (``stats``), the index is followed by its ± half-width (points), the rank interval
    and the tie group (see :func:`~.stats_views.interval_columns`).

    Examples
    --------
    >>> cov = {"tasks_planned": 2, "tasks_complete": 1, "attempts_planned": 2,
    ...        "attempts_adopted_valid": 1}
    >>> means = {"P": 1.0, "S": 0.5, "C": 1.0, "O": 0.0}
    >>> result = {"models": {
    ...     "b": {"status": "complete", "index": 75.0, "track_means": means, "issues": [],
    ...           "coverage": cov},
    ...     "a": {"status": "incomplete", "index": None, "track_means": means,
    ...           "issues": [{"severity": "error", "code": "missing_task"}], "coverage": cov}}}
    >>> leaderboard(result)[["rank", "status", "model", "index"]].values.tolist()
    [[1, 'complete', 'b', 75.0], [None, 'incomplete', 'a', None]]
    >>> stats = {"level": 0.95, "tie_groups": [["b"]], "models": {
    ...     "b": {"index_ci_half_width": 6.5, "rank_ci": [1, 1]},
    ...     "a": {"index_ci_half_width": None, "rank_ci": None}}}
    >>> leaderboard(result, stats).iloc[:, 3:7].values.tolist()
    [[75.0, 6.5, '1', 1], [None, None, None, None]]
    """
    rows = []
    rank = 0
    for model, entry in _ranked(result):
        ranked = entry.index is not None
        rank += ranked
        if entry.status == "incomplete":
            note = _why_no_index(entry)
        elif entry.status == "provisional":
            waiting = sum(1 for i in entry.issues if i.code == "provisional_attempt")
            note = f"{waiting} adopted attempt(s) await confirmation"
        else:
            note = ""
        rows.append(
            {
                "rank": rank if ranked else None,
                "status": entry.status,
                "model": model,
                "index": entry.index,
                **({} if stats is None else interval_columns(stats, model)),
                **{TRACK_LETTERS[t]: entry.track_means[TRACK_LETTERS[t]] for t in TRACKS},
                "note": note,
            }
        )
    intervals = [] if stats is None else ["± half-width", "rank interval", "tie group"]
    columns = ["rank", "status", "model", "index", *intervals, "P", "S", "C", "O", "note"]
    table = pd.DataFrame(rows, columns=columns, dtype=object)
    table.attrs["caption"] = "Index in points (2 decimals); P, S, C, O track means (4 decimals)."
    if stats is not None:
        level = f"{stats['level']:.0%}"
        table.attrs["caption"] += (
            f" Index ± half-width: its {level} interval (tasks drawn again within each "
            "track); rank interval: the ranks the paired tests allow (1 = best); tie group 1: "
            "the leader and every model whose rank interval overlaps the leader's."
        )
    table.attrs["empty_text"] = "The cohort declares no model."
    return table


def plot_ranked_index(result: Result, ax: Any = None):
    """Horizontal bars of the index, highest first; models without an index listed below.

    Provisional models are hatched. The intervals are drawn by
    :func:`~.stats_views.plot_index_intervals`.

    Examples
    --------
    >>> entry = {"status": "complete", "index": 55.5}
    >>> plot_ranked_index({"models": {"m": entry}}).axes[0].get_xlabel()
    'index (points; higher is better)'
    """
    ranked = _ranked(result)
    shown = [(m, e) for m, e in ranked if e.index is not None]
    missing = [m for m, e in ranked if e.index is None]
    fig, ax = new_axes(ax, size=(7.5, 1.4 + 0.38 * max(len(shown), 1) + 0.2 * bool(missing)))
    names = [m for m, _ in shown][::-1]
    values = [e.index for _, e in shown][::-1]
    bars = ax.barh(names, values, color=OKABE_ITO[0])
    for bar, (_, entry) in zip(bars, shown[::-1], strict=True):
        if entry.status == "provisional":
            bar.set_hatch("//")
            bar.set_facecolor(OKABE_ITO[1])
        ax.annotate(f"{bar.get_width():.2f} ({entry.status})",
                    (bar.get_width(), bar.get_y() + bar.get_height() / 2),
                    xytext=(4, 0), textcoords="offset points", va="center",
                    fontsize=8)  # fmt: skip
    ax.set_xlim(0, max([*values, 1.0]) * 1.3)  # room for the labels
    ax.set_xlabel("index (points; higher is better)")
    ax.set_title(f"Index of the {len(shown)} model(s) with one")
    name_models_without_index(fig, missing)
    return label_simulated(fig, as_index_document(result).simulated)


def task_model_table(result: Result) -> pd.DataFrame:
    """Every task (rows, by track) x every model (columns): the task mean, — if none.

    Examples
    --------
    >>> t = {"track": "solver", "item": "x", "mean": 0.25}
    >>> task_model_table({"models": {"m": {"tasks": [t]}}}).values.tolist()
    [['solver', 'x', 0.25]]
    """
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    results = as_index_document(result).results
    for model, entry in results.items():
        for task in entry.tasks:
            key = (task.track, task.item)
            rows.setdefault(key, {"track": key[0], "task": key[1]})[model] = task.mean
    table = pd.DataFrame(list(rows.values()), columns=["track", "task", *results])
    table = table.astype(object).where(table.notna(), None)
    table.attrs["caption"] = "Mean over the adopted valid attempts of each task (— if none)."
    table.attrs["empty_text"] = "No task mean to show."
    return table


def plot_task_heatmap(result: Result, ax: Any = None):
    """Heatmap of the task means (task x model), colour-blind safe (cividis).

    A task without a mean is drawn hatched grey; values are written in the cells when
    the matrix is small enough to read them.

    Examples
    --------
    >>> t = {"track": "solver", "item": "x", "mean": 0.25}
    >>> plot_task_heatmap({"models": {"m": {"tasks": [t]}}}).axes[0].get_title()
    'Task means (task x model)'
    """
    import numpy as np

    table = task_model_table(result)
    models = list(as_index_document(result).results)
    labels = [f"{r.track}/{r.task}" for r in table.itertuples()]
    values = np.array(
        [[np.nan if v is None else float(v) for v in row] for row in table[models].values.tolist()]
    ).reshape(len(labels), len(models))
    top = max(1.0, float(np.nanmax(values)) if np.isfinite(values).any() else 1.0)
    fig, ax = new_axes(ax, size=(max(6.0, 3.0 + 0.9 * len(models)), 1.5 + 0.3 * len(labels)))
    ax.set_facecolor("#DDDDDD")
    image = ax.imshow(np.ma.masked_invalid(values), cmap="cividis", vmin=0.0, vmax=top,
                      aspect="auto")  # fmt: skip
    if len(labels) * len(models) <= 400:
        for i in range(len(labels)):
            for j in range(len(models)):
                value = values[i, j]
                text = "—" if np.isnan(value) else f"{value:.2f}"
                colour = "black" if np.isnan(value) or value > 0.55 * top else "white"
                ax.text(j, i, text, ha="center", va="center", fontsize=7, color=colour)
    ax.set_xticks(range(len(models)), models, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(len(labels)), labels, fontsize=7)
    ax.set_title("Task means (task x model)")
    fig.colorbar(image, ax=ax, label="task mean (— : no mean)", shrink=0.6)
    return label_simulated(fig, as_index_document(result).simulated)


def _side_by_side(
    result: IndexDocument | RunSetSummary, other: RunSetSummary, this: str, that: str
):
    mine, theirs = result.results, other.results
    common = [m for m in mine if m in theirs]
    rows = []
    for model in common:
        a, b = mine[model], theirs[model]
        delta = None if a.index is None or b.index is None else a.index - b.index
        row = {"model": model, f"status ({this})": a.status, f"status ({that})": b.status,
               f"index ({this})": a.index, f"index ({that})": b.index,
               "Δ index": delta}  # fmt: skip
        for letter in (TRACK_LETTERS[t] for t in TRACKS):
            row[f"{letter} ({this})"] = a.track_means[letter]
            row[f"{letter} ({that})"] = b.track_means[letter]
        rows.append(row)
    table = pd.DataFrame(rows)
    table = table.astype(object).where(table.notna(), None)
    table.attrs["caption"] = f"Δ index = index ({this}) − index ({that}), in points."
    return table


def compare_run_sets(result: Result, compare: dict[str, Any], by: str):
    """This run set beside another with the same models: ``by`` is ``protocol`` or ``suite``.

    ``compare`` maps run-set names to their summaries (suite, solver_protocol, and each
    model's status, index and track means), as the report runner passes them.

    Examples
    --------
    >>> means = {"P": 0.5, "S": 0.5, "C": 0.5, "O": 0.5}
    >>> mine = {"suite": "s", "solver_protocol": "offline", "models": {"m": {
    ...     "status": "complete", "index": 50.0, "track_means": means}}}
    >>> other = {"suite": "s", "solver_protocol": "online", "models": {"m": {
    ...     "status": "complete", "index": 48.0, "track_means": means}}}
    >>> compare_run_sets(mine, {"s-online": other}, "protocol")["Δ index"].tolist()
    [2.0]
    """
    mine = as_index_document(result)

    def labels(summary: IndexDocument | RunSetSummary) -> tuple[str, str]:
        """(what differs, what stays the same) between the two run sets."""
        if by == "protocol":
            return summary.solver_protocol, summary.suite
        return summary.suite, summary.solver_protocol

    this, same = labels(mine)
    tables = []
    for _name, data in sorted(compare.items()):
        other = RunSetSummary(data)
        that, other_same = labels(other)
        if other_same != same or that == this:
            continue
        if not set(other.results) & set(mine.results):
            continue
        tables.append(_side_by_side(mine, other, this, that))
    if not tables:
        what = "the other solver protocol" if by == "protocol" else "another suite"
        kept = "suite" if by == "protocol" else "solver_protocol"
        return Note(
            f"No run set with the same models under {what} ({kept} {same}) is "
            "published beside this one, so there is nothing to compare."
        )
    return tables[0] if len(tables) == 1 else tables
