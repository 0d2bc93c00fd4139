"""The landing page of a report folder: every run set published there, every model.

The page is built from what is on disk: the ``run-set.json`` of every run-set folder
(see :mod:`.publish`), so re-running one run set keeps the others listed. For each run
set it leads with the cohort report, then one row per model: status first, the index
(2 decimals; ``no index`` when incomplete), P, S, C, O (4 decimals) and links to the
model's three reports.
"""

from __future__ import annotations

import html
import os
import urllib.parse
from pathlib import Path
from typing import Any

from ..jsonio import write_text_atomic
from ..vocab import TRACK_LETTERS, TRACKS
from .publish import ASSETS, read_manifests
from .run_set_document import NotebookFiles, RunSetDocument

SIMULATED_TEXT = "SIMULATED DEMO DATA — not TCSExam results"

_STYLE = """
body{font-family:system-ui,sans-serif;margin:2em;max-width:80em}
td.complete{color:#0072B2;font-weight:bold}td.provisional{color:#9a6200;font-weight:bold}
td.incomplete{color:#D55E00;font-weight:bold}
.failed{color:#b71c1c;font-weight:bold}
"""


def _fmt(value: Any, decimals: int) -> str:
    return "—" if value is None else f"{value:.{decimals}f}"


def _href(folder: str, relative: str | None) -> str | None:
    if relative is None:
        return None
    return html.escape(urllib.parse.quote(f"{folder}/{relative}"))


def _notebook_links(folder: str, nb: NotebookFiles) -> str:
    name = html.escape(nb.name.replace("_", " "))
    page = _href(folder, nb.html)
    text = f"<a href='{page}'>{name}</a>" if page else name
    if page:
        text += (
            f" (<a href='{page}#code'>code</a>, <a href='{_href(folder, nb.executed)}'>ipynb</a>)"
        )
    if not nb.ok:
        text += " <span class='failed'>FAILED</span>"
    return text


