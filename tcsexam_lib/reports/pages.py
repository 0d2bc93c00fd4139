"""Report pages: executed notebooks rendered by nbconvert to HTML, styles shared in ``_assets/``.

The kit's template is ``lab``'s without its inline CSS and scripts, so pages work from
``file://`` with no network (docs/reports.md, "Report layout").
"""

from __future__ import annotations

import functools
import html
import json
import os
import re
import warnings
from pathlib import Path
from typing import Any

from ..internals import LibraryWarning, referred_names
from ..outputfiles import write_text_atomic
from .publish import ASSETS, ensure_real_folder

#: Every page's charts (the report pages' and the teaching page's): each image with the
#: alt text its notebook gave, else ``resources.tcs_default_alt``.
DATA_PNG_BLOCK = """{% block data_png scoped %}
<div class="jp-RenderedImage jp-OutputArea-output {{ extra_class }}">
{%- set alt = output | get_metadata('alt', 'image/png') -%}
<img src="data:image/png;base64,{{ output.data['image/png'] | escape_html }}" alt="
{{- (alt or resources.tcs_default_alt) | escape_html }}">
</div>
{%- endblock data_png %}
"""

#: The kit's nbconvert template: the ``lab`` one without inline CSS or remote scripts.
PAGE_TEMPLATE = (
    """{%- extends 'lab/index.html.j2' -%}
{%- block html_head_js -%}{%- endblock html_head_js -%}
{%- block notebook_css -%}
<link rel="stylesheet" href="{{ resources.tcs_assets }}/notebook.css">
<link rel="stylesheet" href="{{ resources.tcs_assets }}/datatables.css">
<link rel="stylesheet" href="{{ resources.tcs_assets }}/report.css">
{%- endblock notebook_css -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block body_header -%}
<body class="jp-Notebook tcs-page" data-jp-theme-light="true"
 data-jp-theme-name="JupyterLab Light">
<span id="code"></span>
<nav class="tcs-nav">{{ resources.tcs_nav }}
<a class="tcs-show-code" href="#code">Show the code</a>
<a class="tcs-hide-code" href="#">Hide the code</a>
</nav>
<main>
{%- endblock body_header -%}
{% block body_footer %}
{{ resources.tcs_environment }}
</main>
<footer class="tcs-footer">{{ resources.tcs_footer }}</footer>
</body>
{% endblock body_footer %}
"""
    + DATA_PNG_BLOCK
    + """{% block footer_js %}
<script src="{{ resources.tcs_assets }}/report.js"></script>
{% endblock footer_js %}
"""
)

