"""A fifth track is one line in ``vocab.TRACK_DECLARATION`` plus suite data.

The library is imported afresh with a fifth track (``lemma``, letter L, 20 points) added to
the declaration, and the published input schemas given it too; a run set with lemma tasks
is scored and published (the landing page), and the cohort notebook's cells are run in an
in-process IPython shell on the runner's outputs (the cohort page's content).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import nbformat
import pytest
from conftest import MODEL, attempt_row, read_output, write_run_set

FIFTH = (
    '    Track("lemma", "L", 20, 1.0, True, "#56B4E9", "lemma track mean: share of lemmas '
    'proved (0 to 1)", "exactly 0 or 1"),\n'
)


def _library_modules() -> dict[str, object]:
    return {k: m for k, m in sys.modules.items() if k.split(".")[0] == "tcsexam_lib"}


@pytest.fixture
def five_tracks():
    """The library imported afresh with a fifth track declared; the old one put back after."""
    saved = _library_modules()
    for name in saved:
        del sys.modules[name]
    spec = importlib.util.find_spec("tcsexam_lib.vocab")
    source = Path(spec.origin).read_text(encoding="utf-8")
    end = "\n)  # fmt: skip\n"
    assert source.count(end) == 1, "the end of vocab.TRACK_DECLARATION moved"
    vocab = importlib.util.module_from_spec(spec)
    sys.modules["tcsexam_lib.vocab"] = vocab
    exec(compile(source.replace(end, "\n" + FIFTH + end[1:]), spec.origin, "exec"), vocab.__dict__)
    from tcsexam_lib.schemas import load_schema

    load_schema("attempts-row")["properties"]["track"]["enum"].append("lemma")
    suite = load_schema("suite")["properties"]["tracks"]
    suite["required"].append("lemma")
    suite["properties"]["lemma"] = {"$ref": "#/$defs/task_list"}
    try:
        yield vocab
    finally:
        for name in _library_modules():
            del sys.modules[name]
        sys.modules.update(saved)


def _cohort_page(**parameters: str) -> str:
    """The HTML the cohort notebook's code cells display, run in-process with ``parameters``."""
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    from tcsexam_lib.paths import KIT_ROOT

    notebook = nbformat.read(KIT_ROOT / "notebooks" / "cohort.ipynb", as_version=4)
    shell = InteractiveShell.instance()
    try:
        outputs = []
        for cell in (c for c in notebook.cells if c.cell_type == "code"):
            with capture_output() as captured:
                run = shell.run_cell(cell.source)
            run.raise_error()
            if "parameters" in cell.metadata.get("tags", []):  # as papermill injects them
                shell.run_cell("\n".join(f"{k} = {v!r}" for k, v in parameters.items()))
            shown = [(o.data, o.metadata) for o in captured.outputs]
            if run.result is not None:
                shown.append(shell.display_formatter.format(run.result))
            for data, metadata in shown:  # a chart: its alt text, as the page's image
                alt = (metadata or {}).get("image/png", {}).get("alt", "")
                outputs.append(data.get("text/html", f"<img alt='{alt}'>"))
    finally:
        InteractiveShell.clear_instance()
    return "\n".join(outputs)


def test_a_fifth_track_is_one_declaration_and_shows_on_the_cohort_and_landing_pages(
    ws, five_tracks, monkeypatch
):
    from tcsexam_lib.reports import render, runner

    assert five_tracks.TRACKS[-1] == "lemma" and five_tracks.INDEX_FORMULA.endswith("20·L")
    ws.suite["tracks"]["lemma"] = ["test-lem-1", "test-lem-2"]
    ws.rows += [attempt_row("test-lem-1", 1, track="lemma"),
                attempt_row("test-lem-2", 0, track="lemma")]  # fmt: skip
    params = write_run_set(ws)
    monkeypatch.setattr(render, "execute_notebooks", lambda jobs, *_, **__: [])
    monkeypatch.setattr(render, "notebook_jobs", lambda *_: [])
    assert runner.run_report([params]).ok
    out = ws.root / "out"
    landing = (out / "index.html").read_text(encoding="utf-8")
    assert "title='lemma track mean: share of lemmas proved (0 to 1)'>L</th>" in landing
    assert "30·C + 10·O + 20·L;" in landing
    assert "P, S, C, O, L are the track means (theorem, solver, construction, conjecture, " \
           "lemma)" in landing  # fmt: skip
    assert "data-order='0.5'>0.500</td>" in landing  # L = (1 + 0) / 2
    entry = read_output(out / "lite-offline" / "lite-offline.index.json")["models"][MODEL]
    assert (entry["tracks"]["lemma"]["letter"], entry["tracks"]["lemma"]["contribution"]) == (
        "L", 10.0)  # fmt: skip
    assert entry["index"] == pytest.approx(sum(t["contribution"] for t in entry["tracks"].values()))
    assert f"{entry['index']:.2f}" in landing

    run_set = out / "lite-offline"
    page = _cohort_page(suite=ws.suite["suite"], protocol="offline",
                        index_json=str(run_set / "lite-offline.index.json"),
                        stats_json=str(run_set / "lite-offline.stats.json"))  # fmt: skip
    assert "lemma track mean: share of lemmas proved" in page and ">L</th>" in page
    assert "<td class='tcs-nowrap'>lemma</td><td class='tcs-nowrap'>test-lem-1</td>" in page
    assert "on 12 tasks (P theorem, S solver, C construction, O conjecture, L lemma)" in page
    assert "20·L" in page
