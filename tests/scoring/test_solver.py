"""Solver relative score: directions, solve tasks, floors, null values,
unscored and unknown instances, completed failures."""

from __future__ import annotations

import math
import statistics

import pytest
from conftest import SOLVE_TASK, TEST_REF_ID, base_reference, phi, read_output

from tcsexam_lib import InputRefused, compute_instance_stats, score_solver_task
from tcsexam_lib import reference_from_data as build_reference
from tcsexam_lib.vocab import COMPLETED_FAILURE_STATUSES


def make_reference(
    instances, *, kind="objective", direction="maximize", unscored=(), rel=0.02, absolute=1e-9
):
    """A one-task test-only reference (task 'test-task')."""
    return build_reference(
        {
            "reference_id": TEST_REF_ID,
            "suite": "lite",
            "scale_floor_relative": rel,
            "scale_floor_absolute": absolute,
            "tasks": {"test-task": {"kind": kind, "direction": direction, "instances": instances}},
            "unscored_reference_instances": [
                {"task": "test-task", "instance": name, "reason": reason}
                for name, reason in unscored
            ],
        },
        source="test reference",
    )


def score(reference, records):
    return score_solver_task(reference, "test-task", records, source="test records")


def ok(instance, a):
    return {"instance": instance, "status": "ok", "A": a}


def by_instance(result):
    return {row["instance"]: row for row in result["instances"]}


@pytest.mark.parametrize(
    ("direction", "a", "z"),
    [("maximize", 16, 2.0), ("maximize", 8, -2.0), ("minimize", 16, -2.0), ("minimize", 8, 2.0)],
)
def test_direction_sets_the_sign_of_z(direction, a, z):
    reference = make_reference({"g1": [10, 12, 14]}, direction=direction)
    row = by_instance(score(reference, [ok("g1", a)]))["g1"]
    assert row["z"] == z
    assert row["score"] == pytest.approx(phi(z), rel=1e-12)
    assert score(reference, [ok("g1", a)])["relative_score"] == row["score"]


def test_minimise_better_than_mean_scores_above_half():
    reference = make_reference({"g1": [100, 110, 120], "g2": [50, 50, 53]}, direction="minimize")
    result = score(reference, [ok("g1", 95), ok("g2", 60)])
    rows = by_instance(result)
    assert rows["g1"]["score"] > 0.5 > rows["g2"]["score"]
    s2 = statistics.stdev([50, 50, 53])
    expected = (phi((110 - 95) / 10), phi((51 - 60) / max(s2, 0.02 * 51)))
    assert (rows["g1"]["score"], rows["g2"]["score"]) == pytest.approx(expected, rel=1e-12)
    assert result["relative_score"] == pytest.approx(sum(expected) / 2, rel=1e-12)


@pytest.mark.parametrize(
    "records",
    [
        [
            {"instance": "s1", "status": "ok", "solved": True},
            {"instance": "s2", "status": "ok", "solved": False},
        ],
        [ok("s1", 1), ok("s2", 0)],
        [ok("s1", True), ok("s2", False)],
        [{"instance": "s1", "status": "ok", "A": 1, "solved": True}, ok("s2", 0.0)],
    ],
    ids=["solved-booleans", "A-0-1", "A-booleans", "A-and-solved-agree"],
)
def test_solve_kind_scores_one_and_zero(records):
    reference = make_reference({"s1": [1, 0, 1, 0], "s2": [0, 1, 1]}, kind="solve")
    rows = by_instance(score(reference, records))
    mu1, s1 = 0.5, statistics.stdev([1, 0, 1, 0])
    mu2, s2 = 2 / 3, statistics.stdev([0, 1, 1])
    assert (rows["s1"]["A"], rows["s2"]["A"]) == (1, 0)
    assert rows["s1"]["score"] == pytest.approx(phi((1 - mu1) / s1), rel=1e-12)
    assert rows["s2"]["score"] == pytest.approx(phi((0 - mu2) / s2), rel=1e-12)


