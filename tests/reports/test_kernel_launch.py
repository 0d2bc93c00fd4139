"""The report kernel's launcher (tcsexam_lib/reports/kernel_launch.py): its channel threads
stopped and joined, the notebook's running code counted, and what it warns of when ipykernel
no longer has what it wraps."""

from __future__ import annotations

import asyncio
import threading
import warnings

from tcsexam_lib.reports.kernel_launch import (
    RunningCode,
    stop_channel_threads,
    track_user_code,
)


class _Channel(threading.Thread):
    def __init__(self) -> None:
        super().__init__()
        self.stopping = threading.Event()

    def run(self) -> None:
        self.stopping.wait()

    def stop(self) -> None:
        self.stopping.set()


def test_a_live_channel_thread_is_stopped_joined_and_named() -> None:
    class App:
        control_thread = _Channel()

    App.control_thread.start()
    assert stop_channel_threads(App()) == ["control_thread"]
    assert not App.control_thread.is_alive()


def test_a_cell_counts_as_running_code_while_it_runs() -> None:
    code, seen = RunningCode(), []

    class Shell:
        async def run_code(self, code_obj, result=None, *, async_=False):
            seen.append(code.running)

    shell = Shell()
    assert code.track_cells(shell)
    asyncio.run(shell.run_code(None))
    assert seen == [True]
    assert not code.running


def test_a_kernel_without_run_code_is_not_tracked_and_warned_of() -> None:
    class Kernel:
        shell = None

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code = track_user_code(Kernel(), "9.0.0")
    assert code is None
    assert "IPythonKernel.shell.run_code" in str(caught[-1].message)
