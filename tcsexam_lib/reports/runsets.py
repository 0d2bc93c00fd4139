"""A written run set: its notebook jobs, its manifest, and its publication.

The runner (:mod:`.runner`) writes a run set's outputs into its staging folder; this
module turns it into notebook jobs (the cohort report, then each model's three, every
path relative to the folder the page is published in), writes ``run-set.json`` (what
the landing page shows) and switches the finished folder into place (see
:mod:`.publish`).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..jsonio import dumps_json, write_text_atomic
from ..paths import KIT_ROOT
from ..provenance import created_utc, kit_version
from ..scoring.index_document import IndexDocument
from ..scoring.solver_document import SolverDocument
from .execute import NotebookJob, NotebookOutcome, Progress
from .fill import FillResult
from .landing import write_landing_page
from .pages import relative_link
from .params import ReportParams
from .publish import MANIFEST, MANIFEST_KIND, read_manifests, switch_into_place
from .run_set_document import RunSetDocument, assemble_run_set, notebook_files, run_set_summary

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
    solver_outputs: dict[str, list[SolverDocument]]
    simulated: bool
    notebooks: list[NotebookOutcome] = field(default_factory=list)
    staging: Path | None = None
    stats_output: Path | None = None
    stats: dict[str, Any] | None = None
    published: bool = False


#: Folder of a run set that holds its solver-score outputs (the solver evidence).
EVIDENCE = "evidence"
#: Folder of a run set that holds one folder of pages per model.
MODELS = "models"
#: The run set's report across its models.
COHORT_NOTEBOOK = "cohort"


def comparisons(run_sets: list[RunSetResult]) -> dict[str, dict[str, Any]]:
    """Every run set a cohort report can compare with: this run's, then those on disk."""
    found: dict[str, dict[str, Any]] = {}
    for rs in run_sets:
        found[rs.params.name] = run_set_summary(rs.score, rs.stats)
    for folder in sorted({rs.params.output for rs in run_sets}):
        for manifest in read_manifests(folder):
            if manifest.name not in found:
                found[manifest.name] = manifest.summary.data
    return found


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

    def job(name: str, page_of: str | None, folder: Path, final: Path, nav: str, **parameters: Any):
        label = f"{p.name}/{name}" if page_of is None else f"{p.name}/{page_of}/{name}"
        return NotebookJob(
            label=label,
            name=name,
            source=source_dir / f"{name}.ipynb",
            folder=folder,
            parameters={"suite": p.suite, "protocol": p.protocol, **parameters},
            final_folder=final,
            output=p.output,
            nav=nav,
            log=log,
            source_name=f"notebooks/{name}.ipynb",
            model=page_of,
        )

    home = f"<a href='{relative_link(landing, rs.folder)}'>All reports (landing page)</a>"
    jobs = []
    if COHORT_NOTEBOOK in p.notebooks:
        others = {name: data for name, data in compare.items() if name != p.name}
        jobs.append(
            job(
                COHORT_NOTEBOOK,
                None,
                staging,
                rs.folder,
                home,
                index_json=rs.index_output.name,
                stats_json=_relative(rs.stats_output, rs.folder) or "",
                references_dir=references_dir(rs.folder),
                compare=others,
            )
        )
    for model in p.models:
        final = rs.folder / MODELS / model
        index_json = _relative(rs.index_output, final)
        solver_dir = _relative(rs.folder / EVIDENCE / model, final)
        nav = (
            f"<a href='{relative_link(landing, final)}'>All reports (landing page)</a>"
            f"<a href='{relative_link(rs.folder / 'cohort.html', final)}'>"
            f"Cohort report of {p.name}</a>"
        )
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
        for name in p.notebooks:
            if name == COHORT_NOTEBOOK:
                continue
            jobs.append(
                job(
                    name,
                    model,
                    staging / MODELS / model,
                    final,
                    nav,
                    model=model,
                    references_dir=references_dir(final),
                    **per_notebook.get(name, {}),
                )
            )
    return jobs


def manifest(rs: RunSetResult) -> RunSetDocument:
    """``run-set.json``: what the landing page shows of a run set (paths relative to it)."""
    p = rs.params
    staging = rs.staging or rs.folder

    def files(nb: NotebookOutcome) -> dict[str, Any]:
        executed, html = _relative(nb.executed, staging), _relative(nb.html, staging)
        return notebook_files(nb.name, nb.ok, nb.error, executed, html)

    by_model: dict[str, list[dict[str, Any]]] = {model: [] for model in p.models}
    cohort = None
    for nb in rs.notebooks:
        if nb.model is None:
            cohort = files(nb)
        else:
            by_model.setdefault(nb.model, []).append(files(nb))
    return assemble_run_set(
        kind=MANIFEST_KIND,
        kit_version=kit_version(),
        name=p.name,
        suite=p.suite,
        protocol=p.protocol,
        description=p.description,
        simulated=rs.simulated,
        reference_id=rs.score.reference_id,
        status=rs.score.status,
        index_json=rs.index_output.name,
        stats_json=None if rs.stats_output is None else rs.stats_output.name,
        attempts=rs.attempts_filled.name,
        kernel_log=KERNEL_LOG,
        cohort=cohort,
        summary=run_set_summary(rs.score, rs.stats),
        notebooks=by_model,
        created_utc=created_utc(),
    )


def publish(rs: RunSetResult, say: Progress) -> Path:
    """Switch a finished run set into place and rewrite the landing page from disk."""
    staging = rs.staging or rs.folder
    _tidy_kernel_log(staging / KERNEL_LOG, {staging: "<run set>", rs.params.output: "<output>"})
    write_text_atomic(staging / MANIFEST, dumps_json(manifest(rs).data))
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
