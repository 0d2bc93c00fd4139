"""Every formula of the TCSExam scoring rules, and nothing else (nothing else evaluates one).

Solver relative score (in [0, 1], higher is better; 0.5 = as good as the reference mean):
the mean over scored instances of ``Phi(z)``, ``z = (A - mu) / scale`` (maximise; ``mu - A``
minimise), ``scale = max(s, rel_floor*|mu|, abs_floor)`` over at least two finite reference
values; a completed failure scores 0. Index (points, higher is better, may exceed 100): the
weighted sum (``vocab.INDEX_FORMULA``) of the equal-weight track means of the task means
over adopted valid attempts.

``mu`` and ``s`` are exact (rational) and rounded once, as :mod:`statistics` does; beyond
2**53 ``z`` is exact too (:func:`exact_z`). Why: docs/choices.md.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .vocab import TRACK_WEIGHTS, TRACKS

#: Integers beyond this magnitude are not all floats: scored exactly (:func:`exact_z`).
LARGEST_EXACT_INT = 2**53

#: Names of the terms of ``scale = max(s, rel_floor*|mu|, abs_floor)``, in tie order.
SCALE_TERMS = ("sample_std", "relative_floor", "absolute_floor")

#: The index weights in the order of :data:`~tcsexam_lib.vocab.TRACKS` (points per unit
#: of track mean): ``index = WEIGHT_VECTOR . track means``.
WEIGHT_VECTOR = tuple(TRACK_WEIGHTS[track] for track in TRACKS)


@dataclass(frozen=True)
class InstanceStats:
    """Reference statistics of one scored instance: ``mu``, ``s`` (ddof 1), ``scale`` and the
    ``scale_term`` that set it (ties to the earlier); ``mu_exact`` beyond 2**53."""

    values: tuple[float | None, ...]
    n_usable: int
    mu: float
    s: float
    scale: float
    scale_term: str
    mu_exact: Fraction | None = field(default=None, repr=False, compare=False)


def usable_values(values: Iterable[float | None]) -> list[float]:
    """The usable reference values: finite numbers (``null`` is an unusable run); ints stay
    exact, other numbers become floats.

    >>> usable_values([10, None, 12.5, 2**60 + 1])
    [10, 12.5, 1152921504606846977]
    """
    return [v if type(v) is int else float(v) for v in values if v is not None and math.isfinite(v)]


def _exact_sums(values: Sequence[float]) -> tuple[int, int, int]:
    """``(sum of N_i, sum of N_i**2, D)`` with every value (float or int) ``N_i / D`` exactly."""
    ratios = [value.as_integer_ratio() for value in values]
    denominator = max(den for _, den in ratios)  # powers of two: the largest is a multiple
    scaled = [num * (denominator // den) for num, den in ratios]
    return sum(scaled), sum(n * n for n in scaled), denominator


def exact_mean(values: Sequence[float]) -> float:
    """The mean of floats, computed exactly and rounded once (as ``statistics.mean``).

    >>> exact_mean([10.0, 12.0, 14.0])
    12.0
    >>> exact_mean([0.1, 0.1, 0.1])  # a float sum would give 0.10000000000000002
    0.1
    """
    total, _, denominator = _exact_sums(values)
    return _mean_of_sums(len(values), total, denominator)


def _mean_of_sums(n: int, total: int, denominator: int) -> float:
    """:func:`exact_mean` from the exact sums of :func:`_exact_sums`."""
    return total / (denominator * n)  # int / int is correctly rounded


def exact_sample_std(values: Sequence[float]) -> float:
    """The sample standard deviation (ddof 1), exact and rounded once (as ``statistics.stdev``).

    >>> exact_sample_std([10.0, 12.0, 14.0])
    2.0
    >>> exact_sample_std([0.1, 0.1, 0.1])
    0.0
    >>> exact_sample_std([2**60 + 1, 2**60 + 3, 2**60 + 5])  # as floats all 2**60: 0.0
    2.0
    """
    return _sample_std_of_sums(len(values), *_exact_sums(values))


def _sample_std_of_sums(n: int, total: int, squares: int, denominator: int) -> float:
    """:func:`exact_sample_std` from the exact sums of :func:`_exact_sums`."""
    numerator = n * squares - total * total  # = n (n-1) D^2 * variance, exactly
    divisor = n * (n - 1) * denominator * denominator
    common = math.gcd(numerator, divisor)
    return _sqrt_of_fraction(numerator // common, divisor // common)


def _sqrt_of_fraction(n: int, m: int) -> float:
    """Square root of ``n/m``, correctly rounded (the method of ``statistics``)."""
    q = (n.bit_length() - m.bit_length() - 109) // 2  # 109: 2 * 53 + 3 guard bits
    if q >= 0:
        root = math.isqrt(n // (m << 2 * q))
        exact = root * root * (m << 2 * q) == n
        return ((root | (not exact)) << q) / 1
    root = math.isqrt((n << -2 * q) // m)
    exact = root * root * m == n << -2 * q
    return (root | (not exact)) / (1 << -q)


def scale_terms(mu: float, s: float, rel_floor: float, abs_floor: float) -> dict[str, float]:
    """The three candidates of ``scale = max(s, rel_floor*|mu|, abs_floor)``, by name, in
    tie order (:data:`SCALE_TERMS`).

    >>> scale_terms(12.0, 2.0, 0.02, 1e-9)
    {'sample_std': 2.0, 'relative_floor': 0.24, 'absolute_floor': 1e-09}
    >>> scale_terms(0.0, 0.0, 0.02, 1e-9)
    {'sample_std': 0.0, 'relative_floor': 0.0, 'absolute_floor': 1e-09}
    """
    return dict(zip(SCALE_TERMS, (s, rel_floor * abs(mu), abs_floor), strict=True))


def compute_instance_stats(
    values: Sequence[float | None], rel_floor: float, abs_floor: float
) -> InstanceStats | None:
    """Reference statistics of one instance, or ``None`` with fewer than two usable values.

    >>> stats = compute_instance_stats([10, 12, 14], 0.02, 1e-9)
    >>> stats.mu, stats.s, stats.scale, stats.scale_term
    (12.0, 2.0, 2.0, 'sample_std')
    >>> compute_instance_stats([5, None], 0.02, 1e-9) is None
    True
    >>> compute_instance_stats([2**60 + 1, 2**60 + 3, 2**60 + 5], 0, 1e-9).mu_exact
    Fraction(1152921504606846979, 1)
    """
    usable = usable_values(values)
    n = len(usable)
    if n < 2:
        return None
    total, squares, denominator = _exact_sums(usable)  # once for both mu and s
    mu = _mean_of_sums(n, total, denominator)
    s = _sample_std_of_sums(n, total, squares, denominator)
    terms = scale_terms(mu, s, rel_floor, abs_floor)
    scale = max(terms.values())
    term = next(name for name, value in terms.items() if value == scale)
    exact = None
    if any(abs(v) > LARGEST_EXACT_INT for v in usable):  # floats there are integers too
        exact = Fraction(total, denominator * n)
    return InstanceStats(tuple(values), len(usable), mu, s, scale, term, exact)


def z_score(a: float, mu: float, scale: float, direction: str) -> float:
    """``(A - mu)/scale`` when maximising, ``(mu - A)/scale`` when minimising (positive:
    better than the reference mean).

    >>> z_score(14.0, 12.0, 2.0, "maximize"), z_score(14.0, 12.0, 2.0, "minimize")
    (1.0, -1.0)
    """
    diff = a - mu if direction == "maximize" else mu - a
    return diff / scale  # may be an infinity for a value far beyond the reference


def exact_z(a: float, stats: InstanceStats, direction: str) -> float:
    """:func:`z_score` from the exact ``A - mu``, divided by the scale and rounded once: beyond
    2**53 a candidate 97 worse is not at ``z`` 0.

    >>> stats = compute_instance_stats([2**60 + 1, 2**60 + 3, 2**60 + 5], 0, 1e-9)
    >>> exact_z(2**60 + 100, stats, "minimize"), z_score(2**60 + 100, stats.mu, 2.0, "minimize")
    (-48.5, 0.0)
    """
    mu = stats.mu_exact if stats.mu_exact is not None else Fraction(stats.mu)
    diff = Fraction(a) - mu if direction == "maximize" else mu - Fraction(a)
    try:
        return float(diff / Fraction(stats.scale))
    except OverflowError:  # beyond every float: an infinity, as the float formula gives
        return math.copysign(math.inf, diff)


def phi(z):
    """The standard normal CDF ``Phi(z)``, the instance score (element-wise on an array).

    >>> phi(0.0)
    0.5
    >>> round(phi(1.0), 6)
    0.841345
    """
    from scipy.special import ndtr

    value = ndtr(z)
    return value if getattr(value, "ndim", 0) else float(value)


def instance_score(a: float, stats: InstanceStats, direction: str) -> tuple[float, float]:
    """Return ``(z, Phi(z))`` for a valid candidate value ``a`` (exact beyond 2**53).

    >>> stats = compute_instance_stats([10, 12, 14], 0.02, 1e-9)
    >>> instance_score(12, stats, "maximize")
    (0.0, 0.5)
    >>> z, score = instance_score(10, stats, "minimize")
    >>> z, round(score, 4)
    (1.0, 0.8413)
    """
    if stats.mu_exact is not None or abs(a) >= LARGEST_EXACT_INT:
        z = exact_z(a, stats, direction)
    else:
        z = z_score(a, stats.mu, stats.scale, direction)
    return z, phi(z)


def instance_scores(values, mus, scales, direction: str):
    """:func:`instance_score` of many candidates of one task at once, as arrays ``(zs, scores)``
    (the same floats as the scalar formulas).

    >>> zs, scores = instance_scores([12.0, 10.0], [12.0, 12.0], [2.0, 2.0], "minimize")
    >>> zs.tolist(), scores[0].item()
    ([0.0, 1.0], 0.5)
    """
    import numpy as np
    from scipy.special import ndtr

    a = np.asarray(values, dtype=float)
    mu = np.asarray(mus, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):  # an infinity is the caller's to refuse
        diff = a - mu if direction == "maximize" else mu - a
        z = diff / np.asarray(scales, dtype=float)
    return z, ndtr(z)


def relative_score(valid_scores: Sequence[float], n_scored: int) -> float:
    """A task's relative score: the sum of ``valid_scores`` over ``n_scored`` (a completed
    failure scores 0).

    >>> relative_score([0.5], 2)  # the worked example: 0.5 and a timeout's 0
    0.25
    """
    return math.fsum(valid_scores) / n_scored


def mean_score(scores: Sequence[float]) -> float:
    """An equal-weight mean (``math.fsum``, one division): of a task's instances, of a task's
    adopted attempts, of a track's tasks (three repeats weigh as one task).

    >>> mean_score([0.5, 0.0])
    0.25
    >>> mean_score([1e308, 1e308])  # the sum is not a float: neither is the mean here
    inf
    """
    try:
        return math.fsum(scores) / len(scores)
    except OverflowError:  # fsum's exact sum does not fit a float
        return math.inf


def track_contribution(track: str, mean: float) -> float:
    """Points a track mean adds to the index: ``weight * mean``.

    >>> track_contribution("conjecture", 0.5)
    5.0
    """
    return TRACK_WEIGHTS[track] * mean


def combine_track_means(means: Mapping[str, float]) -> float:
    """Weighted index in points from the track means.

    The worked example of the scoring rules:

    >>> combine_track_means(dict(zip(TRACKS, (0.4, 0.25, 1.2, 0.0))))
    55.5
    """
    missing = [t for t in TRACKS if t not in means]
    if missing:
        raise ValueError(f"track means missing for: {', '.join(missing)}")
    return math.fsum(track_contribution(t, float(means[t])) for t in TRACKS)


def combine_track_mean_arrays(means):
    """The index of many sets of track means at once (last axis the tracks), for resampling.

    >>> import numpy as np
    >>> combine_track_mean_arrays(np.array([[0.4, 0.25, 1.2, 0.0], [1, 1, 1, 1]])).tolist()
    [55.5, 100.0]
    """
    return means @ WEIGHT_VECTOR
