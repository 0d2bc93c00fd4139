"""Track and index intervals (`tcsexam_lib.stats.intervals`) against oracles written here.

The oracles solve each defining equation directly (a quadratic for Wilson, bisection on
Hall's transformation, scipy's t quantiles for MOVER), never with the kit's code.
"""

from __future__ import annotations

import math
import statistics

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from tcsexam_lib.stats.intervals import (
    index_interval,
    moment_degrees_of_freedom,
    stratified_standard_error,
    track_intervals,
    track_moments,
    wilson_interval,
)

WEIGHTS = (30, 30, 30, 10)  # P, S, C, O
LEVEL = 0.95


def _oracle_wilson(p: float, n: float, z: float) -> tuple[float, float]:
    """The two roots in pi of (p - pi)^2 = z^2 pi (1 - pi) / n."""
    a = 1 + z * z / n
    b = -(2 * p + z * z / n)
    c = p * p
    roots = np.roots([a, b, c])
    return float(min(roots.real)), float(max(roots.real))


@pytest.mark.parametrize(
    "p, n, z", [(0.3, 5, 1.96), (0.5, 8.5, 2.4), (0.9, 20, 1.96), (0.0, 5, 2.0)]
)
def test_wilson_solves_the_score_equation(p, n, z):
    low, high = wilson_interval(np.array(p), n, z)
    expected = _oracle_wilson(p, n, z)
    assert (float(low), float(high)) == pytest.approx(expected, abs=1e-12)


def test_moment_degrees_of_freedom_formula():
    x = np.array([0.1, 0.4, 0.2, 2.5, 0.3, 0.1])
    n = len(x)
    m2 = float(np.mean((x - x.mean()) ** 2))
    m4 = float(np.mean((x - x.mean()) ** 4))
    s2 = statistics.variance(x.tolist())
    expected = 2 * s2 * s2 / ((m4 - m2 * m2 * (n - 3) / (n - 1)) / n)
    assert float(moment_degrees_of_freedom(np.array(m2), np.array(m4), n)) == pytest.approx(
        min(max(expected, 1), n - 1)
    )
    normal = np.random.default_rng(0).standard_normal(200_000)
    m2, m4 = normal.var(), np.mean((normal - normal.mean()) ** 4)
    assert float(moment_degrees_of_freedom(np.array(m2), np.array(m4), 30)) == 29.0


# --- which interval a track gets -----------------------------------------------------------

#: name: (track position, task means of one model, the method, the clipped interval or None)
TRACK_CASES = {
    "five theorems, none solved": (0, [0, 0, 0, 0, 0], "clopper-pearson", (0.0, 0.5218)),
    "five theorems, all solved": (0, [1, 1, 1, 1, 1], "clopper-pearson", (0.4782, 1.0)),
    "conjecture 2 of 5": (3, [0, 1, 0, 1, 0], "clopper-pearson", (0.0527, 0.8534)),
    "one theorem task": (0, [1], "clopper-pearson", (0.025, 1.0)),
    "solver scores all 0": (1, [0, 0, 0, 0, 0], "clopper-pearson", (0.0, 0.5218)),
    "solver scores all 0.5": (1, [0.5, 0.5, 0.5, 0.5], "wilson-effective-n", None),
    "solver with spread": (1, [0.2, 0.4, 0.5, 0.3, 0.6], "wilson-effective-n", None),
    "theorem, fractional means": (0, [1, 2 / 3, 0, 1, 1 / 3], "wilson-effective-n", None),
    "construction with spread": (2, [1.0, 1.2, 0.8, 1.1, 0.9], "hall-skewness-corrected-t", None),
    "construction all 0": (2, [0, 0, 0, 0, 0], "wilson-no-spread", None),
    "construction all 1.5": (2, [1.5, 1.5, 1.5], "wilson-no-spread", None),
}


