"""Property tests of the index against a straightforward implementation.

The oracle averages attempts, then tasks, then applies 30/30/30/10.
"""

from __future__ import annotations

import csv
import math
import statistics
import tempfile
from pathlib import Path

import pytest
from conftest import (
    CONJECTURE_TASKS,
    CONSTRUCTION_TASKS,
    HEADER,
    MODEL,
    SOLVER_TASKS,
    TEST_REF_ID,
    THEOREM_TASKS,
    attempt_row,
    track_of,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from tcsexam_lib import compute_index, read_attempts
from tcsexam_lib.references.suites import Suite
from tcsexam_lib.scoring.cohort import Cohort, ModelPlan

APPROX = {"rel": 1e-9, "abs": 1e-12}

SUITE_OBJ = Suite(
    "lite",
    {
        "theorem": tuple(THEOREM_TASKS),
        "solver": tuple(SOLVER_TASKS),
        "construction": tuple(CONSTRUCTION_TASKS),
        "conjecture": tuple(CONJECTURE_TASKS),
    },
)


#: Each index example reads a CSV through pandas: fewer examples than the profile's.

INDEX_EXAMPLES = max(10, settings().max_examples // 4)


WEIGHTS = {"theorem": 30, "solver": 30, "construction": 30, "conjecture": 10}


def _score_strategy(track):
    if track in ("theorem", "conjecture"):
        return st.sampled_from([0, 1])
    if track == "solver":
        return st.floats(0.0, 1.0)
    return st.floats(0.0, 5.0)


@st.composite
def cohorts(draw):
    """Per-task adopted scores (1-3 repeats) plus excluded rows that must not count."""
    plan, scores, rows = {}, {}, []
    for track, items in SUITE_OBJ.tracks.items():
        for item in items:
            repeats = draw(st.integers(1, 3))
            plan[item] = repeats
            scores[item] = draw(
                st.lists(_score_strategy(track), min_size=repeats, max_size=repeats)
            )
            for k, value in enumerate(scores[item], start=1):
                status = draw(st.sampled_from(["selected", "selected_provisional"]))
                rows.append(attempt_row(item, repr(value), attempt=f"r{k}", adoption_status=status))
            for k in range(draw(st.integers(0, 1))):
                value = draw(_score_strategy(track))
                rows.append(
                    attempt_row(item, repr(value), attempt=f"x{k}", adoption_status="excluded")
                )
    return plan, scores, draw(st.permutations(rows))


def _index_of(plan, rows):
    cohort = Cohort("lite", "offline", TEST_REF_ID, {MODEL: ModelPlan(dict(plan))})
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "attempts.csv"
        with open(path, "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, HEADER, lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        table = read_attempts(path, suite=SUITE_OBJ, cohort=cohort)
    return compute_index(table, SUITE_OBJ, cohort)


def oracle_index(scores):
    means = {}
    for track, items in SUITE_OBJ.tracks.items():
        task_means = [statistics.mean(scores[item]) for item in items]
        means[track] = statistics.mean(task_means)
    return means, 30 * means["theorem"] + 30 * means["solver"] + 30 * means["construction"] + (
        10 * means["conjecture"]
    )


@settings(max_examples=INDEX_EXAMPLES)
@given(cohorts())
def test_index_is_30p_30s_30c_10o_of_track_means(case):
    plan, scores, rows = case
    result = _index_of(plan, rows)
    entry = result["models"][MODEL]
    means, index = oracle_index(scores)
    assert entry["status"] in ("complete", "provisional")
    assert entry["index"] == pytest.approx(index, **APPROX)
    letters = {"theorem": "P", "solver": "S", "construction": "C", "conjecture": "O"}
    for track, mean in means.items():
        assert entry["tracks"][track]["mean"] == pytest.approx(mean, **APPROX)
        assert entry["track_means"][letters[track]] == pytest.approx(mean, **APPROX)
        contribution = entry["tracks"][track]["contribution"]
        assert contribution == pytest.approx(WEIGHTS[track] * mean, **APPROX)
    assert entry["index"] == pytest.approx(
        sum(entry["tracks"][t]["contribution"] for t in WEIGHTS), **APPROX
    )
    assert entry["coverage"]["rows"] == len(rows)


@settings(max_examples=INDEX_EXAMPLES)
@given(cohorts(), st.data())
def test_three_repeats_and_one_repeat_weigh_the_same(case, data):
    """Replacing a task's single attempt by 3 attempts with the same mean changes nothing."""
    plan, scores, rows = case
    item = data.draw(st.sampled_from(sorted(plan)))
    track = track_of(item)
    value = data.draw(_score_strategy(track))
    one = [r for r in rows if r["item"] != item] + [attempt_row(item, repr(value), attempt="a")]
    if track in ("theorem", "conjecture"):
        # binary scores: three identical repeats are the only way to keep the mean
        triple = [value] * 3
    else:
        delta = data.draw(st.floats(0.0, min(value, 1.0 - value) if track == "solver" else value))
        high = value + delta
        triple = [value - delta, value, min(high, 1.0) if track == "solver" else high]
    three = [r for r in rows if r["item"] != item] + [
        attempt_row(item, repr(v), attempt=f"t{k}") for k, v in enumerate(triple)
    ]
    result_one = _index_of({**plan, item: 1}, one)["models"][MODEL]
    result_three = _index_of({**plan, item: 3}, three)["models"][MODEL]
    assert result_three["index"] == pytest.approx(result_one["index"], **APPROX)
    task_three = next(t for t in result_three["tasks"] if t["item"] == item)
    assert task_three["mean"] == pytest.approx(statistics.mean(triple), **APPROX)
    assert len(task_three["adopted_valid_attempts"]) == 3


def test_track_mean_is_over_tasks_not_pooled_attempts():
    """Task A: 3 repeats [1, 1, 0] (mean 2/3); other theorem tasks 1 repeat of 0.
    Equal-weight track mean (2/3)/5, not the pooled 2/7."""
    plan = {}
    rows = []
    for items in SUITE_OBJ.tracks.values():
        for item in items:
            plan[item] = 1
            rows.append(attempt_row(item, 0))
    first = THEOREM_TASKS[0]
    plan[first] = 3
    rows = [r for r in rows if r["item"] != first] + [
        attempt_row(first, v, attempt=str(k)) for k, v in enumerate([1, 1, 0])
    ]
    entry = _index_of(plan, rows)["models"][MODEL]
    assert entry["tracks"]["theorem"]["mean"] == pytest.approx((2 / 3) / 5, rel=1e-12)
    assert entry["index"] == pytest.approx(30 * (2 / 3) / 5, rel=1e-12)
    assert not math.isclose(entry["tracks"]["theorem"]["mean"], 2 / 7)
