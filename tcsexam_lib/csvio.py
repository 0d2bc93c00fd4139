"""The kit's one CSV reader and writer (strict, UTF-8, each row with its line), and its
one number parser."""

from __future__ import annotations

import csv
import io
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .digests import sha256_bytes
from .errors import InputRefused, Problem
from .inputfiles import MAX_BYTES, decode_text, read_input_bytes

_DECIMAL = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*")


def parse_decimal(text: str) -> float | None:
    """A plain decimal number (``0.25``, ``2.5e-1``), or ``None`` for anything else
    (``1_000``, ``nan``, ``inf`` that ``float`` takes); too large for a float is ``inf``.

    >>> parse_decimal(" 0.25 "), parse_decimal("1_000"), parse_decimal("nan")
    (0.25, None, None)
    """
    if not _DECIMAL.fullmatch(text):
        return None
    return float(text)


#: First characters that make a spreadsheet run a cell as a formula (CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutral_cell(text: str) -> str:
    """A cell safe to open in a spreadsheet: text starting with ``=``, ``+``, ``-``, ``@``,
    a tab or CR gets a leading ``'`` (plain numbers kept). For written files only.

    >>> neutral_cell("=SUM(A1:A9)"), neutral_cell("-0.5"), neutral_cell("retry")
    ("'=SUM(A1:A9)", '-0.5', 'retry')
    """
    if text.startswith(FORMULA_STARTS) and parse_decimal(text) is None:
        return "'" + text
    return text


@dataclass
class CsvTable:
    """A CSV table as text: ``header``, and ``rows`` as ``(line, values)`` with the
    physical line a row ends on (header = 1); ``sha256`` of the bytes read, or ``None``."""

    source: str
    header: list[str]
    rows: list[tuple[int, list[str]]] = field(default_factory=list)
    sha256: str | None = None

    def copy(self) -> CsvTable:
        """A copy whose rows can be changed without touching this table."""
        return CsvTable(
            self.source,
            list(self.header),
            [(line, list(values)) for line, values in self.rows],
            None,
        )

    def neutralized(self) -> CsvTable:
        """This table with every formula-like cell made text (:func:`neutral_cell`)."""
        rows = [(line, [neutral_cell(v) for v in values]) for line, values in self.rows]
        return CsvTable(self.source, [neutral_cell(h) for h in self.header], rows, None)

    def to_text(self) -> str:
        """The table as CSV text (``\\n`` line ends, minimal quoting, cells neutralized)."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(map(neutral_cell, self.header))
        writer.writerows(map(neutral_cell, values) for _, values in self.rows)
        return buffer.getvalue()


def read_csv_table(path: str | os.PathLike[str], *, kind: str = "CSV file") -> CsvTable:
    """Read a CSV file strictly into a :class:`CsvTable`; refuse a missing, unreadable,
    non-UTF-8, malformed or empty file, naming the file and line (``kind`` starts it).

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "t.csv"
    >>> _ = path.write_text('a,b\\n1,"x\\ny"\\n2,z\\n')
    >>> table = read_csv_table(path)
    >>> table.header, [line for line, _ in table.rows]
    (['a', 'b'], [3, 4])
    """
    path = Path(path)
    data = read_input_bytes(path, kind, MAX_BYTES["csv"])
    text = decode_text(data, path, kind)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        records = list(reader)
    except csv.Error as exc:
        raise InputRefused(
            f"{kind} is not valid CSV",
            [Problem(f"{path} line {reader.line_num}", detail=str(exc))],
        ) from exc
    if not records:
        raise InputRefused(f"{kind} is empty", [Problem(f"{path} line 1", detail="no header")])
    header = records[0]
    if reader.line_num == len(records):  # one line a row: row k (from 0) ends on line k + 2
        rows = list(zip(range(2, len(records) + 1), records[1:], strict=True))
    else:  # a quoted field spans lines: count them again, row by row
        reader = csv.reader(io.StringIO(text, newline=""), strict=True)
        next(reader)
        rows = [(reader.line_num, values) for values in reader]
    return CsvTable(str(path), header, rows, sha256_bytes(data))
