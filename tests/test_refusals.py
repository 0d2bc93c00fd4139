"""Every refusal of SPEC 2-5 as one registry of cases with shared checks.

Each case mutates a valid test workspace (records, reference, suite, cohort or the
attempts table) and gives a regular expression that the message must match: it names
the file and the offending instance, line, field and value. The shared checks: the
library raises :class:`InputRefused`; the command exits 2 with that message; no
output file appears; an existing output file is left byte-identical.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from conftest import (
    MODEL,
    SOLVE_TASK,
    SOLVER_TASK,
    TEST_REF_ID,
    Workspace,
    attempt_row,
    base_rows,
    read_output,
    row_line,
    worked_records,
)

from tcsexam_lib import InputRefused, run_score, run_solver_score
from tcsexam_lib.vocab import ATTEMPT_COLUMNS, FIXED_REFERENCE_ID, INFRASTRUCTURE_STATUSES

PREVIOUS_OUTPUT = b'{"previous": "output", "kept": true}\n'


@dataclass(frozen=True)
class Refusal:
    id: str
    command: str  # "solver-score" or "score"
    mutate: Callable[[Workspace], None]
    match: str
    #: further options of the call, by keyword (``None``: the option left out)
    options: Callable[[Workspace], dict] = lambda ws: {}


# --- mutations -------------------------------------------------------------------------


def records(new):
    def mutate(ws):
        ws.records = new

    return mutate


def record(position, replace=None, **fields):
    """Change record ``position`` (0-based): replace it, or update some fields."""

    def mutate(ws):
        if replace is not None:
            ws.records[position] = replace
        ws.records[position].update(fields)

    return mutate


def add_record(new):
    return lambda ws: ws.records.append(new)


def records_text(text):
    def mutate(ws):
        ws.records_text = text

    return mutate


def solver_task(task, new_records):
    def mutate(ws):
        ws.task = task
        ws.records = new_records

    return mutate


def reference(change):
    return lambda ws: change(ws.reference)


def instance_values(task, instance, values):
    def change(ref):
        ref["tasks"][task]["instances"][instance] = values

    return reference(change)


def unscored_entry(task, instance, reason="test reason"):
    def change(ref):
        ref["unscored_reference_instances"].append(
            {"task": task, "instance": instance, "reason": reason}
        )

    return reference(change)


def solver_reference(arg, reference_id=None):
    def mutate(ws):
        ws.solver_reference = arg
        ws.solver_reference_id = reference_id

    return mutate


def reference_nan(ws):
    ws.reference["tasks"][SOLVER_TASK]["instances"]["example-1"] = [10, float("nan"), 14]


def reference_overflow(ws):
    """1e999 parses to inf: it must be refused, not dropped as an unusable value."""
    ws.reference["tasks"][SOLVER_TASK]["instances"]["example-2"] = [5, 7, "@overflow@"]
    ws.raw_numbers["@overflow@"] = "1e999"


def row(item, /, **fields):
    """Change the base row of ``item`` (attempt 1)."""

    def mutate(ws):
        target = next(r for r in ws.rows if r["item"] == item and r["attempt"] == "1")
        target.update(fields)

    return mutate


def add_row(item, score, **kwargs):
    return lambda ws: ws.rows.append(attempt_row(item, score, **kwargs))


def header(columns):
    def mutate(ws):
        ws.header = columns

    return mutate


def attempts_text(text):
    def mutate(ws):
        ws.attempts_text = text

    return mutate


def cohort(**fields):
    return lambda ws: ws.cohort.update(fields)


def plan(value):
    def mutate(ws):
        ws.cohort["models"][MODEL]["attempts_per_task"] = value

    return mutate


def suite_arg(name):
    def mutate(ws):
        ws.suite_arg = name

    return mutate


def suite_solver_tasks(tasks):
    def mutate(ws):
        ws.suite["tracks"]["solver"] = tasks

    return mutate


def records_folder(ws):
    """A records folder ``records/<model>/<task>/1.json`` holding the worked records."""
    folder = ws.root / "records" / MODEL / SOLVER_TASK
    folder.mkdir(parents=True)
    (folder / "1.json").write_text(json.dumps(worked_records()), encoding="utf-8")


def with_records(*mutations):
    """``mutations`` and a records folder (``--solver-records``)."""

    def mutate(ws):
        records_folder(ws)
        for change in mutations:
            change(ws)

    return mutate


def solver_records(folder="records"):
    return lambda ws: {"solver_records": ws.root / folder}


def no_rows(ws):
    ws.rows = []


# --- message patterns -----------------------------------------------------------------


def field_msg(where: str, field: str, value) -> str:
    """Regex for the kit's message template: ``<where>: field '<f>' = <value>``."""
    return re.escape(f"{where}: field '{field}' = {json.dumps(value)}")


