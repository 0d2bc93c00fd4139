"""Analytic standard errors and intervals of the index, its track means and its deltas.

The sampling model: the tasks of each track are a sample from a larger pool of tasks
(stratified by track); the attempts of a task are noise already averaged into its task
mean. So the uncertainty of a track mean is that of a mean of ``n_t`` task means, and
the index ``sum_t W_t * mean_t`` (W = 30, 30, 30, 10 points) is a stratified mean:

- ``se_t = s_t / sqrt(n_t)`` (track-mean units), ``s_t`` the sample standard deviation
  (ddof 1) of the ``n_t`` task means;
- ``index_se = sqrt(sum_t W_t^2 * s_t^2 / n_t)`` (index points);
- the Welch-Satterthwaite degrees of freedom of that sum,
  ``df = (sum_t v_t)^2 / sum_t (v_t^2 / (n_t - 1))`` with ``v_t = W_t^2 * s_t^2 / n_t``;
- the interval ``estimate +- t(1 - (1 - level)/2, df) * se``.

A track with fewer than two tasks has no ``s_t``: its quantities are NaN here (``null``
in the output). The same functions give paired standard errors when the values are the
per-task differences of two models.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..formulas import WEIGHT_VECTOR


def compute_track_spread(values: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Sample standard deviations (ddof 1) and task counts of each track's task values.

    Parameters
    ----------
    values : sequence of arrays
        One array per track in :data:`~tcsexam_lib.vocab.TRACKS` order, each of shape
        ``(rows, n_t)``: a row per model (or per pair of models), a column per task.

    Returns
    -------
    (sd, n) : arrays of shape ``(rows, 4)`` and ``(4,)``
        ``sd[r, t]`` is NaN when track ``t`` has fewer than two tasks.

    Examples
    --------
    >>> import numpy as np
    >>> sd, n = compute_track_spread([np.array([[0.0, 1.0, 1.0, 0.0]]),
    ...                               np.array([[0.5, 0.7]]), np.array([[1.0, 1.0, 1.0]]),
    ...                               np.array([[1.0]])])
    >>> sd.round(4).tolist(), n.tolist()
    ([[0.5774, 0.1414, 0.0, nan]], [4, 2, 3, 1])
    """
    n = np.array([v.shape[-1] for v in values])
    sd = np.stack(
        [
            v.std(axis=-1, ddof=1) if v.shape[-1] >= 2 else np.full(v.shape[:-1], np.nan)
            for v in values
        ],
        axis=-1,
    )
    return sd, n


def stratified_standard_error(sd: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The index standard error ``sqrt(sum_t W_t^2 s_t^2 / n_t)`` and its Welch-Satterthwaite df.

    ``sd`` holds the per-track sample standard deviations (last axis: P, S, C, O) and
    ``n`` the task counts. The standard error is in index points: how far the index
    would typically move if the suite's tasks were drawn again from the same pool. Both
    are NaN when a track has fewer than two tasks; ``df`` is NaN as well when the
    standard error is 0 (every track's task values equal).

    Examples
    --------
    >>> import numpy as np
    >>> se, df = stratified_standard_error(np.array([0.5, 0.2, 0.4, 0.5]),
    ...                                    np.array([20, 20, 20, 20]))
    >>> round(float(se), 4), round(float(df), 2)
    (4.6368, 47.94)
    """
    n = np.asarray(n, dtype=float)
    terms = np.square(np.asarray(WEIGHT_VECTOR, dtype=float)) * np.square(sd) / n
    variance = terms.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        df = np.square(variance) / (np.square(terms) / (n - 1)).sum(axis=-1)
    df = np.where(variance > 0, df, np.nan)
    return np.sqrt(variance), df


def t_interval(
    estimate: np.ndarray, se: np.ndarray, df: np.ndarray, level: float
) -> tuple[np.ndarray, np.ndarray]:
    """``estimate -+ t(1 - (1 - level)/2, df) * se``: the two-sided t-interval at ``level``.

    A standard error of exactly 0 gives the degenerate interval ``[estimate, estimate]``
    (whatever ``df``); a NaN standard error gives NaN ends (no interval).

    Examples
    --------
    >>> import numpy as np
    >>> low, high = t_interval(np.array([50.0, 7.0]), np.array([2.0, 0.0]),
    ...                        np.array([30.0, np.nan]), 0.95)
    >>> low.round(3).tolist(), high.round(3).tolist()
    ([45.915, 7.0], [54.085, 7.0])
    """
    from scipy.special import stdtrit  # what scipy.stats.t.ppf calls, without its import

    estimate, se, df = (np.asarray(a, dtype=float) for a in (estimate, se, df))
    quantile = stdtrit(np.where(np.isnan(df), 1.0, df), 0.5 + level / 2)
    half = np.where(se == 0, 0.0, quantile * se)
    return estimate - half, estimate + half


def percentile_interval(replicates: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    """The ``(1 - level)/2`` and ``1 - (1 - level)/2`` quantiles of replicates (last axis).

    Quantiles use numpy's default (linear interpolation between order statistics).

    Examples
    --------
    >>> import numpy as np
    >>> low, high = percentile_interval(np.arange(101.0), 0.5)
    >>> float(low), float(high)
    (25.0, 75.0)
    """
    alpha = 1.0 - level
    ends = np.quantile(replicates, [alpha / 2, 1 - alpha / 2], axis=-1)
    return ends[0], ends[1]
