"""``tcsexam report``: score run sets and render their notebooks into HTML reports.

For each run-set parameter file (see :mod:`tcsexam_lib.report_params`) and each model
of its cohort, the runner

1. scores every solver records file with :func:`run_solver_score` into
   ``<output>/<suite>-<protocol>/<model>/solver/<task>-<attempt>.json``;
2. writes a copy of the attempts table whose blank solver scores are filled from
   those outputs (:func:`fill_solver_rows`) to ``<output>/<suite>-<protocol>.attempts.csv``
   and scores it with :func:`run_score`, cross-checked against the solver outputs
   (``solver_evidence``), into ``<output>/<suite>-<protocol>.index.json``;
3. executes the report notebooks with papermill (each in its own kernel, ``jobs`` at
   a time) and renders each to HTML twice: with code, and without (for readers);
4. writes the landing page ``<output>/index.html``: every model's status, index and
   track means P, S, C, O, with links to its reports.

A notebook that fails is reported with its cell and error while the others finish.
Nothing is printed here: progress goes to the ``progress`` callback.
"""

from __future__ import annotations

import html
import os
import shutil
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from .errors import InputRefused, Problem
from .jsonio import write_json_atomic, write_text_atomic
from .paths import KIT_ROOT
from .plan import load_cohort, load_cohort_reference, load_suite
from .report_params import ReportParams, load_report_params
from .runs import run_score
from .solver_batch import (
    FillResult,
    fill_solver_rows,
    find_records,
    run_solver_scores,
    solver_output_path,
)
from .vocab import TRACK_LETTERS, TRACKS

#: Folder of the kit's report notebooks.
NOTEBOOKS_DIR = KIT_ROOT / "notebooks"

#: Producer recorded in the provenance of the runner's outputs.
PRODUCER = "tcsexam report"

Progress = Callable[[str], None]


@dataclass(frozen=True)
class NotebookJob:
    """One notebook to execute: its source, parameters and output folder."""

    label: str
    name: str
    source: Path
    folder: Path
    parameters: dict[str, Any]


@dataclass
class NotebookOutcome:
    """What became of one notebook: paths written, time, and the failure if any."""

    label: str
    name: str
    executed: Path
    html: Path | None
    reader_html: Path | None
    seconds: float
    error: str | None = None
    cell: int | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass
class RunSetResult:
    """One run set: its outputs, its index result, and its notebooks."""

    params: ReportParams
    folder: Path
    index_output: Path
    attempts_filled: Path
    score: dict[str, Any]
    fill: FillResult
    solver_outputs: dict[str, list[dict[str, Any]]]
    simulated: bool
    notebooks: list[NotebookOutcome] = field(default_factory=list)


@dataclass
class ReportResult:
    """Everything a ``tcsexam report`` run produced."""

    run_sets: list[RunSetResult]
    landing_pages: list[Path]
    seconds: float

    @property
    def failures(self) -> list[NotebookOutcome]:
        return [nb for rs in self.run_sets for nb in rs.notebooks if not nb.ok]

    @property
    def ok(self) -> bool:
        """True when every notebook ran (the index statuses are reported, not judged)."""
        return not self.failures


def _silent(_: str) -> None:
    return None


