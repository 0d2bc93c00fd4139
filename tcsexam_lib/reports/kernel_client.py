"""The report runner's papermill engine: where kernels start and how they stop.

Papermill's nbclient engine with the changes docs/reports.md ("How kernels are started")
explains; the private parts of jupyter_client it overrides are checked on import
(:func:`check_jupyter_client`). Imported only in the worker processes.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import signal
import socket
import sys
import time
from collections.abc import Callable
from queue import Empty
from typing import Any

import zmq
from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.manager import AsyncKernelManager
from papermill.clientwrap import PapermillNotebookClient
from papermill.engines import NBClientEngine, papermill_engines
from papermill.log import logger
from traitlets import Any as AnyTrait
from traitlets import Integer, Unicode, default

from ..errors import KernelStartFailed
from ..internals import LibraryChanged, broken_message, calls_missing, missing_names, say_untested
from .kernels import KERNEL_STARTS
from .kernelspec import KIT_LAUNCHER, with_launcher

#: The name this engine is registered under with papermill.
ENGINE = "tcsexam-report"

_KERNEL_NUMBERS = itertools.count(1)
#: How soon (ms) a socket of the runner tries again to reach a kernel that has not bound
#: its sockets yet: the client connects as the kernel starts, and zmq's default (100 ms)
#: is what a forked kernel, bound 0.05 s after its fork, waited each time (docs/speed.md).
RECONNECT_MS = 5


#: The launcher of the runner's kernels (``bench_kernel_stops`` swaps in ipykernel's).
REPORT_LAUNCHER = KIT_LAUNCHER


def report_kernel_cmd(cmd: list[str], python: str = sys.executable) -> list[str]:
    """A kernel command of this Python (``python``) with the kit's launcher in place of
    ipykernel's; any other kernel command is returned as it is.

    >>> report_kernel_cmd(["/env/python", "-m", "ipykernel_launcher", "-f", "k"], "/env/python")
    ['/env/python', '-m', 'tcsexam_lib.reports.kernel_launch', '-f', 'k']
    >>> report_kernel_cmd(["/other/python", "-m", "ipykernel_launcher"], "/env/python")
    ['/other/python', '-m', 'ipykernel_launcher']
    """
    ours = bool(cmd) and os.path.abspath(cmd[0]) == os.path.abspath(python)
    return with_launcher(cmd, REPORT_LAUNCHER) if ours else cmd


def describe_stop(code: int | None, forced: str) -> str:
    """What went wrong when a kernel stopped on its shutdown request ("" when nothing did).

    ``forced``: the signal sent because it had not exited in time ("" if none).

    >>> describe_stop(0, "")
    ''
    >>> describe_stop(-15, "SIGTERM")
    'the kernel had not exited after its shutdown request and was stopped with SIGTERM'
    >>> describe_stop(-6, "")
    'the kernel ended by signal SIGABRT after its shutdown request'
    """
    if forced:
        return f"the kernel had not exited after its shutdown request and was stopped with {forced}"
    if code is None or code == 0:
        return ""
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = str(-code)
        return f"the kernel ended by signal {name} after its shutdown request"
    return f"the kernel exited with code {code} after its shutdown request"


#: The jupyter_client releases the kernel manager was tested with (the lock pins 8.10.0;
#: 8.9.1's manager.py reads the same).
TESTED_JUPYTER_CLIENT = ("8.9", "8.11")

#: The private methods :class:`ReportKernelManager` overrides, each with the method of
#: jupyter_client's ``KernelManager`` that must call it for the override to run.
OVERRIDDEN = {
    "_async_interrupt_kernel": "_async_shutdown_kernel",
    "_async_send_kernel_sigterm": "_async_finish_shutdown",
    "_async_kill_kernel": "_async_finish_shutdown",
}
_RELIES = (
    "the report runner's kernel manager (tcsexam_lib/reports/kernel_client.py) overrides "
    "them to shut a kernel down without interrupting it and to report a kernel it had to "
    "stop by force; without them a kernel stopped by force would pass unreported"
)


def check_jupyter_client(manager_class: type, version: str) -> None:
    """Refuse a jupyter_client whose kernel manager no longer has, or no longer calls,
    the private methods the kit overrides; warn when its version is untested.

    >>> import jupyter_client
    >>> check_jupyter_client(AsyncKernelManager, jupyter_client.__version__)  # the locked one
    """
    wanted = [*OVERRIDDEN, *dict.fromkeys(OVERRIDDEN.values()), "shutting_down"]
    missing = [f"KernelManager.{name}" for name in missing_names(manager_class, wanted)]
    missing += [
        f"KernelManager.{caller} calling {name}"
        for name, caller in OVERRIDDEN.items()
        if hasattr(manager_class, caller) and calls_missing(getattr(manager_class, caller), [name])
    ]
    if missing:
        raise LibraryChanged(broken_message("jupyter_client", version, missing, _RELIES))
    say_untested("jupyter_client", version, TESTED_JUPYTER_CLIENT, _RELIES)


def _check_installed_jupyter_client() -> None:
    from jupyter_client import __version__
    from jupyter_client.provisioning import LocalProvisioner

    check_jupyter_client(AsyncKernelManager, __version__)
    missing = [f"LocalProvisioner.{n}" for n in missing_names(LocalProvisioner, ["process"])]
    reconcile = missing_names(AsyncKernelManager, ["_reconcile_connection_info"])
    missing += [f"KernelManager.{name}" for name in reconcile]
    if missing:  # how a kernel's exit code is read, and a forked kernel's connection
        raise LibraryChanged(broken_message("jupyter_client", __version__, missing, _RELIES))


_check_installed_jupyter_client()


class ForkedKernel:
    """A kernel forked by the run's kernel server (see :func:`.kernel_launch.serve`), with
    what jupyter_client uses of a ``Popen``: its exit code comes from the server."""

    stdin = stdout = stderr = returncode = None

    def __init__(self, address: str, cmd: list[str], env: dict[str, str], cwd: str) -> None:
        self.conn = socket.socket(socket.AF_UNIX)
        self.conn.connect(address)
        data = json.dumps({"argv": cmd, "env": env, "cwd": cwd}).encode()
        socket.send_fds(self.conn, [len(data).to_bytes(8, "big")], [1, 2])
        self.conn.sendall(data)
        answer = self.conn.makefile("rb").readline().decode()  # waits for the server's imports
        if not answer.startswith("pid "):
            self.conn.close()
            raise OSError(answer.strip() or "the kernel server ended without forking a kernel")
        self.pid = int(answer.split()[1])

    def poll(self) -> int | None:
        return self.wait(0.0)

    def wait(self, timeout: float | None = None) -> int | None:
        if self.returncode is None:
            self.conn.settimeout(timeout)
            with contextlib.suppress(TimeoutError, BlockingIOError):
                answer = self.conn.recv(64).decode()  # "exit N"; nothing: the server is gone
                self.returncode = int(answer.split()[1]) if answer else -signal.SIGKILL
                self.conn.close()
        return self.returncode

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class ReportKernelClient(AsyncKernelClient):
    """jupyter_client's client, ready once ``kernel_info`` is answered and IOPub has carried a
    message: no wait for 0.2 s of IOPub silence (nbclient matches outputs to requests)."""

    @default("context")
    def _context_default(self) -> Any:
        context = super()._context_default()
        context.setsockopt(zmq.RECONNECT_IVL, RECONNECT_MS)  # each socket made from it
        return context

    async def wait_for_ready(self, timeout: float | None = None) -> None:  # type: ignore[override]
        deadline = time.monotonic() + (float("inf") if timeout is None else timeout)
        while True:
            self.kernel_info()
            with contextlib.suppress(Empty):
                reply = await self.shell_channel.get_msg(timeout=1)
                if reply["msg_type"] == "kernel_info_reply":
                    await self.iopub_channel.get_msg(timeout=0.2)
                    return self._handle_kernel_info_reply(reply)
            if not await self.is_alive():
                raise RuntimeError("Kernel died before replying to kernel_info")
            if time.monotonic() > deadline:
                raise RuntimeError(f"Kernel didn't respond in {timeout} seconds")


class ReportKernelManager(AsyncKernelManager):
    """jupyter_client's kernel manager: the kit's launcher, forked by the run's kernel
    server when there is one, no interrupt before a shutdown, and a kernel that does not
    start warm or stop cleanly reported to ``on_stop``."""

    #: called with what went wrong when the kernel did not stop cleanly on its shutdown request
    on_stop: Callable[[str], None] | None = None
    #: the run's kernel server (its socket), "" for none
    kernel_server = ""

    @default("client_factory")
    def _default_client_factory(self) -> type:
        return ReportKernelClient

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        return report_kernel_cmd(super().format_kernel_cmd(extra_arguments))

    async def _async_launch_kernel(self, kernel_cmd: list[str], **kw: Any) -> None:
        if not self.kernel_server or KIT_LAUNCHER not in kernel_cmd:
            return await super()._async_launch_kernel(kernel_cmd, **kw)
        try:
            env, cwd = kw.get("env") or dict(os.environ), kw.get("cwd") or os.getcwd()
            process = ForkedKernel(self.kernel_server, kernel_cmd, env, cwd)
        except OSError as exc:
            if callable(self.on_stop):
                self.on_stop(f"kernel started cold, through the kit's launcher: the run's "
                             f"kernel server did not fork it ({exc})")  # fmt: skip
            return await super()._async_launch_kernel(kernel_cmd, **kw)
        provisioner: Any = self.provisioner
        provisioner.process, provisioner.pid, provisioner.pgid = process, process.pid, process.pid
        provisioner.cwd = cwd
        self._reconcile_connection_info(provisioner.connection_info)

    async def _async_interrupt_kernel(self) -> None:
        if self.shutting_down:
            return  # a shutdown request follows; a kernel that ignores it is killed
        await super()._async_interrupt_kernel()

    async def _async_finish_shutdown(
        self, waittime: float | None = None, pollinterval: float = 0.01, restart: bool = False
    ) -> None:
        # whether the kernel has exited is asked every 0.01 s, not 0.1 s (jupyter_client's)
        await super()._async_finish_shutdown(waittime, pollinterval, restart)

    async def _async_send_kernel_sigterm(self, restart: bool = False) -> None:
        self._forced = "SIGTERM"
        await super()._async_send_kernel_sigterm(restart=restart)

    async def _async_kill_kernel(self, restart: bool = False) -> None:
        self._forced = "SIGKILL"
        await super()._async_kill_kernel(restart=restart)

    async def shutdown_kernel(self, now: bool = False, restart: bool = False) -> None:  # type: ignore[override]
        process = _kernel_process(self)
        self._forced = ""
        await self._async_shutdown_kernel(now=now, restart=restart)
        if now or process is None:
            return  # killed on purpose, or not a process of ours to judge
        problem = describe_stop(process.poll(), self._forced)
        if problem and callable(self.on_stop):
            self.on_stop(problem)


def _kernel_process(km: Any) -> Any:
    """The kernel's process (a ``Popen``), when a local provisioner started it."""
    return getattr(getattr(km, "provisioner", None), "process", None)