@pytest.mark.parametrize("case", TRACK_CASES, ids=list(TRACK_CASES))
def test_track_interval_rule(case):
    position, means, method, expected = TRACK_CASES[case]
    values = [np.array([[0.5, 0.7]])] * 4
    values[position] = np.array([means], dtype=float)
    moments = track_moments(values)
    out = track_intervals(values, moments, LEVEL)
    low, high = out.clipped()
    assert out.method_names()[0, position] == method
    interval = float(low[0, position]), float(high[0, position])
    assert interval[0] < interval[1], "never a zero-width interval"
    assert interval[0] <= float(np.mean(means)) <= interval[1]
    if expected is not None:
        assert interval == pytest.approx(expected, abs=1e-4)
    if method == "wilson-no-spread":  # rewards at most max(1, c): c / U out of n, Wilson
        bound = max(1.0, means[0])
        q = scipy_stats.t.ppf(0.975, len(means) - 1)
        oracle = _oracle_wilson(means[0] / bound, len(means), q)
        assert interval == pytest.approx((oracle[0] * bound, oracle[1] * bound), abs=1e-9)


@pytest.mark.parametrize(
    "means, reach",
    [
        ([0.0, 1.0, 0.0, 1.0, 0.6], (False, False)),
        ([0.2, 0.4, 0.5, 0.3, 0.6, 0.1, 0.7, 0.45], (True, True)),
        ([0.91, 0.93, 0.95, 0.92, 0.94], (True, True)),
        ([0.2] * 39 + [0.3], (True, True)),
    ],
    ids=["near-binary", "spread", "near-a-bound", "many-tasks"],
)
def test_wilson_effective_n_uses_the_task_spread(means, reach):
    """``n* = p (1 - p) / se^2``, each end at least as far as the undrawn share ``r`` of
    tasks at the far bound takes the mean: five solver scores of 0.91 to 0.95 give
    ``n* = 1,302``, a Wald interval that no failure can reach: both ends are set by ``r``."""
    n = len(means)
    values = [np.array([[0.0, 1.0]]), np.array([means]), np.array([[1.0, 1.0]])] + [
        np.array([[0.0, 1.0]])
    ]
    out = track_intervals(values, track_moments(values), LEVEL)
    p, se = statistics.fmean(means), statistics.stdev(means) / math.sqrt(n)
    n_star = p * (1 - p) / se**2
    q = float(out.quantile[0, 1])
    assert q == pytest.approx(scipy_stats.t.ppf(0.975, float(out.df[0, 1])))
    low, high = _oracle_wilson(p, n_star, q)
    r = 1 - ((1 - LEVEL) / 2) ** (1 / n)
    assert (p * (1 - r) < low, p + r * (1 - p) > high) == reach
    expected = (min(low, p * (1 - r)), max(high, p + r * (1 - p)))
    assert (float(out.low[0, 1]), float(out.high[0, 1])) == pytest.approx(expected, abs=1e-12)


def test_construction_of_one_task_has_no_interval():
    values = [np.array([[1.0, 0.0]]), np.array([[0.3, 0.5]]), np.array([[1.2]]), np.array([[1.0]])]
    out = track_intervals(values, track_moments(values), LEVEL)
    assert np.isnan(out.low[0, 2]) and out.method_names()[0, 2] == "none"
    assert out.method_names()[0, 3] == "clopper-pearson"  # a bounded track needs no spread


def test_index_interval_is_mover_welch():
    """Each side: half-widths / their quantile as standard errors, summed with the weights."""
    rng = np.random.default_rng(3)
    values = [
        (rng.random((3, 8)) < 0.6).astype(float),
        rng.random((3, 8)),
        rng.lognormal(0, 0.5, (3, 8)),
        np.zeros((3, 8)),
    ]
    moments = track_moments(values)
    tracks = track_intervals(values, moments, LEVEL)
    index = moments.mean @ np.array(WEIGHTS, dtype=float)
    low, high, _, _ = index_interval(index, tracks, moments, LEVEL)
    for model in range(3):
        ends = []
        for side in (0, 1):
            terms, denominator = [], 0.0
            for t, w in enumerate(WEIGHTS):
                mean = moments.mean[model, t]
                half = mean - tracks.low[model, t] if side == 0 else tracks.high[model, t] - mean
                q = scipy_stats.t.ppf(0.975, tracks.df[model, t])
                terms.append((w * half / q) ** 2)
                denominator += terms[-1] ** 2 / tracks.df[model, t]
            df = sum(terms) ** 2 / denominator
            ends.append(scipy_stats.t.ppf(0.975, df) * math.sqrt(sum(terms)))
        assert low[model] == pytest.approx(max(0.0, index[model] - ends[0]), rel=1e-11)
        assert high[model] == pytest.approx(index[model] + ends[1], rel=1e-11)


