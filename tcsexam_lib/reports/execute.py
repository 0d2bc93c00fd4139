"""Executing report notebooks with papermill and rendering them to HTML.

Each notebook runs in its own kernel, in a worker process (``jobs`` at a time); its
kernel's messages go to a log file, not to the caller's terminal. A notebook that fails
is reported with its cell and error while the others finish, and its executed notebook
and HTML are still written so that the error can be read.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from ..jsonio import write_text_atomic

Progress = Callable[[str], None]


@dataclass(frozen=True)
class NotebookJob:
    """One notebook to execute: its source, parameters and output folder."""

    label: str
    name: str
    source: Path
    folder: Path
    parameters: dict[str, Any]


@dataclass
class NotebookOutcome:
    """What became of one notebook: paths written, time, and the failure if any."""

    label: str
    name: str
    executed: Path
    html: Path | None
    reader_html: Path | None
    seconds: float
    error: str | None = None
    cell: int | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def _quiet_worker(log_path: str) -> None:
    """Send a worker's stderr (and so its kernels' chatter) to the kernel log file."""
    handle = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(handle, 2)
    os.close(handle)


def execute_notebooks(
    jobs: list[NotebookJob], workers: int, say: Progress, log_path: Path
) -> list[NotebookOutcome]:
    """Run the jobs, ``workers`` at a time, each in a worker process with its own kernel.

    The kernels' own messages (stderr) go to ``log_path``, not to the caller's terminal.
    """
    total = len(jobs)
    outcomes: list[NotebookOutcome | None] = [None] * total
    if not jobs:
        return []
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log_path.write_text("", encoding="utf-8")  # this run's kernels only
    pool = ProcessPoolExecutor(
        max_workers=max(1, min(workers, total)),
        mp_context=get_context("spawn"),
        initializer=_quiet_worker,
        initargs=(str(log_path),),
    )
    with pool:
        futures = {pool.submit(_execute_notebook, job): k for k, job in enumerate(jobs)}
        for done, future in enumerate(as_completed(futures), start=1):
            position = futures[future]
            try:
                outcome = future.result()
            except Exception as exc:  # noqa: BLE001 - a worker crash is one failed notebook
                job = jobs[position]
                outcome = NotebookOutcome(
                    job.label,
                    job.name,
                    job.folder / f"{job.name}.ipynb",
                    None,
                    None,
                    0.0,
                    f"worker failed: {type(exc).__name__}: {exc}",
                )
            outcomes[position] = outcome
            if outcome.ok:
                say(f"[{done}/{total}] ok {outcome.label} ({outcome.seconds:.1f} s)")
            else:
                say(f"[{done}/{total}] FAILED {outcome.label}: {outcome.error}")
    return [o for o in outcomes if o is not None]


def _first_line(text: str, limit: int = 80) -> str:
    line = next((ln for ln in text.splitlines() if ln.strip()), "")
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _execute_notebook(job: NotebookJob) -> NotebookOutcome:
    """Execute one notebook with papermill, then render it to HTML (with and without code).

    The executed notebook keeps papermill's metadata (parameters, timings, kit
    environment). A failing cell is reported by its execution count ``In [N]`` (as
    the HTML shows it; papermill's injected-parameters cell counts), its first line
    and the error, and ``cell`` holds its 0-based position in the executed notebook;
    the notebook and its HTML are still written so that the error can be read.
    """
    import papermill

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
    html_path = reader_path = None
    if partial.exists():
        os.replace(partial, executed)
        try:
            html_path, reader_path = _render_html(executed, f"{job.label} (TCSExam report)")
        except Exception as exc:  # noqa: BLE001
            error = error or f"HTML export failed: {type(exc).__name__}: {exc}"
    return NotebookOutcome(
        job.label,
        job.name,
        executed,
        html_path,
        reader_path,
        time.monotonic() - started,
        error,
        cell,
    )


def _render_html(executed: str | os.PathLike[str], title: str) -> tuple[Path, Path]:
    """Write ``<name>.html`` (with code) and ``<name>.reader.html`` (code hidden)."""
    import nbformat
    from nbconvert import HTMLExporter

    executed = Path(executed)
    notebook = nbformat.read(executed, as_version=4)
    resources = {"metadata": {"name": title}}
    full, _ = HTMLExporter().from_notebook_node(notebook, resources=dict(resources))
    reader, _ = HTMLExporter(
        exclude_input=True, exclude_input_prompt=True, exclude_output_prompt=True
    ).from_notebook_node(notebook, resources=dict(resources))
    stem = executed.with_suffix("")
    html_path = write_text_atomic(stem.with_suffix(".html"), full)
    reader_path = write_text_atomic(Path(f"{stem}.reader.html"), reader)
    return html_path, reader_path
