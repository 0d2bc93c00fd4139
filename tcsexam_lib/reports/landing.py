"""The landing page of a report folder: every run set published there, every model.

The page is built from what is on disk: the ``run-set.json`` of every run-set folder
(see :mod:`.publish`), so re-running one run set keeps the others listed. It says once
that the data are simulated (when they are), then for each run set:

- one line saying whether the lead is real (from the ``leader_group`` of its ``tcsexam
  stats``), a link to its cohort report and how many models have each status;
- its models **ranked by index** (incomplete models last, without rank): rank, model
  (linked to its index report), index and how far its interval reaches (``± a``, or
  ``+a / −b`` when it is asymmetric: never a ± past its bounds), could be first,
  status, P, S, C, O and links to the model's three reports; numbers follow the kit's
  number policy (:mod:`tcsexam_lib.number_format`) and sort numerically in the browser,
  a model without an index staying last;
- links to the files: index JSON, intervals JSON, filled attempts table, kernel log.

A link leads to the teaching notebook's static copy (``teaching.html``, written into the
same folder by the report runner). A folded section names the environment that built the
page (Python, platform, the lock's sha256, package versions); a footer names the kit
version, the metric, each run set's suite, solver protocol and reference, and the date the
page was built.
"""

from __future__ import annotations

import html
import os
import urllib.parse
from collections import Counter
from pathlib import Path

from ..environment import describe_environment
from ..number_format import index_parts, mean, points
from ..outputfiles import write_text_atomic
from ..stats.wording import lead_sentence
from ..vocab import MODEL_STATUSES, SIMULATED_BANNER, TRACK_LETTERS, TRACKS
from .history import (
    Changes,
    PublicationRecord,
    compare_publications,
    last_publications,
    read_history,
)
from .notebooks import MODEL_NOTEBOOKS
from .pages import environment_html, footer_html
from .publish import ASSETS, read_manifests
from .run_set_document import NotebookFiles, RunSetDocument, RunSetSummary, SummaryModel

SIMULATED_TEXT = SIMULATED_BANNER

#: The landing table's column tooltips (plain names on the page, meaning on hover).
_TIPS = {
    "rank": "1 = highest index; models without an index have no rank",
    "index": "TCSExam index in points: 30·P + 30·S + 30·C + 10·O (higher is better; it can "
    "exceed 100); ± how far its {level} interval reaches (tasks drawn again within each "
    "track), +above / −below when the interval is asymmetric",
    "could be first": "yes: no model is significantly ahead of it (paired tests over the "
    "common tasks, Holm)",
    "status": "complete: every planned result is there; provisional: some adopted attempt "
    "awaits confirmation; incomplete: no index is published",
    "P": "theorem track: share of theorems proved (mean over tasks, 0 to 1)",
    "S": "solver track: mean relative score against the reference (0 to 1; 0.5 = as good as "
    "the reference mean)",
    "C": "construction track: mean raw reward (1 = the reference level; it can exceed 1)",
    "O": "open-conjecture track: share of conjectures settled (0 to 1)",
    "reports": "the model's three reports: its index, its solver scoring, its diagnostics",
}


def _href(folder: str, relative: str | None) -> str | None:
    if relative is None:
        return None
    return html.escape(urllib.parse.quote(f"{folder}/{relative}"))


def _link(href: str | None, text: str) -> str:
    return f"<a href='{href}'>{html.escape(text)}</a>" if href else html.escape(text)


def _ranked(summary: RunSetSummary) -> list[tuple[str, SummaryModel, int | None]]:
    """Models by rank (the stats' rank, else by index), then those without an index."""
    models = summary.results
    with_index = [(m, e) for m, e in models.items() if e.index is not None]
    with_index.sort(key=lambda me: (-me[1].index, me[0]))
    ranks = {m: e.rank for m, e in with_index}
    if any(r is None for r in ranks.values()):  # a run set written before ranks were kept
        ranks = {m: 1 + sum(o.index > e.index for _, o in with_index) for m, e in with_index}
    with_index.sort(key=lambda me: (ranks[me[0]], -me[1].index, me[0]))
    without = sorted(((m, e) for m, e in models.items() if e.index is None), key=lambda me: me[0])
    return [(m, e, ranks[m]) for m, e in with_index] + [(m, e, None) for m, e in without]