def run_report(
    params_files: Sequence[str | os.PathLike[str]],
    *,
    jobs: int = 1,
    output: str | os.PathLike[str] | None = None,
    notebooks_dir: str | os.PathLike[str] | None = None,
    progress: Progress | None = None,
) -> ReportResult:
    """Build the reports of every run set and the landing page(s).

    Parameter files are all checked before anything runs; a refused file raises
    :class:`InputRefused` naming every problem. A failing notebook does not stop the
    run: it is listed in :attr:`ReportResult.failures` (with its cell and error) and on
    the landing page. ``output`` overrides the files' output folder.

    Examples
    --------
    >>> try:
    ...     run_report(["no-such-file.yaml"])
    ... except InputRefused as exc:
    ...     print(exc.problems[0].detail)
    no such file
    """
    started = time.monotonic()
    say = progress or _silent
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise InputRefused(
            "Number of parallel notebooks refused",
            [
                Problem(
                    "tcsexam report -j/--jobs",
                    field="jobs",
                    value=jobs,
                    allowed="a whole number >= 1 (notebooks executed at a time)",
                )
            ],
        )
    all_params = _load_all_params(params_files, output)
    source_dir = Path(notebooks_dir) if notebooks_dir is not None else NOTEBOOKS_DIR
    run_sets = []
    checked = [_check_run_set(params) for params in all_params]  # refuse before writing
    for params, scored in zip(all_params, checked, strict=True):
        say(f"[{params.name}] scoring ({params.source.name})")
        run_sets.append(_prepare_run_set(params, scored, say))
    jobs_list = [(rs, job) for rs in run_sets for job in _notebook_jobs(rs, source_dir)]
    log_path = all_params[0].output / "report-kernels.log"
    say(f"executing {len(jobs_list)} notebook(s), {jobs} at a time (kernel log {log_path})")
    outcomes = _execute_all([job for _, job in jobs_list], jobs, say, log_path)
    for (rs, job), outcome in zip(jobs_list, outcomes, strict=True):
        assert outcome.label == job.label
        rs.notebooks.append(outcome)
    landing = _write_landing_pages(run_sets)
    for page in landing:
        say(f"landing page: {page}")
    return ReportResult(run_sets, landing, time.monotonic() - started)


def _load_all_params(
    params_files: Sequence[str | os.PathLike[str]], output: str | os.PathLike[str] | None
) -> list[ReportParams]:
    if not params_files:
        raise InputRefused(
            "No parameter file", [Problem("tcsexam report", field="PARAMS", allowed="a .yaml file")]
        )
    loaded, problems, summaries = [], [], []
    for path in params_files:
        try:
            loaded.append(load_report_params(path, output=output))
        except InputRefused as exc:
            summaries.append(exc.summary)
            problems.extend(exc.problems or [Problem(str(path), detail=exc.summary)])
    seen: dict[tuple[Path, str], Path] = {}
    duplicate = False
    for params in loaded:
        key = (params.output, params.name)
        if key in seen:
            duplicate = True
            problems.append(
                Problem(
                    str(params.source),
                    field="suite/protocol",
                    value=params.name,
                    detail=f"same run set as {seen[key]} in the same output folder",
                    allowed="one parameter file per suite and protocol",
                )
            )
        seen[key] = params.source
    if len(summaries) == 1 and len(loaded) + 1 == len(params_files) and not duplicate:
        raise InputRefused(summaries[0], problems)  # one file refused: its own message
    if problems:
        raise InputRefused.from_problems("Parameter files refused", problems)
    return loaded


def _stray_records_files(folder: Path) -> list[Problem]:
    """Files under the records folder that are not ``<model>/<task>/<attempt>.json``.

    The runner would not score them, so they are refused rather than silently left out
    (hidden files such as ``.DS_Store`` are not records and are skipped).
    """
    problems = []
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if any(part.startswith(".") for part in relative.parts) or path.is_dir():
            continue
        if len(relative.parts) != 3 or path.suffix != ".json":
            problems.append(
                Problem(
                    str(path),
                    field="records",
                    value=relative.as_posix(),
                    detail="not a records file laid out as <model>/<task>/<attempt>.json",
                    allowed="<model>/<task>/<attempt>.json files only (move or remove this one)",
                )
            )
    return problems


def _check_records(params: ReportParams, records: list[Any], solver_tasks: set[str]) -> None:
    problems = _stray_records_files(params.records)
    for item in records:
        if item.model not in params.models:
            problems.append(
                Problem(
                    str(item.path),
                    field="model",
                    value=item.model,
                    allowed=f"a model of the cohort ({', '.join(params.models)})",
                )
            )
        elif item.task not in solver_tasks:
            problems.append(
                Problem(
                    str(item.path),
                    field="task",
                    value=item.task,
                    allowed=f"a solver task of suite '{params.suite}' "
                    f"({', '.join(sorted(solver_tasks))})",
                )
            )
    first: dict[tuple[str, str], Any] = {}
    for item in records:  # <task>-<attempt>.json must name one records file per model
        key = (item.model, solver_output_path("", item.task, item.attempt).name)
        if key in first:
            problems.append(
                Problem(
                    str(item.path),
                    field="attempt",
                    value=item.attempt,
                    detail=f"its solver-score output {key[1]} would overwrite that of "
                    f"{first[key].path}",
                    allowed="attempt ids that keep <task>-<attempt> distinct "
                    "(e.g. no '-' in attempt ids when a task id extends another with '-')",
                )
            )
        first.setdefault(key, item)
    if problems:
        raise InputRefused.from_problems(
            f"Records folder {params.records} ({params.source}) refused", problems
        )


