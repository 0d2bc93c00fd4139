"""Executing report notebooks with papermill and rendering them to HTML.

Each notebook runs in its own kernel, in a worker process (``jobs`` at a time, see
:mod:`.workers`), with the kernel's working folder set to the folder its page is
published in, so that every path it is given, and records, is relative. Its kernel's
messages go to the run set's log file, not to the caller's terminal. A notebook that
fails is reported with its cell and error while the others finish, and its executed
notebook and HTML are still written so that the error can be read.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..jsonio import write_text_atomic
from .pages import render_html
from .workers import run_jobs

Progress = Callable[[str], None]


@dataclass(frozen=True)
class NotebookJob:
    """One notebook to execute: its source, parameters and folders.

    ``folder`` is where it is written now (in the run set's staging folder),
    ``final_folder`` where it will be published (page links are relative to it),
    ``output`` the report folder, ``nav`` the page's navigation links, ``log`` the
    file that receives the kernel's messages, ``source_name`` how the executed
    notebook names its source (relative to the kit).
    """

    label: str
    name: str
    source: Path
    folder: Path
    parameters: dict[str, Any]
    final_folder: Path | None = None
    output: Path | None = None
    nav: str = ""
    log: Path | None = None
    source_name: str = ""
    #: the model whose page this is (``None``: the run set's cohort report)
    model: str | None = None


@dataclass
class NotebookOutcome:
    """What became of one notebook: paths written, time, and the failure if any."""

    label: str
    name: str
    executed: Path
    html: Path | None
    seconds: float
    error: str | None = None
    cell: int | None = None
    #: the model whose page this is (``None``: the run set's cohort report)
    model: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def _send_stderr_to(log_path: Path | None) -> None:
    """Send this worker's stderr (and so its kernels' chatter) to the run set's log."""
    if log_path is None:
        return
    handle = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o666)
    os.dup2(handle, 2)
    os.close(handle)


def execute_notebooks(
    jobs: list[NotebookJob],
    workers: int,
    say: Progress,
    on_outcome: Callable[[int, NotebookOutcome], None] | None = None,
) -> list[NotebookOutcome]:
    """Run the jobs, ``workers`` at a time, each in a worker process with its own kernel.

    ``on_outcome(position, outcome)`` is called as each notebook ends (the runner
    publishes a run set when its last notebook is done).
    """
    total = len(jobs)
    outcomes: list[NotebookOutcome | None] = [None] * total
    done = 0

    def received(position: int, state: str, value: Any) -> None:
        nonlocal done
        done += 1
        job = jobs[position]
        if state == "ok":
            outcome = value
        else:
            outcome = NotebookOutcome(
                job.label,
                job.name,
                job.folder / f"{job.name}.ipynb",
                None,
                None,
                0.0,
                f"worker failed: {value}",
                model=job.model,
            )
        outcomes[position] = outcome
        if outcome.ok:
            say(f"[{done}/{total}] ok {outcome.label} ({outcome.seconds:.1f} s)")
        else:
            say(f"[{done}/{total}] FAILED {outcome.label}: {outcome.error}")
        if on_outcome is not None:
            on_outcome(position, outcome)

    run_jobs(jobs, workers, execute_notebook, received)
    return [o for o in outcomes if o is not None]


def _first_line(text: str, limit: int = 80) -> str:
    line = next((ln for ln in text.splitlines() if ln.strip()), "")
    return line if len(line) <= limit else line[: limit - 3] + "..."


def execute_notebook(job: NotebookJob) -> NotebookOutcome:
    """Execute one notebook with papermill, then render it to HTML (with and without code).

    The executed notebook keeps papermill's metadata (parameters, timings, kit
    environment). A failing cell is reported by its execution count ``In [N]`` (as
    the HTML shows it; papermill's injected-parameters cell counts), its first line
    and the error, and ``cell`` holds its 0-based position in the executed notebook;
    the notebook and its HTML are still written so that the error can be read.
    """
    import nbformat
    import papermill

    _send_stderr_to(job.log)
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
            cwd=str(job.folder),
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
    html_path = None
    if partial.exists():
        notebook = nbformat.read(partial, as_version=4)
        meta = notebook.metadata.get("papermill", {})
        meta["input_path"] = job.source_name or job.source.name  # no path of this machine
        meta["output_path"] = executed.name
        write_text_atomic(executed, nbformat.writes(notebook) + "\n")
        partial.unlink()
        try:
            html_path = render_html(
                executed,
                f"{job.label} (TCSExam report)",
                output=job.output or job.folder,
                final_folder=job.final_folder or job.folder,
                nav=job.nav,
            )
        except Exception as exc:  # noqa: BLE001
            error = error or f"HTML export failed: {type(exc).__name__}: {exc}"
    return NotebookOutcome(
        job.label,
        job.name,
        executed,
        html_path,
        time.monotonic() - started,
        error,
        cell,
        model=job.model,
    )
