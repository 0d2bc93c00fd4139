"""Hall's (1992) skewness correction of a studentised estimate, used only to lengthen.

``g(T) = T + A T^2 / 3 + A^2 T^3 / 27 + A / 6`` (``A = G1 / sqrt(n)`` for a mean). The side
facing the long tail is lengthened, the other never shortened, with ``A`` capped at
:func:`peak_skewness`. Why, with the figures: docs/uncertainty.md.
"""

from __future__ import annotations

import numpy as np


def hall_inverse(v: np.ndarray, skew: np.ndarray) -> np.ndarray:
    """``g^-1(v)``: the ``T`` at which Hall's transformation with skewness ``skew`` is ``v``.

    Written ``3(v - b) / (c^2 + c + 1)`` (``a = skew / 3``, ``b = skew / 6``, ``c`` the cube
    root of ``1 + 3a(v - b)``): no cancellation when ``a`` is tiny or 0.

    >>> import numpy as np
    >>> float(hall_inverse(np.array(1.5), np.array(0.0)))
    1.5
    """
    a, b = skew / 3.0, skew / 6.0
    c = np.cbrt(1.0 + 3.0 * a * (v - b))
    return 3.0 * (v - b) / (c * c + c + 1.0)


def longest_reach(q: np.ndarray) -> np.ndarray:
    """The furthest the long side reaches, in standard errors, at quantile ``q``.

    Solves ``u / 4 - 3 / (4 u) - 3 / (16 u^3) = q`` (``-g(-u) = q`` at the cap ``A = 4.5 / u
    + 2.25 / u^3``) by Newton's method from ``4 q + 3 / q``.

    >>> import numpy as np
    >>> longest_reach(np.array([1.0, 2.0, 2.776])).round(4).tolist()
    [4.6523, 8.3601, 11.3684]
    """
    q = np.asarray(q, dtype=float)
    u = 4.0 * q + 3.0 / np.maximum(q, 0.5)
    for _ in range(8):  # quadratic convergence from above: 1e-15 by the fifth step
        value = u / 4.0 - 0.75 / u - 0.1875 / u**3 - q
        slope = 0.25 + 0.75 / u**2 + 0.5625 / u**4
        u = u - value / slope
    return u


def peak_skewness(q: np.ndarray) -> np.ndarray:
    """The skewness at which the long side of an interval at quantile ``q`` is longest.

    >>> import numpy as np
    >>> peak_skewness(np.array([2.0])).round(4).tolist()
    [0.5421]
    """
    u = longest_reach(q)
    return 4.5 / u + 2.25 / u**3


def long_side(skew: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The long side's reach in standard errors: ``-g^-1(-q)`` with ``|skew|`` capped.

    ``q`` without skewness; at most :func:`longest_reach` ``(q)``; never shorter than
    ``q`` (non-decreasing in ``|skew|``).

    >>> import numpy as np
    >>> long_side(np.array([0.0, 0.3, -0.3, 5.0]), np.array(2.0)).round(4).tolist()
    [2.0, 2.7252, 2.7252, 8.3601]
    """
    q = np.asarray(q, dtype=float)
    size = np.minimum(np.abs(skew), peak_skewness(q))
    return -hall_inverse(-q, size)


def one_sided_interval(
    centre: np.ndarray, se: np.ndarray, skew: np.ndarray, q: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``[low, high]``: ``centre -+ q se`` on the short side, :func:`long_side` on the other.

    A right-skewed estimate (``skew > 0``: its ``T`` has a long left tail) reaches further
    up; ``skew = 0`` gives the t-interval.

    >>> import numpy as np
    >>> low, high = one_sided_interval(np.array([1.0, 1.0]), np.array([0.1, 0.1]),
    ...                                np.array([0.0, 0.3]), np.array([2.0, 2.0]))
    >>> low.round(4).tolist(), high.round(4).tolist()
    ([0.8, 0.8], [1.2, 1.2725])
    """
    reach = se * long_side(skew, q)
    plain = se * q
    low = centre - np.where(skew < 0, reach, plain)
    high = centre + np.where(skew > 0, reach, plain)
    return low, high