REPORT_CSS = """
body{font-family:system-ui,sans-serif;overflow-wrap:break-word}
.tcs-nav{display:flex;flex-wrap:wrap;align-items:baseline;gap:0.3em 1.2em;padding:6px 12px;
margin:0 0 8px 0;border-bottom:1px solid #ccc;font-size:0.95em}
.tcs-nav .tcs-here{font-weight:bold}
.tcs-nav .tcs-group{display:inline-flex;flex-wrap:wrap;gap:0.3em 0.8em}
.tcs-banner{border:4px solid #b71c1c;background:#ffebee;color:#b71c1c;padding:10px;
margin:8px 0;font-size:1.3em;font-weight:bold;text-align:center}
.tcs-banner span{display:block;font-size:0.7em}
.tcs-status{font-size:1.2em;padding:8px 12px;margin:8px 0;border-left:8px solid #777}
.tcs-status.complete{border-color:#0072B2}.tcs-status.provisional{border-color:#E69F00}
.tcs-status.incomplete{border-color:#D55E00}
.tcs-lead{font-size:1.1em;padding:6px 12px;margin:8px 0;border-left:6px solid #0072B2;
background:#f2f7fb}
.tcs-lead.open{border-color:#E69F00;background:#fdf6ec}
.tcs-changes{padding:4px 12px;margin:8px 0;border-left:6px solid #6a6a6a;background:#f4f4f4}
.tcs-changes p{margin:4px 0}.tcs-changes ul{margin:4px 0 4px 1.2em;padding:0}
.tcs-scroll{overflow-x:auto;max-width:100%;margin:0.5em 0 1em 0}
table.tcs-table{border-collapse:collapse;margin:0;font-size:0.92em;width:auto}
.jp-RenderedHTMLCommon table.tcs-table{table-layout:auto;margin:0;width:auto}
table.tcs-table th,table.tcs-table td,.jp-RenderedHTMLCommon table.tcs-table th,
.jp-RenderedHTMLCommon table.tcs-table td{border:1px solid #bbb;padding:3px 8px;
text-align:left;vertical-align:top;white-space:normal}
table.tcs-table th,.jp-RenderedHTMLCommon table.tcs-table th{vertical-align:bottom}
table.tcs-table td.num,table.tcs-table th.num,.jp-RenderedHTMLCommon table.tcs-table td.num,
.jp-RenderedHTMLCommon table.tcs-table th.num{text-align:right;font-variant-numeric:tabular-nums}
table.tcs-table td.num,.jp-RenderedHTMLCommon table.tcs-table td.num{white-space:nowrap}
table.tcs-table th[title]{text-decoration:underline dotted;text-underline-offset:3px}
table.tcs-table caption{caption-side:top;text-align:left;color:#444;padding:2px 0}
table.tcs-table.dataTable,div.dt-container div.dt-layout-full>table.tcs-table.dataTable{
margin:0;width:auto}
table.tcs-table.dataTable th:not(.num),table.tcs-table.dataTable td:not(.num){text-align:left}
div.dt-container div.dt-layout-table div.dt-layout-cell{justify-content:flex-start}
.tcs-nowrap,table.tcs-table .tcs-nowrap,.jp-RenderedHTMLCommon table.tcs-table .tcs-nowrap{
white-space:nowrap}
table.tcs-table td.tcs-long{min-width:14em}
.tcs-caption{color:#444;margin:0.8em 0 0.2em 0;font-size:0.92em}
td.complete{color:#0072B2;font-weight:bold}td.provisional{color:#9a6200;font-weight:bold}
td.incomplete{color:#B22222;font-weight:bold}
.tcs-note{color:#444;font-style:italic}
.failed{color:#b71c1c;font-weight:bold}
.tcs-landing main{max-width:82em;margin:0 auto;padding:1em 1.2em}
.tcs-landing section{margin-top:2em}
.tcs-landing h2{margin-bottom:0.3em}
.jp-RenderedImage img{max-width:100%;height:auto}
details.tcs-how{margin:1.5em 0;padding:6px 12px;border:1px solid #ccc;background:#fafafa}
details.tcs-how summary{cursor:pointer;font-weight:bold}
.tcs-footer{border-top:1px solid #ccc;margin:2em 0 0 0;padding:8px 12px;color:#555;
font-size:0.85em}
.tcs-footer code{font-size:0.95em}
main .jp-CodeCell .jp-Cell-inputWrapper,main .jp-OutputPrompt,main .jp-InputPrompt{display:none}
#code:target ~ main .jp-CodeCell .jp-Cell-inputWrapper{display:flex}
#code:target ~ main .jp-InputPrompt,#code:target ~ main .jp-OutputPrompt{display:table-cell}
main .jp-InputArea-editor{overflow-x:auto}
body{--jp-mirror-editor-number-color:#006f00;--jp-mirror-editor-comment-color:#3a6e6e;
--jp-mirror-editor-quote-color:#006f00;--jp-mirror-editor-bracket-color:#6b6b52;
--jp-mirror-editor-atom-color:#4d4dff;--jp-mirror-editor-error-color:#c00;
--jp-mirror-editor-meta-color:#8a1fd1;--jp-mirror-editor-operator-color:#8a1fd1;
--jp-mirror-editor-hr-color:#666}
@media only screen and (max-width:760px){
#code:target ~ main .jp-InputPrompt,#code:target ~ main .jp-OutputPrompt{display:table-row}
.tcs-banner{font-size:1.1em}
table.tcs-table{font-size:0.85em}
table.tcs-table th,table.tcs-table td,.jp-RenderedHTMLCommon table.tcs-table th,
.jp-RenderedHTMLCommon table.tcs-table td,table.tcs-table.dataTable>*>tr>*{padding:3px 4px}
table.tcs-table.dataTable>thead>tr>th div.dt-column-header{gap:2px}
table.tcs-table.dataTable>thead>tr>th .dt-column-order.dt-column-order{width:9px}
body.tcs-landing{margin:0}.tcs-landing main{padding:0.5em}
.tcs-landing table.tcs-table{font-size:0.8em}
.tcs-landing table.tcs-table th.tcs-nowrap,table.tcs-table .tcs-reach{white-space:normal}
.tcs-landing table.tcs-table td.tcs-model{white-space:normal;overflow-wrap:anywhere;min-width:7em}
.tcs-reach{display:block}
.jp-RenderedImage{overflow-x:auto}.jp-RenderedImage img{max-width:none}}
.tcs-hide-code,#code:target ~ nav .tcs-show-code{display:none}
#code:target ~ nav .tcs-hide-code{display:inline}
"""

