"""The landing page of a report folder: every run set published there, every model.

Built from the ``run-set.json`` files on disk (docs/reports.md, "The landing page"); values
are escaped (the footer and environment HTML passed in as safe).
"""

from __future__ import annotations

import functools
import html
import os
import urllib.parse
from collections import Counter
from pathlib import Path
from typing import Any

from markupsafe import Markup

from ..environment import describe_environment
from ..number_format import index_parts, mean, points
from ..outputfiles import write_text_atomic
from ..stats.wording import COULD_BE_FIRST_TIP, lead_sentence
from ..vocab import INDEX_FORMULA, LETTERS, MODEL_STATUSES, SIMULATED_BANNER, TRACK_DECLARATION
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

#: The landing table's column tooltips (plain names on the page, meaning on hover).
_TIPS = {
    "rank": "1 = highest index; models without an index have no rank",
    "index": f"TCSExam index in points: {INDEX_FORMULA} (higher is better; it can "
    "exceed 100); ± how far its {level} interval reaches (tasks drawn again within each "
    "track), +above / −below when the interval is asymmetric",
    "could be first": COULD_BE_FIRST_TIP,
    "status": "complete: every planned result is there; provisional: some adopted attempt "
    "awaits confirmation; incomplete: no index is published",
    **{t.letter: t.tip for t in TRACK_DECLARATION},
    "reports": "the model's three reports: its index, its solver scoring, its diagnostics",
}

_PAGE = """
{% macro link(href, text) %}{% if href %}<a href='{{ href }}'>{{ text }}</a>{% else %}
  {{ text }}{% endif %}{% endmacro %}
{% macro failed(ok) %}{% if not ok %} <span class='failed'>FAILED</span>{% endif %}{% endmacro %}
<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>
<meta name='viewport' content='width=device-width, initial-scale=1.0'>
<title>TCSExam reports</title>
<link rel='stylesheet' href='{{ assets }}/datatables.css'>
<link rel='stylesheet' href='{{ assets }}/report.css'>
</head><body class='tcs-landing'><main><h1>TCSExam reports</h1>
{% if simulated %}
  <div class='tcs-banner'>{{ banner }}<span>Every number below comes from the kit's seeded
  demo generator.</span></div>
{% endif %}
<p>One section per run set: a suite under one solver protocol. Models are ranked by their
<b>TCSExam index</b> in points ({{ formula }}; higher is better; it can exceed
100), shown with <b>±</b> how far its 95% interval reaches (<b>+above / −below</b> when the
interval is asymmetric); <b>could be first</b>: no model is shown to be ahead of it. A model
without an index (<b>incomplete</b>) is listed last. {{ letters }} are the track means
({{ names }}). Click a column to sort; hover a column name for its
meaning.</p>
<p>How the scores are computed, step by step, with exercises: <a href='teaching.html'>the
teaching notebook</a> (a static copy; it reads offline).</p>
{% if not sections %}
  <p>No run set has been published in this folder yet.</p>
{% else %}
  <nav class='tcs-contents'>Run sets:
  {% for s in sections %}
    {% if not loop.first %}{{ " · " }}{% endif %}<a href='#{{ s.name }}'>{{ s.name }}</a>
  {% endfor %}
  </nav>
{% endif %}
{% if failures %}
  <h2 class='failed'>{{ failures | length }} notebook(s) failed</h2><ul>
  {% for f in failures %}
    <li>{{ link(f.href, f.label) }}: {{ f.error }}</li>
  {% endfor %}
  </ul>
{% endif %}
{% for s in sections %}
  <section id='{{ s.name }}'><h2>{{ s.suite }} · {{ s.protocol }} solver protocol</h2>
  <p class='tcs-lead{{ "" if s.real else " open" }}'>{{ s.lead }}</p>
  {% for note in s.notes %}<p class='tcs-note'>Note: {{ note }}.</p>{% endfor %}
  {% if s.changes %}
    <div class='tcs-changes'>
    {% if s.changes.since is none %}
      <p>{{ s.changes.lines[0] }}</p>
    {% else %}
      <p><b>Since the previous publication ({{ s.changes.since }}):</b></p><ul>
      {% for line in s.changes.lines %}<li>{{ line }}</li>{% endfor %}
      </ul>
    {% endif %}
    </div>
  {% endif %}
  {% if s.description %}<p>{{ s.description }}</p>{% endif %}
  <p>
  {% if s.cohort %}
    <b>{{ link(s.cohort.href, "Leaderboard and comparisons") }}</b> (the cohort
    report){{ failed(s.cohort.ok) }}{{ " · " }}
  {% endif %}
  {{ s.count }} models: {{ s.statuses }}</p>
  <div class='tcs-scroll'><table class='tcs-table'><thead><tr>
  {% for h in s.headers %}
    <th{% if h.classes %} class='{{ h.classes }}'{% endif %}
    {% if h.tip %} title='{{ h.tip }}'{% endif %}>{{ h.label }}</th>
  {% endfor %}
  </tr></thead><tbody>
  {% for r in s.rows %}
    <tr><td class='num' data-order='{{ r.rank or "" }}'>{{ r.rank or "—" }}</td>
    <td class='tcs-nowrap tcs-model'>{{ link(r.href, r.model) }}</td>
    <td class='num' data-order='{{ r.order }}'>{{ r.index }}
    {% if r.reach %} <span class='tcs-reach'>{{ r.reach }}</span>{% endif %}</td>
    <td>{{ r.could }}</td>
    <td class='{{ r.status }}' data-order='{{ r.status_order }}'>{{ r.status }}</td>
    {% for order, text in r.means %}<td class='num' data-order='{{ order }}'>{{ text }}</td>
    {% endfor %}
    <td class='tcs-nowrap'>
    {% for nb in r.reports %}
      {% if not loop.first %}{{ " · " }}{% endif %}{{ link(nb.href, nb.short) }}
      {{ failed(nb.ok) }}
    {% else %}—{% endfor %}
    </td></tr>
  {% endfor %}
  </tbody></table></div>
  <p>Files:
  {% for href, text in s.files %}
    {% if not loop.first %}{{ " · " }}{% endif %}{{ link(href, text) }}
  {% endfor %}
  · reference <code>{{ s.reference_id }}</code> · built {{ s.created_utc }}</p>
  </section>
{% endfor %}
{{ environment }}</main><footer class='tcs-footer'>{{ footer }}
{% for name, line in run_set_footers %}<br>{{ name }}: {{ line }}{% endfor %}
</footer><script src='{{ assets }}/report.js'></script></body></html>
"""


