"""What every report notebook does first: parameters, display, banner, and its data."""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import Any

from ..errors import InputRefused, Problem, did_you_mean
from ..number_format import index_with_interval, points
from ..reports.publish import MANIFEST
from ..reports.run_set_document import RunSetDocument, load_run_set
from ..scoring.cohort import declared_models
from ..scoring.index_document import IndexDocument, as_index_document, load_index
from ..scoring.solver_document import SolverDocument, load_solver_output
from ..stats.document import StatsDocument, as_stats_document
from ..stats.wording import percent
from ..vocab import SIMULATED_BANNER

SIMULATED_TEXT = SIMULATED_BANNER
#: The notebook of a model's index report (what the leaderboard links each model to).
INDEX_REPORT = "index"


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
    """Refuse empty notebook parameters (the notebooks ship with empty defaults).

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
            allowed="a non-empty value in the notebook's parameters",
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
    """Names of the parameters of ``notebooks/<notebook>.ipynb``, in its cell's order.

    >>> declared_parameters("index")[:3]
    ['model', 'suite', 'protocol']
    """
    from ..reports.notebooks import notebook as declared_notebook

    return list(declared_notebook(notebook).parameters)


def refuse_unknown_parameters(notebook: str, namespace: dict[str, Any], hidden: Any = None) -> None:
    """Refuse a parameter papermill injected that the notebook does not declare.

    Papermill only warns about a typo (``-p modle x``). ``namespace`` is ``globals()``:
    every plain-typed name not starting with ``_`` nor in ``hidden`` must be declared.

    >>> refuse_unknown_parameters("index", {"model": "sim-alpha", "In": []}, hidden={"In"})
    >>> try:
    ...     refuse_unknown_parameters("index", {"modle": "sim-alpha"}, hidden=set())
    ... except InputRefused as exc:
    ...     print(exc.problems[0].field, "|", exc.problems[0].detail)
    modle | unknown parameter; did you mean 'model'?
    """
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
        problems.append(
            Problem(
                f"notebooks/{notebook}.ipynb parameters",
                field=name,
                value=value,
                detail="; ".join(filter(None, ["unknown parameter", did_you_mean(name, declared)])),
                allowed=", ".join(declared),
            )
        )
    if problems:
        raise InputRefused.from_problems("Unknown notebook parameters", problems)


def data_banner(
    suite: str,
    reference_id: str | None = None,
    *,
    simulated: bool,
    protocol: str | None = None,
    model: str | None = None,
) -> Note:
    """The banner atop every report: what the data are; red SIMULATED when simulated.

    >>> banner = data_banner("demo-lite", "demo-k3-sim-v1", simulated=True, protocol="offline")
    >>> banner.text.startswith("SIMULATED DEMO DATA — not TCSExam results.")
    True
    >>> banner.text.endswith("Suite demo-lite, protocol offline, reference demo-k3-sim-v1.")
    True
    """
    labelled = (("protocol", protocol), ("reference", reference_id), ("model", model))
    parts = [f"Suite {suite}", *(f"{label} {value}" for label, value in labelled if value)]
    what = ", ".join(parts) + "."
    if not simulated:
        return Note(what, f"<p><b>{html.escape(what)}</b></p>")
    text = f"{SIMULATED_TEXT}. {what}"
    box = (
        '<div class="tcs-banner" style="border:4px solid #b71c1c;background:#ffebee;'
        "color:#b71c1c;padding:12px;margin:8px 0;font-size:1.4em;font-weight:bold;"
        f'text-align:center">{html.escape(SIMULATED_TEXT)}<br><span style="font-size:0.7em">'
        f"{html.escape(what)} Generated by the kit's seeded demo generator.</span></div>"
    )
    return Note(text, box)


def status_line(
    result: IndexDocument | dict[str, Any],
    model: str,
    stats: StatsDocument | dict[str, Any] | None = None,
) -> Note:
    """The model's status line: status, index (± its interval with ``stats``), coverage.

    >>> entry = {"status": "incomplete", "index": None, "coverage": {"tasks_planned": 4,
    ...          "tasks_complete": 3, "attempts_planned": 6, "attempts_adopted_valid": 4}}
    >>> print(status_line({"models": {"m": entry}}, "m").text)
    m: INCOMPLETE, no index (3 of 4 tasks, 4 of 6 planned attempts have an adopted valid score)
    """
    entry = as_index_document(result).result(model)
    cov = entry.coverage
    index = "no index" if entry.index is None else f"index {points(entry.index)} points"
    stats = None if stats is None else as_stats_document(stats)
    bounds = None if stats is None else stats.result(model).index_ci
    if entry.index is not None and bounds is not None:
        level = percent(stats.level)
        index = f"index {index_with_interval(entry.index, *bounds)} points ({level} interval)"
    text = (
        f"{model}: {entry.status.upper()}, {index} ({cov.tasks_complete} of "
        f"{cov.tasks_planned} tasks, {cov.attempts_adopted_valid} of "
        f"{cov.attempts_planned} planned attempts have an adopted valid score)"
    )
    box = f'<div class="tcs-status {html.escape(entry.status)}">{html.escape(text)}</div>'
    return Note(text, box)


def header(*notes: Note) -> Note:
    """Several notes shown as one output (the banner, then the status)."""
    return Note("\n".join(n.text for n in notes), "".join(n.html_text for n in notes))


def show(*parts: Any) -> None:
    """Display each part in turn (a note, a table, a chart; lists are flattened).

    >>> show(Note("a"), [Note("b")])  # outside IPython: printed
    a
    b
    """
    from IPython.display import display

    for part in parts:
        if isinstance(part, list | tuple):
            show(*part)
        elif part is not None:
            display(part)


def run_set_beside(index_json: str | os.PathLike[str] = "") -> RunSetDocument | None:
    """The ``run-set.json`` beside the index JSON, or ``None`` (standalone, or no index JSON).

    >>> run_set_beside("") is None
    True
    """
    path = Path(index_json).parent / MANIFEST if index_json else None
    return load_run_set(path) if path is not None and path.is_file() else None


def published_pages(index_json: str | os.PathLike[str] = "") -> dict[str, dict[str, str]]:
    """The model pages published beside this run set: model -> notebook -> relative page.

    Empty standalone, so nothing links a page that may not exist.

    >>> published_pages("")
    {}
    """
    run_set = run_set_beside(index_json)
    if run_set is None:
        return {}
    pages: dict[str, dict[str, str]] = {}
    for model, notebooks in run_set.notebooks.items():
        for nb in notebooks:
            if nb.html:
                pages.setdefault(model, {})[nb.name] = nb.html
    return pages


def cohort_models(*, index_json: str = "", cohort: str = "") -> list[str]:
    """The cohort's model ids, read (not computed) from the index output or the cohort file."""
    return list(load_index(index_json).results) if index_json else declared_models(cohort)


