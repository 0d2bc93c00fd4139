"""Every interval, test and rank of one cohort, as arrays (the command and the benchmark).

:func:`analyse_cohort` takes the task means of the models that have an index (one
array per track, a row per model) and returns a :class:`CohortAnalysis`. ``tcsexam
stats`` turns it into JSON; ``benchmarks/bench_calibration.py`` calls the same function
on simulated cohorts to measure the coverage and error rates it prints.

Randomness: ``numpy.random.SeedSequence(seed).spawn(2)`` gives two independent streams
(numpy ``Generator``, PCG64): the first draws the bootstrap's tasks, the second the
sign flips of the permutation test. The same seed gives the same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..formulas import combine_track_mean_arrays
from ..vocab import TRACKS
from .bootstrap import bootstrap_replicates, draw_task_indices
from .intervals import (
    compute_track_spread,
    percentile_interval,
    stratified_standard_error,
    t_interval,
)
from .pairs import (
    group_ties,
    holm_adjust,
    rank_intervals,
    rank_models,
    sign_flip_p_values,
)

#: The values a track mean can take (the analytic intervals are clipped to them, which
#: never changes whether they cover a possible value); the index is at least 0.
TRACK_RANGES = {
    "theorem": (0.0, 1.0),
    "solver": (0.0, 1.0),
    "construction": (0.0, np.inf),
    "conjecture": (0.0, 1.0),
}


@dataclass(frozen=True)
class CohortAnalysis:
    """Intervals, tests and ranks of the models of one cohort (NaN: not computable).

    Shapes: ``M`` models, ``P = M (M - 1) / 2`` pairs, 4 tracks (P, S, C, O order);
    intervals are ``(low, high)`` pairs of arrays. Index quantities are in points,
    track quantities in track-mean units. Pairs follow the rank order: ``a`` is ranked
    at or above ``b``, so ``pair_delta >= 0``.
    """

    n_tasks: np.ndarray  # (4,)
    index: np.ndarray  # (M,)
    track_means: np.ndarray  # (M, 4)
    track_sd: np.ndarray  # (M, 4) sample std (ddof 1) of the task means
    track_se: np.ndarray  # (M, 4)
    track_ci: tuple[np.ndarray, np.ndarray]  # (M, 4) each
    track_ci_bootstrap: tuple[np.ndarray, np.ndarray]
    index_se: np.ndarray  # (M,)
    index_df: np.ndarray  # (M,) Welch-Satterthwaite
    index_ci: tuple[np.ndarray, np.ndarray]
    index_ci_bootstrap: tuple[np.ndarray, np.ndarray]
    order: list[int]  # model positions, best first
    ranks: list[int]  # competition rank by index (1 = best)
    pairs: list[tuple[int, int]]  # (a, b) model positions
    pair_delta: np.ndarray  # (P,) index of a minus index of b
    pair_se: np.ndarray
    pair_df: np.ndarray
    pair_ci: tuple[np.ndarray, np.ndarray]
    pair_ci_bootstrap: tuple[np.ndarray, np.ndarray]
    p_value: np.ndarray
    p_holm: np.ndarray
    rank_ci: list[tuple[int, int]]
    tie_groups: list[list[int]]


def analyse_cohort(
    values: Sequence[np.ndarray],
    *,
    names: Sequence[str] | None = None,
    index: Sequence[float] | None = None,
    resamples: int = 10_000,
    seed: int = 0,
    level: float = 0.95,
) -> CohortAnalysis:
    """Intervals of every model's index and track means, paired tests, ranks and ties.

    Parameters
    ----------
    values : sequence of arrays
        Per track (P, S, C, O order) the task means, shape ``(M, n_t)``: a row per
        model with an index, the same tasks in the same column for every model.
    names : sequence of str, optional
        Model names (break rank ties; default ``"0"``, ``"1"``, ...).
    index : sequence of float, optional
        The published index of each model (default: recomputed from ``values``); it is
        the centre of the index intervals and gives the deltas.
    resamples, seed, level :
        Bootstrap and permutation replicates ``B``, the seed of both streams, and the
        two-sided confidence level (the significance level is ``1 - level``).

    Returns
    -------
    CohortAnalysis
        ``index_ci``, ``track_ci`` and ``pair_ci``: Welch-Satterthwaite t-intervals on
        the analytic standard errors (track intervals clipped to the track's range, the
        index's at 0); ``*_ci_bootstrap``: percentile intervals of the
        stratified paired bootstrap; ``p_value``: stratified sign-flip test; ``p_holm``:
        Holm-adjusted over all pairs; ``rank_ci`` and ``tie_groups`` from ``p_holm``.

    Examples
    --------
    Model ``z`` is 0.3 ahead of ``x`` on every task; ``y`` copies ``x``:

    >>> import numpy as np
    >>> rng = np.random.default_rng(1)
    >>> base = [rng.random(20) for _ in range(4)]
    >>> out = analyse_cohort([np.vstack([b, b, b + 0.3]) for b in base],
    ...                      names=["x", "y", "z"], resamples=2000)
    >>> out.order, out.ranks, out.pairs
    ([2, 0, 1], [2, 2, 1], [(2, 0), (2, 1), (0, 1)])
    >>> out.pair_delta.round(9).tolist(), out.p_value.round(4).tolist()
    ([30.0, 30.0, 0.0], [0.0005, 0.0005, 1.0])
    >>> float(out.pair_ci[0][2]), float(out.pair_ci[1][2])
    (0.0, 0.0)
    >>> out.rank_ci, out.tie_groups
    ([(2, 3), (2, 3), (1, 1)], [[2], [0, 1]])
    >>> out.index.round(2).tolist(), out.index_se.round(2).tolist()
    ([53.31, 53.31, 83.31], [3.38, 3.38, 3.38])
    """
    values = [np.asarray(v, dtype=float) for v in values]
    n_models = values[0].shape[0]
    names = [str(i) for i in range(n_models)] if names is None else list(names)
    track_means = np.stack([v.mean(axis=-1) for v in values], axis=-1)
    if index is None:
        index = combine_track_mean_arrays(track_means)
    index = np.asarray(index, dtype=float)
    bootstrap_stream, flip_stream = (
        np.random.default_rng(child) for child in np.random.SeedSequence(seed).spawn(2)
    )
    alpha = 1.0 - level

    track_sd, n = compute_track_spread(values)
    track_se = track_sd / np.sqrt(n)
    track_ci = t_interval(track_means, track_se, np.where(n >= 2, n - 1.0, np.nan), level)
    low_end, high_end = (np.array([TRACK_RANGES[t][k] for t in TRACKS]) for k in (0, 1))
    track_ci = (np.maximum(track_ci[0], low_end), np.minimum(track_ci[1], high_end))
    index_se, index_df = stratified_standard_error(track_sd, n)
    index_ci = t_interval(index, index_se, index_df, level)
    index_ci = (np.maximum(index_ci[0], 0.0), index_ci[1])

    draws = draw_task_indices(bootstrap_stream, n.tolist(), resamples)
    track_reps, index_reps = bootstrap_replicates(values, draws)
    one_task = n < 2  # no bootstrap (nor analytic) interval with fewer than two tasks
    track_boot = percentile_interval(np.moveaxis(track_reps, 1, -1), level)
    track_boot = tuple(np.where(one_task, np.nan, end) for end in track_boot)
    index_boot = tuple(
        np.where(one_task.any(), np.nan, end) for end in percentile_interval(index_reps, level)
    )

    order, ranks = rank_models(index.tolist(), names)
    pairs = [(a, b) for k, a in enumerate(order) for b in order[k + 1 :]]
    first = np.array([a for a, _ in pairs], dtype=int)
    second = np.array([b for _, b in pairs], dtype=int)
    differences = [v[first] - v[second] for v in values]
    _, p_value = sign_flip_p_values(differences, flip_stream, resamples)
    p_holm = holm_adjust(p_value)
    pair_delta = index[first] - index[second]
    pair_sd, _ = compute_track_spread(differences)
    pair_se, pair_df = stratified_standard_error(pair_sd, n)
    pair_ci = t_interval(pair_delta, pair_se, pair_df, level)
    _, pair_reps = bootstrap_replicates(differences, draws)
    pair_boot = tuple(
        np.where(one_task.any(), np.nan, end) for end in percentile_interval(pair_reps, level)
    )

    rank_ci = rank_intervals(n_models, pairs, pair_delta.tolist(), p_holm.tolist(), alpha)
    return CohortAnalysis(
        n_tasks=n,
        index=index,
        track_means=track_means,
        track_sd=track_sd,
        track_se=track_se,
        track_ci=track_ci,
        track_ci_bootstrap=track_boot,
        index_se=index_se,
        index_df=index_df,
        index_ci=index_ci,
        index_ci_bootstrap=index_boot,
        order=order,
        ranks=ranks,
        pairs=pairs,
        pair_delta=pair_delta,
        pair_se=pair_se,
        pair_df=pair_df,
        pair_ci=pair_ci,
        pair_ci_bootstrap=pair_boot,
        p_value=p_value,
        p_holm=p_holm,
        rank_ci=rank_ci,
        tie_groups=group_ties(order, rank_ci),
    )
