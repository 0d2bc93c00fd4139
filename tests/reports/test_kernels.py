"""How the report runner starts kernels, and what its kernel log keeps.

Tiny notebooks (one kernel each) run through :func:`execute_notebooks`, as the runner
runs them. Kernel-start failures are provoked for real: a test kernelspec
(``tcsexam-test-flaky``, found through ``JUPYTER_PATH``) starts ipykernel after, for its
first N starts, taking the kernel's control port itself (TCP: ipykernel then dies with
``ZMQError: Address already in use``, the race of issue 20) or exiting with a message
(IPC, where no port is chosen). TCP is forced by replacing the runner's transport choice.
The shutdown race of ipykernel (a kernel hanging, or failing, on its way out) is provoked
for real too: a test kernelspec (``tcsexam-test-slow-flush``) holds the control thread's
last flush in the window where the race happens, and runs either ipykernel's application
or the kit's launcher.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
import pytest
import zmq
from conftest import tiny_notebook

from tcsexam_lib.reports import execute
from tcsexam_lib.reports.execute import NotebookJob, execute_notebooks
from tcsexam_lib.reports.kernels import KERNEL_STARTS, SOCKET_PATH_MAX, TCP_WARNING

FLAKY = "tcsexam-test-flaky"

LAUNCHER = """\
import json, os, socket, sys
from pathlib import Path

connection_file = sys.argv[sys.argv.index("-f") + 1]
starts = Path(os.environ["TCS_TEST_KERNEL_STARTS"])
start = len(list(starts.iterdir())) + 1
(starts / str(start)).write_text(connection_file)
info = json.loads(Path(connection_file).read_text())
if start <= int(os.environ["TCS_TEST_KERNEL_FAILS"]):
    if info["transport"] != "tcp":
        sys.exit(f"simulated start failure {start} (no port to take over IPC)")
    taken = socket.socket()  # another process takes the kernel's control port first
    taken.bind((info["ip"], info["control_port"]))
    taken.listen()
from ipykernel.kernelapp import launch_new_instance

sys.argv = [sys.argv[0], "-f", connection_file]
launch_new_instance()
"""

REPORT_CONNECTION = """\
import json, os
from ipykernel.connect import get_connection_file
info = json.load(open(get_connection_file()))
folder = os.path.dirname(get_connection_file())
print(json.dumps({"transport": info["transport"], "ip": info["ip"], "folder": folder,
                  "mode": oct(os.stat(folder).st_mode & 0o777)}))
"""


SLOW_FLUSH = "tcsexam-test-slow-flush"

SLOW_FLUSH_LAUNCHER = """\
import os, sys, threading, time
from ipykernel import iostream
from ipykernel.ipkernel import IPythonKernel

shutting_down = threading.Event()
shutdown_request = IPythonKernel.shutdown_request


async def record_shutdown(self, *args):
    await shutdown_request(self, *args)
    shutting_down.set()


event_pipe = iostream.IOPubThread._event_pipe


def slow_event_pipe(self):
    # the control thread's last flush, held after its check that the IOPub thread still
    # runs and before its write: the window in which the main thread reaches the exit
    # handlers (which stop the IOPub thread)
    if shutting_down.is_set() and threading.current_thread().name == "Control":
        shutting_down.clear()  # the first write after the shutdown reply only
        time.sleep(0.5)
    return event_pipe.fget(self)


IPythonKernel.shutdown_request = record_shutdown
iostream.IOPubThread._event_pipe = property(slow_event_pipe)
sys.argv = [sys.argv[0], "-f", sys.argv[sys.argv.index("-f") + 1]]
if os.environ["TCS_TEST_KERNEL_APP"] == "ipykernel":
    from ipykernel.kernelapp import launch_new_instance

    launch_new_instance()
else:
    from tcsexam_lib.reports.kernel_launch import main

    main()
