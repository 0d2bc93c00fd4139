"""The published JSON Schemas (``schemas.py``): the compiled validator that accepts valid
input fast agrees with the full one that explains a refusal.
"""

from __future__ import annotations

import copy
import json

import pytest
from conftest import base_cohort, base_reference, base_suite
from hypothesis import given
from hypothesis import strategies as st

from tcsexam_lib.schemas import schema_accepts, schema_errors

# --- the fast checks accept exactly what the full ones accept ------------------------------

ODD_VALUES = [None, True, 0, 1.0, -1, 1e-9, "", "x", [], {}, [1, None], {"a": 1}]


def _paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for position, value in enumerate(data):
            yield from _paths(value, (*prefix, position))


def _mutated(document, path, value):
    data = copy.deepcopy(document)
    if not path:
        return value
    target = data
    for step in path[:-1]:
        target = target[step]
    if value == "__delete__" and isinstance(target, dict):
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


VALID = {
    "reference": base_reference(),
    "suite": base_suite(),
    "cohort": base_cohort(),
    "records": [
        {"instance": "g1", "status": "ok", "A": 12},
        {"instance": "g2", "status": "timeout"},
    ],
}


@pytest.mark.parametrize("schema", sorted(VALID))
@given(data=st.data())
def test_the_compiled_validator_agrees_with_the_full_one(schema, data):
    document = VALID[schema]
    path = data.draw(st.sampled_from(list(_paths(document))))
    value = data.draw(st.sampled_from([*ODD_VALUES, "__delete__"]))
    mutated = _mutated(document, path, value)
    json.dumps(mutated)  # a JSON document
    assert schema_accepts(mutated, schema) == (schema_errors(mutated, schema) == [])
