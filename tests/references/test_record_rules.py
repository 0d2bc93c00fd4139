"""The rules of instance records (``references/record_rules.py``) and the records' schema
as columns (``references/records.py``; ``tests/reports/test_records.py`` is about the
report runner's records folder).

- The records' schema rule: the column check accepts exactly what the published schema
  accepts (the full validator, which explains a refusal).
- Each rule of :data:`RECORD_RULES` and :data:`SCORING_RULES` has two halves that agree
  (hypothesis): where the fast column-wise test holds the record-by-record explanation
  finds nothing, and records the rules refuse are explained. In the scoring order too:
  the records of a judge usually name the scored instances in reference order.
"""

from __future__ import annotations

import copy

from conftest import assert_rules_agree
from hypothesis import given
from hypothesis import strategies as st

from tcsexam_lib import reference_from_data
from tcsexam_lib.references.model import TaskReference
from tcsexam_lib.references.record_rules import RECORD_RULES, SCORING_RULES
from tcsexam_lib.references.records import (
    RECORDS_SCHEMA_RULES,
    RecordsDocument,
    TaskRecords,
    record_columns,
)
from tcsexam_lib.schemas import schema_errors

REFERENCE = reference_from_data(
    {
        "reference_id": "test-records-rules",
        "suite": "lite",
        "scale_floor_relative": 0.02,
        "scale_floor_absolute": 1e-9,
        "tasks": {
            "obj": {
                "kind": "objective",
                "direction": "minimize",
                "instances": {"a": [10, 12, 14], "b": [5, 7], "c": [1e-300, 2e-300], "u": [1]},
            },
            "sat": {"kind": "solve", "direction": "maximize", "instances": {"a": [1, 0, 1]}},
        },
        "unscored_reference_instances": [{"task": "obj", "instance": "u", "reason": "one run"}],
    }
)

NAMES = ["a", "b", "c", "u", "x", ""]
STATUSES = ["ok", "ok", "ok", "timeout", "crash", "missing", "not_run", "done", ""]
VALUES = [12, 12.5, 0, 1, True, False, None, "12", 1e308, -1e308, 10**400, float("nan")]


@st.composite
def records(draw, task: str):
    """Records of ``task``: mostly its scored instances in reference order, then changes."""
    scored = list(REFERENCE.tasks[task].scored)
    base = [{"instance": name, "status": "ok", "A": 12 if task == "obj" else 1} for name in scored]
    for _ in range(draw(st.integers(0, 4))):
        change = draw(st.integers(0, 6))
        position = draw(st.integers(0, max(len(base) - 1, 0)))
        record = base[position] if base else {"instance": "a", "status": "ok"}
        if change == 0:
            record["instance"] = draw(st.sampled_from(NAMES))
        elif change == 1:
            record["status"] = draw(st.sampled_from(STATUSES))
        elif change == 2:
            record["A"] = draw(st.sampled_from(VALUES))
        elif change == 3:
            record.pop("A", None)
        elif change == 4:
            record["solved"] = draw(st.sampled_from([True, False, None, 1]))
        elif change == 5:
            base.append(copy.deepcopy(draw(st.sampled_from(base or [record]))))
        elif base:
            base.insert(0, base.pop())  # another order
    return base


@given(data=st.data())
def test_the_column_check_of_the_schema_accepts_exactly_what_the_schema_accepts(data):
    found = data.draw(records(data.draw(st.sampled_from(["obj", "sat"]))))
    if data.draw(st.booleans()) and found:
        found[0] = data.draw(st.sampled_from([[], "a", 1, {"status": "ok"}, {"instance": "a"}]))
    document = RecordsDocument(found, "r.json")
    assert (record_columns(found) is not None) == (schema_errors(found, "records") == [])
    assert_rules_agree(RECORDS_SCHEMA_RULES, document)


@given(data=st.data())
def test_each_rule_of_scoring_explains_exactly_what_its_fast_test_refuses(data):
    task = data.draw(st.sampled_from(["obj", "sat"]))
    found = data.draw(records(task))
    if record_columns(found) is None:
        return  # the schema refuses them first
    assert_rules_agree(SCORING_RULES, TaskRecords(found, REFERENCE.tasks[task], "r.json"))


@given(data=st.data())
def test_each_rule_of_a_reference_run_explains_exactly_what_its_fast_test_refuses(data):
    kind = data.draw(st.sampled_from(["objective", "solve"]))
    found = data.draw(records("obj" if kind == "objective" else "sat"))
    if record_columns(found) is None:
        return
    task = TaskReference("t", kind, "maximize", {}, {}, raw={})
    assert_rules_agree(RECORD_RULES, TaskRecords(found, task, "run/t.json", scoring=False))


def test_a_refusal_names_the_record_and_instance_of_each_problem():
    found = [
        {"instance": "a", "status": "ok", "A": 12},
        {"instance": "a", "status": "ok", "A": 12},
        {"instance": "b", "status": "done"},
        {"instance": "c", "status": "ok", "A": 1e308},
    ]
    problems = SCORING_RULES.problems(TaskRecords(found, REFERENCE.tasks["obj"], "r.json"))
    assert [str(p) for p in problems] == [
        "r.json record #2 (instance 'a'): field 'instance' = \"a\": duplicate instance name "
        "(also record #1)",
        "r.json record #3 (instance 'b'): field 'status' = \"done\" (allowed: certificate_failed,"
        " crash, infrastructure_error, invalid, judge_failed, memory_limit, missing, not_run, "
        "ok, timeout)",
        "r.json record #4 (instance 'c'): field 'A' = 1e+308: z = (A - mu) / scale overflows a "
        "float (mu 1.5e-300, scale 1e-09): almost certainly a recording error (allowed: a value "
        "whose distance to the reference mean, in scales, is a float (below about 1.8e308 "
        "scales))",
    ]
