"""Index statuses, coverage, issues and row keeping, through `tcsexam score`."""

from __future__ import annotations

import statistics

import pytest
from conftest import (
    BASE_SCORES,
    BASE_TRACK_MEANS,
    CONJECTURE_TASKS,
    CONSTRUCTION_TASKS,
    MODEL,
    SOLVE_TASK,
    SOLVER_TASK,
    SOLVER_TASKS,
    THEOREM_TASKS,
    WORKED_INDEX,
    attempt_row,
    read_output,
    row_line,
    track_of,
)

from tcsexam_lib.vocab import ATTEMPT_COLUMNS, METRIC_ID

N_TASKS = len(BASE_SCORES)
TRACK_ITEMS = {
    "theorem": THEOREM_TASKS,
    "solver": SOLVER_TASKS,
    "construction": CONSTRUCTION_TASKS,
    "conjecture": CONJECTURE_TASKS,
}


@pytest.fixture
def score(ws, run_cli, tmp_path):
    """Write the workspace, run `tcsexam score` in-process, return the parsed output."""

    def run():
        ws.write()
        out = tmp_path / "build" / "index.json"
        done = run_cli(ws.score_args(out))
        assert done.code == 0, done.err
        result = read_output(out)
        assert f"overall status {result['status']}" in done.out
        return result

    return run


def issues_by_code(entry):
    found = {}
    for issue in entry["issues"]:
        found.setdefault(issue["code"], []).append(issue)
    return found


def set_row(ws, item, attempt="1", **fields):
    next(r for r in ws.rows if r["item"] == item and r["attempt"] == attempt).update(fields)


def test_complete_cohort_track_means_and_coverage(score):
    result = score()
    assert (result["metric_id"], result["suite"], result["status"]) == (
        METRIC_ID,
        "lite",
        "complete",
    )
    assert result["weights"] == {"theorem": 30, "solver": 30, "construction": 30, "conjecture": 10}
    entry = result["models"][MODEL]
    assert entry["index"] == pytest.approx(WORKED_INDEX, rel=1e-12)
    for track, mean in BASE_TRACK_MEANS.items():
        summary = entry["tracks"][track]
        assert summary["mean"] == pytest.approx(mean, rel=1e-12)
        assert summary["contribution"] == pytest.approx(summary["weight"] * mean, rel=1e-12)
        assert summary["tasks_planned"] == summary["tasks_complete"] == len(TRACK_ITEMS[track])
    assert entry["coverage"] == {
        "tasks_planned": N_TASKS,
        "tasks_complete": N_TASKS,
        "attempts_planned": N_TASKS,
        "attempts_adopted_valid": N_TASKS,
        "rows": N_TASKS,
    }
    tasks = {t["item"]: t for t in entry["tasks"]}
    for item, value in BASE_SCORES.items():
        assert tasks[item]["mean"] == pytest.approx(value, rel=1e-12)
        assert tasks[item]["adopted_valid_attempts"] == ["1"]


def test_incomplete_cohort_names_missing_task_and_attempt(ws, score):
    missing_item = CONSTRUCTION_TASKS[1]
    ws.rows = [r for r in ws.rows if r["item"] != missing_item]
    ws.cohort["models"][MODEL]["attempts_per_task"] = {"default": 1, "test-thm-3": 3}
    ws.rows.append(attempt_row("test-thm-3", 1, attempt="2"))
    result = score()
    entry = result["models"][MODEL]
    assert result["status"] == entry["status"] == "incomplete"
    assert entry["index"] is None
    issues = issues_by_code(entry)
    (task_issue,) = issues["missing_task"]
    assert (task_issue["model"], task_issue["track"], task_issue["item"]) == (
        MODEL,
        "construction",
        missing_item,
    )
    assert missing_item in task_issue["message"]
    (attempt_issue,) = issues["missing_attempt"]
    assert attempt_issue["item"] == "test-thm-3"
    assert "2 of 3 planned attempts" in attempt_issue["message"]
    assert "repeat 3 of 3" in attempt_issue["message"]
    assert all(i["severity"] == "error" for i in entry["issues"])
    assert entry["tracks"]["construction"]["mean"] is None
    assert entry["tracks"]["theorem"]["mean"] is None
    assert entry["tracks"]["construction"]["tasks_complete"] == 1
    assert entry["tracks"]["solver"]["mean"] == pytest.approx(0.25, rel=1e-12)
    assert entry["coverage"] == {
        "tasks_planned": N_TASKS,
        "tasks_complete": N_TASKS - 2,
        "attempts_planned": N_TASKS + 2,
        "attempts_adopted_valid": N_TASKS,
        "rows": N_TASKS,
    }


