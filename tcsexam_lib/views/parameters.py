"""A report notebook's parameters: what each needs, where its paths are found, one refusal.

The ``parameters`` cell of each report notebook holds the values of the kit's SIMULATED
demo (``demo/demo-lite-offline``), so that a notebook opened in JupyterLab runs as it
is; papermill (``-f params/notebooks/<name>.yaml``, ``-p``) and the report runner give
other values. Before anything is computed, :func:`check_notebook_parameters` checks them
all at once:

- a parameter the notebook needs that is empty (``""`` or ``None``): the model, suite and
  protocol always; ``cohort`` and ``attempts`` unless ``index_json`` (an index already
  computed) is given; ``records_dir`` (and, to score them, ``reference_id``) unless
  ``solver_outputs`` (solver-score outputs already written) is given;
- a path that does not exist, saying where it was looked for.

**Where relative paths are found.** All relative paths of one run are read from one
folder: the kernel's working folder when every input path given is there (papermill run
from the kit's folder, the report runner, whose kernels run where their page is
published), else the kit's folder when every one is there (JupyterLab, whose kernel runs
in ``notebooks/``: the values of ``params/notebooks/*.yaml`` and the defaults are
relative to the kit). Output paths (``output``, ``output_dir``) are relative to the same
folder. An absolute path is used as it is.

Every problem is one line of a single :class:`~tcsexam_lib.errors.InputRefused`, which
names the parameter, its value, what it is (the comment of the parameters cell) and,
for a path, the folders it was looked for in.
"""

from __future__ import annotations

import ast
import io
import json
import os
import tokenize
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import Problem
from ..paths import KIT_ROOT

#: What every report notebook needs, always (none may be empty).
ALWAYS: dict[str, tuple[str, ...]] = {
    "cohort": ("suite", "protocol"),
    "index": ("model", "suite", "protocol"),
    "solver_scoring": ("model", "suite", "protocol"),
    "diagnostics": ("model", "suite", "protocol"),
}

#: Parameters needed unless another one is given: (given, then not needed).
UNLESS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "cohort": (("index_json", ("cohort", "attempts")),),
    "index": (("index_json", ("cohort", "attempts")),),
    "solver_scoring": (
        ("index_json", ("cohort", "attempts")),
        ("solver_outputs", ("records_dir", "reference_id")),
    ),
    "diagnostics": (
        ("index_json", ("cohort", "attempts")),
        ("solver_outputs", ("records_dir",)),
    ),
}

#: Path parameters read by the notebooks (a file or a folder that must exist).
INPUT_FILES = ("cohort", "attempts", "index_json", "stats_json")
INPUT_FOLDERS = ("references_dir", "solver_evidence", "records_dir", "solver_outputs")
#: Path parameters the notebooks write to (created as needed).
OUTPUTS = ("output", "output_dir")


@dataclass(frozen=True)
class Parameter:
    """One assignment of a notebook's ``parameters`` cell: name, default, its comment."""

    name: str
    default: Any
    comment: str


@lru_cache(maxsize=16)
def _parameters_cell(path: Path) -> tuple[Parameter, ...]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    cell = next(c for c in cells if "parameters" in c.get("metadata", {}).get("tags", []))
    source = "".join(cell["source"])
    comments = {
        token.start[0]: token.string.lstrip("#").strip()
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type == tokenize.COMMENT
    }
    return tuple(
        Parameter(node.targets[0].id, ast.literal_eval(node.value), comments.get(node.lineno, ""))
        for node in ast.parse(source).body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
    )


def notebook_parameters(notebook: str) -> tuple[Parameter, ...]:
    """The parameters of the kit's ``notebooks/<notebook>.ipynb``, in their cell's order.

    Read from the notebook's JSON (no papermill import in the kernel: it is slow).

    Examples
    --------
    >>> [p.name for p in notebook_parameters("index")][:3]
    ['model', 'suite', 'protocol']
    >>> notebook_parameters("index")[1].default
    'demo-lite'
    """
    return _parameters_cell(KIT_ROOT / "notebooks" / f"{notebook}.ipynb")


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _needed(notebook: str, values: dict[str, Any]) -> list[tuple[str, str]]:
    """The parameters this run needs, each with why (empty text: always)."""
    needed = [(name, "") for name in ALWAYS.get(notebook, ())]
    for given, names in UNLESS.get(notebook, ()):
        if _empty(values.get(given)):
            needed += [(name, f"needed unless {given} is given") for name in names]
    return needed