def _check_fill(params: ReportParams, records: list[Any], fill: FillResult) -> None:
    """Refuse records files no solver row names, and blank valid scores without records."""
    paths = {(r.model, r.task, r.attempt): r.path for r in records}
    problems = [
        Problem(
            str(paths[(o["model"], o["task"], o["attempt"])]),
            field="attempt",
            value=o["attempt"],
            detail=f"no solver row {o['model']}/{o['task']} attempt '{o['attempt']}' "
            f"in {params.attempts}",
            allowed="a records file whose model, task and attempt have a row in the attempts "
            "table (add the row: excluded, with a note, if it is not adopted)",
        )
        for o in fill.orphans
    ]
    problems += [
        Problem(
            f"{params.attempts} line {u['line']}",
            field="score",
            value="",
            detail="blank valid solver score and no records file "
            f"{params.records / u['model'] / u['item'] / (u['attempt'] + '.json')}",
            allowed="a relative score in [0, 1], or that records file (the runner fills the "
            "score from it)",
        )
        for u in fill.unfilled
    ]
    if problems:
        raise InputRefused.from_problems(f"Run set {params.source} refused", problems)


@dataclass(frozen=True)
class _CheckedRunSet:
    """What :func:`_check_run_set` loaded and scored in memory, for the writing step."""

    reference: Any
    records: list[Any]
    outputs: list[dict[str, Any]]


def _check_run_set(params: ReportParams) -> _CheckedRunSet:
    """Score the run set in memory (a temporary filled table): raise what would be refused.

    The solver-score outputs are kept for :func:`_prepare_run_set`, which writes them;
    the index is computed again there, from the filled table at its final place (its
    provenance names that file).
    """
    suite = load_suite(params.suite, references_dir=params.references_dir)
    cohort = load_cohort(params.cohort, suite=suite)
    reference = load_cohort_reference(cohort, suite, references_dir=params.references_dir)
    records = find_records(params.records)
    _check_records(params, records, set(suite.tracks["solver"]))
    outputs = run_solver_scores(
        records,
        reference=params.suite,
        reference_id=reference.reference_id,
        references_dir=params.references_dir,
        producer=PRODUCER,
    )
    with tempfile.TemporaryDirectory(prefix="tcsexam-report-") as folder:
        filled = Path(folder) / params.attempts.name
        fill = fill_solver_rows(params.attempts, outputs, filled)
        _check_fill(params, records, fill)
        try:
            run_score(
                suite=params.suite,
                attempts=filled,
                cohort=params.cohort,
                references_dir=params.references_dir,
            )
        except InputRefused as exc:
            # Name the researcher's table, not the temporary copy.
            shown = f"{params.attempts} (blank solver scores filled)"
            problems = [
                replace(problem, where=problem.where.replace(str(filled), shown))
                for problem in exc.problems
            ]
            summary = exc.summary.replace(str(filled), shown)
            raise InputRefused(f"Run set {params.source}: {summary}", problems) from exc
    return _CheckedRunSet(reference, records, outputs)


