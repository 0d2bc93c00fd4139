"""The README and the manual in ``docs/``: every relative link and every #anchor resolves.

Links are read from the Markdown source (code blocks and code spans aside): ``[text](target)``
and images ``![alt](target)``. A relative target must name a file or folder of the
checkout; an anchor into a Markdown page must name one of its headings, as a code host
spells it (lower case, punctuation dropped, spaces as hyphens, a repeated heading numbered).
Web addresses are not fetched.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.M)


def _prose(text: str) -> str:
    """The text without fenced code blocks and code spans (links there are not links)."""
    return _CODE_SPAN.sub("", _FENCE.sub("", text))


def slug(heading: str) -> str:
    """A heading's anchor as a code host spells it.

    >>> slug("Uncertainty: `tcsexam stats`"), slug("Timings (measured)")
    ('uncertainty-tcsexam-stats', 'timings-measured')
    """
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = "".join(c for c in text.lower() if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every anchor the headings of a Markdown page give (repeats numbered -1, -2, ...)."""
    seen: dict[str, int] = {}
    found = set()
    for _, heading in _HEADING.findall(_FENCE.sub("", page.read_text(encoding="utf-8"))):
        base = slug(heading)
        count = seen.get(base, 0)
        found.add(base if count == 0 else f"{base}-{count}")
        seen[base] = count + 1
    return found


def links(page: Path) -> list[str]:
    return _LINK.findall(_prose(page.read_text(encoding="utf-8")))


def broken_links(page: Path) -> list[str]:
    """Each relative link of ``page`` that names no file, or no heading of its page."""
    broken = []
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        path_part, _, anchor = target.partition("#")
        linked = (page.parent / path_part).resolve() if path_part else page
        if not linked.exists():
            broken.append(f"{target}: no such file or folder")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target}: no heading '#{anchor}' in {linked.name}")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_anchor_resolves(page):
    assert broken_links(page) == []


def test_the_checker_sees_links_anchors_and_a_broken_one(tmp_path):
    """The check above would fail on a broken link (it does not pass by finding none)."""
    assert sum(len(links(page)) for page in PAGES) > 20
    page = tmp_path / "page.md"
    page.write_text(
        "# A page\n\n## Uncertainty: `tcsexam stats`\n\n## Notes\n\n## Notes\n\n"
        "[ok](#uncertainty-tcsexam-stats) [ok](#notes-1) [ok](page.md#a-page) "
        "![ok](page.md) [web](https://example.org/x#y) `[not a link](nowhere.md)`\n\n"
        "[bad](#no-such-heading) [bad](missing.md) [bad](page.md#nor-this)\n",
        encoding="utf-8",
    )
    assert broken_links(page) == [
        "#no-such-heading: no heading '#no-such-heading' in page.md",
        "missing.md: no such file or folder",
        "page.md#nor-this: no heading '#nor-this' in page.md",
    ]


def test_the_readme_is_a_front_door():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    assert "make report" in readme and "make test" in readme
    manual = {p.name for p in (ROOT / "docs").glob("*.md")}
    linked = {Path(t.partition("#")[0]).name for t in links(ROOT / "README.md")}
    assert manual - {"README.md"} <= linked, "every page of the manual is linked from the README"


def _table_rows(text: str, first_header: str) -> dict[str, list[str]]:
    """The rows of the Markdown table whose first header cell is ``first_header``, by the
    text of their first cell (backticks dropped)."""
    lines = text.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith(f"| {first_header} |"))
    rows = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split(" | ")]
        rows[cells[0].strip("`")] = cells[1:]
    return rows


def test_the_attempts_columns_table_is_the_row_schema_and_the_score_ranges():
    """docs/input-formats.md lists each column's words as the row schema does, and each
    track's score type and range as the kit checks them."""
    from tcsexam_lib.schemas import load_schema
    from tcsexam_lib.vocab import (
        ATTEMPT_COLUMNS,
        SCORE_RANGES,
        SCORE_TYPE_OTHER,
        SCORE_TYPE_SOLVER,
        TRACKS,
    )

    text = (ROOT / "docs" / "input-formats.md").read_text(encoding="utf-8")
    columns = _table_rows(text, "column")
    assert list(columns)[: len(ATTEMPT_COLUMNS)] == list(ATTEMPT_COLUMNS)
    schema = load_schema("attempts-row")["properties"]
    for column, spec in schema.items():
        if "enum" in spec:
            listed = re.findall(r"`([^`]*)`", columns[column][0])
            assert [w for w in spec["enum"] if w] == listed, column
    by_track = _table_rows(text, "track")
    assert list(by_track) == list(TRACKS)
    for track, (score_type, score_range) in by_track.items():
        want = SCORE_TYPE_SOLVER if track == "solver" else SCORE_TYPE_OTHER
        assert (score_type.strip("`"), score_range) == (want, SCORE_RANGES[track])
