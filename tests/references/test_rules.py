"""The rules of a reference file (``references/rules.py``): each rule's two halves agree.

Hypothesis draws reference files from the test reference, changing instance value lists
(too few usable values, a non-binary value in a solve task), the unscored entries (an
unknown task, an entry listed twice, a scorable instance listed) and the fixed id's
floors. Where a rule's fast test holds its explanation finds nothing, and a file the
rules refuse is explained; the schema layer likewise.
"""

from __future__ import annotations

import copy

from conftest import SOLVE_TASK, SOLVER_TASK, assert_rules_agree, base_reference
from hypothesis import given
from hypothesis import strategies as st

from tcsexam_lib.references.rules import REFERENCE_RULES, REFERENCE_SCHEMA_RULES, ReferenceInput
from tcsexam_lib.schemas import schema_accepts
from tcsexam_lib.vocab import FIXED_REFERENCE_ID

VALUES = [[10, 12, 14], [5, None], [None, None], [], [1, 0, 1], [1, 2], [0.5, 1], [7, 7.0]]
ENTRIES = [
    {"task": SOLVER_TASK, "instance": "example-2", "reason": "r"},
    {"task": SOLVER_TASK, "instance": "gone", "reason": "r"},
    {"task": "no-such-task", "instance": "g", "reason": "r"},
    {"task": SOLVE_TASK, "instance": "sat-1", "reason": "r"},
]


@st.composite
def references(draw):
    data = copy.deepcopy(base_reference())
    tasks = data["tasks"]
    for _ in range(draw(st.integers(0, 4))):
        task = draw(st.sampled_from(sorted(tasks)))
        instances = tasks[task]["instances"]
        name = draw(st.sampled_from([*sorted(instances), "new"]))
        instances[name] = list(draw(st.sampled_from(VALUES)))
    data["unscored_reference_instances"] = draw(
        st.lists(st.sampled_from(ENTRIES), max_size=3).map(copy.deepcopy)
    )
    if draw(st.booleans()):
        data["reference_id"] = FIXED_REFERENCE_ID
        data["scale_floor_relative"] = draw(st.sampled_from([0.02, 0.05]))
    return data


@given(references())
def test_each_rule_explains_exactly_what_its_fast_test_refuses(data):
    document = ReferenceInput(data, "ref.json")
    assert_rules_agree(REFERENCE_SCHEMA_RULES, document)
    if schema_accepts(data, "reference"):
        assert_rules_agree(REFERENCE_RULES, document)


def test_the_explanation_names_the_task_instance_and_values():
    data = copy.deepcopy(base_reference())
    data["tasks"][SOLVER_TASK]["instances"]["lonely"] = [3, None]
    (finding,) = REFERENCE_RULES.problems(ReferenceInput(data, "ref.json"))
    assert finding.code == "unlisted_unscorable"
    assert str(finding.problem).startswith(
        f"ref.json task '{SOLVER_TASK}' instance 'lonely': field 'values' = [3, null]: fewer "
        "than two usable values but not listed"
    )
