"""Paired comparisons of models, Holm's adjustment, and the rank claims built on them.

Two models answered the same tasks, so they are compared task by task: per track, ``d``
is the task mean of model a minus that of model b; their ``delta`` is the index of a
minus the index of b (the weighted sum of the track means of ``d``).

**The test** (null hypothesis: the two models have the same expected index over the
task pool, *equal means*; their scores may differ in shape): a Welch–Satterthwaite
t-test on the stratified mean of the per-task differences,
``se = sqrt(sum_t W_t^2 s_t^2 / n_t)`` with ``s_t`` the standard deviation (ddof 1) of
``d`` in track ``t``, ``df`` the Welch–Satterthwaite combination of the tracks' ``n_t -
1``, and two safeguards for scores far from normal:

- **a floor on pass/fail tracks.** On theorem and conjecture (every attempt scores 0
  or 1), and on any track where both models' task means are all 0 or 1, where the two
  models differ on some task, ``s_t^2`` is computed as if one more task had gone each
  way by as much as the largest difference seen, ``D = max |d|`` (1 with one attempt a
  task): the pseudo differences ``+D`` and ``-D`` add their squared deviations from the
  observed mean difference to the sum of squares, not to its ``n_t - 1`` degrees of
  freedom (``s_t^2 + 2 (D^2 + dbar_t^2) / (n_t - 1)``). Without it, 5 of 5 theorems
  against 0 of 5 has no spread and gives ``p = 0``; with it, ``p = 0.089`` on that
  track alone (the exact sign test: 0.0625), and with one attempt a task the test
  follows the exact sign test within a factor 1.5 up to 12 discordant tasks
  (docs/uncertainty.md); with three attempts, one model passing one more attempt on
  every task is the same case scaled by 1/3 (``p = 0.089``, not 0). Two models with the
  same results on the track keep ``s_t = 0``. These tracks add no third cumulant: the
  difference of two pass/fail results with equal means is symmetric;
- **Hall's skewness correction, one way** (:mod:`.skewness`): with ``A = sum_t W_t^3
  k3_t / n_t^2 / se^3`` (``k3_t`` the unbiased third cumulant of ``d``) and ``T =
  delta / se``, the p-value is ``P(|T_df| >= S)`` where ``S`` is ``|T|`` when ``T`` is on
  the short side of the skewed distribution, and Hall's transformation of ``T``
  (smaller) when it is on the long side. It is evaluated at the observed ``T``, so the
  p-value does not depend on the level it is compared with; the interval is the set of
  differences the test does not reject: ``delta -+ t(1 - alpha/2, df) se`` on one side
  and the longer Hall end on the other.

A pair whose differences are the same on every task and track (no floor applies) has
``se = 0``: ``p = 1`` when ``delta = 0`` (identical task means, ``ci [0, 0]``), else
``p = 0``. p-values come from the t distribution (no floor: Holm can separate any
number of pairs).

**The minimum detectable difference** (``mdd``) is the true difference in favour of the
model ranked first that the test would detect with 80 % power at Holm's strictest step
(``alpha / m``, ``m`` pairs): ``se`` times the noncentrality of :func:`noncentrality` at
the reach ``r`` of that step (``t(1 - alpha / (2 m), df)``, or the longer Hall side where
the skewness is negative).

**Holm** adjusts over all pairs (family-wise error at most ``alpha = 1 - level``). From
the Holm-significant pairs ("a is significantly ahead of b"):

- ``rank_ci`` (simultaneous): ``[1 + #models significantly ahead, M - #models
  significantly behind]``; all intervals hold together with probability at least about
  ``level`` (Holm's family-wise error), and they agree with the pairs by construction;
- ``rank_ci_marginal``: the same from Holm over the ``M - 1`` pairs of that model only:
  each interval holds with probability at least about ``level`` on its own (narrower;
  not simultaneous);
- ``leader_group``: the models that no model is significantly ahead of, in rank order
  (the models that could be first);
- ``tie_groups``: the longest runs of consecutive models in the ranking that hold no
  significant pair (each run that no longer run contains); runs may overlap, a model
  between two separated ones belonging to both. They depend on the ranking and the
  tests alone, not on a direction of reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..formulas import WEIGHT_VECTOR
from ..vocab import BINARY_TRACKS, TRACKS
from .distributions import normal_quantile, t_quantile, t_two_sided_p
from .intervals import track_moments, welch_satterthwaite
from .skewness import long_side, one_sided_interval, one_sided_statistic

#: Pairs computed together (bounds the memory of the per-task differences).
PAIR_CHUNK = 32768
#: The power the minimum detectable difference is computed for.
MDD_POWER = 0.8


@dataclass(frozen=True)
class PairTests:
    """One entry per pair, in rank order (``a`` ranked at or above ``b``; arrays ``(P,)``).

    ``first``/``second`` are model rows; ``se`` is the paired standard error (with the
    floor on 0/1 tracks), ``df`` its Welch–Satterthwaite degrees of freedom and
    ``skewness`` the standardised third cumulant ``A`` of ``delta`` that the one-way
    Hall correction uses. NaN where a track has fewer than two tasks.
    """

    first: np.ndarray
    second: np.ndarray
    delta: np.ndarray
    se: np.ndarray
    skewness: np.ndarray
    df: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    p_value: np.ndarray
    p_holm: np.ndarray
    significant: np.ndarray
    mdd: np.ndarray

    def __len__(self) -> int:
        return len(self.delta)


def rank_models(index: Sequence[float], names: Sequence[str]) -> tuple[list[int], list[int]]:
    """Rank order (best first; ties by name) and competition ranks (1 = best) by index.

    Examples
    --------
    >>> rank_models([50.0, 70.0, 50.0], ["b", "c", "a"])
    ([1, 2, 0], [2, 1, 2])
    """
    order = sorted(range(len(names)), key=lambda i: (-index[i], names[i]))
    ascending = np.sort(np.asarray(index, dtype=float))
    above = len(ascending) - np.searchsorted(ascending, np.asarray(index, dtype=float), "right")
    return order, (1 + above).tolist()


def paired_tests(
    values: Sequence[np.ndarray], index: np.ndarray, order: Sequence[int], level: float
) -> PairTests:
    """Every pair's delta, standard error, test, interval and minimum detectable difference.

    Parameters
    ----------
    values : sequence of arrays
        Per track (P, S, C, O order) the task means, shape ``(models, n_t)``.
    index : array
        The published index of each model (gives ``delta``).
    order : sequence of int
        Model rows in rank order; pairs follow it (``a`` before ``b``).
    level : float
        Confidence level of ``ci``; significance at ``1 - level`` after Holm. The
        p-values do not depend on it.

    Examples
    --------
    Model 2 is 0.3 ahead of model 0 on every solver and construction task and the same
    on the pass/fail tracks; model 1 copies model 0:

    >>> import numpy as np
    >>> rng = np.random.default_rng(1)
    >>> base = [(rng.random(20) < 0.5) * 1.0, rng.random(20), rng.random(20), np.zeros(20)]
    >>> lead = [0.0, 0.3, 0.3, 0.0]
    >>> values = [np.vstack([b, b, b + s]) for b, s in zip(base, lead)]
    >>> index = np.array([50.0, 50.0, 68.0])
    >>> out = paired_tests(values, index, [2, 0, 1], 0.95)
    >>> out.delta.tolist(), out.p_value.tolist(), out.significant.tolist()
    ([18.0, 18.0, 0.0], [0.0, 0.0, 1.0], [True, True, False])
    >>> out.ci_low.round(9).tolist(), out.ci_high.round(9).tolist()   # no spread: no width
    ([18.0, 18.0, 0.0], [18.0, 18.0, 0.0])

    Five theorems solved against none, every other task the same: the floor keeps the
    pair from being certain (the exact sign test gives 0.0625):

    >>> same = [np.tile(rng.random(5), (2, 1)) for _ in range(3)]
    >>> values = [np.array([[1.0] * 5, [0.0] * 5]), *same]
    >>> out = paired_tests(values, np.array([30.0, 0.0]) + 10, [0, 1], 0.95)
    >>> out.p_value.round(4).tolist(), out.significant.tolist()
    ([0.089], [False])
    """
    alpha = 1.0 - level
    positions_a, positions_b = np.triu_indices(len(order), k=1)
    rows = np.asarray(order, dtype=int)
    first, second = rows[positions_a], rows[positions_b]
    n_pairs = len(first)
    se, skewness, df = _pair_spreads(values, first, second)
    delta = index[first] - index[second]
    p_value = _p_values(delta, se, skewness, df)
    p_holm = holm_adjust(p_value)
    significant = (p_holm <= alpha) & (delta > 0)
    usable = np.where(np.isnan(df), 1.0, df)
    ci_low, ci_high = one_sided_interval(delta, se, skewness, t_quantile(0.5 + level / 2.0, usable))
    tested = int(np.count_nonzero(~np.isnan(p_value)))
    if tested:
        strictest = t_quantile(None, usable, tail=alpha / (2 * tested))
        # a difference in favour of a (delta >= 0) lies on the long side where A < 0
        reach = np.where(skewness < 0, long_side(skewness, strictest), strictest)
        mdd = se * noncentrality(reach, usable, MDD_POWER)
    else:
        mdd = np.full(n_pairs, np.nan)
    return PairTests(
        first=first,
        second=second,
        delta=delta,
        se=se,
        skewness=skewness,
        df=df,
        ci_low=ci_low,
        ci_high=ci_high,
        p_value=p_value,
        p_holm=p_holm,
        significant=significant,
        mdd=mdd,
    )


def _pair_spreads(
    values: Sequence[np.ndarray], first: np.ndarray, second: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each pair's ``(se, skewness, df)`` of its index difference (``first`` minus
    ``second``), from its task differences, a chunk of pairs at a time."""
    n_pairs = len(first)
    se, skewness, df = (np.empty(n_pairs) for _ in range(3))
    weights = np.asarray(WEIGHT_VECTOR, dtype=float)
    n = np.array([v.shape[-1] for v in values], dtype=float)
    pass_fail = np.array([track in BINARY_TRACKS for track in TRACKS])
    binary = [np.all((v == 0.0) | (v == 1.0), axis=-1) for v in values]  # (models,)
    by_task = [np.ascontiguousarray(v.T) for v in values]  # (n_t, models)
    for start in range(0, n_pairs, PAIR_CHUNK):
        a, b = first[start : start + PAIR_CHUNK], second[start : start + PAIR_CHUNK]
        differences = [v.take(a, axis=1) - v.take(b, axis=1) for v in by_task]
        moments = track_moments(differences, tasks_first=True, moment_df=False)
        floored = np.stack([f[a] & f[b] for f in binary], axis=-1) | pass_fail  # (pairs, 4)
        variance = _floored_variance(moments, differences, floored)
        terms = np.square(weights) * variance / n
        chunk_se = np.sqrt(terms.sum(axis=-1))
        k3 = np.where(floored, 0.0, moments.k3)  # pass/fail: no third cumulant (module docstring)
        with np.errstate(divide="ignore", invalid="ignore"):
            skew = (weights**3 * k3 / n**2).sum(axis=-1) / chunk_se**3
        end = start + len(a)
        se[start:end] = chunk_se
        skewness[start:end] = np.where(chunk_se > 0, skew, 0.0)
        df[start:end] = welch_satterthwaite(terms, moments.df)
    return se, skewness, df


