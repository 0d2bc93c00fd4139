"""The teaching notebook's page in a real browser with the network blocked, at 1400 and 390
CSS pixels: every formula typeset by the MathJax shipped in its assets (no raw ``$`` left in
the text, no TeX error), nothing requested beyond the page's own files, no console error,
no page wider than the screen, and each folded solution unfolding on a click.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import nbformat
import pytest

from browser.axe import violations
from tcsexam_lib.reports.teaching_page import TEACHING_NOTEBOOK, write_teaching_page

WIDTHS = (1400, 390)


@pytest.fixture(scope="module")
def teaching_page(tmp_path_factory) -> Path:
    return write_teaching_page(tmp_path_factory.mktemp("teaching"), landing=False)


def formulas_in_the_notebook() -> tuple[int, int]:
    """How many formulas the notebook's prose holds: (``$$...$$`` displays, ``$...$``)."""
    display = inline = 0
    for cell in nbformat.read(TEACHING_NOTEBOOK, as_version=4).cells:
        if cell.cell_type != "markdown":
            continue
        text = re.sub(r"`[^`]*`", "", cell.source)  # code spans are not typeset
        display += len(re.findall(r"\$\$.+?\$\$", text, flags=re.S))
        text = re.sub(r"\$\$.+?\$\$", "", text, flags=re.S)
        inline += len(re.findall(r"\$[^$]+\$", text))
    return display, inline


def open_offline(browser: Any, url: str, width: int) -> Any:
    """A page at ``width`` whose every request but the page's own files is refused and
    recorded (``page.remote``); console and script errors in ``page.problems``."""
    page = browser.new_page()
    page.set_viewport_size({"width": width, "height": 900})
    page.problems, page.remote = [], []
    page.on("console", lambda m: m.type == "error" and page.problems.append(m.text))
    page.on("pageerror", lambda error: page.problems.append(f"page error: {error}"))
    page.on("requestfailed", lambda r: r.url.startswith("file:") and page.problems.append(r.url))

    def only_files(route: Any) -> None:
        if route.request.url.startswith(("file:", "data:", "blob:")):
            route.continue_()
        else:
            page.remote.append(route.request.url)
            route.abort()

    page.route("**/*", only_files)
    page.goto(url)
    page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
    page.evaluate("() => MathJax.startup.promise")  # every formula typeset
    return page


@pytest.mark.parametrize("width", WIDTHS)
def test_every_formula_renders_offline(browser, teaching_page, width):
    page = open_offline(browser, teaching_page.as_uri(), width)
    try:
        text = page.evaluate("() => document.body.innerText")
        assert "$$" not in text and "$" not in text, "raw TeX left in the page"
        display, inline = formulas_in_the_notebook()
        assert page.locator("mjx-container[display='true']").count() == display >= 5
        assert page.locator("mjx-container:not([display='true'])").count() == inline > 50
        assert page.locator("mjx-merror, [data-mjx-error]").count() == 0  # no TeX error
        assert page.remote == [] and page.problems == []
        assert (
            page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0
        ), f"wider than the screen at {width} px"
    finally:
        page.close()


def test_a_folded_solution_unfolds_on_a_click(browser, teaching_page):
    page = open_offline(browser, teaching_page.as_uri(), 390)
    try:
        solutions = page.locator("details.tcs-solution")
        assert solutions.count() == 8
        assert page.locator("details.tcs-solution[open]").count() == 0
        first = solutions.first
        assert not first.locator("text=Answer:").is_visible()
        first.locator("summary").click()
        assert first.locator("text=Answer: 0.3457").is_visible()
        assert page.locator("details.tcs-methods").count() == 1
        assert page.problems == [] and page.remote == []
    finally:
        page.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_page_passes_an_accessibility_audit(browser, teaching_page, width):
    """axe-core against WCAG 2.1 AA, as every report page (tests/browser/test_pages.py):
    the code's colours (JupyterLab's numbers, #080 on #f5f5f5, are 4.26:1) and code that
    wraps on a phone instead of scrolling in a box a keyboard cannot reach."""
    page = open_offline(browser, teaching_page.as_uri(), width)
    try:
        assert violations(page) == []
    finally:
        page.close()


def test_a_phone_keeps_formulas_full_size_and_outputs_in_columns(browser, teaching_page):
    """Issue 41: at 390 px the formulas keep their size and scroll, the printed outputs keep
    their columns (no line wraps), each box that scrolls is reachable by the keyboard, and
    every line of the Contents links to its section."""
    sizes = {}
    for width in WIDTHS:
        page = open_offline(browser, teaching_page.as_uri(), width)
        try:
            page.wait_for_function("() => document.querySelectorAll('.tcs-scrolls').length > 0 "
                                   "|| window.innerWidth > 1000")  # fmt: skip
            sizes[width] = page.evaluate(
                "() => [...document.querySelectorAll(\"mjx-container[display='true'] svg\")]"
                ".map(s => Math.round(s.getBoundingClientRect().width))"
            )
            wrapped = page.evaluate(
                "() => [...document.querySelectorAll('.jp-OutputArea-output pre')]"
                ".filter(p => getComputedStyle(p).whiteSpace !== 'pre').length"
            )
            unreachable = page.evaluate(
                "() => [...document.querySelectorAll(\"mjx-container[display='true'], "
                '.jp-OutputArea-output pre, .jp-RenderedMarkdown table")]'
                ".filter(e => e.scrollWidth > e.clientWidth + 1 && e.tabIndex < 0).length"
            )
            links = page.evaluate(
                "() => [...document.querySelectorAll('.jp-RenderedMarkdown a[href^=\"#\"]')]"
                ".map(a => [a.textContent, !!document.getElementById("
                "decodeURIComponent(a.getAttribute('href').slice(1)))])"
            )
            assert wrapped == 0 and unreachable == 0
            assert len(links) >= 11 + 2 and all(found for _, found in links), links
            assert page.remote == [] and page.problems == []
        finally:
            page.close()
    assert sizes[390] == sizes[1400] and max(sizes[390]) > 390  # full size: wider formulas scroll
