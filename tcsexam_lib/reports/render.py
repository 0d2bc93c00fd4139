"""Rendering run sets: outputs staged, each page reused from the store or run, published.

The steps are docs/reports.md's list (3 to 5). Interrupted or failing, the unfinished
staging folders are removed: what was published and the store stay consistent.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..digests import folder_digests
from ..environment import environment_fingerprint, kit_fingerprint
from ..folders import remove_tree
from ..jsonio import dumps_json
from ..outputfiles import write_bytes_atomic
from ..scoring.issues import describe_model
from ..stats.document import as_stats_document
from .comparisons import compare_run_set
from .execute import NotebookJob, NotebookOutcome, Progress, execute_notebooks
from .history import (
    Changes,
    compare_publications,
    last_publications,
    publication_inputs,
    publication_record,
    read_history,
)
from .kernels import append_to_log, expected_kernel_log_header
from .notebooks import COHORT_NOTEBOOK
from .outputs import build_outputs
from .params import ReportParams
from .prepare import PreparedRunSet
from .publish import MANIFEST, is_run_set_folder, new_staging, staging_folder
from .reuse import Decision, InputDigests, decide, describe_reuse
from .runsets import (
    KERNEL_LOG,
    RunSetResult,
    compared_with,
    comparisons,
    manifest,
    notebook_jobs,
    publish,
    tidy_paths,
)
from .store import Store, StoredNotebook


def run_set_in_memory(prepared: PreparedRunSet, say: Progress, force: bool = False) -> RunSetResult:
    """A prepared run set's outputs made in memory (nothing written), as a run set; every
    path an output records is relative to the run set's folder."""
    params = prepared.params
    final = params.output / params.name
    previous = final if is_run_set_folder(final) else None
    last = last_publications(read_history(params.output), params.name)
    tools = (kit_fingerprint(), environment_fingerprint())
    same_tools = not force and bool(last) and last[-1].made_with() == tools
    built = build_outputs(prepared, final, previous, same_tools)
    for model, outputs in built.solver_outputs.items():
        say(f"[{params.name}] {model}: {len(outputs)} solver-score output(s)")
    fill = prepared.fill
    fill.output = final / built.attempts_name
    disagreeing = built.disagreeing
    say(
        f"[{params.name}] attempts: {len(fill.filled)} blank solver score(s) filled, "
        f"{len(disagreeing)} written score(s) contradicted by their records"
        + (" (each blocks its model's index)" if disagreeing else "")
        + f" -> {params.name}/{built.attempts_name}"
    )
    score = built.score
    for model, entry in score.results.items():
        for line in describe_model(model, entry):
            say(f"[{params.name}] {line}")
    simulated = params.simulated or prepared.inputs.reference.simulated
    return RunSetResult(
        params,
        final,
        final / built.index_name,
        final / built.attempts_name,
        score,
        fill,
        built.solver_outputs,
        simulated,
        stats_output=final / built.stats_name,
        stats=built.stats,
        files=built.files,
        kept=built.kept,
    )


def write_staging(rs: RunSetResult) -> None:
    """Write a run set's outputs into a new staging folder (unchanged ones linked, not written)."""
    staging = new_staging(rs.params.output, rs.params.name)
    rs.staging = staging
    try:
        for relative, data in rs.files.items():
            previous = rs.folder / relative
            if relative not in rs.kept or not _linked(previous, staging / relative):
                write_bytes_atomic(staging / relative, data)
    except BaseException:
        remove_tree(staging)  # nothing half-written stays
        rs.staging = None
        raise


def _linked(source: Path, destination: Path) -> bool:
    """Hard-link a published file into the staging folder (False: write it instead)."""
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
        os.link(source, destination)
    except OSError:
        return False
    return True


def plan_jobs(
    run_sets: list[RunSetResult], source_dir: Path
) -> list[tuple[RunSetResult, NotebookJob]]:
    """Every run set's notebook jobs, once its comparisons, its publication record and what
    changed are known; its planned ``run-set.json`` among its files."""
    compare = comparisons(run_sets)
    histories = {folder: read_history(folder) for folder in {rs.params.output for rs in run_sets}}
    for rs in run_sets:
        p = rs.params
        if COHORT_NOTEBOOK in p.notebooks:
            rs.compared = compared_with(p.name, compare.get(p.name), compare)
            if rs.stats is not None:  # at the level of the run set's intervals
                level = as_stats_document(rs.stats).level
                rs.comparisons = compare_run_set(rs.score, rs.compared, level)
        sources = {name: source_dir / f"{name}.ipynb" for name in p.notebooks}
        rs.record = publication_record(rs, publication_inputs(p, sources, rs.compared))
        previous = last_publications(histories[p.output], p.name)
        rs.changes = compare_publications(previous[-1] if previous else None, rs.record).to_dict()
    planned = [(rs, job) for rs in run_sets for job in notebook_jobs(rs, source_dir)]
    for rs in run_sets:
        # the run set's run-set.json listing the pages this run will render
        text = dumps_json(manifest(rs, planned=[job for r, job in planned if r is rs]))
        rs.files[MANIFEST] = text.encode("utf-8")
    return planned


