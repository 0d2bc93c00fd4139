"""Report tables in a live JupyterLab: sortable, searchable and paged as on the pages.

Only in a kernel a Jupyter server started (:func:`in_jupyter_session`), so no page carries
the 0.7 MB bundle (docs/reports.md, "JupyterLab").
"""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path
from typing import Any

from ..reports.pages import ENHANCE_TABLE_JS, PAGED_ROWS, REPORT_CSS, itables_file

#: Classes of the kit's outputs whose page styles also apply in JupyterLab.
_STYLED = ("tcs-table", "tcs-status", "tcs-banner", "tcs-note")
#: Page-only selectors (the page's navigation, code toggling and body font).
_PAGE_ONLY = ("nav", "main", "#code", "body")

_LOADER = """<script type="module">
if (!window.tcsexamDataTables) {
  const style = document.createElement("style");
  style.id = "tcsexam-table-styles";
  style.textContent = %(css)s;
  document.head.appendChild(style);
  const url = URL.createObjectURL(new Blob([%(bundle)s], {type: "text/javascript"}));
  window.tcsexamDataTables = import(url);
  window.tcsexamEnhanceTable = %(enhance_table)s;
}
</script>"""

_ENHANCE = """<script type="module">
(async () => {
  const table = document.querySelector("#%(id)s table.tcs-table");
  if (!window.tcsexamDataTables || !table || table.classList.contains("dataTable")) return;
  const lib = await window.tcsexamDataTables;
  const DataTable = lib.DataTable || lib.default;
  try {
    window.tcsexamEnhanceTable(DataTable, table, %(paged)d);
  } catch (error) { /* the table stays plain */ }
})();
</script>"""


def in_jupyter_session(notebook_folder: str | os.PathLike[str] | None = None) -> bool:
    """Whether a Jupyter server started this kernel for a notebook in its working folder.

    >>> import os
    >>> in_jupyter_session() == bool(os.environ.get("JPY_SESSION_NAME"))
    True
    """
    session = os.environ.get("JPY_SESSION_NAME", "")
    if not session.endswith(".ipynb"):
        return False
    folder = Path(notebook_folder if notebook_folder is not None else os.getcwd())
    try:
        return Path(session).resolve().parent == folder.resolve()
    except OSError:
        return False


def table_styles() -> str:
    """The pages' CSS rules for the kit's tables and notes (not the page layout).

    >>> css = table_styles()
    >>> "table.tcs-table" in css, ".tcs-nav" in css, "body{" in css
    (True, False, False)
    """
    rules = []
    for rule in REPORT_CSS.replace("\n", "").split("}"):
        selectors, _, declarations = rule.partition("{")
        if not declarations:
            continue
        if any(c in selectors for c in _STYLED) and not any(p in selectors for p in _PAGE_ONLY):
            rules.append(f"{selectors}{{{declarations}}}")
    return "\n".join(rules)


def loader_html() -> str:
    """The HTML that loads DataTables and the table styles into the page, once.

    >>> page = loader_html()
    >>> page.startswith('<script type="module">'), len(page) > 500_000
    (True, True)
    """
    css = itables_file("dt_bundle.css").read_text(encoding="utf-8") + "\n" + table_styles()
    bundle = itables_file("dt_bundle.js").read_text(encoding="utf-8")
    return _LOADER % {
        "css": json.dumps(css),
        "bundle": json.dumps(bundle),
        "enhance_table": ENHANCE_TABLE_JS,
    }


def enhanced_table_html(table_html: str) -> str:
    """A report table's HTML with the script that enhances it in JupyterLab.

    >>> page = enhanced_table_html("<table class='tcs-table'></table>")
    >>> page.startswith('<div class="tcs-live" id="tcs-table-'), "tcsexamEnhanceTable" in page
    (True, True)
    """
    node = f"tcs-table-{uuid.uuid4().hex}"
    script = _ENHANCE % {"id": node, "paged": PAGED_ROWS}
    return f'<div class="tcs-live" id="{node}">{table_html}</div>\n{script}'


class _Loader:
    """Shown once by a notebook's first cell: the loader script, and no text."""

    def _repr_html_(self) -> str:
        return loader_html()

    def __repr__(self) -> str:
        return ""


def enable_interactive_tables() -> bool:
    """In a live JupyterLab, show the loader once and enhance every report table; else False."""
    from IPython import get_ipython

    shell = get_ipython()
    if shell is None or not in_jupyter_session():
        return False
    import pandas as pd
    from IPython.display import display

    formatter = shell.display_formatter.formatters["text/html"]
    plain = formatter.lookup_by_type(pd.DataFrame)
    if not getattr(plain, "tcsexam_live", False):

        def live(table: Any) -> str:
            return enhanced_table_html(plain(table))

        live.tcsexam_live = True  # type: ignore[attr-defined]
        formatter.for_type(pd.DataFrame, live)
    display(_Loader())
    return True