def _used(notebook: str, values: dict[str, Any]) -> set[str]:
    """The declared parameters this run reads (those made unneeded by another are not)."""
    unused = set()
    for given, names in UNLESS.get(notebook, ()):
        if not _empty(values.get(given)):
            unused |= set(names)
    return set(values) - unused


@dataclass(frozen=True)
class CheckedParameters:
    """What :func:`check_notebook_parameters` found: problems, and the resolved paths.

    ``resolved`` maps each path parameter to read from the kit's folder to its absolute
    path (empty when the working folder holds them all: the paths stay as given, relative).
    ``base`` is the folder relative paths are read from.
    """

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
    """Check a report notebook's parameters at once; find its relative paths' folder.

    ``namespace`` holds the parameters' values (the notebook's ``globals()``). Nothing
    is raised: the caller puts :attr:`CheckedParameters.problems` in one refusal.

    Examples
    --------
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
    declared = {p.name: p for p in notebook_parameters(notebook)}
    values = {name: namespace.get(name, p.default) for name, p in declared.items()}

    def problem(name: str, detail: str) -> Problem:
        about = declared[name].comment
        default = declared[name].default
        if isinstance(default, str) and default and default != values.get(name):
            about += f', e.g. the default "{default}"'
        return Problem(where, field=name, value=values.get(name), detail=detail, allowed=about)

    problems = [
        problem(name, "empty" + (f" ({why})" if why else ""))
        for name, why in _needed(notebook, values)
        if name in declared and _empty(values.get(name))
    ]
    used = _used(notebook, values)
    inputs = {
        name: Path(str(values[name]))
        for name in (*INPUT_FILES, *INPUT_FOLDERS)
        if name in declared and name in used and not _empty(values.get(name))
    }
    relative = {name: path for name, path in inputs.items() if not path.is_absolute()}
    bases = [cwd] if cwd.resolve() == kit.resolve() else [cwd, kit]
    base = next((b for b in bases if all(_exists(b / p, n) for n, p in relative.items())), None)
    for name, path in inputs.items():
        if path.is_absolute() and not _exists(path, name):
            problems.append(problem(name, f"{_kind(name)} not found"))
    if base is None:
        problems += [problem(name, detail) for name, detail in _not_found(bases, relative)]
    base = base or cwd
    resolved = {}
    if base != cwd:
        for name in (*relative, *OUTPUTS):
            value = values.get(name)
            if name in declared and not _empty(value) and not Path(str(value)).is_absolute():
                resolved[name] = str(base / str(value))
    order = list(declared)
    problems.sort(key=lambda p: order.index(p.field))  # in the parameters cell's order
    return CheckedParameters(tuple(problems), resolved, base)


def _exists(path: Path, name: str) -> bool:
    return path.is_dir() if name in INPUT_FOLDERS else path.is_file()


def _kind(name: str) -> str:
    return "folder" if name in INPUT_FOLDERS else "file"


def _folder_name(folder: Path, bases: list[Path]) -> str:
    label = "the working folder" if folder == bases[0] else "the kit's folder"
    return f"{label} {folder}"


def _not_found(bases: list[Path], relative: dict[str, Path]) -> list[tuple[str, str]]:
    """Why no folder holds every relative path: those found nowhere, else the mix."""
    where = {name: [b for b in bases if _exists(b / p, name)] for name, p in relative.items()}
    nowhere = [name for name, found in where.items() if not found]
    if nowhere:
        looked = ", nor in ".join(_folder_name(b, bases) for b in bases)
        return [(name, f"{_kind(name)} not found in {looked}") for name in nowhere]
    mixed = []
    for name, found in where.items():
        if len(found) < len(bases):
            others = [n for n, f in where.items() if found[0] not in f]
            mixed.append((name, (
                f"found only in {_folder_name(found[0], bases)}, where {', '.join(others)} "
                "is not: relative paths are read from one folder (give absolute paths to mix)"
            )))  # fmt: skip
    return mixed
