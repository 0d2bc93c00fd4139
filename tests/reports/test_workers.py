"""Interrupting ``tcsexam report``: Ctrl-C and SIGKILL leave no process and no mixed pages.

Each test runs the real console script in its own session (``start_new_session``), on
the test-only run set with tiny notebooks: a quick one publishes a first run, then a
notebook that records its kernel's process id and sleeps is interrupted. Whatever
happens, every process of the session and every recorded kernel is killed at the end.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from conftest import tcsexam_command, tiny_notebook, write_run_set

from tcsexam_lib.reports.kernels import RUNTIME_PREFIX
from tcsexam_lib.reports.publish import remove_stale_staging
from tcsexam_lib.reports.store import STORE, Store

SLEEPY = (
    "import os, pathlib, time\n"
    "pathlib.Path(os.environ['TCS_TEST_PIDS'], str(os.getpid())).write_text('')\n"
    "time.sleep(120)"
)


def _ctrl_c_as_in_a_terminal() -> None:
    """SIGINT as a terminal's foreground command has it, whatever started the tests.

    A shell without job control starts a command run in the background (``cmd &``, as a
    CI script may run the tests) with SIGINT ignored, and that is inherited: Python then
    installs no Ctrl-C handler, and the run would go on as the shell asked (measured: the
    test waited 30 s). The runner is meant to be tested as a terminal's Ctrl-C finds it.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is gone for our purpose
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def _session_pids(sid: int) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.getsid(int(entry.name)) == sid and _alive(int(entry.name)):
                    pids.append(int(entry.name))
            except (ProcessLookupError, PermissionError):
                continue
    return pids


#: Seconds a wait may last: a bound on a hang, never a speed requirement (benchmarks show speed).
HANG = 60.0


def _wait_until(condition, timeout: float = HANG) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


@pytest.fixture
def run_set(ws, tmp_path):
    """A published first run (quick notebooks), and a sleepy notebook folder for the next.

    The runs get a temporary folder of their own (short: kernels' sockets live there), to
    check that the run's private kernel folder is removed however the run ends.
    """
    quick, sleepy, pids = tmp_path / "quick", tmp_path / "sleepy", tmp_path / "pids"
    for folder in (quick, sleepy, pids):
        folder.mkdir()
    temp = Path(tempfile.mkdtemp(prefix="tcs-test-", dir="/tmp"))
    tiny_notebook(quick / "index.ipynb", 'print("first run of", model)')
    tiny_notebook(sleepy / "index.ipynb", SLEEPY)
    path = write_run_set(ws, notebooks=["index"])
    env = {**os.environ, "TCS_TEST_PIDS": str(pids), "TMPDIR": str(temp)}
    env.pop("TCSEXAM_REFERENCES", None)
    first = subprocess.run(
        [*tcsexam_command(), "report", str(path), "--notebooks-dir", str(quick)],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert first.returncode == 0, first.stderr
    out = ws.root / "out"
    published = {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    started: list[subprocess.Popen] = []

    def start() -> subprocess.Popen:
        process = subprocess.Popen(
            [*tcsexam_command(), "report", str(path), "--notebooks-dir", str(sleepy)],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            start_new_session=True, preexec_fn=_ctrl_c_as_in_a_terminal,
        )  # fmt: skip
        started.append(process)
        assert _wait_until(lambda: any(pids.iterdir())), "no kernel started"
        assert len(_kernel_folders(temp)) == 1  # the run's private folder, while it runs
        return process

    yield out, published, pids, start, temp
    for process in started:  # never leave a process behind
        for pid in _session_pids(process.pid):
            os.kill(pid, signal.SIGKILL)
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)
    for pid_file in pids.iterdir():
        if _alive(int(pid_file.name)):
            os.kill(int(pid_file.name), signal.SIGKILL)
    shutil.rmtree(temp, ignore_errors=True)


def _kernel_folders(temp: Path) -> list[Path]:
    return [p for p in temp.iterdir() if p.name.startswith(RUNTIME_PREFIX)]


def _snapshot(out: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_ctrl_c_stops_promptly_in_one_line_and_publishes_nothing_half_done(run_set):
    out, published, pids, start, temp = run_set
    process = start()
    os.killpg(process.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
    _, err = process.communicate(timeout=HANG)  # stops at all (how fast: benchmarks)
    assert process.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert err.strip().splitlines()[-1] == (
        "tcsexam report: interrupted (SIGINT); nothing unfinished was published"
    )
    assert _wait_until(lambda: not _session_pids(process.pid)), _session_pids(process.pid)
    kernels = [int(p.name) for p in pids.iterdir()]
    assert _wait_until(lambda: not any(map(_alive, kernels))), kernels
    assert _snapshot(out) == published  # the first run, untouched; no staging folder left
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == [STORE]
    assert Store(out).verify() == []
    assert _kernel_folders(temp) == []


def test_after_sigkill_workers_and_kernels_stop_and_the_published_run_stays(run_set):
    out, published, pids, start, temp = run_set
    process = start()
    os.kill(process.pid, signal.SIGKILL)  # the runner alone: no clean-up runs in it
    process.wait(timeout=HANG)
    assert _wait_until(lambda: not _session_pids(process.pid)), _session_pids(process.pid)
    kernels = [int(p.name) for p in pids.iterdir()]
    assert _wait_until(lambda: not any(map(_alive, kernels))), kernels
    # no process that could write is left: what is on disk now is what stays
    assert _wait_until(lambda: _kernel_folders(temp) == []), _kernel_folders(temp)
    published_now = {p: b for p, b in _snapshot(out).items() if not p.relative_to(out)
                     .as_posix().startswith(".lite")}  # fmt: skip
    assert published_now == published  # nothing written where a reader looks
    assert sorted(p.name.split("-")[0] for p in out.iterdir() if p.name.startswith(".")) == [
        ".lite",
        STORE.split("-")[0],
    ]  # the killed run's staging folder (the next run removes it), and the store
    assert Store(out).verify() == []  # consistent: nothing half-written is named
    assert [p.name for p in remove_stale_staging(out)] == [f".lite-offline.staging-{process.pid}"]


def test_a_worker_that_dies_is_reported_and_replaced_while_jobs_remain():
    """``run_jobs`` with one worker: each job ends its worker's process (``os._exit``
    with the job as exit code), so every job after the first runs in a replacement."""
    from tcsexam_lib.reports.workers import run_jobs

    results: dict[int, tuple[str, str]] = {}
    run_jobs([3, 4, 5], 1, os._exit, lambda k, state, value: results.update({k: (state, value)}))
    assert results == {
        k: ("died", f"worker process ended (exit code {code})") for k, code in enumerate((3, 4, 5))
    }