def rec(position: int, instance: str) -> str:
    return f"records.json record #{position} (instance '{instance}')"


LINES = {r["item"]: row_line(base_rows(), r["item"]) for r in base_rows()}
NEXT_LINE = len(base_rows()) + 2


def line(item: str) -> str:
    return f"attempts.csv line {LINES[item]}"


THM, THM2, SOLVER, SOLVE = "test-thm-1", "test-thm-2", SOLVER_TASK, SOLVE_TASK
CON, CONJ = "test-con-1", "test-conj-1"
WORKED_RECORD_1 = {"instance": "example-1", "status": "ok", "A": 12}
TIMEOUT_RECORD_2 = '{"instance": "example-2", "status": "timeout"}'
RELEASE_HINT = r"Put the release's lite\.json at \S*/refs/" + re.escape(
    f"{FIXED_REFERENCE_ID}/lite.json"
)
HEADER_COLUMNS = [*ATTEMPT_COLUMNS, "note"]
SWAPPED = ["model", "item", "track", *ATTEMPT_COLUMNS[3:], "note"]
PADDED = ["model", " track", *ATTEMPT_COLUMNS[2:], "note"]

SPEC2_RECORDS = [
    Refusal(
        "missing-record-for-scored-instance",
        "solver-score",
        records([WORKED_RECORD_1]),
        r"records\.json: .*no record for 1 scored instance\(s\) of task 'maxcut-mqlib': "
        r"'example-2'",
    ),
    Refusal(
        "duplicate-instance",
        "solver-score",
        add_record({"instance": "example-1", "status": "ok", "A": 11}),
        field_msg(rec(3, "example-1"), "instance", "example-1")
        + r": duplicate instance name \(also record #1\)",
    ),
    *[
        Refusal(
            f"infrastructure-status-{status}",
            "solver-score",
            record(1, status=status),
            field_msg(rec(2, "example-2"), "status", status)
            + ": an infrastructure status is an incomplete observation",
        )
        for status in sorted(INFRASTRUCTURE_STATUSES)
    ],
    Refusal(
        "unknown-status",
        "solver-score",
        record(1, status="finished"),
        field_msg(rec(2, "example-2"), "status", "finished") + r" \(allowed: .*timeout",
    ),
    Refusal(
        "status-missing",
        "solver-score",
        record(1, replace={"instance": "example-2"}),
        re.escape(rec(2, "example-2")) + r": field 'status' = \(absent\): required field",
    ),
    Refusal(
        "ok-without-A",
        "solver-score",
        record(0, replace={"instance": "example-1", "status": "ok"}),
        re.escape(rec(1, "example-1")) + r": field 'A' = \(absent\) \(allowed: a finite number",
    ),
    Refusal(
        "ok-with-A-null",
        "solver-score",
        record(0, A=None),
        field_msg(rec(1, "example-1"), "A", None) + r" \(allowed: a finite number",
    ),
    Refusal(
        "non-numeric-A",
        "solver-score",
        record(0, A="12"),
        field_msg(rec(1, "example-1"), "A", "12") + r" \(allowed: a finite JSON number",
    ),
    Refusal(
        "boolean-A-on-objective-task",
        "solver-score",
        record(0, A=True),
        field_msg(rec(1, "example-1"), "A", True) + r" \(allowed: .*not a boolean",
    ),
    *[
        Refusal(
            f"{name}-in-records-json",
            "solver-score",
            records_text(
                f'[{{"instance": "example-1", "status": "ok", "A": {literal}}}, {TIMEOUT_RECORD_2}]'
            ),
            re.escape(f"{rec(1, 'example-1')}: field 'A' = ")
            + shown
            + re.escape(" (allowed: a finite JSON number or null"),
        )
        for name, literal, shown in (
            ("NaN", "NaN", "NaN"),
            ("Infinity", "Infinity", "Infinity"),
            ("minus-Infinity", "-Infinity", "-Infinity"),
            ("overflow", "1e999", "1e999"),
            ("huge-integer", "1" + "0" * 400, r"10+\.\.\."),
        )
    ],
    Refusal(
        "solved-on-objective-task",
        "solver-score",
        record(0, solved=False),
        field_msg(rec(1, "example-1"), "solved", False)
        + r" \(allowed: no 'solved' field on an objective task",
    ),
    Refusal(
        "solved-on-objective-task-with-failure-status",
        "solver-score",
        record(1, solved=False),
        field_msg(rec(2, "example-2"), "solved", False)
        + r" \(allowed: no 'solved' field on an objective task",
    ),
    Refusal(
        "solve-task-A-and-solved-disagree",
        "solver-score",
        solver_task(
            SOLVE,
            [
                {"instance": "sat-1", "status": "ok", "A": 1},
                {"instance": "sat-2", "status": "ok", "A": 0, "solved": True},
            ],
        ),
        field_msg(rec(2, "sat-2"), "solved", True) + ": disagrees with A = 0",
    ),
    Refusal(
        "solve-task-A-not-0-or-1",
        "solver-score",
        solver_task(
            SOLVE,
            [
                {"instance": "sat-1", "status": "ok", "A": 2},
                {"instance": "sat-2", "status": "ok", "A": 0},
            ],
        ),
        field_msg(rec(1, "sat-1"), "A", 2) + r" \(allowed: 1 \(solved\) or 0",
    ),
    Refusal(
        "task-not-in-reference",
        "solver-score",
        solver_task("test-no-such-task", []),
        field_msg(f"reference '{TEST_REF_ID}' (lite)", "task", "test-no-such-task")
        + r" \(allowed: maxcut-mqlib, test-sat-solve\)",
    ),
    Refusal(
        "records-not-a-list",
        "solver-score",
        records(WORKED_RECORD_1),
        r"records\.json \(top level\): field '\(top level\)' = "
        + re.escape('{"instance": "example-1", "status": "ok", "A": 12} (allowed: '),
    ),
    Refusal(
        "duplicate-key-in-records-json",
        "solver-score",
        records_text(
            f'[{{"instance": "example-1", "status": "ok", "A": 1, "A": 12}}, {TIMEOUT_RECORD_2}]'
        ),
        r"records\.json: key 'A' appears twice in one object",
    ),
]