def test_provisional_cohort(ws, score):
    set_row(ws, SOLVER_TASK, adoption_status="selected_provisional")
    result = score()
    entry = result["models"][MODEL]
    assert result["status"] == entry["status"] == "provisional"
    assert entry["index"] == pytest.approx(WORKED_INDEX, rel=1e-12)
    (issue,) = entry["issues"]
    assert (issue["code"], issue["severity"], issue["item"]) == (
        "provisional_attempt",
        "info",
        SOLVER_TASK,
    )
    assert issue["line"] == row_line(ws.rows, SOLVER_TASK)


@pytest.mark.parametrize("score_status", ["judge_failed", "not_finished", "missing"])
def test_adopted_row_without_valid_score_makes_the_cohort_incomplete(ws, score, score_status):
    set_row(ws, "test-thm-2", score="", score_status=score_status)
    entry = score()["models"][MODEL]
    assert (entry["status"], entry["index"]) == ("incomplete", None)
    issues = issues_by_code(entry)
    (issue,) = issues["adopted_not_valid"]
    assert (issue["item"], issue["attempt"], issue["line"]) == (
        "test-thm-2",
        "1",
        row_line(ws.rows, "test-thm-2"),
    )
    assert score_status in issue["message"]
    assert issues["missing_attempt"][0]["item"] == "test-thm-2"


@pytest.mark.parametrize(
    ("note", "warned"), [("", True), ("   ", True), ("judge crashed; rerun adopted", False)]
)
def test_excluded_row_note(ws, score, note, warned):
    """A replaced attempt stays as `excluded`; without a note it is a warning only."""
    ws.rows.append(attempt_row("test-thm-4", 1, attempt="0", adoption_status="excluded", note=note))
    result = score()
    entry = result["models"][MODEL]
    assert entry["status"] == "complete"
    assert entry["index"] == pytest.approx(WORKED_INDEX, rel=1e-12)
    warnings = issues_by_code(entry).get("excluded_without_note", [])
    if warned:
        (warning,) = warnings
        assert (warning["severity"], warning["item"], warning["attempt"]) == (
            "warning",
            "test-thm-4",
            "0",
        )
        assert warning["line"] == len(ws.rows) + 1
    else:
        assert entry["issues"] == []
    (task,) = [t for t in entry["tasks"] if t["item"] == "test-thm-4"]
    excluded = [r for r in task["rows"] if r["attempt"] == "0"]
    assert excluded == [
        {
            "attempt": "0",
            "line": len(ws.rows) + 1,
            "adoption_status": "excluded",
            "score_status": "valid",
            "score": 1.0,
            "note": note,
        }
    ]


def test_excluded_row_in_a_table_without_note_column_is_a_warning(ws, score):
    ws.header = list(ATTEMPT_COLUMNS)
    ws.rows.append(attempt_row("test-thm-4", 1, attempt="0", adoption_status="excluded"))
    entry = score()["models"][MODEL]
    assert entry["status"] == "complete"
    assert [i["code"] for i in entry["issues"]] == ["excluded_without_note"]


def test_per_task_repeat_counts_with_default(ws, score):
    repeats = {"test-thm-1": [1, 0, 1], SOLVER_TASK: [0.2, 0.6], "test-con-1": [0.5, 1.5, 2.5]}
    ws.cohort["models"][MODEL]["attempts_per_task"] = {
        "default": 1,
        **{item: len(values) for item, values in repeats.items()},
    }
    ws.rows = [r for r in ws.rows if r["item"] not in repeats]
    for item, values in repeats.items():
        ws.rows += [attempt_row(item, v, attempt=f"r{k}") for k, v in enumerate(values)]
    entry = score()["models"][MODEL]
    assert entry["status"] == "complete"
    scores = {**{k: [v] for k, v in BASE_SCORES.items()}, **repeats}
    tasks = {t["item"]: t for t in entry["tasks"]}
    for item, values in scores.items():
        assert tasks[item]["planned_attempts"] == len(values)
        assert tasks[item]["mean"] == pytest.approx(statistics.mean(values), rel=1e-12)
    track_means = {
        track: statistics.mean(statistics.mean(scores[i]) for i in items)
        for track, items in TRACK_ITEMS.items()
    }
    for track, mean in track_means.items():
        assert entry["tracks"][track]["mean"] == pytest.approx(mean, rel=1e-12)
    expected = sum(w * track_means[t] for t, w in (("theorem", 30), ("solver", 30)))
    expected += 30 * track_means["construction"] + 10 * track_means["conjecture"]
    assert entry["index"] == pytest.approx(expected, rel=1e-12)
    assert entry["coverage"]["attempts_planned"] == sum(len(v) for v in scores.values())


