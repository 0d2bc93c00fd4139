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

**What it relies on.** ``IPKernelApp.control_thread`` and ``shell_channel_thread``, not
a public API: ipykernel's own ``IPKernelApp.close()`` stops the IOPub thread *first*,
the order that causes the race, so it cannot be called instead. When the kernel starts,
:func:`check_ipykernel` warns (on stderr, so in the run set's kernel log, naming
ipykernel's version) when either attribute is gone (the fix is then off) or when
ipykernel is not a version the kit was tested with (:data:`TESTED_IPYKERNEL`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

#: How long (seconds) the kernel waits for each channel thread to finish at shutdown.
THREAD_JOIN_SECONDS = 10.0

#: The kernel app's channel threads that may write to IOPub after the main loop ends.
CHANNEL_THREADS = ("control_thread", "shell_channel_thread")

#: The ipykernel releases the launcher was tested with, ``[low, high)`` (the lock pins 7.4.0).
TESTED_IPYKERNEL = ("7.4", "7.5")

_FIX = (
    "the kit's kernel launcher (tcsexam_lib/reports/kernel_launch.py) stops the kernel's "
    "control and shell-channel threads before it exits, so that a shutdown cannot hang or "
    "abort (docs/reports.md)"
)


def check_ipykernel(app_class: type, version: str) -> list[str]:
    """Warn when ipykernel lacks the channel threads the launcher stops, or is untested.

    Returns the missing attributes (the fix is then off for them). ``app_class`` is
    ipykernel's ``IPKernelApp``, ``version`` ipykernel's version.

    Examples
    --------
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
    import ipykernel
    from ipykernel.kernelapp import IPKernelApp

    check_ipykernel(IPKernelApp, ipykernel.__version__)

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
