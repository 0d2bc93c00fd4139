"""Paired tests, Holm, rank intervals, the leader group and tie groups (`stats.pairs`).

The pairs' figures are checked against a plain-Python recomputation from their
definitions, the one-way Hall statistic by a numerical search over the skewness (scipy),
the 0/1 floor against the exact sign test; the rank claims against their definitions on
random cohorts (hypothesis), and against the issue's leaderboard of 60 models.
"""

from __future__ import annotations

import itertools
import math
import statistics

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from tcsexam_lib.stats import analyse_cohort
from tcsexam_lib.stats.pairs import holm_adjust, tie_groups
from tcsexam_lib.vocab import TRACKS

WEIGHTS = (30, 30, 30, 10)
PASS_FAIL = (True, False, False, True)  # theorem and conjecture: every attempt is 0 or 1


def _oracle_pair(a: list[list[float]], b: list[list[float]], level: float) -> dict[str, float]:
    """The pair's figures from their definitions in plain Python: every sign pattern of
    its parts ``W_t / n_t * d`` counted one by one."""
    parts, variance = [], 0.0
    for w, xa, xb in zip(WEIGHTS, a, b, strict=True):
        d = [x - y for x, y in zip(xa, xb, strict=True)]
        parts += [w / len(d) * x for x in d]
        variance += w * w * statistics.variance(d) / len(d)
    observed = abs(math.fsum(parts))
    reach = 0
    for signs in itertools.product((1, -1), repeat=len(parts)):
        total = abs(math.fsum(s * abs(x) for s, x in zip(signs, parts, strict=True)))
        reach += total >= observed - 1e-9 * math.fsum(map(abs, parts))
    p = reach / 2 ** len(parts) if observed > 1e-9 * math.fsum(map(abs, parts)) else 1.0
    spread = math.sqrt(math.fsum(x * x for x in parts))
    half = scipy_stats.norm.ppf(0.5 + level / 2) * spread
    half = max(half, observed) if p > 1 - level else min(half, observed)
    return {"se": math.sqrt(variance), "p": p, "half": half}


@pytest.mark.parametrize("attempts", [1, 3])
def test_pair_figures_equal_their_definitions(attempts):
    rng = np.random.default_rng(11)
    values = [
        rng.binomial(attempts, 0.5, (3, 4)) / attempts,
        rng.random((3, 4)),
        rng.lognormal(0, 0.7, (3, 4)) * (rng.random((3, 4)) > 0.3),
        rng.binomial(attempts, 0.3, (3, 4)) / attempts,
    ]
    out = analyse_cohort(values, names=["x", "y", "z"])
    got = out.pairs
    assert got.exact.all()
    n_tests = 3
    reach = scipy_stats.norm.isf(0.05 / (2 * n_tests)) + scipy_stats.norm.ppf(0.8)
    for k in range(len(got)):
        a, b = int(got.first[k]), int(got.second[k])
        expected = _oracle_pair(
            [v[a].tolist() for v in values], [v[b].tolist() for v in values], 0.95
        )
        assert got.se[k] == pytest.approx(expected["se"], rel=1e-12)
        assert got.p_value[k] == pytest.approx(expected["p"], rel=1e-12)
        half = (got.ci_high[k] - got.ci_low[k]) / 2
        assert half == pytest.approx(expected["half"], rel=1e-9)
        assert got.mdd[k] == pytest.approx(reach * expected["se"], rel=1e-9)


def test_p_values_do_not_depend_on_the_level():
    rng = np.random.default_rng(5)
    values = [
        (rng.random((5, 8)) < 0.5).astype(float),
        rng.random((5, 8)),
        rng.lognormal(0, 1.0, (5, 8)) * (rng.random((5, 8)) > 0.3),
        (rng.random((5, 8)) < 0.3).astype(float),
    ]
    runs = [analyse_cohort(values, level=level) for level in (0.9, 0.95, 0.99)]
    for other in runs[1:]:
        assert other.pairs.p_value.tolist() == runs[0].pairs.p_value.tolist()
        assert other.pairs.p_holm.tolist() == runs[0].pairs.p_holm.tolist()
    widths = [r.pairs.ci_high - r.pairs.ci_low for r in runs]
    assert np.all(widths[0] < widths[1]) and np.all(widths[1] < widths[2])


