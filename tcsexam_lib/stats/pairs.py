"""Paired comparisons of models: the sign-flip test, Holm's adjustment, rank intervals, ties.

Two models answered the same tasks, so they are compared task by task: ``d`` is, per
task, the task mean of model a minus that of model b, and their delta is the weighted
sum of the track means of ``d`` (= index of a minus index of b).

The p-value is a two-sided **stratified sign-flip permutation test** of "the two models
are exchangeable on every task" (no difference): each replicate flips the sign of each
task's difference at random (independently, within its track), and
``p = (1 + #{|T*| >= |T|}) / (B + 1)``, where ``T`` is the observed delta and ``T*`` the
flipped ones. This p-value is valid (``P(p <= alpha) <= alpha`` under that null) for
any number of replicates ``B``; equal task means give ``T = 0`` and ``p = 1`` exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..formulas import combine_track_mean_arrays

#: Flipped statistics within this many index points of the observed one count as at
#: least as extreme (floating-point sums of the same numbers in another order).
TIE_TOLERANCE = 1e-9


def sign_flip_p_values(
    differences: Sequence[np.ndarray], rng: np.random.Generator, resamples: int
) -> tuple[np.ndarray, np.ndarray]:
    """Observed deltas and two-sided stratified sign-flip p-values of many pairs at once.

    Parameters
    ----------
    differences : sequence of arrays
        Per track (P, S, C, O order) the per-task differences ``a - b``, shape
        ``(pairs, n_t)``.
    rng : numpy.random.Generator
        Draws the signs: per track in order, ``rng.integers(0, 2, size=(resamples,
        n_t))``; one set of signs serves every pair.
    resamples : int
        Number of random sign flips ``B``.

    Returns
    -------
    (delta, p) : arrays of shape ``(pairs,)``
        ``delta`` in index points (positive: a is ahead), ``p`` in ``(0, 1]``. Swapping
        a and b flips the sign of ``delta`` and keeps ``p``.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> same = [np.zeros((1, 5))] * 4
    >>> delta, p = sign_flip_p_values(same, rng, 1000)
    >>> delta.tolist(), p.tolist()
    ([0.0], [1.0])
    >>> ahead = [np.full((1, 20), 0.5)] * 4   # a ahead by 0.5 on every task
    >>> delta, p = sign_flip_p_values(ahead, rng, 999)
    >>> delta.tolist(), p.tolist()   # no flip reaches 50 points: p = 1/(B + 1)
    ([50.0], [0.001])
    """
    observed, flipped = [], []
    for track_differences in differences:
        n = track_differences.shape[-1]
        signs = 1 - 2 * rng.integers(0, 2, size=(resamples, n))
        observed.append(track_differences.sum(axis=-1) / n)
        flipped.append(np.einsum("pn,bn->pb", track_differences, signs) / n)
    delta = combine_track_mean_arrays(np.stack(observed, axis=-1))
    replicates = combine_track_mean_arrays(np.stack(flipped, axis=-1))
    extreme = np.abs(replicates) >= (np.abs(delta) - TIE_TOLERANCE)[:, None]
    return delta, (1 + extreme.sum(axis=-1)) / (resamples + 1)


def holm_adjust(p_values: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjustment: family-wise error control over all the p-values.

    The ``k``-th smallest p-value (``k`` from 1) is multiplied by ``m - k + 1``, the
    results are made non-decreasing in that order and capped at 1. A pair whose adjusted
    p-value is at most ``alpha`` is significant with a family-wise error of at most
    ``alpha`` over all pairs.

    Examples
    --------
    >>> holm_adjust([0.01, 0.04, 0.03, 0.5]).tolist()
    [0.04, 0.09, 0.09, 0.5]
    >>> holm_adjust([]).tolist()
    []
    """
    p = np.asarray(p_values, dtype=float)
    m = p.size
    order = np.argsort(p, kind="stable")
    adjusted = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * p[order]))
    result = np.empty(m)
    result[order] = adjusted
    return result


def rank_models(index: Sequence[float], names: Sequence[str]) -> tuple[list[int], list[int]]:
    """Rank order (best first; ties by name) and competition ranks (1 = best) by index.

    Examples
    --------
    >>> rank_models([50.0, 70.0, 50.0], ["b", "c", "a"])
    ([1, 2, 0], [2, 1, 2])
    """
    order = sorted(range(len(names)), key=lambda i: (-index[i], names[i]))
    ranks = [1 + sum(other > value for other in index) for value in index]
    return order, ranks


def rank_intervals(
    n_models: int,
    pairs: Sequence[tuple[int, int]],
    delta: Sequence[float],
    p_holm: Sequence[float],
    alpha: float,
) -> list[tuple[int, int]]:
    """Simultaneous rank intervals ``[best, worst]`` (1 = best) from the Holm-adjusted tests.

    Model ``i`` cannot rank better than 1 + the number of models significantly ahead of
    it (``p_holm <= alpha`` and the delta in their favour), nor worse than ``n_models``
    minus the number of models it is significantly ahead of. The intervals hold jointly
    with probability about ``1 - alpha`` (the family-wise error of Holm's procedure),
    and agree with the Holm-significant cells of the pairwise delta matrix.

    Examples
    --------
    Three models; only the first pair (0 ahead of 1) is significant:

    >>> rank_intervals(3, [(0, 1), (0, 2), (1, 2)], [9.0, 2.0, -7.0], [0.01, 0.6, 0.2], 0.05)
    [(1, 2), (2, 3), (1, 3)]
    """
    ahead = [0] * n_models  # models significantly ahead of i
    behind = [0] * n_models  # models i is significantly ahead of
    for (a, b), d, p in zip(pairs, delta, p_holm, strict=True):
        if p <= alpha and d != 0:
            winner, loser = (a, b) if d > 0 else (b, a)
            behind[winner] += 1
            ahead[loser] += 1
    return [(1 + ahead[i], n_models - behind[i]) for i in range(n_models)]


def group_ties(order: Sequence[int], intervals: Sequence[tuple[int, int]]) -> list[list[int]]:
    """Tie groups in rank order: the leader with every model whose rank interval meets its own.

    The first group is the leader (first in ``order``) and every model whose rank
    interval overlaps the leader's; the next group starts with the best-ranked model not
    yet grouped, and so on, so every model is in exactly one group.

    Examples
    --------
    >>> group_ties([0, 1, 2, 3], [(1, 2), (1, 3), (3, 4), (3, 4)])
    [[0, 1], [2, 3]]
    """
    groups: list[list[int]] = []
    placed: set[int] = set()
    for leader in order:
        if leader in placed:
            continue
        best, worst = intervals[leader]
        group = [
            i
            for i in order
            if i not in placed and intervals[i][0] <= worst and best <= intervals[i][1]
        ]
        placed.update(group)
        groups.append(group)
    return groups
