"""Every file a docstring of the library or a page of the manual names exists.

A file is named as a path with a folder of the checkout (``tests/test_demo.py``,
``references/schemas/run-set.schema.json``) or, in the manual and in module docs, as a
module of the library relative to its package (``scoring/index.py``, ``documents.py``).
Paths with a placeholder (``<suite>``, ``*``, ``{name}``) are patterns, not files; the files
the kit writes or a user brings are listed below with the reason they are not in the
checkout.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tcsexam_lib"
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FOLDERS = ("tcsexam_lib", "tests", "docs", "references", "notebooks", "benchmarks", "params")
SUFFIXES = ("py", "md", "json", "ipynb", "yaml", "csv", "cfg", "png", "lock", "in", "yml")

#: Named, not in the checkout: what the kit writes or a user brings.
NOT_IN_THE_CHECKOUT = {
    "references/paper-k3-fixed-260925/full.json": "the fixed reference: a release file",
    "references/paper-k3-fixed-260925/lite.json": "the fixed reference: a release file",
    "references/suites/full.json": "the Full suite's task list: a release file",
    "references/suites/lite.json": "the Lite suite's task list: a release file",
    "params/my-lite-offline.yaml": "a researcher's own run set, in the manual's example",
    "references/demo-k3-sim-full-size-v1/demo-full-size.json": "written by tcsexam demo "
    "generate --scale full, in its own folder",
}

_PATH = re.compile(
    r"(?<![\w/.<>*{}-])((?:[\w.-]+/)*[\w.-]+\.(?:" + "|".join(SUFFIXES) + r"))(?![\w/-])"
)


def _docstrings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef
                                                           | ast.AsyncFunctionDef))]  # fmt: skip
    return [text for node in nodes if (text := ast.get_docstring(node))]


def _named(text: str) -> set[str]:
    found = set()
    for name in _PATH.findall(text):
        first = name.split("/")[0]
        module = name.endswith(".py") and (first in FOLDERS or "/" not in name or (
            PACKAGE / first).is_dir())  # fmt: skip
        if first in FOLDERS or module:
            found.add(name)
    return found


#: A module named alone (``widgets.py`` beside ``teaching/formula_text.py``): any of that name.
_MODULE_NAMES = {path.name for path in PACKAGE.rglob("*.py")}


def _exists(name: str, near: Path) -> bool:
    bases = [ROOT, PACKAGE, near, near.parent, ROOT / "tests"]
    alone = "/" not in name and name in _MODULE_NAMES
    return alone or name in NOT_IN_THE_CHECKOUT or any((base / name).exists() for base in bases)


def test_every_file_a_docstring_names_exists():
    missing = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for text in _docstrings(path)
        for name in _named(text)
        if not _exists(name, path.parent)
    }
    assert sorted(missing) == []


def test_every_file_the_manual_names_exists():
    missing = {
        f"{page.relative_to(ROOT)}: {name}"
        for page in PAGES
        for name in _named(page.read_text(encoding="utf-8"))
        if not _exists(name, page.parent)
    }
    assert sorted(missing) == []
