"""``tcsexam report``: score run sets in one pass and render their notebooks into HTML reports.

For each run-set parameter file (see :mod:`.params`) the runner, in one pass over its
inputs (the suite, cohort and reference loaded once, every records file read once, the
attempts table read once):

1. scores every solver records file against the loaded reference (the output of
   ``tcsexam solver-score --model M --attempt A``);
2. fills the blank solver scores of a copy of the attempts table from those outputs
   (:func:`~tcsexam_lib.reports.fill.fill_table`), validates the copy and computes the
   index once, cross-checked against the solver outputs (``solver_evidence``: a score
   written by hand that differs from its output is an issue of the index, and a warning);
3. only when every run set got that far, writes the outputs into the run set's staging
   folder (see :mod:`.publish`): ``<suite>-<protocol>.index.json``,
   ``<suite>-<protocol>.attempts.csv`` and ``evidence/<model>/<task>-<attempt>.json``,
   every path they record relative to their own folder;
4. executes the cohort notebook and each model's notebooks with papermill (each in its
   own kernel, ``jobs`` at a time) on those written outputs, and renders each to one
   HTML page (the outputs; the code on demand);
5. when a run set's last notebook is done, switches its folder into
   ``<output>/<suite>-<protocol>/`` in one rename and rewrites the landing page
   ``<output>/index.html`` from every run set published there.

A notebook that fails is reported with its cell and error while the others finish.
Interrupted (Ctrl-C), the runner kills its workers and removes its staging folders:
what was published stays as it was. Nothing is printed here: progress goes to the
``progress`` callback.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..csvio import CsvTable, read_csv_table
from ..errors import InputRefused, Problem
from ..jsonio import dumps_json, write_text_atomic
from ..paths import KIT_ROOT
from ..provenance import relative_provenance
from ..scoring.attempts import AttemptRows, validate_attempts
from ..scoring.cohort import load_cohort_reference
from ..scoring.commands import ScoringInputs, index_document
from ..scoring.evidence import SCORE_MISMATCH, SolverOutput
from ..scoring.solver_document import SolverDocument
from ..stats.command import compute_stats, stats_provenance
from ..stats.document import write_stats_json
from .execute import NotebookOutcome, Progress, execute_notebooks
from .fill import FillResult, fill_table
from .pages import write_assets
from .params import ReportParams, load_report_params
from .publish import new_staging, refuse_foreign_folders, remove_stale_staging, remove_tree
from .records import (
    RecordsFile,
    check_records_folder,
    find_records,
    score_records_files,
    solver_output_path,
)
from .runsets import (
    EVIDENCE,
    RunSetResult,
    comparisons,
    notebook_jobs,
    publish,
    write_planned_manifest,
)
from .teaching_page import write_teaching_page

#: Folder of the kit's report notebooks.
NOTEBOOKS_DIR = KIT_ROOT / "notebooks"

#: Producer recorded in the provenance of the runner's outputs.
PRODUCER = "tcsexam report"


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
    for folder in sorted({p.output for p in all_params}):
        names = sorted(p.name for p in all_params if p.output == folder)
        refuse_foreign_folders(folder, names, ", ".join(str(p.source) for p in all_params))
    prepared = []
    for params in all_params:  # everything in memory first: a refusal writes nothing
        say(f"[{params.name}] scoring ({params.source.name})")
        prepared.append(prepare_run_set(params))
    for folder in sorted({p.output for p in all_params}):
        _make_output_folder(folder, [p for p in all_params if p.output == folder])
    for folder in sorted({p.output for p in all_params}):
        for stale in remove_stale_staging(folder):
            say(f"removed {stale.name} (left by an interrupted run)")
        write_assets(folder)
        write_teaching_page(folder, landing=True)  # the landing page links to it
    run_sets: list[RunSetResult] = []
    landing: list[Path] = []
    try:
        for item in prepared:
            run_sets.append(_write_run_set(item, say))
        source_dir = Path(notebooks_dir) if notebooks_dir is not None else NOTEBOOKS_DIR
        compare = comparisons(run_sets)
        jobs_list = [(rs, job) for rs in run_sets for job in notebook_jobs(rs, source_dir, compare)]
        for rs in run_sets:  # the pages this run renders, for the cohort report's links
            write_planned_manifest(rs, [job for r, job in jobs_list if r is rs])
        remaining = {id(rs): sum(1 for r, _ in jobs_list if r is rs) for rs in run_sets}

        def publish_run_set(rs: RunSetResult) -> None:
            page = publish(rs, say)
            if page not in landing:
                landing.append(page)

        for rs in run_sets:
            if not remaining[id(rs)]:
                publish_run_set(rs)

        def finished(position: int, outcome: NotebookOutcome) -> None:
            rs, job = jobs_list[position]
            assert outcome.label == job.label
            rs.notebooks.append(outcome)
            remaining[id(rs)] -= 1
            if not remaining[id(rs)]:
                rs.notebooks.sort(key=lambda nb: [j.label for r, j in jobs_list].index(nb.label))
                publish_run_set(rs)

        say(f"executing {len(jobs_list)} notebook(s), {jobs} at a time")
        execute_notebooks([job for _, job in jobs_list], jobs, say, finished)
    finally:
        for rs in run_sets:  # interrupted or failed: nothing half-written stays
            if not rs.published and rs.staging is not None:
                remove_tree(rs.staging)
    return ReportResult(run_sets, landing, time.monotonic() - started)


def _make_output_folder(folder: Path, params: list[ReportParams]) -> None:
    """Create the output folder (and its parents), or refuse: nothing else is written yet."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        where = ", ".join(str(p.source) for p in params)
        raise InputRefused(
            "Output folder refused",
            [
                Problem(
                    where,
                    field="output",
                    value=str(folder),
                    detail=f"the folder cannot be created ({reason})",
                    allowed="a folder that exists or can be created (--output DIR, or the "
                    "parameter file's output)",
                )
            ],
        ) from exc


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
    outputs: list[SolverDocument]
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
    """Compute the index of a prepared run set and write its outputs into its staging folder.

    The index is computed from the filled table and the solver outputs as they are
    written (their paths and sha256 go into its provenance), so that ``tcsexam verify``
    recomputes it from the files. Every path an output records is relative to the
    output's own folder (the report may be published anywhere).
    """
    params = prepared.params
    staging = new_staging(params.output, params.name)
    try:
        return _write_staged(prepared, staging, say)
    except BaseException:
        remove_tree(staging)  # nothing half-written stays
        raise


