"""The run's kernel server: each notebook's kernel forked warm, alone, and gone with the run.

Tiny notebooks run through :func:`execute_notebooks`, as the runner runs them; a kernel
shows it was forked by its parent (the server, ``kernel_launch --serve``) and by pandas
being loaded before it imports it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
from conftest import tiny_notebook

from tcsexam_lib.reports import kernels
from tcsexam_lib.reports.execute import NotebookJob, execute_notebooks

DEADLINE = 60.0

WHO = """\
import json, os, sys
print(json.dumps({"parent": open(f"/proc/{os.getppid()}/cmdline").read().split("\\0"),
                  "warm": "pandas" in sys.modules}))
"""

CHANGE = """\
import builtins, os, matplotlib, tcsexam_lib.views as views
LEAK = builtins.LEAK = views.LEAK = "changed"
matplotlib.rcParams["lines.linewidth"] = 9.0
os.environ["TCS_TEST_LEAK"] = "changed"
os.chdir("/")
"""

SHOW = """\
import builtins, json, os, matplotlib, tcsexam_lib.views as views
print(json.dumps([globals().get("LEAK"), getattr(builtins, "LEAK", None),
                  getattr(views, "LEAK", None), matplotlib.rcParams["lines.linewidth"],
                  os.environ.get("TCS_TEST_LEAK"), os.path.basename(os.getcwd())]))
"""


def _job(tmp_path: Path, name: str, body: str) -> NotebookJob:
    source = tmp_path / "notebooks" / f"{name}.ipynb"
    source.parent.mkdir(exist_ok=True)
    tiny_notebook(source, body)
    return NotebookJob(label=f"run/{name}", name=name, source=source,
                       folder=tmp_path / "run" / name, parameters={},
                       log=tmp_path / "report-kernels.log")  # fmt: skip


def _printed(outcome) -> object:
    assert outcome.ok, outcome.error
    notebook = nbformat.read(outcome.executed, as_version=4)
    return json.loads(notebook.cells[-1].outputs[0]["text"])


def test_a_forked_kernel_changes_nothing_the_next_notebook_sees(tmp_path):
    jobs = [_job(tmp_path, "who", WHO + CHANGE), _job(tmp_path, "show", SHOW)]
    who, show = execute_notebooks(jobs, 1, lambda _: None)  # one worker, one after the other
    assert _printed(who)["warm"] and "--serve" in _printed(who)["parent"]
    assert _printed(show) == [None, None, None, 1.5, None, "show"]
    assert (tmp_path / "report-kernels.log").read_text().count("\n") == 1  # its header only


def test_kernels_start_cold_when_the_server_is_off_or_does_not_start(tmp_path, monkeypatch):
    monkeypatch.setenv(kernels.KERNEL_SERVER_ENV, "off")
    (cold,) = execute_notebooks([_job(tmp_path, "off", WHO)], 1, lambda _: None)
    assert not _printed(cold)["warm"] and "--serve" not in _printed(cold)["parent"]
    assert (tmp_path / "report-kernels.log").read_text().count("\n") == 1  # off by choice
    monkeypatch.delenv(kernels.KERNEL_SERVER_ENV)
    monkeypatch.setattr(kernels, "_kernel_prefix", lambda: [sys.executable, "-c", "exit('gone')"])
    (cold,) = execute_notebooks([_job(tmp_path, "broken", SHOW)], 1, lambda _: None)
    assert _printed(cold)[-1] == "broken"
    assert (
        "[report runner] kernels started cold, through the kit's launcher: the kernel "
        "server did not start (exit code 1; gone)"
    ) in (tmp_path / "report-kernels.log").read_text()


RUNNER = """\
import sys
from pathlib import Path
from tcsexam_lib.reports.execute import NotebookJob, execute_notebooks

if __name__ == "__main__":
    folder = Path(sys.argv[1])
    job = NotebookJob(label="run/wait", name="wait", source=folder / "wait.ipynb",
                      folder=folder / "run", parameters={})
    execute_notebooks([job], 1, print)
"""

WAIT = """\
import os, time
from pathlib import Path
Path("{pids}").write_text(f"{{os.getppid()}} {{os.getpid()}}")
time.sleep(120)
"""


def _gone(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z"
    except OSError:
        return True


def test_the_server_and_its_kernels_die_with_a_killed_runner(tmp_path):
    pids = tmp_path / "pids"
    tiny_notebook(tmp_path / "wait.ipynb", WAIT.format(pids=pids))
    (tmp_path / "runner.py").write_text(RUNNER)
    runner = subprocess.Popen([sys.executable, str(tmp_path / "runner.py"), str(tmp_path)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        deadline = time.monotonic() + DEADLINE
        while not pids.exists() or not pids.read_text():
            assert time.monotonic() < deadline and runner.poll() is None, "no kernel ran"
            time.sleep(0.05)
        server, kernel = map(int, pids.read_text().split())
        assert "--serve" in Path(f"/proc/{server}/cmdline").read_text()
        os.kill(runner.pid, signal.SIGKILL)
        runner.wait()
        while not (_gone(server) and _gone(kernel)):
            assert time.monotonic() < deadline, "the server or its kernel outlived the runner"
            time.sleep(0.05)
    finally:
        runner.kill()