def decide_jobs(
    run_sets: list[RunSetResult],
    planned: list[tuple[RunSetResult, NotebookJob]],
    stores: dict[Path, Store],
    *,
    force: bool,
) -> dict[str, Decision]:
    """Each job's decision (reuse or run, and why), by label."""
    decisions: dict[str, Decision] = {}
    for rs in run_sets:
        store = stores[rs.params.output]
        published = store.published(rs.params.name).get("jobs", {})
        digests = InputDigests(rs.folder, rs.files)
        mine = [job for r, job in planned if r is rs]
        for decision in decide(mine, digests, store, published, force=force):
            decisions[decision.job.label] = decision
    return decisions


@dataclass
class Plan:
    """Run sets scored and planned in memory (nothing written): their outputs, their
    notebook jobs (which write into staging folders not made yet) and each job's decision."""

    run_sets: list[RunSetResult]
    planned: list[tuple[RunSetResult, NotebookJob]]
    decisions: dict[str, Decision]


def plan_publication(
    prepared: list[PreparedRunSet],
    *,
    source_dir: Path,
    stores: dict[Path, Store],
    force: bool,
    say: Progress,
) -> Plan:
    """Every run set's outputs, jobs and decisions, in memory: what a run will do."""
    run_sets = [run_set_in_memory(item, say, force) for item in prepared]
    for rs in run_sets:  # where it will be staged (its jobs write there)
        rs.staging = staging_folder(rs.params.output, rs.params.name)
    planned = plan_jobs(run_sets, source_dir)
    return Plan(run_sets, planned, decide_jobs(run_sets, planned, stores, force=force))


def render_run_sets(
    plan: Plan, *, jobs: int, stores: dict[Path, Store], say: Progress
) -> tuple[list[RunSetResult], list[Path]]:
    """Stage, reuse or run, store and publish every run set of ``plan`` (see the docstring)."""
    order = {job.label: k for k, (_, job) in enumerate(plan.planned)}
    outgoing = [
        _PendingRunSet(rs, stores[rs.params.output], [job for r, job in plan.planned if r is rs])
        for rs in plan.run_sets
    ]
    landing: list[Path] = []
    try:
        for out in outgoing:
            out.stage()
        to_run = _reuse_or_queue(outgoing, plan.decisions)
        say(describe_reuse(list(plan.decisions.values())))
        for out in outgoing:
            if not out.waiting:
                out.publish(order, landing, say)

        def finished(position: int, outcome: NotebookOutcome) -> None:
            out, job = to_run[position]
            assert outcome.label == job.label
            out.waiting -= 1
            out.add(outcome, _stored_key(out, plan.decisions[job.label], outcome, say))
            if not out.waiting:
                out.publish(order, landing, say)

        if to_run:
            say(f"executing {len(to_run)} notebook(s), {jobs} at a time")
            execute_notebooks([job for _, job in to_run], jobs, say, finished, headers=False)
    finally:
        for out in outgoing:  # interrupted or failed: nothing half-written stays
            out.discard_unpublished()
    return plan.run_sets, landing


def _reuse_or_queue(
    outgoing: list[_PendingRunSet], decisions: dict[str, Decision]
) -> list[tuple[_PendingRunSet, NotebookJob]]:
    """Link each reused page into its staging folder; return the jobs to run, in order."""
    to_run: list[tuple[_PendingRunSet, NotebookJob]] = []
    for out in outgoing:
        for job in out.jobs:
            decision = decisions[job.label]
            if decision.entry is not None:
                out.add(_reuse(out.store, decision.entry, job), decision.inputs.key)
            else:
                to_run.append((out, replace(job, why=decision.why)))
                out.waiting += 1
    return to_run


def _stored_key(
    out: _PendingRunSet, decision: Decision, outcome: NotebookOutcome, say: Progress
) -> str | None:
    """Store a page that ran for reuse; its store key (``None``: it failed, or the store
    could not take it, which is said: the page is published all the same)."""
    if not outcome.ok or outcome.html is None:
        return None
    try:
        return _store_page(out.store, decision, outcome, _tidy(out.rs))
    except OSError as exc:
        say(f"[{outcome.label}] not stored for reuse: {exc.strerror or exc}")
        return None