def test_the_interval_is_the_set_the_test_does_not_reject():
    """0 lies outside the pair's interval exactly when its p-value is at most 1 - level."""
    rng = np.random.default_rng(8)
    for _ in range(20):
        values = [rng.random((6, 5)) ** 3, rng.random((6, 5)), rng.lognormal(0, 1, (6, 5)),
                  (rng.random((6, 5)) < 0.5).astype(float)]  # fmt: skip
        for level in (0.9, 0.95):
            out = analyse_cohort(values, level=level).pairs
            outside = (out.ci_low > 0) | (out.ci_high < 0)
            clear = np.abs(out.p_value - (1 - level)) > 1e-9
            assert np.array_equal(outside[clear], (out.p_value <= 1 - level)[clear])


SPLITS = [
    (n, b, c) for n in (5, 8, 20) for b in range(1, n + 1) for c in range(b) if b + c <= min(n, 12)
]


def test_a_0_1_track_alone_is_the_exact_sign_test():
    """``b`` tasks solved by one model only and ``c`` by the other, every other task and
    track the same: the p-value is the exact two-sided sign test's, never 0."""
    for n, b, c in SPLITS:
        theorem = np.zeros((2, n))
        theorem[0, :b] = theorem[1, b : b + c] = 1.0
        same = [np.tile(np.linspace(0.2, 0.8, n), (2, 1))] * 2 + [np.zeros((2, n))]
        p = analyse_cohort([theorem, *same]).pairs.p_value[0]
        assert p == pytest.approx(scipy_stats.binomtest(b, b + c).pvalue, rel=1e-12)


def test_one_more_attempt_passed_on_every_task_is_not_certain():
    """Three attempts a task: one model passes one attempt more than the other on each of
    five theorems, all else equal: the same two patterns of 32 as 5 of 5."""
    theorem = np.array([[2 / 3] * 5, [1 / 3] * 5])
    same = [np.tile([0.3, 0.5, 0.7, 0.4, 0.6], (2, 1))] * 2 + [np.zeros((2, 5))]
    out = analyse_cohort([theorem, *same])
    assert out.pairs.p_value[0] == 0.0625
    assert not out.pairs.significant[0]


def test_five_of_five_against_none_is_not_called_different():
    theorem = np.array([[1.0] * 5, [0.0] * 5])
    same = [np.tile([0.3, 0.5, 0.7, 0.4, 0.6], (2, 1))] * 2 + [np.tile([0, 1, 0, 0, 1.0], (2, 1))]
    for level in (0.9, 0.95, 0.99):
        out = analyse_cohort([theorem, *same], level=level)
        assert out.pairs.p_value[0] == 0.0625  # the exact sign test
        different = level == 0.9  # 0.0625 <= 0.10
        assert out.pairs.significant[0] == different
        assert (out.pairs.ci_low[0] > 0) == different and out.pairs.ci_high[0] > 0
        assert out.tie_groups == ([[0], [1]] if different else [[0, 1]])


@pytest.mark.parametrize(
    "a, b, expected",
    [  # the issue's five cases: one or two tracks differ, five tasks each
        ({"solver": [1, 1, 1, 1, 1]}, {"solver": [0, 0, 0, 0, 0.01]}, 0.0625),
        ({"solver": [0.51] * 5}, {"solver": [0.5] * 5}, 0.0625),
        ({"construction": [1.25] * 5}, {"construction": [1.0] * 5}, 0.0625),
        ({"theorem": [1] * 5}, {"theorem": [0] * 5}, 0.0625),
        ({"theorem": [1] * 5, "conjecture": [1] * 5},
         {"theorem": [0] * 5, "conjecture": [0] * 5}, 2 / 1024),
    ],
)  # fmt: skip
def test_a_lead_on_few_tasks_is_never_certain(a, b, expected):
    base = {"theorem": [0, 1, 0, 1, 0], "solver": [0.2, 0.4, 0.6, 0.8, 0.3],
            "construction": [0.5, 1.5, 0.7, 0.9, 1.1], "conjecture": [1, 0, 0, 0, 0]}  # fmt: skip
    values = [np.array([{**base, **a}[t], {**base, **b}[t]], dtype=float) for t in TRACKS]
    out = analyse_cohort(values)
    assert out.pairs.p_value[0] == pytest.approx(expected, rel=1e-12)
    assert out.pairs.significant[0] == (expected < 0.05)


