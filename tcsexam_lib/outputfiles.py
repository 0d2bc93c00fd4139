"""Writing output files atomically (a synced temporary file beside the target, renamed
over it), never over an input, never among someone else's files."""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, BinaryIO

from .errors import InputRefused, OutputRefused, Problem


def refuse_output_over_inputs(
    output: str | os.PathLike[str],
    inputs: list[Any],
    *,
    field: str,
    allowed: str,
    folders: list[Any] = (),
) -> None:
    """Refuse an output path that is an input or lies inside an input folder (it would be
    read as an input next time); ``None`` inputs are skipped.

    >>> refuse_output_over_inputs("out.json", ["in.json", None], field="--output", allowed="x")
    >>> try:
    ...     refuse_output_over_inputs("in.json", ["in.json"], field="--output", allowed="x")
    ... except InputRefused as exc:
    ...     print(exc.summary)
    Output would overwrite an input
    """
    target = Path(output).resolve()
    if any(path is not None and Path(path).resolve() == target for path in inputs):
        raise InputRefused(
            "Output would overwrite an input",
            [Problem(str(output), field=field, value=str(output), allowed=allowed)],
        )
    for folder in folders:
        if folder is not None and Path(folder).resolve() in target.parents:
            detail = f"it lies inside the input folder {folder}"
            problem = Problem(str(output), field=field, value=str(output), detail=detail)
            raise InputRefused("Output would land among the inputs", [problem])


def write_text_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` to ``path`` atomically, with the permissions a plain ``open()`` gives
    (``0644`` under umask ``022``: a web server may read a published report)."""
    return write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically (temporary file, then rename)."""
    return write_atomic(path, lambda handle: handle.write(data))


def write_stream_atomic(path: str | os.PathLike[str], chunks: Iterable[bytes]) -> Path:
    """Write byte chunks to ``path`` atomically, as they come (never all held at once).

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "x.txt"
    >>> _ = write_stream_atomic(out, iter([b"a", b"b"]))
    >>> out.read_bytes()
    b'ab'
    """

    return write_atomic(path, lambda handle: _write_behind(handle, chunks))


def _write_behind(handle: BinaryIO, chunks: Iterable[bytes]) -> None:
    """Write each chunk in a thread while the next is made (on two cores they overlap):
    one write at a time, in order; a failure is raised here with no write left running."""
    failed: list[BaseException] = []

    def write(chunk: bytes) -> None:
        try:
            handle.write(chunk)
        except BaseException as exc:  # raised in the caller's thread, below
            failed.append(exc)

    writer: threading.Thread | None = None
    try:
        for chunk in chunks:
            if writer is not None:
                writer.join()
            if failed:
                break
            writer = threading.Thread(target=write, args=(chunk,), name="tcsexam-write-behind")
            writer.start()
    finally:
        if writer is not None:
            writer.join()
    if failed:
        raise failed[0]


def write_generated_files(
    root: str | os.PathLike[str], files: dict[str, str], marker: str
) -> list[Path]:
    """Write a generator's ``files`` (name -> text) under ``root``, each atomically; a
    non-empty ``root`` without the generator's ``marker`` file is refused."""
    root = Path(root)
    if root.is_dir() and any(root.iterdir()) and not (root / marker).is_file():
        raise InputRefused(
            "Folder refused",
            [Problem(str(root), field="--root", detail="a non-empty folder this generator "
                     f"did not write (no {marker})", allowed="an empty or new folder")],
        )  # fmt: skip
    return [write_text_atomic(root / name, text) for name, text in files.items()]


def write_atomic(path: str | os.PathLike[str], write: Callable[[BinaryIO], Any]) -> Path:
    """Call ``write`` on a temporary file beside ``path``, then rename it to ``path``; if
    ``write`` raises, ``path`` is untouched (an ``OSError`` becomes :class:`OutputRefused`).

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "x.txt"
    >>> def fail(handle):
    ...     handle.write(b"half")
    ...     raise ValueError("stopped")
    >>> try:
    ...     write_atomic(out, fail)
    ... except ValueError:
    ...     print(out.exists(), list(out.parent.iterdir()))
    False []
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            os.fchmod(fd, 0o666 & ~_current_umask())  # mkstemp makes 0600; a file honours the umask
            with os.fdopen(fd, "wb") as handle:
                write(handle)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise OutputRefused(f"Cannot write {path}: {exc}") from exc
    return path


def _current_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
