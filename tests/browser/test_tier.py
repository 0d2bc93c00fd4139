"""The browser tier itself: the system Chromium starts, renders, and reports problems."""

from __future__ import annotations

from pathlib import Path

PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>t</title></head>
<body><h1>TCSExam reports</h1><table><tr><td>sim-alpha</td><td>82.89</td></tr></table>
</body></html>"""


def test_a_page_renders_at_both_widths(open_page, tmp_path: Path):
    page_file = tmp_path / "index.html"
    page_file.write_text(PAGE, encoding="utf-8")
    for width in (1400, 390):
        page = open_page(page_file.as_uri(), width=width)
        assert page.locator("h1").inner_text() == "TCSExam reports"
        assert page.problems == [] and page.overflow() == 0


def test_problems_are_noticed(open_page, tmp_path: Path):
    """A script error, a missing file and a page wider than the screen: the tier can fail."""
    page_file = tmp_path / "broken.html"
    page_file.write_text(
        '<html><head><link rel="stylesheet" href="missing.css"></head><body>'
        '<div style="width: 2000px">wide</div><script>undefinedName();</script></body></html>'
    )
    page = open_page(page_file.as_uri(), width=390)
    assert any("undefinedName" in problem for problem in page.problems)
    assert any("missing.css" in problem for problem in page.problems)
    assert page.overflow() > 1000
