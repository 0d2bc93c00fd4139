"""A written run set: its notebook jobs, its manifest, and its publication.

The runner (:mod:`.runner`) writes a run set's outputs into its staging folder; this
module turns it into notebook jobs (the cohort report, then each model's three, every
path relative to the folder the page is published in), writes ``run-set.json`` (what
the landing page shows) and switches the finished folder into place (see
:mod:`.publish`).
"""

from __future__ import annotations

import html
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..environment import describe_environment
from ..folders import switch_into_place
from ..jsonio import dumps_json, write_text_atomic
from ..paths import KIT_ROOT
from ..provenance import created_utc, kit_version
from ..scoring.fill import FillResult
from ..scoring.from_records import EVIDENCE
from ..scoring.index_document import IndexDocument, as_index_document, load_index
from ..stats.document import ComputedStats, StatsDocument, StatsModel, as_stats_document
from .execute import NotebookJob, NotebookOutcome, Progress
from .landing import write_landing_page
from .pages import footer_html, relative_link
from .params import ReportParams
from .publish import MANIFEST, MANIFEST_KIND, read_manifests
from .run_set_document import RunSetSummary

#: The run set's log of what its kernels and workers wrote to stderr.
KERNEL_LOG = "report-kernels.log"


@dataclass
class RunSetResult:
    """One run set: its outputs, its index result, and its notebooks.

    ``folder`` is where the run set is published (``<output>/<suite>-<protocol>``);
    ``staging`` where it was written before that. Paths of outputs and notebooks
    point into ``folder`` once :attr:`published` is true.
    """

    params: ReportParams
    folder: Path
    index_output: Path
    attempts_filled: Path
    score: IndexDocument
    fill: FillResult
    solver_outputs: dict[str, list[dict[str, Any]]]
    simulated: bool
    notebooks: list[NotebookOutcome] = field(default_factory=list)
    staging: Path | None = None
    stats_output: Path | None = None
    stats: ComputedStats | None = None
    published: bool = False


#: Folder of a run set that holds one folder of pages per model.
MODELS = "models"
#: The run set's report across its models.
COHORT_NOTEBOOK = "cohort"


