"""Standard errors and intervals of track means and of the index, for each model.

``se_t = s_t / sqrt(n_t)`` and ``index_se = sqrt(sum_t W_t^2 s_t^2 / n_t)``. Each track's
interval follows what its task means can be (Clopper–Pearson, Wilson at an effective
sample size, Hall's skewness-corrected t); the index interval combines them by
MOVER–Welch. The rules and why: docs/uncertainty.md, "Methods, and why".
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..formulas import WEIGHT_VECTOR
from ..vocab import TRACK_DECLARATION, TRACKS
from .skewness import one_sided_interval

#: The values a track mean can take; reported intervals are clipped to them.
TRACK_RANGES = {t.name: (0.0, t.high) for t in TRACK_DECLARATION}
#: Interval methods, as the output names them (``tracks.<t>.ci_method``).
METHOD_CLOPPER_PEARSON = "clopper-pearson"
METHOD_WILSON = "wilson-effective-n"
METHOD_HALL = "hall-skewness-corrected-t"
METHOD_WILSON_BOUND = "wilson-no-spread"
METHOD_NONE = "none"
_METHODS = (METHOD_NONE, METHOD_CLOPPER_PEARSON, METHOD_WILSON, METHOD_HALL, METHOD_WILSON_BOUND)
#: Every interval method, in the order the published schema lists them.
CI_METHODS = (*_METHODS[1:], METHOD_NONE)


@dataclass(frozen=True)
class Moments:
    """Per model and track: the moments the intervals use.

    Arrays of shape ``(models, tracks)`` (in ``TRACKS`` order); ``n`` has shape ``(tracks,)``.
    ``sd`` and ``df`` are NaN for a track with fewer than two tasks; ``skewness`` (the
    adjusted sample skewness) is 0 with fewer than three.
    """

    n: np.ndarray
    mean: np.ndarray
    sd: np.ndarray
    df: np.ndarray
    skewness: np.ndarray


def track_moments(values: Sequence[np.ndarray]) -> Moments:
    """Means, standard deviations, degrees of freedom and skewness per track.

    >>> import numpy as np
    >>> m = track_moments([np.array([[0.0, 1.0, 1.0, 0.0]]), np.array([[0.5, 0.7]]),
    ...                    np.array([[1.0, 1.0, 1.0]]), np.array([[1.0]])])
    >>> m.sd.round(4).tolist(), m.df.tolist(), m.n.tolist()
    ([[0.5774, 0.1414, 0.0, nan]], [[3.0, 1.0, 2.0, nan]], [4, 2, 3, 1])
    """
    n = np.array([v.shape[-1] for v in values])
    columns = [_moments_of(v) for v in values]
    mean, sd, df, skewness = (np.stack([c[k] for c in columns], axis=-1) for k in range(4))
    return Moments(n=n, mean=mean, sd=sd, df=df, skewness=skewness)


def _moments_of(v: np.ndarray) -> tuple[np.ndarray, ...]:
    n = v.shape[-1]
    mean = v.mean(axis=-1)
    nan, zero = np.full(mean.shape, np.nan), np.zeros(mean.shape)
    if n < 2:
        return mean, nan, nan, zero
    centred = v - mean[..., None]
    squares = centred * centred
    m2 = squares.mean(axis=-1)
    sd = np.sqrt(m2 * n / (n - 1))
    df = moment_degrees_of_freedom(m2, (squares * squares).mean(axis=-1), n)
    if n < 3:
        return mean, sd, df, zero
    m3 = (squares * centred).mean(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        skewness = np.where(m2 > 0, m3 / m2**1.5 * np.sqrt(n * (n - 1)) / (n - 2), 0.0)
    return mean, sd, df, skewness


def moment_degrees_of_freedom(m2: np.ndarray, m4: np.ndarray, n: int) -> np.ndarray:
    """``2 s^4 / Var(s^2)`` with ``Var(s^2)`` estimated from the fourth moment, in [1, n - 1].

    ``m2``, ``m4``: central sample moments (divided by n). About ``n - 1`` for normal data,
    fewer with heavier tails (a wider t quantile); zero spread gives ``n - 1``.

    >>> import numpy as np
    >>> x = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 10.0])   # one far value
    >>> m2, m4 = x.var(), ((x - x.mean()) ** 4).mean()
    >>> round(float(moment_degrees_of_freedom(np.array(m2), np.array(m4), 8)), 2)   # not 7
    3.85
    >>> float(moment_degrees_of_freedom(np.array(0.0), np.array(0.0), 8))
    7.0
    """
    s2 = m2 * n / (n - 1)
    variance = (m4 - m2 * m2 * (n - 3) / (n - 1)) / n
    with np.errstate(divide="ignore", invalid="ignore"):
        df = 2.0 * s2 * s2 / variance
    df = np.where((variance > 0) & np.isfinite(df), df, n - 1.0)
    return np.clip(df, 1.0, n - 1.0)


def stratified_standard_error(sd: np.ndarray, n: np.ndarray) -> np.ndarray:
    """``sqrt(sum_t W_t^2 s_t^2 / n_t)`` in index points (NaN when a track has < 2 tasks).

    >>> import numpy as np
    >>> round(float(stratified_standard_error(np.array([0.5, 0.2, 0.4, 0.5]),
    ...                                        np.array([20, 20, 20, 20]))), 4)
    4.6368
    """
    weights = np.square(np.asarray(WEIGHT_VECTOR, dtype=float))
    return np.sqrt((weights * np.square(sd) / np.asarray(n, dtype=float)).sum(axis=-1))


def welch_satterthwaite(terms: np.ndarray, df: np.ndarray) -> np.ndarray:
    """``(sum v)^2 / sum(v^2 / df)`` over the last axis (the df of a sum of variances).

    Terms that are 0 do not count; all 0 gives NaN.

    >>> import numpy as np
    >>> float(welch_satterthwaite(np.array([1.0, 1.0]), np.array([4.0, 4.0])))
    8.0
    """
    total = terms.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        parts = np.where(terms > 0, terms * terms / df, 0.0)
        return np.where(total > 0, total * total / parts.sum(axis=-1), np.nan)


@dataclass(frozen=True)
class TrackIntervals:
    """Per model and track (``(models, tracks)`` arrays): the interval and how it was made.

    ``low``/``high`` are unclipped (the index interval combines them); ``quantile`` and
    ``df`` are those that turn a half-width back into a standard error; ``method``
    indexes :data:`_METHODS`.
    """

    low: np.ndarray
    high: np.ndarray
    quantile: np.ndarray
    df: np.ndarray
    method: np.ndarray

    def clipped(self) -> tuple[np.ndarray, np.ndarray]:
        """The intervals clipped to each track's range."""
        low_end, high_end = (np.array([TRACK_RANGES[t][k] for t in TRACKS]) for k in (0, 1))
        return np.maximum(self.low, low_end), np.minimum(self.high, high_end)

    def method_names(self) -> np.ndarray:
        """The method of each interval, by name."""
        return np.array(_METHODS, dtype=object)[self.method]