def _prepare_run_set(params: ReportParams, checked: _CheckedRunSet, say: Progress) -> RunSetResult:
    """Write the checked solver-score outputs, fill the attempts copy, compute the index."""
    reference = checked.reference
    folder = params.output / params.name
    solver_outputs: dict[str, list[dict[str, Any]]] = {}
    for model in params.models:
        solver_dir = folder / model / "solver"
        if solver_dir.is_dir():
            shutil.rmtree(solver_dir)  # a stale output must never count as evidence
        mine = [
            (item, output)
            for item, output in zip(checked.records, checked.outputs, strict=True)
            if item.model == model
        ]
        for item, output in mine:
            write_json_atomic(solver_output_path(solver_dir, item.task, item.attempt), output)
        solver_outputs[model] = [output for _, output in mine]
        say(f"[{params.name}] {model}: {len(mine)} solver-score output(s) -> {solver_dir}")
    filled_path = params.output / f"{params.name}.attempts.csv"
    flat = [out for outs in solver_outputs.values() for out in outs]
    fill = fill_solver_rows(params.attempts, flat, filled_path)
    say(
        f"[{params.name}] attempts: {len(fill.filled)} blank solver score(s) filled, "
        f"{len(fill.mismatches)} disagreeing -> {filled_path}"
    )
    for issue in fill.mismatches:
        say(f"[{params.name}] warning: {issue['message']}")
    index_path = params.output / f"{params.name}.index.json"
    score = run_score(
        suite=params.suite,
        attempts=filled_path,
        cohort=params.cohort,
        references_dir=params.references_dir,
        output=index_path,
        solver_evidence=folder,
        producer=PRODUCER,
    )
    for model, entry in score["models"].items():
        index = "null" if entry["index"] is None else f"{entry['index']:.4f}"
        say(f"[{params.name}] {model}: {entry['status']}, index {index}")
    return RunSetResult(
        params=params,
        folder=folder,
        index_output=index_path,
        attempts_filled=filled_path,
        score=score,
        fill=fill,
        solver_outputs=solver_outputs,
        simulated=params.simulated or reference.simulated,
    )


def _notebook_jobs(rs: RunSetResult, source_dir: Path) -> list[NotebookJob]:
    p = rs.params
    common = {
        "suite": p.suite,
        "protocol": p.protocol,
        "references_dir": "" if p.references_dir is None else str(p.references_dir),
    }
    per_notebook = {
        "solver_scoring": {
            "reference_id": rs.score["reference_id"],
            "records_dir": str(p.records),
            "tasks": [],
            "output_dir": "",
        },
        "index": {
            "cohort": str(p.cohort),
            "attempts": str(rs.attempts_filled),
            "solver_evidence": str(rs.folder),
            "output": "",
        },
        "diagnostics": {
            "cohort": str(p.cohort),
            "attempts": str(rs.attempts_filled),
            "records_dir": str(p.records),
        },
    }
    jobs = []
    for model in p.models:
        for name in p.notebooks:
            parameters = {"model": model, **common, **per_notebook.get(name, {})}
            jobs.append(
                NotebookJob(
                    label=f"{p.name}/{model}/{name}",
                    name=name,
                    source=source_dir / f"{name}.ipynb",
                    folder=rs.folder / model,
                    parameters=parameters,
                )
            )
    return jobs


def _quiet_worker(log_path: str) -> None:
    """Send a worker's stderr (and so its kernels' chatter) to the kernel log file."""
    handle = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(handle, 2)
    os.close(handle)


def _execute_all(
    jobs: list[NotebookJob], workers: int, say: Progress, log_path: Path
) -> list[NotebookOutcome]:
    """Run the jobs, ``workers`` at a time, each in a worker process with its own kernel.

    The kernels' own messages (stderr) go to ``log_path``, not to the caller's terminal.
    """
    total = len(jobs)
    outcomes: list[NotebookOutcome | None] = [None] * total
    if not jobs:
        return []
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log_path.write_text("", encoding="utf-8")  # this run's kernels only
    pool = ProcessPoolExecutor(
        max_workers=max(1, min(workers, total)),
        mp_context=get_context("spawn"),
        initializer=_quiet_worker,
        initargs=(str(log_path),),
    )
    with pool:
        futures = {pool.submit(_execute_notebook, job): k for k, job in enumerate(jobs)}
        for done, future in enumerate(as_completed(futures), start=1):
            position = futures[future]
            try:
                outcome = future.result()
            except Exception as exc:  # noqa: BLE001 - a worker crash is one failed notebook
                job = jobs[position]
                outcome = NotebookOutcome(
                    job.label,
                    job.name,
                    job.folder / f"{job.name}.ipynb",
                    None,
                    None,
                    0.0,
                    f"worker failed: {type(exc).__name__}: {exc}",
                )
            outcomes[position] = outcome
            if outcome.ok:
                say(f"[{done}/{total}] ok {outcome.label} ({outcome.seconds:.1f} s)")
            else:
                say(f"[{done}/{total}] FAILED {outcome.label}: {outcome.error}")
    return [o for o in outcomes if o is not None]


