"""The teaching notebook's page (``reports/teaching_page.py``): self-contained, MathJax shipped
in its assets and never fetched, the same bytes on a rebuild, the folded solutions folded,
and a clear error when MathJax is not where the kit looks for it.

The browser tier (``tests/browser/test_teaching_page.py``) checks that every formula is
typeset with the network blocked, at 1400 and 390 CSS pixels.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from tcsexam_lib.errors import TcsexamError
from tcsexam_lib.reports import teaching_page
from tcsexam_lib.reports.teaching_page import (
    TEACHING_NOTEBOOK,
    mathjax_files,
    write_teaching_page,
)


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    return write_teaching_page(tmp_path_factory.mktemp("teaching"))


def test_the_page_and_its_assets_are_written_beside_each_other(page):
    folder = page.parent
    assert page.name == "teaching.html"
    build, licence = mathjax_files()
    shipped = folder / "_assets" / "mathjax"
    assert (shipped / build.name).read_bytes() == build.read_bytes()
    assert (shipped / "LICENSE").read_bytes() == licence.read_bytes()
    assert "Apache License" in (shipped / "LICENSE").read_text(encoding="utf-8")
    text = page.read_text(encoding="utf-8")
    for target in re.findall(r"""(?:src|href)=["']([^"'#]+)[#"']""", text):
        if not target.startswith("data:"):
            assert (folder / target).is_file(), target  # every asset is there, offline


def test_nothing_is_fetched_from_the_network(page):
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", text)
    assert not re.search(r"https?://", text) and "require.js" not in text
    scripts = re.findall(r"<script[^>]*\bsrc=[\"']([^\"']+)", text)
    assert scripts == ["_assets/mathjax/tex-svg-full.js"]


def test_the_page_holds_the_notebook_its_formulas_and_its_folded_solutions(page):
    text = page.read_text(encoding="utf-8")
    notebook = nbformat.read(TEACHING_NOTEBOOK, as_version=4)
    assert "<title>How TCSExam scores are computed: a teaching notebook</title>" in text
    assert "$$\\mu = \\frac{1}{n}" in text  # the TeX, for MathJax to typeset in the browser
    solutions = sum("solution" in c.metadata.get("tags", []) for c in notebook.cells)
    assert text.count('<details class="tcs-solution">') == solutions >= 6
    assert '<details class="tcs-solution" open' not in text
    hidden = sum(c.metadata.get("jupyter", {}).get("source_hidden", False) for c in notebook.cells)
    assert text.count('<div class="tcs-folded">') == hidden  # their code stays folded
    assert "A static copy of the kit's teaching notebook" in text
    assert "move the sliders and have your answers checked" in text


def test_a_rebuild_gives_the_same_bytes(page, tmp_path):
    again = write_teaching_page(tmp_path)
    assert again.read_bytes() == page.read_bytes()
    for asset in ("teaching.css", "mathjax/tex-svg-full.js", "report.css", "notebook.css"):
        assert (tmp_path / "_assets" / asset).read_bytes() == (
            page.parent / "_assets" / asset
        ).read_bytes()


def test_in_a_report_folder_it_links_to_the_landing_page(tmp_path):
    text = write_teaching_page(tmp_path, landing=True).read_text(encoding="utf-8")
    assert re.search(r"""<a href=["']index\.html["']>All reports</a>""", text)


def test_a_kept_page_has_this_notebook_and_this_navigation(page, tmp_path):
    """unchanged=True keeps a page of the same notebook and navigation, and remakes one
    written alone (tcsexam teaching-html) into what is now a report folder."""
    alone = write_teaching_page(tmp_path)
    assert alone.read_bytes() == page.read_bytes()
    stamp = alone.stat().st_mtime_ns
    in_reports = write_teaching_page(tmp_path, landing=True, unchanged=True)
    assert "All reports</a>" in in_reports.read_text(encoding="utf-8")
    kept = in_reports.read_bytes()
    os.utime(in_reports, ns=(stamp, stamp))
    again = write_teaching_page(tmp_path, landing=True, unchanged=True)
    assert again.read_bytes() == kept and again.stat().st_mtime_ns == stamp  # kept as it is


def test_missing_mathjax_is_said_so_with_the_fix(monkeypatch):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(TcsexamError, match=r"MathJax is not installed: run `make venv`"):
        mathjax_files()


def test_a_mathjax_laid_out_otherwise_is_said_so(monkeypatch, tmp_path):
    root = tmp_path / "mathjax" / "static" / "mathjax"
    (root / "es5").mkdir(parents=True)
    (root / "es5" / "tex-svg-full.js").write_text("/* js */")
    (root / "LICENSE").write_text("licence")
    (root / "package.json").write_text('{"name": "mathjax", "version": "4.0.0"}')
    spec = importlib.util.spec_from_loader("mathjax", loader=None, is_package=True)
    spec.submodule_search_locations = [str(tmp_path / "mathjax")]
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: spec)
    with pytest.raises(TcsexamError, match=r"describes 'mathjax' '4\.0\.0', not MathJax 3\.x"):
        mathjax_files()
    (root / "LICENSE").unlink()
    with pytest.raises(TcsexamError, match=r"LICENSE missing; run `make venv`"):
        mathjax_files()


def _teaching_html(output):
    """``tcsexam teaching-html --output OUTPUT`` in a process of its own."""
    command = [sys.executable, "-m", "tcsexam_lib.cli", "teaching-html", "--output", str(output)]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def test_the_command_writes_the_page_and_refuses_an_impossible_folder(tmp_path):
    out = tmp_path / "out"
    done = _teaching_html(out)
    assert done.returncode == 0, done.stderr
    assert f"-> {out / 'teaching.html'}" in done.stdout and (out / "teaching.html").is_file()
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    refused = _teaching_html(blocker)
    assert refused.returncode == 2, refused.stderr
    assert "teaching-html: refused: Output folder refused" in refused.stderr
    assert "Nothing was written." in refused.stderr and "Traceback" not in refused.stderr
    assert blocker.read_text() == "not a folder"


def test_a_process_renders_the_notebook_once(page, tmp_path):
    """``tcsexam report`` writes the page into every report folder: the second folder reuses
    the first rendering (the page depends only on the notebook and the navigation)."""
    before = teaching_page._render.cache_info()
    write_teaching_page(tmp_path / "one", landing=True)
    write_teaching_page(tmp_path / "two", landing=True)
    after = teaching_page._render.cache_info()
    assert after.hits >= before.hits + 1 and after.misses <= before.misses + 1


def test_the_page_records_the_environment_that_made_it(page):
    """As every page the kit publishes: Python, the platform, the lock and the versions of
    the packages that render it (nbconvert among them), in a folded section."""
    from tcsexam_lib.environment import describe_environment

    text = page.read_text(encoding="utf-8")
    environment = describe_environment("report")
    assert text.count("The environment that made this page") == 1
    assert f"nbconvert {environment['packages']['nbconvert']}" in re.sub(r"<[^>]*>", "", text)
