"""The attempts table's checks (``scoring/attempts.py``) against the published row schema.

- The schema's vocabulary is the kit's, and the column checks refuse exactly what a JSON
  Schema validator refuses under the published row schema.
- The fast column-wise path accepts only what the row-by-row path accepts, with the same
  rows.
"""

from __future__ import annotations

import jsonschema
from conftest import base_rows, base_suite
from hypothesis import given
from hypothesis import strategies as st

from tcsexam_lib import vocab
from tcsexam_lib.csvio import CsvTable
from tcsexam_lib.references.suites import Suite
from tcsexam_lib.schemas import load_schema
from tcsexam_lib.scoring.attempts import (
    ROW_SCHEMA,
    _accepted,
    _refuse_rows,
    row_schema_problems,
    validate_attempts,
)
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


COHORT = Cohort("lite", "offline", "r", {"test-model-a": ModelPlan(1)})


CELLS = {
    "model": ["test-model-a", "other", ""],
    "track": ["theorem", "solver", "construction", "conjecture", "proof"],
    "score": ["0", "1", "0.25", "", "1.2", "-1", "nan", "1e999"],
    "adoption_status": ["selected", "selected_provisional", "excluded"],
    "score_status": ["valid", "judge_failed", "missing"],
    "score_type": ["original_task_score", "fixed_reference_relative"],
    "solver_protocol": ["", "offline", "online"],
}


@given(
    changes=st.lists(
        st.tuples(st.integers(0, 9), st.sampled_from(sorted(CELLS)), st.integers(0, 7)),
        max_size=3,
    ),
    extra_attempt=st.booleans(),
)
def test_the_column_checks_accept_only_what_the_row_checks_accept(changes, extra_attempt):
    header = list(base_rows()[0])
    rows = [[row[column] for column in header] for row in base_rows()]
    if extra_attempt:
        rows.append([*rows[0][:3], "2", *rows[0][4:]])
    for position, column, choice in changes:
        options = CELLS[column]
        rows[position][header.index(column)] = options[choice % len(options)]
    numbered = [(k + 2, row) for k, row in enumerate(rows)]
    accepted = _accepted(CsvTable("t.csv", header, numbered), numbered, SUITE, COHORT)
    if accepted is None:
        return  # the row-by-row check then names the problems (or finds none)
    _refuse_rows("t.csv", header, numbered, SUITE, COHORT)  # raises if it finds a problem
    table = validate_attempts(CsvTable("t.csv", header, numbered), suite=SUITE, cohort=COHORT)
    assert table.rows == accepted.rows
