"""The report runner's kernel (ipykernel that stops cleanly) and the run's kernel server.

Its channel threads stop before the exit handlers run; a message interrupt signals only
while user code runs (:class:`RunningCode`); ``--serve ADDRESS`` runs :func:`serve`, which
forks each kernel. Why, with the measurements: docs/reports.md, "How kernels are started".
"""

from __future__ import annotations

import contextlib
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: How long (seconds) the kernel waits for each channel thread to finish at shutdown.
THREAD_JOIN_SECONDS = 10.0

#: The kernel app's channel threads that may write to IOPub after the main loop ends.
CHANNEL_THREADS = ("control_thread", "shell_channel_thread")

#: The shell requests that run the notebook's code other than a cell's (a widget's
#: callback): an interrupt reaches the kernel while one of them is handled, or while a
#: cell's code runs (see :class:`RunningCode`).
USER_CODE_REQUESTS = ("comm_open", "comm_msg", "comm_close")

#: The ipykernel releases the launcher was tested with, ``[low, high)`` (the lock pins 7.4.0).
TESTED_IPYKERNEL = ("7.4", "7.5")

_FIX = (
    "the kit's kernel launcher (tcsexam_lib/reports/kernel_launch.py) stops the kernel's "
    "control and shell-channel threads before it exits, so that a shutdown cannot hang or "
    "abort (docs/reports.md)"
)


def check_ipykernel(app_class: type, version: str) -> list[str]:
    """Warn when ipykernel lacks the channel threads the launcher stops, or is untested;
    return the missing attributes (the fix is then off for them).

    >>> import warnings
    >>> class OldApp:
    ...     control_thread = None
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     missing = check_ipykernel(OldApp, "7.4.0")
    >>> missing, str(caught[0].message)[:61]
    (['shell_channel_thread'], 'ipykernel 7.4.0 has no IPKernelApp.shell_channel_thread: the ')
    """
    import warnings

    from ..internals import LibraryWarning, broken_message, missing_names, say_untested

    missing = missing_names(app_class, CHANNEL_THREADS)
    if missing:
        names = [f"IPKernelApp.{name}" for name in missing]
        warnings.warn(
            broken_message("ipykernel", version, names, f"{_FIX}; for it, that fix is OFF"),
            LibraryWarning,
            stacklevel=2,
        )
    say_untested("ipykernel", version, TESTED_IPYKERNEL, _FIX)
    return missing


def stop_channel_threads(app: Any, timeout: float = THREAD_JOIN_SECONDS) -> list[str]:
    """Stop and join the app's control and shell-channel threads (if alive), each through its
    own event loop (thread-safe); name those stopped.

    >>> stop_channel_threads(object())  # an app without channel threads
    []
    """
    stopped = []
    for name in CHANNEL_THREADS:
        thread = getattr(app, name, None)
        if thread is not None and thread.is_alive():
            thread.stop()
            thread.join(timeout)
            stopped.append(name)
    return stopped


class RunningCode:
    """How many pieces of the notebook's code the kernel is running now.

    >>> import asyncio
    >>> code = RunningCode()
    >>> seen = []
    >>> async def comm_msg(*args):
    ...     seen.append(code.running)
    >>> handlers = {"comm_msg": comm_msg, "kernel_info_request": print}
    >>> code.track(handlers)
    ['comm_msg']
    >>> asyncio.run(handlers["comm_msg"]()), seen, code.running
    (None, [True], False)
    """

    def __init__(self) -> None:
        self._count = 0

    @property
    def running(self) -> bool:
        """True while a cell or a widget's callback runs."""
        return self._count > 0

    def track(self, handlers: dict[str, Callable[..., Any]]) -> list[str]:
        """Wrap the handlers of :data:`USER_CODE_REQUESTS` found in ``handlers``; name them."""
        for name in (found := [n for n in USER_CODE_REQUESTS if n in handlers]):
            handlers[name] = self._counted(handlers[name])
        return found

    def track_cells(self, shell: Any) -> bool:
        """Wrap ``shell.run_code`` (a cell's code); return whether the shell has it."""
        if not callable(run_code := getattr(shell, "run_code", None)):
            return False
        shell.run_code = self._counted(run_code)
        return True

    def _counted(self, handler: Callable[..., Any]) -> Callable[..., Any]:
        async def counted(*args: Any, **kwargs: Any) -> Any:
            self._count += 1
            try:
                result = handler(*args, **kwargs)
                return (await result) if inspect.isawaitable(result) else result
            finally:
                self._count -= 1

        return counted


