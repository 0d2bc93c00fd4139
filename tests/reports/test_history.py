"""The publication history (``reports/history.py``): one record per publication, never
rewritten; what changed since the previous one, on the landing page and the cohort page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import MODEL, tiny_notebook, write_run_set

from tcsexam_lib import run_report
from tcsexam_lib.reports.history import (
    HISTORY,
    Changes,
    append_publication,
    compare_publications,
    read_history,
)
from tcsexam_lib.schemas import validate_with_schema


def _record(models: dict, **top) -> dict:
    return {"kind": "tcsexam report publication", "run_set": "rs", "date": "d",
            "kit_version": "1", "reference_id": "r", "suite": "s", "protocol": "offline",
            "level": 0.95, "inputs": {}, "models": models, **top}  # fmt: skip


def _model(status="complete", index=50.0, ci=(45.0, 55.0), first=False) -> dict:
    return {"status": status, "index": index, "index_ci": None if ci is None else list(ci),
            "rank_ci": None if index is None else [1, 2], "could_be_first": first}  # fmt: skip


@pytest.mark.parametrize(
    ("before", "after", "lines"),
    [
        ({}, {"a": _model()}, ["Added: a."]),
        ({"a": _model(), "b": _model()}, {"a": _model()}, ["Removed: b."]),
        ({"a": _model("provisional")}, {"a": _model()}, ["a: provisional → complete."]),
        (
            {"a": _model(index=50.0)},
            {"a": _model(index=54.9)},
            [
                "No model added or removed, no status changed, no index moved outside its "
                "interval, the same models could be first."
            ],
        ),
        (
            {"a": _model(index=50.0)},
            {"a": _model(index=55.5)},
            ["a: index 50.00 → 55.50, outside its previous 95% interval [45.00, 55.00]."],
        ),
        (
            {"a": _model(first=True), "b": _model()},
            {"a": _model(), "b": _model(first=True)},
            ["Could be first now: b.", "No longer could be first: a."],
        ),
        (
            {"a": _model("complete")},
            {"a": _model("incomplete", None, None)},
            ["a: complete → incomplete."],
        ),
    ],  # fmt: skip
    ids=["added", "removed", "status", "moved-within", "moved-outside", "first", "no-index"],
)
def test_what_changed_between_two_publications(before, after, lines):
    changes = compare_publications(_record(before, date="d0"), _record(after))
    assert changes.since == "d0" and changes.lines() == lines


def test_a_new_reference_or_kit_is_said_and_a_first_publication_is_said_as_such():
    changes = compare_publications(_record({}), _record({}, reference_id="r2", kit_version="2"))
    assert changes.lines() == ["Reference changed: r → r2.", "Kit version changed: 1 → 2."]
    assert Changes.from_dict(compare_publications(None, _record({})).to_dict()).lines() == [
        "First publication of this run set recorded in this folder."
    ]


def test_records_are_appended_never_rewritten_and_a_torn_line_is_left_alone(tmp_path):
    append_publication(tmp_path, _record({"a": _model()}))
    with open(tmp_path / HISTORY, "a", encoding="utf-8") as handle:
        handle.write('{"kind": "tcsexam report publ')  # a crash in the middle of a write
    append_publication(tmp_path, _record({"b": _model()}, date="d2"))
    text = (tmp_path / HISTORY).read_text(encoding="utf-8")
    assert text.count("\n") == 3 and text.endswith("\n")
    assert [list(r.results) for r in read_history(tmp_path)] == [["a"], ["b"]]


def test_each_publication_appends_a_record_the_schema_accepts_and_the_pages_say_it(
    ws, tiny_notebooks, monkeypatch
):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1790000000")
    path = write_run_set(ws, notebooks=["index"])
    assert run_report([path]).ok
    out = ws.root / "out"
    assert "First publication of this run set recorded in this folder." in (
        out / "index.html"
    ).read_text(encoding="utf-8")
    for row in ws.rows:  # a theorem failed that was proved: the index leaves its interval
        if row["item"] == "test-thm-1":
            row["score"] = "0" if row["score"] == "1" else "1"
    ws.write()
    assert run_report([path]).ok
    lines = (out / HISTORY).read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    for line in lines:
        validate_with_schema(json.loads(line), "history-record", str(out / HISTORY))
    first, second = read_history(out)
    assert first.results[MODEL].index != second.results[MODEL].index
    landing = (out / "index.html").read_text(encoding="utf-8")
    assert "Since the previous publication (2026-09-21T" in landing
    assert f"{MODEL}: index " in landing or "No model added or removed" in landing


def _files_and_times(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {
        str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_a_dry_run_writes_nothing_and_names_the_notebooks_the_real_run_then_runs(
    ws, tiny_notebooks, monkeypatch
):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1790000000")
    tiny_notebook(  # a model page that reads the model's index, as the real one does
        tiny_notebooks / "index.ipynb",
        "print(len(open(index_json).read()))",
        parameters='model = ""\nsuite = ""\nindex_json = ""',
    )
    path = write_run_set(ws, notebooks=["index"])
    assert run_report([path]).ok
    out = ws.root / "out"
    for row in ws.rows:  # one attempt changes: the model's index and the cohort move
        if row["item"] == "test-thm-1":
            row["score"] = "0" if row["score"] == "1" else "1"
    ws.write()
    before = _files_and_times(out)
    said: list[str] = []
    result = run_report([path], dry_run=True, progress=said.append)
    assert result.dry_run and result.run_sets
    assert _files_and_times(out) == before  # not a byte, not a time, not a new file
    assert sorted(p.name for p in out.iterdir()) == sorted(
        {name.split("/")[0] for name in before}
    )  # no staging folder either
    text = "\n".join(said)
    assert f"would publish {out}" in text
    would = {line.split("would run ")[1].split(":")[0] for line in said if "would run " in line}
    assert would, text
    ran: list[str] = []
    assert run_report([path], progress=ran.append).ok
    done = {line.split(" ok ")[1].split(" (")[0] for line in ran if " ok " in line}
    assert done == would  # the dry run named exactly the notebooks the real run ran
