"""The rules of the attempts table (``scoring/attempt_rules.py``).

- The schema's vocabulary is the kit's, and the column checks refuse exactly what a JSON
  Schema validator refuses under the published row schema.
- Each rule's two halves agree (hypothesis): where its fast column-wise test holds, its
  row-by-row explanation finds nothing; a table the rules refuse is explained.
"""

from __future__ import annotations

import jsonschema
from conftest import assert_rules_agree, base_rows, base_suite
from hypothesis import given
from hypothesis import strategies as st

from tcsexam_lib import vocab
from tcsexam_lib.csvio import CsvTable
from tcsexam_lib.references.suites import Suite
from tcsexam_lib.schemas import load_schema
from tcsexam_lib.scoring.attempt_rules import (
    ATTEMPT_RULES,
    ROW_SCHEMA,
    AttemptsInput,
    row_schema_problems,
)
from tcsexam_lib.scoring.attempts import validate_attempts
from tcsexam_lib.scoring.cohort import Cohort, ModelPlan


def test_the_row_schema_holds_the_kits_vocabulary():
    properties = load_schema(ROW_SCHEMA)["properties"]
    assert tuple(properties["track"]["enum"]) == vocab.TRACKS
    assert tuple(properties["adoption_status"]["enum"]) == vocab.ADOPTION_STATUSES
    assert tuple(properties["score_status"]["enum"]) == vocab.SCORE_STATUSES
    assert tuple(properties["score_type"]["enum"]) == (
        vocab.SCORE_TYPE_SOLVER,
        vocab.SCORE_TYPE_OTHER,
    )
    assert tuple(properties["solver_protocol"]["enum"]) == ("", *vocab.SOLVER_PROTOCOLS)
    assert tuple(load_schema(ROW_SCHEMA)["required"]) == vocab.ATTEMPT_COLUMNS


def _cell(column: str) -> st.SearchStrategy[str]:
    words = {
        "track": [*vocab.TRACKS, "proof", ""],
        "adoption_status": [*vocab.ADOPTION_STATUSES, "chosen"],
        "score_status": [*vocab.SCORE_STATUSES, "ok"],
        "score_type": [vocab.SCORE_TYPE_SOLVER, vocab.SCORE_TYPE_OTHER, "raw"],
        "solver_protocol": ["", *vocab.SOLVER_PROTOCOLS, "hybrid"],
        "score": ["", " ", "0.25", "1", "-1e3", "1e999", ".5", "nan", "inf", "1_000", "n/a"],
    }
    if column in words:
        return st.sampled_from(words[column])
    return st.sampled_from(["m", "", " ", "a b", "\t"])


@given(st.fixed_dictionaries({column: _cell(column) for column in vocab.ATTEMPT_COLUMNS}))
def test_column_checks_refuse_exactly_what_the_schema_refuses(row):
    validator = jsonschema.Draft202012Validator(load_schema(ROW_SCHEMA))
    refused_by_schema = {
        str(error.absolute_path[0]) for error in validator.iter_errors(row) if error.absolute_path
    }
    assert {p.field for p in row_schema_problems(row, "t.csv line 2")} == refused_by_schema


SUITE = Suite("lite", {track: tuple(items) for track, items in base_suite()["tracks"].items()})


COHORT = Cohort(
    "lite",
    "offline",
    "r",
    {"test-model-a": ModelPlan(1), "test-model-b": ModelPlan({"default": 2, "test-thm-1": 1})},
)


CELLS = {
    "model": ["test-model-a", "test-model-b", "other", "", " ", "=cmd"],
    "track": ["theorem", "solver", "construction", "conjecture", "proof"],
    "item": ["test-thm-1", "test-con-1", "maxcut-mqlib", "no-such-task", ""],
    "attempt": ["1", "2", "", "-1"],
    "score": ["0", "1", "0.25", "", " 0.5 ", "1.2", "-1", "-0", "nan", "1e999", "1_000", "x"],
    "adoption_status": ["selected", "selected_provisional", "excluded", "chosen"],
    "score_status": ["valid", "judge_failed", "missing", "ok"],
    "score_type": ["original_task_score", "fixed_reference_relative", "raw"],
    "solver_protocol": ["", "offline", "online", "hybrid"],
}


@given(
    changes=st.lists(
        st.tuples(st.integers(0, 11), st.sampled_from(sorted(CELLS)), st.integers(0, 11)),
        max_size=4,
    ),
    repeats=st.lists(st.integers(0, 9), max_size=3),
)
def test_each_rule_explains_exactly_what_its_fast_test_refuses(changes, repeats):
    header = list(base_rows()[0])
    rows = [[row[column] for column in header] for row in base_rows()]
    for k, position in enumerate(repeats):  # a second attempt (or the same id again)
        rows.append([*rows[position][:3], str(2 + k % 2), *rows[position][4:]])
    for position, column, choice in changes:
        options = CELLS[column]
        rows[position % len(rows)][header.index(column)] = options[choice % len(options)]
    lines = list(range(2, len(rows) + 2))
    data = AttemptsInput("t.csv", header, list(zip(lines, rows, strict=True)), SUITE, COHORT)
    assert_rules_agree(ATTEMPT_RULES, data)
    table = CsvTable("t.csv", header, list(zip(lines, rows, strict=True)))
    if ATTEMPT_RULES.hold(data):  # accepted: every row kept, in file order
        assert [
            r["line"] for r in validate_attempts(table, suite=SUITE, cohort=COHORT).rows
        ] == lines
