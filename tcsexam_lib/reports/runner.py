"""``tcsexam report``: score run sets in one pass and render their notebooks into HTML reports.

For each run-set parameter file (see :mod:`.params`) the runner, in one pass over its
inputs (the suite, cohort and reference loaded once, every records file read once, the
attempts table read once):

1. scores every solver records file against the loaded reference (the output of
   ``tcsexam solver-score --model M --attempt A``);
2. fills the blank solver scores of a copy of the attempts table from those outputs
   (:func:`~tcsexam_lib.reports.fill.fill_table`), validates the copy and computes the
   index once, cross-checked against the solver outputs (``solver_evidence``);
3. only when every run set got that far, writes the outputs:
   ``<output>/<suite>-<protocol>/<model>/solver/<task>-<attempt>.json``,
   ``<output>/<suite>-<protocol>.attempts.csv`` and ``<output>/<suite>-<protocol>.index.json``;
4. executes the report notebooks with papermill (each in its own kernel, ``jobs`` at a
   time) on those written outputs, and renders each to HTML twice: with code, and
   without (for readers);
5. writes the landing page ``<output>/index.html``.

A notebook that fails is reported with its cell and error while the others finish.
Nothing is printed here: progress goes to the ``progress`` callback.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..csvio import CsvTable, read_csv_table
from ..errors import InputRefused, Problem
from ..jsonio import dumps_json, write_text_atomic
from ..paths import KIT_ROOT
from ..scoring.attempts import AttemptRows, validate_attempts
from ..scoring.cohort import load_cohort_reference
from ..scoring.commands import ScoringInputs, index_document
from ..scoring.evidence import SolverOutput
from .execute import NotebookJob, NotebookOutcome, Progress, execute_notebooks
from .fill import FillResult, fill_table
from .landing import write_landing_pages
from .params import ReportParams, load_report_params
from .records import (
    RecordsFile,
    check_records_folder,
    find_records,
    score_records_files,
    solver_output_path,
)

#: Folder of the kit's report notebooks.
NOTEBOOKS_DIR = KIT_ROOT / "notebooks"

#: Producer recorded in the provenance of the runner's outputs.
PRODUCER = "tcsexam report"


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

    Parameter files are all checked, and every run set scored in memory, before anything
    is written; a refused file or input raises :class:`InputRefused` naming every problem.
    A failing notebook does not stop the run: it is listed in
    :attr:`ReportResult.failures` (with its cell and error) and on the landing page.
    ``output`` overrides the files' output folder.

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
    prepared = []
    for params in all_params:  # everything in memory first: a refusal writes nothing
        say(f"[{params.name}] scoring ({params.source.name})")
        prepared.append(prepare_run_set(params))
    run_sets = [_write_run_set(run_set, say) for run_set in prepared]
    source_dir = Path(notebooks_dir) if notebooks_dir is not None else NOTEBOOKS_DIR
    jobs_list = [(rs, job) for rs in run_sets for job in _notebook_jobs(rs, source_dir)]
    log_path = all_params[0].output / "report-kernels.log"
    say(f"executing {len(jobs_list)} notebook(s), {jobs} at a time (kernel log {log_path})")
    outcomes = execute_notebooks([job for _, job in jobs_list], jobs, say, log_path)
    for (rs, job), outcome in zip(jobs_list, outcomes, strict=True):
        assert outcome.label == job.label
        rs.notebooks.append(outcome)
    landing = write_landing_pages(run_sets)
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


@dataclass(frozen=True)
class PreparedRunSet:
    """A run set scored in memory: everything the writing step needs, nothing written yet."""

    params: ReportParams
    inputs: ScoringInputs
    records: list[RecordsFile]
    outputs: list[dict[str, Any]]
    filled: CsvTable
    fill: FillResult
    table: AttemptRows


def _check_fill(params: ReportParams, records: list[RecordsFile], fill: FillResult) -> None:
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


def prepare_run_set(params: ReportParams) -> PreparedRunSet:
    """Score one run set in memory, loading each input once; raise what would be refused.

    The suite and cohort come loaded with ``params``; the reference is loaded once and
    every records file scored against it; the attempts table is read once, its blank
    solver scores filled in memory, and the filled copy validated.
    """
    suite, cohort = params.loaded_suite, params.loaded_cohort
    if suite is None or cohort is None:
        raise ValueError("run-set parameters come from load_report_params (suite and cohort)")
    reference = load_cohort_reference(cohort, suite, references_dir=params.references_dir)
    inputs = ScoringInputs(suite, cohort, reference, params.references_dir)
    records = find_records(params.records)
    check_records_folder(
        params.records,
        records,
        models=params.models,
        solver_tasks=set(suite.tracks["solver"]),
        suite=params.suite,
        source=str(params.source),
    )
    outputs = score_records_files(
        records, reference, references_dir=params.references_dir, producer=PRODUCER
    )
    filled, fill = fill_table(read_csv_table(params.attempts, kind="Attempts file"), outputs)
    _check_fill(params, records, fill)
    try:
        table = validate_attempts(filled, suite=suite, cohort=cohort)
    except InputRefused as exc:
        raise InputRefused(f"Run set {params.source}: {exc.summary}", exc.problems) from exc
    return PreparedRunSet(params, inputs, records, outputs, filled, fill, table)


def _write_run_set(prepared: PreparedRunSet, say: Progress) -> RunSetResult:
    """Compute the index of a prepared run set and write its outputs.

    The index is computed from the filled table and the solver outputs as they are
    written (their paths and sha256 go into its provenance), so that ``tcsexam verify``
    recomputes it from the files.
    """
    params = prepared.params
    folder = params.output / params.name
    texts: dict[Path, str] = {}
    evidence: dict[tuple[str, str, str], SolverOutput] = {}
    solver_outputs: dict[str, list[dict[str, Any]]] = {model: [] for model in params.models}
    for item, output in zip(prepared.records, prepared.outputs, strict=True):
        path = solver_output_path(folder / item.model / "solver", item.task, item.attempt)
        texts[path] = dumps_json(output)
        evidence[(item.model, item.task, item.attempt)] = SolverOutput(
            path, _sha256(texts[path]), output
        )
        solver_outputs[item.model].append(output)
    filled_path = params.output / f"{params.name}.attempts.csv"
    filled_text = prepared.filled.to_text()
    index_path = params.output / f"{params.name}.index.json"
    score = index_document(
        prepared.inputs,
        prepared.table,
        attempts=(filled_path, _sha256(filled_text)),
        evidence=(folder, evidence),
        producer=PRODUCER,
    )
    for model in params.models:
        solver_dir = folder / model / "solver"
        if solver_dir.is_dir():
            shutil.rmtree(solver_dir)  # a stale output must never count as evidence
    for path, text in texts.items():
        write_text_atomic(path, text)
    for model, outputs in solver_outputs.items():
        say(f"[{params.name}] {model}: {len(outputs)} solver-score output(s)")
    write_text_atomic(filled_path, filled_text)
    fill = prepared.fill
    fill.output = filled_path
    say(
        f"[{params.name}] attempts: {len(fill.filled)} blank solver score(s) filled, "
        f"{len(fill.mismatches)} disagreeing -> {filled_path}"
    )
    for issue in fill.mismatches:
        say(f"[{params.name}] warning: {issue['message']}")
    write_text_atomic(index_path, dumps_json(score))
    for model, entry in score["models"].items():
        index = "no index" if entry["index"] is None else f"index {entry['index']:.2f}"
        say(f"[{params.name}] {model}: {entry['status']}, {index}")
    simulated = params.simulated or prepared.inputs.reference.simulated
    return RunSetResult(
        params, folder, index_path, filled_path, score, fill, solver_outputs, simulated
    )


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _notebook_jobs(rs: RunSetResult, source_dir: Path) -> list[NotebookJob]:
    """The notebooks of each model, given the run set's written outputs to display."""
    p = rs.params
    common = {
        "suite": p.suite,
        "protocol": p.protocol,
        "references_dir": "" if p.references_dir is None else str(p.references_dir),
    }
    jobs = []
    for model in p.models:
        solver_dir = str(rs.folder / model / "solver")
        per_notebook = {
            "solver_scoring": {
                "reference_id": rs.score["reference_id"],
                "records_dir": str(p.records),
                "solver_outputs": solver_dir,
            },
            "index": {"index_json": str(rs.index_output)},
            "diagnostics": {"index_json": str(rs.index_output), "solver_outputs": solver_dir},
        }
        for name in p.notebooks:
            jobs.append(
                NotebookJob(
                    label=f"{p.name}/{model}/{name}",
                    name=name,
                    source=source_dir / f"{name}.ipynb",
                    folder=rs.folder / model,
                    parameters={"model": model, **common, **per_notebook.get(name, {})},
                )
            )
    return jobs
