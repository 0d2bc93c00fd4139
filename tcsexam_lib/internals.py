"""Where the kit leans on another library's internals: each assumption checked where it is
relied on, its break named with what the kit loses (the list: docs/reproducing.md)."""

from __future__ import annotations

import inspect
import re
import warnings
from collections.abc import Iterable
from typing import Any

from .errors import TcsexamError


class LibraryChanged(TcsexamError):
    """A library no longer offers an internal the kit relies on (its version is named)."""


class LibraryWarning(RuntimeWarning):
    """A library is of an untested version, or lacks an internal a fix needs (then off)."""


def _release(version: str) -> tuple[int, ...]:
    """The release numbers at the start of a version (``7.4.0rc1`` -> ``(7, 4, 0)``)."""
    match = re.match(r"\d+(?:\.\d+)*", version)
    return tuple(int(part) for part in match.group(0).split(".")) if match else ()


def untested_version(library: str, version: str, tested: tuple[str, str]) -> str | None:
    """Why ``version`` is outside the range ``tested`` (``[low, high)``), or ``None``.

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
    """The names ``function`` (decorators unwrapped) never refers to: an override of that
    method would never run.

    >>> def shutdown(self):
    ...     self._interrupt()
    >>> calls_missing(shutdown, ["_interrupt", "_kill"])
    ['_kill']
    """
    referred = referred_names(function)
    return [name for name in names if name not in referred]


def referred_names(function: Any) -> set[str]:
    """The global and attribute names ``function`` (decorators unwrapped) refers to.

    >>> sorted(referred_names(lambda self: self._interrupt(len([]))))
    ['_interrupt', 'len']
    """
    code = inspect.unwrap(function).__code__
    referred = set(code.co_names)
    for constant in code.co_consts:  # nested code (a comprehension, a closure)
        if inspect.iscode(constant):
            referred |= set(constant.co_names)
    return referred


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


#: What the kit loses when jsonschema can no longer be imported without its IRI grammar.
_GRAMMAR_RELIES = (
    "each refusal's explanation waits about 1.3 s for the IRI grammar that "
    "jsonschema's optional format checks build at import (docs/speed.md)"
)


def import_jsonschema() -> Any:
    """jsonschema, imported without ``rfc3987_syntax``, whose IRI grammar is built at import
    (1.3 s) for format checks the kit never asks for (its schemas name no ``format``).

    It relies on jsonschema importing it under ``suppress(ImportError)``; if jsonschema no
    longer does, a :class:`LibraryWarning` says so and it is imported with the grammar.
    ``rfc3987_syntax`` stays importable for other code.
    """
    import sys

    if "jsonschema" in sys.modules or "rfc3987_syntax" in sys.modules:
        import jsonschema

        return jsonschema
    sys.modules["rfc3987_syntax"] = None  # importing it now raises ImportError
    try:
        import jsonschema
    except ImportError as exc:
        del sys.modules["rfc3987_syntax"]
        warnings.warn(f"jsonschema needs rfc3987_syntax ({exc}): {_GRAMMAR_RELIES}",
                      LibraryWarning, stacklevel=2)  # fmt: skip
        import jsonschema
    finally:
        if sys.modules.get("rfc3987_syntax", 0) is None:
            del sys.modules["rfc3987_syntax"]
    return jsonschema