def track_user_code(kernel: Any, version: str) -> RunningCode | None:
    """Count the kernel's running code (cells and widget callbacks); warn for what is gone.

    ``None`` without ``run_code`` (every interrupt then signals, as ipykernel's does).

    >>> import warnings
    >>> class Shell:
    ...     def run_code(self, code_obj):
    ...         pass
    >>> class Kernel:
    ...     shell = Shell()
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     code = track_user_code(Kernel(), "9.0.0")
    >>> code.running, str(caught[0].message)[:57]
    (False, 'ipykernel 9.0.0 has no IPythonKernel.shell_handlers[comm_')
    """
    import warnings

    from ..internals import LibraryWarning, broken_message

    code = RunningCode()
    handlers = getattr(kernel, "shell_handlers", None)
    tracked = code.track(handlers) if isinstance(handlers, dict) else []
    gone = [f"IPythonKernel.shell_handlers[{n}]" for n in USER_CODE_REQUESTS if n not in tracked]
    if not code.track_cells(getattr(kernel, "shell", None)):
        gone.append("IPythonKernel.shell.run_code")
        code = None
    if gone:
        consequence = (
            "the kit's kernel (tcsexam_lib/reports/kernel_launch.py) ignores an interrupt "
            "when no code runs; "
            + ("that fix is OFF" if code is None else "an interrupt during a widget's "
               "callback would be ignored")
        )  # fmt: skip
        warnings.warn(broken_message("ipykernel", version, gone, consequence), LibraryWarning,
                      stacklevel=3)  # fmt: skip
    return code


def _report_kernel_class() -> type:
    from ipykernel import __version__
    from ipykernel.ipkernel import IPythonKernel

    class ReportKernel(IPythonKernel):
        """ipykernel's kernel; an interrupt signals it only while the notebook's code runs."""

        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.running_code = track_user_code(self, __version__)

        async def interrupt_request(self, stream: Any, ident: Any, parent: Any) -> None:
            if self.running_code is None or self.running_code.running:
                return await super().interrupt_request(stream, ident, parent)
            self.log.debug("Interrupt request with no code running: nothing to interrupt")
            if self.session:
                self.session.send(stream, "interrupt_reply", {"status": "ok"}, parent, ident=ident)

    return ReportKernel


def _report_kernel_app() -> type:
    import ipykernel
    from ipykernel.kernelapp import IPKernelApp
    from traitlets import Type

    check_ipykernel(IPKernelApp, ipykernel.__version__)

    class ReportKernelApp(IPKernelApp):
        """ipykernel's application, its channel threads stopped when its main loop ends."""

        kernel_class = Type(_report_kernel_class(), klass="ipykernel.kernelbase.Kernel")

        def init_sockets(self) -> None:
            if self.transport == "tcp" and self.ip in LOOPBACK:
                self.log.addFilter(_not_the_tcp_warning)
            super().init_sockets()

        def start(self) -> None:
            try:
                super().start()
            finally:
                stop_channel_threads(self)

    return ReportKernelApp


#: Addresses only this machine reaches (papermill and JupyterLab start kernels on them).
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _not_the_tcp_warning(record: Any) -> bool:
    """Drop ipykernel's "TCP is unencrypted" warning for a kernel on a loopback address."""
    return not record.getMessage().startswith("Kernel is running over TCP without encryption")


def main() -> None:
    """Start the kernel (the arguments are ipykernel's: ``-f CONNECTION_FILE`` and options)."""
    _report_kernel_app().launch_instance()


#: What a kernel server imports once, before it forks a kernel for each notebook: what
#: the notebooks import, and what ipykernel imports as a kernel starts.
WARM_MODULES = ("ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.debugger", "psutil",
                "IPython.core.completerlib", "IPython.extensions.storemagic", "sqlite3",
                "IPython.core.debugger", "IPython.core.oinspect", "IPython.core.logger",
                "tornado.platform.asyncio", "matplotlib_inline.backend_inline",
                "matplotlib.pyplot", "pandas", "tcsexam_lib.views")  # fmt: skip


def _warm_up() -> None:
    """Done once here, not the first time in each kernel: the views' modules loaded, the
    output documents' schema validators compiled, matplotlib's fonts and renderer loaded
    (no rcParam changed)."""
    import importlib
    import io

    from matplotlib.figure import Figure

    from ..schemas import GENERATED, schema_accepts

    views = importlib.import_module("tcsexam_lib.views")  # what the notebooks import
    for name in views.__all__:  # each loads its module on first use
        getattr(views, name)
    for name in GENERATED:
        schema_accepts(None, name)
    figure = Figure()
    figure.subplots().set_title("warm", fontweight="bold")  # the ticks' font, and the bold
    figure.savefig(io.BytesIO(), format="png")


