"""``tcsexam report``'s runner (``reports/runner.py``): refusals before anything is written,
a failing notebook reported with its cell while the others finish, the index it writes.

Inputs are the test-only workspace of ``conftest.py`` laid out as a run set (a records
folder ``<model>/<task>/<attempt>.json`` and a ``params.yaml``). Runner tests use tiny
notebooks written into ``tmp_path`` (one kernel each) so that they stay fast; the real
notebooks on the real demo are the ``smoke`` tier (``tests/test_report_smoke.py``).
"""

from __future__ import annotations

import re

import nbformat
import pytest
from conftest import (
    MODEL,
    SOLVE_TASK,
    SOLVER_TASK,
    read_csv_rows,
    read_output,
    sat_score,
    write_run_set,
)

from tcsexam_lib import InputRefused, run_report, run_score
from tcsexam_lib.reports.history import read_history
from tcsexam_lib.reports.landing import build_landing_page
from tcsexam_lib.reports.publish import read_manifests


def test_runner_refuses_a_short_solver_row_for_its_field_count_not_its_records(
    ws, tmp_path, tiny_notebooks
):
    path = write_run_set(ws)
    text = ws.attempts_path.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if f",{SOLVER_TASK}," in line)
    ws.attempts_path.write_text(text.replace(row, row.rsplit(",", 1)[0]), encoding="utf-8")
    with pytest.raises(
        InputRefused,
        match=r"attempts\.csv line 7: 9 fields, header has 10",
    ):
        run_report([path], output=tmp_path / "out")
    assert not (tmp_path / "out").exists()


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


def test_a_disagreeing_hand_written_solver_score_blocks_its_model_and_is_said(
    ws, tmp_path, tiny_notebooks
):
    """The score-versus-evidence check is made once (the index's solver evidence check): the
    issue blocks the model's index (incomplete, no index, so never ranked) and the runner
    names it under the model's line, with its code, line and the evidence file."""
    path = write_run_set(ws, notebooks=["index"])
    for row in ws.rows:
        if row["item"] == SOLVER_TASK:
            row["score"] = "0.2500001"
    ws.write()
    said: list[str] = []
    result = run_report([path], output=tmp_path / "out", progress=said.append)
    (run_set,) = result.run_sets
    entry = run_set.score["models"][MODEL]
    issues = [i for i in entry["issues"] if "evidence" in i["code"]]
    assert [(i["code"], i["item"], i["line"]) for i in issues] == [
        ("solver_evidence_score_mismatch", SOLVER_TASK, 7)
    ]
    assert (entry["status"], entry["index"]) == ("incomplete", None)
    stats = run_set.stats.head.result(MODEL)
    assert (stats.index, stats.rank_ci) == (None, None)  # no rank on a contradicted score
    head = said.index(f"[lite-offline] {MODEL}: incomplete, no index; blocked by 1 issue(s):")
    named = f"[lite-offline]   solver_evidence_score_mismatch: {issues[0]['message']}"
    assert said[head + 1] == named
    assert "table score 0.2500001 differs from relative_score 0.25 in evidence/" in named
    assert any(
        "1 blank solver score(s) filled, 1 written score(s) contradicted by their records" in line
        for line in said
    )


def test_runner_refuses_a_bad_attempts_table_before_writing_anything(ws, tmp_path):
    path = write_run_set(ws)
    for row in ws.rows:
        if row["item"] == "test-thm-1":
            row["score"] = "0.5"  # a theorem score must be exactly 0 or 1
    ws.write()
    with pytest.raises(
        InputRefused,
        match=r"(?s)params\.yaml: .*attempts\.csv line 2.*"
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
    # no staging left; the store of pages, hidden
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == [".tcsexam-store"]
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

    filled = {r["item"]: r for r in read_csv_rows(run_set / "lite-offline.attempts.csv")}
    assert float(filled[SOLVE_TASK]["score"]) == sat_score(ws)
    index = read_output(run_set / "lite-offline.index.json")
    assert index["solver_evidence"]["consistent"] is True
    assert index["provenance"]["producer"] == "tcsexam report"

    landing = (out / "index.html").read_text()
    assert "SIMULATED DEMO DATA — not TCSExam results" in landing
    assert "1 notebook(s) failed" in landing and "ZeroDivisionError" in landing
    entry = index["models"][MODEL]
    row = next(r for r in landing.split("<tr>") if f">{MODEL}</" in r)
    stats = read_output(run_set / "lite-offline.stats.json")
    low, high = stats["models"][MODEL]["index_ci"]  # one-task 0/1 tracks still have one
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
    assert cells[0] == "1" and cells[3:5] == ["yes", "complete"]  # rank, could be first, status
    above, below = f"{high - entry['index']:.2f}", f"{entry['index'] - low:.2f}"
    reach = f"± {above}" if above == below else f"(+{above} / −{below})"  # never past a bound
    assert re.sub(r"<[^>]*>", "", cells[2]) == f"{entry['index']:.2f} {reach}"
    assert "href='lite-offline/models/test-model-a/index.html'" in landing


def test_runner_index_equals_run_score_and_real_data_get_no_banner(ws, tiny_notebooks, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1790000000")  # the footer's build date, fixed
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
    out = ws.root / "out"
    assert page == build_landing_page(read_manifests(out), read_history(out))
    assert "SIMULATED" not in page
    for letter in "PSCO":  # the track means are number columns (sorted by value)
        assert re.search(rf"<th class='num[^']*'[^>]*>{letter}</th>", page), letter