def track_intervals(values: Sequence[np.ndarray], moments: Moments, level: float) -> TrackIntervals:
    """The interval of every model's track mean (see the module docstring for the rules).

    Five theorem tasks, none solved: Clopper–Pearson, never ``[0, 0]``:

    >>> import numpy as np
    >>> values = [np.zeros((1, 5)), np.array([[0.2, 0.4, 0.5, 0.3, 0.6]]),
    ...           np.array([[1.0, 1.2, 0.8, 1.1, 0.9]]), np.array([[0.0, 1, 0, 0, 1]])]
    >>> out = track_intervals(values, track_moments(values), 0.95)
    >>> out.method_names().tolist()
    [['clopper-pearson', 'wilson-effective-n', 'hall-skewness-corrected-t', 'clopper-pearson']]
    >>> low, high = out.clipped()
    >>> round(float(low[0, 0]), 4), round(float(high[0, 0]), 4)
    (0.0, 0.5218)
    """
    alpha = 1.0 - level
    shape = moments.mean.shape
    low, high = np.full(shape, np.nan), np.full(shape, np.nan)
    df = moments.df.copy()
    df[:, moments.n < 2] = np.inf  # no spread to estimate: the bound alone
    quantile = t_quantile(0.5 + level / 2.0, df)
    method = np.zeros(shape, dtype=int)
    for k, track in enumerate(TRACKS):
        v = values[k]
        n = v.shape[-1]
        bounded = TRACK_RANGES[track][1] == 1.0
        if n == 0 or (n < 2 and not bounded):
            continue  # construction with one task: no spread and no bound
        mean, sd = moments.mean[:, k], np.nan_to_num(moments.sd[:, k])
        q = quantile[:, k]
        se = sd / np.sqrt(n)
        flat = sd == 0
        if bounded:
            binary = np.all((v == 0.0) | (v == 1.0), axis=-1)
            with np.errstate(divide="ignore", invalid="ignore"):
                n_eff = mean * (1.0 - mean) / (se * se)
            n_eff = np.where(flat | (mean <= 0) | (mean >= 1), n, n_eff)
            low[:, k], high[:, k] = wilson_interval(mean, n_eff, q)
            reach_low, reach_high = undrawn_ends(mean, n, alpha)
            low[:, k] = np.minimum(low[:, k], reach_low)
            high[:, k] = np.maximum(high[:, k], reach_high)
            method[:, k] = _METHODS.index(METHOD_WILSON)
            if binary.any():
                low[binary, k], high[binary, k] = clopper_pearson(
                    np.rint(mean[binary] * n), n, alpha
                )
                method[binary, k] = _METHODS.index(METHOD_CLOPPER_PEARSON)
            continue
        with np.errstate(divide="ignore", invalid="ignore"):
            variation = np.where(mean > 0, sd / mean, 0.0)  # rewards >= 0: skewed right
        skew = np.maximum(moments.skewness[:, k], 2.0 * variation) / np.sqrt(n)  # gamma's
        low[:, k], high[:, k] = one_sided_interval(mean, se, skew, q)
        method[:, k] = _METHODS.index(METHOD_HALL)
        if flat.any():
            bound = np.maximum(1.0, mean[flat])
            w_low, w_high = wilson_interval(mean[flat] / bound, n, q[flat])
            low[flat, k], high[flat, k] = w_low * bound, w_high * bound
            method[flat, k] = _METHODS.index(METHOD_WILSON_BOUND)
    return TrackIntervals(low=low, high=high, quantile=quantile, df=df, method=method)


