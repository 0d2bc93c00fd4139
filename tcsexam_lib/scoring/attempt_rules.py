"""The rules of the attempts table, each written once (:data:`ATTEMPT_RULES`): every value
against the published row schema (``references/schemas/attempts-row.schema.json``) and its
track's range, then the relations with the cohort and the suite (model, item under its
track, score type, protocol, unique attempts, no more adopted than planned)."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import repeat
from typing import Any

from ..errors import Problem, did_you_mean
from ..inputrules import Key, Rule, RuleList
from ..references.suites import Suite
from ..schemas import load_schema
from ..vocab import (
    ADOPTED_STATUSES,
    ATTEMPT_COLUMNS,
    SCORE_RANGES,
    SCORE_TYPE_OTHER,
    TRACK_OF,
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
def _row_rules() -> tuple[dict[str, _ColumnRule], tuple[str, str, dict[str, _ColumnRule]]]:
    """The row schema as column rules, and its one ``if field == const then rules`` clause."""
    schema = load_schema(ROW_SCHEMA)
    columns = {name: _column_rule(spec) for name, spec in schema["properties"].items()}
    ((clause),) = schema["allOf"]
    ((field_name, test),) = clause["if"]["properties"].items()
    then = {name: _column_rule(spec) for name, spec in clause["then"]["properties"].items()}
    return columns, (field_name, test["const"], then)


def _applicable_rules(row: dict[str, str]) -> dict[str, _ColumnRule]:
    columns, (column, const, then) = _row_rules()
    return {**columns, **then} if row[column] == const else columns


def row_schema_problems(row: dict[str, str], where: str) -> list[Problem]:
    """Every value of one row (text) that its published row schema refuses (its ``enum``,
    ``pattern`` and ``if score_status == valid`` rules, column by column).

    >>> row = {"model": "m", "track": "proof", "item": "t", "attempt": "1", "score": "1",
    ...        "adoption_status": "selected", "score_status": "valid",
    ...        "score_type": "original_task_score", "solver_protocol": ""}
    >>> for problem in row_schema_problems(row, "a.csv line 2"):
    ...     print(problem)  # doctest: +ELLIPSIS
    a.csv line 2: field 'track' = "proof" (allowed: theorem, solver, ...)
    """
    return [
        Problem(
            where,
            field=name,
            value=row[name],
            detail=did_you_mean(row[name], sorted(rule.allowed))
            if rule.allowed
            else decimal_comma(row[name]),
            allowed=rule.text,
        )
        for name, rule in _applicable_rules(row).items()
        if not rule.accepts(row[name])
    ]


_COMMA_DECIMAL = re.compile(r"\s*([+-]?\d+)\s*,\s*(\d+)\s*")


def decimal_comma(text: str) -> str | None:
    """A hint for a number written with a decimal comma (``0,8``), else ``None``.

    >>> decimal_comma(" 0,85"), decimal_comma("0.85")
    ('looks written with a decimal comma: write 0.85', None)
    """
    found = _COMMA_DECIMAL.fullmatch(text)
    if found is None:
        return None
    return f"looks written with a decimal comma: write {found[1]}.{found[2]}"


class _Refused:
    """The score of a row whose score text its row schema refuses."""

    def __repr__(self) -> str:
        return "<refused score>"


_REFUSED = _Refused()

#: The columns whose refusal keeps a row out of the relations (they say which task it is).
_LABELS = ("model", "track", "item")


@dataclass
class AttemptsInput:
    """An attempts table as its rules see it: by column for the fast tests, by row for the
    explanations (blank rows skipped, widths checked)."""

    source: str
    header: list[str]
    #: ``(line, values)`` of every row, in file order
    lines_values: list[tuple[int, list[str]]]
    suite: Suite
    cohort: Cohort

    @cached_property
    def values(self) -> list[list[str]]:
        """Every row's texts, in file order."""
        return [values for _, values in self.lines_values]

    @cached_property
    def columns(self) -> dict[str, tuple[str, ...]]:
        """Each of the nine attempt columns as a tuple of texts."""
        if not self.lines_values:
            return {name: () for name in ATTEMPT_COLUMNS}
        columns = zip(*(values for _, values in self.lines_values), strict=True)
        return dict(zip(ATTEMPT_COLUMNS, columns, strict=False))

    @cached_property
    def labels(self) -> set[tuple[str, str, str, str]]:
        """Every ``(track, item, score_type, solver_protocol)`` the rows hold, once."""
        columns = self.columns
        names = ("track", "item", "score_type", "solver_protocol")
        return set(zip(*(columns[name] for name in names), strict=True))

    @cached_property
    def scores(self) -> list[Any]:
        """Each row's score: a float, ``None`` (blank, not valid) or a refused text's marker
        (a ``valid`` row needs a decimal, another a decimal or a blank)."""
        return self._parsed_scores[0]

    @cached_property
    def valid_scores(self) -> dict[str, list[float]]:
        """The scores of the ``valid`` rows whose score reads as a number, by track."""
        return self._parsed_scores[1]

    @cached_property
    def _parsed_scores(self) -> tuple[list[Any], dict[str, list[float]]]:
        rules, (column, const, then) = _row_rules()
        loose, strict = rules["score"].pattern.search, then["score"].pattern.search
        scores: list[Any] = []
        append = scores.append
        valid: dict[str, list[float]] = defaultdict(list)
        columns = self.columns
        for text, status, track in zip(
            columns["score"], columns[column], columns["track"], strict=True
        ):
            if status == const:
                if strict(text) is None:
                    append(_REFUSED)
                else:
                    value = float(text)
                    append(value)
                    valid[track].append(value)
            elif loose(text) is None:
                append(_REFUSED)
            else:
                append(float(text) if text.strip() else None)
        return scores, dict(valid)

    @cached_property
    def rows(self) -> list[tuple[int, str, dict[str, str]]]:
        """Every row as ``(line, where, {column: text})``, for the explanations."""
        return [
            (line, f"{self.source} line {line}", dict(zip(self.header, values, strict=True)))
            for line, values in self.lines_values
        ]

    @cached_property
    def labelled(self) -> list[bool]:
        """Which rows have a model, track and item their row schema accepts."""
        rules = _row_rules()[0]
        return [all(rules[n].accepts(row[n]) for n in _LABELS) for _, _, row in self.rows]

    @cached_property
    def output_rows(self) -> list[dict[str, Any]]:
        """Each row as the index output shows it (``attempt``, ``line``, statuses, ``score``,
        further columns)."""
        further = [(name, k) for k, name in enumerate(self.header) if name not in ATTEMPT_COLUMNS]
        return [
            {
                "attempt": values[3],
                "line": line,
                "adoption_status": values[5],
                "score_status": values[6],
                "score": score,
                **{name: values[k] for name, k in further},
            }
            for (line, values), score in zip(self.lines_values, self.scores, strict=True)
        ]

    @cached_property
    def groups(self) -> dict[tuple[str, str, str], list[dict[str, Any]]]:
        """The :attr:`output_rows` of each ``(model, track, item)``, in file order."""
        groups: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
        for (_, values), row in zip(self.lines_values, self.output_rows, strict=True):
            groups[values[0], values[1], values[2]].append(row)
        return dict(groups)