REFERENCE = [
    Refusal(
        "reference-instance-with-one-usable-value-not-listed",
        "solver-score",
        instance_values(SOLVER, "g-short", [3, None]),
        re.escape("task 'maxcut-mqlib' instance 'g-short': field 'values' = [3, null]")
        + ": fewer than two usable values but not listed in unscored_reference_instances",
    ),
    Refusal(
        "reference-instance-listed-as-unscored-but-scorable",
        "solver-score",
        unscored_entry(SOLVER, "example-1"),
        re.escape("task 'maxcut-mqlib' instance 'example-1': field 'values' = [10, 12, 14]")
        + r": listed as unscored \('test reason'\) but has 3 usable values",
    ),
    Refusal(
        "reference-unscored-entry-for-unknown-task",
        "solver-score",
        unscored_entry("test-no-such-task", "g1"),
        field_msg("unscored_reference_instances[0]", "task", "test-no-such-task"),
    ),
    Refusal(
        "reference-floor-missing",
        "solver-score",
        reference(lambda ref: ref.pop("scale_floor_absolute")),
        r"field 'scale_floor_absolute' = \(absent\): required field is missing",
    ),
    Refusal(
        "reference-unknown-kind",
        "solver-score",
        reference(lambda ref: ref["tasks"][SOLVER].update(kind="ratio")),
        field_msg("task 'maxcut-mqlib'", "kind", "ratio") + r' \(allowed: "objective", "solve"\)',
    ),
    Refusal(
        "reference-solve-task-minimize",
        "solver-score",
        reference(lambda ref: ref["tasks"][SOLVE].update(direction="minimize")),
        field_msg("task 'test-sat-solve'", "direction", "minimize") + r' \(allowed: "maximize"\)',
    ),
    Refusal(
        "reference-solve-value-not-0-or-1",
        "solver-score",
        instance_values(SOLVE, "sat-1", [1, 2]),
        field_msg("task 'test-sat-solve' instance 'sat-1'", "values", [1, 2])
        + r" \(allowed: 1 \(solved\), 0 \(not solved\) or null\)",
    ),
    Refusal(
        "reference-NaN-value",
        "solver-score",
        reference_nan,
        re.escape(
            f"{TEST_REF_ID}/lite.json task 'maxcut-mqlib' instance 'example-1' value #1: "
            "field 'value' = NaN (allowed: a finite JSON number or null"
        ),
    ),
    Refusal(
        "reference-value-overflowing-to-infinity",
        "solver-score",
        reference_overflow,
        re.escape(
            f"{TEST_REF_ID}/lite.json task 'maxcut-mqlib' instance 'example-2' value #2: "
            "field 'value' = 1e999 (allowed: a finite JSON number or null"
        ),
    ),
    Refusal(
        "reference-id-not-the-one-asked-for",
        "solver-score",
        solver_reference(None, "test-other-id"),
        field_msg("lite.json", "reference_id", TEST_REF_ID)
        + r" \(allowed: 'test-other-id' \(the id that was asked for\)\)",
    ),
    Refusal(
        "reference-suite-name-without-id-names-the-folders-reference",
        "solver-score",
        solver_reference("lite"),
        re.escape(
            f"no --reference-id was given, so the fixed reference '{FIXED_REFERENCE_ID}' was "
            "looked for; "
        )
        + r"\S*/refs"
        + re.escape(f" holds suite 'lite' of reference(s) {TEST_REF_ID}: add --reference-id ")
        + TEST_REF_ID,
    ),
    Refusal(
        "reference-unknown-id-for-suite-name",
        "solver-score",
        solver_reference("lite", "test-missing-id"),
        re.escape("no file for reference 'test-missing-id' and suite 'lite'; expected ")
        + r"\S*/refs/test-missing-id/lite\.json",
    ),
]