def noncentrality(reach: np.ndarray, df: np.ndarray, power: float) -> np.ndarray:
    """The ``delta / se`` at which a t statistic with ``df`` exceeds ``reach`` with ``power``.

    The normal approximation to the noncentral t of Abramowitz & Stegun 26.7.10,
    ``P(t' <= r) ~ Phi((r (1 - 1/(4 df)) - delta) / sqrt(1 + r^2 / (2 df)))``, solved for
    ``delta``: ``r (1 - 1/(4 df)) + z sqrt(1 + r^2 / (2 df))``, ``z`` the normal quantile
    of ``power``. Against the exact noncentral t (scipy), the power it gives is 80.0 to
    80.8 % for 3 to 200 degrees of freedom and reaches of 2.8 to 8 (test); the plain
    ``r + t(0.8, df)`` gave 70 to 80 %: the estimated standard error varies too.

    Examples
    --------
    >>> import numpy as np
    >>> noncentrality(np.array([1.96, 3.5]), np.array([1e9, 8.0]), 0.8).round(3).tolist()
    [2.802, 4.509]
    """
    z = normal_quantile(power)
    return reach * (1.0 - 0.25 / df) + z * np.sqrt(1.0 + reach * reach / (2.0 * df))


def _floored_variance(
    moments, differences: Sequence[np.ndarray], floored: np.ndarray
) -> np.ndarray:
    """``s_t^2`` of the differences, with one pseudo task each way on pass/fail tracks.

    Where ``floored`` (pairs, tracks) and the pair differs on some task of the track (a
    spread or a non-zero mean), ``2 (D^2 + dbar^2) / (n_t - 1)`` is added, ``D`` the
    largest ``|d|`` of the track: the squared deviations of ``+D`` and ``-D`` from the
    observed mean difference ``dbar``, over the track's own degrees of freedom.
    """
    variance = np.square(moments.sd)
    for k in range(variance.shape[-1]):
        n, where = int(moments.n[k]), floored[:, k]
        if n < 2 or not where.any():
            continue  # fewer than two tasks: no standard deviation, the pair has no test
        mean = moments.mean[:, k]
        largest = np.abs(differences[k]).max(axis=0)  # (pairs,): 0 where they never differ
        pseudo = 2.0 * (largest * largest + mean * mean) / (n - 1)
        variance[:, k] += np.where(where & (largest > 0), pseudo, 0.0)
    return variance


