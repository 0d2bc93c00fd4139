"""How the kit is built: one home per formula, one pass per run set, a layout that shows it.

- Every library module stays under 500 lines; only ``formulas.py`` evaluates Phi;
  no module imports a private name of another, or anything from the package root (the
  public surface in ``tcsexam_lib/__init__.py`` is for users and notebooks).
- The library is built in layers (:data:`LAYERS`, ground floor first): no module imports
  from a higher layer, every module is in a layer, and no modules import each other in a
  circle.
- ``tcsexam report`` loads each input of a run set once and computes its index once:
  counted on the calls themselves, whatever name a module imported them under.
- Each track is declared once (``vocab.TRACK_DECLARATION``): no other module spells out
  the tracks, their letters, weights or formula; the input schemas list the same tracks.
- ``docs/architecture.md`` ("How the kit is built") names every module.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import MODEL, write_run_set

import tcsexam_lib
from tcsexam_lib import vocab
from tcsexam_lib.csvio import read_csv_table
from tcsexam_lib.references.load import load_reference
from tcsexam_lib.references.records import read_records_with_digest
from tcsexam_lib.references.suites import load_suite
from tcsexam_lib.reports import runner
from tcsexam_lib.schemas import load_schema
from tcsexam_lib.scoring.attempts import validate_attempts
from tcsexam_lib.scoring.cohort import load_cohort
from tcsexam_lib.scoring.index import compute_index

PACKAGE = Path(tcsexam_lib.__file__).resolve().parent
MODULES = sorted(PACKAGE.rglob("*.py"))
ARCHITECTURE = PACKAGE.parent / "docs" / "architecture.md"


def _relative(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def test_no_library_module_exceeds_500_lines():
    sizes = {_relative(p): len(p.read_text(encoding="utf-8").splitlines()) for p in MODULES}
    assert {name: n for name, n in sizes.items() if n > 500} == {}


def test_only_the_formulas_module_evaluates_phi():
    evaluating = [
        _relative(p)
        for p in MODULES
        if any(name in p.read_text(encoding="utf-8") for name in ("ndtr", "erfc", "math.erf"))
    ]
    assert evaluating == ["formulas.py"]


def _imports(path: Path) -> list[ast.ImportFrom]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]


def _target(path: Path, node: ast.ImportFrom) -> str:
    """The absolute module an ``import from`` names."""
    if node.level == 0:
        return node.module or ""
    parts = ["tcsexam_lib", *path.relative_to(PACKAGE).with_suffix("").parts]
    base = parts[: len(parts) - node.level]
    return ".".join([*base, node.module] if node.module else base)


def test_no_private_name_crosses_modules_and_no_import_runs_back_up_to_the_root():
    problems = []
    for path in MODULES:
        if path.name == "__init__.py" and path.parent == PACKAGE:
            continue
        for node in _imports(path):
            target = _target(path, node)
            if not target.startswith("tcsexam_lib"):
                continue
            if target == "tcsexam_lib":
                problems.append(f"{_relative(path)}: imports from the package root")
            private = [a.name for a in node.names if a.name.startswith("_")]
            if private:
                problems.append(f"{_relative(path)}: imports private {private} from {target}")
    assert problems == []


#: The layers of the library, ground floor first: a module may import from its own layer
#: and the layers below it, never from a layer above. Entries are modules or packages
#: (a package stands for every module in it); the package root, the public surface, is on
#: top of them all.
LAYERS: list[tuple[str, set[str]]] = [
    (
        "ground floor",
        {
            "version",
            "vocab",
            "errors",
            "paths",
            "gcpause",
            "formulas",
            "inputrules",
            "exports",
            "number_format",
            "internals",
            "digests",
        },  # fmt: skip
    ),
    (
        "reading and writing",
        {
            "inputfiles",
            "outputfiles",
            "jsonio",
            "csvio",
            "yamlio",
            "schemas",
            "provenance",
            "documents",
            "record_specs",
            "environment",
            "folders",
        },  # fmt: skip
    ),
    ("solver references and suites", {"references"}),
    ("scoring", {"scoring"}),
    ("uncertainty beside the index", {"stats"}),
    ("recomputing outputs, demo data", {"verify", "demo", "demo_scale"}),
    ("reports and teaching", {"reports", "teaching"}),
    ("the report notebooks' views", {"views"}),
    ("the command line", {"cli"}),
]


def _module_name(path: Path) -> str:
    """``tcsexam_lib.scoring.solver`` for ``scoring/solver.py`` (a package: its folder)."""
    parts = ["tcsexam_lib", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer_of(module: str) -> int | None:
    """The position in :data:`LAYERS` of a ``tcsexam_lib`` module (None: the root)."""
    parts = module.split(".")[1:]
    if not parts:
        return None
    for position, (_, members) in enumerate(LAYERS):
        if parts[0] in members:
            return position
    raise AssertionError(f"tcsexam_lib.{parts[0]} is in no layer of LAYERS")


def _imported_modules(path: Path) -> set[str]:
    """Every ``tcsexam_lib`` module ``path`` imports, anywhere in it (inside functions and
    ``TYPE_CHECKING`` blocks too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = _target(path, node)
            names = [f"{target}.{a.name}" for a in node.names]
            found |= {n for n in names if _is_module(n)} or {target}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return {name for name in found if name.startswith("tcsexam_lib")}


def _is_module(name: str) -> bool:
    relative = Path(*name.split(".")[1:])
    return (PACKAGE / relative).with_suffix(".py").is_file() or (PACKAGE / relative).is_dir()


def test_every_module_is_in_a_layer():
    unplaced = []
    for path in MODULES:
        try:
            _layer_of(_module_name(path))
        except AssertionError as exc:
            unplaced.append(str(exc))
    assert unplaced == []


def _layer_problems(module: str, imported: set[str]) -> list[str]:
    """Each import of ``module`` that reaches above its layer (or up to the root)."""
    layer = _layer_of(module)
    if layer is None:  # the package root: the public surface over every layer
        return []
    problems = []
    for target in sorted(imported):
        above = _layer_of(target)
        if above is None or above > layer:
            where = "the package root" if above is None else f"layer '{LAYERS[above][0]}'"
            problems.append(f"{module} (layer '{LAYERS[layer][0]}') imports {target} from {where}")
    return problems


def _circles(graph: dict[str, set[str]]) -> list[str]:
    """Every circle a depth-first walk of ``graph`` (module -> imported modules) meets."""
    circles: list[str] = []
    state: dict[str, str] = {}

    def visit(module: str, trail: list[str]) -> None:
        state[module] = "open"
        for target in sorted(graph.get(module, ())):
            if state.get(target) == "open":
                circles.append(" -> ".join([*trail[trail.index(target) :], target]))
            elif target not in state:
                visit(target, [*trail, target])
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    return circles


def _import_graph() -> dict[str, set[str]]:
    """Module -> the library modules it imports."""
    graph = {_module_name(p): _imported_modules(p) for p in MODULES}
    return {
        module: {t for t in targets if t in graph} - {module} for module, targets in graph.items()
    }


def test_no_module_imports_from_a_higher_layer():
    problems = [
        problem
        for path in MODULES
        for problem in _layer_problems(_module_name(path), _imported_modules(path))
    ]
    assert problems == []


def test_no_import_circle():
    assert _circles(_import_graph()) == []


def test_the_checks_see_an_import_from_above_and_a_circle():
    """The two checks above would fail on a bad layout (they do not pass by seeing nothing)."""
    assert _layer_problems("tcsexam_lib.vocab", {"tcsexam_lib.reports.runner"}) == [
        "tcsexam_lib.vocab (layer 'ground floor') imports tcsexam_lib.reports.runner from "
        "layer 'reports and teaching'"
    ]
    assert _layer_problems("tcsexam_lib.scoring.index", {"tcsexam_lib"}) != []
    assert _layer_problems("tcsexam_lib.scoring.index", {"tcsexam_lib.references.load"}) == []
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a -> b -> c -> a"]
    graph = _import_graph()
    assert "tcsexam_lib.scoring.index" in graph["tcsexam_lib.scoring.commands"]
    assert "tcsexam_lib.formulas" in graph["tcsexam_lib.references.rules"]
    assert "tcsexam_lib.scoring.solver" in graph["tcsexam_lib.scoring.commands"]  # in a function


def test_the_architecture_page_describes_every_module():
    section = ARCHITECTURE.read_text(encoding="utf-8").split("\n## Development", 1)[0]
    missing = [
        _relative(p)
        for p in MODULES
        if p.name not in ("__init__.py", "__main__.py") and f"`{_relative(p)}`" not in section
    ]
    assert missing == []


# --- each track declared once -------------------------------------------------------------

#: The tracks spelled out: their names in order, their letters in a row, the index formula,
#: the weights in a row.
SPELLED_TRACKS = re.compile(
    r"theorem\b.{0,40}?\bsolver\b.{0,40}?\bconstruction\b.{0,40}?\bconjecture"
    r"|\bP\W{0,2}S\W{0,2}C\W{0,2}O\b|\d+\s*[·*]\s*P\b|\b30\W+30\W+30\W+10\b",
    re.DOTALL,
)
#: Data keyed by track (suites and worked examples, not facts about the tracks), and a
#: docstring of a module another change owns: allowed to name them.
TRACK_DATA = {
    "demo.py",  # the demo suites' task prefixes
    "demo_scale.py",  # the Full-size demo suite
    "teaching/examples.py",  # the worked example's suite
    "teaching/formula_text.py",  # the worked example's track means and its printout
    "stats/pairs.py",  # "(P, S, C, O order)" in a docstring: reworded with its next change
}


def _tracks_named(path: Path) -> list[str]:
    """Where a module spells out the tracks, or holds a literal naming three or more."""
    text = path.read_text(encoding="utf-8")
    found = [m.group(0)[:40] for m in SPELLED_TRACKS.finditer(text)]
    for node in ast.walk(ast.parse(text)):
        items = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", [])
        named = {i.value for i in items if isinstance(i, ast.Constant)} & set(vocab.TRACKS)
        if len(named) >= 3 and isinstance(node, ast.Dict | ast.Set | ast.List | ast.Tuple):
            found.append(f"line {node.lineno}: {sorted(named)}")
    return found


def test_only_the_declaration_names_the_tracks():
    named = {
        _relative(p): _tracks_named(p)
        for p in MODULES
        if _relative(p) not in ("vocab.py", *TRACK_DATA)
    }
    assert {name: found for name, found in named.items() if found} == {}
    assert _tracks_named(PACKAGE / "vocab.py") != []  # the check sees the declaration


def test_the_published_input_schemas_list_the_declared_tracks():
    assert load_schema("attempts-row")["properties"]["track"]["enum"] == list(vocab.TRACKS)
    tracks = load_schema("suite")["properties"]["tracks"]
    assert tracks["required"] == list(tracks["properties"]) == list(vocab.TRACKS)


# --- one pass per run set ----------------------------------------------------------------

COUNTED = {
    "load_suite": load_suite,
    "load_cohort": load_cohort,
    "load_reference": load_reference,
    "read_csv_table": read_csv_table,
    "validate_attempts": validate_attempts,
    "compute_index": compute_index,
    "read_records_with_digest": read_records_with_digest,
}


class _CallCounter:
    """Counts calls of the functions above by their code objects (aliases included)."""

    def __init__(self) -> None:
        self.codes = {function.__code__: name for name, function in COUNTED.items()}
        self.calls: Counter[str] = Counter()
        self.records: Counter[str] = Counter()

    def __call__(self, frame, event, _arg):
        if event == "call" and frame.f_code in self.codes:
            name = self.codes[frame.f_code]
            self.calls[name] += 1
            if name == "read_records_with_digest":
                self.records[str(frame.f_locals["path"])] += 1


@pytest.fixture
def no_notebooks(monkeypatch):
    """The runner's writing and scoring, without starting a kernel."""
    from tcsexam_lib.reports import render

    monkeypatch.setattr(render, "execute_notebooks", lambda jobs, *_, **__: [])
    monkeypatch.setattr(render, "notebook_jobs", lambda *_: [])


def test_report_loads_each_input_once_and_computes_the_index_once(ws, no_notebooks):
    path = write_run_set(ws, notebooks=["index"])  # two records files, one per solver task
    counter = _CallCounter()
    sys.setprofile(counter)
    try:
        result = runner.run_report([path])
    finally:
        sys.setprofile(None)
    assert counter.calls == {
        "load_suite": 1,
        "load_cohort": 1,
        "load_reference": 1,
        "read_csv_table": 1,
        "validate_attempts": 1,
        "compute_index": 1,
        "read_records_with_digest": 2,
    }
    assert set(counter.records.values()) == {1}  # each records file read once
    (run_set,) = result.run_sets
    assert run_set.score["models"][MODEL]["status"] == "complete"
    assert run_set.index_output.is_file()


# --- output documents are read by attribute ----------------------------------------------

#: The modules that build an output document (and so write its keys).
DOCUMENT_BUILDERS = {
    "documents.py",
    "scoring/index_document.py",
    "scoring/solver_document.py",
    "stats/document.py",
    "stats/command.py",  # computes the stats document (its shape: stats/document.py)
    "reports/run_set_document.py",
    "reports/runsets.py",  # writes run-set.json (its shape: reports/run_set_document.py)
    "reports/history.py",  # writes history.jsonl's records and compares them
}

#: Modules that read outputs, and the keys they may still subscript, with the reason:
#: other kinds of data that happen to share a key with an output document.
READERS_MAY_SUBSCRIPT = {
    # a folder's run-set.json before it is known to be one the kit wrote
    "reports/publish.py": {"kind"},
    # the attempts table's columns (CSV text, by column number), not a document; and
    # fill_table's own lists (orphan outputs, unfilled rows)
    "scoring/fill.py": {
        "score",
        "score_status",
        "track",
        "model",
        "task",
        "attempt",
        "item",
        "line",
    },  # fmt: skip
    # inputs: a cohort file's raw data, the tiny cohort's attempts rows, a reference file
    "scoring/commands.py": {"simulated"},
    "teaching/examples.py": {"score", "adoption_status", "item", "model"},
    # the self-check's answer: a dict the student types, {"status": ..., "index": ...}
    "teaching/exercises.py": {"status", "index"},
    "demo.py": {"instances", "status"},
    # a reference file's raw data (the generator's input), not an output document; and
    # "models", the name of a scale in the generator's tables (SEEDS, LABELS, MARKERS)
    "demo_scale.py": {"direction", "instances", "kind", "tasks", "models"},
}

#: Modules that read output documents.
READERS = [
    "cli/scoring.py",
    "cli/reports.py",
    "reports/runner.py",
    "reports/runsets.py",
    "reports/landing.py",
    "reports/render.py",
    "reports/publish.py",
    "scoring/fill.py",
    "scoring/commands.py",
    "views/__init__.py",
    "views/notebook.py",
    "views/index.py",
    "views/leaderboard.py",
    "views/compare.py",
    "views/pair_tables.py",
    "views/solver.py",
    "views/stats.py",
    "views/tables.py",
    "views/charts.py",
    "teaching/examples.py",
    "teaching/exercises.py",
    "teaching/plots.py",
    "demo.py",
    "demo_scale.py",
]


def _document_keys() -> set[str]:
    from tcsexam_lib.documents import Record
    from tcsexam_lib.reports import history, run_set_document
    from tcsexam_lib.scoring import index_document, solver_document
    from tcsexam_lib.stats import document as stats_document

    modules = (index_document, solver_document, stats_document, run_set_document, history)
    return {
        key
        for module in modules
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, Record)
        for key in value.fields()
    }


def _string_subscripts(path: Path, keys: set[str]) -> set[str]:
    """Document keys ``path`` reads as ``x["key"]`` or ``x.get("key")``."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            found.add(node.slice.value)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.add(node.args[0].value)
    return found & keys


def test_output_documents_are_read_by_attribute_outside_the_modules_that_build_them():
    keys = _document_keys()
    assert {"models", "relative_score", "notebooks", "track_means", "tie_groups"} <= keys
    problems = {
        name: found
        for name in READERS
        if (
            found := _string_subscripts(PACKAGE / name, keys)
            - READERS_MAY_SUBSCRIPT.get(name, set())
        )
    }
    assert problems == {}
    assert all((PACKAGE / name).is_file() for name in DOCUMENT_BUILDERS)