def serve(address: str) -> None:
    """The run's kernel server (``--serve ADDRESS``): returns only in a forked kernel.

    Per request on its Unix socket it forks a kernel (answers ``pid N``, then ``exit N``);
    it ends, killing its kernels, when its stdin closes.
    """
    import gc
    import importlib
    import os
    import select
    import signal
    import socket

    listener = socket.socket(socket.AF_UNIX)
    listener.bind(address)
    listener.listen(64)  # requests wait here while the imports run
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")  # as ipykernel
    for name in WARM_MODULES:
        importlib.import_module(name)
    _warm_up()
    gc.collect()
    gc.freeze()  # what a kernel shares with the server is never walked by its collections
    prefix = sys.orig_argv[: sys.orig_argv.index("--serve")]
    wake, woken = socket.socketpair()
    woken.setblocking(False)
    signal.set_wakeup_fd(woken.fileno())
    signal.signal(signal.SIGCHLD, lambda *_: None)
    kernels: dict[socket.socket, int] = {}
    while True:
        ready = select.select([listener, wake, 0, *kernels], [], [])[0]
        if 0 in ready and not os.read(0, 512):
            _kill(*kernels.values())
            os._exit(0)
        if wake in ready:
            wake.recv(512)
            _reap(kernels)
        for conn in [c for c in ready if c in kernels]:
            if not conn.recv(1):  # the requester went: its kernel goes too
                _kill(kernels.pop(conn))
                conn.close()
        if listener in ready:
            conn = listener.accept()[0]
            request, fds = _request(conn, prefix)
            if request:
                sys.stdout.flush()
                sys.stderr.flush()
                if (pid := os.fork()) == 0:
                    for held in (listener, wake, woken, *kernels):
                        held.close()
                    return _become_kernel(conn, fds, request["env"], request["cwd"],
                                          request["argv"][len(prefix) :])  # fmt: skip
                kernels[conn] = pid
            else:
                conn.close()
            for fd in fds:
                os.close(fd)


def _request(conn: Any, prefix: list[str]) -> tuple[dict[str, Any], list[int]]:
    """A request read from ``conn`` and its two file descriptors; ``{}`` for a request
    refused (answered ``cold: why``) or broken."""
    import json
    import socket

    fds: list[int] = []
    try:
        head, fds, _, _ = socket.recv_fds(conn, 8, 2)
        request = json.loads(_receive(conn, int.from_bytes(head, "big")))
        if request["argv"][: len(prefix)] == prefix and len(fds) == 2:
            return request, fds
        conn.sendall(f"cold: not the server's command {prefix}\n".encode())
    except (OSError, ValueError, KeyError, TypeError):  # a requester gone, or not the kit's
        pass
    return {}, fds


def _kill(*pids: int) -> None:
    import os
    import signal

    for pid in pids:
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)


def _receive(conn: Any, size: int) -> bytes:
    data = b""
    while len(data) < size and (chunk := conn.recv(size - len(data))):
        data += chunk
    return data


def _reap(kernels: dict[Any, int]) -> None:
    """Send each ended kernel's exit code (as ``Popen.returncode``) to its requester."""
    import os

    by_pid = {pid: conn for conn, pid in kernels.items()}
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        if (conn := by_pid.get(pid)) is not None:
            del kernels[conn]
            with contextlib.suppress(OSError):
                conn.sendall(f"exit {os.waitstatus_to_exitcode(status)}\n".encode())
            conn.close()


def _become_kernel(conn: Any, fds: list[int], env: dict[str, str], cwd: str,
                   args: list[str]) -> None:  # fmt: skip
    """In the forked child: the kernel's session, stdio, folder, environment and seeds."""
    import os
    import random
    import signal

    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    os.setsid()  # a process group of its own, as jupyter_client starts kernels
    fds.append(os.open(os.devnull, os.O_RDONLY))
    os.dup2(fds[2], 0)
    os.dup2(fds[0], 1)
    os.dup2(fds[1], 2)
    for fd in fds:
        os.close(fd)
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env, JPY_PARENT_PID=str(os.getppid()))
    # ipykernel read JPY_PARENT_PID when the server imported it: the server is the parent
    # its poller watches (the kernel ends within a second of it)
    sys.argv = [__file__, *args, f"--IPKernelApp.parent_handle={os.getppid()}"]
    random.seed()
    if "numpy" in sys.modules:  # seeded in the server: each kernel gets its own
        sys.modules["numpy"].random.seed()
    conn.sendall(f"pid {os.getpid()}\n".encode())
    conn.close()


def exit_without_teardown() -> None:
    """End a forked kernel without tearing down the shared modules (0.2 to 0.3 s a kernel)."""
    import atexit
    import os
    import threading

    for thread in threading.enumerate():
        if not thread.daemon and thread is not threading.current_thread():
            thread.join()
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    # As ipykernel_launcher: the working folder is left out of sys.path while ipykernel
    # loads (IPython puts it back for the notebook's code).
    if sys.path[0] == "" or Path(sys.path[0]) == Path.cwd():
        del sys.path[0]
    if sys.argv[1:2] != ["--serve"]:
        main()
    else:
        serve(sys.argv[2])  # returns in a forked kernel, its arguments in sys.argv
        main()
        exit_without_teardown()
