"""Report notebooks executed with papermill, each in its own kernel and worker, and rendered.

A kernel runs in the folder its page is published in (every path relative); stderr goes
to the run set's log; a failed notebook is still written so its error can be read.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..internals import import_jsonschema
from ..outputfiles import write_text_atomic
from .kernels import (
    RUNNER_PREFIX,
    append_to_log,
    kernel_log_block,
    kernel_log_header,
    kernel_server,
    kernel_transport,
    private_runtime_folder,
)
from .pages import render_html
from .space import no_space_note
from .workers import run_jobs

Progress = Callable[[str], None]


@dataclass(frozen=True)
class NotebookJob:
    """One notebook to execute: its source, parameters and folders.

    ``folder``: where it is written now (staging); ``final_folder``: where it is published
    (links are relative to it). :func:`execute_notebooks` fills ``runtime``, ``transport``,
    ``stderr_file`` and ``kernel_server`` ("": kernels start cold).
    """

    label: str
    name: str
    source: Path
    folder: Path
    parameters: dict[str, Any]
    final_folder: Path | None = None
    output: Path | None = None
    nav: str = ""
    footer: str = ""
    log: Path | None = None
    source_name: str = ""
    #: the model whose page this is (``None``: the run set's cohort report)
    model: str | None = None
    #: why the notebook runs (see :mod:`.reuse`)
    why: str = ""
    runtime: Path | None = None
    transport: str = ""
    stderr_file: Path | None = None
    kernel_server: str = ""

    @property
    def executed(self) -> Path:
        """Where the executed notebook is written: ``<folder>/<name>.ipynb``."""
        return self.folder / f"{self.name}.ipynb"

    @property
    def page(self) -> Path:
        """Where its HTML page is written, beside it (:func:`~.pages.render_html`)."""
        return self.executed.with_suffix(".html")


@dataclass
class NotebookOutcome:
    """What became of one notebook: paths, time, failure, and ``kernel_retries`` (TCP only)."""

    label: str
    name: str
    executed: Path
    html: Path | None
    seconds: float
    error: str | None = None
    cell: int | None = None
    kernel_retries: tuple[str, ...] = ()
    #: the model whose page this is (``None``: the run set's cohort report)
    model: str | None = None
    #: what its worker and kernel wrote on stderr, as the log's block
    log: str = ""
    #: taken from the store, not run
    reused: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None


def execute_notebooks(
    jobs: list[NotebookJob],
    workers: int,
    say: Progress,
    on_outcome: Callable[[int, NotebookOutcome], None] | None = None,
    *,
    headers: bool = True,
) -> list[NotebookOutcome]:
    """Run the jobs, ``workers`` at a time, each in a worker with its own kernel, calling
    ``on_outcome(position, outcome)`` as each ends (``headers`` off: the caller wrote them)."""
    if not jobs:
        return []
    total = len(jobs)
    outcomes: list[NotebookOutcome | None] = [None] * total
    done = 0
    with private_runtime_folder() as runtime, kernel_server(runtime) as (server, why_cold):
        transport, why_tcp = kernel_transport(runtime)
        cold = kernel_log_block(RUNNER_PREFIX[1:-1], f"kernels started cold, through the kit's "
                                f"launcher: {why_cold}", transport) if why_cold else ""  # fmt: skip
        for log in dict.fromkeys(job.log for job in jobs if job.log is not None):
            append_to_log(log, (kernel_log_header(transport, why_tcp) if headers else "") + cold)
        jobs = [
            replace(job, runtime=runtime, transport=transport, kernel_server=server,
                    stderr_file=runtime / f"notebook-{position}.stderr")
            for position, job in enumerate(jobs)
        ]  # fmt: skip

        def received(position: int, state: str, value: Any) -> None:
            nonlocal done
            done += 1
            job = jobs[position]
            if state == "ok":
                outcome = value
            else:
                full = no_space_note(job.folder) if "No space" not in str(value) else ""
                outcome = NotebookOutcome(
                    job.label,
                    job.name,
                    job.executed,
                    html=None,
                    seconds=0.0,
                    error=f"{full + ': ' if full else ''}worker failed: {value}",
                    model=job.model,
                )
                outcome.log = _log_stderr(job, f"{outcome.error}\n")  # what it wrote, kept
            outcomes[position] = outcome
            retried = _retries_text(outcome.kernel_retries)
            why = f"; {job.why}" if job.why else ""
            if outcome.ok:
                say(f"[{done}/{total}] ok {outcome.label} ({outcome.seconds:.1f} s{why}{retried})")
            else:
                say(f"[{done}/{total}] FAILED {outcome.label}: {outcome.error}{retried}")
            if on_outcome is not None:
                on_outcome(position, outcome)

        run_jobs(jobs, workers, execute_notebook, received, private_folder=runtime)
    return [o for o in outcomes if o is not None]


def _retries_text(retries: tuple[str, ...]) -> str:
    if not retries:
        return ""
    times = "once" if len(retries) == 1 else f"{len(retries)} times"
    return f"; its kernel was started again {times}: {'; '.join(retries)}"


def _first_line(text: str, limit: int = 80) -> str:
    line = next((ln for ln in text.splitlines() if ln.strip()), "")
    return line if len(line) <= limit else line[: limit - 3] + "..."


@contextlib.contextmanager
def _stderr_to(path: Path) -> Iterator[Any]:
    """Send this process's stderr, and so its kernel's, to ``path`` for the block."""
    sys.stderr.flush()
    saved = os.dup(2)
    with open(path, "ab", buffering=0) as capture:
        os.dup2(capture.fileno(), 2)
        try:
            yield capture
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)


def _log_stderr(job: NotebookJob, extra: str = "") -> str:
    """Append the notebook's stderr (and ``extra``) to its log as one block; return it."""
    text = ""
    if job.stderr_file is not None:
        with contextlib.suppress(OSError):
            text = job.stderr_file.read_text(encoding="utf-8", errors="replace")
            job.stderr_file.unlink()
    block = kernel_log_block(job.label, text + extra, job.transport, job.runtime)
    if job.log is not None:
        append_to_log(job.log, block)
    return block