def _reports_cell(folder: str, notebooks: list[NotebookFiles]) -> str:
    by_name = {nb.name: nb for nb in notebooks}
    links = []
    for declared in MODEL_NOTEBOOKS:  # in the order of the declarations
        nb = by_name.get(declared.name)
        if nb is None:
            continue
        text = _link(_href(folder, nb.html), declared.short)
        if not nb.ok:
            text += " <span class='failed'>FAILED</span>"
        links.append(text)
    return " · ".join(links) if links else "—"


def _header(name: str, numeric: bool, level: str) -> str:
    tip = _TIPS.get(name, "").replace("{level}", level)
    label = "index ± interval" if name == "index" else name
    classes = " ".join(c for c in ("num" if numeric else "", "" if len(label) > 14 else
                                   "tcs-nowrap") if c)  # fmt: skip
    css = f" class='{classes}'" if classes else ""
    title = f" title='{html.escape(tip)}'" if tip else ""
    return f"<th{css}{title}>{html.escape(label)}</th>"


def _model_row(
    folder: str, model: str, entry: SummaryModel, rank: int | None, nbs: list[NotebookFiles]
) -> str:
    index_page = next((nb for nb in nbs if nb.name == "index" and nb.html), None)
    name = _link(_href(folder, index_page.html) if index_page else None, model)
    status = html.escape(entry.status)
    if entry.index is None:
        index, order = "no index", ""
    else:
        order = repr(float(entry.index))
        if entry.index_ci is not None:
            shown, reach = index_parts(entry.index, *entry.index_ci)
        elif entry.index_ci_half_width is not None:  # a run set written before bounds were kept
            shown, reach = points(entry.index), f"± {points(entry.index_ci_half_width)}"
        else:
            shown, reach = points(entry.index), ""
        index = html.escape(shown)
        if reach:  # on a phone the reach wraps under the index
            index += f" <span class='tcs-reach'>{html.escape(reach)}</span>"
    could = "—" if entry.index is None else "yes" if entry.could_be_first else "no"
    letters = [TRACK_LETTERS[t] for t in TRACKS]
    means = entry.track_means
    cells = [
        f"<td class='num' data-order='{'' if rank is None else rank}'>{rank or '—'}</td>",
        f"<td class='tcs-nowrap'>{name}</td>",
        f"<td class='num' data-order='{order}'>{index}</td>",
        f"<td>{could}</td>",
        f"<td class='{status}' data-order='{MODEL_STATUSES.index(entry.status)}'>{status}</td>",
        *(
            f"<td class='num' data-order='{'' if means[x] is None else repr(float(means[x]))}'>"
            f"{mean(means[x])}</td>"
            for x in letters
        ),
        f"<td class='tcs-nowrap'>{_reports_cell(folder, nbs)}</td>",
    ]
    return "<tr>" + "".join(cells) + "</tr>"


def _changes_box(changes: Changes | None) -> str:
    """What changed since the run set's previous publication (nothing without a history)."""
    if changes is None:
        return ""
    lines = changes.lines()
    if changes.since is None:
        return f"<div class='tcs-changes'><p>{html.escape(lines[0])}</p></div>"
    items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
    head = f"Since the previous publication ({changes.since}):"
    return f"<div class='tcs-changes'><p><b>{html.escape(head)}</b></p><ul>{items}</ul></div>"


