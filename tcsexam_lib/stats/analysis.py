"""Every interval, test and rank claim of one cohort, as arrays (the command and the benchmark).

``tcsexam stats`` turns :func:`analyse_cohort`'s :class:`CohortAnalysis` into JSON;
``benchmarks/bench_calibration.py`` measures its coverage on simulated cohorts. Every
figure is analytic (nothing resampled): the same input gives the same numbers.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..formulas import combine_track_mean_arrays
from .intervals import (
    Moments,
    TrackIntervals,
    index_interval,
    stratified_standard_error,
    track_intervals,
    track_moments,
)
from .pairs import (
    PairTests,
    leader_group,
    marginal_rank_intervals,
    paired_tests,
    rank_intervals,
    rank_models,
    significance_matrix,
    tie_groups,
)


@dataclass(frozen=True)
class CohortAnalysis:
    """Intervals, tests and rank claims of the models of one cohort (NaN: not computable).

    A row per model (input order), ``order`` best first; ``leader_group`` and ``tie_groups``
    hold rows, in rank order. Index quantities in points, track quantities in track-mean units.
    """

    moments: Moments
    tracks: TrackIntervals
    index: np.ndarray  # (M,)
    index_se: np.ndarray  # (M,)
    index_ci: tuple[np.ndarray, np.ndarray]
    index_df: tuple[np.ndarray, np.ndarray]  # Welch-Satterthwaite df of each side
    order: list[int]
    ranks: list[int]
    pairs: PairTests
    rank_ci: list[tuple[int, int]]
    rank_ci_marginal: list[tuple[int, int]]
    leader_group: list[int]
    tie_groups: list[list[int]]

    @property
    def track_means(self) -> np.ndarray:
        """``(M, tracks)`` track means."""
        return self.moments.mean

    @functools.cached_property
    def track_ci(self) -> tuple[np.ndarray, np.ndarray]:
        """``(M, tracks)`` track intervals as reported: clipped to each track's range."""
        return self.tracks.clipped()

    @functools.cached_property
    def track_ci_methods(self) -> np.ndarray:
        """``(M, tracks)`` the name of the rule that gave each track interval."""
        return self.tracks.method_names()


def analyse_cohort(
    values: Sequence[np.ndarray],
    *,
    names: Sequence[str] | None = None,
    index: Sequence[float] | None = None,
    level: float = 0.95,
) -> CohortAnalysis:
    """Intervals of every model's index and track means, paired tests, ranks and groups.

    ``values``: per track the task means ``(M, n_t)``, a row per model with an index, a
    task per column; ``names`` break rank ties; ``index`` (default: recomputed) centres the
    intervals and gives the deltas.

    ``z`` is 0.3 ahead of ``x`` on every solver and construction task (``p = 2 / 2^40``),
    the same elsewhere; ``y`` copies ``x``:

    >>> import numpy as np
    >>> rng = np.random.default_rng(1)
    >>> base = [rng.random(20) for _ in range(4)]
    >>> lead = [0.0, 0.3, 0.3, 0.0]
    >>> out = analyse_cohort([np.vstack([b, b, b + s]) for b, s in zip(base, lead)],
    ...                      names=["x", "y", "z"])
    >>> out.order, out.ranks
    ([2, 0, 1], [2, 2, 1])
    >>> out.pairs.delta.round(9).tolist(), [f"{p:.3g}" for p in out.pairs.p_value]
    ([18.0, 18.0, 0.0], ['1.82e-12', '1.82e-12', '1'])
    >>> out.rank_ci, out.leader_group, out.tie_groups
    ([(2, 3), (2, 3), (1, 1)], [2], [[2], [0, 1]])
    >>> out.index.round(2).tolist(), out.index_se.round(2).tolist()
    ([53.31, 53.31, 71.31], [3.38, 3.38, 3.38])
    """
    values = [np.asarray(v, dtype=float) for v in values]
    n_models = values[0].shape[0]
    names = [str(i) for i in range(n_models)] if names is None else list(names)
    moments = track_moments(values)
    if index is None:
        index = combine_track_mean_arrays(moments.mean)
    index = np.asarray(index, dtype=float)
    tracks = track_intervals(values, moments, level)
    low, high, df_low, df_high = index_interval(index, tracks, moments, level)
    order, ranks = rank_models(index.tolist(), names)
    pairs = paired_tests(values, index, order, level)
    ahead = significance_matrix(n_models, pairs, order)
    by_position = rank_intervals(ahead)
    marginal = marginal_rank_intervals(n_models, pairs, 1.0 - level)
    rank_ci = [(0, 0)] * n_models
    rank_ci_marginal = [(0, 0)] * n_models
    for position, row in enumerate(order):
        rank_ci[row] = by_position[position]
        rank_ci_marginal[row] = marginal[position]
    return CohortAnalysis(
        moments=moments,
        tracks=tracks,
        index=index,
        index_se=stratified_standard_error(moments.sd, moments.n),
        index_ci=(low, high),
        index_df=(df_low, df_high),
        order=order,
        ranks=ranks,
        pairs=pairs,
        rank_ci=rank_ci,
        rank_ci_marginal=rank_ci_marginal,
        leader_group=[order[p] for p in leader_group(ahead)],
        tie_groups=[[order[p] for p in group] for group in tie_groups(ahead, index[order])],
    )
