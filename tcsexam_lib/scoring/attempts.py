"""Reading and validating the attempts table (one CSV row per attempt).

Validation has two layers. First every value against the published row schema
(``references/schemas/attempts-row.schema.json``: the vocabulary of ``track``,
``adoption_status``, ``score_status``, ``score_type`` and ``solver_protocol``, non-empty
ids, a decimal ``score`` that a ``valid`` row must have) and its track's range. Then the
relations: model in the cohort, item in the suite under that track, the solver protocol
and score type of the cohort, unique (model, track, item, attempt), and no more adopted
attempts than planned. Every problem names the file, line, field and value; all of them
are reported at once.
"""

from __future__ import annotations

import math
import os
import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..csvio import CsvTable, parse_decimal, read_csv_table
from ..errors import InputRefused, Problem
from ..references.suites import Suite
from ..schemas import load_schema
from ..vocab import (
    ADOPTED_STATUSES,
    ATTEMPT_COLUMNS,
    SCORE_RANGES,
    SCORE_TYPE_OTHER,
    SCORE_TYPE_SOLVER,
    score_in_range,
)
from .cohort import Cohort

#: The schema every row is checked against (as text, before its meaning).
ROW_SCHEMA = "attempts-row"


@dataclass(frozen=True)
class _ColumnRule:
    """One column's rule from the row schema: an ``enum``, or a ``pattern``."""

    allowed: frozenset[str] | None
    pattern: re.Pattern[str] | None
    text: str

    def accepts(self, value: str) -> bool:
        if self.allowed is not None:
            return value in self.allowed
        return self.pattern is None or self.pattern.search(value) is not None


def _column_rule(spec: dict[str, Any]) -> _ColumnRule:
    if "enum" in spec:
        text = ", ".join(v if v else "(blank)" for v in spec["enum"])
        return _ColumnRule(frozenset(spec["enum"]), None, text)
    pattern = re.compile(spec["pattern"]) if "pattern" in spec else None
    return _ColumnRule(None, pattern, spec.get("description", spec.get("pattern", "")))


@cache
def _row_rules() -> tuple[
    dict[str, _ColumnRule], tuple[tuple[str, str, dict[str, _ColumnRule]], ...]
]:
    """The row schema as column rules, and its ``if field == const then rules`` clauses."""
    schema = load_schema(ROW_SCHEMA)
    columns = {name: _column_rule(spec) for name, spec in schema["properties"].items()}
    conditional = []
    for clause in schema.get("allOf", []):
        ((field, test),) = clause["if"]["properties"].items()
        then = {name: _column_rule(spec) for name, spec in clause["then"]["properties"].items()}
        conditional.append((field, test["const"], then))
    return columns, tuple(conditional)


def _applicable_rules(row: dict[str, str]) -> dict[str, _ColumnRule]:
    columns, conditional = _row_rules()
    rules = dict(columns)
    for column, const, then in conditional:
        if row[column] == const:
            rules.update(then)
    return rules


def row_schema_problems(row: dict[str, str], where: str) -> list[Problem]:
    """Every value of one row (text) that its published row schema refuses.

    The schema's ``enum`` and ``pattern`` rules, and its ``if score_status == valid`` clause,
    checked column by column (what a JSON Schema validator would refuse, with the kit's
    messages).

    Examples
    --------
    >>> row = {"model": "m", "track": "proof", "item": "t", "attempt": "1", "score": "1",
    ...        "adoption_status": "selected", "score_status": "valid",
    ...        "score_type": "original_task_score", "solver_protocol": ""}
    >>> for problem in row_schema_problems(row, "a.csv line 2"):
    ...     print(problem)
    a.csv line 2: field 'track' = "proof" (allowed: theorem, solver, construction, conjecture)
    """
    return [
        Problem(where, field=name, value=row[name], allowed=rule.text)
        for name, rule in _applicable_rules(row).items()
        if not rule.accepts(row[name])
    ]


def _check_values(row: dict[str, str], where: str) -> list[Problem]:
    """Layer 1: each value against the row schema, and a valid score against its range."""
    problems = row_schema_problems(row, where)
    if row["score_status"] == "valid" and not any(p.field == "score" for p in problems):
        score = parse_decimal(row["score"])
        if score is None or not math.isfinite(score):
            allowed = _applicable_rules(row)["score"].text
            problems.append(Problem(where, field="score", value=row["score"], allowed=allowed))
        elif row["track"] in SCORE_RANGES and not score_in_range(row["track"], score):
            allowed = f"{SCORE_RANGES[row['track']]} for track '{row['track']}'"
            problems.append(Problem(where, field="score", value=row["score"], allowed=allowed))
    problems.sort(key=lambda p: ATTEMPT_COLUMNS.index(p.field))
    return problems


