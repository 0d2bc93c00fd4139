"""The public surfaces, ``tcsexam_lib/__init__.py``, ``tcsexam_lib/teaching/__init__.py`` and
``tcsexam_lib/views/__init__.py``: each name written once, each one works.

Each package lists its public names once (module -> names); ``__all__`` and the lookup on
first use come from that list (``exports.py``). These tests check that every listed name
resolves to the object its module defines, that nothing else does, and that importing
the package stays cheap (no name is imported before it is used).
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys

import pytest

import tcsexam_lib
from tcsexam_lib import teaching, views

NAMES = [name for name in tcsexam_lib.__all__ if name not in ("__version__", "views")]


@pytest.mark.parametrize("name", NAMES)
def test_every_public_name_is_the_object_its_module_defines(name):
    module = importlib.import_module(f"tcsexam_lib.{tcsexam_lib._EXPORTS[name]}")
    assert getattr(tcsexam_lib, name) is getattr(module, name)


def test_the_list_is_the_one_source_of_all_and_dir():
    listed = [name for names in tcsexam_lib._PUBLIC.values() for name in names]
    assert len(listed) == len(set(listed)), "a public name listed twice"
    assert sorted(tcsexam_lib.__all__) == sorted([*listed, "__version__", "views"])
    assert set(tcsexam_lib.__all__) <= set(dir(tcsexam_lib))


def test_public_modules_and_the_version():
    from tcsexam_lib.version import VERSION

    assert tcsexam_lib.__version__ == VERSION
    assert tcsexam_lib.views is importlib.import_module("tcsexam_lib.views")
    assert tcsexam_lib.teaching is importlib.import_module("tcsexam_lib.teaching")


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        _ = tcsexam_lib.no_such_name


def _imported_by(package: str) -> list[str]:
    """The modules of ``package`` that a fresh interpreter has after ``import package``."""
    code = (
        f"import sys, {package}; print(sorted(m for m in sys.modules if m.startswith({package!r})))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return ast.literal_eval(done.stdout)


def test_importing_the_package_imports_no_public_name_yet():
    assert _imported_by("tcsexam_lib") == ["tcsexam_lib", "tcsexam_lib.exports"]


@pytest.mark.parametrize("name", teaching.__all__)
def test_every_teaching_name_is_the_object_its_module_defines(name):
    module = importlib.import_module(f"tcsexam_lib.teaching.{teaching._SURFACE.exports[name]}")
    assert getattr(teaching, name) is getattr(module, name)


def test_the_teaching_list_is_the_one_source_of_all():
    listed = [name for names in teaching._PUBLIC.values() for name in names]
    assert len(listed) == len(set(listed)), "a public name listed twice"
    assert teaching.__all__ == sorted(listed)
    with pytest.raises(AttributeError, match="'tcsexam_lib.teaching' has no attribute 'nope'"):
        _ = teaching.nope


def test_importing_teaching_imports_none_of_its_modules_yet():
    assert _imported_by("tcsexam_lib.teaching") == ["tcsexam_lib.teaching"]


@pytest.mark.parametrize("name", views.__all__)
def test_every_views_name_is_the_object_its_module_defines(name):
    where = views._SURFACE.exports.get(name)
    if where is None:  # defined in views/__init__.py, or imported there from outside views/
        assert name in ("MISSING_TEXT", "index_result", "setup", "solver_outputs")
        assert getattr(views, name) is vars(views)[name]
        return
    module = importlib.import_module(f"tcsexam_lib.views.{where}")
    assert getattr(views, name) is getattr(module, name)


def test_the_views_list_is_the_one_source_of_all():
    from tcsexam_lib.number_format import MISSING_TEXT

    listed = [name for names in views._PUBLIC.values() for name in names]
    assert len(listed) == len(set(listed)), "a public name listed twice"
    own = ["MISSING_TEXT", "index_result", "setup", "solver_outputs"]
    assert views.__all__ == sorted([*listed, *own])
    assert views.MISSING_TEXT is MISSING_TEXT
    with pytest.raises(AttributeError, match="'tcsexam_lib.views' has no attribute 'nope'"):
        _ = views.nope


def test_importing_views_imports_what_its_setup_needs_and_the_leaderboard():
    assert _imported_by("tcsexam_lib.views") == [
        "tcsexam_lib.views",
        "tcsexam_lib.views.charts",
        "tcsexam_lib.views.lab_tables",
        "tcsexam_lib.views.leaderboard",
        "tcsexam_lib.views.notebook",
        "tcsexam_lib.views.parameters",
        "tcsexam_lib.views.tables",
    ]
