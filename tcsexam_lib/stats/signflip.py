"""Fisher's sign-flip randomisation test of a pair's index difference.

The two-sided p-value is the share of the ``2^K`` sign patterns of the parts ``W_t / n_t *
d`` whose sum is at least as far from 0 as the observed one: exact whatever the scores'
shape, never below ``2 / 2^k`` for ``k`` tasks that differ. How it is counted (exactly, on
a grid, or by a saddlepoint): docs/uncertainty.md.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np

from ..formulas import phi

#: The most sign patterns (pass/fail tracks merged) counted exactly.
EXACT_LIMIT = 2**22
#: Above the exact limit, pairs whose saddlepoint p is at most this are counted on a grid
#: (so a p reported from the saddlepoint is above it: no verdict at a level >= 80 % uses it).
GRID_BELOW = 0.2
#: The grid: a pair's parts in units of ``1 / GRID_STEPS`` of their sum.
GRID_STEPS = 1 << 13
#: Elements of the largest array one block of pairs may build (bounds the memory).
_BLOCK_ELEMENTS = 1 << 22
#: Sums closer than this share of the sum of ``|c|`` count as equal (rounding).
_RELATIVE_TIE = 1e-9


def pattern_count(n_tasks: Sequence[int], pass_fail: Sequence[bool]) -> float:
    """How many sums the exact count enumerates: a pass/fail track is one factor of
    ``n + 1`` sums, any other task one of two.

    >>> pattern_count([5, 5, 5, 5], [True, False, False, True])
    36864.0
    """
    return float(
        np.prod(
            [n + 1.0 if merged else 2.0**n for n, merged in zip(n_tasks, pass_fail, strict=True)]
        )
    )


def sign_flip_p(
    parts: Sequence[np.ndarray], pass_fail: Sequence[bool]
) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided sign-flip p-value of each row's sum of parts, and whether it is exact.

    ``parts``: per track ``(pairs, n_t)``; ``pass_fail``: per track, whether every part is 0
    or ``+-W_t / n_t`` (counted as one binomial).

    A constant lead on five tasks: only the two patterns with one sign reach it.

    >>> import numpy as np
    >>> lead = [np.zeros((1, 5)), np.full((1, 5), 0.06), np.zeros((1, 5)), np.zeros((1, 5))]
    >>> sign_flip_p(lead, [True, False, False, True])
    (array([0.0625]), array([ True]))
    """
    n_tasks = [p.shape[1] for p in parts]
    magnitude = np.abs(np.concatenate(parts, axis=1))
    scale = magnitude.sum(axis=1)
    observed = np.abs(sum(p.sum(axis=1) for p in parts))
    tested = np.flatnonzero(observed > _RELATIVE_TIE * scale)
    # in units of the row's largest sum, less the rounding a sum of parts may carry
    threshold = observed[tested] / scale[tested] - _RELATIVE_TIE
    p, exact = np.ones(len(observed)), np.ones(len(observed), dtype=bool)
    patterns = pattern_count(n_tasks, pass_fail)
    if patterns <= EXACT_LIMIT:
        parts = [q[tested] / scale[tested, None] for q in parts]
        p[tested] = 2.0 * _exact_share(parts, pass_fail, threshold, patterns)
        return np.minimum(p, 1.0), exact
    # too many tasks: each pair's own differing tasks, counted where few enough
    magnitude = magnitude[tested] / scale[tested, None]
    k = np.count_nonzero(magnitude, axis=1)
    tail = np.empty(len(tested))
    for size in np.unique(k):
        rows = np.flatnonzero(k == size)
        if 2.0**size <= EXACT_LIMIT:
            differing = -np.sort(-magnitude[rows], axis=1)[:, :size]
            tail[rows] = _exact_share([differing], [False], threshold[rows], 2**size)
        else:
            tail[rows] = _saddlepoint_tail(magnitude[rows], threshold[rows])
            near = rows[2.0 * tail[rows] <= GRID_BELOW]
            tail[near] = _grid_tail(magnitude[near], threshold[near])
            exact[tested[rows]] = False
    p[tested] = np.maximum(2.0 * tail, np.exp2(1.0 - k))
    return np.minimum(p, 1.0), exact


