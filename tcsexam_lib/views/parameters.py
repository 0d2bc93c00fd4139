"""A report notebook's parameters checked at once: empty, missing paths, one refusal.

The rules: docs/reports.md, "The notebooks"; each notebook's declaration:
:mod:`tcsexam_lib.reports.notebooks`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import Problem
from ..paths import KIT_ROOT
from ..reports.notebooks import (
    INPUT_FOLDER,
    OUTPUT,
    CellParameter,
    ReportNotebook,
    cell_parameters,
    is_empty,
)
from ..reports.notebooks import notebook as declared_notebook


@lru_cache(maxsize=16)
def notebook_parameters(notebook: str) -> tuple[CellParameter, ...]:
    """The parameters of ``notebooks/<notebook>.ipynb`` as papermill reads them, in order.

    Only to word a refusal: papermill takes about a second to import.

    >>> [p.name for p in notebook_parameters("index")][:3]
    ['model', 'suite', 'protocol']
    >>> notebook_parameters("index")[1].default
    'demo-lite'
    """
    return cell_parameters(declared_notebook(notebook).source)


@dataclass(frozen=True)
class CheckedParameters:
    """Problems found; ``resolved``: each path read from the kit's folder made absolute;
    ``base``: the folder relative paths are read from."""

    problems: tuple[Problem, ...]
    resolved: dict[str, str]
    base: Path


def check_notebook_parameters(
    notebook: str,
    namespace: dict[str, Any],
    *,
    working_folder: str | os.PathLike[str] | None = None,
    kit_folder: str | os.PathLike[str] = KIT_ROOT,
) -> CheckedParameters:
    """Check a notebook's parameters (``namespace``: its ``globals()``); raise nothing.

    >>> values = {p.name: p.default for p in notebook_parameters("index")}
    >>> found = check_notebook_parameters("index", values, working_folder=KIT_ROOT / "notebooks")
    >>> found.problems, found.base == KIT_ROOT, found.resolved["cohort"].endswith("cohort.json")
    ((), True, True)
    >>> values.update(model="", attempts="")
    >>> found = check_notebook_parameters("index", values, working_folder=KIT_ROOT)
    >>> [(p.field, p.detail) for p in found.problems]
    [('model', 'empty'), ('attempts', 'empty (needed unless index_json is given)')]
    """
    where = f"notebooks/{notebook}.ipynb parameters"
    cwd = Path(working_folder if working_folder is not None else os.getcwd())
    kit = Path(kit_folder)
    declared = declared_notebook(notebook)
    values = {name: namespace.get(name) for name in declared.parameters}
    found: list[tuple[str, str]] = [
        (name, "empty" + (f" ({why})" if why else ""))
        for name, why in declared.needed(values)
        if is_empty(values.get(name))
    ]
    inputs = {name: Path(str(values[name])) for name in declared.read(values)}
    relative = {name: path for name, path in inputs.items() if not path.is_absolute()}
    folders = set(declared.of_kind(INPUT_FOLDER))
    bases = [cwd] if cwd.resolve() == kit.resolve() else [cwd, kit]
    base = next(
        (b for b in bases if all(_exists(b / p, n in folders) for n, p in relative.items())), None
    )
    for name, path in inputs.items():
        if path.is_absolute() and not _exists(path, name in folders):
            found.append((name, f"{_kind(name in folders)} not found"))
    if base is None:
        found += _not_found(bases, relative, folders)
    base = base or cwd
    resolved = {}
    if base != cwd:
        for name in (*relative, *declared.of_kind(OUTPUT)):
            value = values.get(name)
            if not is_empty(value) and not Path(str(value)).is_absolute():
                resolved[name] = str(base / str(value))
    order = list(declared.parameters)
    found.sort(key=lambda item: order.index(item[0]))  # in the parameters cell's order
    problems = _problems(declared, where, values, found) if found else ()
    return CheckedParameters(problems, resolved, base)


def _problems(
    declared: ReportNotebook, where: str, values: dict[str, Any], found: list[tuple[str, str]]
) -> tuple[Problem, ...]:
    """Each problem in the message template, with what the parameters cell says it is."""
    cell = {p.name: p for p in notebook_parameters(declared.name)}

    def problem(name: str, detail: str) -> Problem:
        about = cell[name].comment if name in cell else ""
        default = cell[name].default if name in cell else None
        if isinstance(default, str) and default and default != values.get(name):
            about += f', e.g. the default "{default}"'
        return Problem(where, field=name, value=values.get(name), detail=detail, allowed=about)

    return tuple(problem(name, detail) for name, detail in found)


def _exists(path: Path, folder: bool) -> bool:
    return path.is_dir() if folder else path.is_file()


def _kind(folder: bool) -> str:
    return "folder" if folder else "file"


def _folder_name(folder: Path, bases: list[Path]) -> str:
    label = "the working folder" if folder == bases[0] else "the kit's folder"
    return f"{label} {folder}"


def _not_found(
    bases: list[Path], relative: dict[str, Path], folders: set[str]
) -> list[tuple[str, str]]:
    """Why no folder holds every relative path: those found nowhere, else the mix."""
    where = {name: [b for b in bases if _exists(b / p, name in folders)]
             for name, p in relative.items()}  # fmt: skip
    nowhere = [name for name, found in where.items() if not found]
    if nowhere:
        looked = ", nor in ".join(_folder_name(b, bases) for b in bases)
        return [(name, f"{_kind(name in folders)} not found in {looked}") for name in nowhere]
    mixed = []
    for name, found in where.items():
        if len(found) < len(bases):
            others = [n for n, f in where.items() if found[0] not in f]
            mixed.append((name, (
                f"found only in {_folder_name(found[0], bases)}, where {', '.join(others)} "
                "is not: relative paths are read from one folder (give absolute paths to mix)"
            )))  # fmt: skip
    return mixed
