"""What every report notebook does first: parameters, display, banner, and its data.

A report notebook has a ``parameters`` cell with neutral (empty) defaults; its first
cell refuses an undeclared or empty parameter, sets up the tables' display and shows a
banner saying what the data are (a red SIMULATED banner for demo data). Its data come
either from the outputs the report runner wrote (the papermill parameters ``index_json``
and ``solver_outputs``) or, run standalone on raw inputs, from the same library calls as
the commands.
"""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import Any

import pandas as pd

from ..errors import InputRefused, Problem
from ..jsonio import read_json
from ..paths import KIT_ROOT

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


def data_banner(
    suite: str,
    reference_id: str | None = None,
    *,
    simulated: bool,
    protocol: str | None = None,
    model: str | None = None,
) -> Note:
    """The banner at the top of every report: what the data are, and whether simulated.

    Simulated data (an output marked ``"simulated": true``: the suite, cohort or
    reference is simulated) get a prominent red "SIMULATED DEMO DATA — not TCSExam
    results" banner.

    Examples
    --------
    >>> banner = data_banner("demo-lite", "demo-k3-sim-v1", simulated=True, protocol="offline")
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
    if not simulated:
        return Note(what, f"<p><b>{html.escape(what)}</b></p>")
    text = f"{SIMULATED_TEXT}. {what}"
    box = (
        '<div style="border:4px solid #b71c1c;background:#ffebee;color:#b71c1c;'
        'padding:12px;margin:8px 0;font-size:1.4em;font-weight:bold;text-align:center">'
        f"{html.escape(SIMULATED_TEXT)}<br><span style='font-size:0.7em'>"
        f"{html.escape(what)} Generated by the kit's seeded demo generator.</span></div>"
    )
    return Note(text, box)


def new_axes(ax: Any = None, size: tuple[float, float] = (6.0, 3.5)):
    """A figure and axes for one report chart (``ax`` given: draw there)."""
    import matplotlib.pyplot as plt

    if ax is not None:
        return ax.figure, ax
    fig, ax = plt.subplots(figsize=size)
    plt.close(fig)  # returned, not shown twice
    return fig, ax


def read_index_output(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The index output the report runner wrote (strict JSON), for a notebook to display."""
    data = read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("models"), dict):
        allowed = "an output of tcsexam score (or the report runner's index JSON)"
        problem = Problem(str(path), field="models", detail="no models here", allowed=allowed)
        raise InputRefused("Not an index output", [problem])
    return data


def read_solver_output_files(
    folder: str | os.PathLike[str], tasks: list[str] | tuple[str, ...] | str | None = None
) -> list[dict[str, Any]]:
    """The solver-score outputs the report runner wrote for one model, in file-name order.

    ``tasks`` (a list, or one comma-separated string) keeps only those tasks.
    """
    wanted = _task_list(tasks)
    outputs = [read_json(path) for path in sorted(Path(folder).glob("*.json"))]
    return [out for out in outputs if not wanted or out.get("task") in wanted]


def _task_list(tasks: list[str] | tuple[str, ...] | str | None) -> list[str]:
    if isinstance(tasks, str):  # papermill -p tasks sim-sat,sim-tsp gives one string
        return [task.strip() for task in tasks.split(",") if task.strip()]
    return list(tasks or [])


def any_simulated(outputs: list[dict[str, Any]]) -> bool:
    """True when an output says its inputs are simulated (demo data)."""
    return any(out.get("simulated") for out in outputs)