@dataclass
class _PendingRunSet:
    """A run set on its way out: its jobs, the store key of each page it has, and how many
    pages it still waits for (it is published when the last one arrives)."""

    rs: RunSetResult
    store: Store
    jobs: list[NotebookJob]
    waiting: int = 0
    keys: dict[str, str] = field(default_factory=dict)
    staged: bool = False

    def stage(self) -> None:
        """Write the run set's outputs, its planned manifest and its kernel log's header."""
        rs = self.rs
        write_staging(rs)
        self.staged = True
        staging = rs.staging or rs.folder
        (staging / MANIFEST).write_bytes(rs.files[MANIFEST])
        (staging / KERNEL_LOG).write_text(expected_kernel_log_header(), encoding="utf-8")

    def add(self, outcome: NotebookOutcome, key: str | None) -> None:
        """A page that arrived (reused, or run), with its store key (``None``: not stored)."""
        self.rs.notebooks.append(outcome)
        if key is not None:
            self.keys[outcome.label] = key

    def publish(self, order: dict[str, int], landing: list[Path], say: Progress) -> None:
        """Switch the run set into place, record it in the store, add its landing page (once)."""
        rs = self.rs
        rs.notebooks.sort(key=lambda nb: order[nb.label])
        page = publish(rs, say)
        files = folder_digests(rs.folder)
        self.store.set_published(rs.params.name, {"jobs": self.keys, "files": files})
        if page not in landing:
            landing.append(page)

    def discard_unpublished(self) -> None:
        if self.staged and not self.rs.published and self.rs.staging is not None:
            remove_tree(self.rs.staging)


def _reuse(store: Store, entry: StoredNotebook, job: NotebookJob) -> NotebookOutcome:
    """A stored page linked into the staging folder, as the outcome of its job."""
    executed, html = job.executed, job.page
    store.link_out(entry.executed, executed)
    store.link_out(entry.html, html)
    if job.log is not None:
        append_to_log(job.log, entry.log)
    return NotebookOutcome(job.label, job.name, executed, html, 0.0, model=job.model,
                           log=entry.log, reused=True)  # fmt: skip


def _tidy(rs: RunSetResult) -> Callable[[str], str]:
    staging = rs.staging or rs.folder
    folders = {staging: "<run set>", rs.params.output: "<output>"}
    return lambda text: tidy_paths(text, folders)


def _store_page(
    store: Store, decision: Decision, outcome: NotebookOutcome, tidy: Callable[[str], str]
) -> str:
    """Store a page that ran (its objects, then its entry); return its key."""
    assert outcome.html is not None
    entry = StoredNotebook(
        key=decision.inputs.key,
        label=decision.job.label,
        inputs=list(decision.inputs.items),
        executed=store.add_file(outcome.executed),
        html=store.add_file(outcome.html),
        log=tidy(outcome.log),
        seconds=round(outcome.seconds, 1),
    )
    store.put_entry(entry)
    return entry.key


def nothing_changed(params: list[ReportParams], source_dir: Path) -> bool:
    """True when every run set's inputs have the digests its last publication recorded and
    its published files are intact (checked before scoring)."""
    for p in params:
        last = last_publications(read_history(p.output), p.name)
        published = Store(p.output).published(p.name)
        if not last or not published.get("files") or not is_run_set_folder(p.output / p.name):
            return False
        compared: dict[str, Any] = {}
        if COHORT_NOTEBOOK in p.notebooks:
            compare = comparisons([], [p.output])
            compared = compared_with(p.name, compare.get(p.name), compare)
        sources = {name: source_dir / f"{name}.ipynb" for name in p.notebooks}
        if publication_inputs(p, sources, compared) != dict(last[-1].inputs):
            return False
        if folder_digests(p.output / p.name) != published["files"]:
            return False
    return True


def dry_run(plan: Plan, say: Progress) -> list[RunSetResult]:
    """Say what ``plan`` would change and which notebooks it would run, writing nothing."""
    for rs in plan.run_sets:
        name = rs.params.name
        say(f"[{name}] would publish {rs.folder}")
        changes = Changes.from_dict(rs.changes)
        for line in changes.lines() if changes is not None else []:
            say(f"[{name}]   {line}")
        mine = [plan.decisions[job.label] for r, job in plan.planned if r is rs]
        running = [d for d in mine if not d.reused]
        say(f"[{name}] {describe_reuse(mine)}")
        for decision in running[:DRY_RUN_LISTED]:
            say(f"[{name}]   would run {decision.job.label}: {decision.why}")
        if len(running) > DRY_RUN_LISTED:
            reasons = Counter(d.why.split(" (")[0] for d in running[DRY_RUN_LISTED:])
            why = "; ".join(f"{count} {reason}" for reason, count in reasons.most_common())
            say(f"[{name}]   ... and {len(running) - DRY_RUN_LISTED} more ({why})")
    return plan.run_sets


#: How many notebooks a dry run lists by name (the rest are counted by reason).
DRY_RUN_LISTED = 20
