"""The conda environment and the pip metadata declare the same dependencies."""

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


#: conda-forge names that differ from the PyPI ones.
CONDA_NAMES = {"python-fastjsonschema": "fastjsonschema"}


def _name(requirement: str) -> str:
    name = re.split(r"[<>=!~ \[]", requirement.strip(), maxsplit=1)[0].lower()
    return CONDA_NAMES.get(name, name)


def test_environment_yml_matches_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {_name(r) for r in project["dependencies"]}
    wanted |= {_name(r) for r in project["optional-dependencies"]["dev"]}
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    conda = {_name(d) for d in env["dependencies"] if isinstance(d, str)} - {"python", "pip"}
    # what conda-forge does not have comes from PyPI in the environment's pip section
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    conda |= {_name(d) for d in pip if not d.startswith("-e")}
    assert conda == wanted