def refuse_model_outside_cohort(model: str, models: list[str]) -> str:
    """Refuse a model the cohort does not declare, in one line, before anything is computed.

    >>> refuse_model_outside_cohort("sim-alpha", ["sim-alpha", "sim-beta"])
    'sim-alpha'
    >>> try:
    ...     refuse_model_outside_cohort("sim-delta", ["sim-alpha", "sim-beta"])
    ... except InputRefused as exc:
    ...     print(exc.summary)
    Model 'sim-delta' is not in the cohort (allowed: sim-alpha, sim-beta)
    """
    if model not in models:
        raise InputRefused(
            f"Model '{model}' is not in the cohort (allowed: {', '.join(models)})", []
        )
    return model


def one_line_errors() -> None:
    """Show a refusal of the kit in a notebook as its message alone, not a traceback."""
    from IPython import get_ipython

    from ..errors import TcsexamError

    shell = get_ipython()
    if shell is None or not _shell_shows_tracebacks(shell):
        return

    def handler(shell, etype, value, _tb, tb_offset=None):
        stb = [f"{etype.__name__}: {value}"]
        shell._showtraceback(etype, value, stb)  # IPython's hook that shows an error
        return stb

    shell.set_custom_exc((TcsexamError,), handler)


def _shell_shows_tracebacks(shell: object) -> bool:
    """The shell has IPython's ``_showtraceback`` hook; else a warning says it has not."""
    if hasattr(shell, "_showtraceback"):
        return True
    import warnings

    import IPython

    from ..internals import LibraryWarning, broken_message

    relies = (
        "the kit's notebooks show a refusal as its message alone through it "
        "(tcsexam_lib/views/notebook.py); refusals keep their full traceback"
    )
    name = f"{type(shell).__name__}._showtraceback"
    warnings.warn(broken_message("IPython", IPython.__version__, [name], relies), LibraryWarning, 2)
    return False


def read_index_output(path: str | os.PathLike[str]) -> IndexDocument:
    """The index output the report runner wrote (strict JSON), for a notebook to display."""
    return load_index(path)


def read_solver_output_files(
    folder: str | os.PathLike[str], tasks: list[str] | tuple[str, ...] | str | None = None
) -> list[SolverDocument]:
    """One model's solver-score outputs, in file-name order; ``tasks`` (list or "a,b") filters."""
    wanted = _task_list(tasks)
    outputs = [load_solver_output(path) for path in sorted(Path(folder).glob("*.json"))]
    return [out for out in outputs if not wanted or out.task in wanted]


def _task_list(tasks: list[str] | tuple[str, ...] | str | None) -> list[str]:
    if isinstance(tasks, str):  # papermill -p tasks sim-sat,sim-tsp gives one string
        return [task.strip() for task in tasks.split(",") if task.strip()]
    return list(tasks or [])