def test_solve_kind_a_and_solved_disagreeing_is_refused():
    reference = make_reference({"s1": [1, 0, 1]}, kind="solve")
    records = [{"instance": "s1", "status": "ok", "A": 0, "solved": True}]
    with pytest.raises(InputRefused, match=r"instance 's1'\): field 'solved' = true: disagrees"):
        score(reference, records)


def test_solve_kind_a_outside_zero_one_is_refused():
    reference = make_reference({"s1": [1, 0, 1]}, kind="solve")
    with pytest.raises(InputRefused, match=r"instance 's1'\): field 'A' = 0.5 \(allowed: 1"):
        score(reference, [ok("s1", 0.5)])


def test_relative_floor_bites():
    values = [100, 100.5, 101]
    stats = compute_instance_stats(values, 0.02, 1e-9)
    assert statistics.stdev(values) < 0.02 * 100.5
    assert (stats.scale_term, stats.scale) == ("relative_floor", pytest.approx(2.01, rel=1e-12))
    row = by_instance(score(make_reference({"g": values}), [ok("g", 104.52)]))["g"]
    assert row["scale"] == pytest.approx(0.02 * 100.5, rel=1e-12)
    assert row["z"] == pytest.approx(2.0, rel=1e-9)
    assert row["scale_term"] == "relative_floor"


def test_absolute_floor_bites():
    row = by_instance(score(make_reference({"g": [0, 0, 0]}), [ok("g", 1e-9)]))["g"]
    assert (row["mu"], row["s"], row["scale"], row["scale_term"]) == (0, 0, 1e-9, "absolute_floor")
    assert row["z"] == pytest.approx(1.0, rel=1e-12)
    assert row["score"] == pytest.approx(phi(1.0), rel=1e-12)


def test_sample_std_wins_over_floors():
    stats = compute_instance_stats([10, 12, 14], 0.02, 1e-9)
    assert (stats.mu, stats.s, stats.scale, stats.scale_term) == (12, 2, 2, "sample_std")


@pytest.mark.parametrize("value", [0.1, 0.7, 1.9, 12.3, 1e6 + 0.1, -3.3])
@pytest.mark.parametrize("rel_floor", [0.02, 0.0])
def test_a_equal_to_identical_reference_values_scores_exactly_half(value, rel_floor):
    """mean([v, v, v]) is v, so A = v is "as good as the reference": exactly 0.5."""
    reference = make_reference({"g": [value] * 3}, rel=rel_floor)
    row = by_instance(score(reference, [ok("g", value)]))["g"]
    assert (row["mu"], row["s"], row["z"], row["score"]) == (value, 0, 0, 0.5)


def test_null_reference_values_are_unusable_runs():
    reference = make_reference({"g": [10, None, 12, None, 14]})
    row = by_instance(score(reference, [ok("g", 13)]))["g"]
    assert (row["mu"], row["s"], row["scale"]) == (12, 2, 2)
    assert row["score"] == pytest.approx(phi(0.5), rel=1e-12)
    assert reference.tasks["test-task"].scored["g"].n_usable == 3


def test_unscored_reference_instances_are_kept_and_excluded_from_the_mean():
    reference = make_reference(
        {"g1": [10, 12, 14], "g2": [7, None], "g3": [None, None]},
        unscored=[("g2", "fewer than two usable values"), ("g3", "all runs failed")],
    )
    records = [ok("g1", 12), ok("g2", 1000), {"instance": "g3", "status": "timeout", "note": "x"}]
    result = score(reference, records)
    assert result["relative_score"] == 0.5
    assert result["n_scored"] == 1
    unscored = {row["instance"]: row for row in result["unscored_instances"]}
    assert set(unscored) == {"g2", "g3"}
    assert "fewer than two usable values" in unscored["g2"]["reason"]
    assert unscored["g2"]["A"] == 1000
    assert unscored["g3"]["status"] == "timeout" and unscored["g3"]["note"] == "x"
    assert "all runs failed" in unscored["g3"]["reason"]