#: Tables with more rows than this are paged (and searchable) in the browser.
PAGED_ROWS = 15

#: One table made sortable (number columns, ``th.num``, by each cell's exact value in
#: ``data-order``; a cell without a value, such as an incomplete model's index, stays last in
#: either direction), and searchable and paged when it is long. The published pages and a
#: live JupyterLab (:mod:`tcsexam_lib.views.lab_tables`) both call it.
ENHANCE_TABLE_JS = """function tcsexamEnhanceTable(DataTable, table, paged) {
  function value(x) {
    var v = x === null || x === undefined ? "" : String(x).trim();
    return v === "" ? null : parseFloat(v);
  }
  function compare(a, b, sign) {
    a = value(a); b = value(b);
    if (a === null || isNaN(a)) { return b === null || isNaN(b) ? 0 : 1; }
    if (b === null || isNaN(b)) { return -1; }
    return sign * (a - b);
  }
  var order = DataTable.ext.type.order;
  order["tcs-num-asc"] = function (a, b) { return compare(a, b, 1); };
  order["tcs-num-desc"] = function (a, b) { return compare(a, b, -1); };
  var rows = table.tBodies.length ? table.tBodies[0].rows.length : 0;
  var long = rows > paged;
  var numeric = [];
  table.querySelectorAll("thead th").forEach(function (th, k) {
    if (th.classList.contains("num")) { numeric.push(k); }
  });
  var options = {paging: long, searching: long, info: long, order: [],
                 pageLength: 25, autoWidth: false,
                 columnDefs: [{targets: numeric, type: "tcs-num"}]};
  if (!long) {
    options.layout = {topStart: null, topEnd: null, bottomStart: null, bottomEnd: null};
  }
  new DataTable(table, options);
}"""

_REPORT_JS = """// The kit's report pages: DataTables (as shipped by the itables package)
// makes every table.tcs-table sortable, and long ones searchable and paged.
// No network is used.
(function () {
  "use strict";
  var source = %(bundle)s;
  %(enhance_table)s
  function enhance(lib) {
    var DataTable = lib.DataTable || lib.default;
    document.querySelectorAll("table.tcs-table").forEach(function (table) {
      try {
        tcsexamEnhanceTable(DataTable, table, %(paged)d);
      } catch (error) { /* the full table stays as it is */ }
    });
  }
  function start() {
    var url = URL.createObjectURL(new Blob([source], {type: "text/javascript"}));
    import(url).then(enhance).catch(function () {});
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
"""


def itables_file(name: str) -> Path:
    """A file of the DataTables bundle the ``itables`` package ships (pages and JupyterLab)."""
    import itables

    return Path(itables.__file__).resolve().parent / "html" / name


def notebook_css() -> str:
    """The CSS the ``lab`` template inlines in every page, to be written once."""
    import nbformat
    from nbconvert import HTMLExporter

    page, _ = HTMLExporter(template_name="lab").from_notebook_node(nbformat.v4.new_notebook())
    head = page.split("</head>", 1)[0]
    return "\n".join(re.findall(r"<style[^>]*>(.*?)</style>", head, flags=re.S))


def write_assets(output: Path, unchanged: bool = False) -> Path:
    """Write ``<output>/_assets/`` (shared CSS and the table script); return the folder.

    ``unchanged`` (same kit and environment) and every file there: nothing is rendered
    again (the template's CSS takes nbconvert a second or more).
    """
    folder = output / ASSETS
    if unchanged and assets_bytes(output) == 0 and not folder.is_symlink():
        return folder
    folder = ensure_real_folder(folder)
    bundle = itables_file("dt_bundle.js").read_text(encoding="utf-8")
    files = {
        "notebook.css": notebook_css(),
        "report.css": REPORT_CSS,
        "datatables.css": itables_file("dt_bundle.css").read_text(encoding="utf-8"),
        "report.js": _REPORT_JS
        % {"bundle": json.dumps(bundle), "enhance_table": ENHANCE_TABLE_JS, "paged": PAGED_ROWS},
    }
    for name, text in files.items():
        path = folder / name
        if path.is_symlink() or not path.is_file() or path.read_text(encoding="utf-8") != text:
            write_text_atomic(path, text)
    return folder


