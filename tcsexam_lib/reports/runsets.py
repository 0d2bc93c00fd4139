"""A written run set: its notebook jobs, its ``run-set.json``, and its publication."""

from __future__ import annotations

import html
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..environment import describe_environment
from ..folders import switch_into_place
from ..jsonio import dumps_json
from ..outputfiles import write_text_atomic
from ..paths import KIT_ROOT
from ..provenance import created_utc, kit_version
from ..scoring.commands import EVIDENCE
from ..scoring.fill import FillResult
from ..scoring.index_document import IndexDocument, as_index_document, load_index
from ..stats.document import ComputedStats, StatsDocument, StatsModel, as_stats_document
from ..stats.wording import NO_PAIR_CAN_DIFFER
from .comparisons import compared_by
from .execute import NotebookJob, NotebookOutcome, Progress
from .history import append_publication
from .landing import write_landing_page
from .notebooks import COHORT_NOTEBOOK, MODEL_NOTEBOOKS, ReportNotebook, cell_parameters, notebook
from .outputs import MODEL_INDEX, MODEL_STATS, MODELS
from .pages import footer_html, relative_link
from .params import ReportParams
from .publish import MANIFEST, MANIFEST_KIND, read_manifests
from .run_set_document import RunSetSummary

#: The run set's log of what its kernels and workers wrote to stderr.
KERNEL_LOG = "report-kernels.log"


@dataclass
class RunSetResult:
    """One run set: outputs, index result, notebooks; published in ``folder`` (written in
    ``staging`` before; paths point into ``folder`` once :attr:`published`)."""

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
    #: its outputs' bytes by path relative to its folder (and its planned run-set.json)
    files: dict[str, bytes] = field(default_factory=dict)
    #: the outputs whose published bytes are kept (their content did not change)
    kept: set[str] = field(default_factory=set)
    #: the run sets its cohort report compares with, its publication's history record,
    #: and what changed since its previous one (see :mod:`.history`)
    compared: dict[str, Any] = field(default_factory=dict)
    #: this run set beside each of them (see :mod:`.comparisons`), written in run-set.json
    comparisons: list[dict[str, Any]] = field(default_factory=list)
    record: dict[str, Any] | None = None
    changes: dict[str, Any] = field(default_factory=dict)


