"""Tables, plots and plain-language notes for the report notebooks.

The notebooks in ``notebooks/`` hold no formulas: every number they show comes from
:func:`~tcsexam_lib.runs.run_solver_score` / :func:`~tcsexam_lib.runs.run_score`
outputs, turned into pandas tables and matplotlib figures here. Scores keep their
meaning and direction: a solver instance score and a task's ``relative_score`` are in
[0, 1], higher is better, 0.5 is as good as the reference mean; ``z`` is positive
when the candidate beats the reference mean (whatever the task's direction); the
index is in points (``30*P + 30*S + 30*C + 10*O``), higher is better.
"""

from __future__ import annotations

import html
import os
from collections import Counter
from typing import Any

import pandas as pd

from .errors import InputRefused, Problem
from .paths import KIT_ROOT
from .plan import load_suite
from .reference import SCALE_TERMS, load_reference

#: Categories of the coverage matrix, in legend order, with their colours.
COVERAGE_COLOURS = {
    "valid": "#2e7d32",
    "provisional": "#f9a825",
    "failed": "#c62828",
    "missing": "#9e9e9e",
    "excluded": "#90caf9",
}

SIMULATED_TEXT = "SIMULATED DEMO DATA — not TCSExam results"


class Note:
    """A short text shown as HTML in a notebook (and as plain text elsewhere)."""

    def __init__(self, text: str, html_text: str | None = None) -> None:
        self.text = text
        self.html_text = html_text if html_text is not None else _paragraphs(text)

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        return self.html_text


def _paragraphs(text: str) -> str:
    items = [line[2:] for line in text.splitlines() if line.startswith("- ")]
    head = [line for line in text.splitlines() if line and not line.startswith("- ")]
    out = "".join(f"<p>{html.escape(line)}</p>" for line in head)
    if items:
        out += "<ul>" + "".join(f"<li>{html.escape(item)}</li>" for item in items) + "</ul>"
    return out


def require_parameters(**parameters: Any) -> dict[str, Any]:
    """Refuse empty notebook parameters (the notebooks ship with neutral, empty defaults).

    Examples
    --------
    >>> require_parameters(model="sim-alpha")
    {'model': 'sim-alpha'}
    >>> try:
    ...     require_parameters(model="", suite="demo-lite")
    ... except InputRefused as exc:
    ...     print(exc.problems[0].field)
    model
    """
    problems = [
        Problem(
            "notebook parameters",
            field=name,
            value=value,
            allowed="a non-empty value: papermill -p NAME VALUE, or -f params/notebooks/*.yaml",
        )
        for name, value in parameters.items()
        if value in ("", None)
    ]
    if problems:
        raise InputRefused.from_problems("Notebook parameters missing", problems)
    return parameters


#: Types a papermill parameter takes (what a YAML file or ``-p NAME VALUE`` can give).
_PARAMETER_TYPES = (str, int, float, bool, list, dict, type(None))


def declared_parameters(notebook: str) -> list[str]:
    """Names in the ``parameters`` cell of the kit's ``notebooks/<notebook>.ipynb``.

    Examples
    --------
    >>> declared_parameters("index")[:3]
    ['model', 'suite', 'protocol']
    """
    import papermill

    return list(papermill.inspect_notebook(str(KIT_ROOT / "notebooks" / f"{notebook}.ipynb")))