def execute_notebook(job: NotebookJob) -> NotebookOutcome:
    """Execute one notebook with papermill, then render it to HTML (with and without code).

    A failing cell is reported as ``In [N]`` (as the HTML numbers it), its first line and
    the error, ``cell`` its 0-based position; the notebook is still written.
    """
    if job.runtime is None:
        with private_runtime_folder() as runtime:
            transport, _ = kernel_transport(runtime)
            stderr_file = runtime / "notebook.stderr"
            return execute_notebook(
                replace(job, runtime=runtime, transport=transport, stderr_file=stderr_file)
            )
    assert job.stderr_file is not None
    retries: list[str] = []
    with _stderr_to(job.stderr_file) as capture:

        def on_retry(cause: str) -> None:
            retries.append(cause)
            capture.write(f"{cause}; starting a new kernel on new ports\n".encode())

        def on_stop(problem: str) -> None:
            capture.write(f"{problem}\n".encode())

        outcome = _execute(job, on_retry, on_stop)
    outcome.log = _log_stderr(job)
    outcome.kernel_retries = tuple(retries)
    return outcome


#: The id the injected-parameters cell gets (papermill gives it a random one).
INJECTED_CELL_ID = "injected-parameters"


def stable_cell_ids(notebook: Any) -> Any:
    """Give papermill's injected-parameters cell a fixed id, so that reruns publish the same bytes.

    >>> import nbformat
    >>> cell = nbformat.v4.new_code_cell("model = 'm'")
    >>> cell.metadata["tags"] = ["injected-parameters"]
    >>> stable_cell_ids(nbformat.v4.new_notebook(cells=[cell])).cells[0].id
    'injected-parameters'
    """
    for cell in notebook.cells:
        if "injected-parameters" in cell.get("metadata", {}).get("tags", []):
            cell["id"] = INJECTED_CELL_ID
    return notebook


#: papermill's times (in the notebook's and each cell's ``papermill`` metadata).
_PAPERMILL_TIMES = ("start_time", "end_time", "duration")