class ReportNotebookClient(PapermillNotebookClient):
    """papermill's notebook client, its kernels placed and restarted as described above."""

    transport = Unicode("ipc", help="ipc or tcp")
    runtime_folder = Unicode("", help="the run's private folder (connection files, sockets)")
    kernel_starts = Integer(KERNEL_STARTS, help="starts allowed over TCP")
    on_retry = AnyTrait(None, allow_none=True, help="called with the cause of each retry")
    on_stop = AnyTrait(None, allow_none=True, help="called when a kernel does not stop cleanly")
    kernel_server = Unicode("", help="the run's kernel server (its socket), or none")

    @default("kernel_manager_class")
    def _default_kernel_manager_class(self) -> type:
        return ReportKernelManager

    def create_kernel_manager(self) -> Any:
        km = super().create_kernel_manager()
        km.transport = self.transport
        km.on_stop = self.on_stop
        km.kernel_server = self.kernel_server
        if self.runtime_folder:
            name = os.path.join(self.runtime_folder, f"k{os.getpid()}-{next(_KERNEL_NUMBERS)}")
            km.connection_file = name + ".json"
            if self.transport == "ipc":
                km.ip = name  # its sockets are <name>-1 ... <name>-5
        return km

    def start_new_kernel(self, **kwargs: Any) -> None:
        self._start_kwargs = kwargs
        super().start_new_kernel(**kwargs)

    def start_new_kernel_client(self) -> Any:
        starts = self.kernel_starts if self.transport == "tcp" else 1
        for start in range(1, starts + 1):
            process = _kernel_process(self.km)
            try:
                return super().start_new_kernel_client()
            except Exception as exc:
                code = None if process is None else process.poll()
                if code is None:
                    raise  # not a kernel that died (a timeout, a client error): as it is
                cause = (
                    f"kernel start {start} of {starts}: the kernel exited with code {code} "
                    "before replying to kernel_info"
                )
                if start == starts:
                    how = (
                        f"at each of its {starts} starts over TCP (exit code {code})"
                        if self.transport == "tcp"
                        else f"(exit code {code}; over IPC, not started again: no port "
                        "race can cause it)"
                    )
                    raise KernelStartFailed(
                        f"the kernel died before replying to kernel_info {how}; its "
                        "messages are in report-kernels.log"
                    ) from exc
                if callable(self.on_retry):
                    self.on_retry(cause)
                self.km = self.create_kernel_manager()
                super().start_new_kernel(**getattr(self, "_start_kwargs", {}))
        raise AssertionError("unreachable")  # pragma: no cover