def test_unscored_instances_need_no_record():
    reference = make_reference({"g1": [10, 12, 14], "g2": [7]}, unscored=[("g2", "one value")])
    assert score(reference, [ok("g1", 12)])["unscored_instances"] == []


def test_unknown_instances_are_reported_as_unscored():
    reference = make_reference({"g1": [10, 12, 14]})
    records = [ok("g1", 14), ok("not-in-reference", 3), {"instance": "zz", "status": "crash"}]
    result = score(reference, records)
    assert result["relative_score"] == pytest.approx(phi(1.0), rel=1e-12)
    reasons = {row["instance"]: row["reason"] for row in result["unscored_instances"]}
    assert set(reasons) == {"not-in-reference", "zz"}
    assert all("not an instance of task 'test-task'" in r for r in reasons.values())
    assert result["n_records"] == 3 == len(result["instances"]) + len(result["unscored_instances"])


@pytest.mark.parametrize("status", sorted(COMPLETED_FAILURE_STATUSES))
def test_completed_failures_score_zero(status):
    reference = make_reference({"g1": [10, 12, 14], "g2": [1, 2, 3]})
    records = [ok("g1", 14), {"instance": "g2", "status": status, "A": 99}]
    result = score(reference, records)
    row = by_instance(result)["g2"]
    assert (row["status"], row["score"], row["z"], row["A"]) == (status, 0, None, None)
    assert row["A_reported"] == 99
    assert result["relative_score"] == pytest.approx(phi(1.0) / 2, rel=1e-12)


def test_extra_record_fields_never_replace_computed_values():
    """A judge's own `score`/`mu`/`reason` fields are kept but do not change the result."""
    reference = make_reference({"g1": [10, 12, 14]}, unscored=[("g9", "one value")])
    records = [
        {"instance": "g1", "status": "ok", "A": 12, "score": 0.9, "mu": 3, "z": 7},
        {"instance": "g9", "status": "ok", "A": 1, "reason": "judge note"},
    ]
    result = score(reference, records)
    row = by_instance(result)["g1"]
    assert (result["relative_score"], row["score"], row["mu"], row["z"]) == (0.5, 0.5, 12, 0)
    assert "one value" in result["unscored_instances"][0]["reason"]
    kept = {**row, **result["unscored_instances"][0]}
    assert {0.9, 3, 7, "judge note"} <= set(kept.values())


def test_solve_task_of_the_fixture_reference(ws, run_cli, tmp_path):
    """The fixture's solve task through the command line: solved booleans and A 0/1."""
    ws.task = SOLVE_TASK
    ws.records = [
        {"instance": "sat-1", "status": "ok", "solved": True},
        {"instance": "sat-2", "status": "ok", "A": 0},
    ]
    ws.write()
    done = run_cli(ws.solver_args(tmp_path / "out.json"))
    assert done.code == 0, done.err
    result = read_output(tmp_path / "out.json")
    instances = base_reference()["tasks"][SOLVE_TASK]["instances"]
    expected = []
    for name, a in (("sat-1", 1), ("sat-2", 0)):
        values = instances[name]
        mu, s = statistics.mean(values), statistics.stdev(values)
        expected.append(phi((a - mu) / max(s, 0.02 * abs(mu), 1e-9)))
    assert result["kind"] == "solve"
    assert result["relative_score"] == pytest.approx(math.fsum(expected) / 2, rel=1e-12)


