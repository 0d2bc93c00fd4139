"""Property tests: the kit against straightforward implementations written here.

The solver oracle uses only ``statistics.mean``/``statistics.stdev`` and ``math.erfc``;
the index oracle averages attempts, then tasks, then applies 30/30/30/10.
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
    phi,
    track_of,
)
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tcsexam_lib import compute_index, read_attempts, score_solver_task
from tcsexam_lib import reference_from_data as build_reference
from tcsexam_lib.references.suites import Suite
from tcsexam_lib.scoring.cohort import Cohort, ModelPlan
from tcsexam_lib.vocab import COMPLETED_FAILURE_STATUSES

APPROX = {"rel": 1e-9, "abs": 1e-12}

# Objective values on a 0.01 grid (what judges report), ints, and a few wide floats.
objective_values = st.one_of(
    st.integers(-(10**8), 10**8).map(lambda k: k / 100),
    st.integers(-1000, 1000),
    st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False).map(lambda x: round(x, 3)),
)
rel_floors = st.one_of(st.just(0.02), st.just(0.0), st.floats(0.0, 0.2))
abs_floors = st.one_of(st.just(1e-9), st.floats(1e-12, 10.0))
failures = st.sampled_from(sorted(COMPLETED_FAILURE_STATUSES))


def _usable(values):
    return [v for v in values if v is not None]


def oracle_instance(values, a, direction, rel_floor, abs_floor):
    """Score of one instance: Phi(z) for a valid A, 0 for a completed failure (a is None)."""
    if a is None:
        return 0.0
    usable = _usable(values)
    mu = statistics.mean(usable)
    scale = max(statistics.stdev(usable), rel_floor * abs(mu), abs_floor)
    z = (a - mu) / scale if direction == "maximize" else (mu - a) / scale
    return phi(z)


@st.composite
def solver_cases(draw):
    kind = draw(st.sampled_from(["objective", "objective", "solve"]))
    direction = "maximize" if kind == "solve" else draw(st.sampled_from(["maximize", "minimize"]))
    value = st.sampled_from([0, 1]) if kind == "solve" else objective_values
    maybe = st.one_of(st.none(), value) if draw(st.booleans()) else value
    scored_values = st.lists(maybe, min_size=2, max_size=8).filter(lambda v: len(_usable(v)) >= 2)
    names = draw(
        st.lists(st.text("abcdefgh-", min_size=1, max_size=6), min_size=1, max_size=6, unique=True)
    )
    instances = {name: draw(scored_values) for name in names}
    unscored = draw(st.lists(st.sampled_from(["u-1", "u-2", "u-3"]), unique=True, max_size=3))
    for name in unscored:
        instances[name] = draw(st.lists(st.one_of(st.none(), value), max_size=1))
    rel_floor, abs_floor = draw(rel_floors), draw(abs_floors)

    records, expected = [], {}
    for name in names:
        if draw(st.integers(0, 3)) == 0:
            status = draw(failures)
            records.append({"instance": name, "status": status})
            expected[name] = oracle_instance(instances[name], None, direction, 0, 0)
            continue
        a = draw(st.one_of(value, st.sampled_from(_usable(instances[name]))))
        record = {"instance": name, "status": "ok", "A": a}
        if kind == "solve" and draw(st.booleans()):
            record = {"instance": name, "status": "ok", "solved": bool(a)}
        records.append(record)
        expected[name] = oracle_instance(instances[name], a, direction, rel_floor, abs_floor)
    for name in unscored + draw(st.lists(st.sampled_from(["x-1", "x-2"]), unique=True)):
        records.append({"instance": name, "status": draw(st.sampled_from(["ok", "timeout"]))})
    records = draw(st.permutations(records))
    reference = {
        "reference_id": TEST_REF_ID,
        "suite": "lite",
        "scale_floor_relative": rel_floor,
        "scale_floor_absolute": abs_floor,
        "tasks": {"test-task": {"kind": kind, "direction": direction, "instances": instances}},
        "unscored_reference_instances": [
            {"task": "test-task", "instance": name, "reason": "fewer than two usable values"}
            for name in unscored
        ],
    }
    return reference, records, expected


@given(solver_cases())
def test_relative_score_matches_straightforward_implementation(case):
    reference_data, records, expected = case
    result = score_solver_task(build_reference(reference_data), "test-task", records)
    got = {row["instance"]: row["score"] for row in result["instances"]}
    assert got == pytest.approx(expected, **APPROX)
    assert result["relative_score"] == pytest.approx(statistics.mean(expected.values()), **APPROX)
    assert 0.0 <= result["relative_score"] <= 1.0
    assert result["n_scored"] == len(expected)
    unscored = {row["instance"] for row in result["unscored_instances"]}
    assert unscored == {r["instance"] for r in records} - set(expected)


@given(
    objective_values,
    st.lists(st.integers(0, 10**6).map(lambda k: k / 100), max_size=3),
    st.integers(0, 3),
    st.sampled_from(["maximize", "minimize"]),
    rel_floors,
    abs_floors,
)
def test_a_at_the_reference_mean_scores_half(
    center, deltas, repeats, direction, rel_floor, abs_floor
):
    """Values symmetric around ``center`` (or all equal to it) have mean ``center``."""
    values = [center] * (repeats + 1) + [center + d for d in deltas] + [center - d for d in deltas]
    assume(len(values) >= 2)
    assume(statistics.mean(values) == center)
    reference = build_reference(
        {
            "reference_id": TEST_REF_ID,
            "suite": "lite",
            "scale_floor_relative": rel_floor,
            "scale_floor_absolute": abs_floor,
            "tasks": {
                "test-task": {
                    "kind": "objective",
                    "direction": direction,
                    "instances": {"g": values},
                }
            },
            "unscored_reference_instances": [],
        }
    )
    records = [{"instance": "g", "status": "ok", "A": center}]
    assert score_solver_task(reference, "test-task", records)["relative_score"] == 0.5


# --- index ---------------------------------------------------------------------------

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
