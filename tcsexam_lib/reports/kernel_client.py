"""The papermill engine of the report runner: where kernels are started, and how they stop.

Imported only in the worker processes (it imports papermill and jupyter_client). It is
papermill's own engine (nbclient) with three changes, each for a reason given in
:mod:`.kernels`:

- each kernel gets its connection file, and over IPC its sockets, in the run's private
  folder, under a name of its own (``k<worker pid>-<n>``);
- over TCP, a kernel that dies before replying to ``kernel_info`` (its port was taken) is
  started again on new ports, at most :data:`~.kernels.KERNEL_STARTS` times in all, each
  retry reported through ``on_retry`` with its cause; a kernel that dies at every start,
  or once over IPC (where a retry would not help), raises :class:`KernelStartFailed`;
- a kernel is asked to shut down without first being interrupted: jupyter_client sends
  SIGINT before every shutdown (to stop a busy kernel), and a kernel still finishing its
  last reply logs it as ``ERROR | KeyboardInterrupt caught in kernel``. The kernel of a
  finished notebook is idle; one that does not stop within jupyter_client's wait is killed
  as before.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from typing import Any

from jupyter_client.manager import AsyncKernelManager
from papermill.clientwrap import PapermillNotebookClient
from papermill.engines import NBClientEngine, papermill_engines
from papermill.log import logger
from traitlets import Any as AnyTrait
from traitlets import Integer, Unicode, default

from ..errors import KernelStartFailed
from .kernels import KERNEL_STARTS

#: The name this engine is registered under with papermill.
ENGINE = "tcsexam-report"

_KERNEL_NUMBERS = itertools.count(1)


class ReportKernelManager(AsyncKernelManager):
    """jupyter_client's kernel manager, without the interrupt it sends before a shutdown."""

    async def _async_interrupt_kernel(self) -> None:
        if self.shutting_down:
            return  # a shutdown request follows; a kernel that ignores it is killed
        await super()._async_interrupt_kernel()


def _kernel_process(km: Any) -> Any:
    """The kernel's process (a ``Popen``), when a local provisioner started it."""
    return getattr(getattr(km, "provisioner", None), "process", None)


class ReportNotebookClient(PapermillNotebookClient):
    """papermill's notebook client, its kernels placed and restarted as described above."""

    transport = Unicode("ipc", help="ipc or tcp")
    runtime_folder = Unicode("", help="the run's private folder (connection files, sockets)")
    kernel_starts = Integer(KERNEL_STARTS, help="starts allowed over TCP")
    on_retry = AnyTrait(None, allow_none=True, help="called with the cause of each retry")

    @default("kernel_manager_class")
    def _default_kernel_manager_class(self) -> type:
        return ReportKernelManager

    def create_kernel_manager(self) -> Any:
        km = super().create_kernel_manager()
        km.transport = self.transport
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
        return client.execute()


papermill_engines.register(ENGINE, ReportEngine)


def engine_options(
    transport: str, runtime_folder: str, on_retry: Callable[[str], None] | None
) -> dict[str, Any]:
    """The keyword arguments of ``papermill.execute_notebook`` that select this engine."""
    return {
        "engine_name": ENGINE,
        "transport": transport,
        "runtime_folder": runtime_folder,
        "on_retry": on_retry,
    }