def test_every_input_row_appears_in_the_output(ws, score):
    ws.cohort["models"]["test-model-b"] = {"attempts_per_task": 1}
    ws.rows.append(attempt_row("test-thm-1", 0, attempt="old", adoption_status="excluded"))
    ws.rows.append(attempt_row(SOLVE_TASK, "", attempt="2", adoption_status="excluded",
                               score_status="not_finished", note="timed out"))  # fmt: skip
    ws.rows.append(attempt_row("test-conj-1", 1, model="test-model-b", note="only row"))
    result = score()
    assert result["status"] == "incomplete"
    assert result["models"][MODEL]["status"] == "complete"
    assert result["models"][MODEL]["index"] == pytest.approx(WORKED_INDEX, rel=1e-12)
    assert result["models"]["test-model-b"]["index"] is None
    seen = {}
    for model, entry in result["models"].items():
        for task in entry["tasks"]:
            for out_row in task["rows"]:
                seen[out_row["line"]] = (model, task["track"], task["item"], out_row)
    assert sorted(seen) == list(range(2, len(ws.rows) + 2))
    for position, row in enumerate(ws.rows, start=2):
        model, track, item, out_row = seen[position]
        assert (model, track, item) == (row["model"], row["track"], row["item"])
        assert (out_row["attempt"], out_row["note"]) == (row["attempt"], row["note"])
        assert track == track_of(item)
    assert sum(e["coverage"]["rows"] for e in result["models"].values()) == len(ws.rows)


def test_legitimate_zero_is_a_valid_observation(ws, score):
    for item in BASE_SCORES:
        set_row(ws, item, score="0")
    entry = score()["models"][MODEL]
    assert (entry["status"], entry["index"]) == ("complete", 0)


def test_construction_reward_above_one_can_push_the_index_over_100(ws, score):
    for item in BASE_SCORES:
        set_row(ws, item, score="3.5" if track_of(item) == "construction" else "1")
    entry = score()["models"][MODEL]
    assert entry["index"] == pytest.approx(30 + 30 + 30 * 3.5 + 10, rel=1e-12)
    assert entry["index"] > 100


def test_header_only_table_is_incomplete_with_every_task_missing(ws, score):
    ws.rows = []
    entry = score()["models"][MODEL]
    assert (entry["status"], entry["index"]) == ("incomplete", None)
    missing = [i["item"] for i in entry["issues"] if i["code"] == "missing_task"]
    assert missing == list(BASE_SCORES)
    assert entry["coverage"]["rows"] == entry["coverage"]["attempts_adopted_valid"] == 0


def test_provenance_names_the_reference_and_inputs(ws, score):
    from tcsexam_lib.digests import sha256_file

    result = score()
    provenance = result["provenance"]
    assert provenance["metric_id"] == METRIC_ID
    assert provenance["reference"]["reference_id"] == result["reference_id"]
    assert provenance["reference"]["sha256"] == sha256_file(ws.reference_path)
    for role, path in (("attempts", ws.attempts_path), ("cohort", ws.cohort_path)):
        assert provenance["inputs"][role]["sha256"] == sha256_file(path)


def test_spreadsheet_export_with_bom_and_crlf_is_read_the_same(ws, score):
    ws.write()
    text = ws.attempts_path.read_text(encoding="utf-8").replace("\n", "\r\n")
    ws.attempts_text = "\ufeff" + text
    entry = score()["models"][MODEL]
    assert entry["index"] == pytest.approx(WORKED_INDEX, rel=1e-12)
    lines = sorted(r["line"] for t in entry["tasks"] for r in t["rows"])
    assert lines == list(range(2, len(ws.rows) + 2))