def _first_line(text: str, limit: int = 80) -> str:
    line = next((ln for ln in text.splitlines() if ln.strip()), "")
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _execute_notebook(job: NotebookJob) -> NotebookOutcome:
    """Execute one notebook with papermill, then render it to HTML (with and without code).

    The executed notebook keeps papermill's metadata (parameters, timings, kit
    environment). A failing cell is reported by its execution count ``In [N]`` (as
    the HTML shows it; papermill's injected-parameters cell counts), its first line
    and the error, and ``cell`` holds its 0-based position in the executed notebook;
    the notebook and its HTML are still written so that the error can be read.
    """
    import papermill

    started = time.monotonic()
    job.folder.mkdir(parents=True, exist_ok=True)
    executed = job.folder / f"{job.name}.ipynb"
    partial = job.folder / f".{job.name}.partial.ipynb"
    error, cell = None, None
    try:
        papermill.execute_notebook(
            str(job.source),
            str(partial),
            parameters=job.parameters,
            progress_bar=False,
            log_output=False,
        )
    except papermill.PapermillExecutionError as exc:
        cell = exc.cell_index
        error = (
            f"cell In [{exc.exec_count}] ({_first_line(exc.source)}): "
            f"{exc.ename}: {_first_line(str(exc.evalue), 200)}"
        )
    except Exception as exc:  # noqa: BLE001 - any failure is reported, others go on
        error = f"{type(exc).__name__}: {_first_line(str(exc), 200)}"
    html_path = reader_path = None
    if partial.exists():
        os.replace(partial, executed)
        try:
            html_path, reader_path = _render_html(executed, f"{job.label} (TCSExam report)")
        except Exception as exc:  # noqa: BLE001
            error = error or f"HTML export failed: {type(exc).__name__}: {exc}"
    return NotebookOutcome(
        job.label,
        job.name,
        executed,
        html_path,
        reader_path,
        time.monotonic() - started,
        error,
        cell,
    )


def _render_html(executed: str | os.PathLike[str], title: str) -> tuple[Path, Path]:
    """Write ``<name>.html`` (with code) and ``<name>.reader.html`` (code hidden)."""
    import nbformat
    from nbconvert import HTMLExporter

    executed = Path(executed)
    notebook = nbformat.read(executed, as_version=4)
    resources = {"metadata": {"name": title}}
    full, _ = HTMLExporter().from_notebook_node(notebook, resources=dict(resources))
    reader, _ = HTMLExporter(
        exclude_input=True, exclude_input_prompt=True, exclude_output_prompt=True
    ).from_notebook_node(notebook, resources=dict(resources))
    stem = executed.with_suffix("")
    html_path = write_text_atomic(stem.with_suffix(".html"), full)
    reader_path = write_text_atomic(Path(f"{stem}.reader.html"), reader)
    return html_path, reader_path


# --- landing page ---------------------------------------------------------------------

_STYLE = """
body{font-family:system-ui,sans-serif;margin:2em;max-width:72em}
table{border-collapse:collapse;margin:1em 0}
th,td{border:1px solid #bbb;padding:4px 8px;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.banner{border:4px solid #b71c1c;background:#ffebee;color:#b71c1c;padding:12px;
font-size:1.4em;font-weight:bold;text-align:center;margin:1em 0}
.complete{color:#2e7d32}.provisional{color:#ef6c00}.incomplete{color:#c62828}
.failed{color:#c62828;font-weight:bold}
"""


def _fmt(value: Any) -> str:
    return "—" if value is None else f"{value:.4f}"


def _relative(path: Path | None, base: Path) -> str | None:
    """A relative link to ``path``, URL-quoted and safe inside an HTML attribute."""
    if path is None:
        return None
    return html.escape(urllib.parse.quote(Path(os.path.relpath(path, base)).as_posix()))