def _joined(source: str) -> str:
    """``source`` without its line breaks: none between two tags, a space within text.

    >>> _joined("<p>One\\n  two</p>\\n<p>{{ x }}\\n</p>")
    '<p>One two</p><p>{{ x }}</p>'
    """
    lines = [line.strip() for line in source.strip().splitlines() if line.strip()]
    text = lines[0]
    for line in lines[1:]:
        text += ("" if text.endswith((">", "}")) and line.startswith(("<", "{")) else " ") + line
    return text


def _escaped(value: Any) -> Any:
    """A value as the page writes it: escaped by :func:`html.escape` unless marked safe."""
    return value if hasattr(value, "__html__") else Markup(html.escape(str(value)))


@functools.lru_cache(maxsize=1)
def _template():
    """The page's template, compiled once: autoescaped, and an unknown name is an error."""
    import jinja2

    env = jinja2.Environment(autoescape=True, finalize=_escaped, undefined=jinja2.StrictUndefined)
    return env.from_string(_joined(_PAGE))


def _href(folder: str, relative: str | None) -> str | None:
    return None if relative is None else urllib.parse.quote(f"{folder}/{relative}")


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


def _headers(level: str) -> list[dict[str, str]]:
    """The table's column heads: label, classes (numbers right-aligned) and tooltip."""
    columns = [("rank", True), ("model", False), ("index", True), ("could be first", False),
               ("status", False), *((x, True) for x in LETTERS),
               ("reports", False)]  # fmt: skip
    heads = []
    for name, numeric in columns:
        label = "index ± interval" if name == "index" else name
        nowrap = len(label) <= 14
        classes = " ".join(c for c, on in (("num", numeric), ("tcs-nowrap", nowrap)) if on)
        heads.append({"label": label, "classes": classes,
                      "tip": _TIPS.get(name, "").replace("{level}", level)})  # fmt: skip
    return heads


def _order(value: float | None) -> str:
    """A number as the table's script sorts it (``''``: no value, kept last)."""
    return "" if value is None else repr(float(value))


def _index_text(entry: SummaryModel) -> tuple[str, str]:
    """The index as shown, and how far its interval reaches (``''`` when not known)."""
    if entry.index is None:
        return "no index", ""
    if entry.index_ci is not None:
        return index_parts(entry.index, *entry.index_ci)
    if entry.index_ci_half_width is not None:  # a run set written before bounds were kept
        return points(entry.index), f"± {points(entry.index_ci_half_width)}"
    return points(entry.index), ""


