"""The published pages in a real browser, at 1400 and 390 CSS pixels.

One report is built for the module (``tcsexam report``, SIMULATED data): the demo's
``demo-lite-offline`` run set with every notebook, ``demo-lite-online`` with its cohort
report only (so that the offline-vs-online comparison is on the page), and the SIMULATED
200-model run set (``tcsexam demo generate --models 200``, cohort report only). On the
landing page, a cohort report and a model page, at both widths: no console error, no
failed request, no horizontal overflow of the page body (wide tables scroll in their own
box), no header wider than its column, every chart described, every link resolving; and
sorting a number column is numeric, with models without an index last either way. At 390
px: the landing table's first five columns on screen, no chart text under 9 px, and no
empty chart (a run set without repeated tasks).
"""

from __future__ import annotations

import re
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
import yaml

from browser.axe import violations
from tcsexam_lib import run_report
from tcsexam_lib.demo_scale import write_files
from tcsexam_lib.paths import KIT_ROOT
from tcsexam_lib.views.charts import CHART_DPI

WIDTHS = (1400, 390)


def _params_with(tmp: Path, name: str, notebooks: list[str]) -> Path:
    """A copy of params/<name>.yaml with absolute paths and only ``notebooks``."""
    source = KIT_ROOT / "params" / f"{name}.yaml"
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    for key in ("cohort", "attempts", "records"):
        data[key] = str((source.parent / data[key]).resolve())
    data["notebooks"] = notebooks
    path = tmp / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def published(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("pages")
    many = tmp / "many"
    write_files(many, "models", 200)
    files = [
        KIT_ROOT / "params" / "demo-lite-offline.yaml",
        _params_with(tmp, "demo-lite-online", ["cohort"]),
        many / "demo-models-200.yaml",
    ]
    result = run_report(files, jobs=2, output=tmp / "out")
    assert result.ok, [f.error for f in result.failures]
    return tmp / "out"


PAGES = {
    "landing": "index.html",
    "cohort": "demo-lite-offline/cohort.html",
    "model": "demo-lite-offline/models/sim-gamma/index.html",
    "solver": "demo-lite-offline/models/sim-alpha/solver_scoring.html",
    "cohort at 200": "demo-full-offline/cohort.html",
}


def _ready(page: Any) -> Any:
    """Wait until the table script has run (every table enhanced)."""
    page.wait_for_function(
        "() => [...document.querySelectorAll('table.tcs-table')]"
        ".every(t => t.classList.contains('dataTable'))",
        timeout=20_000,
    )
    return page


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("which", list(PAGES))
def test_a_page_reads_without_error_or_overflow(published, open_page, which, width):
    page = _ready(open_page((published / PAGES[which]).as_uri(), width=width))
    assert page.problems == []
    assert page.overflow() == 0, f"{which} at {width} px is wider than the screen"
    squeezed = page.evaluate(
        "() => [...document.querySelectorAll('table.tcs-table th')]"
        ".filter(th => th.scrollWidth > th.clientWidth + 1).map(th => th.textContent)"
    )
    assert squeezed == []  # no header spills into the next one
    alts = page.evaluate("() => [...document.images].map(i => i.alt)")
    assert all(alt and "No description" not in alt and len(alt) > 40 for alt in alts), alts


@pytest.mark.parametrize("width", WIDTHS)
def test_the_code_is_readable_when_shown(published, open_page, width):
    page = _ready(open_page((published / PAGES["cohort"]).as_uri() + "#code", width=width))
    assert page.overflow() == 0
    shares = page.evaluate(
        "() => [...document.querySelectorAll('main .jp-CodeCell .jp-InputArea')].map(a => {"
        "  const p = a.querySelector('.jp-InputPrompt');"
        "  const e = a.querySelector('.jp-InputArea-editor');"
        "  return [p.getBoundingClientRect().width, e.getBoundingClientRect().width,"
        "          a.getBoundingClientRect().width]; })"
    )
    assert shares and all(editor > 0.6 * whole for _, editor, whole in shares), shares
    assert page.problems == []


def _hrefs(page: Any) -> list[str]:
    return page.evaluate("() => [...document.querySelectorAll('a[href]')].map(a => a.href)")


@pytest.mark.parametrize("which", list(PAGES))
def test_every_link_resolves(published, open_page, which):
    page = _ready(open_page((published / PAGES[which]).as_uri()))
    here = (published / PAGES[which]).as_uri()
    links = _hrefs(page)
    assert links
    for href in links:
        url = urllib.parse.urlsplit(href)
        assert url.scheme == "file", href  # nothing remote
        target = Path(urllib.parse.unquote(url.path))
        assert target.exists(), f"{which}: {href} does not resolve"
        if url.fragment and href.startswith(here + "#") and url.fragment != "code":
            assert page.locator(f"[id='{url.fragment}']").count() == 1, href


def test_navigation_goes_landing_cohort_model_and_back(published, open_page):
    landing = _ready(open_page((published / "index.html").as_uri()))
    landing.get_by_role("link", name="Leaderboard and comparisons").first.click()
    _ready(landing)
    assert landing.url.endswith("demo-full-offline/cohort.html")  # the first run set
    page = _ready(open_page((published / PAGES["cohort"]).as_uri()))
    page.locator("table.tcs-table a", has_text="sim-beta").first.click()
    _ready(page)
    assert page.url.endswith("models/sim-beta/index.html")
    page.get_by_role("link", name="solver scoring").click()
    _ready(page)
    assert page.url.endswith("models/sim-beta/solver_scoring.html")
    evidence = page.locator("table.tcs-table a", has_text=".json").first.get_attribute("href")
    assert evidence.startswith("../../evidence/sim-beta/")
    page.get_by_role("link", name="diagnostics").click()
    _ready(page)
    page.get_by_role("link", name="Leaderboard of demo-lite · offline").click()
    _ready(page)
    assert page.url.endswith("demo-lite-offline/cohort.html")
    page.get_by_role("link", name="All reports").click()
    assert page.url.endswith("out/index.html")
    footer = page.locator("footer").inner_text()
    assert "TCSExam scoring kit" in footer and "built" in footer


def _column(page: Any, table: Any, header: str) -> list[str]:
    """The ``data-order`` of each row's cell under ``header`` (the rows as shown)."""
    heads = table.locator("thead th").all_inner_texts()
    position = next(k for k, h in enumerate(heads) if h.strip() == header)
    return table.locator(f"tbody tr td:nth-child({position + 1})").evaluate_all(
        "cells => cells.map(c => c.dataset.order)"
    )


def _sort_by(page: Any, th: Any, order: str) -> None:
    """Click a column's header and wait until the table says it is sorted in ``order``."""
    th.click()
    page.wait_for_function(  # set when DataTables has ordered and redrawn the rows
        "([node, order]) => node.getAttribute('aria-sort') === order",
        arg=[th.element_handle(), order],
        timeout=10_000,
    )


def _sorted_with_missing_last(values: list[str], descending: bool) -> bool:
    present = [float(v) for v in values if v != ""]
    missing_at = [k for k, v in enumerate(values) if v == ""]
    last = missing_at == list(range(len(present), len(values)))
    return last and present == sorted(present, reverse=descending)


@pytest.mark.parametrize(
    ("which", "header"),
    [("landing", "index ± interval"), ("cohort", "index"), ("cohort", "S")],
)
def test_sorting_is_numeric_with_incomplete_models_last(published, open_page, which, header):
    page = _ready(open_page((published / PAGES[which]).as_uri(), width=1400))
    table = page.locator("table.tcs-table").first
    if which == "landing":  # the demo-lite run sets: three models, one without an index
        table = page.locator("section#demo-lite-offline table.tcs-table")
    assert _column(page, table, header)[-1] == ""  # as published: ranked, incomplete last
    th = table.locator("thead th").filter(has_text=re.compile(f"^{re.escape(header)}$")).first
    for descending in (False, True):  # DataTables: first click ascending, then descending
        _sort_by(page, th, "descending" if descending else "ascending")
        values = _column(page, table, header)
        assert _sorted_with_missing_last(values, descending), (header, descending, values)
    assert page.problems == []


def test_the_200_model_leaderboard_sorts_and_pages(published, open_page):
    page = _ready(open_page((published / PAGES["cohort at 200"]).as_uri(), width=390))
    table = page.locator("table.tcs-table").first
    index = _column(page, table, "index")
    assert len(index) == 25 and all(v != "" for v in index)  # paged: the best 25 first
    th = table.locator("thead th").filter(has_text=re.compile("^index$")).first
    _sort_by(page, th, "ascending")  # the lowest indexes first, models without one still last
    assert _sorted_with_missing_last(_column(page, table, "index"), False)
    page.locator("button.dt-paging-button.last").first.click()
    last = _column(page, table, "index")
    assert last[-1] == "" and _sorted_with_missing_last(last, False)
    assert page.overflow() == 0 and page.problems == []


@pytest.mark.parametrize(
    ("which", "header"),
    [("landing", "index ± interval"), ("landing", "could be first"), ("landing", "status"),
     ("cohort", "±")],
)  # fmt: skip
def test_a_phone_shows_the_index_without_scrolling(published, open_page, which, header):
    """At 390 px the rank, the model, its index with how far its interval reaches and, on
    the landing page, could be first and the status are on screen (the reach wraps under
    the index); the rest of a wide table (the track means) scrolls in its own box."""
    page = _ready(open_page((published / PAGES[which]).as_uri(), width=390))
    th = page.locator("table.tcs-table thead th").filter(has_text=re.compile(f"^{header}$"))
    for h in th.all():  # inside the screen and the table's scrolling box, unscrolled
        right, box = h.evaluate(
            "th => [th.getBoundingClientRect().right,"
            " th.closest('.tcs-scroll').getBoundingClientRect().right]"
        )
        assert right <= min(box, 390), (right, box)


@pytest.fixture(scope="module")
def no_repeats(tmp_path_factory) -> Path:
    """The diagnostics pages of a run set whose models repeat no task (one attempt a task)."""
    tmp = tmp_path_factory.mktemp("no-repeats")
    write_files(tmp / "few", "models", 2)
    params = tmp / "few" / "demo-models-2.yaml"
    params.write_text(params.read_text().replace("[cohort]", "[diagnostics]"))
    result = run_report([params], jobs=2, output=tmp / "out")
    assert result.ok, [f.error for f in result.failures]
    return tmp / "out" / "demo-full-offline" / "models" / "sim-m001" / "diagnostics.html"


def test_a_page_draws_no_empty_chart(no_repeats, open_page):
    """Nothing to draw is said in a sentence, not drawn as an empty chart."""
    page = _ready(open_page(no_repeats.as_uri(), width=390))
    alts = page.evaluate("() => [...document.images].map(i => i.alt)")
    assert alts and not [alt for alt in alts if re.search(r"\b0 task", alt)], alts
    assert "Nothing to draw" in page.locator("main").inner_text()
    assert page.problems == [] and page.overflow() == 0


#: Every kind of page the runner publishes, for the accessibility audit.
EVERY_KIND = {**PAGES, "diagnostics": "demo-lite-offline/models/sim-alpha/diagnostics.html"}


#: The smallest text of a kit chart (7 pt at CHART_DPI, 100 dots per inch) is 9.7 image px.
SMALLEST_CHART_TEXT_PX = 7 * CHART_DPI / 72


@pytest.mark.parametrize("which", [k for k in EVERY_KIND if k != "landing"])
def test_a_phone_shows_no_chart_text_under_9_px(published, open_page, which):
    """At 390 px a chart is not scaled down below 9 px text (a wide one scrolls in its box)."""
    page = _ready(open_page((published / EVERY_KIND[which]).as_uri(), width=390))
    scales = page.evaluate(
        "() => [...document.images].map(i => i.getBoundingClientRect().width / i.naturalWidth)"
    )
    assert all(s * SMALLEST_CHART_TEXT_PX >= 9 for s in scales), scales
    assert page.overflow() == 0


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("which", list(EVERY_KIND))
def test_every_kind_of_page_passes_an_accessibility_audit(published, open_page, which, width):
    """axe-core (from the npm registry, pinned and checked: tests/browser/axe.py), WCAG 2.1
    level AA: colour contrast, names of links and images, headings, landmarks, tables."""
    page = _ready(open_page((published / EVERY_KIND[which]).as_uri(), width=width))
    assert violations(page) == []


def test_the_audit_sees_a_contrast_failure(open_page, tmp_path):
    """The audit can fail: the landing page's old orange (#d55e00 on white, 3.86:1; the
    page now uses #B22222, 6.7:1)."""
    sample = tmp_path / "low-contrast.html"
    sample.write_text(
        "<!DOCTYPE html><html lang='en'><head><title>t</title></head><body><main>"
        "<p style='color:#d55e00;background:#fff'>incomplete</p></main></body></html>",
        encoding="utf-8",
    )
    found = violations(open_page(sample.as_uri()))
    assert len(found) == 1 and found[0].startswith("color-contrast (serious)"), found
