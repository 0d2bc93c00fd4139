"""Disk space (``reports/space.py``): a run the output's file system clearly cannot hold is
refused before anything is written; a notebook that meets a full disk says so."""

from __future__ import annotations

import errno
import shutil
from collections import namedtuple

import pytest
from conftest import MODEL, tiny_notebook, write_run_set

from tcsexam_lib import InputRefused, run_report
from tcsexam_lib.reports import execute, space
from tcsexam_lib.reports.execute import NotebookJob, execute_notebook

Usage = namedtuple("Usage", "total used free")


def test_a_run_the_file_system_cannot_hold_is_refused_before_anything_is_written(
    ws, tiny_notebooks, monkeypatch
):
    path = write_run_set(ws, notebooks=["index"])
    monkeypatch.setattr(space.shutil, "disk_usage", lambda _: Usage(10**9, 10**9, 200_000))
    with pytest.raises(
        InputRefused,
        match=r"Not enough free space for the reports; nothing was written \(1 problem\)\n"
        r"  - .*out: field 'free space' = \"200\.0 kB\": this run needs at least .* MB there "
        r"\(.* of outputs, 1\.\d MB of shared assets, 1 page\(s\) to render at about ",
    ) as refused:
        run_report([path])
    assert refused.value.exit_code == 2
    assert not (ws.root / "out").exists()


def test_the_estimate_counts_only_the_pages_that_will_run(ws, tiny_notebooks, monkeypatch):
    path = write_run_set(ws, notebooks=["index"])
    assert run_report([path]).ok  # published: its page is stored
    for row in ws.rows:
        if row["item"] == "test-thm-1":
            row["note"] = "a note no page reads"
    ws.write()
    free = shutil.disk_usage(ws.root).free
    seen = []
    real = space.refuse_short_space
    monkeypatch.setattr(
        "tcsexam_lib.reports.runner.refuse_short_space", lambda needs: seen.append(needs) or
        real(needs)
    )  # fmt: skip
    assert run_report([path]).ok
    ((need, how),) = seen[0].values()
    assert "0 page(s) to render" in how and "0 bytes of shared assets" in how and need < free


def test_a_notebook_that_meets_a_full_disk_says_so(tmp_path, monkeypatch):
    source = tmp_path / "index.ipynb"
    tiny_notebook(source, 'print("report of", model)')

    def full(*_, **__):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(execute, "render_html", full)
    outcome = execute_notebook(NotebookJob(
        label=f"rs/{MODEL}/index", name="index", source=source, folder=tmp_path / "out",
        parameters={"model": MODEL}))  # fmt: skip
    assert outcome.error is not None
    assert outcome.error.startswith("No space left on device: ")
    assert "OSError: [Errno 28] No space left on device" in outcome.error


def test_a_full_disk_is_named_whatever_the_library_raised(tmp_path, monkeypatch):
    monkeypatch.setattr(space.shutil, "disk_usage", lambda _: Usage(10**9, 10**9, 512))
    note = space.no_space_note(tmp_path, ValueError("Notebook does not appear to be JSON"))
    assert note == "No space left on device: 512 bytes free on the output's file system"
    monkeypatch.setattr(space.shutil, "disk_usage", lambda _: Usage(10**9, 0, 10**9))
    assert space.no_space_note(tmp_path, ValueError("Notebook does not appear to be JSON")) == ""
