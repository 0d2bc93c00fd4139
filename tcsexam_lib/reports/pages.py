"""Report pages: executed notebooks rendered to self-contained HTML with shared styling.

Every notebook is rendered by nbconvert into one page with the kit's template (the
``lab`` template with its inline CSS, require.js, MathJax and mermaid scripts taken
out): its outputs, with the code cells shown on demand (``<name>.html#code``, plain
CSS). Styling and scripts live once per report folder, in ``_assets/``, linked
relatively from every page:

- ``notebook.css``: the ``lab`` template's own CSS (written once, not 263 KB per page);
- ``report.css``: the kit's banner, navigation and table styles;
- ``datatables.css`` and ``report.js``: DataTables (the build the ``itables`` package
  ships) turns every long table into a searchable, sortable, paged one. The script is
  a classic one that loads the library from a string, so pages work from ``file://``
  and from any web server, with no network.

A page holds every row of its tables; the script only adds paging and search, so a
page without scripts still shows everything. Each page starts with a link to the
landing page (and, for a model's page, to its run set's cohort report).
"""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path

from ..jsonio import write_text_atomic
from .publish import ASSETS, ensure_real_folder

#: The kit's nbconvert template: the ``lab`` one without inline CSS or remote scripts.
_TEMPLATE = """{%- extends 'lab/index.html.j2' -%}
{%- block html_head_js -%}{%- endblock html_head_js -%}
{%- block notebook_css -%}
<link rel="stylesheet" href="{{ resources.tcs_assets }}/notebook.css">
<link rel="stylesheet" href="{{ resources.tcs_assets }}/datatables.css">
<link rel="stylesheet" href="{{ resources.tcs_assets }}/report.css">
{%- endblock notebook_css -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block body_header -%}
<body class="jp-Notebook" data-jp-theme-light="true" data-jp-theme-name="JupyterLab Light">
<span id="code"></span>
<nav class="tcs-nav">{{ resources.tcs_nav }}
<a class="tcs-show-code" href="#code">Show the code</a>
<a class="tcs-hide-code" href="#">Hide the code</a>
</nav>
<main>
{%- endblock body_header -%}
{% block footer_js %}
<script src="{{ resources.tcs_assets }}/report.js"></script>
{% endblock footer_js %}
"""

REPORT_CSS = """
body{font-family:system-ui,sans-serif}
.tcs-nav{padding:6px 12px;margin:0 0 8px 0;border-bottom:1px solid #ccc;font-size:0.95em}
.tcs-nav a{margin-right:1.5em}
.tcs-banner{border:4px solid #b71c1c;background:#ffebee;color:#b71c1c;padding:12px;
margin:8px 0;font-size:1.4em;font-weight:bold;text-align:center}
.tcs-banner span{font-size:0.7em}
.tcs-status{font-size:1.25em;padding:8px 12px;margin:8px 0;border-left:8px solid #777}
.tcs-status.complete{border-color:#0072B2}.tcs-status.provisional{border-color:#E69F00}
.tcs-status.incomplete{border-color:#D55E00}
table.tcs-table{border-collapse:collapse;margin:0.5em 0;font-size:0.92em}
table.tcs-table th,table.tcs-table td{border:1px solid #bbb;padding:3px 8px;text-align:left;
vertical-align:top}
table.tcs-table td.num,table.tcs-table th.num{text-align:right;
font-variant-numeric:tabular-nums;white-space:nowrap}
table.tcs-table caption{caption-side:top;text-align:left;color:#444;padding:2px 0}
.tcs-note{color:#444;font-style:italic}
.jp-RenderedHTMLCommon table.tcs-table td.num{text-align:right}
.jp-RenderedHTMLCommon table.tcs-table td,.jp-RenderedHTMLCommon table.tcs-table th{
text-align:left}
main .jp-CodeCell .jp-Cell-inputWrapper,main .jp-OutputPrompt,main .jp-InputPrompt{display:none}
#code:target ~ main .jp-CodeCell .jp-Cell-inputWrapper{display:flex}
#code:target ~ main .jp-OutputPrompt,#code:target ~ main .jp-InputPrompt{display:block}
.tcs-hide-code,#code:target ~ nav .tcs-show-code{display:none}
#code:target ~ nav .tcs-hide-code{display:inline}
"""