SPEC4_ATTEMPTS = [
    Refusal(
        "duplicate-model-track-item-attempt",
        "score",
        add_row(THM, 0, adoption_status="excluded", note="rerun"),
        field_msg(f"attempts.csv line {NEXT_LINE}", "attempt", "1")
        + rf": duplicate \(model, track, item, attempt\); first at line {LINES[THM]}",
    ),
    Refusal(
        "more-adopted-than-planned",
        "score",
        add_row(THM, 0, attempt="2"),
        field_msg(
            f"attempts.csv lines {LINES[THM]}, {NEXT_LINE}",
            "adoption_status",
            f"2 adopted attempts of {MODEL}/theorem/{THM}",
        )
        + r" \(allowed: at most 1 adopted",
    ),
    Refusal(
        "more-adopted-than-planned-provisional",
        "score",
        add_row(SOLVER, 0.5, attempt="2", adoption_status="selected_provisional"),
        field_msg(
            f"attempts.csv lines {LINES[SOLVER]}, {NEXT_LINE}",
            "adoption_status",
            f"2 adopted attempts of {MODEL}/solver/{SOLVER}",
        ),
    ),
    Refusal(
        "unknown-model",
        "score",
        row(THM2, model="other-lab-model"),
        field_msg(line(THM2), "model", "other-lab-model")
        + re.escape(f" (allowed: a model of the cohort: {MODEL})"),
    ),
    Refusal(
        "model-typo",
        "score",
        row(THM2, model="test-modle-a"),
        field_msg(line(THM2), "model", "test-modle-a")
        + re.escape(f": did you mean '{MODEL}'? (allowed: a model of the cohort: {MODEL})"),
    ),
    Refusal(
        "item-typo",
        "score",
        row(THM2, item="test-thm-22"),
        field_msg(line(THM2), "item", "test-thm-22")
        + re.escape(": did you mean 'test-thm-2'? (allowed: a task of suite 'lite' track"),
    ),
    Refusal(
        "track-typo",
        "score",
        row(THM2, track="theorm"),
        field_msg(line(THM2), "track", "theorm")
        + re.escape(": did you mean 'theorem'? (allowed: theorem, solver,"),
    ),
    Refusal(
        "unknown-item",
        "score",
        row(CON, item="no-such-task"),
        field_msg(line(CON), "item", "no-such-task")
        + re.escape(" (allowed: a task of suite 'lite' track 'construction')"),
    ),
    Refusal(
        "track-item-mismatch",
        "score",
        row(THM, track="conjecture"),
        field_msg(line(THM), "track", "conjecture")
        + ": item 'test-thm-1' belongs to track 'theorem'",
    ),
    *[
        Refusal(
            f"vocabulary-{field}-{value or 'blank'}",
            "score",
            row(item, **{field: value}),
            field_msg(line(item), field, value) + re.escape(f" (allowed: {allowed}"),
        )
        for item, field, value, allowed in (
            (THM, "track", "proof", "theorem, solver, construction, conjecture"),
            (THM2, "adoption_status", "chosen", "selected, selected_provisional, excluded"),
            (CON, "score_status", "ok", "valid, judge_failed, not_finished, missing"),
            (CONJ, "score_type", "raw", "fixed_reference_relative, original_task_score"),
            (SOLVER, "solver_protocol", "hybrid", "(blank), online, offline"),
            (THM, "model", "", "a non-empty id"),
            (THM, "attempt", " ", "a non-empty id"),
        )
    ],
    *[
        Refusal(
            f"valid-score-{name}",
            "score",
            row(item, score=text),
            field_msg(line(item), "score", text)
            + re.escape(" (allowed: a finite number when score_status is 'valid')"),
        )
        for name, item, text in (
            ("missing", THM2, ""),
            ("nan", CON, "nan"),
            ("inf", SOLVER, "inf"),
            ("minus-inf", CON, "-inf"),
            ("overflow", CON, "1e999"),
            ("not-a-number", CONJ, "high"),
        )
    ],
    *[
        Refusal(
            f"score-out-of-range-{item}-{text}",
            "score",
            row(item, score=text),
            field_msg(line(item), "score", text) + re.escape(f" (allowed: {allowed}"),
        )
        for item, text, allowed in (
            (THM, "0.5", "exactly 0 or 1"),
            (CONJ, "2", "exactly 0 or 1"),
            (SOLVER, "1.2", "a relative score in [0, 1]"),
            (SOLVE, "-0.01", "a relative score in [0, 1]"),
            (CON, "-1", "a finite raw reward >= 0"),
        )
    ],
    Refusal(
        "unparsable-score-on-a-not-valid-row",
        "score",
        row(THM, score="n/a", score_status="judge_failed"),
        field_msg(line(THM), "score", "n/a") + r" \(allowed: blank or a number",
    ),
    Refusal(
        "solver-row-other-protocol",
        "score",
        row(SOLVER, solver_protocol="online"),
        field_msg(line(SOLVER), "solver_protocol", "online")
        + re.escape(" (allowed: 'offline' (the cohort's protocol))"),
    ),
    Refusal(
        "solver-row-blank-protocol",
        "score",
        row(SOLVE, solver_protocol=""),
        field_msg(line(SOLVE), "solver_protocol", "")
        + re.escape(" (allowed: 'offline' (the cohort's protocol))"),
    ),
    Refusal(
        "solver-row-other-score-type",
        "score",
        row(SOLVE, score_type="original_task_score"),
        field_msg(line(SOLVE), "score_type", "original_task_score")
        + re.escape(" (allowed: 'fixed_reference_relative' on solver rows)"),
    ),
    Refusal(
        "theorem-row-solver-score-type",
        "score",
        row(THM2, score_type="fixed_reference_relative"),
        field_msg(line(THM2), "score_type", "fixed_reference_relative")
        + re.escape(" (allowed: 'original_task_score' on theorem rows)"),
    ),
    Refusal(
        "theorem-row-other-protocol",
        "score",
        row(THM2, solver_protocol="online"),
        field_msg(line(THM2), "solver_protocol", "online"),
    ),
    *[
        Refusal(
            f"header-{name}",
            "score",
            header(columns),
            r"attempts\.csv line 1: field 'header' = \"model,.*: "
            + re.escape(f"column {position} is {got}, expected '{expected}' (allowed: ")
            + re.escape(",".join(ATTEMPT_COLUMNS) + " (in this order"),
        )
        for name, columns, position, got, expected in (
            ("columns-swapped", SWAPPED, 2, "'item'", "track"),
            (
                "column-missing",
                [c for c in HEADER_COLUMNS if c != "score_type"],
                8,
                "'solver_protocol'",
                "score_type",
            ),
            ("column-name-padded", PADDED, 2, "' track'", "track"),
        )
    ],
    Refusal(
        "header-column-twice",
        "score",
        header([*HEADER_COLUMNS, "note"]),
        field_msg("attempts.csv line 1", "header", "note") + ": column named twice",
    ),
    Refusal(
        "header-reserved-line-column",
        "score",
        header([*HEADER_COLUMNS, "line"]),
        field_msg("attempts.csv line 1", "header", "line")
        + ": this column name is reserved for the CSV line number",
    ),
    Refusal(
        "row-with-wrong-field-count",
        "score",
        attempts_text(
            ",".join(HEADER_COLUMNS)
            + "\n"
            + f"{MODEL},theorem,{THM},1,1,selected,valid,original_task_score,,,extra\n"
        ),
        r"attempts\.csv line 2: 11 fields, header has 10",
    ),
    Refusal(
        "row-with-a-decimal-comma",
        "score",
        attempts_text(
            ",".join(HEADER_COLUMNS)
            + "\n"
            + f"{MODEL},construction,{CON},1,0,85,selected,valid,original_task_score,,\n"
        ),
        r"attempts\.csv line 2: 11 fields, header has 10; the score '0,85' looks written with "
        r"a decimal comma: write 0\.85",
    ),
    Refusal(
        "header-separated-by-semicolons",
        "score",
        attempts_text(";".join(HEADER_COLUMNS) + "\n"),
        r"attempts\.csv line 1: field 'header' = \"model;track;.*: column 1 is 'model;track;.*', "
        r"expected 'model'; the columns are separated by semicolons \(';'\)",
    ),
    Refusal(
        "empty-attempts-file",
        "score",
        attempts_text(""),
        r"attempts\.csv line 1: no header",
    ),
]

