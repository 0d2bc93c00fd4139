"""Property tests of `tcsexam_lib.stats` against straightforward implementations written here.

The oracles use plain Python (``statistics``, loops, ``itertools.product``) and the
weights 30/30/30/10 written out, never the kit's numpy code.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tcsexam_lib.stats.bootstrap import bootstrap_replicates, draw_task_indices
from tcsexam_lib.stats.intervals import (
    compute_track_spread,
    stratified_standard_error,
    t_interval,
)
from tcsexam_lib.stats.pairs import (
    group_ties,
    holm_adjust,
    rank_intervals,
    sign_flip_p_values,
)
from tcsexam_lib.stats.power import decompose_track_variance

WEIGHTS = (30, 30, 30, 10)  # P, S, C, O

score = st.one_of(st.sampled_from([0.0, 1.0]), st.floats(0.0, 2.0).map(lambda x: round(x, 3)))


@st.composite
def cohorts(draw, min_tasks=2, max_tasks=6, max_models=3):
    """Per track a list of rows (models) of task means, same task count per track."""
    n_models = draw(st.integers(1, max_models))
    tracks = []
    for _ in range(4):
        n = draw(st.integers(min_tasks, max_tasks))
        tracks.append([draw(st.lists(score, min_size=n, max_size=n)) for _ in range(n_models)])
    return tracks


def oracle_index(rows_by_track, model):
    return sum(w * statistics.fmean(t[model]) for w, t in zip(WEIGHTS, rows_by_track, strict=True))


@given(cohorts())
def test_index_se_equals_the_straightforward_formula(tracks):
    values = [np.array(t) for t in tracks]
    sd, n = compute_track_spread(values)
    se, df = stratified_standard_error(sd, n)
    for model in range(len(tracks[0])):
        terms = [
            w**2 * statistics.variance(t[model]) / len(t[model])
            for w, t in zip(WEIGHTS, tracks, strict=True)
        ]
        assert se[model] == pytest.approx(math.sqrt(sum(terms)), rel=1e-9, abs=1e-12)
        if sum(terms) > 0:
            expected = sum(terms) ** 2 / sum(
                v**2 / (len(t[model]) - 1) for v, t in zip(terms, tracks, strict=True)
            )
            assert df[model] == pytest.approx(expected, rel=1e-9)
            # Welch-Satterthwaite df lies between the smallest and the summed track df
            track_df = [len(t[model]) - 1 for t in tracks]
            assert min(track_df) - 1e-9 <= df[model] <= sum(track_df) + 1e-9
        else:
            assert math.isnan(df[model])


@given(cohorts(min_tasks=1, max_tasks=4), st.integers(0, 2**32 - 1))
def test_bootstrap_replicate_equals_a_plain_recomputation(tracks, seed):
    values = [np.array(t) for t in tracks]
    n = [len(t[0]) for t in tracks]
    draws = draw_task_indices(np.random.default_rng(seed), n, 5)
    track_reps, index_reps = bootstrap_replicates(values, draws)
    for model in range(len(tracks[0])):
        for b in range(5):
            drawn = [[t[model][i] for i in d[b]] for t, d in zip(tracks, draws, strict=True)]
            means = [math.fsum(x) / len(x) for x in drawn]
            assert track_reps[model, b].tolist() == pytest.approx(means, rel=1e-12, abs=1e-12)
            expected = math.fsum(w * m for w, m in zip(WEIGHTS, means, strict=True))
            assert index_reps[model, b] == pytest.approx(expected, rel=1e-12, abs=1e-9)


def test_bootstrap_distribution_matches_exact_enumeration():
    """Tiny case: every possible stratified draw enumerated (3^3 * 2^2 * 2^2 * 2^2 of them)."""
    tracks = [[1.0, 0.0, 1.0], [0.25, 0.75], [1.5, 0.5], [0.0, 1.0]]
    exact: Counter[float] = Counter()
    per_track = [list(itertools.product(range(len(t)), repeat=len(t))) for t in tracks]
    for draw in itertools.product(*per_track):
        value = sum(
            w * statistics.fmean(t[i] for i in d)
            for w, t, d in zip(WEIGHTS, tracks, draw, strict=True)
        )
        exact[round(value, 9)] += 1
    total = sum(exact.values())
    resamples = 200_000
    draws = draw_task_indices(np.random.default_rng(11), [len(t) for t in tracks], resamples)
    _, index_reps = bootstrap_replicates([np.array([t]) for t in tracks], draws)
    simulated = Counter(np.round(index_reps[0], 9).tolist())
    assert set(simulated) <= set(exact)
    cumulative_exact = cumulative_simulated = 0.0
    for value in sorted(exact):
        cumulative_exact += exact[value] / total
        cumulative_simulated += simulated[value] / resamples
        assert abs(cumulative_exact - cumulative_simulated) < 0.005  # DKW: P(fail) < 1e-4
    assert float(index_reps.mean()) == pytest.approx(
        sum(v * c for v, c in exact.items()) / total, abs=0.05
    )


@given(cohorts(max_models=2), st.integers(0, 2**32 - 1))
@settings(max_examples=60)
def test_sign_flip_swapping_models_flips_delta_and_keeps_p(tracks, seed):
    if len(tracks[0]) < 2:
        tracks = [[row[0], row[0][::-1]] for row in tracks]
    a_minus_b = [np.array([t[0]]) - np.array([t[1]]) for t in tracks]
    b_minus_a = [-d for d in a_minus_b]
    delta, p = sign_flip_p_values(a_minus_b, np.random.default_rng(seed), 200)
    delta_swapped, p_swapped = sign_flip_p_values(b_minus_a, np.random.default_rng(seed), 200)
    assert delta_swapped[0] == -delta[0]
    assert p_swapped[0] == p[0]
    assert 1 / 201 <= p[0] <= 1
    expected = oracle_index(tracks, 0) - oracle_index(tracks, 1)
    assert delta[0] == pytest.approx(expected, abs=1e-9)


def test_sign_flip_p_value_approaches_the_exact_permutation_p_value():
    """Eight tasks: all 2^8 sign patterns enumerated; B = 100,000 random flips agree."""
    differences = [[0.5, -0.25, 1.0], [0.3, 0.1], [0.4, -0.2], [1.0]]
    observed = sum(w * statistics.fmean(d) for w, d in zip(WEIGHTS, differences, strict=True))
    flat = [(k, x) for k, d in enumerate(differences) for x in d]
    extreme = 0
    for signs in itertools.product((1, -1), repeat=len(flat)):
        sums = [0.0] * 4
        for s, (k, x) in zip(signs, flat, strict=True):
            sums[k] += s * x
        value = sum(w * s / len(d) for w, s, d in zip(WEIGHTS, sums, differences, strict=True))
        extreme += abs(value) >= abs(observed) - 1e-9
    exact = extreme / 2 ** len(flat)
    _, p = sign_flip_p_values(
        [np.array([d]) for d in differences], np.random.default_rng(5), 100_000
    )
    assert p[0] == pytest.approx(exact, abs=0.005)


@given(st.lists(st.floats(0.0, 1.0), max_size=12))
def test_holm_equals_its_definition(p_values):
    m = len(p_values)
    ranked = sorted(range(m), key=lambda i: p_values[i])
    expected = [0.0] * m
    running = 0.0
    for k, i in enumerate(ranked):
        running = max(running, min(1.0, (m - k) * p_values[i]))
        expected[i] = running
    assert holm_adjust(p_values).tolist() == pytest.approx(expected)


@given(
    st.lists(st.floats(0, 100).map(lambda x: round(x, 1)), min_size=1, max_size=6),
    st.data(),
)
def test_rank_intervals_contain_the_point_rank_and_groups_partition(index, data):
    names = [f"m{i}" for i in range(len(index))]
    order = sorted(range(len(index)), key=lambda i: (-index[i], names[i]))
    pairs = [(a, b) for k, a in enumerate(order) for b in order[k + 1 :]]
    p_holm = [data.draw(st.floats(0, 1)) for _ in pairs]
    delta = [index[a] - index[b] for a, b in pairs]
    intervals = rank_intervals(len(index), pairs, delta, p_holm, 0.05)
    for i, (best, worst) in enumerate(intervals):
        rank = 1 + sum(other > index[i] for other in index)
        assert 1 <= best <= rank <= worst <= len(index)
    groups = group_ties(order, intervals)
    assert sorted(i for g in groups for i in g) == list(range(len(index)))
    assert groups[0][0] == order[0]


def test_t_interval_uses_the_t_quantile():
    low, high = t_interval(np.array([10.0]), np.array([1.0]), np.array([10.0]), 0.95)
    assert high[0] - 10.0 == pytest.approx(2.2281388519649385)
    low, high = t_interval(np.array([10.0]), np.array([2.0]), np.array([1e9]), 0.90)
    assert high[0] - 10.0 == pytest.approx(2 * 1.6448536269514722, rel=1e-6)


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
