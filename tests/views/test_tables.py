"""Report tables (``views/tables.py``): number policy, links, tooltips, sort keys, scroll box."""

from __future__ import annotations

import re

import pandas as pd

from tcsexam_lib.views.tables import Cell, column_kind, table_html


def test_a_table_scrolls_in_its_own_box_and_explains_its_columns():
    table = pd.DataFrame({"model": [Cell("m", href="models/m/index.html")], "index": [55.5]})
    table.attrs["tooltips"] = {"index": "points, higher is better"}
    page = table_html(table)
    assert page.startswith("<div class='tcs-scroll'><table class='tcs-table'>")
    assert "<td class='tcs-nowrap'><a href" in page  # short text stays on one line
    assert "<th class='num tcs-nowrap' title='points, higher is better'>index</th>" in page
    assert "<a href='models/m/index.html'>m</a></td>" in page


def test_numbers_carry_their_exact_value_and_missing_ones_sort_last():
    table = pd.DataFrame({"index": [75.4319444785514, None], "rank": [Cell("1–2", order=1), None]})
    page = table_html(table)
    assert "<td class='num' data-order='75.4319444785514'>75.43</td>" in page
    assert page.count("data-order=''>—</td>") == 2  # the script keeps these last
    assert "<td class='num' data-order='1.0'>1–2</td>" in page


def test_kinds_come_from_the_view_or_the_column_name():
    table = pd.DataFrame({"Δ index": [1.0], "detectable Δ": [2.0], "p (Holm)": [0.2],
                          "tasks": [3], "mean": [0.5], "Δ S": [0.1]})  # fmt: skip
    table.attrs["kinds"] = {"Δ S": "mean"}
    kinds = [column_kind(table, c) for c in table.columns]
    assert kinds == ["points", "points", "p", "count", "mean", "mean"]
    page = table_html(table)
    assert ">1.00<" in page and ">0.200<" in page and ">0.500<" in page and ">0.100<" in page


def test_the_caption_counts_rows_without_contradicting_the_pager():
    page = table_html(pd.DataFrame({"n": range(32)}))
    caption = re.search(r"<p class='tcs-caption'>(.*?)</p>", page).group(1)
    assert caption == "32 rows." and "all in this page" not in page
