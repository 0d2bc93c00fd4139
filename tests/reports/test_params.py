"""Run-set parameter files (``reports/params.py``): every refusal names the file, the
field, the value received and what is allowed.
"""

from __future__ import annotations

import json
import re

import pytest
import yaml
from conftest import write_run_set

from tcsexam_lib import InputRefused, load_report_params

# --- parameter files: every refusal names file, field, value and what is allowed ------

PARAMS_REFUSALS = [
    pytest.param(
        {"protocl": "offline"},
        r"params\.yaml: field 'protocl' = \"offline\": unknown key; did you mean "
        r"'protocol'\? \(allowed: attempts, cohort, .*suite\)",
        id="unknown-key-typo",
    ),
    pytest.param(
        {"protocol": "onlin"},
        r"params\.yaml protocol: field 'protocol' = \"onlin\" \(allowed: \"online\", \"offline\"\)",
        id="protocol-outside-vocabulary",
    ),
    pytest.param(
        {"protocol": "online"},
        r"field 'protocol' = \"online\" \(allowed: 'offline' \(the protocol of .*cohort\.json\)\)",
        id="protocol-not-the-cohorts",
    ),
    pytest.param(
        {"records": None},
        r"field 'records' = null",
        id="records-null",
    ),
    pytest.param(
        {"cohort": "nowhere/cohort.json"},
        r"field 'cohort' = \"nowhere/cohort\.json\": .* is not an existing file "
        r"\(allowed: a path to an existing file",
        id="cohort-missing",
    ),
    pytest.param(
        {"records": "attempts.csv"},
        r"field 'records' = \"attempts\.csv\": .* is not an existing folder",
        id="records-not-a-folder",
    ),
    pytest.param(
        {"records": "recrods"},
        r"field 'records' = \"recrods\": \S*recrods is not an existing folder; did you mean "
        r"'records'\?",
        id="records-misspelt",
    ),
    pytest.param(
        {"suite": "nosuch"},
        r"(?s)params\.yaml: Suite not found.*field 'suite' = \"nosuch\": no suites/nosuch\.json "
        r"in .* \(allowed: lite",
        id="unknown-suite",
    ),
    pytest.param(
        {"output": "attempts.csv"},
        r"field 'output' = \"attempts\.csv\": .*attempts\.csv is an existing file "
        r"\(allowed: a folder \(existing or not\)",
        id="output-is-an-existing-file",
    ),
    pytest.param(
        {"output": "records/out"},
        r"field 'output' = \".*records/out\": the output folder lies inside the "
        r"records folder .*records \(allowed: output and records folders that do not contain",
        id="output-inside-the-records-folder",
    ),
    pytest.param(
        {"output": ".", "records": "lite-offline"},
        r"field 'records' = \"lite-offline\": the records folder .*lite-offline lies inside "
        r"the run set's output folder",
        id="records-inside-the-run-set-output",
    ),
    pytest.param(
        {"output": ".", "attempts": "lite-offline/attempts.csv"},
        r"field 'attempts' = \"lite-offline/attempts\.csv\": .*lite-offline/attempts\.csv lies "
        r"inside the run set's output folder .*lite-offline, which the runner replaces as a whole",
        id="attempts-inside-the-run-set-folder",
    ),
    pytest.param(
        {"notebooks": ["index", "teaching"]},
        r"field 'notebooks\[1\]' = \"teaching\" "
        r"\(allowed: \"cohort\", \"index\", \"solver_scoring\", \"diagnostics\"\)",
        id="unknown-notebook",
    ),
]


@pytest.mark.parametrize(("overrides", "match"), PARAMS_REFUSALS)
def test_params_refusals_name_file_field_value_and_allowed(ws, overrides, match):
    (ws.root / "lite-offline").mkdir()  # a records folder for the cases that point at it
    (ws.root / "lite-offline" / "attempts.csv").write_text("")
    path = write_run_set(ws, **overrides)
    with pytest.raises(InputRefused, match=match):
        load_report_params(path)


def test_params_output_override_inside_an_existing_file_is_refused(ws):
    path = write_run_set(ws)
    with pytest.raises(
        InputRefused,
        match=r"tcsexam report --output: field 'output' = \".*: .*attempts\.csv is an existing "
        r"file \(allowed: a folder",
    ):
        load_report_params(path, output=ws.attempts_path / "reports")


@pytest.mark.parametrize("model", ["org/model-x", "..", ".hidden", "a\\b"])
def test_params_refuse_a_cohort_model_that_is_not_one_folder_name(ws, model):
    ws.cohort["models"][model] = {"attempts_per_task": 1}
    path = write_run_set(ws)
    with pytest.raises(
        InputRefused,
        match=r"cohort\.json: field 'models' = "
        + re.escape(json.dumps(model))
        + r": .*folder named after it \(allowed: a model id usable as one folder name",
    ):
        load_report_params(path)


def test_params_missing_required_key_is_named(ws):
    path = write_run_set(ws)
    data = yaml.safe_load(path.read_text())
    del data["records"]
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(InputRefused, match=r"field 'records' = \(absent\): required"):
        load_report_params(path)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("suite: lite\nsuite: full\n", r"line 2 column 1: key 'suite' appears twice"),
        ("- suite\n- lite\n", r"field '\(top level\)' = \[\"suite\", \"lite\"\]"),
        ("suite: [lite\n", r"params\.yaml line \d+ column \d+"),
    ],
    ids=["repeated-key", "not-a-mapping", "not-yaml"],
)
def test_params_file_must_be_a_strict_yaml_mapping(tmp_path, text, match):
    path = tmp_path / "params.yaml"
    path.write_text(text)
    with pytest.raises(InputRefused, match=match):
        load_report_params(path)


def test_params_paths_are_relative_to_the_file_and_output_overridable(ws, tmp_path):
    path = write_run_set(ws)
    params = load_report_params(path)
    assert params.cohort == ws.cohort_path.resolve()
    assert params.output == (ws.root / "out").resolve()
    assert params.name == "lite-offline"
    assert params.notebooks == ("cohort", "index", "solver_scoring", "diagnostics")
    assert load_report_params(path, output=tmp_path / "x").output == (tmp_path / "x").resolve()