COHORT_SUITE = [
    Refusal(
        "cohort-suite-differs-from-option",
        "score",
        cohort(suite="full"),
        field_msg("cohort.json", "suite", "full")
        + re.escape(" (allowed: 'lite' (the suite given with --suite))"),
    ),
    Refusal(
        "cohort-unknown-reference-id",
        "score",
        cohort(solver_reference_id="test-ref-unknown"),
        field_msg("cohort.json", "solver_reference_id", "test-ref-unknown")
        + re.escape(f" (allowed: {TEST_REF_ID})"),
    ),
    Refusal(
        "cohort-fixed-reference-without-release-file",
        "score",
        cohort(solver_reference_id=FIXED_REFERENCE_ID),
        RELEASE_HINT,
    ),
    Refusal(
        "cohort-unknown-protocol",
        "score",
        cohort(solver_protocol="hybrid"),
        field_msg("cohort.json solver_protocol", "solver_protocol", "hybrid")
        + r' \(allowed: "online", "offline"\)',
    ),
    Refusal(
        "cohort-attempts-per-task-0",
        "score",
        plan(0),
        field_msg(f"cohort.json models.{MODEL}.attempts_per_task", "attempts_per_task", 0)
        + r" \(allowed: a whole number of attempts from 1 to 100",
    ),
    Refusal(
        "cohort-attempts-per-task-0-for-one-task",
        "score",
        plan({"default": 1, THM2: 0}),
        re.escape(f"cohort.json models.{MODEL}.attempts_per_task: field 'attempts_per_task' = "),
    ),
    Refusal(
        "cohort-missing-plan-for-a-task",
        "score",
        plan({THM: 1}),
        re.escape(f"cohort.json model '{MODEL}': field 'attempts_per_task' = ")
        + r".*: no planned count for 'maxcut-mqlib', 'test-con-1'",
    ),
    Refusal(
        "cohort-plan-names-unknown-task",
        "score",
        plan({"default": 1, "test-nope": 2}),
        field_msg(f"cohort.json model '{MODEL}'", "attempts_per_task", "test-nope")
        + re.escape(" (allowed: a task of suite 'lite' or 'default')"),
    ),
    Refusal(
        "suite-not-found",
        "score",
        suite_arg("full"),
        re.escape("suites/full.json: field 'suite' = \"full\": no suites/full.json in the ")
        + r"references folder \S*/refs \(allowed: lite;",
    ),
    Refusal(
        "suite-and-reference-solver-tasks-differ",
        "score",
        suite_solver_tasks([SOLVER, SOLVE, "test-extra-solver"]),
        r"field 'solver tasks'.*in the suite only: test-extra-solver",
    ),
]

