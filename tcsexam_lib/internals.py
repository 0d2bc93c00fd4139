"""Where the kit leans on another library's internals: each assumption checked, loudly.

Three places rely on what a library does not promise (see docs/reproducing.md):

- the report kernels' launcher (:mod:`.reports.kernel_launch`) stops ipykernel's
  ``control_thread`` and ``shell_channel_thread`` (attributes of ``IPKernelApp``)
  before its exit handlers run, and counts the running code through the kernel's
  ``shell_handlers`` and its shell's ``run_code`` (so that an interrupt with no code
  running is ignored);
- the runner's kernel manager (:mod:`.reports.kernel_client`) overrides jupyter_client's
  private ``_async_interrupt_kernel``, ``_async_send_kernel_sigterm`` and
  ``_async_kill_kernel``, which ``_async_shutdown_kernel`` and
  ``_async_finish_shutdown`` call;
- the notebooks' one-line errors (:func:`.views.notebook.one_line_errors`) show a
  refusal through IPython's ``_showtraceback``.

Each checks, where it relies on it, that what it uses is there (:func:`missing_names`,
:func:`calls_missing`) and that the library's version is one it was tested with
(:func:`untested_version`); a break is said with the library, its version and what the
kit loses: a warning where the kit still works without it, :class:`LibraryChanged`
where it would otherwise pass over something in silence.
"""

from __future__ import annotations

import inspect
import re
import warnings
from collections.abc import Iterable
from typing import Any

from .errors import TcsexamError


class LibraryChanged(TcsexamError):
    """A library no longer offers an internal the kit relies on (its version is named)."""

    exit_code = 1


class LibraryWarning(RuntimeWarning):
    """A library the kit relies on is of a version it was not tested with, or lacks an
    internal that a fix of the kit needs (the fix is then off, and this says so)."""


def _release(version: str) -> tuple[int, ...]:
    """The release numbers at the start of a version (``7.4.0rc1`` -> ``(7, 4, 0)``)."""
    match = re.match(r"\d+(?:\.\d+)*", version)
    return tuple(int(part) for part in match.group(0).split(".")) if match else ()


def untested_version(library: str, version: str, tested: tuple[str, str]) -> str | None:
    """Why ``version`` is outside the range ``tested`` (``[low, high)``), or ``None``.

    Examples
    --------
    >>> untested_version("ipykernel", "7.4.0", ("7.4", "7.5")) is None
    True
    >>> untested_version("ipykernel", "8.0.0", ("7.4", "7.5"))
    'ipykernel 8.0.0 is not a version the kit was tested with (>=7.4, <7.5)'
    """
    low, high = tested
    if _release(low) <= _release(version) < _release(high):
        return None
    return f"{library} {version} is not a version the kit was tested with (>={low}, <{high})"


def missing_names(owner: Any, names: Iterable[str]) -> list[str]:
    """The names ``owner`` (a class or a module) does not have.

    >>> missing_names(dict, ["keys", "no_such_method"])
    ['no_such_method']
    """
    return [name for name in names if not hasattr(owner, name)]


def calls_missing(function: Any, names: Iterable[str]) -> list[str]:
    """The names that ``function`` (its decorators unwrapped) never refers to: a method
    it no longer calls, so that an override of that method would never run.

    >>> def shutdown(self):
    ...     self._interrupt()
    >>> calls_missing(shutdown, ["_interrupt", "_kill"])
    ['_kill']
    """
    code = inspect.unwrap(function).__code__
    referred = set(code.co_names)
    for constant in code.co_consts:  # nested code (a comprehension, a closure)
        if inspect.iscode(constant):
            referred |= set(constant.co_names)
    return [name for name in names if name not in referred]


def say_untested(library: str, version: str, tested: tuple[str, str], relies: str) -> None:
    """Warn (:class:`LibraryWarning`) when ``version`` is outside ``tested``."""
    problem = untested_version(library, version, tested)
    if problem is not None:
        warnings.warn(f"{problem}: {relies}", LibraryWarning, stacklevel=2)


def broken_message(library: str, version: str, missing: list[str], relies: str) -> str:
    """One message for an internal that is gone: library, version, names, consequence.

    >>> broken_message("ipykernel", "8.0.0", ["IPKernelApp.control_thread"], "a fix is off")
    'ipykernel 8.0.0 has no IPKernelApp.control_thread: a fix is off'
    """
    return f"{library} {version} has no {', '.join(missing)}: {relies}"