def _run_set_section(manifest: RunSetDocument) -> str:
    folder = manifest.folder
    name = html.escape(manifest.name)
    out = [
        f"<h2 id='{name}'>{html.escape(manifest.suite)}, "
        f"{html.escape(manifest.protocol)} solver protocol</h2>"
    ]
    if manifest.simulated:
        out.append(f"<p class='failed'>{SIMULATED_TEXT}</p>")
    if manifest.description:
        out.append(f"<p>{html.escape(manifest.description)}</p>")
    cohort = manifest.cohort
    if cohort:
        out.append(f"<p><b>Cohort report (leaderboard): {_notebook_links(folder, cohort)}</b></p>")
    links = [
        f"<a href='{_href(folder, manifest.index_json)}'>index JSON</a>",
        *(
            [f"<a href='{_href(folder, manifest.stats_json)}'>intervals JSON</a>"]
            if manifest.stats_json
            else []
        ),
        f"<a href='{_href(folder, manifest.attempts)}'>attempts (solver rows filled)</a>",
        f"<a href='{_href(folder, manifest.kernel_log)}'>kernel log</a>",
    ]
    out.append(
        f"<p>Overall status <b>{html.escape(manifest.status)}</b>; reference "
        f"<code>{html.escape(str(manifest.reference_id))}</code>; "
        + ", ".join(links)
        + f"; built {html.escape(manifest.created_utc)}.</p>"
    )
    letters = [TRACK_LETTERS[t] for t in TRACKS]
    level = manifest.summary.level
    head = [
        "status",
        "model",
        "index (points)" if level is None else f"index ± {level:.0%} half-width (points)",
        *letters,
        "reports (with the code; executed notebook)",
    ]
    numeric = {2, 3, 4, 5, 6}
    out.append(
        "<table class='tcs-table'><thead><tr>"
        + "".join(
            f"<th class='num'>{h}</th>" if k in numeric else f"<th>{h}</th>"
            for k, h in enumerate(head)
        )
        + "</tr></thead><tbody>"
    )
    notebooks = manifest.notebooks
    for model, entry in manifest.summary.results.items():
        status = html.escape(entry.status)
        reports = [_notebook_links(folder, nb) for nb in notebooks.get(model, [])]
        index = "no index" if entry.index is None else _fmt(entry.index, 2)
        if entry.index is not None and entry.index_ci_half_width is not None:
            index += f" ± {_fmt(entry.index_ci_half_width, 2)}"
        cells = [
            f"<td class='{status}'>{status}</td>",
            f"<td>{html.escape(model)}</td>",
            f"<td class='num'>{index}</td>",
            *(f"<td class='num'>{_fmt(entry.track_means[x], 4)}</td>" for x in letters),
            f"<td>{' · '.join(reports)}</td>",
        ]
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def build_landing_page(manifests: list[RunSetDocument]) -> str:
    """The landing page HTML from the run sets' manifests (see :func:`read_manifests`).

    Examples
    --------
    >>> page = build_landing_page([])
    >>> "<h1>TCSExam reports</h1>" in page, "SIMULATED" in page
    (True, False)
    """
    simulated = any(m.simulated for m in manifests)
    failures = [
        (m, label, nb)
        for m in manifests
        for label, nb in [
            *([("cohort", m.cohort)] if m.cohort else []),
            *((model, nb) for model, nbs in m.notebooks.items() for nb in nbs),
        ]
        if not nb.ok
    ]
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1.0'>",
        "<title>TCSExam reports</title>",
        f"<link rel='stylesheet' href='{ASSETS}/datatables.css'>",
        f"<link rel='stylesheet' href='{ASSETS}/report.css'>",
        f"<style>{_STYLE}</style></head><body><h1>TCSExam reports</h1>",
    ]
    if simulated:
        parts.append(
            f"<div class='tcs-banner'>{SIMULATED_TEXT}<br><span>Every number below comes "
            "from the kit's seeded demo generator.</span></div>"
        )
    parts.append(
        "<p>Status first: <b>complete</b> (every planned task and repeat has an adopted valid "
        "score), <b>provisional</b> (complete, but some adopted attempt still awaits "
        "confirmation), <b>incomplete</b> (no index is published). Index in points: "
        "30·P + 30·S + 30·C + 10·O (higher is better; it can exceed 100); P theorem, "
        "S solver (relative score in [0, 1]), C construction, O conjecture: track means "
        "(— when a track is incomplete). <b>± half-width</b>: the index's interval from "
        "<code>tcsexam stats</code> (tasks drawn again within each track); two models whose "
        "intervals overlap may not differ (the cohort report's pairwise tests say which "
        "do). Each run set's cohort report holds the leaderboard and the views across "
        "models.</p>"
    )
    if not manifests:
        parts.append("<p>No run set has been published in this folder yet.</p>")
    parts.append(
        "<ul>"
        + "".join(
            f"<li><a href='#{html.escape(m.name)}'>{html.escape(m.name)}</a></li>"
            for m in manifests
        )
        + "</ul>"
    )
    if failures:
        parts.append(f"<h2 class='failed'>{len(failures)} notebook(s) failed</h2><ul>")
        for manifest, where, nb in failures:
            link = _href(manifest.folder, nb.html)
            label = html.escape(f"{manifest.name}/{where}/{nb.name}")
            text = f"<a href='{link}'>{label}</a>" if link else label
            parts.append(f"<li>{text}: {html.escape(nb.error or '')}</li>")
        parts.append("</ul>")
    parts.extend(_run_set_section(m) for m in manifests)
    parts.append(f"<script src='{ASSETS}/report.js'></script></body></html>\n")
    return "".join(parts)


def write_landing_page(output: str | os.PathLike[str]) -> Path:
    """(Re)write ``<output>/index.html`` from every run set published in ``output``."""
    output = Path(output)
    return write_text_atomic(output / "index.html", build_landing_page(read_manifests(output)))