def refuse_unknown_parameters(notebook: str, namespace: dict[str, Any], hidden: Any = None) -> None:
    """Refuse a parameter papermill injected that the notebook does not declare.

    papermill only warns about an unknown parameter (``-p modle x`` or a typo in a ``-f``
    file) and runs on with the default; here a typo is an error naming it. Call it in
    the first cell after the ``parameters`` cell, with ``globals()``: every other
    variable of plain parameter type (not starting with ``_``, not one of IPython's own
    names) must be declared in the parameters cell.

    Examples
    --------
    >>> refuse_unknown_parameters("index", {"model": "sim-alpha", "In": []}, hidden={"In"})
    >>> try:
    ...     refuse_unknown_parameters("index", {"modle": "sim-alpha"}, hidden=set())
    ... except InputRefused as exc:
    ...     print(exc.problems[0].field, "|", exc.problems[0].detail)
    modle | unknown parameter (did you mean 'model'?)
    """
    import difflib

    if hidden is None:
        from IPython import get_ipython

        shell = get_ipython()
        hidden = set(shell.user_ns_hidden) if shell is not None else set()
    declared = declared_parameters(notebook)
    problems = []
    for name, value in sorted(namespace.items()):
        if name.startswith("_") or name in hidden or name in declared:
            continue
        if not isinstance(value, _PARAMETER_TYPES):
            continue  # modules, functions and classes imported by the notebook
        close = difflib.get_close_matches(name, declared, n=1)
        problems.append(
            Problem(
                f"notebooks/{notebook}.ipynb parameters",
                field=name,
                value=value,
                detail="unknown parameter" + (f" (did you mean '{close[0]}'?)" if close else ""),
                allowed=", ".join(declared),
            )
        )
    if problems:
        raise InputRefused.from_problems("Unknown notebook parameters", problems)


#: How a missing value (``null`` in the JSON outputs) is shown in report tables.
MISSING_TEXT = "—"


def table_html(table: pd.DataFrame, max_rows: int | None = None) -> str:
    """HTML of a report table, a missing value shown as ``—`` (pandas would show NaN).

    The outputs hold ``null`` where there is no value (an incomplete track, a timeout's
    ``z``); a reader should not see NaN, which the kit never writes.

    Examples
    --------
    >>> table = pd.DataFrame({"track": ["P", "S"], "mean": [0.4, None], "z": [None, None]})
    >>> html_text = table_html(table)
    >>> html_text.count("<td>—</td>"), "NaN" in html_text, "None" in html_text
    (3, False, False)
    """
    empty = [column for column in table.columns if table[column].isna().all()]
    if empty:  # pandas shows None, not na_rep, in a column without any value
        table = table.copy()
        for column in empty:
            table[column] = MISSING_TEXT
    return table.to_html(
        na_rep=MISSING_TEXT, max_rows=max_rows or pd.get_option("display.max_rows"), border=1
    )


def configure_display(max_rows: int = 500) -> None:
    """Let pandas show whole tables (up to ``max_rows``) in the reports, ``—`` for missing.

    In a notebook, every DataFrame is then rendered by :func:`table_html`.

    Examples
    --------
    >>> configure_display(100); pd.get_option("display.max_rows")
    100
    """
    pd.set_option("display.max_rows", max_rows)
    pd.set_option("display.min_rows", max_rows)
    pd.set_option("display.max_colwidth", 200)
    from IPython import get_ipython

    shell = get_ipython()
    if shell is not None:
        html_formatter = shell.display_formatter.formatters["text/html"]
        html_formatter.for_type(pd.DataFrame, table_html)


def is_simulated(
    suite: str,
    reference_id: str | None = None,
    references_dir: str | os.PathLike[str] | None = None,
) -> bool:
    """True when the suite (or the reference, when given) is marked ``simulated: true``.

    Examples
    --------
    >>> is_simulated("demo-lite", "demo-k3-sim-v1")
    True
    """
    if load_suite(suite, references_dir=references_dir).simulated:
        return True
    if reference_id is None:
        return False
    return load_reference(suite, reference_id=reference_id, references_dir=references_dir).simulated