# Records of the same scores in several layouts: in reference order (no lookup), in another
# order, and with records outside the scored set. The rows of the scored instances are the
# same whatever the layout.
LAYOUT_INSTANCES = {f"g{k}": [10.0 + k, 12.0 + k, 14.5 + k] for k in range(6)}
LAYOUT_RECORDS = [
    ok("g0", 11.0),
    {"instance": "g1", "status": "timeout", "A": 3.0},
    ok("g2", 15),
    ok("g3", 20.5),
    {"instance": "g4", "status": "invalid"},
    ok("g5", 9.25),
]
LAYOUTS = {
    "reference order": LAYOUT_RECORDS,
    "reversed": LAYOUT_RECORDS[::-1],
    "with unknown instances": [
        ok("x1", 1.0),
        *LAYOUT_RECORDS[3:],
        ok("x2", 2.0),
        *LAYOUT_RECORDS[:3],
    ],
}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_layout_of_the_records_changes_no_scored_row(layout):
    reference = make_reference(LAYOUT_INSTANCES)
    expected = score(reference, LAYOUT_RECORDS)
    result = score(reference, LAYOUTS[layout])
    assert [row["instance"] for row in result["instances"]] == [
        r["instance"] for r in LAYOUTS[layout] if r["instance"] in LAYOUT_INSTANCES
    ]
    assert by_instance(result) == by_instance(expected)
    assert result["relative_score"] == expected["relative_score"]
    assert by_instance(result)["g1"]["A_reported"] == 3.0
    assert [row["instance"] for row in result["unscored_instances"]] == [
        r["instance"] for r in LAYOUTS[layout] if r["instance"] not in LAYOUT_INSTANCES
    ]


@pytest.mark.parametrize(
    ("records", "match"),
    [
        (LAYOUT_RECORDS + [ok("g2", 1.0)], r"record #7 \(instance 'g2'\).*duplicate.*record #3"),
        (LAYOUT_RECORDS[::-1] + [ok("g0", 1.0)], r"record #7 \(instance 'g0'\).*duplicate"),
        ([ok("x", 1.0), *LAYOUT_RECORDS, ok("x", 2.0)], r"record #8 \(instance 'x'\).*duplicate"),
        (LAYOUT_RECORDS[1:], r"no record for 1 scored instance\(s\).*'g0'"),
        (
            [ok("g2", 1.0), *LAYOUT_RECORDS[1:]],  # as many records as scored instances
            r"record #3 \(instance 'g2'\).*duplicate(.|\n)*no record for 1 .*'g0'",
        ),
        ([ok("x", 1.0), *LAYOUT_RECORDS[:-1]], r"no record for 1 scored instance\(s\).*'g5'"),
    ],
    ids=[
        "repeat-in-order",
        "repeat-reordered",
        "repeat-unknown",
        "missing",
        "repeat-and-missing",
        "missing-unknown",
    ],
)
def test_a_repeated_or_missing_instance_is_refused_whatever_the_layout(records, match):
    with pytest.raises(InputRefused, match=match):
        score(make_reference(LAYOUT_INSTANCES), records)


BIG = 2**60  # integers beyond 2**53: floats round 2**60 + 1, + 3 and + 5 to one number


@pytest.mark.parametrize("rel", [0.0, 0.02])
def test_integers_beyond_2_53_are_scored_exactly(rel):
    reference = make_reference({"g": [BIG + 1, BIG + 3, BIG + 5], "h": [1, 2]}, rel=rel)
    stats = reference.tasks["test-task"].scored["g"]
    assert (stats.s, stats.mu_exact) == (2.0, BIG + 3)
    direction_worse = [ok("g", BIG + 3 - 97), ok("h", 1.5)]  # 97 worse (maximise)
    rows = by_instance(score(reference, direction_worse).data)
    assert rows["g"]["A"] == BIG - 94 and type(rows["g"]["A"]) is int  # as given, exact
    assert rows["g"]["z"] == -97 / stats.scale and rows["g"]["score"] < 0.5
    one, three = (score(reference, [ok("g", BIG + k), ok("h", 1.5)]) for k in (1, 3))
    assert one.rows[0].score < three.rows[0].score == 0.5  # 2**60 + 1 is not 2**60 + 3


def test_floats_beyond_2_53_are_integers_and_scored_exactly_too():
    reference = make_reference({"g": [2.0**60, 2.0**60 + 256]}, rel=0.0)  # mean: 2**60 + 128
    (row,) = score(reference, [ok("g", 2.0**60)]).rows
    assert row.z == pytest.approx(-128 / row.s, rel=1e-15)  # not 0 (the mean rounded to A)
