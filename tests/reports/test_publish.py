"""Publishing reports: permissions, no machine path, nothing remote, links, switching, symlinks.

Runner tests use tiny notebooks (one kernel each) on the test-only workspace laid out
as a run set (``write_run_set`` in ``conftest.py``); the real notebooks on the demo are
checked the same way in the smoke tier (``test_report_smoke.py``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from pathlib import Path

import pytest
from conftest import MODEL, Workspace, tiny_notebook, write_run_set

from tcsexam_lib import InputRefused, run_report
from tcsexam_lib.paths import KIT_ROOT
from tcsexam_lib.reports import runner as report_module
from tcsexam_lib.reports.publish import MANIFEST, remove_stale_staging
from tcsexam_lib.reports.run_set_document import RunSetDocument
from tcsexam_lib.schemas import schema_errors
from tcsexam_lib.verify import verify_output


@pytest.fixture
def quick_notebooks(tmp_path, monkeypatch) -> Path:
    """A cohort and an index notebook that each print one line."""
    folder = tmp_path / "notebooks"
    folder.mkdir()
    tiny_notebook(folder / "index.ipynb", 'print("report of", model)')
    tiny_notebook(folder / "cohort.ipynb", 'print("cohort of", suite)', 'suite = ""\ncompare = {}')
    monkeypatch.setattr(report_module, "NOTEBOOKS_DIR", folder)
    return folder


def online_copy(ws: Workspace, root: Path) -> Path:
    """The same cohort under the online solver protocol, as a second run set."""
    other = ws.copy(root)
    other.cohort["solver_protocol"] = "online"
    for row in other.rows:
        if row["track"] == "solver":
            row["solver_protocol"] = "online"
    return write_run_set(other, protocol="online", output=str(ws.root / "out"),
                         notebooks=["cohort", "index"])  # fmt: skip


def files_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def test_every_file_and_folder_honours_the_umask_and_no_staging_is_left(ws, quick_notebooks):
    path = write_run_set(ws, notebooks=["cohort", "index"])
    previous = os.umask(0o027)
    try:
        result = run_report([path])
    finally:
        os.umask(previous)
    assert result.ok, [f.error for f in result.failures]
    out = ws.root / "out"
    modes = {p.relative_to(out).as_posix(): stat.S_IMODE(p.stat().st_mode) for p in out.rglob("*")}
    wrong = {
        name: oct(mode)
        for name, mode in modes.items()
        if mode != (0o750 if (out / name).is_dir() else 0o640)
    }
    assert wrong == {}
    for expected in ("lite-offline/models/test-model-a/index.ipynb", "lite-offline/cohort.html",
                     "lite-offline/report-kernels.log", "lite-offline/run-set.json",
                     "_assets/report.js", "index.html"):  # fmt: skip
        assert expected in modes
    # no hidden staging files; the store's hidden folder alone
    assert not [n for n in modes if "/." in f"/{n}" and not n.startswith(".tcsexam-store")]


def test_no_absolute_path_of_the_machine_in_any_written_file(ws, quick_notebooks):
    path = write_run_set(ws, notebooks=["cohort", "index"])
    run_report([path])
    out = ws.root / "out"
    needles = {str(ws.root.resolve()), str(KIT_ROOT), str(Path.home()), os.getcwd()}
    leaks = {
        (p.relative_to(out).as_posix(), needle)
        for p in files_under(out)
        for needle in needles
        if needle in p.read_text(encoding="utf-8", errors="replace")
    }
    assert leaks == set()
    executed = json.loads((out / "lite-offline/models/test-model-a/index.ipynb").read_text())
    meta = executed["metadata"]["papermill"]
    assert meta["input_path"] == "notebooks/index.ipynb"
    # only what the notebook's parameters cell declares (this tiny one: model and suite)
    assert meta["parameters"] == {"model": MODEL, "suite": "lite"}


def test_runner_outputs_verify_from_their_own_folder(ws, quick_notebooks, tmp_path, monkeypatch):
    path = write_run_set(ws, notebooks=["index"])
    run_report([path])
    monkeypatch.chdir(tmp_path)  # anywhere else
    run_set = ws.root / "out" / "lite-offline"
    index = verify_output(run_set / "lite-offline.index.json")
    assert index.ok, (index.differences, [str(c) for c in index.changed_inputs])
    assert index.base_dir == str(run_set)
    (solver,) = [p for p in (run_set / "evidence" / MODEL).iterdir() if "maxcut" in p.name]
    assert verify_output(solver).ok
    data = json.loads((run_set / "lite-offline.index.json").read_text())
    assert data["provenance"]["paths_relative_to"] == "output_folder"
    assert data["provenance"]["parameters"]["solver_evidence"] == "evidence"
    assert data["solver_evidence"]["evidence_dir"] == "evidence"
    stats = verify_output(run_set / "lite-offline.stats.json")  # tcsexam stats, recomputed
    assert stats.ok, (stats.differences, [str(c) for c in stats.changed_inputs])
    for name in ("model.index.json", "model.stats.json"):  # the model's own files too
        alone = verify_output(run_set / "models" / MODEL / name)
        assert alone.ok, (name, alone.differences, [str(c) for c in alone.changed_inputs])
    written = json.loads((run_set / "lite-offline.stats.json").read_text())
    assert written["provenance"]["parameters"]["index"] == "lite-offline.index.json"
    assert (
        written["index_sha256"]
        == hashlib.sha256((run_set / "lite-offline.index.json").read_bytes()).hexdigest()
    )
    manifest = json.loads((run_set / MANIFEST).read_text())
    assert manifest["stats_json"] == "lite-offline.stats.json"
    halves = {m: e["index_ci_half_width"] for m, e in manifest["summary"]["models"].items()}
    assert halves == {m: e["index_ci_half_width"] for m, e in written["models"].items()}


def test_pages_load_nothing_remote_share_one_stylesheet_and_link_to_the_landing_page(
    ws, quick_notebooks
):
    path = write_run_set(ws, notebooks=["cohort", "index"])
    run_report([path])
    out = ws.root / "out"
    pages = [p for p in files_under(out) if p.suffix == ".html"]
    assert len(pages) == 4  # landing, cohort, index, and the teaching notebook's page
    assert "href='teaching.html'" in (out / "index.html").read_text(encoding="utf-8")
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", text), page
        inline_css = sum(map(len, re.findall(r"<style[^>]*>(.*?)</style>", text, flags=re.S)))
        assert inline_css < 6000, page  # the code colours only; the rest is in _assets/
        assert "require.js" not in text, page
        if page.name != "teaching.html":  # its formulas: MathJax from _assets/mathjax/
            assert "mathjax" not in text.lower(), page
        for src in re.findall(r"""(?:src|href)=["']([^"'#]+)[#"']""", text):
            if src.startswith("data:"):
                continue  # an image inside the page
            target = (page.parent / src).resolve()
            assert target.is_file(), (page, src)  # every link and asset is there, offline
        if page.parent != out:
            links = re.findall(r"""href=["']([^"']*index\.html)["']""", text)
            assert any((page.parent / link).resolve() == out / "index.html" for link in links)


def test_rerunning_one_run_set_keeps_the_others_on_the_landing_page(ws, quick_notebooks):
    offline = write_run_set(ws, notebooks=["cohort", "index"])
    online = online_copy(ws, ws.root / "b")
    run_report([offline, online])
    out = ws.root / "out"
    before = {p: p.read_bytes() for p in files_under(out / "lite-online")}
    run_report([offline])
    landing = (out / "index.html").read_text()
    assert "href='#lite-offline'" in landing and "href='#lite-online'" in landing
    assert {p: p.read_bytes() for p in files_under(out / "lite-online")} == before
    manifest = json.loads((out / "lite-offline" / "run-set.json").read_text())
    assert schema_errors(manifest, "run-set") == []
    (compared,) = RunSetDocument(manifest).comparisons  # with the run set published before
    assert (compared.run_set, compared.by, compared.this, compared.other) == (
        "lite-online",
        "protocol",
        "offline",
        "online",
    )
    (model,) = compared.models
    assert model.delta_index == model.index - model.other_index and model.n_common_tasks
    cohort = json.loads((out / "lite-offline" / "cohort.ipynb").read_text())
    assert "compare" not in cohort["metadata"]["papermill"]["parameters"]  # drawn, not computed


def test_a_symlinked_model_or_run_set_folder_is_replaced_never_followed(
    ws, quick_notebooks, tmp_path
):
    path = write_run_set(ws, notebooks=["index"])
    run_report([path])
    run_set = ws.root / "out" / "lite-offline"
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "solver").mkdir(parents=True)
    (elsewhere / "solver" / "precious.json").write_text("{}")
    (elsewhere / "precious.txt").write_text("keep me")
    model_dir = run_set / "models" / MODEL
    for child in model_dir.iterdir():
        child.unlink()
    model_dir.rmdir()
    model_dir.symlink_to(elsewhere, target_is_directory=True)
    run_report([path])
    assert (elsewhere / "precious.txt").read_text() == "keep me"
    assert sorted(p.name for p in elsewhere.rglob("*")) == [
        "precious.json",
        "precious.txt",
        "solver",
    ]
    assert not model_dir.is_symlink() and (model_dir / "index.html").is_file()
    # the run set's folder itself as a link: the link is replaced, its target untouched
    moved = tmp_path / "moved-run-set"
    run_set.rename(moved)
    run_set.symlink_to(moved, target_is_directory=True)
    snapshot = {p: p.read_bytes() for p in files_under(moved)}
    run_report([path])
    assert not run_set.is_symlink() and (run_set / MANIFEST).is_file()
    assert {p: p.read_bytes() for p in files_under(moved)} == snapshot


def test_a_folder_the_kit_did_not_write_is_refused_and_left_alone(ws, quick_notebooks):
    path = write_run_set(ws, notebooks=["index"])
    foreign = ws.root / "out" / "lite-offline"
    foreign.mkdir(parents=True)
    (foreign / "notes.txt").write_text("mine")
    with pytest.raises(
        InputRefused,
        match=r"lite-offline: field 'output' = .*: this folder has no run-set\.json \(it was "
        r"not written by this version of tcsexam report\).* \(allowed: move or remove it",
    ):
        run_report([path])
    assert sorted(p.name for p in foreign.iterdir()) == ["notes.txt"]
    assert not (ws.root / "out" / "index.html").exists()


def test_staging_folders_of_a_dead_run_are_removed_and_live_ones_kept(tmp_path):
    dead = tmp_path / ".lite-offline.staging-999999999"
    alive = tmp_path / f".lite-offline.staging-{os.getpid()}"
    other = tmp_path / ".hidden-by-someone"
    for folder in (dead, alive, other):
        folder.mkdir()
    assert remove_stale_staging(tmp_path) == [dead]
    assert alive.is_dir() and other.is_dir() and not dead.exists()


def test_kernel_log_names_no_folder_of_this_machine(tmp_path):
    """ipykernel's warnings and shutdown tracebacks carry absolute paths; they are tidied."""
    import sys

    from tcsexam_lib.reports.runsets import _tidy_kernel_log

    log = tmp_path / "run" / "report-kernels.log"
    log.parent.mkdir()
    site = Path(sys.prefix) / "lib" / "site-packages" / "zmq" / "socket.py"
    log.write_text(
        f'File "{site}", line 713, in send\n'
        f"reading {KIT_ROOT / 'notebooks' / 'index.ipynb'} from {log.parent / 'x.json'}\n"
        "[IPKernelApp] WARNING | Kernel is running over TCP without encryption.\n",
        encoding="utf-8",
    )
    _tidy_kernel_log(log, {log.parent: "<run set>", tmp_path: "<output>"})
    text = log.read_text(encoding="utf-8")
    assert str(sys.prefix) not in text and str(KIT_ROOT) not in text and str(tmp_path) not in text
    assert 'File "<python>/lib/site-packages/zmq/socket.py", line 713' in text
    assert "reading <kit>/notebooks/index.ipynb from <run set>/x.json" in text
    assert text.endswith("without encryption.\n")  # everything else is kept as it was


def test_an_output_folder_that_cannot_be_made_is_refused_by_name(tmp_path: Path) -> None:
    from tcsexam_lib.reports.publish import make_output_folder

    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(InputRefused, match="Output folder refused") as refused:
        make_output_folder(blocker / "out", "params.yaml", "a folder it can create")
    (problem,) = refused.value.problems
    assert (problem.where, problem.field, problem.value) == (
        "params.yaml",
        "output",
        str(blocker / "out"),
    )
    assert problem.detail == "the folder cannot be created (Not a directory)"
    assert problem.allowed == "a folder it can create"
    assert not (blocker / "out").exists()
