"""Paired comparisons of models, Holm's adjustment, and the rank claims built on them.

A pair's ``delta`` is the sum over tasks of ``W_t / n_t * d`` (``d``: a's task mean minus
b's), tested by Fisher's sign-flip test; the rank claims follow from the Holm-significant
pairs, never from names or input order. Definitions: docs/uncertainty.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from ..formulas import WEIGHT_VECTOR
from .signflip import sign_flip_p, smallest_p

#: Pairs computed together (bounds the memory of the per-task differences).
PAIR_CHUNK = 32768
#: The power the minimum detectable difference is computed for.
MDD_POWER = 0.8


@dataclass(frozen=True)
class PairTests:
    """One entry per pair, in rank order (``a`` ranked at or above ``b``; arrays ``(P,)``).

    ``first``/``second`` are model rows; NaN where no test can be made. ``exact``: the
    p-value is an exact count (else a grid count, never below it, or the saddlepoint
    approximation where p > 0.5).
    """

    first: np.ndarray
    second: np.ndarray
    delta: np.ndarray
    se: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    p_value: np.ndarray
    p_holm: np.ndarray
    significant: np.ndarray
    mdd: np.ndarray
    exact: np.ndarray

    def __len__(self) -> int:
        return len(self.delta)


def rank_models(index: Sequence[float], names: Sequence[str]) -> tuple[list[int], list[int]]:
    """Rank order (best first; ties by name) and competition ranks (1 = best) by index.

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
    """Every pair's delta, standard error, sign-flip test, interval and detectable delta.

    Pairs follow ``order`` (model rows in rank order); ``level`` sets ``ci`` and, after
    Holm, significance at ``1 - level``.

    Five theorems solved against none (the exact sign test: 2 patterns of 32):

    >>> import numpy as np
    >>> rng = np.random.default_rng(1)
    >>> same = [np.tile(rng.random(5), (2, 1)) for _ in range(3)]
    >>> values = [np.array([[1.0] * 5, [0.0] * 5]), *same]
    >>> out = paired_tests(values, np.array([40.0, 10.0]), [0, 1], 0.95)
    >>> out.p_value.tolist(), out.significant.tolist(), out.ci_low.tolist()
    ([0.0625], [False], [0.0])
    """
    alpha = 1.0 - level
    positions_a, positions_b = np.triu_indices(len(order), k=1)
    rows = np.asarray(order, dtype=int)
    first, second = rows[positions_a], rows[positions_b]
    delta = index[first] - index[second]
    se, spread, p_value, exact = _pair_tests(values, first, second)
    p_holm = holm_adjust(p_value)
    significant = (p_holm <= alpha) & (delta > 0)
    half = NormalDist().inv_cdf(0.5 + level / 2.0) * spread
    half = np.where(p_value > alpha, np.maximum(half, np.abs(delta)), half)
    half = np.where(p_value <= alpha, np.minimum(half, np.abs(delta) * (1 - 1e-12)), half)
    half = np.where(np.isnan(p_value), np.nan, half)
    tested = int(np.count_nonzero(~np.isnan(p_value)))
    total_tasks = sum(v.shape[-1] for v in values)
    if tested and smallest_p(total_tasks) <= alpha / tested:
        reach = NormalDist().inv_cdf(1.0 - alpha / (2 * tested)) + NormalDist().inv_cdf(MDD_POWER)
        mdd = se * reach
    else:
        mdd = np.full(len(first), np.nan)
    return PairTests(
        first=first,
        second=second,
        delta=delta,
        se=se,
        ci_low=delta - half,
        ci_high=delta + half,
        p_value=p_value,
        p_holm=p_holm,
        significant=significant,
        mdd=mdd,
        exact=exact,
    )