def drop_execution_times(notebook: Any) -> Any:
    """Every execution time of an executed notebook dropped (papermill's ``None``, nbclient's
    gone; ``status`` and ``exception`` stay): a rerun publishes the same bytes.

    >>> import nbformat
    >>> cell = nbformat.v4.new_code_cell("1")
    >>> cell.metadata["papermill"] = {"start_time": "2026-12-02T10:00:01.5", "duration": 0.5,
    ...                               "status": "completed"}
    >>> cell.metadata["execution"] = {"iopub.status.busy": "2026-12-02T10:00:01.5"}
    >>> notebook = nbformat.v4.new_notebook(cells=[cell])
    >>> notebook.metadata["papermill"] = {"end_time": "2026-12-02T10:00:02", "duration": 2.1}
    >>> dropped = drop_execution_times(notebook)
    >>> dict(dropped.metadata.papermill)
    {'end_time': None, 'duration': None}
    >>> dict(dropped.cells[0].metadata)["papermill"]
    {'start_time': None, 'duration': None, 'status': 'completed'}
    >>> "execution" in dropped.cells[0].metadata
    False
    """
    blocks = [notebook.metadata.get("papermill")]
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
        blocks.append(cell.metadata.get("papermill"))
    for block in blocks:
        if not block:
            continue
        for key in _PAPERMILL_TIMES:
            if key in block:
                block[key] = None
    return notebook


def _execute(
    job: NotebookJob, on_retry: Callable[[str], None], on_stop: Callable[[str], None]
) -> NotebookOutcome:
    started = time.monotonic()
    job.folder.mkdir(parents=True, exist_ok=True)
    executed = job.executed
    partial = job.folder / f".{job.name}.partial.ipynb"
    error, cell, failure = _run_papermill(job, partial, on_retry, on_stop)
    html_path = None
    try:
        if partial.exists():
            html_path = _publish_executed(job, partial, executed)
    except Exception as exc:  # noqa: BLE001 - the notebook or its page could not be written
        failure = failure or exc
        what = "HTML export failed: " if executed.exists() else ""
        error = error or f"{what}{type(exc).__name__}: {_first_line(str(exc), 200)}"
    if error is not None:  # a full disk is named, whatever the library that met it raised
        full = no_space_note(job.folder, failure)
        if full and not error.startswith(full):
            error = f"{full}: {error}"
    seconds = time.monotonic() - started
    return NotebookOutcome(
        job.label, job.name, executed, html_path, seconds, error, cell, model=job.model
    )


def _run_papermill(
    job: NotebookJob,
    partial: Path,
    on_retry: Callable[[str], None],
    on_stop: Callable[[str], None],
) -> tuple[str | None, int | None, BaseException | None]:
    """Execute the job's notebook into ``partial``: ``(error, failing cell, exception)``,
    all ``None`` when every cell ran."""
    import_jsonschema()  # before papermill loads it with its IRI grammar (1.4 s a worker)
    import papermill

    from .kernel_client import engine_options

    try:
        papermill.execute_notebook(
            str(job.source),
            str(partial),
            parameters=job.parameters,
            cwd=str(job.folder),
            progress_bar=False,
            log_output=False,
            **engine_options(job.transport, str(job.runtime), on_retry, on_stop, job.kernel_server),
        )
    except papermill.PapermillExecutionError as exc:
        error = (
            f"cell In [{exc.exec_count}] ({_first_line(exc.source)}): "
            f"{exc.ename}: {_first_line(str(exc.evalue), 200)}"
        )
        return error, exc.cell_index, exc
    except Exception as exc:  # noqa: BLE001 - any failure is reported, others go on
        return f"{type(exc).__name__}: {_first_line(str(exc), 200)}", None, exc
    return None, None, None


def _publish_executed(job: NotebookJob, partial: Path, executed: Path) -> Path:
    """The executed notebook made stable (cell ids, no time, no path of this machine) and
    written as ``executed``; its HTML page rendered; the page."""
    import nbformat

    notebook = nbformat.read(partial, as_version=4)
    stable_cell_ids(notebook)
    drop_execution_times(notebook)
    meta = notebook.metadata.get("papermill", {})
    meta["input_path"] = job.source_name or job.source.name  # no path of this machine
    meta["output_path"] = executed.name
    write_text_atomic(executed, nbformat.writes(notebook) + "\n")
    partial.unlink()
    return render_html(
        executed,
        f"{job.label} (TCSExam report)",
        output=job.output or job.folder,
        final_folder=job.final_folder or job.folder,
        nav=job.nav,
        footer=job.footer,
    )