def undrawn_share(n: int, alpha: float) -> float:
    """The largest share of tasks that ``n`` tasks all miss with probability ``alpha / 2``:
    ``1 - (alpha/2)^(1/n)`` (the exact rule of three; Clopper–Pearson's upper end at 0).

    >>> round(undrawn_share(5, 0.05), 4), round(undrawn_share(160, 0.05), 4)
    (0.5218, 0.0228)
    """
    return 1.0 - (alpha / 2.0) ** (1.0 / n)


def undrawn_ends(mean: np.ndarray, n, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Where a [0, 1] track mean would go if the undrawn share of its tasks sat at either
    bound: ``(mean (1 - r), mean + r (1 - mean))``; a Wilson interval reaches at least there.

    >>> low, high = undrawn_ends(np.array([0.0, 0.9]), 5, 0.05)
    >>> low.round(4).tolist(), high.round(4).tolist()
    ([0.0, 0.4304], [0.5218, 0.9522])
    """
    share = undrawn_share(n, alpha)
    return mean * (1.0 - share), mean + share * (1.0 - mean)


def clopper_pearson(k: np.ndarray, n: int, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """The exact binomial interval of ``k`` successes out of ``n`` (``k`` whole numbers).

    >>> import numpy as np
    >>> low, high = clopper_pearson(np.array([0.0, 5.0, 2.0]), 5, 0.05)
    >>> low.round(4).tolist(), high.round(4).tolist()
    ([0.0, 0.4782, 0.0527], [0.5218, 1.0, 0.8534])
    """
    low, high = _clopper_pearson_table(int(n), float(alpha))
    where = np.asarray(k, dtype=int)
    return low[where], high[where]


@functools.lru_cache(maxsize=256)
def _clopper_pearson_table(n: int, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """The limits for every ``k`` from 0 to ``n``, computed once: Beta(k, n - k + 1)'s
    ``alpha/2`` quantile and Beta(k + 1, n - k)'s ``1 - alpha/2`` one."""
    from scipy.special import betaincinv

    k = np.arange(n + 1, dtype=float)
    with np.errstate(invalid="ignore"):
        low = np.where(k == 0, 0.0, betaincinv(np.maximum(k, 1.0), n - k + 1, alpha / 2))
        high = np.where(k == n, 1.0, betaincinv(k + 1, np.maximum(n - k, 1.0), 1 - alpha / 2))
    low.flags.writeable = high.flags.writeable = False  # shared by every caller
    return low, high


def wilson_interval(
    p: np.ndarray, n: np.ndarray | float, z: np.ndarray | float
) -> tuple[np.ndarray, np.ndarray]:
    """The Wilson score interval of a proportion ``p`` out of ``n`` with quantile ``z``.

    >>> import numpy as np
    >>> low, high = wilson_interval(np.array([0.0, 0.5]), 5, 1.959963984540054)
    >>> low.round(4).tolist(), high.round(4).tolist()
    ([0.0, 0.1704], [0.4345, 0.8296])
    """
    denominator = 1.0 + z * z / n
    centre = (p + z * z / (2.0 * n)) / denominator
    half = z * np.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n)) / denominator
    return np.maximum(centre - half, 0.0), np.minimum(centre + half, 1.0)


