"""``tcsexam report``: score run sets in one pass and render their notebooks into HTML reports.

For each run-set parameter file (see :mod:`.params`) the runner, in one pass over its
inputs (the suite, cohort and reference loaded once, every records file read once, the
attempts table read once):

1. scores every solver records file against the loaded reference (the output of
   ``tcsexam solver-score --model M --attempt A``);
2. fills the blank solver scores of a copy of the attempts table from those outputs
   (:func:`~tcsexam_lib.scoring.fill.fill_table`), validates the copy and computes the
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

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..csvio import CsvTable
from ..errors import InputRefused, Problem
from ..folders import remove_tree
from ..jsonio import dumps_json, write_text_atomic
from ..paths import KIT_ROOT
from ..provenance import relative_provenance
from ..scoring.attempts import AttemptRows
from ..scoring.cohort import load_cohort_reference
from ..scoring.commands import ScoringInputs, index_document
from ..scoring.evidence import SCORE_MISMATCH
from ..scoring.fill import FillResult
from ..scoring.from_records import (
    EVIDENCE,
    RecordsFill,
    evidence_files,
    fill_from_records,
    sha256_text,
)
from ..scoring.issues import describe_model
from ..scoring.records_folder import RecordsFile
from ..scoring.solver_document import SolverDocument
from ..stats.command import compute_stats, stats_provenance
from ..stats.document import write_stats_json
from .execute import NotebookOutcome, Progress, execute_notebooks
from .pages import write_assets
from .params import ReportParams, load_report_params
from .publish import new_staging, refuse_foreign_folders, remove_stale_staging
from .runsets import (
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
    filled = fill_from_records(
        inputs,
        params.attempts,
        params.records,
        producer=PRODUCER,
        source=str(params.source),
        summary=f"Run set {params.source}",
    )
    return PreparedRunSet(
        params, inputs, filled.records, filled.outputs, filled.filled, filled.fill, filled.table
    )


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
    filled = RecordsFill(
        prepared.records, prepared.outputs, prepared.filled, prepared.fill, prepared.table
    )
    files = evidence_files(filled, Path(EVIDENCE), published_in=staging)
    solver_outputs: dict[str, list[SolverDocument]] = {model: [] for model in params.models}
    for (model, _, _), found in files.outputs.items():
        solver_outputs[model].append(found.document)
    filled_name = f"{params.name}.attempts.csv"
    filled_text = prepared.filled.to_text()
    index_path = staging / f"{params.name}.index.json"
    score = index_document(  # the evidence and the filled copy, relative to the staging folder
        prepared.inputs,
        prepared.table,
        attempts=(Path(filled_name), sha256_text(filled_text)),
        evidence=(Path(EVIDENCE), files.outputs),
        producer=PRODUCER,
        base_dir=staging,
    )
    score.set_provenance(relative_provenance(score.provenance, staging))
    for path, text in files.texts.items():
        write_text_atomic(staging / path, text)
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
        f"{len(disagreeing)} written score(s) contradicted by their records"
        + (" (each blocks its model's index)" if disagreeing else "")
        + f" -> {params.name}/{filled_name}"
    )
    index_text = dumps_json(score.data)
    write_text_atomic(index_path, index_text)
    stats_path = staging / f"{params.name}.stats.json"
    index_sha256 = sha256_text(index_text)
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
        for line in describe_model(model, entry):
            say(f"[{params.name}] {line}")
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