def _p_values(delta: np.ndarray, se: np.ndarray, skew: np.ndarray, df: np.ndarray) -> np.ndarray:
    """Two-sided p-values of the one-way Hall statistic; ``se = 0``: 1 for ``delta = 0``
    and 0 otherwise."""
    positive = se > 0
    p = np.where(delta == 0, 1.0, 0.0)
    if positive.any():
        statistic = one_sided_statistic(delta[positive] / se[positive], skew[positive])
        p[positive] = t_two_sided_p(statistic, df[positive])
    return np.where(np.isnan(se), np.nan, p)


def holm_adjust(p_values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm's step-down adjustment: family-wise error control over all the p-values.

    The ``k``-th smallest p-value (``k`` from 1) is multiplied by ``m - k + 1``, the
    results are made non-decreasing in that order and capped at 1. NaN p-values (no
    test) stay NaN and do not count in ``m``.

    Examples
    --------
    >>> holm_adjust([0.01, 0.04, 0.03, 0.5]).tolist()
    [0.04, 0.09, 0.09, 0.5]
    >>> holm_adjust([]).tolist()
    []
    """
    p = np.asarray(p_values, dtype=float)
    result = np.full(p.shape, np.nan)
    tested = np.flatnonzero(~np.isnan(p))
    m = tested.size
    # any order of equal p-values gives them the same adjusted value (the running maximum
    # reaches the first one's product), so the faster unstable sort gives the same bits
    order = tested[np.argsort(p[tested])]
    adjusted = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * p[order]))
    result[order] = adjusted
    return result


def significance_matrix(n_models: int, pairs: PairTests, order: Sequence[int]) -> np.ndarray:
    """``ahead[i, j]``: the model at rank position ``i`` is significantly ahead of ``j``."""
    ahead = np.zeros((n_models, n_models), dtype=bool)
    positions_a, positions_b = np.triu_indices(n_models, k=1)
    ahead[positions_a[pairs.significant], positions_b[pairs.significant]] = True
    return ahead


def rank_intervals(ahead: np.ndarray) -> list[tuple[int, int]]:
    """Rank intervals ``[best, worst]`` per rank position from a significance matrix.

    Examples
    --------
    Three models; only the first is significantly ahead of the second:

    >>> import numpy as np
    >>> rank_intervals(np.array([[0, 1, 0], [0, 0, 0], [0, 0, 0]], dtype=bool))
    [(1, 2), (2, 3), (1, 3)]
    """
    n = len(ahead)
    best = 1 + ahead.sum(axis=0)
    worst = n - ahead.sum(axis=1)
    return [(int(b), int(w)) for b, w in zip(best, worst, strict=True)]


def marginal_rank_intervals(n_models: int, pairs: PairTests, alpha: float) -> list[tuple[int, int]]:
    """Per rank position, the rank interval from Holm over that model's own ``M - 1`` pairs.

    Examples
    --------
    >>> import numpy as np
    >>> continuous = np.array([[1.0, 1.0], [0.0, 0.0]]) + np.array([[0.0, 0.1]])
    >>> same = np.zeros((2, 2))
    >>> pairs = paired_tests([same, continuous, continuous, same], np.array([60.0, 0.0]),
    ...                      [0, 1], 0.95)
    >>> marginal_rank_intervals(2, pairs, 0.05)
    [(1, 1), (2, 2)]
    """
    positions_a, positions_b = np.triu_indices(n_models, k=1)
    p = np.full((n_models, n_models), np.nan)
    p[positions_a, positions_b] = pairs.p_value
    p[positions_b, positions_a] = pairs.p_value
    adjusted = holm_adjust_rows(p)
    winner = np.zeros((n_models, n_models), dtype=bool)  # winner[i, j]: i ahead of j
    winner[positions_a, positions_b] = pairs.delta > 0
    significant = adjusted <= alpha
    ahead = significant & winner.T  # ahead[j, i]: in j's family, i is ahead of j
    behind = significant & winner  # behind[j, i]: in j's family, j is ahead of i
    best = 1 + ahead.sum(axis=1)
    worst = n_models - behind.sum(axis=1)
    return [(int(b), int(w)) for b, w in zip(best, worst, strict=True)]


def holm_adjust_rows(p: np.ndarray) -> np.ndarray:
    """:func:`holm_adjust` applied to each row of a matrix at once (NaN: no test).

    Examples
    --------
    >>> import numpy as np
    >>> holm_adjust_rows(np.array([[0.01, 0.04, 0.03, 0.5], [np.nan, 0.2, 0.01, np.nan]]))
    array([[0.04, 0.09, 0.09, 0.5 ],
           [ nan, 0.2 , 0.02,  nan]])
    """
    order = np.argsort(p, axis=1, kind="stable")  # NaN sorts last
    ordered = np.take_along_axis(p, order, axis=1)
    tested = np.count_nonzero(~np.isnan(p), axis=1)[:, None]
    factor = tested - np.arange(p.shape[1])[None, :]
    adjusted = np.fmax.accumulate(np.minimum(1.0, factor * ordered), axis=1)
    adjusted = np.where(np.isnan(ordered), np.nan, adjusted)
    result = np.empty_like(p)
    np.put_along_axis(result, order, adjusted, axis=1)
    return result


def leader_group(ahead: np.ndarray) -> list[int]:
    """The rank positions that no model is significantly ahead of (the could-be-first set).

    Examples
    --------
    >>> import numpy as np
    >>> leader_group(np.array([[0, 1, 0], [0, 0, 0], [0, 0, 0]], dtype=bool))
    [0, 2]
    """
    return np.flatnonzero(~ahead.any(axis=0)).tolist()


def tie_groups(ahead: np.ndarray) -> list[list[int]]:
    """The longest runs of consecutive rank positions that hold no significant pair.

    Each run ``[i, e(i)]`` starts at a position ``i`` and ends where the next position
    would bring in a pair that differs; the runs kept are those that no other run
    contains, in rank order. A model may be in two runs (the models on either side of it
    differ, it differs from neither), and the runs do not depend on reading the ranking
    from the top or from the bottom. No run holds a significant pair.

    Examples
    --------
    Only the first of three models is significantly ahead of the third:

    >>> import numpy as np
    >>> ahead = np.zeros((3, 3), dtype=bool)
    >>> ahead[0, 2] = True
    >>> tie_groups(ahead)
    [[0, 1], [1, 2]]
    >>> ahead = np.zeros((4, 4), dtype=bool)
    >>> ahead[0, 2] = ahead[1, 3] = True
    >>> tie_groups(ahead)
    [[0, 1], [1, 2], [2, 3]]
    """
    n = len(ahead)
    groups: list[list[int]] = []
    end = 0  # the run from the current start reaches position end - 1
    for start in range(n):
        end = max(end, start + 1)
        while end < n and not ahead[start:end, end].any():
            end += 1
        if not groups or end - 1 > groups[-1][-1]:
            groups.append(list(range(start, end)))
    return groups
