"""Tables, plots and notes of one model's index output (points, ``vocab.INDEX_FORMULA``)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..errors import InputRefused, Problem
from ..number_format import MEAN, POINTS, TEXT, format_value, points, rounded_parts, task_kind
from ..scoring.index import coverage_category, missing_repeats
from ..scoring.index_document import IndexDocument, as_index_document
from ..scoring.issues import ISSUE_CODES
from ..stats.power import repeat_spread
from .charts import OKABE_ITO, describe, label_simulated, new_axes
from .notebook import Note
from .tables import number_cell

#: Categories of the coverage matrix, in legend order, with their colours (colour-blind
#: safe, Okabe and Ito) and hatches (so that no category is told by colour alone).
COVERAGE_COLOURS = {
    "valid": "#0072B2",
    "provisional": "#E69F00",
    "failed": "#D55E00",
    "missing": "#DDDDDD",
    "excluded": "#F5F5F5",
}
COVERAGE_HATCHES = {
    "valid": "",
    "provisional": "//",
    "failed": "xx",
    "missing": "..",
    "excluded": "--",
}
#: Text colour that reads on each category's colour.
_TEXT_ON = {"valid": "white", "provisional": "black", "failed": "white", "missing": "black",
            "excluded": "black"}  # fmt: skip


#: An index output as the views take it: the document, or its parsed JSON.
Result = IndexDocument | dict[str, Any]


def check_protocol(result: Result, protocol: str) -> str:
    """Refuse an index output whose solver protocol is not ``protocol``; return it.

    >>> check_protocol({"solver_protocol": "offline"}, "offline")
    'offline'
    """
    found = as_index_document(result).solver_protocol
    if found != protocol:
        raise InputRefused(
            "Protocol mismatch",
            [
                Problem(
                    "report parameters",
                    field="protocol",
                    value=protocol,
                    allowed=f"'{found}' (the cohort's protocol)",
                )
            ],
        )
    return protocol


def status_table(result: Result) -> pd.DataFrame:
    """Every model's status, index (points; empty when incomplete) and track means.

    >>> result = {"models": {"m": {"status": "complete", "index": 55.5,
    ...     "track_means": {"P": 0.4, "S": 0.25, "C": 1.2, "O": 0.0}, "issues": []}}}
    >>> float(status_table(result).loc["m", "index"])
    55.5
    """
    rows = {
        model: {
            "status": entry.status,
            "index": entry.index,
            **entry.track_means,
            "blocking issues": len(entry.blocking_issues),
        }
        for model, entry in as_index_document(result).results.items()
    }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "model"
    return table[["status", *[c for c in table.columns if c != "status"]]]


def track_table(result: Result, model: str) -> pd.DataFrame:
    """One model's track means, weights and contributions (points), rounded to add up to the
    index shown (the output keeps every digit).

    >>> entry = {"tracks": {"theorem": {"letter": "P", "weight": 30, "mean": 0.4,
    ...     "contribution": 12.0, "tasks_planned": 5, "tasks_complete": 5}}}
    >>> track_table({"models": {"m": entry}}, "m").values.tolist()
    [['P theorem', 30, 0.4, 12.0, '5 of 5']]
    """
    tracks = as_index_document(result).result(model).tracks
    shown = rounded_parts([info.contribution for info in tracks.values()])
    rows = [
        {
            "track": f"{info.letter} {track}",
            "weight": info.weight,
            "mean": info.mean,
            "contribution": part,
            "tasks with a result": f"{info.tasks_complete} of {info.tasks_planned}",
        }
        for (track, info), part in zip(tracks.items(), shown, strict=True)
    ]
    columns = ["track", "weight", "mean", "contribution", "tasks with a result"]
    table = pd.DataFrame(rows, columns=columns, dtype=object)
    table.attrs["kinds"] = {"weight": "count", "mean": MEAN, "contribution": POINTS}
    table.attrs["tooltips"] = {
        "weight": "points a track mean of 1 adds to the index",
        "mean": "equal-weight mean of the track's task means (3 repeats weigh as 1)",
        "contribution": "weight × mean, points; the index is their sum",
        "tasks with a result": "tasks with an adopted valid score, of those planned",
    }
    table.attrs["caption"] = (
        "Contributions in points, rounded so that they add up to the index as shown."
    )
    return table


def plot_track_contributions(result: Result, model: str, ax: Any = None):
    """Bar plot: each track's contribution (weight x mean, points); "no mean" bars empty.

    >>> entry = {"index": 12.0, "status": "complete", "tracks": {"theorem": {
    ...     "letter": "P", "weight": 30, "mean": 0.4, "contribution": 12.0}}}
    >>> fig = plot_track_contributions({"models": {"m": entry}}, "m")
    >>> fig.axes[0].get_ylabel(), fig.axes[0].get_title()
    ('points', 'm: complete, index 12.00 points')
    """
    result = as_index_document(result)
    entry = result.result(model)
    fig, ax = new_axes(ax)
    labels, heights = [], []
    for track, info in entry.tracks.items():
        labels.append(f"{info.letter} ({track})\n{info.weight} × mean")
        heights.append(info.contribution)
    shown = rounded_parts(heights)
    drawn = [0.0 if h is None else h for h in heights]
    bars = ax.bar(labels, drawn, color=list(OKABE_ITO[: len(drawn)]))
    for bar, part in zip(bars, shown, strict=True):
        ax.annotate(
            "no mean" if part is None else points(part),
            (bar.get_x() + bar.get_width() / 2, bar.get_height()),
            xytext=(0, 3),
            textcoords="offset points",
            ha="center",
            va="bottom",
        )
    ax.set_ylim(0, max([*drawn, 1.0]) * 1.18)  # room for the labels above the bars
    ax.set_ylabel("points")
    index = entry.index
    shown_index = "no index" if index is None else f"index {points(index)} points"
    ax.set_title(f"{model}: {entry.status}, {shown_index}")
    parts = ", ".join(
        f"{label.split(chr(10))[0]} {'no mean' if part is None else points(part)}"
        for label, part in zip(labels, shown, strict=True)
    )
    describe(fig, f"Bar chart of the points each track adds to the index of {model} "
             f"({entry.status}, {shown_index}): {parts}.")  # fmt: skip
    return label_simulated(fig, bool(result.simulated))


def task_table(result: Result, model: str) -> pd.DataFrame:
    """One row per task: status, planned attempts, adopted attempt ids, scores and mean.

    >>> task = {"track": "solver", "item": "t", "status": "complete",
    ...     "planned_attempts": 1, "adopted_attempts": ["1"],
    ...     "adopted_valid_attempts": ["1"], "scores": [0.25], "mean": 0.25, "rows": []}
    >>> [str(v) for v in task_table({"models": {"m": {"tasks": [task]}}}, "m").values[0]]
    ['solver', 't', 'complete', '1', '1', '1', '0.250', '0.250', '0']
    """
    rows = []
    for task in as_index_document(result).result(model).tasks:
        kind = task_kind(task.track)
        rows.append(
            {
                "track": task.track,
                "task": task.item,
                "status": task.status,
                "planned": task.planned_attempts,
                "adopted": ", ".join(task.adopted_attempts) or None,
                "adopted valid": ", ".join(task.adopted_valid_attempts) or None,
                "scores": ", ".join(format_value(x, kind) for x in task.scores) or None,
                "mean": number_cell(task.mean, kind),
                "table rows": len(task.rows),
            }
        )
    columns = ["track", "task", "status", "planned", "adopted", "adopted valid", "scores",
               "mean", "table rows"]  # fmt: skip
    table = pd.DataFrame(rows, columns=columns, dtype=object)
    table.attrs["kinds"] = {"planned": "count", "table rows": "count", "adopted": TEXT,
                            "adopted valid": TEXT, "scores": TEXT}  # fmt: skip
    table.attrs["tooltips"] = {
        "planned": "attempts the cohort plans for this task",
        "adopted": "attempt ids adopted (selected or selected_provisional)",
        "adopted valid": "adopted attempts with a valid score: the mean is over these",
        "scores": "their scores (theorem and conjecture: pass or fail)",
        "mean": "task mean (3 repeats weigh as 1 in the track mean)",
        "table rows": "rows of the attempts table for this task, excluded ones included",
    }
    return table


def issues_table(result: Result, model: str) -> pd.DataFrame:
    """Every issue of the model: severity, code, track, item, attempt and message.

    >>> issues_table({"models": {"m": {"issues": []}}}, "m").empty
    True
    """
    rows = [
        {
            "severity": issue.severity,
            "code": issue.code,
            "track": issue.track,
            "task": issue.item,
            "attempt": issue.attempt,
            "message": issue.message,
        }
        for issue in as_index_document(result).result(model).issues
    ]
    columns = ["severity", "code", "track", "task", "attempt", "message"]
    table = pd.DataFrame(rows, columns=columns)
    table.attrs["empty_text"] = f"No issue: every planned task and repeat of {model} is there."
    return table


def coverage_matrix(result: Result, model: str) -> pd.DataFrame:
    """Task x attempt slot, each ``"<category>: <attempt id>"``: valid, provisional, failed, ...

    Slots: the task's rows, then a ``missing`` slot per planned repeat without an adopted
    row. An adopted row without a valid score is ``failed`` (``missing`` if its score is).

    >>> task = {"track": "theorem", "item": "t", "planned_attempts": 2,
    ...     "adopted_attempts": ["1"], "rows": [{"attempt": "1",
    ...     "adoption_status": "selected", "score_status": "valid"}]}
    >>> coverage_matrix({"models": {"m": {"tasks": [task]}}}, "m").iloc[0].tolist()
    ['valid: 1', 'missing: repeat 2']
    """
    cells: dict[str, list[str]] = {}
    for task in as_index_document(result).result(model).tasks:
        row_cells = [
            f"{coverage_category(row.adoption_status, row.score_status)}: {row.attempt}"
            for row in task.rows
        ]
        adopted = len(task.adopted_attempts)
        for repeat in missing_repeats(task.planned_attempts, adopted):
            row_cells.append(f"missing: repeat {repeat}")
        cells[f"{task.track}/{task.item}"] = row_cells
    width = max((len(c) for c in cells.values()), default=0)
    table = pd.DataFrame(
        [c + [""] * (width - len(c)) for c in cells.values()],
        index=pd.Index(list(cells), name="task"),
        columns=[f"slot {k}" for k in range(1, width + 1)],
    )
    return table


def plot_coverage(result: Result, model: str, ax: Any = None):
    """The coverage matrix as coloured, hatched cells labelled with their attempt ids.

    >>> task = {"track": "theorem", "item": "t", "planned_attempts": 1,
    ...     "adopted_attempts": [], "rows": []}
    >>> plot_coverage({"models": {"m": {"tasks": [task]}}}, "m").axes[0].get_title()
    'm: coverage (task x attempt slot)'
    """
    from matplotlib.patches import Patch, Rectangle

    matrix = coverage_matrix(result, model)
    n_rows, n_cols = len(matrix.index), max(len(matrix.columns), 1)
    fig, ax = new_axes(ax, size=(2.8 + 1.4 * n_cols, 1.2 + 0.3 * n_rows))
    for i, row in enumerate(matrix.values.tolist()):
        for j, cell in enumerate(row):
            if not cell:
                continue
            category, label = cell.split(": ", 1)
            ax.add_patch(
                Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor=COVERAGE_COLOURS[category],
                          hatch=COVERAGE_HATCHES[category], edgecolor="#555555", linewidth=0.5)
            )  # fmt: skip
            ax.text(j, i, label, ha="center", va="center", fontsize=8, color=_TEXT_ON[category],
                    bbox={"facecolor": COVERAGE_COLOURS[category], "edgecolor": "none",
                          "pad": 1})  # fmt: skip
    ax.set_xlim(-0.5, n_cols - 0.5)
    ax.set_ylim(n_rows - 0.5, -0.5)
    ax.set_yticks(range(n_rows), matrix.index, fontsize=8)
    ax.set_xticks(range(len(matrix.columns)), matrix.columns, fontsize=8)
    ax.set_title(f"{model}: coverage (task x attempt slot)")
    counts = {k: sum(c.startswith(k + ":") for row in matrix.values.tolist() for c in row)
              for k in COVERAGE_COLOURS}  # fmt: skip
    found = ", ".join(f"{n} {k}" for k, n in counts.items() if n)
    describe(fig, f"Coverage of {model}: a row per task ({n_rows}), a cell per attempt slot, "
             f"coloured and hatched by category: {found or 'no attempt'}. The same cells are "
             "in the table below.")  # fmt: skip
    ax.legend(
        handles=[
            Patch(facecolor=c, hatch=COVERAGE_HATCHES[k], edgecolor="#555555", label=k)
            for k, c in COVERAGE_COLOURS.items()
        ],
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        fontsize=8,
    )
    return label_simulated(fig, bool(as_index_document(result).simulated))


def repeat_spread_table(result: Result, model: str) -> pd.DataFrame:
    """Tasks with more than one adopted valid attempt: scores, range and std (ddof 1,
    :func:`~tcsexam_lib.stats.power.repeat_spread`).

    >>> task = {"track": "solver", "item": "t", "scores": [0.2, 0.4], "mean": 0.3}
    >>> float(repeat_spread_table({"models": {"m": {"tasks": [task]}}}, "m").loc[0, "range"])
    0.2
    """
    rows = []
    for task in as_index_document(result).result(model).tasks:
        spread = repeat_spread(task.scores)
        if spread is None:
            continue
        kind = task_kind(task.track)  # a 0/1 task's lowest and highest: fail, pass
        rows.append(
            {
                "track": task.track,
                "task": task.item,
                "repeats": spread.repeats,
                "scores": ", ".join(format_value(float(x), kind) for x in task.scores),
                "min": number_cell(spread.low, kind),
                "max": number_cell(spread.high, kind),
                "range": spread.range,
                "std": spread.std,
                "mean": number_cell(task.mean, kind),
            }
        )
    columns = ["track", "task", "repeats", "scores", "min", "max", "range", "std", "mean"]
    table = pd.DataFrame(rows, columns=columns)
    table.attrs["kinds"] = {"repeats": "count", "scores": TEXT, "range": MEAN, "std": MEAN}
    table.attrs["tooltips"] = {"std": "sample standard deviation of the repeats (ddof 1)"}
    table.attrs["empty_text"] = f"No task of {model} has more than one adopted valid attempt."
    return table


def plot_repeat_spread(result: Result, model: str, ax: Any = None):
    """Each repeated task's adopted valid scores as dots, their mean as a bar (or a sentence).

    >>> task = {"track": "solver", "item": "t", "scores": [0.2, 0.4], "mean": 0.3}
    >>> plot_repeat_spread({"models": {"m": {"tasks": [task]}}}, "m").axes[0].get_xlabel()
    'score of each adopted valid repeat'
    >>> plot_repeat_spread({"models": {"m": {"tasks": []}}}, "m")
    Nothing to draw: m has no repeated task.
    """
    result = as_index_document(result)
    tasks = [t for t in result.result(model).tasks if len(t.scores) >= 2]
    if not tasks:
        return Note(f"Nothing to draw: {model} has no repeated task.")
    fig, ax = new_axes(ax, size=(6.0, 1.0 + 0.35 * len(tasks)))
    for position, task in enumerate(tasks):
        ax.scatter(task.scores, [position] * len(task.scores), color=OKABE_ITO[0], zorder=3)
        if task.mean is not None:
            ax.plot([task.mean] * 2, [position - 0.3, position + 0.3], color="black")
    ax.set_yticks(range(len(tasks)), [f"{t.track}/{t.item}" for t in tasks], fontsize=8)
    ax.set_xlabel("score of each adopted valid repeat")
    ax.set_title(f"{model}: spread of repeats ({len(tasks)} task{'s' if len(tasks) != 1 else ''})")
    describe(
        fig,
        f"Dot plot of the scores of each repeated task of {model} ({len(tasks)} "
        "task(s)), one row per task, its mean as a bar; the table above lists them.",
    )
    return label_simulated(fig, bool(result.simulated))


def explain_status(result: Result, model: str) -> Note:
    """In words: the model's status, each issue once with its severity and what to do.

    >>> entry = {"status": "complete", "index": 55.5, "issues": [], "tasks": [],
    ...          "coverage": {"tasks_planned": 10, "tasks_complete": 10,
    ...                       "attempts_planned": 10, "attempts_adopted_valid": 10}}
    >>> print(explain_status({"models": {"m": entry}}, "m").text.split(". ")[0])
    m is complete: index 55.50 points
    """
    entry = as_index_document(result).result(model)
    cov = entry.coverage
    counts = (
        f"{cov.tasks_complete} of {cov.tasks_planned} tasks, "
        f"{cov.attempts_adopted_valid} of {cov.attempts_planned} attempts"
    )
    status = entry.status
    if status == "incomplete":
        lines = [
            f"{model} is incomplete: no index is published ({counts} have an adopted valid "
            "score). Each item below must be resolved before the index exists:"
        ]
    elif status == "provisional":
        lines = [
            f"{model} is provisional: index {points(entry.index)} points ({counts}), but some "
            "adopted attempts await confirmation. To confirm each row below: check it, then "
            "change its adoption_status from selected_provisional to selected in your "
            "attempts table (at the line given) and run the report again; the index may "
            "change if you adopt another attempt instead."
        ]
    else:
        lines = [
            f"{model} is complete: index {points(entry.index)} points. Every planned task and "
            f"repeat has an adopted valid score ({counts})."
        ]
    by_severity = {"error": "blocking", "info": "to confirm", "warning": "warning"}
    for issue in entry.issues:
        label = by_severity.get(issue.severity, issue.severity)
        if issue.code == "provisional_attempt":
            where = issue.message.split(": ", 1)[0]
            lines.append(f"- [{label}] {where}: adopted for now (selected_provisional).")
            continue
        code = ISSUE_CODES.get(issue.code)
        action = f" What to do: {code.action}." if code else ""
        lines.append(f"- [{label}] {issue.message}.{action}")
    for task in entry.tasks:
        for row in task.rows:
            if row.adoption_status == "excluded":
                note = str(row.note or "").strip() or "no note"
                lines.append(
                    f"- [excluded] {task.track}/{task.item} attempt '{row.attempt}' "
                    f"(line {row.line}) is kept but not aggregated: {note}"
                )
    return Note("\n".join(lines))
