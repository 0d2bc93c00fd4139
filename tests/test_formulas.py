"""The formulas module and the attempts row schema, against independent implementations.

- Reference means and sample standard deviations are exact and rounded once: bit for bit
  what :mod:`statistics` gives (which computes with fractions).
- The attempts table's column checks refuse exactly what a JSON Schema validator refuses
  under the published row schema, and the schema's vocabulary is the kit's.
"""

from __future__ import annotations

import statistics

import jsonschema
from hypothesis import given
from hypothesis import strategies as st

from tcsexam_lib import vocab
from tcsexam_lib.jsonio import load_schema
from tcsexam_lib.scoring.attempts import ROW_SCHEMA, row_schema_problems
from tcsexam_lib.scoring.formulas import exact_mean, exact_sample_std

FLOATS = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300)
VALUE_LISTS = st.one_of(
    st.lists(FLOATS, min_size=2, max_size=7),
    st.builds(lambda x, n: [x] * n, FLOATS, st.integers(2, 5)),  # identical values
    st.lists(st.sampled_from([0.0, 1.0]), min_size=2, max_size=6),  # solve tasks
    st.lists(st.decimals(-1e6, 1e6, places=3).map(float), min_size=2, max_size=5),
)


@given(VALUE_LISTS)
def test_mean_and_std_are_bit_identical_to_the_statistics_module(values):
    assert exact_mean(values) == statistics.mean(values)
    assert exact_sample_std(values) == statistics.stdev(values)


def test_identical_values_give_their_value_and_zero_spread():
    assert (exact_mean([0.1, 0.1, 0.1]), exact_sample_std([0.1, 0.1, 0.1])) == (0.1, 0.0)


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