def assets_bytes(output: Path) -> int:
    """About how many bytes :func:`write_assets` will write in ``output`` (0: all there)."""
    folder = output / ASSETS
    names = ("notebook.css", "report.css", "datatables.css", "report.js")
    if all((folder / name).is_file() for name in names):
        return 0
    bundle = sum(itables_file(name).stat().st_size for name in ("dt_bundle.js", "dt_bundle.css"))
    return bundle + len(REPORT_CSS) + 300_000


def relative_link(target: str | os.PathLike[str], start: str | os.PathLike[str]) -> str:
    """A URL-quoted, HTML-safe relative link from folder ``start`` to ``target``.

    >>> relative_link("out/index.html", "out/lite-offline/models/m")
    '../../../index.html'
    """
    import urllib.parse

    relative = Path(os.path.relpath(target, start)).as_posix()
    return html.escape(urllib.parse.quote(relative))


def footer_html(
    *,
    suite: str | None = None,
    protocol: str | None = None,
    reference_id: str | None = None,
    metric_id: str | None = None,
    with_kit: bool = True,
    dated: bool = True,
) -> str:
    """The footer of every page: kit version, metric, reference, suite, protocol, date.

    The date is now, or ``$SOURCE_DATE_EPOCH``; ``dated=False`` (notebook pages) names
    none. ``with_kit=False``: the run set's part alone (a landing-page line).

    >>> import os; os.environ["SOURCE_DATE_EPOCH"] = "0"
    >>> text = footer_html(suite="demo-lite", protocol="offline", reference_id="r", metric_id="m")
    >>> "suite <b>demo-lite</b>" in text, "built 1970-01-01T00:00:00Z" in text
    (True, True)
    >>> del os.environ["SOURCE_DATE_EPOCH"]
    """
    from ..provenance import created_utc, kit_version

    parts = [f"TCSExam scoring kit {html.escape(kit_version())}"] if with_kit else []
    labelled = [
        ("metric", metric_id, "code"),
        ("reference", reference_id, "code"),
        ("suite", suite, "b"),
        ("solver protocol", protocol, "b"),
    ]
    parts += [
        f"{label} <{tag}>{html.escape(value)}</{tag}>" for label, value, tag in labelled if value
    ]
    if with_kit and dated:
        parts.append(f"built {html.escape(created_utc())}")
    return " · ".join(parts)


def environment_html(environment: dict[str, Any]) -> str:
    """The folded section at the end of every page: the environment that made it (as
    ``run-set.json``'s ``environment``; docs/reproducing.md).

    >>> text = environment_html({"python": "3.11.7", "implementation": "CPython",
    ...     "platform": "linux-x86_64", "lock_sha256": None, "packages": {"numpy": "2.4.6"}})
    >>> "CPython 3.11.7 on linux-x86_64" in text, "<code>numpy 2.4.6</code>" in text
    (True, True)
    """
    from ..environment import LOCK_FILE, Environment

    env = Environment(environment)
    lock = (
        f"installed from the kit's lock, <code>{LOCK_FILE}</code> with sha256 "
        f"<code>{html.escape(env.lock_sha256)}</code>"
        if env.lock_sha256
        else "not installed from the kit's lock (a conda or hand-made environment)"
    )
    packages = ", ".join(
        f"<code>{html.escape(name)} {html.escape(version or 'not installed')}</code>"
        for name, version in env.packages.items()
    )
    return (
        "<details class='tcs-how tcs-environment'><summary>The environment that made this "
        f"page</summary>\n<p>{html.escape(env.implementation)} {html.escape(env.python)} on "
        f"{html.escape(env.platform)}, {lock}. The packages whose versions can change this "
        f"page: {packages}. Rebuilding a page to the byte from the same inputs: "
        "<code>docs/reproducing.md</code> in the kit.</p></details>"
    )