score = st.one_of(st.sampled_from([0.0, 1.0]), st.floats(0.0, 2.0).map(lambda x: round(x, 3)))


@given(st.lists(st.lists(score, min_size=2, max_size=6), min_size=4, max_size=4))
def test_index_se_equals_the_straightforward_formula(tracks):
    values = [np.array([t]) for t in tracks]
    moments = track_moments(values)
    se = stratified_standard_error(moments.sd, moments.n)
    terms = [w**2 * statistics.variance(t) / len(t) for w, t in zip(WEIGHTS, tracks, strict=True)]
    assert float(se[0]) == pytest.approx(math.sqrt(sum(terms)), rel=1e-9, abs=1e-12)


def test_a_model_without_a_point_has_an_index_interval():
    """Every task of every track scored 0: the low side ends at the index (0), the high
    side reaches up; the interval is not null (each track's own interval is [0, x])."""
    values = [np.zeros((1, 5))] * 4
    moments = track_moments(values)
    tracks = track_intervals(values, moments, LEVEL)
    low, high, df_low, _ = index_interval(np.zeros(1), tracks, moments, LEVEL)
    assert float(low[0]) == 0.0 and float(high[0]) > 20.0 and np.isnan(df_low[0])


@pytest.mark.parametrize(
    "rewards", [[0.0, 0.8, 1.0, 1.2, 0.9], [0.2, 0.3, 0.25, 3.5, 0.4, 0.3], [1.0, 1.1, 0.9, 1.05]]
)
def test_construction_lengthens_the_right_side_by_the_skewness_or_the_variation(rewards):
    """A zero among moderate rewards looks left-skewed (G1 < 0): the right side still
    reaches as far as a skewness of twice the coefficient of variation takes it; the left
    side is the t side. Oracle: Hall's g solved by bisection, G from its definition."""
    n = len(rewards)
    values = [np.array([[0.0, 1.0]]), np.array([[0.3, 0.5]]), np.array([rewards])]
    values.append(np.array([[0.0, 1.0]]))
    out = track_intervals(values, track_moments(values), LEVEL)
    mean, s = statistics.fmean(rewards), statistics.stdev(rewards)
    m2 = sum((x - mean) ** 2 for x in rewards) / n
    m3 = sum((x - mean) ** 3 for x in rewards) / n
    g1 = m3 / m2**1.5 * math.sqrt(n * (n - 1)) / (n - 2)
    skew = max(g1, 2 * s / mean) / math.sqrt(n)
    q = scipy_stats.t.ppf(0.975, float(out.df[0, 2]))
    grid = np.linspace(0.0, skew, 2001)  # the longest reach over skewness 0 to A

    def reach(a: float) -> float:
        g = lambda t: t + a * t * t / 3 + a * a * t**3 / 27 + a / 6  # noqa: E731
        low, high = -1e4, 0.0
        for _ in range(200):
            middle = (low + high) / 2
            low, high = (middle, high) if g(middle) < -q else (low, middle)
        return -low

    longest = max(reach(a) for a in grid[::50].tolist() + [skew])
    se = s / math.sqrt(n)
    assert float(out.low[0, 2]) == pytest.approx(mean - q * se, rel=1e-9)
    assert float(out.high[0, 2]) == pytest.approx(mean + longest * se, rel=1e-4)