def _line_key(line: int, rank: int) -> Key:
    return (0, line, rank)


# --- the rules, each with its fast test and its explanation ------------------------------


def _schema_holds(table: AttemptsInput) -> bool:
    rules = _row_rules()[0]
    for name, rule in rules.items():
        if name != "score" and not all(map(rule.accepts, set(table.columns[name]))):
            return False
    return _REFUSED not in table.scores


def _schema_explain(table: AttemptsInput):
    for line, where, row in table.rows:
        for problem in row_schema_problems(row, where):
            yield _line_key(line, ATTEMPT_COLUMNS.index(problem.field)), problem


def _out_of_range(track: str, score: float) -> bool:
    """A valid score that is not finite, or outside its (known) track's range."""
    return not math.isfinite(score) or (track in SCORE_RANGES and not score_in_range(track, score))


def _range_holds(table: AttemptsInput) -> bool:
    for track, scores in table.valid_scores.items():
        distinct = set(scores)
        if not all(map(math.isfinite, distinct)):
            return False
        if track in SCORE_RANGES and not all(map(score_in_range, repeat(track), distinct)):
            return False
    return True


def _range_explain(table: AttemptsInput):
    for (line, where, row), score in zip(table.rows, table.scores, strict=True):
        if row["score_status"] != "valid" or score is _REFUSED:
            continue
        track = row["track"]
        if not math.isfinite(score):
            allowed = _applicable_rules(row)["score"].text
        elif _out_of_range(track, score):
            allowed = f"{SCORE_RANGES[track]} for track '{track}'"
        else:
            continue
        problem = Problem(where, field="score", value=row["score"], allowed=allowed)
        yield _line_key(line, ATTEMPT_COLUMNS.index("score")), problem