def summary(
    score: IndexDocument | dict[str, Any],
    stats: ComputedStats | StatsDocument | dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What the landing page and other cohort reports show: status, index, track means.

    With ``stats`` each model also gets ``rank``, ``index_ci`` and ``index_ci_half_width``
    (points; null without an index) and ``could_be_first`` (false without an index); the
    summary gets ``leader_group``, ``level``, ``pairs_untested`` and the notes on the lead.

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
    return {
        **out,
        "level": stats.level,
        "leader_group": list(stats.leader_group),
        "pairs_untested": stats.pairs_untested,
        "notes": [note for note in stats.notes if note.startswith(NO_PAIR_CAN_DIFFER)],
    }


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


def comparisons(
    run_sets: list[RunSetResult], folders: list[Path] | None = None
) -> dict[str, dict[str, Any]]:
    """Every run set a cohort report can compare with: this run's, then those on disk.

    Each a :func:`summary` with its models' ``task_means``; those on disk read from ``folders``.
    """
    found: dict[str, dict[str, Any]] = {}
    for rs in run_sets:
        found[rs.params.name] = {**summary(rs.score, rs.stats), "task_means": _task_means(rs.score)}
    for folder in sorted(set(folders or ()) | {rs.params.output for rs in run_sets}):
        for manifest in read_manifests(folder):
            if manifest.name in found or not manifest.summary:
                continue
            index = Path(folder) / manifest.folder / manifest.index_json
            task_means = {"task_means": _task_means(load_index(index))} if index.is_file() else {}
            found[manifest.name] = {**manifest.summary, **task_means}
    return found


def compared_with(
    name: str, mine: dict[str, Any] | None, compare: dict[str, dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """The run sets of ``compare`` sharing a model with ``mine``, on its suite under the other
    protocol or on another suite under its protocol.

    >>> def run_set(suite, protocol):
    ...     return {"suite": suite, "solver_protocol": protocol, "models": {"m": {}}}
    >>> compare = {"l-on": run_set("l", "online"), "f-off": run_set("f", "offline"),
    ...            "f-on": run_set("f", "online")}
    >>> sorted(compared_with("l-off", run_set("l", "offline"), compare))
    ['f-off', 'l-on']
    """
    if not mine:
        return {}
    me = RunSetSummary(mine)
    return {
        other: data
        for other, data in compare.items()
        if other != name and compared_by(me, RunSetSummary(data)) is not None
    }


def _relative(path: Path | None, start: Path) -> str | None:
    return None if path is None else Path(os.path.relpath(path, start)).as_posix()


def notebook_jobs(rs: RunSetResult, source_dir: Path) -> list[NotebookJob]:
    """The cohort notebook, then each model's, given the run set's written outputs.

    Each gets what its declaration says the runner gives, limited to what its cell
    declares; paths are relative to the page's folder, so no folder of this machine shows.
    """
    p = rs.params
    staging = rs.staging or rs.folder
    log = staging / KERNEL_LOG
    landing = p.output / "index.html"
    footer = footer_html(
        suite=p.suite,
        protocol=p.protocol,
        reference_id=rs.score.reference_id,
        metric_id=rs.score.metric_id,
        dated=False,
    )
    declared_in = _cell_names(source_dir)

    def job(declared: ReportNotebook, model: str | None, folder: Path, final: Path, nav: str):
        gives = _runner_gives(rs, model, final)
        names = declared_in(declared)
        parameters = {name: gives[what] for name, what in declared.runner.items()
                      if name in names}  # fmt: skip
        where = p.name if model is None else f"{p.name}/{model}"
        return NotebookJob(
            label=f"{where}/{declared.name}",
            name=declared.name,
            source=source_dir / f"{declared.name}.ipynb",
            folder=folder,
            parameters=parameters,
            final_folder=final,
            output=p.output,
            nav=nav,
            footer=footer,
            log=log,
            source_name=f"notebooks/{declared.name}.ipynb",
            model=model,
        )

    def home(final: Path) -> str:
        return f"<a href='{relative_link(landing, final)}'>All reports</a>"

    jobs = []
    run_set = html.escape(f"{p.suite} · {p.protocol}")
    if COHORT_NOTEBOOK in p.notebooks:
        nav = f"{home(rs.folder)}<span class='tcs-here'>Leaderboard of {run_set}</span>"
        jobs.append(job(notebook(COHORT_NOTEBOOK), None, staging, rs.folder, nav))
    pages = [nb for nb in MODEL_NOTEBOOKS if nb.name in p.notebooks]
    for model in p.models:
        final = rs.folder / MODELS / model
        for declared in pages:
            nav = _model_nav(home(final), rs, model, declared.name, pages)
            jobs.append(job(declared, model, staging / MODELS / model, final, nav))
    return jobs


def _cell_names(source_dir: Path) -> Callable[[ReportNotebook], set[str]]:
    """The names a notebook's ``parameters`` cell declares (the kit's from its declaration)."""
    read: dict[Path, set[str]] = {}

    def names(declared: ReportNotebook) -> set[str]:
        source = source_dir / f"{declared.name}.ipynb"
        if source.resolve() == declared.source.resolve():
            return set(declared.parameters)
        if source not in read:
            read[source] = {parameter.name for parameter in cell_parameters(source)}
        return read[source]

    return names


def _runner_gives(rs: RunSetResult, model: str | None, final: Path) -> dict[str, Any]:
    """What the runner gives a notebook published in ``final`` (see ``RUNNER_GIVES``)."""
    p = rs.params
    index_json = _relative(rs.index_output, final)
    stats_json = _relative(rs.stats_output, final) or ""
    gives: dict[str, Any] = {
        "suite": p.suite,
        "protocol": p.protocol,
        "references_dir": "" if p.references_dir is None else _relative(p.references_dir, final),
        "reference_id": rs.score.reference_id,
        "index_json": index_json,
        "stats_json": stats_json,
    }
    if model is None:
        return {**gives, "changes": rs.changes}
    return {
        **gives,
        "model": model,
        "model_index_json": MODEL_INDEX,
        "model_stats_json": MODEL_STATS,
        "model_evidence": _relative(rs.folder / EVIDENCE / model, final),
    }


def _model_nav(
    home: str, rs: RunSetResult, model: str, current: str, pages: list[ReportNotebook]
) -> str:
    """A model page's links: all reports, the cohort report, and the model's pages."""
    p = rs.params
    links = [home]
    if COHORT_NOTEBOOK in p.notebooks:
        cohort = relative_link(rs.folder / f"{COHORT_NOTEBOOK}.html", rs.folder / MODELS / model)
        links.append(f"<a href='{cohort}'>Leaderboard of {html.escape(p.suite)} · "
                     f"{html.escape(p.protocol)}</a>")  # fmt: skip
    siblings = [
        f"<span class='tcs-here' aria-current='page'>{nb.title}</span>"
        if nb.name == current
        else f"<a href='{html.escape(nb.name)}.html'>{nb.title}</a>"
        for nb in pages
    ]
    links.append(f"<span class='tcs-group'><b>{html.escape(model)}:</b> {''.join(siblings)}</span>")
    return "".join(links)


def manifest(rs: RunSetResult, planned: list[NotebookJob] | None = None) -> dict[str, Any]:
    """``run-set.json``: what the landing page shows of a run set (paths relative to it).

    With ``planned`` jobs (``ok`` null), written first, so that the cohort report links
    only the model pages that will exist.
    """
    p = rs.params
    cohort, by_model = _page_entries(rs, planned)
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
        "comparisons": rs.comparisons,
        "environment": describe_environment("report"),
        "created_utc": created_utc(),
    }


def _page_entries(
    rs: RunSetResult, planned: list[NotebookJob] | None
) -> tuple[dict[str, Any] | None, dict[str, list[dict[str, Any]]]]:
    """The run set's pages as ``run-set.json`` lists them: the cohort's (``None`` without
    one) and each model's; those ``planned`` (no outcome yet), else those that ran."""
    staging = rs.staging or rs.folder
    if planned is not None:
        pages = [(job.label, job.name, None, None, job.executed, job.page) for job in planned]
    else:
        pages = [(nb.label, nb.name, nb.ok, nb.error, nb.executed, nb.html)
                 for nb in rs.notebooks]  # fmt: skip
    by_model: dict[str, list[dict[str, Any]]] = {model: [] for model in rs.params.models}
    cohort = None
    for label, name, ok, error, executed, page in pages:
        entry = {
            "name": name,
            "ok": ok,
            "error": error,
            "executed": _relative(executed, staging),
            "html": _relative(page, staging),
        }
        parts = label.split("/")
        if len(parts) == 2:
            cohort = entry
        else:
            by_model.setdefault(parts[1], []).append(entry)
    return cohort, by_model


def publish(rs: RunSetResult, say: Progress) -> Path:
    """Switch a finished run set into place and rewrite the landing page from disk."""
    staging = rs.staging or rs.folder
    _tidy_kernel_log(staging / KERNEL_LOG, {staging: "<run set>", rs.params.output: "<output>"})
    write_text_atomic(staging / MANIFEST, dumps_json(manifest(rs)))
    switch_into_place(staging, rs.folder)
    rs.published = True
    if rs.record is not None:  # after the switch: the history says what was published
        append_publication(rs.params.output, rs.record)
    for nb in rs.notebooks:
        for attr in ("executed", "html"):
            path = getattr(nb, attr)
            if path is not None:
                setattr(nb, attr, rs.folder / path.relative_to(staging))
    page = write_landing_page(rs.params.output)
    say(f"[{rs.params.name}] published {rs.folder}; landing page {page}")
    return page


def _tidy_kernel_log(log: Path, folders: dict[Path, str]) -> None:
    """Write this machine's folders in the kernel log as placeholders before publishing."""
    if not log.is_file():
        return
    text = log.read_text(encoding="utf-8", errors="replace")
    tidy = tidy_paths(text, folders)
    if tidy != text:
        write_text_atomic(log, tidy)


def tidy_paths(text: str, folders: dict[Path, str]) -> str:
    """``text`` with this machine's folders as placeholders (``<run set>``, ``<kit>``, ``~``...),
    the longest path first: a published report names no folder of its machine.

    >>> tidy_paths("/o/x/rs/m.ipynb failed", {Path("/o/x/rs"): "<run set>"})
    '<run set>/m.ipynb failed'
    """
    names = {
        **{str(folder.resolve()): name for folder, name in folders.items()},
        **{str(folder): name for folder, name in folders.items()},
        str(KIT_ROOT): "<kit>",
        sys.prefix: "<python>",
        sys.base_prefix: "<python>",
        os.path.expanduser("~"): "~",
    }
    for path in sorted((p for p in names if len(p) > 1), key=len, reverse=True):
        text = text.replace(path, names[path])
    return text
