"""Property tests of the solver relative score against a straightforward implementation.

The oracle uses only ``statistics.mean``/``statistics.stdev`` and ``math.erfc``.
"""

from __future__ import annotations

import statistics

import pytest
from conftest import TEST_REF_ID, phi
from hypothesis import assume, given
from hypothesis import strategies as st

from tcsexam_lib import reference_from_data as build_reference
from tcsexam_lib import score_solver_task
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