def data_banner(
    suite: str,
    reference_id: str | None = None,
    references_dir: str | os.PathLike[str] | None = None,
    *,
    protocol: str | None = None,
    model: str | None = None,
) -> Note:
    """The banner at the top of every report: what the data are, and whether simulated.

    Simulated data (suite or reference marked ``simulated: true``) get a prominent red
    "SIMULATED DEMO DATA — not TCSExam results" banner.

    Examples
    --------
    >>> banner = data_banner("demo-lite", "demo-k3-sim-v1", protocol="offline")
    >>> banner.text.startswith("SIMULATED DEMO DATA — not TCSExam results.")
    True
    >>> banner.text.endswith("Suite demo-lite, protocol offline, reference demo-k3-sim-v1.")
    True
    """
    parts = [f"Suite {suite}"]
    if protocol:
        parts.append(f"protocol {protocol}")
    if reference_id:
        parts.append(f"reference {reference_id}")
    if model:
        parts.append(f"model {model}")
    what = ", ".join(parts) + "."
    if not is_simulated(suite, reference_id, references_dir):
        return Note(what, f"<p><b>{html.escape(what)}</b></p>")
    text = f"{SIMULATED_TEXT}. {what}"
    box = (
        '<div style="border:4px solid #b71c1c;background:#ffebee;color:#b71c1c;'
        'padding:12px;margin:8px 0;font-size:1.4em;font-weight:bold;text-align:center">'
        f"{html.escape(SIMULATED_TEXT)}<br><span style='font-size:0.7em'>"
        f"{html.escape(what)} Generated by the kit's seeded demo generator.</span></div>"
    )
    return Note(text, box)


# --- solver-score outputs ------------------------------------------------------------