def _labelled_rows(table: AttemptsInput):
    """The rows whose model, track and item the row schema accepts (the relations' rows)."""
    return (row for row, ok in zip(table.rows, table.labelled, strict=True) if ok)


def _model_holds(table: AttemptsInput) -> bool:
    return set(table.columns["model"]) <= table.cohort.models.keys()


def _model_explain(table: AttemptsInput):
    models = table.cohort.models
    for line, where, row in _labelled_rows(table):
        if row["model"] not in models:
            allowed = "a model of the cohort: " + ", ".join(models)
            hint = did_you_mean(row["model"], list(models))
            yield _line_key(line, 10), Problem(where, field="model", value=row["model"],
                                               detail=hint, allowed=allowed)  # fmt: skip


def _item_holds(table: AttemptsInput) -> bool:
    return all(table.suite.track_of(item) == track for track, item, _, _ in table.labels)


def _item_explain(table: AttemptsInput):
    suite = table.suite
    for line, where, row in _labelled_rows(table):
        track, item = row["track"], row["item"]
        owner = suite.track_of(item)
        if owner is None:
            allowed = f"a task of suite '{suite.name}' track '{track}'"
            hint = did_you_mean(item, suite.tracks.get(track, ()))
            problem = Problem(where, field="item", value=item, detail=hint, allowed=allowed)
        elif owner != track:
            detail = f"item '{item}' belongs to track '{owner}'"
            problem = Problem(where, field="track", value=track, detail=detail,
                              allowed=f"'{owner}'")  # fmt: skip
        else:
            continue
        yield _line_key(line, 11), problem


def _expected(column: str, track: str, cohort: Cohort) -> tuple[tuple[str, ...], str]:
    """The values ``column`` may hold on a row of ``track``, and that in words."""
    solver = track == "solver"
    protocol = cohort.solver_protocol
    if column == "score_type":
        expected = TRACK_OF[track].score_type if track in TRACK_OF else SCORE_TYPE_OTHER
        return (expected,), f"'{expected}' on {track} rows"
    if solver:
        return (protocol,), f"'{protocol}' (the cohort's protocol)"
    return ("", protocol), f"blank (or the cohort's '{protocol}') on {track} rows"


def _track_label_rule(column: str, rank: int, says: str) -> Rule[AttemptsInput, Problem]:
    """The rule of ``column`` (score type or protocol): what rows of each track hold."""

    at = 2 if column == "score_type" else 3  # its place in AttemptsInput.labels

    def holds(table: AttemptsInput) -> bool:
        pairs = {(label[0], label[at]) for label in table.labels}
        return all(value in _expected(column, track, table.cohort)[0] for track, value in pairs)

    def explain(table: AttemptsInput):
        for line, where, row in _labelled_rows(table):
            values, allowed = _expected(column, row["track"], table.cohort)
            if row[column] not in values:
                problem = Problem(where, field=column, value=row[column], allowed=allowed)
                yield _line_key(line, rank), problem

    return Rule(column, says, holds, explain)


