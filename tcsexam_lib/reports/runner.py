"""``tcsexam report``: score run sets in one pass and render their notebooks into HTML reports.

Every run set is loaded and scored in memory (:mod:`.prepare`) before anything is written,
run or published (:mod:`.render`; the steps: docs/reports.md). Nothing is printed here:
progress goes to the ``progress`` callback.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..environment import environment_fingerprint, kit_fingerprint
from ..errors import InputRefused, Problem
from ..internals import import_jsonschema
from ..paths import KIT_ROOT
from .execute import NotebookOutcome, Progress
from .history import read_history
from .pages import assets_bytes, write_assets
from .params import ReportParams, load_report_params
from .prepare import prepare_run_set
from .publish import (
    make_output_folder,
    refuse_foreign_folders,
    remove_stale_staging,
)
from .render import dry_run as render_dry_run
from .render import nothing_changed, plan_publication, render_run_sets
from .runsets import (
    RunSetResult,
)
from .space import refuse_short_space, space_needed
from .store import Store
from .teaching_page import write_teaching_page

#: Folder of the kit's report notebooks.
NOTEBOOKS_DIR = KIT_ROOT / "notebooks"


@dataclass
class ReportResult:
    """Everything a ``tcsexam report`` run produced."""

    run_sets: list[RunSetResult]
    landing_pages: list[Path]
    seconds: float
    #: the run sets left as published: nothing they read had changed
    unchanged: list[str] = field(default_factory=list)
    #: a dry run: nothing was written
    dry_run: bool = False

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
    force: bool = False,
    dry_run: bool = False,
) -> ReportResult:
    """Build the reports of every run set and the landing page(s).

    :class:`InputRefused` names every problem before anything is written; a failing notebook
    is listed in :attr:`ReportResult.failures` and the run goes on. ``force`` runs every
    notebook (else unchanged pages are reused, nothing written when nothing changed).

    >>> try:
    ...     run_report(["no-such-file.yaml"])
    ... except InputRefused as exc:
    ...     print(exc.problems[0].detail)
    no such file
    """
    started = time.monotonic()
    say = progress or _silent
    _check_jobs(jobs)
    all_params = _load_all_params(params_files, output)
    for folder in sorted({p.output for p in all_params}):
        names = sorted(p.name for p in all_params if p.output == folder)
        refuse_foreign_folders(folder, names, ", ".join(str(p.source) for p in all_params))
    source_dir = Path(notebooks_dir) if notebooks_dir is not None else NOTEBOOKS_DIR
    if not force and nothing_changed(all_params, source_dir):
        names = [p.name for p in all_params]
        for name in names:
            say(f"[{name}] nothing it reads changed since its last publication: left as it is")
        return ReportResult([], [], time.monotonic() - started, unchanged=names, dry_run=dry_run)
    import_jsonschema()  # before nbconvert and papermill load it with its IRI grammar (1.4 s)
    prepared = []
    for params in all_params:  # everything in memory first: a refusal writes nothing
        say(f"[{params.name}] scoring ({params.source.name})")
        prepared.append(prepare_run_set(params))
    stores = {folder: Store(folder) for folder in sorted({p.output for p in all_params})}
    with contextlib.ExitStack() as held:
        for store in stores.values():  # no garbage collected under this run's plan
            held.enter_context(store.shared(create=False))
        plan = plan_publication(
            prepared, source_dir=source_dir, stores=stores, force=force, say=say
        )
        if dry_run:
            run_sets = render_dry_run(plan, say)
            return ReportResult(run_sets, [], time.monotonic() - started, dry_run=True)
        refuse_short_space(space_needed(plan, stores, assets_bytes))  # before anything is written
        _set_up_folders(all_params, say)
        for store in stores.values():  # a store made by this run
            if not store.held:
                held.enter_context(store.shared())
        run_sets, landing = render_run_sets(plan, jobs=jobs, stores=stores, say=say)
    for store in stores.values():  # what no published run set uses, once no run holds it
        store.collect_garbage()
    return ReportResult(run_sets, landing, time.monotonic() - started)


def _check_jobs(jobs: object) -> None:
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


def _set_up_folders(all_params: list[ReportParams], say: Progress) -> None:
    """Each output folder made (or refused) and cleared of an interrupted run's leftovers, with
    the shared assets and the teaching page (kept when made with these tools)."""
    folders = sorted({p.output for p in all_params})
    for folder in folders:
        make_output_folder(
            folder,
            ", ".join(str(p.source) for p in all_params if p.output == folder),
            "a folder that exists or can be created (--output DIR, or the parameter file's output)",
        )
    for folder in folders:
        for stale in remove_stale_staging(folder):
            say(f"removed {stale.name} (left by an interrupted run)")
        unchanged = _made_with_these_tools(folder)
        write_assets(folder, unchanged=unchanged)
        write_teaching_page(folder, landing=True, unchanged=unchanged)


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


def _made_with_these_tools(folder: Path) -> bool:
    """True when ``folder``'s last publication was made by this kit in this environment."""
    history = read_history(folder)
    return bool(history) and history[-1].made_with() == (kit_fingerprint(),
                                                          environment_fingerprint())  # fmt: skip
