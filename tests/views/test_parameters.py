"""A report notebook's parameters (``views/parameters.py``, ``views.setup``).

The defaults run every notebook on the SIMULATED demo from JupyterLab's working folder
(``notebooks/``) and from the kit's; relative paths are read from one folder (the working
folder, else the kit's); every problem is named in one refusal, a path with the folders
it was looked for in; the example parameter files hold the defaults.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tcsexam_lib import InputRefused, views
from tcsexam_lib.paths import KIT_ROOT
from tcsexam_lib.reports.notebooks import (
    INPUT_FILE,
    INPUT_FOLDER,
    KINDS,
    NOTEBOOK_NAMES,
    OUTPUT,
    RUNNER_GIVES,
    cell_parameters,
)
from tcsexam_lib.reports.notebooks import notebook as declaration
from tcsexam_lib.views.parameters import check_notebook_parameters, notebook_parameters

NOTEBOOKS = list(NOTEBOOK_NAMES)


def defaults(notebook: str) -> dict:
    return {p.name: p.default for p in notebook_parameters(notebook)}


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_the_defaults_are_the_simulated_demo_and_found_from_notebooks_and_the_kit(notebook):
    values = defaults(notebook)
    assert values["suite"] == "demo-lite" and values["protocol"] == "offline"
    in_lab = check_notebook_parameters(notebook, values, working_folder=KIT_ROOT / "notebooks")
    assert in_lab.problems == () and in_lab.base == KIT_ROOT
    assert in_lab.resolved["cohort"] == str(KIT_ROOT / "demo/demo-lite-offline/cohort.json")
    from_kit = check_notebook_parameters(notebook, values, working_folder=KIT_ROOT)
    assert from_kit.problems == () and from_kit.resolved == {}  # the paths stay relative


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_each_declaration_is_its_notebooks_parameters_cell_as_papermill_reads_it(name):
    """The declaration names the cell's parameters, in its order, each with a comment."""
    declared = declaration(name)
    cell = cell_parameters(KIT_ROOT / "notebooks" / f"{name}.ipynb")
    assert [p.name for p in cell] == list(declared.parameters)
    assert all(p.comment for p in cell), [p.name for p in cell if not p.comment]
    assert set(declared.parameters.values()) <= set(KINDS)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_every_rule_names_a_declared_parameter(name):
    declared = declaration(name)
    named = set(declared.always) | {n for given, names in declared.unless for n in names}
    named |= {given for given, _ in declared.unless} | set(declared.runner)
    assert named <= set(declared.parameters)
    assert set(declared.runner.values()) <= set(RUNNER_GIVES)
    paths = set(declared.of_kind(INPUT_FILE, INPUT_FOLDER, OUTPUT))
    assert {"cohort", "attempts", "references_dir", "index_json"} <= paths


def test_the_run_set_parameter_schema_lists_the_declared_notebooks():
    import json

    schema = json.loads((KIT_ROOT / "references/schemas/report-params.schema.json").read_text())
    assert schema["properties"]["notebooks"]["items"]["enum"] == NOTEBOOKS


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_the_example_parameter_files_hold_the_defaults(notebook):
    """params/notebooks/<name>.yaml spell the defaults out (plus where to write)."""
    given = yaml.safe_load((KIT_ROOT / "params" / "notebooks" / f"{notebook}.yaml").read_text())
    values = defaults(notebook)
    outputs = set(declaration(notebook).of_kind(OUTPUT))
    assert {k: v for k, v in given.items() if k not in outputs} == {
        k: values[k] for k in given if k not in outputs
    }


def _refusal(notebook: str, monkeypatch, folder: Path, **changes) -> list[str]:
    monkeypatch.chdir(folder)
    namespace = {**defaults(notebook), **changes}
    with pytest.raises(InputRefused, match=r"^Notebook parameters refused \(\d+ problems?\)") as e:
        views.setup(notebook, namespace)
    return str(e.value).splitlines()[1:]


