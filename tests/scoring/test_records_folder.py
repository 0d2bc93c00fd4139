"""A run set's records folder (``scoring/records_folder.py``): no records file is left out silently.

Files the runner would not use (laid out wrongly, of a model outside the cohort, without
an attempts row) and records whose solver outputs would share a name are refused before
anything is written.
"""

from __future__ import annotations

import json

import pytest
from conftest import MODEL, SOLVER_TASK, write_run_set

from tcsexam_lib import InputRefused, load_report_params, run_report


def test_runner_refuses_records_of_a_model_outside_the_cohort_before_running(ws):
    path = write_run_set(ws)
    ghost = ws.root / "records" / "ghost-model" / SOLVER_TASK
    ghost.mkdir(parents=True)
    (ghost / "1.json").write_text(json.dumps(ws.records))
    with pytest.raises(InputRefused, match=r"field 'model' = \"ghost-model\" \(allowed: a model"):
        run_report([path])
    assert not (ws.root / "out" / "index.html").exists()


RECORDS_REFUSALS = [
    pytest.param(
        f"{MODEL}/{SOLVER_TASK}.json",
        r"field 'records' = \"test-model-a/maxcut-mqlib\.json\": not a records file laid out "
        r"as <model>/<task>/<attempt>\.json",
        id="file-one-level-too-high",
    ),
    pytest.param(
        f"{MODEL}/{SOLVER_TASK}/rerun/2.json",
        r"field 'records' = \"test-model-a/maxcut-mqlib/rerun/2\.json\": not a records file",
        id="file-one-level-too-deep",
    ),
    pytest.param(
        f"{MODEL}/{SOLVER_TASK}/2.JSON",
        r"field 'records' = \"test-model-a/maxcut-mqlib/2\.JSON\": not a records file",
        id="upper-case-extension",
    ),
    pytest.param(
        f"{MODEL}/{SOLVER_TASK}/2.json",
        r"2\.json: field 'attempt' = \"2\": no solver row test-model-a/maxcut-mqlib attempt '2' "
        r"in .*attempts\.csv \(allowed: a records file whose model, task and attempt have a row",
        id="records-without-an-attempts-row",
    ),
]


@pytest.mark.parametrize(("relative", "match"), RECORDS_REFUSALS)
def test_runner_refuses_records_files_it_would_not_use(
    ws, tmp_path, tiny_notebooks, relative, match
):
    path = write_run_set(ws)
    extra = ws.root / "records" / relative
    extra.parent.mkdir(parents=True, exist_ok=True)
    extra.write_text(json.dumps(ws.records))
    with pytest.raises(InputRefused, match=match):
        run_report([path], output=tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_records_whose_solver_outputs_would_share_a_file_name_are_refused(ws):
    from tcsexam_lib.scoring.records_folder import RecordsFile, check_records_folder

    params = load_report_params(write_run_set(ws))
    records = [
        RecordsFile(MODEL, "tsp", "large-1", ws.root / "records" / MODEL / "tsp" / "large-1.json"),
        RecordsFile(MODEL, "tsp-large", "1", ws.root / "records" / MODEL / "tsp-large" / "1.json"),
    ]
    with pytest.raises(
        InputRefused,
        match=r"tsp-large/1\.json: field 'attempt' = \"1\": its solver-score output "
        r"tsp-large-1\.json would overwrite that of .*tsp/large-1\.json",
    ):
        check_records_folder(
            params.records,
            records,
            models=params.models,
            solver_tasks={"tsp", "tsp-large"},
            suite=params.suite,
            source=str(params.source),
        )