MANY = {f"g{k}": [10, 12, 14] for k in range(30)}

#: Messages that send the user the right way (issue 39, item 6).
RIGHT_WAY = [
    Refusal(
        "records-of-another-task-name-ten-and-the-likely-cause",
        "solver-score",
        lambda ws: (
            ws.reference["tasks"][SOLVER]["instances"].update(MANY),
            setattr(ws, "records", [{"instance": "sat-1", "status": "ok", "A": 1}]),
        ),
        r"no record for 32 scored instance\(s\) of task 'maxcut-mqlib': 'example-1', "
        r"'example-2', 'g0', ('g\d', ){6}'g7' and 22 more; none of the file's 1 instance "
        r"names is one of the task's: are these the records of another task",
    ),
    Refusal(
        "empty-records-file",
        "solver-score",
        records_text(""),
        r"Input file is empty\n  - \S*records\.json: empty file \(allowed: a JSON document\)",
    ),
    Refusal(
        "quoted-decimal-comma",
        "score",
        row(CON, score="0,8"),
        field_msg(line(CON), "score", "0,8") + ": looks written with a decimal comma: write 0.8",
    ),
    Refusal(
        "blank-solver-score-without-records-says-what-fills-it",
        "score",
        row(SOLVER, score=""),
        field_msg(line(SOLVER), "score", "")
        + r".*\n  to do: a blank solver score is filled from its records only by `tcsexam score "
        r"--solver-records DIR` or `tcsexam report`: .*index\.attempts\.csv.*solver_evidence",
    ),
    Refusal(
        "custom-suite-without-references-dir",
        "score",
        suite_arg("my-lite"),
        r"no suites/my-lite\.json in the references folder \S+/references; a suite of your own "
        r"is read from yours: --references-dir DIR \(a run set.s references_dir, or "
        r"TCSEXAM_REFERENCES=DIR\) with "
        r"DIR/suites/my-lite\.json; or did you mean 'demo-lite'\?",
        options=lambda ws: {"references_dir": None},
    ),
    Refusal(
        "records-folder-misspelt",
        "score",
        with_records(),
        r"Records folder not found\n  - \S*/recrods: no such folder: did you mean 'records'\? "
        r"\(allowed: a folder laid out as <model>/<task>/<attempt>\.json\)",
        options=solver_records("recrods"),
    ),
    Refusal(
        "header-only-table-with-records-one-message",
        "score",
        with_records(no_rows),
        r"refused \(1 problem\)\n  - \S*attempts\.csv: the table has no solver row, and "
        r"\S*records holds 1 records file\(s\) \(e\.g\. \S*/1\.json\)",
        options=solver_records(),
    ),
    Refusal(
        "error-in-own-table-with-records-names-the-file",
        "score",
        with_records(row(THM2, model="test-modle-a")),
        r"\n  - \S*" + field_msg(line(THM2), "model", "test-modle-a"),
        options=solver_records(),
    ),
]

