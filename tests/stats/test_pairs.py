"""Paired tests, Holm, rank intervals, the leader group and tie groups (`stats.pairs`).

The p-values are checked against a plain-Python recomputation with scipy's t
distribution; the rank claims against their definitions on random cohorts
(hypothesis), and against the issue's leaderboard of 60 models.
"""

from __future__ import annotations

import math
import statistics

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from tcsexam_lib.stats import analyse_cohort
from tcsexam_lib.stats.pairs import holm_adjust

WEIGHTS = (30, 30, 30, 10)
Z = scipy_stats.norm.ppf(0.975)


def _oracle_pair(a: list[list[float]], b: list[list[float]], delta: float) -> dict[str, float]:
    """The pair's figures from their definitions, one track at a time, in plain Python."""
    variance, cumulant, denominator = 0.0, 0.0, 0.0
    for w, xa, xb in zip(WEIGHTS, a, b, strict=True):
        d = [x - y for x, y in zip(xa, xb, strict=True)]
        n = len(d)
        mean = statistics.fmean(d)
        m2 = sum((x - mean) ** 2 for x in d) / n
        m3 = sum((x - mean) ** 3 for x in d) / n
        m4 = sum((x - mean) ** 4 for x in d) / n
        s2 = statistics.variance(d)
        var_s2 = (m4 - m2 * m2 * (n - 3) / (n - 1)) / n
        df = n - 1 if var_s2 <= 0 else min(max(2 * s2 * s2 / var_s2, 1), n - 1)
        term = w * w * s2 / n
        variance += term
        denominator += term * term / df if term > 0 else 0.0
        cumulant += w**3 * m3 * n * n / ((n - 1) * (n - 2)) / n**2
    se = math.sqrt(variance)
    skew = cumulant / se**3
    adjusted = se * (1 + skew * skew * (Z**4 + 2 * Z * Z - 3) / 18)
    df = variance**2 / denominator
    p = 2 * scipy_stats.t.sf(abs(delta) / adjusted, df)
    half = scipy_stats.t.ppf(0.975, df) * adjusted
    return {
        "se": se,
        "se_adjusted": adjusted,
        "df": df,
        "p": p,
        "low": delta - half,
        "high": delta + half,
    }


def test_pair_figures_equal_their_definitions():
    rng = np.random.default_rng(11)
    values = [
        (rng.random((3, 6)) < 0.5).astype(float),
        rng.random((3, 6)),
        rng.lognormal(0, 0.7, (3, 6)) * (rng.random((3, 6)) > 0.3),
        (rng.random((3, 6)) < 0.3).astype(float),
    ]
    out = analyse_cohort(values, names=["x", "y", "z"])
    for k in range(len(out.pairs)):
        a, b = int(out.pairs.first[k]), int(out.pairs.second[k])
        expected = _oracle_pair(
            [v[a].tolist() for v in values], [v[b].tolist() for v in values], out.pairs.delta[k]
        )
        got = out.pairs
        assert got.se[k] == pytest.approx(expected["se"], rel=1e-12)
        assert got.se_adjusted[k] == pytest.approx(expected["se_adjusted"], rel=1e-12)
        assert got.df[k] == pytest.approx(expected["df"], rel=1e-12)
        assert got.p_value[k] == pytest.approx(expected["p"], rel=1e-10)
        assert (got.ci_low[k], got.ci_high[k]) == pytest.approx(
            (expected["low"], expected["high"]), rel=1e-11
        )
        reach = scipy_stats.t.isf(0.05 / (2 * 3), expected["df"]) + scipy_stats.t.ppf(
            0.8, expected["df"]
        )
        assert got.mdd[k] == pytest.approx(reach * expected["se_adjusted"], rel=1e-10)


def test_identical_and_constant_differences():
    """Same task means: delta 0, ci [0, 0], p 1; the same lead on every task: p 0."""
    rng = np.random.default_rng(1)
    base = [rng.random(20) for _ in range(4)]
    out = analyse_cohort([np.vstack([b, b, b + 0.3]) for b in base], names=["x", "y", "z"])
    assert out.order == [2, 0, 1]
    assert out.pairs.delta.round(9).tolist() == [30.0, 30.0, 0.0]
    assert out.pairs.p_value.tolist() == [0.0, 0.0, 1.0]
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
    # tie groups: consecutive runs of the ranking, none holding a separated pair
    assert [row for group in out.tie_groups for row in group] == out.order
    for group in out.tie_groups:
        assert not any(a in group and b in group for a, b in ahead)
    for earlier, later in zip(out.tie_groups, out.tie_groups[1:], strict=False):
        assert any((a, later[0]) in ahead for a in earlier), "a group starts where a test says so"
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
