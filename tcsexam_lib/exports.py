"""A package's public names, each written once, imported when first used."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple


class PublicSurface(NamedTuple):
    """What :func:`public_surface` gives a package: ``exports`` (name -> module), ``all``,
    ``getattr`` and ``dir``. A named tuple, so importing it imports nothing."""

    exports: dict[str, str]
    all: list[str]
    getattr: Callable[[str], Any]
    dir: Callable[[], list[str]]


def public_surface(
    package: str,
    public: dict[str, tuple[str, ...]],
    *,
    modules: dict[str, str] | None = None,
    also: Iterable[str] = (),
) -> PublicSurface:
    """The public surface of ``package`` from ``public`` (module -> names); ``modules``
    maps a public module name to its module, ``also`` adds further ``__all__`` entries.

    >>> surface = public_surface("tcsexam_lib", {"vocab": ("METRIC_ID",)})
    >>> surface.all, surface.getattr("METRIC_ID")
    (['METRIC_ID'], 'tcsexam-index-original-30303010-v0.1')
    """
    exports = {name: module for module, names in public.items() for name in names}
    modules = dict(modules or {})
    names = sorted([*exports, *also])

    def lookup(name: str) -> Any:
        if name in modules:
            return importlib.import_module(f".{modules[name]}", package)
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        setattr(sys.modules[package], name, value)  # looked up once
        return value

    def listing() -> list[str]:
        return sorted({*vars(sys.modules[package]), *names, *modules})

    return PublicSurface(exports, names, lookup, listing)


def show_keywords_of(target: Callable[..., Any]) -> Callable[[Any], Any]:
    """A decorator: the signature (``help()``, a notebook's completion) of a function that
    hands its ``**keywords`` on to ``target`` shows ``target``'s keyword-only parameters.

    >>> def area(*, width: float = 1.0, height: float = 1.0) -> float:
    ...     return width * height
    >>> @show_keywords_of(area)
    ... def doubled(**keywords):
    ...     return 2 * area(**keywords)
    >>> import inspect; str(inspect.signature(doubled))
    "(*, width: 'float' = 1.0, height: 'float' = 1.0)"
    """
    import inspect

    def decorate(function: Any) -> Any:
        own = inspect.signature(function)
        kept = [p for p in own.parameters.values() if p.kind is not p.VAR_KEYWORD]
        handed = inspect.signature(target).parameters.values()
        keywords = [p for p in handed if p.kind is p.KEYWORD_ONLY]
        function.__signature__ = own.replace(parameters=[*kept, *keywords])
        return function

    return decorate
