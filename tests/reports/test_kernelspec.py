"""The environment's kernelspec (``reports/kernelspec.py``): papermill run directly and
JupyterLab start the kit's launcher, the kernel that stops cleanly."""

from __future__ import annotations

import json

import nbformat
import papermill

from tcsexam_lib.reports.kernelspec import IPYKERNEL_LAUNCHER, KIT_LAUNCHER, install_kernelspec


def test_the_kernelspec_names_the_kits_launcher_and_ipykernels_names(tmp_path):
    folder = install_kernelspec(str(tmp_path))
    spec = json.loads((folder / "kernel.json").read_text())
    assert folder.name == "python3" and spec["display_name"] == "Python 3 (ipykernel)"
    assert spec["argv"][spec["argv"].index("-m") + 1] == KIT_LAUNCHER
    back = install_kernelspec(str(tmp_path), IPYKERNEL_LAUNCHER)
    assert IPYKERNEL_LAUNCHER in json.loads((back / "kernel.json").read_text())["argv"]


def test_papermill_run_directly_starts_the_kits_launcher(tmp_path):
    """The environment's python3 kernelspec, as make venv installs it."""
    cell = nbformat.v4.new_code_cell("import sys\nprint(sys.argv[0])")
    notebook = nbformat.v4.new_notebook(cells=[cell])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbformat.write(notebook, tmp_path / "argv.ipynb")
    papermill.execute_notebook(
        str(tmp_path / "argv.ipynb"), str(tmp_path / "out.ipynb"), progress_bar=False
    )
    out = nbformat.read(tmp_path / "out.ipynb", as_version=4)
    assert out.cells[0].outputs[0]["text"].strip().endswith("reports/kernel_launch.py")


def test_only_the_kits_kernelspec_asks_for_interrupts_as_messages(tmp_path):
    kit = json.loads((install_kernelspec(str(tmp_path)) / "kernel.json").read_text())
    assert kit["interrupt_mode"] == "message"
    back = install_kernelspec(str(tmp_path), IPYKERNEL_LAUNCHER)
    assert "interrupt_mode" not in json.loads((back / "kernel.json").read_text())


def _kind_and_parent(message):
    return message["msg_type"], message["parent_header"].get("msg_id")


def _reply(client, code, interrupt=None):
    """Run ``code``; with ``interrupt``, call it once the cell has started. The reply."""
    msg_id = client.execute(code)
    if interrupt is not None:
        started = ("execute_input", msg_id)
        while started != _kind_and_parent(client.get_iopub_msg(timeout=30)):
            pass
        interrupt()
    while True:
        reply = client.get_shell_msg(timeout=30)
        if _kind_and_parent(reply) == ("execute_reply", msg_id):
            return reply["content"]


def test_the_kits_kernel_interrupts_a_running_cell_and_ignores_an_idle_interrupt(tmp_path):
    """The environment's kernelspec (message interrupts) through jupyter_client, as
    papermill and JupyterLab start it; the kernel's debug log says what it did."""
    from jupyter_client import KernelManager

    manager = KernelManager(kernel_name="python3")
    assert manager.kernel_spec.interrupt_mode == "message"
    with open(tmp_path / "kernel.log", "w") as log:
        manager.start_kernel(extra_arguments=["--debug"], stdout=log, stderr=log)
        client = manager.client()
        client.start_channels()
        try:
            client.wait_for_ready(timeout=60)
            manager.interrupt_kernel()  # idle: answered, nothing signalled
            assert _reply(client, "x = 1")["status"] == "ok"
            reply = _reply(client, "import time\ntime.sleep(60)", manager.interrupt_kernel)
            assert (reply["status"], reply["ename"]) == ("error", "KeyboardInterrupt")
            assert _reply(client, "x + 1")["status"] == "ok"  # the kernel lives on
        finally:
            client.stop_channels()
            manager.shutdown_kernel()
    said = (tmp_path / "kernel.log").read_text()
    assert said.count("Interrupt request with no code running: nothing to interrupt") >= 1
    assert "KeyboardInterrupt caught in kernel" not in said