def test_identical_and_constant_differences():
    """Same task means: delta 0, ci [0, 0], p 1; the same lead on every solver and
    construction task (the pass/fail tracks the same): the two patterns of one sign."""
    rng = np.random.default_rng(1)
    base = [rng.random(20) for _ in range(4)]
    lead = [0.0, 0.3, 0.3, 0.0]
    values = [np.vstack([b, b, b + s]) for b, s in zip(base, lead, strict=True)]
    out = analyse_cohort(values, names=["x", "y", "z"])
    assert out.order == [2, 0, 1]
    assert out.pairs.delta.round(9).tolist() == [18.0, 18.0, 0.0]
    assert out.pairs.p_value.tolist() == [2.0**-39, 2.0**-39, 1.0]
    assert (out.pairs.ci_low[2], out.pairs.ci_high[2]) == (0.0, 0.0)
    assert out.leader_group == [2] and out.tie_groups == [[2], [0, 1]]
    assert out.rank_ci == [(2, 3), (2, 3), (1, 1)]


def test_holm_separates_the_issue_leaderboard_of_sixty_models():
    """60 models 0.6 points apart on every one of 80 tasks: every pair is separated.

    The sign-flip test of the earlier kit could not go below 1/(B + 1) and separated
    none of the 1,770 pairs; analytic p-values have no such floor.
    """
    rng = np.random.default_rng(60)
    tasks = [rng.uniform(0.2, 0.5, 20) for _ in range(4)]
    step = 0.6 / 100  # 0.6 index points: 0.006 on every track mean (weights sum to 100)
    noise = [rng.normal(0, 1e-4, (60, 20)) for _ in range(4)]
    values = [
        t[None, :] + step * np.arange(60)[:, None] + e for t, e in zip(tasks, noise, strict=True)
    ]
    out = analyse_cohort(values)
    assert len(out.pairs) == 1770 and int(out.pairs.significant.sum()) == 1770
    assert len(out.tie_groups) == 60 and out.leader_group == [59]
    assert all(out.rank_ci[i] == (60 - i, 60 - i) for i in range(60))


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


def test_holm_gives_equal_p_values_one_value_whatever_their_order():
    """holm_adjust sorts without keeping the order of ties: the bits may not depend on it."""
    rng = np.random.default_rng(7)
    p_values = rng.integers(0, 20, 5000) / 20.0  # every value tied with about 250 others
    p_values[::13] = np.nan
    adjusted = holm_adjust(p_values)
    for _ in range(3):
        order = rng.permutation(p_values.size)
        assert holm_adjust(p_values[order]).tobytes() == adjusted[order].tobytes()


@st.composite
def cohorts(draw):
    """Random cohorts: 2 to 7 models, 2 to 6 tasks a track, 0/1 or fractional scores."""
    n_models = draw(st.integers(2, 7))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    ability = rng.normal(0, draw(st.sampled_from([0.0, 0.3, 1.0, 3.0])), n_models)
    values = []
    for track in range(4):
        n = draw(st.integers(2, 6))
        if track in (0, 3):
            p = 1 / (1 + np.exp(-(ability[:, None] + rng.normal(0, 1, n))))
            values.append((rng.random((n_models, n)) < p).astype(float))
        else:
            top = 1.0 if track == 1 else 2.0  # solver in [0, 1], construction rewards >= 0
            centre = 0.5 + 0.2 * ability[:, None] + rng.normal(0, 0.2, (n_models, n))
            values.append(np.clip(centre, 0, top))
    return values