"""


def _kernelspec(tmp_path: Path, name: str, launcher: str) -> None:
    """A kernelspec ``name`` (found through ``JUPYTER_PATH``) that runs ``launcher``."""
    spec = tmp_path / "jupyter" / "kernels" / name
    spec.mkdir(parents=True)
    script = tmp_path / f"{name}.py"
    script.write_text(launcher)
    argv = [sys.executable, str(script), "-f", "{connection_file}"]
    kernel = {"argv": argv, "display_name": f"{name} (test)", "language": "python"}
    (spec / "kernel.json").write_text(json.dumps(kernel))


@pytest.fixture
def flaky_kernel(tmp_path, monkeypatch):
    """The flaky kernelspec; returns a function that sets how many starts fail."""
    _kernelspec(tmp_path, FLAKY, LAUNCHER)
    starts = tmp_path / "starts"
    starts.mkdir()
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    monkeypatch.setenv("TCS_TEST_KERNEL_STARTS", str(starts))

    def failing(n: int) -> Path:
        monkeypatch.setenv("TCS_TEST_KERNEL_FAILS", str(n))
        return starts

    return failing


def _job(tmp_path: Path, name: str, body: str, kernel: str = "python3") -> NotebookJob:
    source = tmp_path / "notebooks" / f"{name}.ipynb"
    source.parent.mkdir(exist_ok=True)
    tiny_notebook(source, body)
    if kernel != "python3":
        notebook = nbformat.read(source, as_version=4)
        notebook.metadata.kernelspec.name = kernel
        nbformat.write(notebook, source)
    log = tmp_path / "run" / "report-kernels.log"
    log.parent.mkdir(exist_ok=True)
    return NotebookJob(
        label=f"run/m/{name}",
        name=name,
        source=source,
        folder=tmp_path / "run" / "models" / "m",
        parameters={"model": "m", "suite": "s"},
        log=log,
    )


def _run(jobs: list[NotebookJob], workers: int = 2) -> tuple[list, list[str], str]:
    said: list[str] = []
    outcomes = execute_notebooks(jobs, workers, said.append)
    log = jobs[0].log.read_text(encoding="utf-8")
    return outcomes, said, log


def _force_tcp(monkeypatch) -> None:
    monkeypatch.setattr(execute, "kernel_transport", lambda folder: ("tcp", "forced by a test"))


def test_kernels_talk_over_ipc_in_a_private_folder_removed_after_the_run(tmp_path):
    jobs = [_job(tmp_path, name, REPORT_CONNECTION) for name in ("a", "b")]
    outcomes, said, log = _run(jobs)
    assert [o.ok for o in outcomes] == [True, True], [o.error for o in outcomes]
    seen = []
    for outcome in outcomes:
        notebook = nbformat.read(outcome.executed, as_version=4)
        seen.append(json.loads(notebook.cells[-1].outputs[0]["text"]))
    assert {s["transport"] for s in seen} == {"ipc"}
    assert {s["mode"] for s in seen} == {"0o700"}  # no other user can reach a kernel
    (folder,) = {s["folder"] for s in seen}  # one private folder for the run ...
    assert len({s["ip"] for s in seen}) == 2  # ... and socket names of each kernel's own
    assert all(s["ip"].startswith(folder + "/") for s in seen)
    assert all(len(s["ip"]) + len("-5") < SOCKET_PATH_MAX for s in seen)
    assert not Path(folder).exists()  # removed after the run
    header, *lines = log.splitlines()
    assert header.startswith("[report runner] kernels started over IPC")
    assert all(line.startswith(("[run/m/a] ", "[run/m/b] ")) for line in lines), lines
    assert "KeyboardInterrupt" not in log and TCP_WARNING not in log
    assert not any("started again" in line for line in said)


def test_a_tcp_kernel_that_dies_before_kernel_info_is_started_again_and_logged(
    tmp_path, flaky_kernel, monkeypatch
):
    _force_tcp(monkeypatch)
    starts = flaky_kernel(1)
    jobs = [_job(tmp_path, "flaky", 'print("ran")', kernel=FLAKY)]
    (outcome,), said, log = _run(jobs, workers=1)
    assert outcome.ok, outcome.error
    assert len(list(starts.iterdir())) == 2
    cause = "kernel start 1 of 3: the kernel exited with code 1 before replying to kernel_info"
    assert outcome.kernel_retries == (cause,)
    assert said == [f"[1/1] ok run/m/flaky ({outcome.seconds:.1f} s; its kernel was started "
                    f"again once: {cause})"]  # fmt: skip
    notebook = nbformat.read(outcome.executed, as_version=4)
    assert notebook.cells[-1].outputs[0]["text"] == "ran\n"
    lines = log.splitlines()
    assert lines[0].startswith("[report runner] kernels started over TCP on 127.0.0.1 (forced")
    assert lines[1] == f"[report runner] ipykernel warns: {TCP_WARNING} (the kit's launcher " + (
        "drops it on 127.0.0.1; any other kernel's is said once here, not repeated below)"
    )
    assert not any(TCP_WARNING in line for line in lines[2:])  # not once per kernel
    assert all(line.startswith("[run/m/flaky] ") for line in lines[2:])  # names its notebook
    body = "\n".join(line.removeprefix("[run/m/flaky] ") for line in lines[2:])
    # the kernel's own error, whole: its traceback from the first line to the error
    assert "Traceback (most recent call last):" in body
    assert "zmq.error.ZMQError: Address already in use" in body
    assert body.index("Traceback") < body.index("Address already in use")
    assert f"{cause}; starting a new kernel on new ports" in body
    assert "KeyboardInterrupt" not in log


@pytest.mark.parametrize(
    ("transport", "starts", "how"),
    [
        ("tcp", KERNEL_STARTS, f"at each of its {KERNEL_STARTS} starts over TCP (exit code 1)"),
        ("ipc", 1, "(exit code 1; over IPC, not started again: no port race can cause it)"),
    ],
)
def test_a_kernel_that_never_starts_fails_its_notebook_after_bounded_starts(
    tmp_path, flaky_kernel, monkeypatch, transport, starts, how
):
    if transport == "tcp":
        _force_tcp(monkeypatch)
    started = flaky_kernel(99)
    jobs = [
        _job(tmp_path, "flaky", 'print("never")', kernel=FLAKY),
        _job(tmp_path, "fine", 'print("ran")'),
    ]
    (flaky, fine), said, log = _run(jobs)
    assert fine.ok, fine.error  # the others finish
    assert not flaky.ok and len(list(started.iterdir())) == starts
    assert flaky.error == (
        f"KernelStartFailed: the kernel died before replying to kernel_info {how}; its "
        "messages are in report-kernels.log"
    )
    assert len(flaky.kernel_retries) == starts - 1
    assert any(line.startswith("[") and "FAILED run/m/flaky: KernelStartFailed" in line
               for line in said)  # fmt: skip
    assert flaky.executed.is_file()  # the notebook, unexecuted, can still be read
    flaky_lines = [line for line in log.splitlines() if line.startswith("[run/m/flaky] ")]
    if transport == "tcp":
        assert sum("ZMQError: Address already in use" in line for line in flaky_lines) == starts
    else:
        assert "[run/m/flaky] simulated start failure 1 (no port to take over IPC)" in flaky_lines
    assert all(line.startswith(("[report runner] ", "[run/m/")) for line in log.splitlines())


def test_a_worker_that_dies_reports_its_notebook_failed_and_the_others_finish(tmp_path):
    kill_worker = (  # the worker's pid names the kernel's connection file: k<pid>-<n>.json
        "import os, signal\nfrom ipykernel.connect import get_connection_file\n"
        "os.kill(int(os.path.basename(get_connection_file())[1:].split('-')[0]), signal.SIGKILL)"
    )
    jobs = [_job(tmp_path, "killer", kill_worker), _job(tmp_path, "fine", 'print("ran")')]
    (killer, fine), said, log = _run(jobs, workers=1)
    assert fine.ok, fine.error
    assert killer.error == "worker failed: worker process ended (exit code -9)"
    assert "[run/m/killer] worker failed: worker process ended (exit code -9)" in log.splitlines()
    assert "FAILED run/m/killer: worker failed: worker process ended (exit code -9)" in said[0]


REPORT_KERNEL_APP = """\
from ipykernel.kernelapp import IPKernelApp
print(type(IPKernelApp.instance()).__name__)
"""


def test_the_kits_kernel_runs_with_the_kits_launcher_and_stops_cleanly(tmp_path):
    jobs = [_job(tmp_path, name, REPORT_KERNEL_APP) for name in ("a", "b")]
    outcomes, _, log = _run(jobs)
    for outcome in outcomes:
        notebook = nbformat.read(outcome.executed, as_version=4)
        assert notebook.cells[-1].outputs[0]["text"] == "ReportKernelApp\n"
    assert log.splitlines()[1:] == []  # nothing but the header: every kernel stopped cleanly


@pytest.mark.parametrize("app", ["ipykernel", "kit"])
def test_a_kernel_stops_cleanly_when_its_last_flush_races_the_exit(tmp_path, monkeypatch, app):
    """ipykernel's own application, its control thread held in the race window, fails on
    its way out (the kit's runner reports it); the kit's launcher stops cleanly."""
    _kernelspec(tmp_path, SLOW_FLUSH, SLOW_FLUSH_LAUNCHER)
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    monkeypatch.setenv("TCS_TEST_KERNEL_APP", app)
    jobs = [_job(tmp_path, "race", 'print("ran")', kernel=SLOW_FLUSH)]
    (outcome,), _, log = _run(jobs, workers=1)
    assert outcome.ok, outcome.error  # the notebook itself ran either way
    lines = log.splitlines()[1:]
    assert all(line.startswith("[run/m/race] ") for line in lines), lines
    if app == "kit":
        assert lines == []
    else:  # the control thread writes into the closed IOPub pipe: an error, or a hang
        text = "\n".join(lines)
        assert "ZMQError" in text or "stopped with SIGTERM" in text, text


def test_the_runners_client_tries_a_kernel_not_yet_bound_again_within_milliseconds():
    # zmq's default, 100 ms, was what each forked kernel (bound 0.05 s after its fork) waited
    from tcsexam_lib.reports.kernel_client import RECONNECT_MS, ReportKernelClient

    client = ReportKernelClient()
    try:
        assert RECONNECT_MS <= 10
        assert client.shell_channel.socket.getsockopt(zmq.RECONNECT_IVL) == RECONNECT_MS
    finally:
        client.stop_channels()
        client.context.destroy(linger=0)