#: Tables with more rows than this are paged (and searchable) in the browser.
PAGED_ROWS = 15

_REPORT_JS = """// The kit's report pages: DataTables (as shipped by the itables package)
// makes every table.tcs-table sortable, and long ones searchable and paged.
// No network is used.
(function () {
  "use strict";
  var source = %(bundle)s;
  function enhance(lib) {
    var DataTable = lib.DataTable || lib.default;
    document.querySelectorAll("table.tcs-table").forEach(function (table) {
      var rows = table.tBodies.length ? table.tBodies[0].rows.length : 0;
      var long = rows > %(paged)d;
      try {
        new DataTable(table, {paging: long, searching: long, info: long, order: [],
                              pageLength: 25, autoWidth: false});
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


def _itables_file(name: str) -> Path:
    import itables

    return Path(itables.__file__).resolve().parent / "html" / name


def notebook_css() -> str:
    """The CSS the ``lab`` template inlines in every page, to be written once."""
    import nbformat
    from nbconvert import HTMLExporter

    page, _ = HTMLExporter(template_name="lab").from_notebook_node(nbformat.v4.new_notebook())
    head = page.split("</head>", 1)[0]
    return "\n".join(re.findall(r"<style[^>]*>(.*?)</style>", head, flags=re.S))


def write_assets(output: Path) -> Path:
    """Write ``<output>/_assets/`` (shared CSS and the table script); return the folder."""
    folder = ensure_real_folder(output / ASSETS)
    bundle = _itables_file("dt_bundle.js").read_text(encoding="utf-8")
    files = {
        "notebook.css": notebook_css(),
        "report.css": REPORT_CSS,
        "datatables.css": _itables_file("dt_bundle.css").read_text(encoding="utf-8"),
        "report.js": _REPORT_JS % {"bundle": json.dumps(bundle), "paged": PAGED_ROWS},
    }
    for name, text in files.items():
        path = folder / name
        if path.is_symlink() or not path.is_file() or path.read_text(encoding="utf-8") != text:
            write_text_atomic(path, text)
    return folder


def relative_link(target: str | os.PathLike[str], start: str | os.PathLike[str]) -> str:
    """A URL-quoted, HTML-safe relative link from folder ``start`` to ``target``.

    Examples
    --------
    >>> relative_link("out/index.html", "out/lite-offline/models/m")
    '../../../index.html'
    """
    import urllib.parse

    relative = Path(os.path.relpath(target, start)).as_posix()
    return html.escape(urllib.parse.quote(relative))


def render_html(
    executed: str | os.PathLike[str], title: str, *, output: Path, final_folder: Path, nav: str
) -> Path:
    """Write ``<name>.html``: the outputs, and the code on demand (``<name>.html#code``).

    One page per notebook: the code cells are hidden by the shared CSS until the reader
    follows the page's "Show the code" link (no script needed). ``output`` is the report
    folder (where ``_assets/`` is), ``final_folder`` the folder the page is published in
    (links are relative to it), ``nav`` the navigation HTML.
    """
    import nbformat
    from jinja2 import DictLoader
    from nbconvert import HTMLExporter

    executed = Path(executed)
    notebook = nbformat.read(executed, as_version=4)
    assets = Path(os.path.relpath(output / ASSETS, final_folder)).as_posix()
    resources = {"metadata": {"name": title}, "tcs_assets": assets, "tcs_nav": nav}
    exporter = HTMLExporter(
        template_name="lab",
        template_file="tcsexam.html.j2",
        extra_loaders=[DictLoader({"tcsexam.html.j2": _TEMPLATE})],
    )
    page, _ = exporter.from_notebook_node(notebook, resources=resources)
    return write_text_atomic(executed.with_suffix(".html"), page)
