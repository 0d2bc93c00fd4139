"""Variance components and the attempt standard error (`tcsexam_lib.stats.power`).

The oracles use plain Python (``statistics``), never the kit's numpy code.
"""

from __future__ import annotations

import math
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tcsexam_lib.stats.power import attempt_standard_error, decompose_track_variance
from tcsexam_lib.vocab import TRACKS

score = st.one_of(st.sampled_from([0.0, 1.0]), st.floats(0.0, 2.0).map(lambda x: round(x, 3)))


@given(st.lists(st.lists(score, min_size=1, max_size=4), min_size=2, max_size=6))
def test_variance_components_equal_a_direct_computation(task_scores):
    out = decompose_track_variance(task_scores)
    repeated = [s for s in task_scores if len(s) >= 2]
    if not repeated:
        assert out is None
        return
    within = sum(sum((x - statistics.fmean(s)) ** 2 for x in s) for s in repeated) / sum(
        len(s) - 1 for s in repeated
    )
    attempt_part = within * statistics.fmean([1 / len(s) for s in task_scores])
    s2 = statistics.variance([statistics.fmean(s) for s in task_scores])
    task_part = max(0.0, s2 - attempt_part)
    n = len(task_scores)
    assert out["attempt_variance"] == pytest.approx(within, abs=1e-12)
    assert out["task_variance"] == pytest.approx(task_part, abs=1e-12)
    assert out["se_twice_tasks"] == pytest.approx(
        math.sqrt((task_part + attempt_part) / (2 * n)), abs=1e-12
    )
    assert out["se_twice_attempts"] == pytest.approx(
        math.sqrt((task_part + attempt_part / 2) / n), abs=1e-12
    )
    assert out["se_twice_attempts"] <= out["se_fitted"] + 1e-15


def test_attempt_se_is_the_attempt_part_of_the_index_variance():
    scores = {
        "theorem": [[1.0, 0.0, 1.0], [0.0], [1.0]],
        "solver": [[0.5, 0.7], [0.2], [0.4]],
        "construction": [[1.0, 1.4], [0.9, 1.1], [0.5]],
        "conjecture": [[0.0, 1.0], [0.0], [0.0]],
    }
    components = {t: decompose_track_variance(scores[t]) for t in TRACKS}
    weights = {"theorem": 30, "solver": 30, "construction": 30, "conjecture": 10}
    expected = 0.0
    for track in TRACKS:
        repeated = [s for s in scores[track] if len(s) >= 2]
        within = sum(statistics.variance(s) * (len(s) - 1) for s in repeated) / sum(
            len(s) - 1 for s in repeated
        )
        mean_inverse = statistics.fmean(1 / len(s) for s in scores[track])
        expected += weights[track] ** 2 * within * mean_inverse / len(scores[track])
    n = {t: 3 for t in TRACKS}
    assert attempt_standard_error(components, n) == pytest.approx(math.sqrt(expected))
    components["conjecture"] = decompose_track_variance([[0.0], [1.0], [0.0]])
    assert components["conjecture"] is None and attempt_standard_error(components, n) is None