def _run_set_section(rs: RunSetResult, base: Path) -> str:
    p = rs.params
    out = [f"<h2 id='{html.escape(p.name)}'>{html.escape(p.suite)}, {html.escape(p.protocol)}"]
    out.append(" solver protocol</h2>")
    if rs.simulated:
        out.append("<p class='failed'>SIMULATED DEMO DATA — not TCSExam results</p>")
    if p.description:
        out.append(f"<p>{html.escape(p.description)}</p>")
    links = [
        f"<a href='{_relative(rs.index_output, base)}'>index JSON</a>",
        f"<a href='{_relative(rs.attempts_filled, base)}'>attempts (solver rows filled)</a>",
    ]
    out.append(
        f"<p>Reference <code>{html.escape(str(rs.score['reference_id']))}</code>; overall "
        f"status <b>{html.escape(rs.score['status'])}</b>; " + ", ".join(links) + "</p>"
    )
    letters = [TRACK_LETTERS[t] for t in TRACKS]
    head = [
        "model",
        "status",
        "index (points)",
        *letters,
        "reports (code hidden; with code; executed notebook)",
    ]
    out.append("<table><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>")
    by_model: dict[str, list[NotebookOutcome]] = {}
    for nb in rs.notebooks:
        by_model.setdefault(nb.label.split("/")[1], []).append(nb)
    for model, entry in rs.score["models"].items():
        reports = []
        for nb in by_model.get(model, []):
            reader = _relative(nb.reader_html, base)
            full = _relative(nb.html, base)
            name = html.escape(nb.name.replace("_", " "))
            text = f"<a href='{reader}'>{name}</a>" if reader else name
            if full:
                notebook = _relative(nb.executed, base)
                text += f" (<a href='{full}'>code</a>, <a href='{notebook}'>ipynb</a>)"
            if not nb.ok:
                text += " <span class='failed'>FAILED</span>"
            reports.append(text)
        status = html.escape(entry["status"])
        cells = [
            f"<td>{html.escape(model)}</td>",
            f"<td class='{status}'>{status}</td>",
            f"<td class='num'>{_fmt(entry['index'])}</td>",
            *(f"<td class='num'>{_fmt(entry['track_means'][letter])}</td>" for letter in letters),
            f"<td>{' · '.join(reports)}</td>",
        ]
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "".join(out)


def build_landing_page(run_sets: list[RunSetResult], base: str | os.PathLike[str]) -> str:
    """The landing page HTML: every model's status, index and P, S, C, O per run set.

    ``base`` is the folder the page is written to (links are relative to it).

    Examples
    --------
    >>> page = build_landing_page([], "build/reports")
    >>> "<h1>TCSExam reports</h1>" in page, "SIMULATED" in page
    (True, False)
    """
    base = Path(base)
    simulated = any(rs.simulated for rs in run_sets)
    failures = [nb for rs in run_sets for nb in rs.notebooks if not nb.ok]
    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'>",
        "<title>TCSExam reports</title>",
        f"<style>{_STYLE}</style></head><body><h1>TCSExam reports</h1>",
    ]
    if simulated:
        parts.append(
            "<div class='banner'>SIMULATED DEMO DATA — not TCSExam results<br>"
            "<span style='font-size:0.7em'>Every number below comes from the kit's seeded "
            "demo generator.</span></div>"
        )
    parts.append(
        "<p>Index in points: 30·P + 30·S + 30·C + 10·O (higher is better; it can exceed "
        "100). P theorem, S solver (relative score in [0, 1]), C construction, O conjecture: "
        "track means. <b>complete</b>: every planned task and repeat has an adopted valid "
        "score; <b>provisional</b>: complete, but some adopted attempt is provisional; "
        "<b>incomplete</b>: no index is published (—).</p>"
    )
    parts.append(
        "<ul>"
        + "".join(
            f"<li><a href='#{html.escape(rs.params.name)}'>{html.escape(rs.params.name)}</a></li>"
            for rs in run_sets
        )
        + "</ul>"
    )
    if failures:
        parts.append(f"<h2 class='failed'>{len(failures)} notebook(s) failed</h2><ul>")
        for nb in failures:
            link = _relative(nb.html, base)
            label = html.escape(nb.label)
            parts.append(
                f"<li>{f'<a href={chr(39)}{link}{chr(39)}>{label}</a>' if link else label}: "
                f"{html.escape(nb.error or '')}</li>"
            )
        parts.append("</ul>")
    parts.extend(_run_set_section(rs, base) for rs in run_sets)
    parts.append("</body></html>\n")
    return "".join(parts)


def _write_landing_pages(run_sets: list[RunSetResult]) -> list[Path]:
    by_output: dict[Path, list[RunSetResult]] = {}
    for rs in run_sets:
        by_output.setdefault(rs.params.output, []).append(rs)
    return [
        write_text_atomic(folder / "index.html", build_landing_page(group, folder))
        for folder, group in by_output.items()
    ]