def _check_relations(
    row: dict[str, str], where: str, suite: Suite, cohort: Cohort
) -> list[Problem]:
    """Layer 2: the row against the cohort and the suite."""
    problems = []
    if row["model"] not in cohort.models:
        problems.append(
            Problem(
                where,
                field="model",
                value=row["model"],
                allowed="a model of the cohort: " + ", ".join(cohort.models),
            )
        )
    track, item = row["track"], row["item"]
    owner = suite.track_of(item)
    if owner is None:
        allowed = f"a task of suite '{suite.name}' track '{track}'"
        problems.append(Problem(where, field="item", value=item, allowed=allowed))
    elif owner != track:
        problems.append(
            Problem(
                where,
                field="track",
                value=track,
                detail=f"item '{item}' belongs to track '{owner}'",
                allowed=f"'{owner}'",
            )
        )
    solver = track == "solver"
    expected = {
        "score_type": (
            (SCORE_TYPE_SOLVER,) if solver else (SCORE_TYPE_OTHER,),
            f"'{SCORE_TYPE_SOLVER}' on solver rows"
            if solver
            else f"'{SCORE_TYPE_OTHER}' on {track} rows",
        ),
        "solver_protocol": (
            (cohort.solver_protocol,) if solver else ("", cohort.solver_protocol),
            f"'{cohort.solver_protocol}' (the cohort's protocol)"
            if solver
            else f"blank (or the cohort's '{cohort.solver_protocol}') on {track} rows",
        ),
    }
    for name, (values, allowed) in expected.items():
        if row[name] not in values:
            problems.append(Problem(where, field=name, value=row[name], allowed=allowed))
    return problems


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
        problems.append(
            Problem(
                where,
                field="header",
                value=",".join(header),
                detail=f"column {position + 1} is {got}, expected '{ATTEMPT_COLUMNS[position]}'",
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
            problems.append(Problem(f"{table.source} line {line}", detail=detail))
    if problems:
        raise InputRefused.from_problems(f"Attempts table {table.source} refused", problems)
    return rows


@dataclass(frozen=True)
class AttemptRows:
    """A validated attempts table: every row, in file order (blank lines aside).

    ``values`` holds each row's text as written (``columns`` names them: the nine attempt
    columns, then any further ones such as ``note``); ``rows`` holds each row as the index
    output shows it: ``attempt``, ``line`` (the CSV line), ``adoption_status``,
    ``score_status``, ``score`` (a float, ``None`` when blank) and the further columns.
    """

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

    Returns
    -------
    AttemptRows
        One record per CSV row, in file order: the nine attempt columns (``score`` as a
        float, ``None`` when not valid and blank), any further columns (``note``...) as
        text, and ``line`` (the CSV line number). Nothing is dropped.

    Raises
    ------
    InputRefused
        Listing every problem by file, line, field and value.
    """
    return validate_attempts(read_csv_table(path, kind="Attempts file"), suite=suite, cohort=cohort)


def validate_attempts(table: CsvTable, *, suite: Suite, cohort: Cohort) -> AttemptRows:
    """Validate an attempts table already read (:func:`read_attempts` on a file).

    Messages name ``table.source`` and each row's line. A column-wise check accepts a
    valid table at once; a refused one is checked row by row to name every problem.
    """
    _check_header(table)
    rows = _rows(table)
    accepted = _accepted(table, rows, suite, cohort)
    if accepted is not None:
        return accepted
    _refuse_rows(table.source, table.header, rows, suite, cohort)
    scores = [parse_decimal(values[4]) if values[4].strip() else None for _, values in rows]
    return _attempt_rows(table, rows, scores)


def _accepted(
    table: CsvTable, rows: list[tuple[int, list[str]]], suite: Suite, cohort: Cohort
) -> AttemptRows | None:
    """The table's rows when every check holds, column by column and task by task.

    It accepts only what :func:`_refuse_rows` would find nothing in (the row-by-row check
    names the problems of a table refused here).
    """
    scores = _accepted_scores(table.header, rows, suite, cohort)
    if scores is None:
        return None
    attempts = _attempt_rows(table, rows, scores)
    return attempts if _groups_hold(attempts.groups, cohort) else None


def _attempt_rows(
    table: CsvTable, rows: list[tuple[int, list[str]]], scores: list[float | None]
) -> AttemptRows:
    further = [(name, k) for k, name in enumerate(table.header) if name not in ATTEMPT_COLUMNS]
    output_rows = [
        {
            "attempt": values[3],
            "line": line,
            "adoption_status": values[5],
            "score_status": values[6],
            "score": score,
            **{name: values[k] for name, k in further},
        }
        for (line, values), score in zip(rows, scores, strict=True)
    ]
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for (_, values), row in zip(rows, output_rows, strict=True):
        groups[values[0], values[1], values[2]].append(row)
    values = [values for _, values in rows]
    return AttemptRows(table.source, tuple(table.header), values, output_rows, dict(groups))


def _accepted_scores(
    header: list[str], rows: list[tuple[int, list[str]]], suite: Suite, cohort: Cohort
) -> list[float | None] | None:
    """Every row's score when each column holds (values, ranges, labels); else ``None``."""
    if not rows:
        return []
    columns = dict(
        zip(ATTEMPT_COLUMNS, zip(*(values for _, values in rows), strict=True), strict=False)
    )
    model, track, item, attempt = (columns[n] for n in ("model", "track", "item", "attempt"))
    rules, conditional = _row_rules()
    for name, rule in rules.items():
        if name != "score" and not all(rule.accepts(value) for value in set(columns[name])):
            return None
    ((field, const, then),) = conditional
    loose, strict = rules["score"].pattern.search, then["score"].pattern.search
    isfinite = math.isfinite
    scores: list[float | None] = []
    append = scores.append
    for text, status, row_track in zip(columns["score"], columns[field], track, strict=True):
        if status == const:  # the same rules as parse_decimal and _in_range, inline
            if strict(text) is None:
                return None
            value = float(text)
            if not isfinite(value) or not score_in_range(row_track, value):
                return None
            append(value)
        elif loose(text) is None:
            return None
        else:
            append(float(text) if text.strip() else None)
    if not set(model) <= cohort.models.keys():
        return None
    labels = zip(track, item, columns["score_type"], columns["solver_protocol"], strict=True)
    for row_track, row_item, score_type, protocol in set(labels):
        solver = row_track == "solver"
        expected_protocols = (cohort.solver_protocol,) if solver else ("", cohort.solver_protocol)
        if (
            suite.track_of(row_item) != row_track
            or score_type != (SCORE_TYPE_SOLVER if solver else SCORE_TYPE_OTHER)
            or protocol not in expected_protocols
        ):
            return None
    return scores


def _groups_hold(groups: dict[tuple[str, str, str], list[dict[str, Any]]], cohort: Cohort) -> bool:
    """No attempt id twice in a task, and no more adopted attempts than planned."""
    for (model, _, item), rows in groups.items():
        if len(rows) > 1 and len({row["attempt"] for row in rows}) < len(rows):
            return False
        adopted = sum(row["adoption_status"] in ADOPTED_STATUSES for row in rows)
        if adopted > 1 and adopted > cohort.models[model].planned(item):
            return False
    return True


def _refuse_rows(
    source: str,
    header: list[str],
    rows: list[tuple[int, list[str]]],
    suite: Suite,
    cohort: Cohort,
) -> None:
    """Check every row in turn and raise with every problem (nothing: return)."""
    problems: list[Problem] = []
    seen: dict[tuple[str, str, str, str], int] = {}
    adopted: dict[tuple[str, str, str], list[int]] = defaultdict(list)
    for line, values in rows:
        row = dict(zip(header, values, strict=True))
        where = f"{source} line {line}"
        value_problems = _check_values(row, where)
        problems.extend(value_problems)
        if any(p.field in ("track", "model", "item") for p in value_problems):
            continue
        problems.extend(_check_relations(row, where, suite, cohort))
        key = (row["model"], row["track"], row["item"], row["attempt"])
        if key in seen:
            detail = f"duplicate (model, track, item, attempt); first at line {seen[key]}"
            problems.append(Problem(where, field="attempt", value=row["attempt"], detail=detail))
        else:
            seen[key] = line
        if row["adoption_status"] in ADOPTED_STATUSES:
            adopted[key[:3]].append(line)
    for (model, track, item), lines in adopted.items():
        plan = cohort.models.get(model)
        if plan is None or suite.track_of(item) != track:
            continue
        planned = plan.planned(item)
        if len(lines) > planned:
            problems.append(
                Problem(
                    f"{source} lines {', '.join(map(str, lines))}",
                    field="adoption_status",
                    value=f"{len(lines)} adopted attempts of {model}/{track}/{item}",
                    allowed=f"at most {planned} adopted (planned in the cohort); mark the others "
                    "'excluded' with a note",
                )
            )
    if problems:
        problems.sort(key=lambda p: _line_of(p.where))
        raise InputRefused.from_problems(f"Attempts table {source} refused", problems)


def _line_of(where: str) -> int:
    tail = where.rsplit(" line ", 1)
    if len(tail) == 2 and tail[1].isdigit():
        return int(tail[1])
    return 1 << 30
