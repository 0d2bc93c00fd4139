"""How a report table is shown: one number format, no row index, every row, no empty table.

Every DataFrame a report notebook displays goes through :func:`table_html`:

- numbers in one format, by column name: the index, its ± half-width, contributions
  and differences of indexes (points, Δ ...) and ``z`` with 2 decimals; means, scores
  and every other non-whole number with 4; whole numbers as they are; scientific
  notation only where the value needs it (a value that would show as 0 at that
  precision, or one above 1e12);
- a missing value (``null`` in the outputs) as ``—``, never NaN or None;
- no pandas row index (a named index becomes the first column);
- numbers right-aligned, text left-aligned;
- every row in the page: the page's script (see :mod:`.pages`) makes long tables
  searchable and paged, and the caption says how many rows there are;
- an empty table is not drawn: its ``attrs["empty_text"]`` (or a plain sentence) says
  that there is nothing to list.
"""

from __future__ import annotations

import html
import math
import numbers
from typing import Any

import pandas as pd

#: How a missing value (``null`` in the JSON outputs) is shown in report tables.
MISSING_TEXT = "—"

#: Columns shown with 2 decimals (points and z), as do those whose name starts with Δ
#: (differences of indexes); other non-whole numbers get 4.
TWO_DECIMALS = {"index", "contribution", "z", "points", "± half-width"}
#: Tables longer than this say their row count (and are paged in the browser).
LONG_TABLE_ROWS = 15


def format_number(value: Any, decimals: int = 4) -> str:
    """One number as the reports show it.

    Examples
    --------
    >>> format_number(75.431944, 2), format_number(20.0, 2), format_number(0.25)
    ('75.43', '20.00', '0.2500')
    >>> format_number(None), format_number(float("nan")), format_number(3)
    ('—', '—', '3')
    >>> format_number(1e-9), format_number(2.5e-7, 2)
    ('1e-09', '2.5e-07')
    """
    if value is None or value is pd.NA:
        return MISSING_TEXT
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if not isinstance(value, numbers.Real):
        return str(value)
    number = float(value)
    if math.isnan(number):
        return MISSING_TEXT
    if math.isinf(number):
        return "∞" if number > 0 else "−∞"
    if number != 0 and (abs(number) < 0.5 * 10**-decimals or abs(number) >= 1e12):
        return f"{number:.3g}"  # the value needs it: it would read as 0, or is huge
    return f"{number:.{decimals}f}"


def _decimals(column: Any) -> int:
    name = str(column)
    return 2 if name in TWO_DECIMALS or name.startswith("Δ") else 4


def _is_numeric(series: pd.Series) -> bool:
    values = [v for v in series.tolist() if v is not None and not _missing(v)]
    return bool(values) and all(
        isinstance(v, numbers.Real) and not isinstance(v, bool) for v in values
    )


def _missing(value: Any) -> bool:
    return value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value))


def _cell(value: Any, decimals: int) -> str:
    if _missing(value):
        return MISSING_TEXT
    if isinstance(value, numbers.Real):
        return format_number(value, decimals)
    return str(value)


def table_html(table: pd.DataFrame) -> str:
    """The HTML of a report table (see the module's rules).

    Examples
    --------
    >>> t = pd.DataFrame({"track": ["P", "S"], "mean": [0.4, None], "index": [55.5, None]})
    >>> page = table_html(t)
    >>> page.count(">—<"), "NaN" in page, "None" in page, "<th></th>" in page
    (2, False, False, False)
    >>> "<td class='num'>0.4000</td>" in page, "<td class='num'>55.50</td>" in page
    (True, True)
    >>> table_html(pd.DataFrame({"x": []}))
    "<p class='tcs-note'>Nothing to list.</p>"
    """
    if table.empty:
        text = table.attrs.get("empty_text") or "Nothing to list."
        return f"<p class='tcs-note'>{html.escape(text)}</p>"
    if table.index.name is not None or isinstance(table.index, pd.MultiIndex):
        table = table.reset_index()
    columns = list(table.columns)
    numeric = [_is_numeric(table[c]) for c in columns]
    head = "".join(
        f"<th class='num'>{html.escape(str(c))}</th>" if n else f"<th>{html.escape(str(c))}</th>"
        for c, n in zip(columns, numeric, strict=True)
    )
    rows = []
    for record in table.itertuples(index=False, name=None):
        cells = []
        for value, column, num in zip(record, columns, numeric, strict=True):
            text = html.escape(_cell(value, _decimals(column)))
            cells.append(f"<td class='num'>{text}</td>" if num else f"<td>{text}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    caption = table.attrs.get("caption") or ""
    if len(table) > LONG_TABLE_ROWS:
        caption = (caption + " " if caption else "") + (
            f"{len(table)} rows, all in this page (search, sort and pages in the browser)."
        )
    caption_html = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return (
        f"<table class='tcs-table'>{caption_html}<thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def table_text(table: pd.DataFrame) -> str:
    """The plain-text form of a report table (what a terminal or the .ipynb text shows)."""
    if table.empty:
        return table.attrs.get("empty_text") or "Nothing to list."
    return f"table of {len(table)} row(s): {', '.join(map(str, table.columns))}"


def configure_display() -> None:
    """Show every DataFrame of a notebook as a report table (:func:`table_html`).

    Examples
    --------
    >>> configure_display()  # outside IPython it does nothing
    """
    from IPython import get_ipython

    shell = get_ipython()
    if shell is not None:
        formatters = shell.display_formatter.formatters
        formatters["text/html"].for_type(pd.DataFrame, table_html)
        formatters["text/plain"].for_type(pd.DataFrame, lambda t, p, cycle: p.text(table_text(t)))
