"""How a report table is shown (:func:`table_html`): the number policy, no row index, every row.

A column's number kind is declared in ``attrs["kinds"]`` or inferred from its name;
``attrs["tooltips"]`` explain column names; ``attrs["empty_text"]`` replaces an empty
table. The rules: docs/reports.md ("Tables at real size", "One number policy").
"""

from __future__ import annotations

import html
import numbers
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..number_format import (
    COUNT,
    MEAN,
    MISSING_TEXT,
    P_VALUE,
    POINTS,
    TEXT,
    Z,
    format_value,
    is_missing,
)

#: Columns in points (2 decimals), besides those whose name starts with Δ or "index".
POINTS_COLUMNS = {"±", "± half-width", "contribution", "points", "detectable Δ"}
#: Tables longer than this say their row count (and are paged in the browser).
LONG_TABLE_ROWS = 15


@dataclass(frozen=True)
class Cell:
    """A table cell with more than its text: a link, a tooltip, a sort key.

    >>> Cell("sim-alpha", href="models/sim-alpha/index.html").html()
    "<a href='models/sim-alpha/index.html'>sim-alpha</a>"
    >>> str(Cell("1–2", order=1))
    '1–2'
    """

    text: str
    href: str | None = None
    title: str | None = None
    order: Any = None

    def __str__(self) -> str:
        return self.text

    def html(self) -> str:
        text = html.escape(self.text)
        if self.href:
            text = f"<a href='{html.escape(self.href)}'>{text}</a>"
        if self.title:
            text = f"<span title='{html.escape(self.title)}'>{text}</span>"
        return text


def format_number(value: Any, kind: str = MEAN) -> str:
    """One number as the reports show it (see :func:`tcsexam_lib.number_format.format_value`).

    >>> format_number(75.431944, "points"), format_number(20.0, "points"), format_number(0.25)
    ('75.43', '20.00', '0.250')
    >>> format_number(None), format_number(float("nan")), format_number(3, "count")
    ('—', '—', '3')
    """
    return format_value(value, kind)


def column_kind(table: pd.DataFrame, column: Any) -> str:
    """The number kind of a column: declared in ``attrs["kinds"]``, else from its name.

    >>> t = pd.DataFrame({"index": [55.5], "n": [3], "p (Holm)": [0.2], "mean": [0.4]})
    >>> [column_kind(t, c) for c in t.columns]
    ['points', 'count', 'p', 'mean']
    """
    declared = table.attrs.get("kinds") or {}
    if column in declared:
        return declared[column]
    name = str(column)
    if name in POINTS_COLUMNS or name.startswith(("Δ", "index")):
        return POINTS
    if name == "z":
        return Z
    if name == "p" or name.startswith("p ("):
        return P_VALUE
    values = [v for v in table[column].tolist() if not is_missing(v)]
    if values and all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in values):
        return COUNT
    return MEAN


def number_cell(value: Any, kind: str) -> Cell | None:
    """A number as a cell that sorts by the number itself; empty (None) when there is none.

    >>> number_cell(1.0, "pass/fail"), number_cell(None, "mean")
    (Cell(text='pass', href=None, title=None, order=1.0), None)
    """
    return None if value is None else Cell(format_value(value, kind), order=value)


def _is_numeric(series: pd.Series) -> bool:
    """A column of numbers, or of :class:`Cell` values that sort by a number (ranks, rank
    intervals, task means)."""
    values = [v for v in series.tolist() if not is_missing(v)]
    return bool(values) and (
        all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in values)
        or all(isinstance(v, Cell) and isinstance(v.order, numbers.Real) for v in values)
    )


def _order(value: Any) -> str:
    """The exact value a number cell sorts by (empty: missing, sorted last)."""
    if isinstance(value, Cell):
        value = value.order if value.order is not None else value.text
    if is_missing(value):
        return ""
    return repr(float(value)) if isinstance(value, numbers.Real) else str(value)


#: A text column whose longest cell is at most this long is kept on one line (a narrow
#: screen scrolls the table rather than breaking names); longer text wraps at a readable width.
SHORT_TEXT = 24


