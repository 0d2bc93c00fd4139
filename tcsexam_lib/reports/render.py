"""Rendering run sets: their outputs staged, each page reused from the store or run, published.

For the run sets the runner scored in memory (:mod:`.prepare`), :func:`render_run_sets`

1. writes each run set's outputs into its staging folder (:mod:`.outputs`; an output
   that did not change is linked from the published run set, not written again);
2. makes the notebook jobs (:mod:`.runsets`) and decides for each whether its stored
   page is reused or it runs, and why (:mod:`.reuse`);
3. links each reused page from the store into the staging folder, runs the others
   (``jobs`` at a time) and stores each page that ran;
4. switches each run set into place when its last page is there, records in the store
   what it published, and rewrites the landing page.

Interrupted, or failing, it removes the unfinished staging folders: what was published
stays as it was, and the store stays consistent (see :mod:`.store`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from ..folders import remove_tree
from ..jsonio import write_stream_atomic
from ..scoring.issues import describe_model
from .execute import NotebookJob, NotebookOutcome, Progress, execute_notebooks
from .kernels import append_to_log, expected_kernel_log_header
from .outputs import build_outputs
from .prepare import PreparedRunSet
from .publish import MANIFEST, is_run_set_folder, new_staging
from .reuse import Decision, InputDigests, decide, describe_reuse
from .runsets import (
    KERNEL_LOG,
    RunSetResult,
    comparisons,
    notebook_jobs,
    planned_manifest_text,
    publish,
    tidy_paths,
)
from .store import Store, StoredNotebook


def write_run_set(prepared: PreparedRunSet, say: Progress) -> RunSetResult:
    """Compute a prepared run set's outputs and write them into its staging folder.

    The index records the sha256 of the solver outputs and the filled table as they are
    published (``tcsexam verify`` recomputes it from the files); every path an output
    records is relative to the run set's folder (the report may be published anywhere).
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
    previous = final if is_run_set_folder(final) else None
    built = build_outputs(prepared, final, previous)
    for relative, data in built.files.items():
        if (
            previous is None
            or relative not in built.kept
            or not _linked(previous / relative, staging / relative)
        ):
            write_stream_atomic(staging / relative, [data])
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
        staging=staging,
        stats_output=final / built.stats_name,
        stats=built.stats,
        files=built.files,
    )


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
    """Every run set's notebook jobs; each run set's planned ``run-set.json`` among its files
    (the cohort report links the pages it lists)."""
    compare = comparisons(run_sets)
    planned = [(rs, job) for rs in run_sets for job in notebook_jobs(rs, source_dir, compare)]
    for rs in run_sets:
        text = planned_manifest_text(rs, [job for r, job in planned if r is rs])
        rs.files[MANIFEST] = text.encode("utf-8")
    return planned


def decide_jobs(
    planned: list[tuple[RunSetResult, NotebookJob]],
    stores: dict[Path, Store],
    *,
    force: bool,
) -> dict[str, Decision]:
    """Each job's decision (reuse or run, and why), by label."""
    decisions: dict[str, Decision] = {}
    for rs in list({id(rs): rs for rs, _ in planned}.values()):
        store = stores[rs.params.output]
        published = store.published(rs.params.name).get("jobs", {})
        digests = InputDigests(rs.folder, rs.files)
        mine = [job for r, job in planned if r is rs]
        for decision in decide(mine, digests, store, published, force=force):
            decisions[decision.job.label] = decision
    return decisions


def render_run_sets(
    prepared: list[PreparedRunSet],
    *,
    jobs: int,
    source_dir: Path,
    stores: dict[Path, Store],
    force: bool,
    say: Progress,
) -> tuple[list[RunSetResult], list[Path]]:
    """Stage, decide, reuse or run, store and publish every run set (see the docstring)."""
    run_sets: list[RunSetResult] = []
    landing: list[Path] = []
    keys: dict[int, dict[str, str]] = {}
    try:
        for item in prepared:
            run_sets.append(write_run_set(item, say))
        planned = plan_jobs(run_sets, source_dir)
        for rs in run_sets:
            staging = rs.staging or rs.folder
            (staging / MANIFEST).write_bytes(rs.files[MANIFEST])
            (staging / KERNEL_LOG).write_text(expected_kernel_log_header(), encoding="utf-8")
            keys[id(rs)] = {}
        decisions = decide_jobs(planned, stores, force=force)
        to_run = [(rs, replace(job, why=decisions[job.label].why))
                  for rs, job in planned if not decisions[job.label].reused]  # fmt: skip
        order = {job.label: k for k, (_, job) in enumerate(planned)}
        remaining = {id(rs): sum(1 for r, _ in to_run if r is rs) for rs in run_sets}

        def publish_run_set(rs: RunSetResult) -> None:
            rs.notebooks.sort(key=lambda nb: order[nb.label])
            page = publish(rs, say)
            stores[rs.params.output].set_published(rs.params.name, {"jobs": keys[id(rs)]})
            if page not in landing:
                landing.append(page)

        for rs, job in planned:
            decision = decisions[job.label]
            if decision.entry is not None:
                rs.notebooks.append(_reuse(stores[rs.params.output], decision.entry, job))
                keys[id(rs)][job.label] = decision.inputs.key
        say(describe_reuse(list(decisions.values())))
        for rs in run_sets:
            if not remaining[id(rs)]:
                publish_run_set(rs)

        def finished(position: int, outcome: NotebookOutcome) -> None:
            rs, job = to_run[position]
            assert outcome.label == job.label
            if outcome.ok and outcome.html is not None:
                store = stores[rs.params.output]
                key = _store_page(store, decisions[job.label], outcome, _tidy(rs))
                keys[id(rs)][job.label] = key
            rs.notebooks.append(outcome)
            remaining[id(rs)] -= 1
            if not remaining[id(rs)]:
                publish_run_set(rs)

        if to_run:
            say(f"executing {len(to_run)} notebook(s), {jobs} at a time")
            execute_notebooks([job for _, job in to_run], jobs, say, finished, headers=False)
    finally:
        for rs in run_sets:  # interrupted or failed: nothing half-written stays
            if not rs.published and rs.staging is not None:
                remove_tree(rs.staging)
    return run_sets, landing


def _reuse(store: Store, entry: StoredNotebook, job: NotebookJob) -> NotebookOutcome:
    """A stored page linked into the staging folder, as the outcome of its job."""
    executed, html = job.folder / f"{job.name}.ipynb", job.folder / f"{job.name}.html"
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