def _run_set_section(manifest: RunSetDocument, changes: Changes | None = None) -> str:
    folder = manifest.folder
    name = html.escape(manifest.name)
    summary = manifest.summary
    ranked = _ranked(summary)
    level = summary.level or 0.95
    leaders = summary.leader_group
    if leaders is None:
        leaders = [m for m, e, _ in ranked if e.could_be_first]
    n_ranked = sum(1 for _, _, rank in ranked if rank is not None)
    lead, real = lead_sentence(leaders, n_ranked, level)
    counts = Counter(entry.status for _, entry, _ in ranked)
    statuses = ", ".join(f"{counts[s]} {s}" for s in MODEL_STATUSES if counts[s])
    out = [
        f"<section id='{name}'><h2>{html.escape(manifest.suite)} · "
        f"{html.escape(manifest.protocol)} solver protocol</h2>",
        f"<p class='tcs-lead{'' if real else ' open'}'>{html.escape(lead)}</p>",
        _changes_box(changes),
    ]
    if manifest.description and not manifest.simulated:
        out.append(f"<p>{html.escape(manifest.description)}</p>")
    cohort = manifest.cohort
    what = [f"{len(ranked)} models: {statuses}"]
    if cohort and cohort.html:
        failed = "" if cohort.ok else " <span class='failed'>FAILED</span>"
        link = _link(_href(folder, cohort.html), "Leaderboard and comparisons")
        what.insert(0, f"<b>{link}</b> (the cohort report){failed}")
    out.append(f"<p>{' · '.join(what)}</p>")
    out.append(_models_table(manifest, ranked, level))
    out.append(_files_line(manifest))
    return "".join(out)


def _models_table(manifest: RunSetDocument, ranked: list, level: float) -> str:
    """The run set's models, a row each, in a table a reader can sort."""
    percent = f"{level:.0%}"
    letters = [TRACK_LETTERS[t] for t in TRACKS]
    columns = [("rank", True), ("model", False), ("index", True), ("could be first", False),
               ("status", False), *((x, True) for x in letters), ("reports", False)]  # fmt: skip
    notebooks = manifest.notebooks
    return (
        "<div class='tcs-scroll'><table class='tcs-table'><thead><tr>"
        + "".join(_header(c, numeric, percent) for c, numeric in columns)
        + "</tr></thead><tbody>"
        + "".join(
            _model_row(manifest.folder, model, entry, rank, notebooks.get(model, []))
            for model, entry, rank in ranked
        )
        + "</tbody></table></div>"
    )


def _files_line(manifest: RunSetDocument) -> str:
    """The run set's files, its reference and when it was built; the section's end."""
    folder = manifest.folder
    files = [
        _link(_href(folder, manifest.index_json), "index JSON"),
        *(
            [_link(_href(folder, manifest.stats_json), "intervals JSON")]
            if manifest.stats_json
            else []
        ),
        _link(_href(folder, manifest.attempts), "attempts (solver rows filled)"),
        _link(_href(folder, manifest.kernel_log), "kernel log"),
    ]
    return (
        f"<p>Files: {' · '.join(files)} · reference "
        f"<code>{html.escape(str(manifest.reference_id))}</code> · built "
        f"{html.escape(manifest.created_utc)}</p></section>"
    )


_INTRO = (
    "<p>One section per run set: a suite under one solver protocol. Models are ranked by "
    "their <b>TCSExam index</b> in points (30·P + 30·S + 30·C + 10·O; higher is better; it "
    "can exceed 100), shown with <b>±</b> how far its 95% interval reaches (<b>+above / "
    "−below</b> when the interval is asymmetric); <b>could be "
    "first</b>: no model is significantly ahead of it. A model without an index "
    "(<b>incomplete</b>) is listed last. P, S, C, O are the track means (theorem, solver, "
    "construction, conjecture). Click a column to sort; hover a column name for its "
    "meaning.</p>"
)


_TEACHING = (
    "<p>How the scores are computed, step by step, with exercises: <a href='teaching.html'>"
    "the teaching notebook</a> (a static copy; it reads offline).</p>"
)