def index_interval(
    index: np.ndarray, tracks: TrackIntervals, moments: Moments, level: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The MOVER–Welch interval of each model's index: ``(low, high, df_low, df_high)``.

    Per side, ``t(1 - alpha/2, df) * sqrt(sum_t W_t^2 e_t^2)`` (``e_t``: the track's
    half-width over its quantile; ``df``: Welch–Satterthwaite); NaN where a track has no
    interval; the low end clipped at 0.

    >>> import numpy as np
    >>> values = [np.array([[0.0, 1, 1, 0, 1]]), np.array([[0.2, 0.4, 0.5, 0.3, 0.6]]),
    ...           np.array([[1.0, 1.2, 0.8, 1.1, 0.9]]), np.zeros((1, 5))]
    >>> m = track_moments(values)
    >>> tracks = track_intervals(values, m, 0.95)
    >>> index = np.array([30 * 0.6 + 30 * 0.4 + 30 * 1.0])
    >>> low, high, _, _ = index_interval(index, tracks, m, 0.95)
    >>> round(float(low[0]), 2), round(float(high[0]), 2)
    (46.39, 72.83)
    """
    weights = np.asarray(WEIGHT_VECTOR, dtype=float)
    sides = np.stack([moments.mean - tracks.low, tracks.high - moments.mean])  # (2, M, tracks)
    terms = np.square(weights * sides / tracks.quantile)
    df = welch_satterthwaite(terms, tracks.df)
    q = t_quantile(0.5 + level / 2.0, np.where(np.isnan(df), 1.0, df))
    total = terms.sum(axis=-1)  # 0: every track's interval ends at its mean on that side
    width = np.where(total == 0, 0.0, np.where(np.isnan(df), np.nan, q * np.sqrt(total)))
    return np.maximum(index - width[0], 0.0), index + width[1], df[0], df[1]


def t_quantile(q: float, df: np.ndarray) -> np.ndarray:
    """The ``q`` quantile of Student's t with ``df`` degrees of freedom (``inf``: normal).

    >>> round(float(t_quantile(0.975, np.array(10.0))), 12)
    2.228138851986
    """
    from scipy.special import stdtrit

    return stdtrit(np.asarray(df, dtype=float), q)
