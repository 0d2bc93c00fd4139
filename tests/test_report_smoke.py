"""Smoke tier (``make test-smoke``, ``pytest -m smoke``): the real notebooks on the demo.

The runner over one committed run set end to end (its landing page must list every
model with the status and index that ``run_score`` gives on the demo's attempts
table), and each notebook run directly with its ``params/notebooks/*.yaml``, as
``papermill notebooks/X.ipynb out.ipynb -f params/notebooks/X.yaml`` does. Slow (a
kernel per notebook): excluded from ``make test-unit``.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import papermill
import pytest
import yaml

from tcsexam_lib import run_report, run_score
from tcsexam_lib.paths import KIT_ROOT
from tcsexam_lib.report_params import load_report_params

pytestmark = pytest.mark.smoke

PARAMS = KIT_ROOT / "params"
RUN_SET = PARAMS / "demo-lite-offline.yaml"


def _landing_rows(page: str) -> dict[str, tuple[str, str]]:
    """model -> (status, index cell text) from the landing page's table rows."""
    pattern = r"<tr><td>([^<]+)</td><td class='(\w+)'>\w+</td><td class='num'>([^<]+)</td>"
    return {model: (status, index) for model, status, index in re.findall(pattern, page)}


def test_runner_on_a_demo_run_set_lists_every_model_as_run_score_does(tmp_path):
    params = load_report_params(RUN_SET)
    result = run_report([RUN_SET], jobs=2, output=tmp_path)
    assert result.ok, [f.error for f in result.failures]
    expected = run_score(suite=params.suite, attempts=params.attempts, cohort=params.cohort)
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "SIMULATED DEMO DATA — not TCSExam results" in page
    rows = _landing_rows(page)
    assert set(rows) == set(expected["models"]) == set(params.models)
    for model, entry in expected["models"].items():
        index = "—" if entry["index"] is None else f"{entry['index']:.4f}"
        assert rows[model] == (entry["status"], index), model
        for name in params.notebooks:
            executed = tmp_path / params.name / model / f"{name}.ipynb"
            assert executed.with_suffix(".html").is_file()
            assert Path(f"{executed.with_suffix('')}.reader.html").is_file()
            meta = nbformat.read(executed, as_version=4).metadata.papermill
            assert meta["parameters"]["model"] == model and meta["exception"] is None
    statuses = sorted(entry["status"] for entry in expected["models"].values())
    assert statuses == ["complete", "incomplete", "provisional"]  # the demo's three stories


@pytest.mark.parametrize("name", ["solver_scoring", "index", "diagnostics"])
def test_notebook_runs_directly_with_its_papermill_parameter_file(tmp_path, name, monkeypatch):
    parameters = yaml.safe_load((PARAMS / "notebooks" / f"{name}.yaml").read_text())
    for key in ("output", "output_dir"):  # keep the smoke run out of build/
        if parameters.get(key):
            parameters[key] = str(tmp_path / key)
    monkeypatch.chdir(KIT_ROOT)  # the parameter files' paths are relative to the kit
    out = tmp_path / f"{name}.ipynb"
    papermill.execute_notebook(
        str(KIT_ROOT / "notebooks" / f"{name}.ipynb"),
        str(out),
        parameters=parameters,
        progress_bar=False,
    )
    executed = nbformat.read(out, as_version=4)
    banner = executed.cells[3].outputs[0]["data"]["text/plain"]
    assert banner.startswith("SIMULATED DEMO DATA — not TCSExam results")
    if name == "index":
        assert (tmp_path / "output").is_file()
    if name == "solver_scoring":
        assert sorted(p.name for p in (tmp_path / "output_dir").iterdir())
