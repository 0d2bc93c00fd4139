"""A package's public names, each written once, imported when first used.

A package lists its public names once, under the module that defines each
(``{"formulas": ("phi", ...), ...}``); :func:`public_surface` turns that list into the
package's ``__all__``, its ``__getattr__`` (which imports a name's module the first time
the name is used, so that importing the package stays cheap) and its ``__dir__``. The
package root (``tcsexam_lib``) and ``tcsexam_lib.teaching`` use it.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable
from typing import Any


class PublicSurface:
    """What :func:`public_surface` gives a package.

    ``exports`` maps each public name to the module that defines it; ``all`` is the
    package's ``__all__``; ``getattr`` and ``dir`` are its ``__getattr__`` and ``__dir__``.
    (A plain class: importing the package imports nothing it does not need.)
    """

    __slots__ = ("exports", "all", "getattr", "dir")

    def __init__(
        self,
        exports: dict[str, str],
        names: list[str],
        lookup: Callable[[str], Any],
        listing: Callable[[], list[str]],
    ) -> None:
        self.exports, self.all, self.getattr, self.dir = exports, names, lookup, listing


def public_surface(
    package: str,
    public: dict[str, tuple[str, ...]],
    *,
    modules: dict[str, str] | None = None,
    also: Iterable[str] = (),
) -> PublicSurface:
    """The public surface of ``package`` from its one list of names.

    ``public`` maps a module (relative to the package) to the names it defines;
    ``modules`` maps a public module name to the module it is (``{"views":
    "reports.views"}``); ``also`` names further entries of ``__all__`` that the package
    provides itself.

    Examples
    --------
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
