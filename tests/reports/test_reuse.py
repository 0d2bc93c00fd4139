"""Reuse (``reports/reuse.py``, ``reports/render.py``): a notebook runs again only when
something it reads changed; every reused page is checked; the same bytes as ``--force``.

On the test-only run set with tiny notebooks (one kernel each); the real notebooks on the
demo (add a model, change an attempt, remove a model) are the smoke tier's."""

from __future__ import annotations

import pytest
from conftest import MODEL, tiny_notebook, write_run_set

from tcsexam_lib import run_report
from tcsexam_lib.reports.reuse import JobInputs
from tcsexam_lib.reports.store import Store

LABEL = f"lite-offline/{MODEL}/index"


@pytest.fixture
def published(ws, tiny_notebooks, monkeypatch):
    """The run set published once (the index notebook alone), under a fixed build date."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1790000000")
    path = write_run_set(ws, notebooks=["index"])
    assert run_report([path]).ok
    return path


def _publish(path, **options) -> list[str]:
    said: list[str] = []
    assert run_report([path], progress=said.append, **options).ok
    return said


def _files(folder):
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".tcsexam-store" not in p.parts
    }


def test_nothing_read_changed_so_nothing_is_written(ws, published):
    out = ws.root / "out"
    before = _files(out)
    dates = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    said: list[str] = []
    result = run_report([published], progress=said.append)
    assert result.unchanged == ["lite-offline"] and result.run_sets == []
    assert said == ["[lite-offline] nothing it reads changed since its last publication: "
                    "left as it is"]  # fmt: skip
    assert _files(out) == before
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()} == dates


def test_a_change_no_page_reads_reuses_every_page_with_the_same_bytes(ws, published):
    out = ws.root / "out"
    page = out / "lite-offline" / "models" / MODEL / "index.html"
    before = page.read_bytes()
    _note(ws)
    said = _publish(published)
    assert "1 notebook(s) reused from the store, 0 to run" in said
    assert not any(line.startswith("executing") for line in said)
    assert page.read_bytes() == before


def _note(ws) -> None:
    """A note in the attempts table: the tiny index notebook reads nothing it changes."""
    for row in ws.rows:
        if row["item"] == "test-thm-1":
            row["note"] = (row.get("note") or "") + " checked"
    ws.write()


def test_force_runs_every_notebook_and_publishes_the_same_bytes(ws, published):
    """A new publication (one more history record) whose run set holds the same bytes."""
    run_set = ws.root / "out" / "lite-offline"
    before = _files(run_set)
    said = _publish(published, force=True)
    assert any(line.startswith(f"[1/1] ok {LABEL} (") and "; --force)" in line for line in said)
    assert _files(run_set) == before
    assert len((ws.root / "out" / "history.jsonl").read_text().splitlines()) == 2


def test_a_changed_notebook_runs_again_and_says_why(ws, published, tiny_notebooks):
    tiny_notebook(tiny_notebooks / "index.ipynb", 'print("report of", model, "again")')
    said = _publish(published)
    assert any(f"ok {LABEL} (" in s and "notebooks/index.ipynb changed)" in s for s in said)
    page = ws.root / "out" / "lite-offline" / "models" / MODEL / "index.html"
    assert "report of test-model-a again" in page.read_text()


def test_an_altered_published_page_is_detected_said_and_made_again(ws, published):
    page = ws.root / "out" / "lite-offline" / "models" / MODEL / "index.html"
    good = page.read_bytes()
    with open(page, "r+b") as handle:  # edited in place: the stored object is the same file
        handle.write(b"<!-- altered -->")
    said = _publish(published)
    assert any(
        f"ok {LABEL} (" in s and "its stored page is altered (its sha256 is not the one" in s
        for s in said
    )
    assert page.read_bytes() == good


def test_a_damaged_entry_is_said_and_its_notebook_runs_again(ws, published):
    store = Store(ws.root / "out")
    key = store.published("lite-offline")["jobs"][LABEL]
    store.entry_path(key).write_text('{"kind": "tcsexam report stored')  # truncated
    _note(ws)  # something changed: the run plans its pages again
    said = _publish(published)
    assert any(f"ok {LABEL} (" in s and "its stored entry is damaged" in s for s in said)
    assert store.entry(key)[1] == ""  # stored again, intact


def test_a_changed_input_is_named_as_the_first_change(ws, tiny_notebooks, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1790000000")
    tiny_notebook(tiny_notebooks / "index.ipynb", "print(len(open(index_json).read()))",
                  'model = ""\nsuite = ""\nindex_json = ""')  # fmt: skip
    path = write_run_set(ws, notebooks=["index"])
    assert run_report([path]).ok
    assert run_report([path]).unchanged == ["lite-offline"]
    for row in ws.rows:
        if row["item"] == "test-thm-1":
            row["score"] = "0" if row["score"] == "1" else "1"
    ws.write()
    said = _publish(path)
    assert any(
        f"ok {LABEL} (" in s and "input index_json (model.index.json) changed)" in s for s in said
    ), said


def test_the_first_change_names_the_first_item_that_differs():
    now = JobInputs("x", (("notebooks/index.ipynb", "1"), ("parameter model", "2")))
    assert now.first_change([("notebooks/index.ipynb", "1"), ("parameter model", "3")]) == (
        "new value of parameter 'model'"
    )
    assert now.first_change([("notebooks/index.ipynb", "1")]) == "parameter model is new"


def _models_run_set(root, count: int) -> None:
    """The generator's ``count``-model run set under ``root`` (the same models, and more)."""
    from tcsexam_lib.demo_scale import build_files

    for name, text in build_files("models", count).items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def _stamps(folder):
    return {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in folder.rglob("*") if p.is_file()}


def test_a_new_date_reruns_only_what_changed_then_nothing(tmp_path, tiny_notebooks, monkeypatch):
    """Two models published at one date; at the next, a model added: its page and the
    cohort's run, the same bytes as --force at that date; at a third date, nothing else
    changed: no notebook runs and no published file is rewritten."""
    import shutil

    tiny_notebook(tiny_notebooks / "cohort.ipynb", "print(changes)", 'suite = ""\nchanges = {}')
    _models_run_set(tmp_path, 2)
    path = tmp_path / "run-set.yaml"
    text = (tmp_path / "demo-models-2.yaml").read_text(encoding="utf-8")
    path.write_text(text.replace("[cohort]", "[cohort, index]"), encoding="utf-8")
    out, before = tmp_path / "reports", tmp_path / "before"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1790000000")
    assert run_report([path]).ok
    shutil.copytree(out, before, symlinks=True)
    _models_run_set(tmp_path, 3)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1790086400")  # the next day
    result = run_report([path])
    ran = {nb.label for rs in result.run_sets for nb in rs.notebooks if not nb.reused}
    assert ran == {"demo-full-offline/cohort", "demo-full-offline/sim-m003/index"}
    assert run_report([path], output=before, force=True).ok
    assert _files(before) == _files(out)
    stamps = _stamps(out)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1790172800")
    assert run_report([path]).unchanged == ["demo-full-offline"]
    assert _stamps(out) == stamps
