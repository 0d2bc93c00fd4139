"""Report tables in a live JupyterLab (``views/lab_tables.py``), without a browser.

Only a kernel a Jupyter server started for a notebook of its working folder enhances its
tables; the script uses the same DataTables options, bundle and table styles as the
published pages. (``tests/browser/test_jupyterlab.py`` sorts and searches them for real.)
"""

from __future__ import annotations

import json
import re

from tcsexam_lib.reports import pages
from tcsexam_lib.reports.pages import ENHANCE_TABLE_JS, REPORT_CSS, write_assets
from tcsexam_lib.views import lab_tables


def test_only_a_jupyter_session_of_this_folder_counts(monkeypatch, tmp_path):
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    assert not lab_tables.in_jupyter_session(tmp_path)
    monkeypatch.setenv("JPY_SESSION_NAME", str(tmp_path / "index.ipynb"))
    assert lab_tables.in_jupyter_session(tmp_path)
    # a kernel that papermill started from inside a notebook's kernel inherits the variable
    assert not lab_tables.in_jupyter_session(tmp_path / "elsewhere")
    monkeypatch.setenv("JPY_SESSION_NAME", str(tmp_path / "console-1"))
    assert not lab_tables.in_jupyter_session(tmp_path)


def test_outside_ipython_nothing_is_shown():
    assert lab_tables.enable_interactive_tables() is False


def test_the_pages_options_and_table_styles_are_used(tmp_path):
    script = (write_assets(tmp_path) / "report.js").read_text(encoding="utf-8")
    # one function enhances a table on the pages and in JupyterLab
    assert ENHANCE_TABLE_JS in script and ENHANCE_TABLE_JS in lab_tables.loader_html()
    styles = lab_tables.table_styles()
    rules = re.findall(r"[^{}]+\{[^{}]*\}", REPORT_CSS.replace("\n", ""))
    kept = [rule for rule in rules if rule in styles]
    assert any(rule.startswith("table.tcs-table td.num") for rule in kept)
    assert not any(word in styles for word in (".tcs-nav", "#code", "body{", "main "))
    assert len(kept) >= 8


def test_each_table_gets_its_own_script_and_the_loader_carries_the_bundle():
    table = "<table class='tcs-table'><tbody><tr><td>1</td></tr></tbody></table>"
    first, second = (lab_tables.enhanced_table_html(table) for _ in range(2))
    ids = [re.search(r'id="(tcs-table-[0-9a-f]+)"', page).group(1) for page in (first, second)]
    assert ids[0] != ids[1] and f'document.querySelector("#{ids[0]} table.tcs-table")' in first
    assert table in first and "window.tcsexamEnhanceTable(DataTable, table, 15)" in first
    loader = lab_tables.loader_html()
    bundle = pages.itables_file("dt_bundle.js").read_text(encoding="utf-8")
    assert json.dumps(bundle) in loader and "http" not in loader.split("const url", 1)[1][:80]
