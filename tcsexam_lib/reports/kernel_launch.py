"""The report runner's kernel: ipykernel, stopping its channel threads before it exits.

The runner starts each notebook's kernel as ``python -m tcsexam_lib.reports.kernel_launch``
in place of ipykernel's ``ipykernel_launcher`` (see
:meth:`.kernel_client.ReportKernelManager.format_kernel_cmd`). It is ipykernel's own
application with one change, to how it ends.

**Why.** A kernel asked to shut down answers on its control thread, then stops its main
loop; the control thread still flushes stdout and stderr through the IOPub thread. Once
the main loop has ended, ipykernel (7.4 and earlier) leaves the rest to the interpreter's
exit handlers, and the first of them stops the IOPub thread and closes its pipes, with the
control thread possibly still writing into them. Depending on the moment, the control
thread then blocks for good on a pipe nobody reads (the kernel hangs until its manager
terminates it, 2.5 s later: about 1 kernel in 20 on a busy machine), raises
``ZMQError: Socket operation on non-socket``, or libzmq aborts the process with
``Assertion failed: pfd.revents & POLLIN (src/signaler.cpp)`` (a socket used by one thread
while another closes it). The report runner saw all three.

**The change.** When the main loop ends, the control and shell-channel threads are
stopped and joined, while the IOPub thread still runs; only then do the exit handlers
run, with no other thread left writing. Everything else (options, configuration, the
working folder left out of ``sys.path`` while ipykernel loads) is ipykernel's.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

#: How long (seconds) the kernel waits for each channel thread to finish at shutdown.
THREAD_JOIN_SECONDS = 10.0

#: The kernel app's channel threads that may write to IOPub after the main loop ends.
CHANNEL_THREADS = ("control_thread", "shell_channel_thread")


def stop_channel_threads(app: Any, timeout: float = THREAD_JOIN_SECONDS) -> list[str]:
    """Stop and join the kernel app's control and shell-channel threads; name those stopped.

    A thread that is not there (an older ipykernel has no shell-channel thread) or has
    already ended is left alone. Thread-safe: a thread is asked to stop through its own
    event loop.

    Examples
    --------
    >>> import threading
    >>> class Channel(threading.Thread):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.stopping = threading.Event()
    ...     def run(self):
    ...         self.stopping.wait()
    ...     def stop(self):
    ...         self.stopping.set()
    >>> class App:
    ...     control_thread = Channel()
    >>> App.control_thread.start()
    >>> stop_channel_threads(App()), App.control_thread.is_alive()
    (['control_thread'], False)
    """
    stopped = []
    for name in CHANNEL_THREADS:
        thread = getattr(app, name, None)
        if thread is not None and thread.is_alive():
            thread.stop()
            thread.join(timeout)
            stopped.append(name)
    return stopped


def _report_kernel_app() -> type:
    from ipykernel.kernelapp import IPKernelApp

    class ReportKernelApp(IPKernelApp):
        """ipykernel's application, its channel threads stopped when its main loop ends."""

        def start(self) -> None:
            try:
                super().start()
            finally:
                stop_channel_threads(self)

    return ReportKernelApp


def main() -> None:
    """Start the kernel (the arguments are ipykernel's: ``-f CONNECTION_FILE`` and options)."""
    _report_kernel_app().launch_instance()


if __name__ == "__main__":
    # As ipykernel_launcher: the working folder is left out of sys.path while ipykernel
    # loads (IPython puts it back for the notebook's code).
    if sys.path[0] == "" or Path(sys.path[0]) == Path.cwd():
        del sys.path[0]
    main()
