"""The store of executed notebooks and pages (``reports/store.py``): objects by digest,
checked before reuse; entries written after their objects; garbage collected only when no
other run holds the store."""

from __future__ import annotations

import os
import threading

import pytest

from tcsexam_lib.reports.store import STORE, Store, StoredFile, StoredNotebook


def _page(folder, name, text):
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _entry(store, folder, key="a" * 64, label="rs/m/index"):
    executed = store.add_file(_page(folder, "index.ipynb", '{"cells": []}'))
    html = store.add_file(_page(folder, "index.html", "<p>page</p>"))
    entry = StoredNotebook(key, label, [("the kit", "1")], executed, html, log="", seconds=1.0)
    store.put_entry(entry)
    return entry


def test_a_stored_page_is_linked_not_copied_and_comes_back_intact(tmp_path):
    store = Store(tmp_path)
    entry = _entry(store, tmp_path)
    found, problem = store.entry(entry.key)
    assert (found, problem) == (entry, "")
    out = tmp_path / "published" / "index.html"
    store.link_out(entry.html, out)
    assert out.read_text() == "<p>page</p>"
    assert os.stat(out).st_ino == os.stat(store.object_path(entry.html.sha256)).st_ino


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (
            lambda p: p.write_text("<p>pag</p>"),
            "truncated or altered (its size is not the one recorded)",
        ),
        (lambda p: p.write_text("<p>PAGE</p>"), "altered (its sha256 is not the one recorded)"),
        (lambda p: p.unlink(), "missing"),
    ],
    ids=["truncated", "altered", "removed"],
)
def test_a_damaged_object_is_detected_and_named(tmp_path, damage, said):
    store = Store(tmp_path)
    entry = _entry(store, tmp_path)
    target = store.object_path(entry.html.sha256)
    target.unlink()  # the page itself stays; its object is rewritten, not the page
    target.write_text("<p>page</p>")
    damage(target)
    found, problem = store.entry(entry.key)
    assert found == entry and problem == f"its stored page is {said}"


def test_a_damaged_entry_is_detected(tmp_path):
    store = Store(tmp_path)
    entry = _entry(store, tmp_path)
    path = store.entry_path(entry.key)
    path.write_text(path.read_text()[:40])  # truncated
    found, problem = store.entry(entry.key)
    assert found is None and problem.startswith("its stored entry is damaged")
    assert store.entry("b" * 64) == (None, "")


def test_garbage_is_what_no_published_run_set_uses(tmp_path):
    store = Store(tmp_path)
    kept = _entry(store, tmp_path)
    (tmp_path / "rs").mkdir()
    (tmp_path / "rs" / "run-set.json").write_text("{}")
    store.set_published("rs", {"jobs": {kept.label: kept.key}})
    old = StoredNotebook("c" * 64, "rs/m/old", [], store.add_file(_page(tmp_path, "o", "old")),
                         kept.html)  # fmt: skip
    store.put_entry(old)
    stray = store.object_path("d" * 64)
    stray.parent.mkdir(parents=True)
    stray.write_text("no entry names me")  # an interrupted run's object
    dead = store.root / "objects" / ".tmp-999999999-x"
    dead.write_text("half")
    assert store.collect_garbage() == 4  # the old entry, its object, the stray, the temporary
    assert store.entry(kept.key) == (kept, "")
    assert not store.entry_path(old.key).exists() and not stray.exists() and not dead.exists()


def test_no_garbage_is_collected_while_another_run_holds_the_store(tmp_path):
    store = Store(tmp_path)
    _entry(store, tmp_path)  # published by no run set: garbage
    held, release = threading.Event(), threading.Event()

    def other_run():
        with Store(tmp_path).shared():
            held.set()
            release.wait(10)

    thread = threading.Thread(target=other_run)
    thread.start()
    held.wait(10)
    try:
        assert store.collect_garbage() == 0
    finally:
        release.set()
        thread.join()
    assert store.collect_garbage() == 3


def test_a_stored_file_is_named_by_its_digest(tmp_path):
    store = Store(tmp_path)
    stored = store.add_file(_page(tmp_path, "x", "x"))
    assert stored == StoredFile(
        "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881", 1
    )
    assert store.object_path(stored.sha256).parent.parent == tmp_path / STORE / "objects"