def render_html(
    executed: str | os.PathLike[str],
    title: str,
    *,
    output: Path,
    final_folder: Path,
    nav: str,
    footer: str = "",
) -> Path:
    """Write ``<name>.html``: the outputs, and the code on demand (``<name>.html#code``).

    ``final_folder``: where the page is published (links are relative to it).
    """
    import nbformat

    from ..environment import describe_environment

    executed = Path(executed)
    notebook = nbformat.read(executed, as_version=4)
    assets = Path(os.path.relpath(output / ASSETS, final_folder)).as_posix()
    notebook_link = f"<a href='{html.escape(executed.name)}'>executed notebook</a>"
    resources = {
        "metadata": {"name": title},
        "tcs_assets": assets,
        "tcs_nav": nav,
        "tcs_footer": " · ".join(part for part in (footer, notebook_link) if part),
        "tcs_environment": environment_html(describe_environment("report")),
        "tcs_default_alt": "A chart (no description given)",
    }
    page, _ = _exporter().from_notebook_node(notebook, resources=resources)
    return write_text_atomic(executed.with_suffix(".html"), page)


@functools.cache
def _exporter() -> Any:
    """The kit's HTML exporter, one a process: its templates compiled once, not per page."""
    return html_exporter("tcsexam.html.j2", {"tcsexam.html.j2": PAGE_TEMPLATE})


def html_exporter(template_file: str, templates: dict[str, str]) -> Any:
    """An nbconvert exporter of the ``lab`` template extended by ``templates``, without
    nbconvert's second pass over the page (:func:`_exporter_class`)."""
    from jinja2 import DictLoader

    return _exporter_class()(template_name="lab", template_file=template_file,
                             extra_loaders=[DictLoader(templates)])  # fmt: skip


#: Where nbconvert's BeautifulSoup pass puts ``tabindex="0"``: code inputs and outputs.
_FOCUSABLE = re.compile(
    r'(<div (?:id="[^"]*" )?class="(?:jp-Cell-inputWrapper|[^"]*\bjp-OutputArea-output\b[^"]*)")'
)
#: Every name nbconvert's HTMLExporter.from_notebook_node refers to (7.17): its two
#: filters, the template's rendering, the BeautifulSoup pass. A name more or fewer: changed.
_HTML_EXPORTER_NAMES = frozenset({
    "BeautifulSoup", "Highlight2HTML", "WidgetsDataTypeFilter", "_init_resources",
    "_nb_metadata", "attrs", "filters", "from_notebook_node", "get", "log", "metadata",
    "register_filter", "select", "str", "super", "warning",
})  # fmt: skip


@functools.cache
def _exporter_class() -> type:
    """nbconvert's ``HTMLExporter`` without its BeautifulSoup pass, which parses and prints
    each page again (40 % of its rendering, docs/speed.md) to give an image without alt
    text one (the kit's template gives every image its own) and to make code inputs and
    outputs focusable (``tabindex``, done here). nbconvert's own exporter, with a
    :class:`LibraryWarning`, if its ``from_notebook_node`` no longer does what is redone."""
    import nbconvert
    from nbconvert import HTMLExporter
    from nbconvert.exporters import html as nbconvert_html
    from nbconvert.exporters.templateexporter import TemplateExporter

    changed = sorted(referred_names(HTMLExporter.from_notebook_node) ^ _HTML_EXPORTER_NAMES)
    if changed:
        problem = (
            f"nbconvert {nbconvert.__version__}: HTMLExporter.from_notebook_node no longer does "
            f"just what the kit's exporter redoes (names changed: {', '.join(changed)}); pages "
            "are rendered by nbconvert's own exporter, more slowly"
        )
        warnings.warn(problem, LibraryWarning, stacklevel=2)
        return HTMLExporter

    class PageExporter(HTMLExporter):
        def from_notebook_node(self, nb: Any, resources: Any = None, **kw: Any) -> Any:
            info = nb.metadata.get("language_info", {})
            lexer = info.get("pygments_lexer", info.get("name", None))
            resources = self._init_resources(resources)
            highlight = nbconvert_html.Highlight2HTML(pygments_lexer=lexer, parent=self)
            self.register_filter("highlight_code", self.filters.get("highlight_code", highlight))
            self.register_filter("filter_data_type", nbconvert_html.WidgetsDataTypeFilter(
                notebook_metadata=self._nb_metadata, parent=self, resources=resources))  # fmt: skip
            page, resources = TemplateExporter.from_notebook_node(self, nb, resources, **kw)
            return _FOCUSABLE.sub(r'\1 tabindex="0"', page), resources

    return PageExporter
