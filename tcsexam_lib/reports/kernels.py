"""How the report runner's kernels are reached (IPC in a private folder, else TCP with
retries) and what their log keeps (docs/reports.md, "How kernels are started")."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

#: How many times a kernel that dies before replying to ``kernel_info`` is started over TCP.
KERNEL_STARTS = 3

#: Prefix of the private folder that holds a run's kernel sockets and connection files.
RUNTIME_PREFIX = "tcsexam-kernels-"

#: Longest socket path used: Unix sockets hold 108 bytes on Linux and 104 on macOS, the
#: final NUL included; kept below both.
SOCKET_PATH_MAX = 100

#: Room left in a socket path for a kernel's own name, ``k<pid>-<n>-<channel>``.
KERNEL_NAME_ROOM = 24

#: How the log writes the private folder (its name changes from run to run).
RUNTIME_PLACEHOLDER = "<kernel folder>"

#: ipykernel's warning for TCP transport; its first sentence identifies it.
TCP_WARNING = "Kernel is running over TCP without encryption."

#: How lines written by the runner itself are prefixed in the log.
RUNNER_PREFIX = "[report runner]"


#: Set to ``off``, every kernel is started cold, through the kit's launcher.
KERNEL_SERVER_ENV = "TCSEXAM_KERNEL_SERVER"

#: How long (seconds) the runner waits for its kernel server's socket.
SERVER_START_SECONDS = 30.0


@contextlib.contextmanager
def kernel_server(folder: Path) -> Iterator[tuple[str, str]]:
    """Start the run's kernel server, its socket in ``folder``: ``(socket, "")`` or ``("", why)``.

    ``why`` is empty when it is off by choice; it ends with the block or this process.
    """
    if os.environ.get(KERNEL_SERVER_ENV, "").lower() in ("off", "0", "no"):
        yield "", ""
        return
    if not sys.platform.startswith("linux"):  # macOS system libraries are not fork-safe
        yield "", f"kernels are forked on Linux only (this is {sys.platform})"
        return
    import subprocess

    address = folder / "kernel-server"
    try:
        command = [*_kernel_prefix(), "--serve", str(address)]
        with open(folder / "kernel-server.stderr", "wb") as stderr:
            server = subprocess.Popen(command, stdin=subprocess.PIPE, stderr=stderr,
                                      stdout=subprocess.DEVNULL, cwd=folder,
                                      start_new_session=True)  # fmt: skip
    except (OSError, ValueError, KeyError) as exc:
        yield "", f"the kernel server did not start ({exc})"
        return
    deadline = time.monotonic() + SERVER_START_SECONDS
    while not address.exists() and server.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    said = (folder / "kernel-server.stderr").read_text(errors="replace").strip().splitlines()
    why = "; ".join([f"exit code {server.poll()}", *said[-1:]])  # its last words
    try:
        yield (str(address), "") if address.exists() else ("", f"the kernel server did not "
                                                           f"start ({why})")  # fmt: skip
    finally:
        server.stdin.close()  # type: ignore[union-attr]
        try:
            server.wait(SERVER_START_SECONDS)
        except subprocess.TimeoutExpired:
            server.kill()


def _kernel_prefix() -> list[str]:
    """The ``python3`` kernelspec's command up to the kit's launcher, when it is this Python."""
    from jupyter_client.kernelspec import KernelSpecManager

    from .kernelspec import KIT_LAUNCHER, with_launcher

    argv = with_launcher(KernelSpecManager().get_kernel_spec("python3").argv)
    if os.path.abspath(argv[0]) != os.path.abspath(sys.executable) or KIT_LAUNCHER not in argv:
        raise ValueError(f"the python3 kernelspec is not the kit's: {argv}")
    return argv[: argv.index(KIT_LAUNCHER) + 1]


def _fits_sockets(folder: str) -> bool:
    return len(os.fsencode(folder)) + KERNEL_NAME_ROOM <= SOCKET_PATH_MAX


@contextlib.contextmanager
def private_runtime_folder() -> Iterator[Path]:
    """A new folder (mode 0700) in ``$TMPDIR`` (``/tmp`` if too long for a socket), removed after.

    >>> with private_runtime_folder() as folder:
    ...     oct(folder.stat().st_mode & 0o777), folder.name.startswith(RUNTIME_PREFIX)
    ('0o700', True)
    >>> folder.exists()
    False
    """
    folder = Path(tempfile.mkdtemp(prefix=RUNTIME_PREFIX, dir=_base()))  # mode 0700
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)  # symlinks inside are removed, never followed


def kernel_transport(folder: Path) -> tuple[str, str]:
    """``("ipc", "")`` where kernels can use Unix sockets in ``folder``, else ``("tcp", why)``.

    >>> kernel_transport(Path("/tmp/" + "x" * 90))
    ('tcp', 'the private folder path is too long for a Unix socket')
    """
    if os.name != "posix":
        return "tcp", f"no Unix sockets on this platform ({os.name})"
    if not _fits_sockets(str(folder)):
        return "tcp", "the private folder path is too long for a Unix socket"
    import zmq

    if not zmq.has("ipc"):
        return "tcp", "this ZeroMQ library was built without IPC"
    return "ipc", ""


def expected_kernel_log_header() -> str:
    """The kernel log's header for a private folder made here and now (for a run set whose
    pages are all reused, which starts no kernel)."""
    return kernel_log_header(*kernel_transport(Path(_base()) / (RUNTIME_PREFIX + "x" * 8)))


def _base() -> str:
    """Where private folders are made: ``$TMPDIR``, or ``/tmp`` when that is too long."""
    base = tempfile.gettempdir()
    if not _fits_sockets(os.path.join(base, RUNTIME_PREFIX + "x" * 8)) and os.path.isdir("/tmp"):
        return "/tmp"
    return base


def kernel_log_header(transport: str, why_tcp: str = "") -> str:
    """The runner's lines at the top of a run set's kernel log: how kernels were reached.

    >>> print(kernel_log_header("ipc"), end="")  # doctest: +NORMALIZE_WHITESPACE
    [report runner] kernels started over IPC: Unix sockets in a private folder of the run
    (mode 0700, removed after it), so no port is chosen and parallel kernels cannot collide.
    Every line below names its notebook.
    """
    if transport == "ipc":
        lines = [
            "kernels started over IPC: Unix sockets in a private folder of the run "
            "(mode 0700, removed after it), so no port is chosen and parallel kernels "
            "cannot collide. Every line below names its notebook."
        ]
    else:
        lines = [
            f"kernels started over TCP on 127.0.0.1 ({why_tcp}); a kernel that dies before "
            f"replying to kernel_info is started again, at most {KERNEL_STARTS} times in all. "
            "Every line below names its notebook.",
            f"ipykernel warns: {TCP_WARNING} (the kit's launcher drops it on 127.0.0.1; any "
            "other kernel's is said once here, not repeated below)",
        ]
    return "".join(f"{RUNNER_PREFIX} {line}\n" for line in lines)


def kernel_log_block(label: str, text: str, transport: str, folder: Path | None = None) -> str:
    """One notebook's stderr, each line prefixed with ``[label]``, kept whole but for
    ipykernel's TCP warning (in the header); the private folder reads ``<kernel folder>``.

    >>> text = "Traceback (most recent call last):\\n  File 'x'\\nZMQError: Address in use\\n"
    >>> print(kernel_log_block("demo/m1/index", text, "tcp"), end="")
    [demo/m1/index] Traceback (most recent call last):
    [demo/m1/index]   File 'x'
    [demo/m1/index] ZMQError: Address in use
    """
    if folder is not None:
        text = text.replace(str(folder), RUNTIME_PLACEHOLDER)
    lines = text.splitlines()
    if transport == "tcp":
        lines = [line for line in lines if TCP_WARNING not in line]
    return "".join(f"[{label}] {line}\n" for line in lines)


def append_to_log(log: Path, text: str) -> None:
    """Append ``text`` to ``log`` in one write, so that parallel notebooks' blocks never mix."""
    if not text:
        return
    data = text.encode("utf-8", errors="replace")
    handle = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o666)
    try:
        while data:
            data = data[os.write(handle, data) :]
    finally:
        os.close(handle)
