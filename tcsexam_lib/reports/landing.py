"""The landing page of a report folder: every run set, every model, links to its reports."""

from __future__ import annotations

import html
import os
import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..jsonio import write_text_atomic
from ..vocab import TRACK_LETTERS, TRACKS

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from .execute import NotebookOutcome
    from .runner import RunSetResult

_STYLE = """
body{font-family:system-ui,sans-serif;margin:2em;max-width:72em}
table{border-collapse:collapse;margin:1em 0}
th,td{border:1px solid #bbb;padding:4px 8px;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.banner{border:4px solid #b71c1c;background:#ffebee;color:#b71c1c;padding:12px;
font-size:1.4em;font-weight:bold;text-align:center;margin:1em 0}
.complete{color:#2e7d32}.provisional{color:#ef6c00}.incomplete{color:#c62828}
.failed{color:#c62828;font-weight:bold}
"""


def _fmt(value: Any) -> str:
    return "—" if value is None else f"{value:.4f}"


def _relative(path: Path | None, base: Path) -> str | None:
    """A relative link to ``path``, URL-quoted and safe inside an HTML attribute."""
    if path is None:
        return None
    return html.escape(urllib.parse.quote(Path(os.path.relpath(path, base)).as_posix()))


def _run_set_section(rs: RunSetResult, base: Path) -> str:
    p = rs.params
    out = [f"<h2 id='{html.escape(p.name)}'>{html.escape(p.suite)}, {html.escape(p.protocol)}"]
    out.append(" solver protocol</h2>")
    if rs.simulated:
        out.append("<p class='failed'>SIMULATED DEMO DATA — not TCSExam results</p>")
    if p.description:
        out.append(f"<p>{html.escape(p.description)}</p>")
    links = [
        f"<a href='{_relative(rs.index_output, base)}'>index JSON</a>",
        f"<a href='{_relative(rs.attempts_filled, base)}'>attempts (solver rows filled)</a>",
    ]
    out.append(
        f"<p>Reference <code>{html.escape(str(rs.score['reference_id']))}</code>; overall "
        f"status <b>{html.escape(rs.score['status'])}</b>; " + ", ".join(links) + "</p>"
    )
    letters = [TRACK_LETTERS[t] for t in TRACKS]
    head = [
        "model",
        "status",
        "index (points)",
        *letters,
        "reports (code hidden; with code; executed notebook)",
    ]
    out.append("<table><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>")
    by_model: dict[str, list[NotebookOutcome]] = {}
    for nb in rs.notebooks:
        by_model.setdefault(nb.label.split("/")[1], []).append(nb)
    for model, entry in rs.score["models"].items():
        reports = []
        for nb in by_model.get(model, []):
            reader = _relative(nb.reader_html, base)
            full = _relative(nb.html, base)
            name = html.escape(nb.name.replace("_", " "))
            text = f"<a href='{reader}'>{name}</a>" if reader else name
            if full:
                notebook = _relative(nb.executed, base)
                text += f" (<a href='{full}'>code</a>, <a href='{notebook}'>ipynb</a>)"
            if not nb.ok:
                text += " <span class='failed'>FAILED</span>"
            reports.append(text)
        status = html.escape(entry["status"])
        cells = [
            f"<td>{html.escape(model)}</td>",
            f"<td class='{status}'>{status}</td>",
            f"<td class='num'>{_fmt(entry['index'])}</td>",
            *(f"<td class='num'>{_fmt(entry['track_means'][letter])}</td>" for letter in letters),
            f"<td>{' · '.join(reports)}</td>",
        ]
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "".join(out)


def build_landing_page(run_sets: list[RunSetResult], base: str | os.PathLike[str]) -> str:
    """The landing page HTML: every model's status, index and P, S, C, O per run set.

    ``base`` is the folder the page is written to (links are relative to it).

    Examples
    --------
    >>> page = build_landing_page([], "build/reports")
    >>> "<h1>TCSExam reports</h1>" in page, "SIMULATED" in page
    (True, False)
    """
    base = Path(base)
    simulated = any(rs.simulated for rs in run_sets)
    failures = [nb for rs in run_sets for nb in rs.notebooks if not nb.ok]
    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'>",
        "<title>TCSExam reports</title>",
        f"<style>{_STYLE}</style></head><body><h1>TCSExam reports</h1>",
    ]
    if simulated:
        parts.append(
            "<div class='banner'>SIMULATED DEMO DATA — not TCSExam results<br>"
            "<span style='font-size:0.7em'>Every number below comes from the kit's seeded "
            "demo generator.</span></div>"
        )
    parts.append(
        "<p>Index in points: 30·P + 30·S + 30·C + 10·O (higher is better; it can exceed "
        "100). P theorem, S solver (relative score in [0, 1]), C construction, O conjecture: "
        "track means. <b>complete</b>: every planned task and repeat has an adopted valid "
        "score; <b>provisional</b>: complete, but some adopted attempt is provisional; "
        "<b>incomplete</b>: no index is published (—).</p>"
    )
    parts.append(
        "<ul>"
        + "".join(
            f"<li><a href='#{html.escape(rs.params.name)}'>{html.escape(rs.params.name)}</a></li>"
            for rs in run_sets
        )
        + "</ul>"
    )
    if failures:
        parts.append(f"<h2 class='failed'>{len(failures)} notebook(s) failed</h2><ul>")
        for nb in failures:
            link = _relative(nb.html, base)
            label = html.escape(nb.label)
            parts.append(
                f"<li>{f'<a href={chr(39)}{link}{chr(39)}>{label}</a>' if link else label}: "
                f"{html.escape(nb.error or '')}</li>"
            )
        parts.append("</ul>")
    parts.extend(_run_set_section(rs, base) for rs in run_sets)
    parts.append("</body></html>\n")
    return "".join(parts)


def write_landing_pages(run_sets: list[RunSetResult]) -> list[Path]:
    by_output: dict[Path, list[RunSetResult]] = {}
    for rs in run_sets:
        by_output.setdefault(rs.params.output, []).append(rs)
    return [
        write_text_atomic(folder / "index.html", build_landing_page(group, folder))
        for folder, group in by_output.items()
    ]