def test_every_problem_is_named_in_one_refusal(monkeypatch):
    lines = _refusal(
        "index", monkeypatch, KIT_ROOT / "notebooks", model="", cohort="", attempts="demo/x.csv",
        modle="sim-alpha",
    )  # fmt: skip
    where = "  - notebooks/index.ipynb parameters: field"
    assert lines == [
        f"{where} 'modle' = \"sim-alpha\": unknown parameter; did you mean 'model'? (allowed: "
        "model, suite, protocol, cohort, attempts, references_dir, solver_evidence, output, "
        "index_json, stats_json)",
        f"{where} 'model' = \"\": empty (allowed: the model this report is about, e.g. the "
        'default "sim-beta")',
        f"{where} 'cohort' = \"\": empty (needed unless index_json is given) (allowed: the "
        'cohort, a JSON file, e.g. the default "demo/demo-lite-offline/cohort.json")',
        f"{where} 'attempts' = \"demo/x.csv\": file not found in the working folder "
        f"{KIT_ROOT / 'notebooks'}, nor in the kit's folder {KIT_ROOT} (allowed: the attempts "
        'table, a CSV file, e.g. the default "demo/demo-lite-offline/attempts.csv")',
    ]


def test_a_folder_parameter_must_name_a_folder(monkeypatch):
    lines = _refusal(
        "diagnostics", monkeypatch, KIT_ROOT, records_dir="demo/demo-lite-offline/attempts.csv"
    )
    assert len(lines) == 1
    assert f"folder not found in the working folder {KIT_ROOT} (allowed" in lines[0]


def test_paths_are_read_from_one_folder(monkeypatch, tmp_path):
    """A path found only in the working folder and another only in the kit's: refused."""
    (tmp_path / "mine.csv").write_text("x\n")
    lines = _refusal("index", monkeypatch, tmp_path, attempts="mine.csv")
    assert len(lines) == 2
    cohort = "'cohort' = \"demo/demo-lite-offline/cohort.json\""
    assert f"{cohort}: found only in the kit's folder {KIT_ROOT}, where attempts" in lines[0]
    assert "where attempts is not: relative paths are read from one folder" in lines[0]
    assert f"'attempts' = \"mine.csv\": found only in the working folder {tmp_path}" in lines[1]


def test_absolute_paths_are_used_as_given(monkeypatch, tmp_path):
    cohort = KIT_ROOT / "demo/demo-lite-offline/cohort.json"
    found = check_notebook_parameters(
        "cohort", {**defaults("cohort"), "cohort": str(cohort)}, working_folder=tmp_path
    )
    assert found.problems == () and "cohort" not in found.resolved  # kept as it is
    lines = _refusal("cohort", monkeypatch, tmp_path, attempts=str(tmp_path / "none.csv"))
    assert lines[-1].startswith("  - notebooks/cohort.ipynb parameters: field 'attempts' = ")
    assert "file not found (allowed" in lines[-1]


def test_an_index_json_makes_cohort_and_attempts_unneeded_and_unread(tmp_path):
    index = tmp_path / "index.json"
    index.write_text("{}")
    values = {**defaults("index"), "cohort": "", "attempts": "gone.csv", "index_json": str(index)}
    assert check_notebook_parameters("index", values, working_folder=tmp_path).problems == ()
    values = {**defaults("diagnostics"), "records_dir": "", "solver_outputs": str(tmp_path)}
    assert check_notebook_parameters("diagnostics", values, working_folder=KIT_ROOT).problems == ()


def test_setup_replaces_the_kits_relative_paths_and_outputs(monkeypatch):
    monkeypatch.chdir(KIT_ROOT / "notebooks")
    namespace = {**defaults("index"), "output": "build/nb/index.json"}
    views.setup("index", namespace)
    assert namespace["attempts"] == str(KIT_ROOT / "demo/demo-lite-offline/attempts.csv")
    assert namespace["output"] == str(KIT_ROOT / "build/nb/index.json")  # beside the inputs
    assert namespace["model"] == "sim-beta" and namespace["references_dir"] == ""