def _pair_tests(
    values: Sequence[np.ndarray], first: np.ndarray, second: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each pair's ``se``, the spread ``sqrt(sum c^2)`` of its sign patterns and its
    sign-flip p (NaN where a track has fewer than two tasks), a chunk of pairs at a time."""
    n_pairs = len(first)
    se, spread, p_value = (np.full(n_pairs, np.nan) for _ in range(3))
    exact = np.zeros(n_pairs, dtype=bool)
    weights = np.asarray(WEIGHT_VECTOR, dtype=float)
    n = np.array([v.shape[-1] for v in values])
    pass_fail = [bool(np.all((v == 0.0) | (v == 1.0))) for v in values]
    for start in range(0, n_pairs, PAIR_CHUNK):
        a, b = first[start : start + PAIR_CHUNK], second[start : start + PAIR_CHUNK]
        differences = [v[a] - v[b] for v in values]
        parts = [d * (w / k) for d, w, k in zip(differences, weights, n, strict=True)]
        end = start + len(a)
        spread[start:end] = np.sqrt(sum(np.square(p).sum(axis=1) for p in parts))
        if n.min() < 2:
            continue  # no spread within a track to see: no test
        variance = [d.var(axis=1, ddof=1) for d in differences]
        se[start:end] = np.sqrt(
            sum(w * w * s / k for w, s, k in zip(weights, variance, n, strict=True))
        )
        p_value[start:end], exact[start:end] = sign_flip_p(parts, pass_fail)
    return se, spread, p_value, exact


def holm_adjust(p_values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm's step-down adjustment: family-wise error control over all the p-values.

    The ``k``-th smallest of ``m`` p-values times ``m - k + 1``, made non-decreasing and
    capped at 1; NaN (no test) stays NaN and does not count in ``m``.

    >>> holm_adjust([0.01, 0.04, 0.03, 0.5]).tolist()
    [0.04, 0.09, 0.09, 0.5]
    >>> holm_adjust([]).tolist()
    []
    """
    return holm_adjust_rows(np.asarray(p_values, dtype=float)[None, :])[0]


def significance_matrix(n_models: int, pairs: PairTests, order: Sequence[int]) -> np.ndarray:
    """``ahead[i, j]``: the model at rank position ``i`` is significantly ahead of ``j``."""
    ahead = np.zeros((n_models, n_models), dtype=bool)
    positions_a, positions_b = np.triu_indices(n_models, k=1)
    ahead[positions_a[pairs.significant], positions_b[pairs.significant]] = True
    return ahead


def rank_intervals(ahead: np.ndarray) -> list[tuple[int, int]]:
    """Rank intervals ``[best, worst]`` per rank position from a significance matrix.

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

    >>> import numpy as np
    >>> lead, same = np.array([[1.0] * 5, [0.0] * 5]), np.zeros((2, 5))
    >>> pairs = paired_tests([same, lead, lead, same], np.array([60.0, 0.0]), [0, 1], 0.95)
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

    >>> import numpy as np
    >>> holm_adjust_rows(np.array([[0.01, 0.04, 0.03, 0.5], [np.nan, 0.2, 0.01, np.nan]]))
    array([[0.04, 0.09, 0.09, 0.5 ],
           [ nan, 0.2 , 0.02,  nan]])
    """
    # NaN sorts last; any order of equal p-values gives them the same adjusted value (the
    # running maximum reaches the first one's product), so the faster unstable sort will do
    order = np.argsort(p, axis=1)
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

    >>> import numpy as np
    >>> leader_group(np.array([[0, 1, 0], [0, 0, 0], [0, 0, 0]], dtype=bool))
    [0, 2]
    """
    return np.flatnonzero(~ahead.any(axis=0)).tolist()


def tie_groups(ahead: np.ndarray, index: Sequence[float] | None = None) -> list[list[int]]:
    """The longest runs of consecutive rank positions that hold no significant pair.

    Equal ``index`` values share a place (a run takes all of them or none), so the runs do
    not depend on name order; runs no other run contains are kept, in rank order, and may
    overlap (docs/uncertainty.md).

    Only the first of three models is significantly ahead of the third:

    >>> import numpy as np
    >>> ahead = np.zeros((3, 3), dtype=bool)
    >>> ahead[0, 2] = True
    >>> tie_groups(ahead)
    [[0, 1], [1, 2]]
    >>> tie_groups(ahead, [60.0, 60.0, 40.0])   # the first two tied: one place
    [[0, 1], [2]]
    """
    n = len(ahead)
    if n == 0:
        return []
    index = np.arange(n, dtype=float) if index is None else np.asarray(index, dtype=float)
    starts = [k for k in range(n) if k == 0 or index[k] != index[k - 1]]
    place_end = dict(zip(starts, [*starts[1:], n], strict=True))
    groups: list[list[int]] = []
    end = 0  # the run from the current start reaches position end - 1
    for start in starts:
        end = max(end, place_end[start])
        while end < n and not ahead[start:end, end : place_end[end]].any():
            end = place_end[end]
        if not groups or end - 1 > groups[-1][-1]:
            groups.append(list(range(start, end)))
    return groups