def _write_staged(prepared: PreparedRunSet, staging: Path, say: Progress) -> RunSetResult:
    params = prepared.params
    final = params.output / params.name
    texts: dict[Path, str] = {}
    evidence: dict[tuple[str, str, str], SolverOutput] = {}
    solver_outputs: dict[str, list[SolverDocument]] = {model: [] for model in params.models}
    for item, found in zip(prepared.records, prepared.outputs, strict=True):
        relative = solver_output_path(Path(EVIDENCE) / item.model, item.task, item.attempt)
        output = SolverDocument(found)  # a copy: the relative provenance is its own
        output.set_provenance(relative_provenance(found.provenance, (staging / relative).parent))
        text = dumps_json(output.data)
        texts[staging / relative] = text
        evidence[(item.model, item.task, item.attempt)] = SolverOutput(
            relative, _sha256(text), output.data
        )
        solver_outputs[item.model].append(output)
    filled_name = f"{params.name}.attempts.csv"
    filled_text = prepared.filled.to_text()
    index_path = staging / f"{params.name}.index.json"
    score = index_document(  # the evidence and the filled copy, relative to the staging folder
        prepared.inputs,
        prepared.table,
        attempts=(Path(filled_name), _sha256(filled_text)),
        evidence=(Path(EVIDENCE), evidence),
        producer=PRODUCER,
        base_dir=staging,
    )
    score.set_provenance(relative_provenance(score.provenance, staging))
    for path, text in texts.items():
        write_text_atomic(path, text)
    for model, outputs in solver_outputs.items():
        say(f"[{params.name}] {model}: {len(outputs)} solver-score output(s)")
    write_text_atomic(staging / filled_name, filled_text)
    fill = prepared.fill
    fill.output = final / filled_name
    disagreeing = [  # hand-written scores the solver evidence check found other than computed
        issue
        for entry in score.results.values()
        for issue in entry.issues
        if issue.code == SCORE_MISMATCH
    ]
    say(
        f"[{params.name}] attempts: {len(fill.filled)} blank solver score(s) filled, "
        f"{len(disagreeing)} disagreeing -> {params.name}/{filled_name}"
    )
    for issue in disagreeing:
        say(f"[{params.name}] warning: {issue.message}")
    index_text = dumps_json(score.data)
    write_text_atomic(index_path, index_text)
    stats_path = staging / f"{params.name}.stats.json"
    index_sha256 = _sha256(index_text)
    stats = compute_stats(score.data, source=f"{final / index_path.name}", sha256=index_sha256)
    provenance = stats_provenance(  # verify recomputes it from the index beside it
        staging.resolve() / index_path.name,
        index_sha256,
        score.reference_id,
        resamples=stats.head.resamples,
        seed=stats.head.seed,
        level=stats.head.level,
        producer=PRODUCER,
    )
    stats.set_provenance(relative_provenance(provenance, staging))
    write_stats_json(stats_path, stats)
    for model, entry in score.results.items():
        index = "no index" if entry.index is None else f"index {entry.index:.2f}"
        say(f"[{params.name}] {model}: {entry.status}, {index}")
    simulated = params.simulated or prepared.inputs.reference.simulated
    return RunSetResult(
        params,
        final,
        final / index_path.name,
        final / filled_name,
        score,
        fill,
        solver_outputs,
        simulated,
        staging=staging,
        stats_output=final / stats_path.name,
        stats=stats,
    )


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