def relative_score_table(outputs: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per solver-score output: task, attempt, relative_score and counts.

    Examples
    --------
    >>> relative_score_table([{"model": "m", "task": "t", "attempt": "1",
    ...     "relative_score": 0.25, "n_scored": 2, "unscored_instances": []}])
      model task attempt  relative_score  n_scored  n_unscored
    0     m    t       1            0.25         2           0
    """
    rows = [
        {
            "model": out.get("model"),
            "task": out["task"],
            "attempt": out.get("attempt"),
            "relative_score": out["relative_score"],
            "n_scored": out["n_scored"],
            "n_unscored": len(out["unscored_instances"]),
        }
        for out in outputs
    ]
    columns = ["model", "task", "attempt", "relative_score", "n_scored", "n_unscored"]
    return pd.DataFrame(rows, columns=columns)


_INSTANCE_COLUMNS = [
    "task",
    "attempt",
    "instance",
    "status",
    "A",
    "mu",
    "s",
    "scale",
    "scale_term",
    "z",
    "score",
]


def instance_table(outputs: list[dict[str, Any]]) -> pd.DataFrame:
    """Every scored instance of the outputs, one row each (``z``/``A`` empty on failures).

    Examples
    --------
    >>> out = {"task": "t", "attempt": "1", "instances": [{"instance": "g1",
    ...     "status": "ok", "A": 12, "mu": 12.0, "s": 2.0, "scale": 2.0,
    ...     "scale_term": "sample_std", "z": 0.0, "score": 0.5}]}
    >>> instance_table([out])[["instance", "z", "score"]]
      instance    z  score
    0       g1  0.0    0.5
    """
    rows = [
        {
            "task": out["task"],
            "attempt": out.get("attempt"),
            **{key: row.get(key) for key in _INSTANCE_COLUMNS[2:]},
        }
        for out in outputs
        for row in out["instances"]
    ]
    return pd.DataFrame(rows, columns=_INSTANCE_COLUMNS)


def unscored_table(outputs: list[dict[str, Any]]) -> pd.DataFrame:
    """Records kept out of the mean (``unscored_instances``), with their reason.

    Examples
    --------
    >>> unscored_table([{"task": "t", "attempt": "1", "unscored_instances": [
    ...     {"instance": "g9", "status": "ok", "reason": "listed as unscored"}]}])
      task attempt instance status              reason
    0    t       1       g9     ok  listed as unscored
    """
    rows = [
        {
            "task": out["task"],
            "attempt": out.get("attempt"),
            "instance": row["instance"],
            "status": row["status"],
            "reason": row["reason"],
        }
        for out in outputs
        for row in out["unscored_instances"]
    ]
    return pd.DataFrame(rows, columns=["task", "attempt", "instance", "status", "reason"])


def scale_term_table(outputs: list[dict[str, Any]]) -> pd.DataFrame:
    """How many scored instances of each task had their scale set by each term.

    ``sample_std`` is the reference runs' spread; ``relative_floor`` (2% of ``|mu|``) and
    ``absolute_floor`` (1e-9) take over when the runs agree too closely.

    Examples
    --------
    >>> out = {"task": "t", "instances": [{"scale_term": "sample_std"},
    ...                                   {"scale_term": "relative_floor"}]}
    >>> scale_term_table([out]).loc["t"].tolist()
    [1, 1, 0]
    """
    counts: dict[str, Counter[str]] = {}
    for out in outputs:
        # The reference sets the scale: every attempt of a task has the same scored
        # instances, so each task is counted once (from its first output).
        if out["task"] not in counts:
            counts[out["task"]] = Counter(row["scale_term"] for row in out["instances"])
    return pd.DataFrame(
        [[counts[task].get(term, 0) for term in SCALE_TERMS] for task in counts],
        index=pd.Index(list(counts), name="task"),
        columns=list(SCALE_TERMS),
    )


def _new_axes(ax: Any = None, size: tuple[float, float] = (6.0, 3.5)):
    import matplotlib.pyplot as plt

    if ax is not None:
        return ax.figure, ax
    fig, ax = plt.subplots(figsize=size)
    plt.close(fig)  # returned, not shown twice
    return fig, ax


#: Half-width of the z axis: beyond it Phi(z) is 0 or 1 to 6 digits, and one huge z (an
#: instance whose scale is the absolute floor) would squash every other bar.
Z_DISPLAY_LIMIT = 5.0


def plot_z_histogram(outputs: list[dict[str, Any]], ax: Any = None):
    """Histogram of ``z`` over the valid candidate values (failures have no ``z``).

    ``z > 0``: better than the reference mean (in the task's direction). Values beyond
    +-5 are drawn in the edge bins and counted in the title.

    Examples
    --------
    >>> out = {"task": "t", "instances": [{"z": 0.0}, {"z": 1.5}, {"z": None}, {"z": 1e9}]}
    >>> plot_z_histogram([out]).axes[0].get_title()
    'z of 3 valid values (1 beyond ±5 drawn at the edge; 1 completed failure without z)'
    """
    fig, ax = _new_axes(ax)
    values = [row["z"] for out in outputs for row in out["instances"] if row.get("z") is not None]
    failures = sum(1 for out in outputs for row in out["instances"] if row.get("z") is None)
    limit = Z_DISPLAY_LIMIT
    beyond = sum(1 for z in values if abs(z) > limit)
    if values:
        shown = [min(max(z, -limit), limit) for z in values]
        ax.hist(shown, bins=[limit * (k / 20 - 1) for k in range(41)], color="#1565c0")
    ax.axvline(0.0, color="black", linewidth=1)
    ax.set_xlim(-limit, limit)
    ax.set_xlabel("z (positive: better than the reference mean)")
    ax.set_ylabel("instances")
    edge = f"{beyond} beyond ±{limit:g} drawn at the edge; " if beyond else ""
    ax.set_title(
        f"z of {len(values)} valid values ({edge}{failures} completed failure"
        f"{'' if failures == 1 else 's'} without z)"
    )
    return fig


def plot_instance_scores(outputs: list[dict[str, Any]], ax: Any = None):
    """Histogram of instance scores ``Phi(z)`` in [0, 1] (failures score 0).

    Examples
    --------
    >>> out = {"task": "t", "instances": [{"score": 0.5}, {"score": 0.0}]}
    >>> float(plot_instance_scores([out]).axes[0].get_xlim()[0])
    0.0
    """
    fig, ax = _new_axes(ax)
    values = [row["score"] for out in outputs for row in out["instances"]]
    ax.hist(values, bins=[i / 20 for i in range(21)], color="#6a1b9a")
    ax.axvline(0.5, color="black", linewidth=1, linestyle="--")
    ax.set_xlim(0.0, 1.0)
    ax.set_xlabel("instance score Phi(z) (0.5 = reference mean; failures score 0)")
    ax.set_ylabel("instances")
    ax.set_title(f"Solver instance scores ({len(values)} instances)")
    return fig


def floor_instances_table(
    suite: str,
    reference_id: str | None = None,
    references_dir: str | os.PathLike[str] | None = None,
) -> pd.DataFrame:
    """Reference instances whose scale is set by a floor rather than the runs' spread.

    Examples
    --------
    >>> table = floor_instances_table("demo-lite", "demo-k3-sim-v1")
    >>> set(table["scale_term"]) <= {"relative_floor", "absolute_floor"}
    True
    """
    ref = load_reference(suite, reference_id=reference_id, references_dir=references_dir)
    rows = [
        {
            "task": task.name,
            "instance": name,
            "mu": stats.mu,
            "s": stats.s,
            "scale": stats.scale,
            "scale_term": stats.scale_term,
            "n_usable": stats.n_usable,
        }
        for task in ref.tasks.values()
        for name, stats in task.scored.items()
        if stats.scale_term != "sample_std"
    ]
    columns = ["task", "instance", "mu", "s", "scale", "scale_term", "n_usable"]
    return pd.DataFrame(rows, columns=columns)


# --- index outputs -------------------------------------------------------------------


def _model_entry(result: dict[str, Any], model: str) -> dict[str, Any]:
    if model not in result["models"]:
        raise InputRefused(
            "Model not in the index output",
            [
                Problem(
                    "index output",
                    field="model",
                    value=model,
                    allowed=", ".join(result["models"]),
                )
            ],
        )
    return result["models"][model]


def check_protocol(result: dict[str, Any], protocol: str) -> str:
    """Refuse an index output whose solver protocol is not ``protocol``; return it.

    Examples
    --------
    >>> check_protocol({"solver_protocol": "offline"}, "offline")
    'offline'
    """
    if result["solver_protocol"] != protocol:
        raise InputRefused(
            "Protocol mismatch",
            [
                Problem(
                    "report parameters",
                    field="protocol",
                    value=protocol,
                    allowed=f"'{result['solver_protocol']}' (the cohort's protocol)",
                )
            ],
        )
    return protocol


def status_table(result: dict[str, Any]) -> pd.DataFrame:
    """Every model's status, index (points; empty when incomplete) and P, S, C, O.

    Examples
    --------
    >>> result = {"models": {"m": {"status": "complete", "index": 55.5,
    ...     "track_means": {"P": 0.4, "S": 0.25, "C": 1.2, "O": 0.0}, "issues": []}}}
    >>> float(status_table(result).loc["m", "index"])
    55.5
    """
    rows = {
        model: {
            "status": entry["status"],
            "index": entry["index"],
            **entry["track_means"],
            "blocking issues": sum(1 for i in entry["issues"] if i["severity"] == "error"),
        }
        for model, entry in result["models"].items()
    }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "model"
    return table


def track_table(result: dict[str, Any], model: str) -> pd.DataFrame:
    """One model's track means, weights and contributions (points) to the index.

    Examples
    --------
    >>> entry = {"tracks": {"theorem": {"letter": "P", "weight": 30, "mean": 0.4,
    ...     "contribution": 12.0, "tasks_planned": 5, "tasks_complete": 5}}}
    >>> float(track_table({"models": {"m": entry}}, "m").loc["theorem", "contribution"])
    12.0
    """
    tracks = _model_entry(result, model)["tracks"]
    table = pd.DataFrame.from_dict(tracks, orient="index")
    table.index.name = "track"
    return table[["letter", "weight", "mean", "contribution", "tasks_complete", "tasks_planned"]]


def plot_track_contributions(result: dict[str, Any], model: str, ax: Any = None):
    """Bar plot: each track's contribution (weight x mean, points) to the model's index.

    Tracks whose mean is not available (incomplete) are drawn as empty bars marked n/a.

    Examples
    --------
    >>> entry = {"index": 12.0, "status": "complete", "tracks": {"theorem": {
    ...     "letter": "P", "weight": 30, "mean": 0.4, "contribution": 12.0}}}
    >>> plot_track_contributions({"models": {"m": entry}}, "m").axes[0].get_ylabel()
    'points'
    """
    entry = _model_entry(result, model)
    fig, ax = _new_axes(ax)
    labels, heights = [], []
    for track, info in entry["tracks"].items():
        labels.append(f"{info['letter']} ({track})\n{info['weight']} x mean")
        heights.append(info["contribution"])
    drawn = [0.0 if h is None else h for h in heights]
    bars = ax.bar(labels, drawn, color=["#1565c0", "#2e7d32", "#ef6c00", "#6a1b9a"][: len(drawn)])
    for bar, height in zip(bars, heights, strict=True):
        ax.annotate(
            "n/a" if height is None else f"{height:.2f}",
            (bar.get_x() + bar.get_width() / 2, bar.get_height()),
            ha="center",
            va="bottom",
        )
    ax.set_ylabel("points")
    index = entry["index"]
    shown = "null (incomplete)" if index is None else f"{index:.2f} points"
    ax.set_title(f"{model}: index {shown}, status {entry['status']}")
    return fig


def task_table(result: dict[str, Any], model: str) -> pd.DataFrame:
    """One row per task: status, planned attempts, adopted attempt ids, scores and mean.

    Examples
    --------
    >>> task = {"track": "solver", "item": "t", "status": "complete",
    ...     "planned_attempts": 1, "adopted_attempts": ["1"],
    ...     "adopted_valid_attempts": ["1"], "scores": [0.25], "mean": 0.25, "rows": []}
    >>> task_table({"models": {"m": {"tasks": [task]}}}, "m").loc[0, "adopted"]
    '1'
    """
    rows = [
        {
            "track": task["track"],
            "item": task["item"],
            "status": task["status"],
            "planned": task["planned_attempts"],
            "adopted": ", ".join(task["adopted_attempts"]),
            "adopted valid": ", ".join(task["adopted_valid_attempts"]),
            "scores": ", ".join(f"{s:.4g}" for s in task["scores"]),
            "mean": task["mean"],
            "rows": len(task["rows"]),
        }
        for task in _model_entry(result, model)["tasks"]
    ]
    columns = ["track", "item", "status", "planned", "adopted", "adopted valid"]
    return pd.DataFrame(rows, columns=[*columns, "scores", "mean", "rows"])


def issues_table(result: dict[str, Any], model: str) -> pd.DataFrame:
    """Every issue of the model: severity, code, track, item, attempt and message.

    Examples
    --------
    >>> issues_table({"models": {"m": {"issues": []}}}, "m").empty
    True
    """
    rows = [
        {
            "severity": issue["severity"],
            "code": issue["code"],
            "track": issue.get("track"),
            "item": issue.get("item"),
            "attempt": issue.get("attempt"),
            "message": issue["message"],
        }
        for issue in _model_entry(result, model)["issues"]
    ]
    columns = ["severity", "code", "track", "item", "attempt", "message"]
    return pd.DataFrame(rows, columns=columns)


def _category(row: dict[str, Any]) -> str:
    if row["adoption_status"] == "excluded":
        return "excluded"
    if row["score_status"] == "missing":
        return "missing"
    if row["score_status"] != "valid":
        return "failed"
    if row["adoption_status"] == "selected_provisional":
        return "provisional"
    return "valid"


def coverage_matrix(result: dict[str, Any], model: str) -> pd.DataFrame:
    """Task x attempt slot: ``valid``, ``provisional``, ``failed``, ``missing`` or ``excluded``.

    Slots follow the table's rows of each task, then one ``missing`` slot per planned
    repeat that has no adopted row yet (an adopted row without a valid score is
    ``failed``, or ``missing`` when its score_status is ``missing``).
    Cells are ``"<category>: <attempt id>"``.

    Examples
    --------
    >>> task = {"track": "theorem", "item": "t", "planned_attempts": 2,
    ...     "adopted_attempts": ["1"], "rows": [{"attempt": "1",
    ...     "adoption_status": "selected", "score_status": "valid"}]}
    >>> coverage_matrix({"models": {"m": {"tasks": [task]}}}, "m").iloc[0].tolist()
    ['valid: 1', 'missing: repeat 2']
    """
    cells: dict[str, list[str]] = {}
    for task in _model_entry(result, model)["tasks"]:
        row_cells = [f"{_category(row)}: {row['attempt']}" for row in task["rows"]]
        adopted = len(task["adopted_attempts"])
        for repeat in range(adopted + 1, task["planned_attempts"] + 1):
            row_cells.append(f"missing: repeat {repeat}")
        cells[f"{task['track']}/{task['item']}"] = row_cells
    width = max((len(c) for c in cells.values()), default=0)
    table = pd.DataFrame(
        [c + [""] * (width - len(c)) for c in cells.values()],
        index=pd.Index(list(cells), name="task"),
        columns=[f"slot {k}" for k in range(1, width + 1)],
    )
    return table


def plot_coverage(result: dict[str, Any], model: str, ax: Any = None):
    """The coverage matrix as coloured cells labelled with their attempt ids.

    Examples
    --------
    >>> task = {"track": "theorem", "item": "t", "planned_attempts": 1,
    ...     "adopted_attempts": [], "rows": []}
    >>> plot_coverage({"models": {"m": {"tasks": [task]}}}, "m").axes[0].get_title()
    'm: coverage (task x attempt slot)'
    """
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    matrix = coverage_matrix(result, model)
    order = list(COVERAGE_COLOURS)
    codes = [
        [order.index(cell.split(":")[0]) if cell else len(order) for cell in row]
        for row in matrix.values.tolist()
    ]
    colours = ListedColormap([*COVERAGE_COLOURS.values(), "#ffffff"])
    n_rows, n_cols = len(matrix.index), max(len(matrix.columns), 1)
    fig, ax = _new_axes(ax, size=(2.0 + 1.4 * n_cols, 1.0 + 0.28 * n_rows))
    if n_rows:
        ax.imshow(codes, cmap=colours, vmin=-0.5, vmax=len(order) + 0.5, aspect="auto")
        for i, row in enumerate(matrix.values.tolist()):
            for j, cell in enumerate(row):
                if cell:
                    ax.text(j, i, cell.split(": ", 1)[1], ha="center", va="center", fontsize=7)
    ax.set_yticks(range(n_rows), matrix.index, fontsize=7)
    ax.set_xticks(range(len(matrix.columns)), matrix.columns, fontsize=8)
    ax.set_title(f"{model}: coverage (task x attempt slot)")
    ax.legend(
        handles=[Patch(color=c, label=k) for k, c in COVERAGE_COLOURS.items()],
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        fontsize=8,
    )
    return fig


def repeat_spread_table(result: dict[str, Any], model: str) -> pd.DataFrame:
    """Tasks with more than one adopted valid attempt: their scores, range and std.

    The std is the sample standard deviation (ddof 1) of the repeats' scores.

    Examples
    --------
    >>> task = {"track": "solver", "item": "t", "scores": [0.2, 0.4], "mean": 0.3}
    >>> float(repeat_spread_table({"models": {"m": {"tasks": [task]}}}, "m").loc[0, "range"])
    0.2
    """
    rows = []
    for task in _model_entry(result, model)["tasks"]:
        scores = pd.Series(task["scores"], dtype=float)
        if len(scores) < 2:
            continue
        rows.append(
            {
                "track": task["track"],
                "item": task["item"],
                "n": len(scores),
                "scores": ", ".join(f"{s:.4g}" for s in scores),
                "min": scores.min(),
                "max": scores.max(),
                "range": round(scores.max() - scores.min(), 12),
                "std": scores.std(ddof=1),
                "mean": task["mean"],
            }
        )
    columns = ["track", "item", "n", "scores", "min", "max", "range", "std", "mean"]
    return pd.DataFrame(rows, columns=columns)


def plot_repeat_spread(result: dict[str, Any], model: str, ax: Any = None):
    """Each repeated task's adopted valid scores as dots, with their mean as a bar.

    Examples
    --------
    >>> task = {"track": "solver", "item": "t", "scores": [0.2, 0.4], "mean": 0.3}
    >>> plot_repeat_spread({"models": {"m": {"tasks": [task]}}}, "m").axes[0].get_xlabel()
    'score of each adopted valid repeat'
    """
    tasks = [t for t in _model_entry(result, model)["tasks"] if len(t["scores"]) >= 2]
    fig, ax = _new_axes(ax, size=(6.0, 1.0 + 0.35 * max(len(tasks), 1)))
    for position, task in enumerate(tasks):
        ax.scatter(task["scores"], [position] * len(task["scores"]), color="#1565c0", zorder=3)
        if task["mean"] is not None:
            ax.plot([task["mean"]] * 2, [position - 0.3, position + 0.3], color="black")
    ax.set_yticks(range(len(tasks)), [f"{t['track']}/{t['item']}" for t in tasks], fontsize=8)
    ax.set_xlabel("score of each adopted valid repeat")
    ax.set_title(f"{model}: spread of repeats ({len(tasks)} task{'s' if len(tasks) != 1 else ''})")
    return fig


_CODE_TEXT = {
    "missing_task": "no attempt row at all",
    "missing_attempt": "fewer adopted valid attempts than planned",
    "adopted_not_valid": "an adopted attempt has no valid score yet",
    "provisional_attempt": "adopted provisionally (selected_provisional)",
    "excluded_without_note": "an excluded attempt has no note saying why",
}


def explain_status(result: dict[str, Any], model: str) -> Note:
    """In words: the model's status, and everything that makes it incomplete or provisional.

    Every issue is listed with its severity (blocking, provisional, warning), then every
    excluded attempt with its note (kept in the table, not aggregated).

    Examples
    --------
    >>> entry = {"status": "complete", "index": 55.5, "issues": [],
    ...          "coverage": {"tasks_planned": 10, "tasks_complete": 10,
    ...                       "attempts_planned": 10, "attempts_adopted_valid": 10}}
    >>> print(explain_status({"models": {"m": entry}}, "m").text.split(". ")[0])
    m is complete: index 55.5 points
    """
    entry = _model_entry(result, model)
    cov = entry["coverage"]
    counts = (
        f"{cov['tasks_complete']} of {cov['tasks_planned']} tasks, "
        f"{cov['attempts_adopted_valid']} of {cov['attempts_planned']} attempts"
    )
    status = entry["status"]
    if status == "incomplete":
        lines = [
            f"{model} is incomplete: no index is published ({counts} have an adopted valid "
            "score). Each item below must be resolved (a result added, or a judge re-run) "
            "before the index exists:"
        ]
    elif status == "provisional":
        lines = [
            f"{model} is provisional: index {entry['index']:.4g} points, but some adopted "
            f"attempts are only selected_provisional ({counts}). The index may still change "
            "when they are confirmed:"
        ]
    else:
        lines = [
            f"{model} is complete: index {entry['index']:.4g} points. Every planned task and "
            f"repeat has an adopted valid score ({counts})."
        ]
    by_severity = {"error": "blocking", "info": "provisional", "warning": "warning"}
    for issue in entry["issues"]:
        label = by_severity.get(issue["severity"], issue["severity"])
        meaning = _CODE_TEXT.get(issue["code"], issue["code"].replace("_", " "))
        lines.append(f"- [{label}] {meaning}: {issue['message']}")
    for task in entry.get("tasks", []):
        for row in task["rows"]:
            if row["adoption_status"] == "excluded":
                note = str(row.get("note") or "").strip() or "no note"
                lines.append(
                    f"- [excluded] {task['track']}/{task['item']} attempt '{row['attempt']}' "
                    f"(line {row['line']}) is kept but not aggregated: {note}"
                )
    return Note("\n".join(lines))
