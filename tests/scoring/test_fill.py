"""Filling blank solver scores of an attempts copy from solver-score outputs
(``scoring/fill.py``): the input is never touched, a hand-written score is kept as written
(whether it agrees with its output is the index's solver evidence check, one place).
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import (
    MODEL,
    SOLVE_TASK,
    SOLVER_TASK,
    Workspace,
    read_csv_rows,
    sat_score,
    write_run_set,
)

from tcsexam_lib import InputRefused, fill_solver_rows, run_solver_score

# --- fill_solver_rows ------------------------------------------------------------------


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
    assert result.unfilled == []
    rows = {r["item"]: r for r in read_csv_rows(ws.root / "filled.csv")}
    assert float(rows[SOLVE_TASK]["score"]) == sat_score(ws)  # exact: shortest repr
    assert rows[SOLVER_TASK]["score"] == "0.25"  # hand-written and agreeing: kept as written
    assert rows["test-thm-1"] == {**rows["test-thm-1"], "score": "1", "note": ""}


def test_fill_keeps_a_disagreeing_hand_written_score_as_written(ws):
    write_run_set(ws)
    for row in ws.rows:
        if row["item"] == SOLVER_TASK:
            row["score"] = "0.2500001"
    ws.write()
    result = fill_solver_rows(ws.attempts_path, _outputs(ws), ws.root / "filled.csv")
    assert [f["item"] for f in result.filled] == [SOLVE_TASK]
    rows = {r["item"]: r for r in read_csv_rows(ws.root / "filled.csv")}
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
    assert [(f["item"], f["line"]) for f in result.filled] == [(SOLVE_TASK, 9)]
    rows = read_csv_rows(ws.root / "filled.csv")
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
    assert result.filled == []
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


def test_fill_writes_formula_like_notes_as_text_and_leaves_the_input_alone(ws):
    """CSV injection: the copy the kit writes is safe to open in a spreadsheet."""
    write_run_set(ws)
    ws.rows[0]["note"] = '=HYPERLINK("http://x","y")'
    ws.rows[1]["note"] = "-rerun"
    ws.write()
    before = ws.attempts_path.read_bytes()
    fill_solver_rows(ws.attempts_path, _outputs(ws), ws.root / "filled.csv")
    assert ws.attempts_path.read_bytes() == before
    rows = read_csv_rows(ws.root / "filled.csv")
    assert rows[0]["note"] == '\'=HYPERLINK("http://x","y")'
    assert rows[1]["note"] == "'-rerun"
    assert rows[0]["score"] == ws.rows[0]["score"]  # a number is left as it is