def _exact_share(
    parts: Sequence[np.ndarray], pass_fail: Sequence[bool], threshold: np.ndarray, patterns: int
) -> np.ndarray:
    """The share of sign patterns reaching ``threshold``, a block of rows at a time."""
    rows = max(1, int(_BLOCK_ELEMENTS // (4 * np.sqrt(patterns))))
    share = np.empty(len(threshold))
    for start in range(0, len(threshold), rows):
        block = slice(start, start + rows)
        count, total = _exact_tail([q[block] for q in parts], pass_fail, threshold[block])
        share[block] = count / total
    return share


def smallest_p(n_tasks: int) -> float:
    """The smallest p-value a pair that differs on ``n_tasks`` tasks can reach.

    >>> smallest_p(5)
    0.0625
    """
    return 2.0 ** (1 - n_tasks)


def _exact_tail(
    parts: Sequence[np.ndarray], pass_fail: Sequence[bool], threshold: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the sign patterns whose sum is at least ``threshold``, and all of them."""
    rows = len(threshold)
    values, weights = np.zeros((rows, 1)), np.ones((rows, 1))
    for part in (part for part, merged in zip(parts, pass_fail, strict=True) if merged):
        n = part.shape[1]
        size = np.abs(part).max(axis=1, initial=0.0)[:, None]
        k = np.count_nonzero(part, axis=1)[:, None]
        b = np.arange(n + 1)[None, :]
        values = (values[:, :, None] + (size * (2 * b - k))[:, None, :]).reshape(rows, -1)
        more = _binomials(n)[k[:, 0]] * np.exp2(n - k)
        weights = (weights[:, :, None] * more[:, None, :]).reshape(rows, -1)
    plain = [part for part, merged in zip(parts, pass_fail, strict=True) if not merged]
    plain = np.abs(np.concatenate([np.zeros((rows, 0)), *plain], axis=1))
    g = plain.shape[1]
    g_sorted = min(g, int(np.ceil((g + np.log2(values.shape[1])) / 2)))
    looked_up = np.sort(plain[:, :g_sorted] @ _signs(g_sorted), axis=1)
    width = looked_up.shape[1]
    rest = np.sort(-(plain[:, g_sorted:] @ _signs(g - g_sorted)), axis=1)[:, None, :]
    wanted = threshold[:, None, None] - values[:, :, None] + rest  # ascending for each sum
    # one search for every row: each row's sums (within [-3, 3]: a row's parts add up to 1
    # in size) moved past the previous row's, so the rows stay apart and in order
    offset = 8.0 * np.arange(rows)
    found = (
        np.searchsorted(
            (looked_up + offset[:, None]).ravel(), (wanted + offset[:, None, None]).ravel()
        ).reshape(wanted.shape)
        - width * np.arange(rows)[:, None, None]
    )
    count = (weights * (width - found).sum(axis=2)).sum(axis=1)
    return count, weights.sum(axis=1) * 2.0**g


@functools.lru_cache(maxsize=32)
def _binomials(n: int) -> np.ndarray:
    """``C(k, b)`` for ``k`` (rows) and ``b`` (columns) from 0 to ``n``."""
    return np.array([[math.comb(k, b) for b in range(n + 1)] for k in range(n + 1)], float)


@functools.lru_cache(maxsize=32)
def _signs(g: int) -> np.ndarray:
    """The ``2^g`` sign patterns of ``g`` tasks, one a column, ``(g, 2^g)``."""
    return 1.0 - 2.0 * ((np.arange(2**g)[None, :] >> np.arange(g)[:, None]) & 1)


def _grid_tail(magnitude: np.ndarray, threshold: np.ndarray) -> np.ndarray:
    """``P(sum of +-magnitude >= threshold)`` counted on a grid, never below the exact share
    (docs/uncertainty.md, "How it is counted")."""
    largest = magnitude.max(axis=1, keepdims=True)
    unit = largest / np.maximum(np.rint(largest * GRID_STEPS), 1.0)  # the largest parts: exact
    steps = np.rint(magnitude / unit).astype(np.int64)
    slack = np.abs(magnitude - steps * unit).sum(axis=1)
    start = np.ceil((threshold - slack) / unit[:, 0] - 1e-9).astype(np.int64)
    tail = np.empty(len(steps))
    for row, (sizes, first) in enumerate(zip(steps, start, strict=True)):
        sizes = sizes[sizes > 0]
        total = int(sizes.sum())
        count = np.zeros(total + 1)  # sign patterns by the sum of the positive parts
        count[0] = 1.0
        for size in sizes:
            count[size:] += count[:-size].copy()
        # the signed sum is 2 * (sum of the positive parts) - total
        reach = min(max(-(-(first + total) // 2), 0), total + 1)
        tail[row] = count[reach:].sum() / 2.0 ** len(sizes)
    return np.minimum(tail, 0.5)


def _saddlepoint_tail(magnitude: np.ndarray, threshold: np.ndarray) -> np.ndarray:
    """``P(sum of +-magnitude >= threshold)`` by Lugannani and Rice, at half the smallest
    part below ``threshold`` (a continuity correction); 0 past the largest sum.
    """
    smallest = np.where(magnitude > 0, magnitude, np.inf).min(axis=1)
    target = threshold - 0.5 * np.where(np.isfinite(smallest), smallest, 0.0)
    largest = magnitude.sum(axis=1)
    tail = np.where(target <= 0, 0.5, 0.0)
    inside = (target > 0) & (threshold < largest)
    c, s = magnitude[inside], target[inside]
    theta = np.zeros(len(s))
    for _ in range(200):
        slope = np.tanh(theta[:, None] * c)
        gap = s - (c * slope).sum(axis=1)
        curvature = (c * c * (1.0 - slope * slope)).sum(axis=1)
        step = np.divide(gap, curvature, out=np.zeros_like(gap), where=curvature > 0)
        theta += step
        if np.all(np.abs(step) <= 1e-12 * np.maximum(theta, 1e-300)):
            break
    x = theta[:, None] * c
    cumulant = (np.abs(x) + np.log1p(np.exp(-2.0 * np.abs(x))) - np.log(2.0)).sum(axis=1)
    slope = np.tanh(x)
    w = np.sqrt(np.maximum(2.0 * (theta * s - cumulant), 0.0))
    u = theta * np.sqrt((c * c * (1.0 - slope * slope)).sum(axis=1))
    density = np.exp(-0.5 * w * w) / np.sqrt(2.0 * np.pi)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = phi(-w) + density * (1.0 / u - 1.0 / w)
    tail[inside] = np.clip(np.where(w > 1e-6, value, 0.5), 0.0, 0.5)
    return tail