REFUSALS = SPEC2_RECORDS + REFERENCE + SPEC4_ATTEMPTS + COHORT_SUITE + RIGHT_WAY


def test_registry_ids_are_unique():
    ids = [case.id for case in REFUSALS]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("command", ["solver-score", "score"])
def test_unmutated_workspace_is_accepted(ws, run_cli, tmp_path, command):
    """The registry's base inputs score cleanly, so each refusal comes from its mutation."""
    ws.write()
    out = tmp_path / "out" / "result.json"
    args = ws.solver_args(out) if command == "solver-score" else ws.score_args(out)
    done = run_cli(args)
    assert done.code == 0, done.err
    assert read_output(out)


@pytest.mark.parametrize("case", REFUSALS, ids=lambda case: case.id)
def test_refused(case, ws, run_cli, tmp_path):
    case.mutate(ws)
    ws.write()
    out_dir = tmp_path / "out"
    out = out_dir / "result.json"
    if case.command == "solver-score":
        run, kwargs, args = run_solver_score, ws.solver_kwargs(out), ws.solver_args(out)
    else:
        run, kwargs, args = run_score, ws.score_kwargs(out), ws.score_args(out)
    for name, value in case.options(ws).items():
        flag = "--" + name.replace("_", "-")
        if flag in args:
            del args[args.index(flag) : args.index(flag) + 2]
        kwargs[name] = value
        args += [] if value is None else [flag, str(value)]

    with pytest.raises(InputRefused, match=case.match):
        run(**kwargs)
    assert not out_dir.exists()

    done = run_cli(args)
    assert done.code == 2, done.err
    assert re.search(case.match, done.err), done.err
    assert "Nothing was written." in done.err
    assert done.out == ""
    assert not out_dir.exists()

    out_dir.mkdir()
    out.write_bytes(PREVIOUS_OUTPUT)
    done = run_cli(args)
    assert done.code == 2, done.err
    assert out.read_bytes() == PREVIOUS_OUTPUT
    assert sorted(out_dir.iterdir()) == [out]