def _row(folder: str, model: str, entry: SummaryModel, rank: int | None,
         notebooks: list[NotebookFiles]) -> dict[str, Any]:  # fmt: skip
    """One model's row: rank, linked name, index and reach, status, track means, reports."""
    by_name = {nb.name: nb for nb in notebooks}
    index_page = next((nb for nb in notebooks if nb.name == "index" and nb.html), None)
    shown, reach = _index_text(entry)
    could = "—" if entry.index is None else "yes" if entry.could_be_first else "no"
    means = entry.track_means
    return {
        "rank": rank,
        "model": model,
        "href": _href(folder, index_page.html) if index_page else None,
        "order": _order(entry.index),
        "index": shown,
        "reach": reach,
        "could": could,
        "status": entry.status,
        "status_order": MODEL_STATUSES.index(entry.status),
        "means": [(_order(means[x]), mean(means[x])) for x in LETTERS],
        "reports": [  # in the order of the declarations
            {
                "href": _href(folder, by_name[d.name].html),
                "short": d.short,
                "ok": by_name[d.name].ok,
            }
            for d in MODEL_NOTEBOOKS
            if d.name in by_name
        ],
    }


def _section(manifest: RunSetDocument, changes: Changes | None) -> dict[str, Any]:
    """What one run set's section shows: its lead, changes, models and files."""
    folder = manifest.folder
    summary = manifest.summary
    ranked = _ranked(summary)
    level = summary.level or 0.95
    leaders = summary.leader_group
    if leaders is None:
        leaders = [m for m, e, _ in ranked if e.could_be_first]
    ranked_count = sum(1 for *_, rank in ranked if rank is not None)
    lead, real = lead_sentence(leaders, ranked_count, level, summary.pairs_untested)
    counts = Counter(entry.status for _, entry, _ in ranked)
    cohort = manifest.cohort
    notebooks = manifest.notebooks
    return {
        "name": manifest.name,
        "suite": manifest.suite,
        "protocol": manifest.protocol,
        "lead": lead,
        "real": real,
        "notes": summary.notes or [],
        "changes": changes and {"since": changes.since, "lines": changes.lines()},
        "description": None if manifest.simulated else manifest.description,
        "cohort": cohort and cohort.html and {"href": _href(folder, cohort.html), "ok": cohort.ok},
        "count": len(ranked),
        "statuses": ", ".join(f"{counts[s]} {s}" for s in MODEL_STATUSES if counts[s]),
        "headers": _headers(f"{level:.0%}"),
        "rows": [_row(folder, m, e, rank, notebooks.get(m, [])) for m, e, rank in ranked],
        "files": [
            (_href(folder, manifest.index_json), "index JSON"),
            *(
                [(_href(folder, manifest.stats_json), "intervals JSON")]
                if manifest.stats_json
                else []
            ),
            (_href(folder, manifest.attempts), "attempts (solver rows filled)"),
            (_href(folder, manifest.kernel_log), "kernel log"),
        ],  # fmt: skip
        "reference_id": str(manifest.reference_id),
        "created_utc": manifest.created_utc,
    }


def _failures(manifests: list[RunSetDocument]) -> list[dict[str, str | None]]:
    """Every notebook that failed: where (run set, model or cohort, notebook), its page."""
    return [
        {
            "label": f"{m.name}/{where}/{nb.name}",
            "href": _href(m.folder, nb.html),
            "error": nb.error or "",
        }  # fmt: skip
        for m in manifests
        for where, nb in [
            *([("cohort", m.cohort)] if m.cohort else []),
            *((model, nb) for model, nbs in m.notebooks.items() for nb in nbs),
        ]
        if not nb.ok
    ]


def build_landing_page(
    manifests: list[RunSetDocument], history: list[PublicationRecord] | None = None
) -> str:
    """The landing page HTML from the run sets' manifests; ``history`` adds what changed.

    >>> page = build_landing_page([])
    >>> "<h1>TCSExam reports</h1>" in page, "SIMULATED" in page
    (True, False)
    """
    metrics = sorted({m.metric_id for m in manifests if m.metric_id})
    page = _template().render(
        assets=ASSETS,
        simulated=any(m.simulated for m in manifests),
        banner=SIMULATED_BANNER,
        formula=INDEX_FORMULA,
        letters=", ".join(LETTERS),
        names=", ".join(t.name for t in TRACK_DECLARATION),
        sections=[_section(m, _changes(history, m.name)) for m in manifests],
        failures=_failures(manifests),
        environment=Markup(environment_html(describe_environment("report"))),
        footer=Markup(footer_html(metric_id=", ".join(metrics))),
        run_set_footers=[
            (
                m.name,
                Markup(
                    footer_html(
                        suite=m.summary.suite,
                        with_kit=False,
                        protocol=m.summary.solver_protocol,
                        reference_id=str(m.reference_id),
                    )
                ),
            )  # fmt: skip
            for m in manifests
        ],
    )
    return page + "\n"


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
