"""`tcsexam score --solver-records DIR`: blank solver scores filled from the records, the
filled table and the evidence written beside the index, the index verified from them."""

from __future__ import annotations

import re

import pytest
from conftest import MODEL, SOLVE_TASK, SOLVER_TASK, read_csv_rows, read_output, sat_score
from conftest import write_run_set as lay_out_records

from tcsexam_lib.scoring.commands import companion_paths


def _score(ws, run_cli, out, *extra):
    return run_cli([*ws.score_args(out), "--solver-records", ws.root / "records", *extra])


def test_blank_solver_scores_are_filled_from_the_records_and_verified(ws, run_cli, tmp_path):
    lay_out_records(ws)  # the solve task's score is blank; its records give it
    out = tmp_path / "build" / "index.json"
    done = _score(ws, run_cli, out)
    assert done.code == 0, done.err
    table, evidence = companion_paths(out)
    filled = {row["item"]: row["score"] for row in read_csv_rows(table)}
    assert float(filled[SOLVE_TASK]) == sat_score(ws)
    assert ws.attempts_path.read_text(encoding="utf-8").count(",,selected,") >= 1  # untouched
    assert sorted(p.relative_to(evidence).as_posix() for p in evidence.rglob("*.json")) == sorted(
        [f"{MODEL}/{SOLVE_TASK}-1.json", f"{MODEL}/{SOLVER_TASK}-1.json"]
    )
    result = read_output(out)
    assert result["models"][MODEL]["status"] == "complete"
    assert result["solver_evidence"]["consistent"] is True
    assert "2 adopted solver row(s) checked" in done.out and "issue" not in done.out
    verified = run_cli(["verify", out])
    assert verified.code == 0 and "verify: MATCH" in verified.out, verified.out


def test_a_written_score_the_records_contradict_blocks_the_model(ws, run_cli, tmp_path):
    lay_out_records(ws)
    for row in ws.rows:
        if row["item"] == SOLVER_TASK:
            row["score"] = "0.3"
    ws.write()
    out = tmp_path / "index.json"
    done = _score(ws, run_cli, out)
    assert done.code == 0, done.err
    entry = read_output(out)["models"][MODEL]
    assert (entry["status"], entry["index"]) == ("incomplete", None)
    assert re.search(
        rf"solver_evidence_score_mismatch: {MODEL}/solver/{SOLVER_TASK} attempt '1' \(line \d+\): "
        r"table score 0\.3 differs from relative_score 0\.25",
        done.out,
    )
    assert "INCONSISTENT, 1 of 2 adopted solver row(s)" in done.out


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ("stray", r"records/notes\.txt.*not a records file laid out as"),
        ("orphan", r"no solver row test-model-a/test-sat-solve attempt '9'"),
        ("foreign-evidence", r"Evidence folder refused.*index\.evidence.*not solver-score outputs"),
    ],
)
def test_refusals_write_nothing(ws, run_cli, tmp_path, change, match):
    lay_out_records(ws)
    out = tmp_path / "index.json"
    table, evidence = companion_paths(out)
    if change == "stray":
        (ws.root / "records" / "notes.txt").write_text("x", encoding="utf-8")
    elif change == "orphan":
        src = ws.root / "records" / MODEL / SOLVE_TASK / "1.json"
        (src.parent / "9.json").write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    else:
        evidence.mkdir()
        (evidence / "mine.txt").write_text("not the kit's", encoding="utf-8")
    done = _score(ws, run_cli, out)
    assert done.code == 2
    assert re.search(match, done.err, re.S), done.err
    assert not out.exists() and not table.exists()
    if change == "foreign-evidence":
        assert (evidence / "mine.txt").read_text(encoding="utf-8") == "not the kit's"


def test_records_and_evidence_are_one_or_the_other(ws, run_cli, tmp_path):
    lay_out_records(ws)
    done = _score(ws, run_cli, tmp_path / "index.json", "--solver-evidence", tmp_path)
    assert done.code == 2
    assert "Give the solver evidence or the records, not both" in done.err
    assert not (tmp_path / "index.json").exists()