def summary(
    score: IndexDocument | dict[str, Any],
    stats: ComputedStats | StatsDocument | dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What the landing page and other cohort reports show: status, index, P/S/C/O.

    With the run set's ``tcsexam stats`` document, each model also gets its ``rank``
    (1 = best; null without an index), its index interval (``index_ci``, points) and its
    half-width (``index_ci_half_width``; both null without an index) and ``could_be_first`` (no
    model significantly ahead of it; false without an index), and the summary the
    ``leader_group`` and ``level``.

    Examples
    --------
    >>> score = {"suite": "lite", "solver_protocol": "online", "models": {"m": {
    ...     "status": "complete", "index": 55.5, "track_means": {"P": 0.4}, "issues": []}}}
    >>> summary(score)["models"]["m"]
    {'status': 'complete', 'index': 55.5, 'track_means': {'P': 0.4}}
    >>> stats = {"level": 0.95, "leader_group": ["m"],
    ...          "models": {"m": {"index_ci": [49.0, 62.0], "index_ci_half_width": 6.5,
    ...                           "rank": 1}}}
    >>> summary(score, stats)["models"]["m"]["index_ci_half_width"], summary(score, stats)["level"]
    (6.5, 0.95)
    """
    score = as_index_document(score)
    stats = None if stats is None else as_stats_document(stats)
    intervals = {} if stats is None else stats.results
    models = {
        model: {
            "status": entry.status,
            "index": entry.index,
            "track_means": entry.track_means,
            **({} if stats is None else _interval_summary(model, intervals[model], stats)),
        }
        for model, entry in score.results.items()
    }
    out = {"suite": score.suite, "solver_protocol": score.solver_protocol, "models": models}
    if stats is None:
        return out
    return {**out, "level": stats.level, "leader_group": list(stats.leader_group)}


def _interval_summary(model: str, entry: StatsModel, stats: StatsDocument) -> dict[str, Any]:
    """What the summary keeps of a model's intervals: its rank, ± and could be first."""
    return {
        "rank": entry.rank,
        "index_ci_half_width": entry.index_ci_half_width,
        "index_ci": entry.index_ci,
        "could_be_first": model in stats.leader_group,
    }


def _task_means(score: IndexDocument) -> dict[str, dict[str, dict[str, float | None]]]:
    """Each model's task means by track (what a paired comparison of run sets needs)."""
    return {model: entry.task_means() for model, entry in score.results.items()}


def comparisons(run_sets: list[RunSetResult]) -> dict[str, dict[str, Any]]:
    """Every run set a cohort report can compare with: this run's, then those on disk.

    Each is its :func:`summary` with its models' ``task_means`` (by track), so that the
    cohort report pairs the two run sets task by task; a run set published before is read
    from its folder (its ``run-set.json`` and index JSON).
    """
    found: dict[str, dict[str, Any]] = {}
    for rs in run_sets:
        found[rs.params.name] = {**summary(rs.score, rs.stats), "task_means": _task_means(rs.score)}
    for folder in sorted({rs.params.output for rs in run_sets}):
        for manifest in read_manifests(folder):
            if manifest.name in found or not manifest.summary:
                continue
            index = Path(folder) / manifest.folder / manifest.index_json
            task_means = {"task_means": _task_means(load_index(index))} if index.is_file() else {}
            found[manifest.name] = {**manifest.summary, **task_means}
    return found


def _comparable(mine: RunSetSummary, other: RunSetSummary) -> bool:
    """Same suite under the other protocol, or the same protocol on another suite."""
    same_suite = other.suite == mine.suite
    same_protocol = other.solver_protocol == mine.solver_protocol
    return same_suite != same_protocol and bool(set(other.results) & set(mine.results))


def _relative(path: Path | None, start: Path) -> str | None:
    return None if path is None else Path(os.path.relpath(path, start)).as_posix()


def notebook_jobs(
    rs: RunSetResult, source_dir: Path, compare: dict[str, dict[str, Any]]
) -> list[NotebookJob]:
    """The cohort notebook, then each model's, given the run set's written outputs.

    Paths given to a notebook are relative to the folder it is published in (its
    kernel runs there), so the executed notebook names no folder of this machine.
    """
    p = rs.params
    staging = rs.staging or rs.folder
    log = staging / KERNEL_LOG
    if not log.exists():
        write_text_atomic(log, "")
    landing = p.output / "index.html"

    def references_dir(folder: Path) -> str:
        return "" if p.references_dir is None else _relative(p.references_dir, folder) or ""

    footer = footer_html(
        suite=p.suite,
        protocol=p.protocol,
        reference_id=rs.score.reference_id,
        metric_id=rs.score.metric_id,
    )

    def job(name: str, label: str, folder: Path, final: Path, nav: str, **parameters: Any):
        return NotebookJob(
            label=label,
            name=name,
            source=source_dir / f"{name}.ipynb",
            folder=folder,
            parameters={"suite": p.suite, "protocol": p.protocol, **parameters},
            final_folder=final,
            output=p.output,
            nav=nav,
            footer=footer,
            log=log,
            source_name=f"notebooks/{name}.ipynb",
        )

    def home(final: Path) -> str:
        return f"<a href='{relative_link(landing, final)}'>All reports</a>"

    jobs = []
    run_set = html.escape(f"{p.suite} · {p.protocol}")
    if COHORT_NOTEBOOK in p.notebooks:
        mine = RunSetSummary(summary(rs.score))
        others = {
            name: data
            for name, data in compare.items()
            if name != p.name and _comparable(mine, RunSetSummary(data))
        }
        nav = f"{home(rs.folder)}<span class='tcs-here'>Leaderboard of {run_set}</span>"
        jobs.append(
            job(
                COHORT_NOTEBOOK,
                f"{p.name}/{COHORT_NOTEBOOK}",
                staging,
                rs.folder,
                nav,
                index_json=rs.index_output.name,
                stats_json=_relative(rs.stats_output, rs.folder) or "",
                references_dir=references_dir(rs.folder),
                compare=others,
            )
        )
    pages = [n for n in MODEL_NOTEBOOKS if n in p.notebooks]
    for model in p.models:
        final = rs.folder / MODELS / model
        index_json = _relative(rs.index_output, final)
        solver_dir = _relative(rs.folder / EVIDENCE / model, final)
        per_notebook = {
            "solver_scoring": {
                "reference_id": rs.score.reference_id,
                "records_dir": _relative(p.records, final),
                "solver_outputs": solver_dir,
                "index_json": index_json,
            },
            "index": {
                "index_json": index_json,
                "stats_json": _relative(rs.stats_output, final) or "",
            },
            "diagnostics": {"index_json": index_json, "solver_outputs": solver_dir},
        }
        for name in pages:
            jobs.append(
                job(
                    name,
                    f"{p.name}/{model}/{name}",
                    staging / MODELS / model,
                    final,
                    _model_nav(home(final), rs, model, name, pages),
                    model=model,
                    references_dir=references_dir(final),
                    **per_notebook.get(name, {}),
                )
            )
    return jobs


#: A model's pages, in the order the navigation lists them, with their short names.
MODEL_NOTEBOOKS = {"index": "index", "solver_scoring": "solver scoring",
                   "diagnostics": "diagnostics"}  # fmt: skip


def _model_nav(home: str, rs: RunSetResult, model: str, current: str, pages: list[str]) -> str:
    """A model page's links: all reports, the cohort report, and the model's pages."""
    p = rs.params
    links = [home]
    if COHORT_NOTEBOOK in p.notebooks:
        cohort = relative_link(rs.folder / "cohort.html", rs.folder / MODELS / model)
        links.append(f"<a href='{cohort}'>Leaderboard of {html.escape(p.suite)} · "
                     f"{html.escape(p.protocol)}</a>")  # fmt: skip
    siblings = [
        f"<span class='tcs-here' aria-current='page'>{MODEL_NOTEBOOKS[name]}</span>"
        if name == current
        else f"<a href='{html.escape(name)}.html'>{MODEL_NOTEBOOKS[name]}</a>"
        for name in pages
    ]
    links.append(f"<span class='tcs-group'><b>{html.escape(model)}:</b> {''.join(siblings)}</span>")
    return "".join(links)


def manifest(rs: RunSetResult, planned: list[NotebookJob] | None = None) -> dict[str, Any]:
    """``run-set.json``: what the landing page shows of a run set (paths relative to it).

    With ``planned`` (the run set's notebook jobs, before they run) the notebooks are
    those the run will render, without outcome (``ok`` null): the runner writes this
    first, so that the cohort report links only the model pages that will exist.
    """
    p = rs.params
    staging = rs.staging or rs.folder

    def files(nb: NotebookOutcome) -> dict[str, Any]:
        return {
            "name": nb.name,
            "ok": nb.ok,
            "error": nb.error,
            "executed": _relative(nb.executed, staging),
            "html": _relative(nb.html, staging),
        }

    def plan(job: NotebookJob) -> dict[str, Any]:
        return {
            "name": job.name,
            "ok": None,
            "error": None,
            "executed": _relative(job.folder / f"{job.name}.ipynb", staging),
            "html": _relative(job.folder / f"{job.name}.html", staging),
        }

    by_model: dict[str, list[dict[str, Any]]] = {model: [] for model in p.models}
    cohort = None
    entries = (
        [(job.label, plan(job)) for job in planned]
        if planned is not None
        else [(nb.label, files(nb)) for nb in rs.notebooks]
    )
    for label, entry in entries:
        parts = label.split("/")
        if len(parts) == 2:
            cohort = entry
        else:
            by_model.setdefault(parts[1], []).append(entry)
    return {
        "kind": MANIFEST_KIND,
        "kit_version": kit_version(),
        "name": p.name,
        "suite": p.suite,
        "protocol": p.protocol,
        "description": p.description,
        "simulated": rs.simulated,
        "reference_id": rs.score.reference_id,
        "metric_id": rs.score.metric_id,
        "status": rs.score.status,
        "index_json": rs.index_output.name,
        "stats_json": None if rs.stats_output is None else rs.stats_output.name,
        "attempts": rs.attempts_filled.name,
        "kernel_log": KERNEL_LOG,
        "cohort": cohort,
        "summary": summary(rs.score, rs.stats),
        "notebooks": by_model,
        "environment": describe_environment("report"),
        "created_utc": created_utc(),
    }


def write_planned_manifest(rs: RunSetResult, jobs: list[NotebookJob]) -> Path:
    """Write the run set's ``run-set.json`` listing the pages this run will render."""
    staging = rs.staging or rs.folder
    return write_text_atomic(staging / MANIFEST, dumps_json(manifest(rs, planned=jobs)))


def publish(rs: RunSetResult, say: Progress) -> Path:
    """Switch a finished run set into place and rewrite the landing page from disk."""
    staging = rs.staging or rs.folder
    _tidy_kernel_log(staging / KERNEL_LOG, {staging: "<run set>", rs.params.output: "<output>"})
    write_text_atomic(staging / MANIFEST, dumps_json(manifest(rs)))
    switch_into_place(staging, rs.folder)
    rs.published = True
    for nb in rs.notebooks:
        for attr in ("executed", "html"):
            path = getattr(nb, attr)
            if path is not None:
                setattr(nb, attr, rs.folder / path.relative_to(staging))
    page = write_landing_page(rs.params.output)
    say(f"[{rs.params.name}] published {rs.folder}; landing page {page}")
    return page


def _tidy_kernel_log(log: Path, folders: dict[Path, str]) -> None:
    """Write this machine's folders in the kernel log as placeholders before publishing.

    Kernels and libraries write warnings and tracebacks with absolute paths; a published
    report names no folder of the machine that built it, so ``<run set>``, ``<output>``,
    ``<kit>``, ``<python>`` and ``~`` stand for them (the longest path first).
    """
    if not log.is_file():
        return
    text = log.read_text(encoding="utf-8", errors="replace")
    names = {
        **{str(folder.resolve()): name for folder, name in folders.items()},
        **{str(folder): name for folder, name in folders.items()},
        str(KIT_ROOT): "<kit>",
        sys.prefix: "<python>",
        sys.base_prefix: "<python>",
        os.path.expanduser("~"): "~",
    }
    tidy = text
    for path in sorted((p for p in names if len(p) > 1), key=len, reverse=True):
        tidy = tidy.replace(path, names[path])
    if tidy != text:
        write_text_atomic(log, tidy)
