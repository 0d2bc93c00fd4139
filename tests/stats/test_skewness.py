"""Hall's transformation used one way (`stats.skewness`) against oracles written here.

The oracles search the skewness numerically (scipy): the long side is the furthest end
any skewness between 0 and the estimate gives, the statistic the smallest ``|g(T)|``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import optimize

from tcsexam_lib.stats.skewness import (
    hall_inverse,
    long_side,
    longest_reach,
    one_sided_interval,
    peak_skewness,
)


def _g(t: float, skew: float) -> float:
    return t + skew * t * t / 3 + skew * skew * t**3 / 27 + skew / 6


def _long_end(skew: float, q: float) -> float:
    """``-g^-1(-q)`` by bisection on the monotone ``g``."""
    return -optimize.brentq(lambda t: _g(t, skew) + q, -1e4, 0.0, xtol=1e-14)


@given(st.floats(-0.6, 0.6), st.floats(-3.0, 3.0))
def test_hall_inverse_inverts_the_transformation(skew, v):
    t = float(hall_inverse(np.array(v), np.array(skew)))
    assert _g(t, skew) == pytest.approx(v, abs=1e-9)


@pytest.mark.parametrize("q", [1.0, 1.96, 2.78, 4.5])
def test_the_long_side_is_longest_at_the_cap(q):
    """Beyond the cap a larger skewness would shorten the long side: the real reason."""
    peak = float(peak_skewness(np.array(q)))
    best = optimize.minimize_scalar(
        lambda a: -_long_end(a, q), bounds=(1e-6, 5.0), method="bounded",
        options={"xatol": 1e-12},
    )  # fmt: skip
    assert peak == pytest.approx(best.x, rel=1e-5)
    assert float(longest_reach(np.array(q))) == pytest.approx(-best.fun, rel=1e-10)
    assert _long_end(2 * peak, q) < _long_end(peak, q)  # uncapped: not monotone
    grid = np.linspace(0.0, 3.0, 61)
    reach = long_side(grid, np.array(q))
    assert np.all(np.diff(reach) >= 0) and reach[0] == pytest.approx(q)
    for a, r in zip(grid, reach, strict=True):
        assert r == pytest.approx(_long_end(min(a, peak), q), rel=1e-9)


@given(st.floats(-1.5, 1.5), st.floats(1.2, 4.0))
def test_one_sided_interval(skew, q):
    low, high = one_sided_interval(np.array(1.0), np.array(0.2), np.array(skew), np.array(q))
    long = _long_end(min(abs(skew), float(peak_skewness(np.array(q)))), q)
    expected_high = 1.0 + 0.2 * (long if skew > 0 else q)
    expected_low = 1.0 - 0.2 * (long if skew < 0 else q)
    assert (float(low), float(high)) == pytest.approx((expected_low, expected_high), abs=1e-9)
