"""The number policy of every published page, one format per kind of number (docs/reports.md,
"One number policy"). Nothing here rounds a stored number."""

from __future__ import annotations

import math
import numbers
from typing import Any

from .vocab import BINARY_TRACKS

#: How a missing value (``null`` in the JSON outputs) reads.
MISSING_TEXT = "—"

POINTS = "points"
MEAN = "mean"
BINARY = "pass/fail"
P_VALUE = "p"
Z = "z"
RAW = "raw"
COUNT = "count"
TEXT = "text"
#: Every kind of number and how many decimals it shows (None: not a fixed count).
KINDS = {POINTS: 2, MEAN: 3, BINARY: None, P_VALUE: 3, Z: 2, RAW: None, COUNT: 0, TEXT: None}


def is_missing(value: Any) -> bool:
    """True for ``None`` and NaN (a value the outputs do not have).

    >>> is_missing(None), is_missing(float("nan")), is_missing(0.0)
    (True, True, False)
    """
    if value is None:
        return True
    try:
        return isinstance(value, numbers.Real) and math.isnan(float(value))
    except (TypeError, ValueError):
        return False


def format_value(value: Any, kind: str = MEAN) -> str:
    """One value as every page shows it.

    >>> format_value(82.8926, "points"), format_value(0.59472, "mean")
    ('82.89', '0.595')
    >>> [format_value(x, "pass/fail") for x in (1.0, 0, 2 / 3)]
    ['pass', 'fail', '0.667']
    >>> format_value(0.00004, "p"), format_value(0.158, "p"), format_value(None, "points")
    ('< 0.001', '0.158', '—')
    >>> format_value(523.714159, "raw"), format_value(1e-9, "raw"), format_value(7, "count")
    ('523.714', '1e-09', '7')
    >>> format_value(-0.0001, "points"), format_value(True, "text")
    ('0.00', 'yes')
    """
    if is_missing(value):
        return MISSING_TEXT
    if isinstance(value, bool):
        return "yes" if value else "no"
    if not isinstance(value, numbers.Real):
        return str(value)
    number = float(value)
    if math.isinf(number):
        return "∞" if number > 0 else "−∞"
    if kind == BINARY:
        if number in (0.0, 1.0):
            return "pass" if number == 1.0 else "fail"
        kind = MEAN
    if kind == RAW:
        return f"{number:.6g}"
    if kind == P_VALUE:
        return "< 0.001" if number < 0.0005 else f"{number:.3f}"
    if kind in (COUNT, TEXT):
        return str(int(number)) if number.is_integer() else f"{number:.6g}"
    decimals = KINDS.get(kind) or 3
    text = f"{number:.{decimals}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text  # no "-0.00"


def points(value: Any) -> str:
    """A number of points (2 decimals).

    >>> points(55.5), points(None)
    ('55.50', '—')
    """
    return format_value(value, POINTS)


def signed_points(value: Any) -> str:
    """A difference of points with its sign (2 decimals).

    >>> signed_points(12.1549), signed_points(-2.4), signed_points(0.0)
    ('+12.15', '-2.40', '0.00')
    """
    text = points(value)
    return text if text in (MISSING_TEXT, "0.00") or text.startswith("-") else f"+{text}"


def mean(value: Any) -> str:
    """A mean or a score in track units (3 decimals).

    >>> mean(0.25), mean(1.1267)
    ('0.250', '1.127')
    """
    return format_value(value, MEAN)


def task_kind(track: str) -> str:
    """How a task result of ``track`` reads: pass/fail on 0/1 tracks, else a mean.

    >>> task_kind("theorem"), task_kind("solver")
    ('pass/fail', 'mean')
    """
    return BINARY if track in BINARY_TRACKS else MEAN


def interval(low: Any, high: Any, kind: str = POINTS) -> str:
    """An interval ``[low, high]`` in one kind (``—`` when either end is missing).

    >>> interval(68.9, 92.54), interval(0.1, None)
    ('[68.90, 92.54]', '—')
    """
    if is_missing(low) or is_missing(high):
        return MISSING_TEXT
    return f"[{format_value(low, kind)}, {format_value(high, kind)}]"


def interval_reach(centre: Any, low: Any, high: Any) -> str:
    """How far an index's interval reaches from it, in points: ``a`` when both sides read
    ``a``, else ``+a / −b`` (a ``±`` never reaches past the interval); ``—`` if missing.

    >>> interval_reach(50.0, 40.0, 60.0), interval_reach(38.49, 0.0, 88.02)
    ('10.00', '+49.53 / −38.49')
    >>> interval_reach(None, None, None)
    '—'
    """
    if is_missing(centre) or is_missing(low) or is_missing(high):
        return MISSING_TEXT
    above, below = points(high - centre), points(centre - low)
    return above if above == below else f"+{above} / −{below}"


def index_with_interval(centre: Any, low: Any, high: Any) -> str:
    """An index with the reach of its interval, as prose shows it (points).

    >>> index_with_interval(50.0, 40.0, 60.0), index_with_interval(38.49, 0.0, 88.02)
    ('50.00 ± 10.00', '38.49 (+49.53 / −38.49)')
    """
    return " ".join(filter(None, index_parts(centre, low, high)))


def index_parts(centre: Any, low: Any, high: Any) -> tuple[str, str]:
    """The index and its interval's reach as two texts (the reach empty without an
    interval), so the reach may wrap under the index.

    >>> index_parts(38.49, 0.0, 88.02), index_parts(38.49, None, None)
    (('38.49', '(+49.53 / −38.49)'), ('38.49', ''))
    """
    reach = interval_reach(centre, low, high)
    if reach == MISSING_TEXT:
        return points(centre), ""
    return points(centre), f"± {reach}" if "/" not in reach else f"({reach})"


def rounded_parts(parts: list[float | None], decimals: int = 2) -> list[float | None]:
    """Parts rounded so their shown sum is their sum rounded (largest remainder, first on a
    tie: 49.34 + 14.33, not 49.33 + 14.33 for 63.67); missing parts stay missing.

    >>> rounded_parts([49.3333333, 14.3333333])
    [49.34, 14.33]
    >>> rounded_parts([12.0, None, 0.126])
    [12.0, None, 0.13]
    """
    scale = 10**decimals
    present = [(k, p * scale) for k, p in enumerate(parts) if not is_missing(p)]
    shown = f"{sum(p for p in parts if not is_missing(p)):.{decimals}f}"  # the sum as shown
    target = round(float(shown) * scale)
    floors = {k: math.floor(v) for k, v in present}
    short = int(target - sum(floors.values()))
    by_remainder = sorted(present, key=lambda kv: (-(kv[1] - floors[kv[0]]), kv[0]))
    for k, _ in by_remainder[: max(short, 0)]:
        floors[k] += 1
    return [None if k not in floors else floors[k] / scale for k in range(len(parts))]
