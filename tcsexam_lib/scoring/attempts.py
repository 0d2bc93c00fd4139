"""Reading and validating the attempts table (one CSV row per attempt): header and widths
here, then :data:`~tcsexam_lib.scoring.attempt_rules.ATTEMPT_RULES`; every problem named
at once by file, line, field and value."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from ..csvio import CsvTable, read_csv_table
from ..errors import InputRefused, Problem
from ..references.suites import Suite
from ..vocab import ATTEMPT_COLUMNS
from .attempt_rules import ATTEMPT_RULES, AttemptsInput, decimal_comma
from .cohort import Cohort


def _check_header(table: CsvTable) -> None:
    # Exact names: a padded name (" track") would not be found when the rows are read.
    header = table.header
    head = header[: len(ATTEMPT_COLUMNS)]
    where = f"{table.source} line 1"
    problems = []
    if tuple(head) != ATTEMPT_COLUMNS:
        # Name the first wrong column: the whole header is cut short in the message.
        position = next(
            k for k, want in enumerate(ATTEMPT_COLUMNS) if k >= len(head) or head[k] != want
        )
        got = repr(head[position]) if position < len(head) else "nothing"
        detail = f"column {position + 1} is {got}, expected '{ATTEMPT_COLUMNS[position]}'"
        separator = _other_separator(header)
        if separator is not None:
            detail += (
                f"; the columns are separated by {separator} (a spreadsheet's export in some "
                "locales): save the table as CSV with commas"
            )
        problems.append(
            Problem(
                where,
                field="header",
                value=",".join(header),
                detail=detail,
                allowed=",".join(ATTEMPT_COLUMNS)
                + " (in this order; further columns such as note may follow)",
            )
        )
    duplicated = sorted({h for h in header if header.count(h) > 1})
    if duplicated:
        problems.append(
            Problem(where, field="header", value=",".join(duplicated), detail="column named twice")
        )
    if "line" in header:
        problems.append(
            Problem(
                where,
                field="header",
                value="line",
                detail="this column name is reserved for the CSV line number the kit adds",
                allowed="another name for this further column (e.g. source_line)",
            )
        )
    if problems:
        raise InputRefused("Attempts table header refused", problems)


#: Separators a spreadsheet may write in place of commas, by name.
_SEPARATORS = {";": "semicolons (';')", "\t": "tabs", "|": "vertical bars ('|')"}


def _other_separator(header: list[str]) -> str | None:
    """The separator a one-column header holds instead of commas, in words (or ``None``).

    >>> _other_separator(["model;track;item"]), _other_separator(["model", "track"])
    ("semicolons (';')", None)
    """
    if len(header) != 1:
        return None
    return next((name for sep, name in _SEPARATORS.items() if sep in header[0]), None)


#: What to do about blank solver scores where nothing fills them (no records folder given).
BLANK_SOLVER_SCORES = (
    "a blank solver score is filled from its records only by `tcsexam score --solver-records "
    "DIR` or `tcsexam report`: score with one of them, or give this table's filled copy "
    "that they write (<output>.attempts.csv, e.g. index.attempts.csv) with its evidence "
    "folder (<output>.evidence/: --solver-evidence, or a notebook's solver_evidence)"
)

_SCORE = ATTEMPT_COLUMNS.index("score")


def _decimal_comma(values: list[str], width: int) -> str | None:
    """A hint when one field too many comes from a score written with a decimal comma.

    >>> _decimal_comma(["m", "theorem", "t", "1", "0", "85", "selected"], 6)
    "the score '0,85' looks written with a decimal comma: write 0.85"
    """
    if len(values) != width + 1 or len(values) <= _SCORE + 1:
        return None
    score = f"{values[_SCORE]},{values[_SCORE + 1]}"
    hint = decimal_comma(score)
    return None if hint is None else f"the score '{score}' {hint}"


def _rows(table: CsvTable) -> list[tuple[int, list[str]]]:
    """The table's rows with their lines; blank rows skipped, a wrong field count refused."""
    rows, problems = [], []
    width = len(table.header)
    for line, values in table.rows:
        if len(values) == width and values[0]:  # a model id: not a blank row
            rows.append((line, values))
            continue
        if not "".join(values).strip():
            continue
        if len(values) == width:
            rows.append((line, values))
        else:
            detail = f"{len(values)} fields, header has {width}"
            hint = _decimal_comma(values, width)
            if hint is not None:
                detail += f"; {hint}"
            problems.append(Problem(f"{table.source} line {line}", detail=detail))
    if problems:
        raise InputRefused.from_problems(f"Attempts table {table.source} refused", problems)
    return rows


@dataclass(frozen=True)
class AttemptRows:
    """A validated attempts table, every row in file order (blank lines aside): ``values``
    as written (named by ``columns``), ``rows`` as the index output shows them."""

    source: str
    columns: tuple[str, ...]
    values: list[list[str]]
    rows: list[dict[str, Any]]
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = field(repr=False)

    def __len__(self) -> int:
        return len(self.rows)

    def keys(self) -> list[tuple[str, str, str]]:
        """``(model, track, item)`` of every row."""
        return [(v[0], v[1], v[2]) for v in self.values]


def read_attempts(path: str | os.PathLike[str], *, suite: Suite, cohort: Cohort) -> AttemptRows:
    """Read and validate an attempts table against a suite and a cohort.

    Returns :class:`AttemptRows` (one per CSV row, nothing dropped; ``score`` a float or
    ``None`` when blank and not valid); refuses (:class:`InputRefused`) with every problem.
    """
    return validate_attempts(read_csv_table(path, kind="Attempts file"), suite=suite, cohort=cohort)


def validate_attempts(table: CsvTable, *, suite: Suite, cohort: Cohort) -> AttemptRows:
    """Validate an attempts table already read; messages name ``table.source`` and lines."""
    _check_header(table)
    rows = _rows(table)
    data = attempts_input(table, rows, suite=suite, cohort=cohort)
    problems = ATTEMPT_RULES.refusal(data)
    if problems:
        blank = any(
            (row["track"], row["score_status"], row["score"].strip()) == ("solver", "valid", "")
            for _, _, row in data.rows
        )
        hint = BLANK_SOLVER_SCORES if blank else None
        raise InputRefused.from_problems(f"Attempts table {table.source} refused", problems, hint)
    return AttemptRows(data.source, tuple(data.header), data.values, data.output_rows, data.groups)


def attempts_input(
    table: CsvTable, rows: list[tuple[int, list[str]]], *, suite: Suite, cohort: Cohort
) -> AttemptsInput:
    """What :data:`ATTEMPT_RULES` check: the rows (blank ones skipped), suite and cohort."""
    return AttemptsInput(table.source, table.header, rows, suite, cohort)