def test_a_surrogate_pair_and_an_escaped_backslash_are_accepted(tmp_path):
    from tcsexam_lib.jsonio import read_json

    path = tmp_path / "ok.json"
    path.write_text('{"emoji": "\\ud83d\\ude00", "text": "x\\\\ud800"}', encoding="utf-8")
    assert read_json(path) == {"emoji": "\U0001f600", "text": "x\\ud800"}


def test_a_report_notebook_run_directly_ends_with_what_fills_blank_solver_scores(ws, tmp_path):
    """papermill run directly on a table whose solver scores are blank: papermill's own
    traceback ends with the kit's refusal, and that ends with what to give instead."""
    import papermill

    from tcsexam_lib.paths import KIT_ROOT

    row(SOLVER, score="")(ws)
    ws.write()
    paths = {"cohort": ws.cohort_path, "attempts": ws.attempts_path, "references_dir": ws.refs_dir}
    parameters = {"model": MODEL, "suite": "lite", **{k: str(v) for k, v in paths.items()}}
    with pytest.raises(papermill.PapermillExecutionError) as caught:
        papermill.execute_notebook(
            str(KIT_ROOT / "notebooks" / "index.ipynb"),
            str(tmp_path / "index.ipynb"),
            parameters=parameters,
            progress_bar=False,
        )
    last = str(caught.value).rstrip().splitlines()[-1]
    assert last.startswith("  to do: a blank solver score is filled from its records only"), last
    assert "index.attempts.csv" in last and "solver_evidence" in last, last