def _unique_holds(table: AttemptsInput) -> bool:
    return all(
        len(rows) == 1 or len({row["attempt"] for row in rows}) == len(rows)
        for rows in table.groups.values()
    )


def _unique_explain(table: AttemptsInput):
    seen: dict[tuple[str, str, str, str], int] = {}
    for line, where, row in _labelled_rows(table):
        key = (row["model"], row["track"], row["item"], row["attempt"])
        if key in seen:
            detail = f"duplicate (model, track, item, attempt); first at line {seen[key]}"
            problem = Problem(where, field="attempt", value=row["attempt"], detail=detail)
            yield _line_key(line, 20), problem
        else:
            seen[key] = line


def _planned(table: AttemptsInput, model: str, track: str, item: str) -> int | None:
    """Adopted attempts planned for a task of the cohort (``None``: not one of its tasks)."""
    plan = table.cohort.models.get(model)
    if plan is None or table.suite.track_of(item) != track:
        return None
    return plan.planned(item)


def _adopted_holds(table: AttemptsInput) -> bool:
    models = table.cohort.models
    for (model, track, item), rows in table.groups.items():
        if len(rows) == 1:
            continue  # a task plans at least one attempt
        adopted = sum(row["adoption_status"] in ADOPTED_STATUSES for row in rows)
        plan = models.get(model)
        if (
            adopted > 1
            and plan is not None
            and adopted > plan.planned(item)
            and table.suite.track_of(item) == track
        ):
            return False
    return True


def _adopted_explain(table: AttemptsInput):
    adopted: dict[tuple[str, str, str], list[int]] = defaultdict(list)
    for line, _, row in _labelled_rows(table):
        if row["adoption_status"] in ADOPTED_STATUSES:
            adopted[row["model"], row["track"], row["item"]].append(line)
    for position, ((model, track, item), lines) in enumerate(adopted.items()):
        planned = _planned(table, model, track, item)
        if planned is not None and len(lines) > planned:
            yield (
                (1, position),
                Problem(
                    f"{table.source} lines {', '.join(map(str, lines))}",
                    field="adoption_status",
                    value=f"{len(lines)} adopted attempts of {model}/{track}/{item}",
                    allowed=f"at most {planned} adopted (planned in the cohort); mark the others "
                    "'excluded' with a note",
                ),
            )


#: The rules of an attempts table, in the order their problems are told on a line.
ATTEMPT_RULES: RuleList[AttemptsInput, Problem] = RuleList(
    "attempts table",
    (
        Rule(
            "row schema",
            "every value matches the published row schema (vocabularies, ids, a decimal score "
            "that a valid row must have)",
            _schema_holds,
            _schema_explain,
        ),
        Rule(
            "score range",
            "a valid score is finite and in its track's range",
            _range_holds,
            _range_explain,
        ),
        Rule("model", "the model is a model of the cohort", _model_holds, _model_explain),
        Rule(
            "item", "the item is a task of the suite under that track", _item_holds, _item_explain
        ),  # fmt: skip
        _track_label_rule("score_type", 12, "the score type of the row's track"),
        _track_label_rule("solver_protocol", 13, "the cohort's solver protocol on solver rows"),
        Rule(
            "unique attempt",
            "each (model, track, item, attempt) once",
            _unique_holds,
            _unique_explain,
        ),
        Rule(
            "adopted attempts",
            "no more adopted attempts of a task than the cohort plans",
            _adopted_holds,
            _adopted_explain,
        ),
    ),
)