def _text_class(series: pd.Series) -> str:
    longest = max((len(str(v)) for v in series.tolist() if not is_missing(v)), default=0)
    return "tcs-nowrap" if longest <= SHORT_TEXT else "tcs-long"


def _cell(value: Any, kind: str, numeric: bool, css: str = "") -> str:
    order = f" data-order='{html.escape(_order(value))}'" if numeric else ""
    if isinstance(value, Cell):
        text = value.html()
        if value.order is not None and not numeric:
            order = f" data-order='{html.escape(_order(value))}'"
    else:
        text = html.escape(MISSING_TEXT if is_missing(value) else format_value(value, kind))
    css = " class='num'" if numeric else f" class='{css}'" if css else ""
    return f"<td{css}{order}>{text}</td>"


def table_html(table: pd.DataFrame) -> str:
    """The HTML of a report table (see the module's rules).

    >>> t = pd.DataFrame({"track": ["P", "S"], "mean": [0.4, None], "index": [55.5, None]})
    >>> page = table_html(t)
    >>> page.count(">—<"), "NaN" in page, "None" in page, "<th></th>" in page
    (2, False, False, False)
    >>> "<td class='num' data-order='0.4'>0.400</td>" in page
    True
    >>> "<td class='num' data-order='55.5'>55.50</td>" in page
    True
    >>> table_html(pd.DataFrame({"x": []}))
    "<p class='tcs-note'>Nothing to list.</p>"
    """
    if table.empty:
        text = table.attrs.get("empty_text") or "Nothing to list."
        return f"<p class='tcs-note'>{html.escape(text)}</p>"
    if table.index.name is not None or isinstance(table.index, pd.MultiIndex):
        table = table.reset_index()
    columns = list(table.columns)
    kinds = [column_kind(table, c) for c in columns]
    numeric = [
        kind != TEXT and _is_numeric(table[c]) for c, kind in zip(columns, kinds, strict=True)
    ]
    css = ["" if num else _text_class(table[c]) for c, num in zip(columns, numeric, strict=True)]
    tips = table.attrs.get("tooltips") or {}
    head = "".join(_header(c, n, tips.get(c)) for c, n in zip(columns, numeric, strict=True))
    rows = []
    for record in table.itertuples(index=False, name=None):
        cells = (
            _cell(v, kind, num, c)
            for v, kind, num, c in zip(record, kinds, numeric, css, strict=True)
        )
        rows.append("<tr>" + "".join(cells) + "</tr>")
    caption = table.attrs.get("caption") or ""
    if len(table) > LONG_TABLE_ROWS:
        caption = (caption + " " if caption else "") + f"{len(table)} rows."
    caption_html = f"<p class='tcs-caption'>{html.escape(caption)}</p>" if caption else ""
    return (
        f"{caption_html}<div class='tcs-scroll'><table class='tcs-table'><thead><tr>{head}"
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


#: A column name at most this long stays on one line.
SHORT_HEADER = 14


def _header(column: Any, numeric: bool, tip: str | None) -> str:
    classes = [c for c in ("num" if numeric else "", "tcs-nowrap") if c]
    if len(str(column)) > SHORT_HEADER:
        classes.remove("tcs-nowrap")
    css = f" class='{' '.join(classes)}'" if classes else ""
    title = f" title='{html.escape(tip)}'" if tip else ""
    return f"<th{css}{title}>{html.escape(str(column))}</th>"


def table_text(table: pd.DataFrame) -> str:
    """The plain-text form of a report table (what a terminal or the .ipynb text shows)."""
    if table.empty:
        return table.attrs.get("empty_text") or "Nothing to list."
    return f"table of {len(table)} row(s): {', '.join(map(str, table.columns))}"


def configure_display() -> None:
    """Show every DataFrame of a notebook as a report table (:func:`table_html`).

    >>> configure_display()  # outside IPython it does nothing
    """
    from IPython import get_ipython

    shell = get_ipython()
    if shell is not None:
        formatters = shell.display_formatter.formatters
        formatters["text/html"].for_type(pd.DataFrame, table_html)
        formatters["text/plain"].for_type(pd.DataFrame, lambda t, p, cycle: p.text(table_text(t)))