@settings(max_examples=150)
@given(cohorts())
def test_rank_claims_never_contradict_the_tests(values):
    out = analyse_cohort(values)
    m = len(out.order)
    ahead = {
        (int(a), int(b))
        for a, b, s in zip(out.pairs.first, out.pairs.second, out.pairs.significant, strict=True)
        if s
    }
    position = {row: k for k, row in enumerate(out.order)}
    # tie groups: the longest consecutive runs of the ranking holding no separated pair
    runs = [[position[row] for row in group] for group in out.tie_groups]
    covered = set()
    for run in runs:
        assert run == list(range(run[0], run[-1] + 1)), "a run of consecutive positions"
        assert not any(a in run and b in run for a, b in ahead_positions(ahead, position))
        for extra in (run[0] - 1, run[-1] + 1):  # one more model on either side: a pair
            if 0 <= extra < m:
                wider = set(run) | {extra}
                assert any(a in wider and b in wider for a, b in ahead_positions(ahead, position))
        covered |= set(run)
    assert covered == set(range(m)) and [r[0] for r in runs] == sorted(r[0] for r in runs)
    assert len({tuple(r) for r in runs}) == len(runs)
    # leader group: exactly the models nobody is significantly ahead of, in rank order
    expected_leaders = [row for row in out.order if not any(b == row for _, b in ahead)]
    assert out.leader_group == expected_leaders and out.order[0] in out.leader_group
    for row in range(m):
        behind_of = sum(1 for a, b in ahead if b == row)  # models significantly ahead of row
        ahead_of = sum(1 for a, b in ahead if a == row)
        best, worst = out.rank_ci[row]
        assert best == 1 + behind_of and worst == m - ahead_of
        assert best <= out.ranks[row] <= worst
        marginal_best, marginal_worst = out.rank_ci_marginal[row]
        assert best <= marginal_best <= out.ranks[row] <= marginal_worst <= worst
        assert position[row] + 1 >= best


def ahead_positions(ahead: set[tuple[int, int]], position: dict[int, int]) -> list[tuple[int, int]]:
    """The significant pairs as rank positions."""
    return [(position[a], position[b]) for a, b in ahead]


@given(st.integers(1, 9), st.integers(0, 2**32 - 1), st.floats(0.0, 0.6))
def test_tie_groups_read_the_same_from_either_end(n, seed, density):
    """Reversing the ranking (and who is ahead of whom) reverses the groups, nothing else."""
    rng = np.random.default_rng(seed)
    ahead = np.triu(rng.random((n, n)) < density, k=1)
    forward = tie_groups(ahead)
    backward = tie_groups(ahead[::-1, ::-1].T)
    assert sorted(sorted(n - 1 - p for p in g) for g in backward) == sorted(forward)


def test_a_model_between_two_separated_ones_is_tied_with_both():
    """Only A is significantly ahead of C: B is tied with each (the issue's example)."""
    ahead = np.zeros((3, 3), dtype=bool)
    ahead[0, 2] = True
    assert tie_groups(ahead) == [[0, 1], [1, 2]]
    assert tie_groups(np.zeros((0, 0), dtype=bool)) == []
    assert tie_groups(np.ones((1, 1), dtype=bool)) == [[0]]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 7), st.permutations(list(range(7))))
def test_names_and_order_change_no_rank_claim(seed, n_models, shuffle):
    """Exact-index twins (a model and its copy, and a model whose tasks are the copy's in
    another order) in a cohort: renamed and reordered, the tie groups, leader group and
    rank intervals are the same sets of models."""
    rng = np.random.default_rng(seed)
    values = [
        (rng.random((n_models, 5)) < rng.random((n_models, 1))).astype(float),
        rng.random((n_models, 5)),
        rng.gamma(1.0, 1.0, (n_models, 5)),
        (rng.random((n_models, 5)) < 0.5).astype(float),
    ]
    for v in values:
        v[1] = v[0]  # an exact twin
        v[2] = v[0][::-1]  # the same index, other tasks
    names = [f"m{k}" for k in range(n_models)]
    order = [k for k in shuffle if k < n_models]
    renamed = {old: f"z{n_models - k}" for k, old in enumerate(names)}  # reverses name order

    def claims(rows, labels):
        out = analyse_cohort([v[rows] for v in values], names=labels)
        model = [names[r] for r in rows]
        return (
            sorted(sorted(model[i] for i in g) for g in out.tie_groups),
            sorted(model[i] for i in out.leader_group),
            {model[i]: out.rank_ci[i] for i in range(len(rows))},
        )

    first = claims(list(range(n_models)), names)
    assert claims(order, [renamed[names[r]] for r in order]) == first