def build_landing_page(
    manifests: list[RunSetDocument], history: list[PublicationRecord] | None = None
) -> str:
    """The landing page HTML from the run sets' manifests (see :func:`read_manifests`).

    With the output folder's publication ``history``, each run set says what changed
    since its previous publication (see :mod:`.history`).

    Examples
    --------
    >>> page = build_landing_page([])
    >>> "<h1>TCSExam reports</h1>" in page, "SIMULATED" in page
    (True, False)
    """
    simulated = any(m.simulated for m in manifests)
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1.0'>",
        "<title>TCSExam reports</title>",
        f"<link rel='stylesheet' href='{ASSETS}/datatables.css'>",
        f"<link rel='stylesheet' href='{ASSETS}/report.css'>",
        "</head><body class='tcs-landing'><main><h1>TCSExam reports</h1>",
    ]
    if simulated:
        parts.append(
            f"<div class='tcs-banner'>{SIMULATED_TEXT}<span>Every number below comes from "
            "the kit's seeded demo generator.</span></div>"
        )
    parts.append(_INTRO)
    parts.append(_TEACHING)
    if not manifests:
        parts.append("<p>No run set has been published in this folder yet.</p>")
    else:
        parts.append(
            "<nav class='tcs-contents'>Run sets: "
            + " · ".join(
                f"<a href='#{html.escape(m.name)}'>{html.escape(m.name)}</a>" for m in manifests
            )
            + "</nav>"
        )
    parts.append(_failures_html(manifests))
    parts.extend(_run_set_section(m, _changes(history, m.name)) for m in manifests)
    parts.append(_footer_html(manifests))
    return "".join(parts)


def _failures_html(manifests: list[RunSetDocument]) -> str:
    """Every notebook that failed, linked to its page where it has one ('' when none)."""
    failures = [
        (m, label, nb)
        for m in manifests
        for label, nb in [
            *([("cohort", m.cohort)] if m.cohort else []),
            *((model, nb) for model, nbs in m.notebooks.items() for nb in nbs),
        ]
        if not nb.ok
    ]
    if not failures:
        return ""
    items = []
    for manifest, where, nb in failures:
        label = html.escape(f"{manifest.name}/{where}/{nb.name}")
        link = _href(manifest.folder, nb.html)
        text = f"<a href='{link}'>{label}</a>" if link else label
        items.append(f"<li>{text}: {html.escape(nb.error or '')}</li>")
    return f"<h2 class='failed'>{len(failures)} notebook(s) failed</h2><ul>{''.join(items)}</ul>"


def _footer_html(manifests: list[RunSetDocument]) -> str:
    """The environment, and the footer: the kit's line, then one line per run set."""
    metrics = sorted({m.metric_id for m in manifests if m.metric_id})
    run_sets = "".join(
        f"<br>{html.escape(m.name)}: "
        + footer_html(
            suite=m.summary.suite,
            protocol=m.summary.solver_protocol,
            reference_id=str(m.reference_id),
            with_kit=False,
        )
        for m in manifests
    )
    return (
        f"{environment_html(describe_environment('report'))}"
        f"</main><footer class='tcs-footer'>{footer_html(metric_id=', '.join(metrics))}"
        f"{run_sets}</footer><script src='{ASSETS}/report.js'></script></body></html>\n"
    )


def write_landing_page(output: str | os.PathLike[str]) -> Path:
    """(Re)write ``<output>/index.html`` from every run set published in ``output``."""
    output = Path(output)
    page = build_landing_page(read_manifests(output), read_history(output))
    return write_text_atomic(output / "index.html", page)


def _changes(history: list[PublicationRecord] | None, run_set: str) -> Changes | None:
    """What the run set's last publication changed (None: no publication recorded)."""
    last = last_publications(history or [], run_set, count=2)
    if not last:
        return None
    return compare_publications(last[0] if len(last) == 2 else None, last[-1])
