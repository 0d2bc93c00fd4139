"""`tcsexam score --solver-evidence DIR`: adopted solver rows against solver-score outputs."""

from __future__ import annotations

import copy
import json
import re

import pytest
from conftest import MODEL, SOLVE_TASK, SOLVER_TASK, read_output, row_line

from tcsexam_lib import run_solver_score

SOLVE_RECORDS = [
    {"instance": "sat-1", "status": "ok", "solved": True},
    {"instance": "sat-2", "status": "timeout"},
]
OTHER_REF_ID = "test-other-ref-v0"


def write_evidence(ws, folder, *, task, records, reference=None, attempt="1"):
    """Score ``records`` with the library, as a runner would, into ``folder``."""
    records_path = folder.parent / f"{task}-{attempt}-records.json"
    records_path.write_text(json.dumps(records), encoding="utf-8")
    return run_solver_score(
        task=task,
        records=records_path,
        reference=reference or ws.reference_path,
        model=MODEL,
        attempt=attempt,
        output=folder / MODEL / task / f"{attempt}.json",
    )["relative_score"]


def other_reference(ws):
    """A copy of the test reference under another (test) id."""
    data = copy.deepcopy(ws.reference)
    data["reference_id"] = OTHER_REF_ID
    path = ws.root / "other-reference.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def set_score(ws, item, value):
    next(r for r in ws.rows if r["item"] == item)["score"] = repr(value)


# Each case prepares the evidence folder (and the table) and names the issues expected.
def matched(ws, folder):
    write_evidence(ws, folder, task=SOLVER_TASK, records=ws.records)
    set_score(ws, SOLVE_TASK, write_evidence(ws, folder, task=SOLVE_TASK, records=SOLVE_RECORDS))


def missing(ws, folder):
    write_evidence(ws, folder, task=SOLVER_TASK, records=ws.records)


def score_mismatch(ws, folder):
    matched(ws, folder)
    set_score(ws, SOLVER_TASK, 0.3)


def reference_mismatch(ws, folder):
    matched(ws, folder)
    write_evidence(ws, folder, task=SOLVER_TASK, records=ws.records, reference=other_reference(ws))


CASES = [
    ("matched", matched, [], {"matched": 2}),
    ("missing", missing, [("solver_evidence_missing", SOLVE_TASK)], {"matched": 1, "missing": 1}),
    (
        "score-mismatch",
        score_mismatch,
        [("solver_evidence_score_mismatch", SOLVER_TASK)],
        {"matched": 1, "score_mismatch": 1},
    ),
    (
        "reference-mismatch",
        reference_mismatch,
        [("solver_evidence_reference_mismatch", SOLVER_TASK)],
        {"matched": 1, "reference_mismatch": 1},
    ),
]


@pytest.mark.parametrize(("prepare", "expected", "counts"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])  # fmt: skip
def test_solver_evidence(ws, run_cli, tmp_path, prepare, expected, counts):
    folder = tmp_path / "evidence"
    folder.mkdir()
    ws.write()
    prepare(ws, folder)
    ws.write()
    out = tmp_path / "index.json"
    done = run_cli([*ws.score_args(out), "--solver-evidence", folder])
    assert done.code == 0, done.err
    result = read_output(out)
    entry = result["models"][MODEL]
    found = [
        (issue["code"], issue["item"])
        for issue in entry["issues"]
        if issue["code"].startswith("solver_evidence")
    ]
    assert found == expected
    assert result["solver_evidence"]["consistent"] is (not expected)
    summary = {k: v for k, v in entry["solver_evidence"].items() if k != "evidence_dir"}
    assert summary == {
        "rows_checked": 2,
        "matched": 0,
        "missing": 0,
        "score_mismatch": 0,
        "reference_mismatch": 0,
        **counts,
    }
    for issue in entry["issues"]:
        if issue["code"].startswith("solver_evidence"):
            assert issue["severity"] == "error"
            assert (issue["attempt"], issue["line"]) == ("1", row_line(ws.rows, issue["item"]))
            assert re.search(rf"{MODEL}/solver/{issue['item']} attempt '1'", issue["message"])
    # every error blocks the index: a contradicted row leaves its task, and so the model,
    # incomplete (no index to rank); evidence never replaces a row
    contradicted = {item for _, item in expected}
    for task in entry["tasks"]:
        if task["item"] in contradicted:
            assert (task["status"], task["mean"]) == ("incomplete", None)
    assert entry["status"] == ("incomplete" if expected else "complete")
    assert (entry["index"] is None) is bool(expected)
    assert entry["coverage"]["rows"] == len(ws.rows)
    if expected:
        assert f"{MODEL}: incomplete, no index" in done.out
        assert "INCONSISTENT" in done.out
        for code, item in expected:  # the terminal names each blocking issue
            assert re.search(rf"{code}\b.*{MODEL}/solver/{item} attempt '1'", done.out)
    else:  # nothing said of issues that are not there
        assert not re.search(r"solver_evidence_\w+:|INCONSISTENT|issue", done.out)
        assert "2 adopted solver row(s) checked" in done.out


def test_solver_evidence_folder_with_a_foreign_json_is_refused(ws, run_cli, tmp_path):
    folder = tmp_path / "evidence"
    folder.mkdir()
    (folder / "notes.json").write_text('{"hello": 1}', encoding="utf-8")
    ws.write()
    out = tmp_path / "index.json"
    done = run_cli([*ws.score_args(out), "--solver-evidence", folder])
    assert done.code == 2
    assert re.search(r"notes\.json: not a solver-score output", done.err)
    assert not out.exists()
