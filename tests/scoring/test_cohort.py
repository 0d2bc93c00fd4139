"""The rules of a cohort declaration (``scoring/cohort.py``): each rule's two halves agree.

Hypothesis draws cohorts that match their schema (models planning a whole count, a count
written 1.0, an object naming tasks of the suite, unknown ones, with or without a
``default``, another suite): where a rule's fast test holds its explanation finds
nothing, and a cohort the rules refuse is explained.
"""

from __future__ import annotations

from conftest import THEOREM_TASKS, assert_rules_agree, base_cohort, base_suite
from hypothesis import given
from hypothesis import strategies as st

from tcsexam_lib.references.suites import Suite
from tcsexam_lib.schemas import schema_accepts
from tcsexam_lib.scoring.cohort import COHORT_RULES, CohortInput

SUITE = Suite("lite", {track: tuple(items) for track, items in base_suite()["tracks"].items()})
TASKS = [item for _, item in SUITE.tasks]

counts = st.sampled_from([1, 2, 3, 1.0, 2.5])
plans = st.one_of(
    counts,
    st.dictionaries(
        st.sampled_from([*TASKS, "default", "no-such-task", THEOREM_TASKS[0] + "x"]),
        counts,
        min_size=1,
        max_size=len(TASKS) + 2,
    ),
    st.just({task: 1 for task in TASKS}),
)


@given(
    suite=st.sampled_from(["lite", "full"]),
    models=st.dictionaries(st.sampled_from(["a", "b", "c"]), plans, min_size=1),
)
def test_each_rule_explains_exactly_what_its_fast_test_refuses(suite, models):
    data = base_cohort()
    data["suite"] = suite
    data["models"] = {model: {"attempts_per_task": plan} for model, plan in models.items()}
    if not schema_accepts(data, "cohort"):
        return  # refused by the schema first
    assert_rules_agree(COHORT_RULES, CohortInput(data, "cohort.json", SUITE))


def test_a_refusal_names_the_model_field_value_and_what_is_allowed():
    data = base_cohort()
    data["models"] = {"m": {"attempts_per_task": {"nope": 1.0}}}
    problems = COHORT_RULES.problems(CohortInput(data, "cohort.json", SUITE))
    assert [str(p) for p in problems][:2] == [
        "cohort.json model 'm': field 'attempts_per_task.nope' = 1.0 (allowed: a whole number "
        "written without a decimal point (1, not 1.0))",
        "cohort.json model 'm': field 'attempts_per_task' = \"nope\" (allowed: a task of suite "
        "'lite' or 'default')",
    ]
    assert problems[2].detail.startswith("no planned count for 'maxcut-mqlib', 'test-con-1'")
