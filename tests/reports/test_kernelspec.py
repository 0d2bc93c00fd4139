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


def test_papermill_run_directly_starts_the_kits_launcher(tmp_path, capfd):
    """The environment's python3 kernelspec, as make venv installs it; the kernel (on a
    loopback address) does not print ipykernel's warning that TCP is unencrypted."""
    cell = nbformat.v4.new_code_cell("import sys\nprint(sys.argv[0])")
    notebook = nbformat.v4.new_notebook(cells=[cell])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbformat.write(notebook, tmp_path / "argv.ipynb")
    papermill.execute_notebook(
        str(tmp_path / "argv.ipynb"), str(tmp_path / "out.ipynb"), progress_bar=False
    )
    out = nbformat.read(tmp_path / "out.ipynb", as_version=4)
    assert out.cells[0].outputs[0]["text"].strip().endswith("reports/kernel_launch.py")
    assert "without encryption" not in capfd.readouterr().err


def test_only_the_kits_kernelspec_asks_for_interrupts_as_messages(tmp_path):
    kit = json.loads((install_kernelspec(str(tmp_path)) / "kernel.json").read_text())
    assert kit["interrupt_mode"] == "message"
    back = install_kernelspec(str(tmp_path), IPYKERNEL_LAUNCHER)
    assert "interrupt_mode" not in json.loads((back / "kernel.json").read_text())


def _kind_and_parent(message):
    return message["msg_type"], message["parent_header"].get("msg_id")


def _reply(client, code, interrupt=None):
    """Run ``code``; with ``interrupt``, call it once the cell's code has printed
    ``started`` (so the interrupt lands in the notebook's code, not in the kernel's
    handling of the request around it). The reply."""
    msg_id = client.execute(code)
    if interrupt is not None:
        while True:
            message = client.get_iopub_msg(timeout=30)
            if _kind_and_parent(message) == ("stream", msg_id) and "started" in message[
                "content"
            ].get("text", ""):
                break
        interrupt()
    while True:
        reply = client.get_shell_msg(timeout=30)
        if _kind_and_parent(reply) == ("execute_reply", msg_id):
            return reply["content"]


def _interrupt_idle(client):
    """Send an interrupt request on the control channel and wait for its answer, so that
    the kernel handles it before any later request (jupyter_client's
    ``KernelManager.interrupt_kernel`` sends it on a socket of its own and does not wait:
    the next cell could start before the interrupt arrives, and it would no longer be an
    idle interrupt)."""
    request = client.session.msg("interrupt_request", {})
    client.control_channel.send(request)
    while True:
        reply = client.get_control_msg(timeout=30)
        if _kind_and_parent(reply) == ("interrupt_reply", request["header"]["msg_id"]):
            return reply["content"]


def _statuses_until_ok(client, code, tries=5):
    """Run ``code`` after a cell that failed until it runs; the statuses, ``aborted`` but the
    last. ipykernel sends a failed cell's reply *before* it starts aborting the requests
    queued behind it (``stop_on_error``), and stops aborting through a message of its own
    on the shell-channel thread: a request sent at once on the reply can arrive first and
    be aborted (seen once in a clean-clone CI run on 2026-12-04, ipykernel 7.4.0). Any
    ipykernel kernel does this; it is not what the test is about."""
    statuses = []
    while len(statuses) < tries and "ok" not in statuses:
        statuses.append(_reply(client, code)["status"])
    assert statuses[:-1] == ["aborted"] * (len(statuses) - 1), statuses
    return statuses


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
            assert _interrupt_idle(client)["status"] == "ok"  # answered, nothing signalled
            assert _reply(client, "x = 1")["status"] == "ok"
            code = "import time\nprint('started', flush=True)\ntime.sleep(60)"
            reply = _reply(client, code, manager.interrupt_kernel)
            assert (reply["status"], reply["ename"]) == ("error", "KeyboardInterrupt")
            assert _statuses_until_ok(client, "x + 1")[-1] == "ok"  # the kernel lives on
        finally:
            client.stop_channels()
            manager.shutdown_kernel()
    said = (tmp_path / "kernel.log").read_text()
    assert said.count("Interrupt request with no code running: nothing to interrupt") >= 1
    assert "KeyboardInterrupt caught in kernel" not in said


def test_an_interrupt_sent_as_a_cell_starts_never_costs_the_cells_reply(tmp_path):
    """An interrupt that reaches the kernel while it handles the request around a cell
    (not the cell's code) must be ignored: ipykernel catches a signal there and sends no
    reply, and the client would wait for its timeout. Sent just before each of 40 cells,
    as jupyter_client's ``interrupt_kernel`` does it (its own socket, no waiting): with
    the whole request counted as running code, 3 to 10 of 40 cells got no reply on two
    busy cores."""
    from jupyter_client import KernelManager

    manager = KernelManager(kernel_name="python3")
    with open(tmp_path / "kernel.log", "w") as log:
        manager.start_kernel(extra_arguments=["--debug"], stdout=log, stderr=log)
        client = manager.client()
        client.start_channels()
        try:
            client.wait_for_ready(timeout=60)
            replies = []
            for number in range(40):
                manager.interrupt_kernel()
                replies.append(_reply(client, f"x = {number}"))  # waits 30 s at most
        finally:
            client.stop_channels()
            manager.shutdown_kernel()
    # Every cell answered. An interrupt that lands in the cell's own code (a few
    # microseconds of it) stops it, as it should, and ipykernel may then abort the next
    # request (see _statuses_until_ok); anything else is a defect.
    for before, reply in zip([{"status": "ok"}, *replies[:-1]], replies, strict=True):
        interrupted = reply["status"] == "error" and reply.get("ename") == "KeyboardInterrupt"
        aborted = reply["status"] == "aborted" and before["status"] != "ok"
        assert reply["status"] == "ok" or interrupted or aborted, (before, reply)
    assert sum(reply["status"] == "ok" for reply in replies) >= 30, replies
    assert "KeyboardInterrupt caught in kernel" not in (tmp_path / "kernel.log").read_text()
