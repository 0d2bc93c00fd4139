"""``tcsexam report``: run-set parameter files, filling solver rows, the runner and its pages.

Inputs are the test-only workspace of ``conftest.py`` laid out as a run set (a records
folder ``<model>/<task>/<attempt>.json`` and a ``params.yaml``). Runner tests use tiny
notebooks written into ``tmp_path`` (one kernel each) so that they stay fast; the real
notebooks on the real demo are the ``smoke`` tier (``tests/test_report_smoke.py``).
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

import nbformat
import pandas as pd
import pytest
import yaml
from conftest import (
    MODEL,
    SOLVE_TASK,
    SOLVER_TASK,
    Workspace,
    read_output,
    tiny_notebook,
    write_run_set,
)

from tcsexam_lib import (
    InputRefused,
    fill_solver_rows,
    load_report_params,
    run_report,
    run_score,
    run_solver_score,
)
from tcsexam_lib.reports import runner as report_module
from tcsexam_lib.reports.landing import build_landing_page
from tcsexam_lib.reports.publish import read_manifests


def sat_score(ws: Workspace) -> float:
    path = ws.root / "records" / MODEL / SOLVE_TASK / "1.json"
    return run_solver_score(task=SOLVE_TASK, records=path, reference=ws.reference_path)[
        "relative_score"
    ]


# --- parameter files: every refusal names file, field, value and what is allowed ------

PARAMS_REFUSALS = [
    pytest.param(
        {"protocl": "offline"},
        r"params\.yaml: field 'protocl' = \"offline\": unknown key \(did you mean "
        r"'protocol'\?\) \(allowed: attempts, cohort, .*suite\)",
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
        {"suite": "nosuch"},
        r"(?s)params\.yaml: Suite not found.*field 'suite' = \"nosuch\" \(allowed: lite",
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
        r"\(allowed: \"cohort\", \"solver_scoring\", \"index\", \"diagnostics\"\)",
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
    assert params.notebooks == ("cohort", "solver_scoring", "index", "diagnostics")
    assert load_report_params(path, output=tmp_path / "x").output == (tmp_path / "x").resolve()


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


def test_runner_refuses_a_short_solver_row_for_its_field_count_not_its_records(
    ws, tmp_path, tiny_notebooks
):
    path = write_run_set(ws)
    text = ws.attempts_path.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if f",{SOLVER_TASK}," in line)
    ws.attempts_path.write_text(text.replace(row, row.rsplit(",", 1)[0]), encoding="utf-8")
    with pytest.raises(
        InputRefused,
        match=r"attempts\.csv \(blank solver scores filled\) line 7: 9 fields, header has 10",
    ):
        run_report([path], output=tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_records_whose_solver_outputs_would_share_a_file_name_are_refused(ws):
    from tcsexam_lib.reports.records import RecordsFile, check_records_folder

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


def test_runner_names_the_missing_records_file_of_a_blank_solver_score(
    ws, tmp_path, tiny_notebooks
):
    path = write_run_set(ws)  # the solve task's score is blank: its records give it
    (ws.root / "records" / MODEL / SOLVE_TASK / "1.json").unlink()
    with pytest.raises(
        InputRefused,
        match=r"attempts\.csv line \d+: field 'score' = \"\": blank valid solver score and no "
        r"records file .*records/test-model-a/test-sat-solve/1\.json",
    ):
        run_report([path], output=tmp_path / "out")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("jobs", [0, -2])
def test_runner_refuses_a_jobs_count_below_one_before_writing_anything(
    ws, tmp_path, tiny_notebooks, jobs
):
    path = write_run_set(ws)
    with pytest.raises(
        InputRefused, match=rf"field 'jobs' = {jobs} \(allowed: a whole number >= 1"
    ):
        run_report([path], jobs=jobs, output=tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_runner_refuses_a_bad_attempts_table_before_writing_anything(ws, tmp_path):
    path = write_run_set(ws)
    for row in ws.rows:
        if row["item"] == "test-thm-1":
            row["score"] = "0.5"  # a theorem score must be exactly 0 or 1
    ws.write()
    with pytest.raises(
        InputRefused,
        match=r"(?s)params\.yaml: .*attempts\.csv \(blank solver scores filled\) line 2.*"
        r"field 'score' = \"0\.5\"",
    ):
        run_report([path], output=tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_runner_refuses_two_files_for_the_same_run_set(ws):
    path = write_run_set(ws)
    twin = ws.root / "twin.yaml"
    twin.write_text(path.read_text())
    with pytest.raises(
        InputRefused, match=r"twin\.yaml: field 'suite/protocol' = \"lite-offline\""
    ):
        run_report([path, twin])


# --- fill_solver_rows ------------------------------------------------------------------


def _read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _outputs(ws: Workspace) -> list[dict[str, Any]]:
    return [
        run_solver_score(
            task=task,
            records=ws.root / "records" / MODEL / task / "1.json",
            reference=ws.reference_path,
            model=MODEL,
            attempt="1",
        )
        for task in (SOLVER_TASK, SOLVE_TASK)
    ]


def test_fill_sets_blank_valid_solver_scores_and_never_touches_the_input(ws):
    write_run_set(ws)
    before = ws.attempts_path.read_bytes()
    result = fill_solver_rows(ws.attempts_path, _outputs(ws), ws.root / "filled.csv")
    assert ws.attempts_path.read_bytes() == before
    assert [(f["item"], f["score"]) for f in result.filled] == [(SOLVE_TASK, sat_score(ws))]
    assert result.mismatches == [] and result.unfilled == []
    rows = {r["item"]: r for r in _read_csv(ws.root / "filled.csv")}
    assert float(rows[SOLVE_TASK]["score"]) == sat_score(ws)  # exact: shortest repr
    assert rows[SOLVER_TASK]["score"] == "0.25"  # hand-written and agreeing: kept as written
    assert rows["test-thm-1"] == {**rows["test-thm-1"], "score": "1", "note": ""}


def test_fill_reports_a_disagreeing_hand_written_score_and_keeps_it(ws):
    write_run_set(ws)
    for row in ws.rows:
        if row["item"] == SOLVER_TASK:
            row["score"] = "0.2500001"
    ws.write()
    result = fill_solver_rows(ws.attempts_path, _outputs(ws), ws.root / "filled.csv")
    (issue,) = result.mismatches
    assert issue["item"] == SOLVER_TASK and issue["line"] == 7
    assert "table score 0.2500001 differs from the solver-score value 0.25" in issue["message"]
    rows = {r["item"]: r for r in _read_csv(ws.root / "filled.csv")}
    assert rows[SOLVER_TASK]["score"] == "0.2500001"


def test_fill_keeps_quoting_bom_crlf_and_names_physical_lines(ws):
    """A note over two lines shifts later rows: lines are counted as the attempts reader does."""
    write_run_set(ws)
    ws.rows[0]["note"] = 'judge said "ok,\nfine"'  # CRLF once the file is converted below
    for row in ws.rows:
        if row["item"] == SOLVER_TASK:
            row["score"] = "0.2500001"
    ws.write()
    text = ws.attempts_path.read_text(encoding="utf-8").replace("\n", "\r\n")
    ws.attempts_path.write_bytes(("\ufeff" + text).encode("utf-8"))
    result = fill_solver_rows(ws.attempts_path, _outputs(ws), ws.root / "filled.csv")
    (issue,) = result.mismatches
    assert (issue["item"], issue["line"]) == (SOLVER_TASK, 8)
    assert "(line 8)" in issue["message"]
    rows = _read_csv(ws.root / "filled.csv")
    assert rows[0]["note"] == 'judge said "ok,\r\nfine"'
    assert [r["model"] for r in rows] == [r["model"] for r in ws.rows]


def test_fill_within_tolerance_is_no_issue_and_a_blank_without_output_stays_blank(ws):
    write_run_set(ws)
    for row in ws.rows:
        if row["item"] == SOLVER_TASK:
            row["score"] = repr(0.25 + 5e-10)
    ws.write()
    outputs = [o for o in _outputs(ws) if o["task"] == SOLVER_TASK]
    result = fill_solver_rows(ws.attempts_path, outputs, ws.root / "filled.csv")
    assert result.mismatches == [] and result.filled == []
    assert [u["item"] for u in result.unfilled] == [SOLVE_TASK]


def test_fill_refuses_a_table_that_is_not_utf8_and_writes_nothing(ws):
    write_run_set(ws)
    ws.attempts_path.write_bytes(ws.attempts_path.read_bytes() + "café\n".encode("latin-1"))
    with pytest.raises(InputRefused, match=r"attempts\.csv: .*can't decode byte 0xe9"):
        fill_solver_rows(ws.attempts_path, [], ws.root / "filled.csv")
    assert not (ws.root / "filled.csv").exists()


def test_fill_refuses_to_write_over_its_input(ws):
    write_run_set(ws)
    with pytest.raises(InputRefused, match=r"field 'output' .*\(allowed: a path other than"):
        fill_solver_rows(ws.attempts_path, [], ws.attempts_path)


# --- the runner, with tiny notebooks ---------------------------------------------------


@pytest.fixture
def tiny_notebooks(tmp_path, monkeypatch) -> Path:
    """``index`` prints its model; ``solver_scoring`` fails in its third cell."""
    folder = tmp_path / "notebooks"
    folder.mkdir()
    tiny_notebook(folder / "index.ipynb", 'print("report of", model)')
    tiny_notebook(folder / "solver_scoring.ipynb", "1 / 0")
    monkeypatch.setattr(report_module, "NOTEBOOKS_DIR", folder)
    return folder


def test_runner_reports_a_failing_notebook_with_its_cell_while_the_others_finish(
    ws, tiny_notebooks, run_cli
):
    path = write_run_set(ws, notebooks=["solver_scoring", "index"])
    done = run_cli(["report", path, "-j", "2"])
    assert done.code == 1, done.err
    # papermill injects a parameters cell after the tagged one: the failing cell is In [4].
    assert "FAILED lite-offline/test-model-a/solver_scoring: cell In [4] (1 / 0): " in done.err
    assert "ZeroDivisionError: division by zero" in done.err
    assert "ok lite-offline/test-model-a/index" in done.out
    assert "[2/2]" in done.out and "1 of 2 notebook(s) ran" in done.out

    out = ws.root / "out"
    run_set = out / "lite-offline"
    model_dir = run_set / "models" / MODEL
    evidence = run_set / "evidence" / MODEL
    # runner layout: solver outputs, filled attempts, index JSON, notebooks and HTML
    assert sorted(p.name for p in evidence.iterdir()) == sorted(
        [f"{SOLVE_TASK}-1.json", f"{SOLVER_TASK}-1.json"]
    )
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no staging left
    solver_out = read_output(evidence / f"{SOLVER_TASK}-1.json")
    assert (solver_out["model"], solver_out["attempt"], solver_out["relative_score"]) == (
        MODEL,
        "1",
        0.25,
    )
    for name in ("index", "solver_scoring"):
        for suffix in (".ipynb", ".html"):
            assert (model_dir / f"{name}{suffix}").is_file(), f"{name}{suffix}"
    assert not list(model_dir.glob(".*partial*"))
    executed = nbformat.read(model_dir / "index.ipynb", as_version=4)
    assert executed.metadata.papermill.parameters["model"] == MODEL
    assert "report of test-model-a" in executed.cells[-1].outputs[0]["text"]
    page = (model_dir / "index.html").read_text()
    code = '<span class="n">model</span>'  # the cell's source, as the HTML highlights it
    assert "report of test-model-a" in page and code in page  # the code, shown on demand
    assert '<span id="code"></span>' in page and 'href="#code">Show the code' in page
    assert "<title>lite-offline/test-model-a/index (TCSExam report)</title>" in page

    filled = {r["item"]: r for r in _read_csv(run_set / "lite-offline.attempts.csv")}
    assert float(filled[SOLVE_TASK]["score"]) == sat_score(ws)
    index = read_output(run_set / "lite-offline.index.json")
    assert index["solver_evidence"]["consistent"] is True
    assert index["provenance"]["producer"] == "tcsexam report"

    landing = (out / "index.html").read_text()
    assert "SIMULATED DEMO DATA — not TCSExam results" in landing
    assert "1 notebook(s) failed" in landing and "ZeroDivisionError" in landing
    entry = index["models"][MODEL]
    assert f"<td class='complete'>complete</td><td>{MODEL}</td>" in landing
    assert f"<td class='num'>{entry['index']:.2f}</td>" in landing
    assert "href='lite-offline/models/test-model-a/index.html'" in landing
    assert "href='lite-offline/models/test-model-a/index.html#code'" in landing


def test_runner_index_equals_run_score_and_real_data_get_no_banner(ws, tiny_notebooks):
    ws.suite.pop("simulated")
    ws.reference.pop("simulated")
    path = write_run_set(ws, notebooks=["index"])
    lines = []
    result = run_report([path], progress=lines.append)
    assert result.ok and len(result.run_sets[0].notebooks) == 1
    expected = run_score(
        suite="lite",
        attempts=ws.root / "out" / "lite-offline" / "lite-offline.attempts.csv",
        cohort=ws.cohort_path,
        references_dir=ws.refs_dir,
    )
    got = result.run_sets[0].score["models"][MODEL]
    assert got["index"] == expected["models"][MODEL]["index"]
    assert got["track_means"] == expected["models"][MODEL]["track_means"]
    assert any("1 blank solver score(s) filled" in line for line in lines)
    assert lines[-1].endswith(f"landing page {ws.root / 'out' / 'index.html'}")
    page = (ws.root / "out" / "index.html").read_text()
    assert page == build_landing_page(read_manifests(ws.root / "out"))
    assert "SIMULATED" not in page
    assert "<th class='num'>P</th><th class='num'>S</th><th class='num'>C</th>" in page


def test_landing_page_escapes_model_names_in_text_and_links():
    model = "o'brien<b>"
    folder = f"models/{model}"
    notebook = {"name": "index", "ok": True, "error": None}
    for key, suffix in (("executed", "ipynb"), ("html", "html")):
        notebook[key] = f"{folder}/index.{suffix}"
    entry = {"status": "complete", "index": 55.5,
             "track_means": {"P": 0.4, "S": 0.25, "C": 1.2, "O": 0.0}}  # fmt: skip
    manifest = {
        "folder": "lite-offline", "name": "lite-offline", "suite": "lite", "protocol": "offline",
        "simulated": False, "reference_id": "r", "status": "complete", "cohort": None,
        "index_json": "i.json", "attempts": "a.csv", "kernel_log": "k.log",
        "summary": {"models": {model: entry}}, "notebooks": {model: [notebook]},
    }  # fmt: skip
    page = build_landing_page([manifest])
    assert "o&#x27;brien&lt;b&gt;" in page and model not in page
    assert "href='lite-offline/models/o%27brien%3Cb%3E/index.html'" in page


# --- report_views on the demo (no kernel) ----------------------------------------------


@pytest.fixture(scope="module")
def demo_index() -> dict[str, Any]:
    demo = report_module.KIT_ROOT / "demo" / "demo-lite-offline"
    return run_score(suite="demo-lite", attempts=demo / "attempts.csv", cohort=demo / "cohort.json")


def test_views_explain_every_blocking_issue_and_excluded_attempt(demo_index):
    from tcsexam_lib import views as report_views

    gamma = report_views.explain_status(demo_index, "sim-gamma").text
    assert gamma.startswith("sim-gamma is incomplete: no index is published")
    blocking = [i for i in demo_index["models"]["sim-gamma"]["issues"] if i["severity"] == "error"]
    assert blocking and all(issue["message"] in gamma for issue in blocking)
    alpha = report_views.explain_status(demo_index, "sim-alpha").text
    assert "[excluded] theorem/sim-thm-01 attempt '1'" in alpha
    assert "provisional" in report_views.explain_status(demo_index, "sim-beta").text


def test_views_coverage_marks_failed_and_missing_repeats(demo_index):
    from tcsexam_lib import views as report_views

    matrix = report_views.coverage_matrix(demo_index, "sim-gamma")
    cells = {cell.split(":")[0] for row in matrix.values.tolist() for cell in row if cell}
    assert {"valid", "failed", "missing"} <= cells
    contributions = report_views.track_table(demo_index, "sim-alpha")["contribution"]
    assert contributions.sum() == pytest.approx(demo_index["models"]["sim-alpha"]["index"])


def test_fill_writes_formula_like_notes_as_text_and_leaves_the_input_alone(ws):
    """CSV injection: the copy the kit writes is safe to open in a spreadsheet."""
    write_run_set(ws)
    ws.rows[0]["note"] = '=HYPERLINK("http://x","y")'
    ws.rows[1]["note"] = "-rerun"
    ws.write()
    before = ws.attempts_path.read_bytes()
    fill_solver_rows(ws.attempts_path, _outputs(ws), ws.root / "filled.csv")
    assert ws.attempts_path.read_bytes() == before
    rows = _read_csv(ws.root / "filled.csv")
    assert rows[0]["note"] == '\'=HYPERLINK("http://x","y")'
    assert rows[1]["note"] == "'-rerun"
    assert rows[0]["score"] == ws.rows[0]["score"]  # a number is left as it is


def test_charts_never_read_mathtext_and_carry_the_simulated_label(demo_index):
    import io

    from tcsexam_lib import views as report_views

    odd = "sim-$\\frac$"  # not valid mathtext: drawing it as mathtext would raise
    result = {**demo_index, "models": {odd: demo_index["models"]["sim-gamma"]}}
    charts = [
        report_views.plot_track_contributions(result, odd),
        report_views.plot_coverage(result, odd),
        report_views.plot_repeat_spread(result, odd),
        report_views.plot_ranked_index(result),
        report_views.plot_task_heatmap(result),
    ]
    for fig in charts:
        fig.savefig(io.BytesIO(), format="png")
        assert fig.get_suptitle() == report_views.SIMULATED_TEXT
    title = charts[0].axes[0].get_title()
    assert title == f"{odd}: incomplete, no index (incomplete)" and "null" not in title


def test_each_issue_is_said_once_with_what_to_do(demo_index):
    from tcsexam_lib import views as report_views

    beta = report_views.explain_status(demo_index, "sim-beta").text
    assert "change its adoption_status from selected_provisional to selected" in beta
    assert "run the report again" in beta
    assert beta.count("sim-con-02") == 1 and "(line 44)" in beta
    assert "provisionally (selected_provisional)" not in beta
    gamma = report_views.explain_status(demo_index, "sim-gamma").text
    blocking = [i for i in demo_index["models"]["sim-gamma"]["issues"] if i["severity"] == "error"]
    for issue in blocking:
        assert gamma.count(issue["message"]) == 1
    assert gamma.count("What to do:") == len(blocking)


def test_tables_use_one_number_format_and_hide_nothing(demo_index):
    from tcsexam_lib import views as report_views

    board = report_views.table_html(report_views.leaderboard(demo_index))
    alpha = demo_index["models"]["sim-alpha"]
    assert f"<td class='num'>{alpha['index']:.2f}</td>" in board
    assert f"<td class='num'>{alpha['track_means']['S']:.4f}</td>" in board
    assert "<th></th>" not in board and "e-0" not in board and "null" not in board
    issues = report_views.issues_table(demo_index, "sim-alpha")
    assert report_views.table_html(issues).startswith("<p class='tcs-note'>No issue")
    plan = report_views.solver_plan_table(demo_index, "sim-gamma", [])
    assert "planned, no adopted attempt yet" in plan["state"].tolist()
    big = pd.DataFrame({"n": range(2000)})
    assert report_views.table_html(big).count("<tr>") == 2001  # every row, header included


def test_report_intervals_are_those_of_tcsexam_stats(demo_index, tmp_path):
    """Leaderboard, forest plot, pair matrix and track table show the stats document."""
    from matplotlib.patches import Rectangle

    from tcsexam_lib import views as report_views
    from tcsexam_lib.jsonio import write_json_atomic
    from tcsexam_lib.stats.command import run_stats

    write_json_atomic(tmp_path / "index.json", demo_index)
    written = run_stats(index=tmp_path / "index.json", output=tmp_path / "stats.json")
    stats = report_views.stats_result(demo_index, stats_json=tmp_path / "stats.json")
    computed = report_views.stats_result(demo_index)  # standalone: the same numbers
    assert computed["models"] == written["models"] and computed["pairs"] == written["pairs"]
    board = report_views.leaderboard(demo_index, stats).set_index("model")
    for model, entry in written["models"].items():
        assert board.loc[model, "± half-width"] == entry["index_ci_half_width"]
        low, high = entry["index_ci"] or (None, None)
        if entry["index"] is not None:
            assert low == pytest.approx(entry["index"] - entry["index_ci_half_width"])
            assert high == pytest.approx(entry["index"] + entry["index_ci_half_width"])
    assert board.loc["sim-alpha", "rank interval"] == "1–2"
    assert board.loc["sim-alpha", "tie group"] == 1 and board.loc["sim-gamma", "tie group"] is None
    # a significant pair is framed twice (both halves of the matrix), a tie is not framed
    for significant in (False, True):
        pairs = [{**p, "significant": significant} for p in stats["pairs"]]
        fig = report_views.plot_pair_matrix(demo_index, {**stats, "pairs": pairs})
        frames = [p for p in fig.axes[0].patches if isinstance(p, Rectangle)]
        assert len(frames) == (2 * len(pairs) if significant else 0)
        assert fig.get_suptitle() == report_views.SIMULATED_TEXT
    forest = report_views.plot_index_intervals(demo_index, stats)
    assert [t.get_text() for t in forest.axes[0].get_yticklabels()] == ["sim-beta", "sim-alpha"]
    tracks = report_views.track_intervals_table(stats, "sim-alpha")
    assert tracks["mean"].tolist() == [
        written["models"]["sim-alpha"]["tracks"][t]["mean"] for t in tracks["track"]
    ]
    assert "no index" in report_views.index_interval_note(stats, "sim-gamma").text


@pytest.mark.parametrize(
    ("edit", "match"),
    [
        (lambda s: s["models"]["sim-alpha"].update(index=1.0), "models.sim-alpha.index"),
        (lambda s: s["models"].pop("sim-gamma"), "the models of the index shown"),
        (lambda s: s.pop("pairs"), "field 'pairs'"),
        (lambda s: s["models"]["sim-beta"].update(status="complete"), "sim-beta.status"),
    ],
)
def test_stats_of_another_index_are_refused(demo_index, tmp_path, edit, match):
    from tcsexam_lib import views as report_views
    from tcsexam_lib.jsonio import write_json_atomic

    stats = report_views.stats_result(demo_index, resamples=200)
    edit(stats)
    write_json_atomic(tmp_path / "stats.json", stats)
    with pytest.raises(InputRefused, match=match) as refused:
        report_views.stats_result(demo_index, stats_json=tmp_path / "stats.json")
    assert str(tmp_path / "stats.json") in str(refused.value)
