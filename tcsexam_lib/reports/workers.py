"""Worker processes (``spawn``) that execute notebooks, and die with the runner.

They ignore Ctrl-C and watch the runner's process id, ending (and removing the run's
private folder) as soon as it is gone, even after ``SIGKILL``.
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

    ``on_result(position, state, value)``: ``ok`` (returned value), ``error`` (its
    message) or ``died``. Every worker is killed before this returns, whatever happens.

    >>> results = {}
    >>> run_jobs([-1, -2, -3], 2, abs, lambda k, state, value: results.update({k: value}))
    >>> sorted(results.items())  # in the order the jobs ended; here sorted
    [(0, 1), (1, 2), (2, 3)]
    """
    if not jobs:
        return
    pool = _Pool(jobs, function, private_folder)
    try:
        pool.start(max(1, min(workers, len(jobs))))
        while pool.busy:
            for ready in wait(list(pool.busy)):
                ended = pool.collect(ready)
                if ended is None:  # the other half of a worker already collected
                    continue
                worker, position, state, value = ended
                on_result(position, state, value)
                if worker is not None and pool.pending:
                    pool.assign(worker)
        pool.stop()
    finally:
        pool.kill()


class _Pool:
    """The workers of one :func:`run_jobs` call; ``busy`` maps a busy worker's pipe and
    sentinel to it (either is ready when its job ends)."""

    def __init__(
        self, jobs: list[Any], function: Callable[[Any], Any], private_folder: Path | None
    ) -> None:
        self.context = get_context("spawn")
        self.jobs = jobs
        self.function = function
        self.private_folder = private_folder
        self.pending = list(range(len(jobs)))
        self.workers: list[_Worker] = []
        self.busy: dict[Any, _Worker] = {}

    def _new_worker(self) -> _Worker:
        worker = _Worker(self.context, self.function, self.private_folder)
        self.workers.append(worker)
        return worker

    def start(self, count: int) -> None:
        """Start ``count`` workers, then give each its first job."""
        for _ in range(count):
            self._new_worker()
        for worker in self.workers:
            if self.pending:
                self.assign(worker)

    def assign(self, worker: _Worker) -> None:
        """Send the next pending job to ``worker``."""
        worker.position = self.pending.pop(0)
        worker.conn.send(self.jobs[worker.position])
        self.busy[worker.conn] = worker
        self.busy[worker.process.sentinel] = worker

    def collect(self, ready: Any) -> tuple[_Worker | None, int, str, Any] | None:
        """The job that ended on ``ready``: the worker free for another job (``None``: it
        died and none is needed in its place), the job's position, its state and value."""
        worker = self.busy.get(ready)
        if worker is None or worker.position is None:
            return None
        position = worker.position
        del self.busy[worker.conn], self.busy[worker.process.sentinel]
        worker.position = None
        try:
            state, value = worker.conn.recv() if ready is worker.conn else ("died", None)
        except (EOFError, OSError):
            state, value = "died", None
        if state != "died":
            return worker, position, state, value
        # its pipe can close before the process is reaped: wait for its exit code
        worker.process.join(timeout=WORKER_EXIT_SECONDS)
        code = worker.process.exitcode
        worker.kill()
        self.workers.remove(worker)
        replacement = self._new_worker() if self.pending else None
        return replacement, position, "died", f"worker process ended (exit code {code})"

    def stop(self) -> None:
        """Tell every worker there is no more work."""
        for worker in self.workers:
            worker.conn.send(None)

    def kill(self) -> None:
        for worker in self.workers:
            worker.kill()