class ReportEngine(NBClientEngine):
    """papermill's nbclient engine, running :class:`ReportNotebookClient`."""

    @classmethod
    def execute_managed_notebook(
        cls,
        nb_man: Any,
        kernel_name: str,
        log_output: bool = False,
        stdout_file: Any = None,
        stderr_file: Any = None,
        start_timeout: int = 60,
        execution_timeout: int | None = None,
        **kwargs: Any,
    ) -> Any:
        for unused in ("input_path", "timeout", "startup_timeout"):
            kwargs.pop(unused, None)
        # papermill writes the notebook as each cell starts and ends: here once, when it ends
        nb_man.save, save = (lambda **_: None), nb_man.save
        client = ReportNotebookClient(
            nb_man,
            timeout=execution_timeout,
            startup_timeout=start_timeout,
            kernel_name=kernel_name,
            log=logger,
            log_output=log_output,
            stdout_file=stdout_file,
            stderr_file=stderr_file,
            **kwargs,
        )
        try:
            return client.execute()
        finally:
            nb_man.save = save


papermill_engines.register(ENGINE, ReportEngine)


def engine_options(
    transport: str,
    runtime_folder: str,
    on_retry: Callable[[str], None] | None,
    on_stop: Callable[[str], None] | None = None,
    kernel_server: str = "",
) -> dict[str, Any]:
    """The keyword arguments of ``papermill.execute_notebook`` that select this engine."""
    return {
        "engine_name": ENGINE,
        "kernel_server": kernel_server,
        "transport": transport,
        "runtime_folder": runtime_folder,
        "on_retry": on_retry,
        "on_stop": on_stop,
    }
