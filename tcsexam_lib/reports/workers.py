"""Worker processes that execute notebooks, and die with the runner.

Each worker is a ``spawn`` process that takes one job at a time over a pipe and sends
back its result. Workers ignore Ctrl-C (the runner decides, and kills them at once);
a thread in each worker watches the runner's process id and ends the worker as soon as
the runner is gone (even after ``SIGKILL``, which runs no clean-up in the runner), and
first removes the run's private folder if it was given one (the runner would have). A
notebook's kernel watches its worker the same way (ipykernel's parent poller), so no
process outlives the run by more than a second or so.
"""

from __future__ import annotations

import os
import shutil
import signal
import threading
import time
from collections.abc import Callable
from multiprocessing import get_context
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

#: How often (seconds) a worker checks that the runner is still there.
PARENT_POLL_SECONDS = 0.2

#: How long (seconds) the runner waits for the exit code of a worker whose pipe has closed.
WORKER_EXIT_SECONDS = 5


def _watch_parent(parent_pid: int, private_folder: Path | None) -> None:
    while True:
        if os.getppid() != parent_pid:
            if private_folder is not None:  # the runner's clean-up, which it cannot do now
                shutil.rmtree(private_folder, ignore_errors=True)
            os._exit(70)  # the runner is gone: stop at once, write nothing more
        time.sleep(PARENT_POLL_SECONDS)


def _worker_main(
    conn: Connection,
    parent_pid: int,
    function: Callable[[Any], Any],
    private_folder: Path | None = None,
) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the runner handles Ctrl-C
    watch = threading.Thread(target=_watch_parent, args=(parent_pid, private_folder), daemon=True)
    watch.start()
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        try:
            conn.send(("ok", function(job)))
        except Exception as exc:  # noqa: BLE001 - sent back as this job's failure
            conn.send(("error", f"{type(exc).__name__}: {exc}"))


class _Worker:
    def __init__(
        self, context: Any, function: Callable[[Any], Any], private_folder: Path | None
    ) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(
            target=_worker_main,
            args=(child, os.getpid(), function, private_folder),
            daemon=True,
        )
        self.process.start()
        child.close()
        self.position: int | None = None

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()


def run_jobs(
    jobs: list[Any],
    workers: int,
    function: Callable[[Any], Any],
    on_result: Callable[[int, str, Any], None],
    private_folder: Path | None = None,
) -> None:
    """Run ``function(job)`` for every job in ``workers`` processes; report each result.

    ``on_result(position, state, value)`` is called in the runner as each job ends:
    ``state`` is ``ok`` (``value`` is what the function returned), ``error`` (it
    raised: ``value`` is the message) or ``died`` (the worker process ended). Whatever
    happens (an exception, Ctrl-C), every worker is killed before this returns. Workers
    that outlive the runner remove ``private_folder`` (the caller removes it otherwise).

    Examples
    --------
    >>> results = {}
    >>> run_jobs([-1, -2, -3], 2, abs, lambda k, state, value: results.update({k: value}))
    >>> sorted(results.items())  # in the order the jobs ended; here sorted
    [(0, 1), (1, 2), (2, 3)]
    """
    if not jobs:
        return
    context = get_context("spawn")
    pending = list(range(len(jobs)))
    pool: list[_Worker] = []
    try:
        for _ in range(max(1, min(workers, len(jobs)))):
            pool.append(_Worker(context, function, private_folder))
        busy: dict[Any, _Worker] = {}

        def assign(worker: _Worker) -> None:
            worker.position = pending.pop(0)
            worker.conn.send(jobs[worker.position])
            busy[worker.conn] = worker
            busy[worker.process.sentinel] = worker

        for worker in pool:
            if pending:
                assign(worker)
        while busy:
            for ready in wait(list(busy)):
                worker = busy.get(ready)
                if worker is None or worker.position is None:
                    continue
                position = worker.position
                del busy[worker.conn], busy[worker.process.sentinel]
                worker.position = None
                try:
                    state, value = worker.conn.recv() if ready is worker.conn else ("died", None)
                except (EOFError, OSError):
                    state, value = "died", None
                if state == "died":
                    # its pipe can close before the process is reaped: wait for its exit code
                    worker.process.join(timeout=WORKER_EXIT_SECONDS)
                    code = worker.process.exitcode
                    worker.kill()
                    pool.remove(worker)
                    value = f"worker process ended (exit code {code})"
                    if pending:
                        worker = _Worker(context, function, private_folder)
                        pool.append(worker)
                on_result(position, state, value)
                if pending and worker in pool:
                    assign(worker)
        for worker in pool:
            worker.conn.send(None)
    finally:
        for worker in pool:
            worker.kill()
