"""The two formulas as text for fixed values: the widgets' static fallbacks (deterministic
for nbval and exports); numbers from :mod:`tcsexam_lib.formulas`, the ddof-0 column a contrast."""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from ..exports import show_keywords_of
from ..formulas import (
    InstanceStats,
    combine_track_means,
    compute_instance_stats,
    instance_score,
    phi,
    scale_terms,
    track_contribution,
    z_score,
)
from ..vocab import (
    FIXED_SCALE_FLOOR_ABSOLUTE,
    FIXED_SCALE_FLOOR_RELATIVE,
    INDEX_FORMULA,
    TRACK_OF,
    TRACKS,
)

#: The two directions of an objective solver task.
DIRECTIONS = ("maximize", "minimize")

#: The seed's worked examples: example-1's reference values and the four track means.
SEED_VALUES = (10, 12, 14)
SEED_MEANS = {"theorem": 0.4, "solver": 0.25, "construction": 1.2, "conjecture": 0.0}


def _finite(name: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number; got {value!r}")
    return float(value)


class SolverCase(NamedTuple):
    """One solver instance as the teaching views take it, checked, with its statistics."""

    values: Sequence[float]
    a: float
    rel_floor: float
    abs_floor: float
    direction: str
    stats: InstanceStats


def solver_case(
    values: Sequence[float],
    a: float,
    *,
    rel_floor: float = FIXED_SCALE_FLOOR_RELATIVE,
    abs_floor: float = FIXED_SCALE_FLOOR_ABSOLUTE,
    direction: str = "maximize",
) -> SolverCase:
    """Refuse what the formula cannot score; the instance with its statistics."""
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {', '.join(DIRECTIONS)}; got {direction!r}")
    _finite("A", a)
    if _finite("rel_floor", rel_floor) < 0:
        raise ValueError(f"rel_floor must be >= 0; got {rel_floor!r}")
    if _finite("abs_floor", abs_floor) <= 0:
        raise ValueError(
            f"abs_floor must be > 0 (it keeps the division defined); got {abs_floor!r}"
        )
    stats = compute_instance_stats(list(values), rel_floor, abs_floor)
    if stats is None:
        raise ValueError(
            f"reference values {list(values)!r}: fewer than two usable values, the instance "
            "is not scored"
        )
    return SolverCase(values, a, rel_floor, abs_floor, direction, stats)


#: Shows :func:`solver_case`'s keyword settings in the signature of a view that takes them
#: as ``**settings`` and hands them there.
takes_solver_settings = show_keywords_of(solver_case)


def _show(values: Sequence[float]) -> str:
    return "[" + ", ".join(f"{float(v):g}" for v in values) + "]"


@takes_solver_settings
def solver_score_report(
    values: Sequence[float] = SEED_VALUES,
    a: float = 12,
    **settings: Any,
) -> str:
    """One instance scored step by step: mu, s, the three scale terms, z and Phi(z).

    >>> print(solver_score_report([10, 12, 14], 14))
    reference values [10, 12, 14], maximize, candidate A = 14
    mu = 12, s = 2 (sample std, ddof 1)
    scale = the largest of
      sample_std                  2  <- sets the scale
      relative_floor 0.02*|mu|    0.24
      absolute_floor              1e-09
    z = (A - mu)/scale = 1
    instance score Phi(z) = 0.8413
    """
    _, _, rel_floor, abs_floor, direction, stats = solver_case(values, a, **settings)
    terms = scale_terms(stats.mu, stats.s, rel_floor, abs_floor)
    z, score = instance_score(a, stats, direction)
    labels = {
        "sample_std": "sample_std",
        "relative_floor": f"relative_floor {rel_floor:g}*|mu|",
        "absolute_floor": "absolute_floor",
    }
    lines = [
        f"reference values {_show(values)}, {direction}, candidate A = {a:g}",
        f"mu = {stats.mu:.6g}, s = {stats.s:.6g} (sample std, ddof 1)",
        "scale = the largest of",
    ]
    for name, value in terms.items():
        mark = "  <- sets the scale" if name == stats.scale_term else ""
        lines.append(f"  {labels[name]:<26}  {value:.6g}{mark}")
    formula = "(A - mu)/scale" if direction == "maximize" else "(mu - A)/scale"
    lines.append(f"z = {formula} = {z:.6g}")
    lines.append(f"instance score Phi(z) = {score:.4f}")
    return "\n".join(lines)


def check_track_means(means: Mapping[str, float]) -> dict[str, float]:
    """Refuse track means the index cannot have; return them as floats, in track order."""
    unknown = sorted(set(means) - set(TRACKS))
    missing = [t for t in TRACKS if t not in means]
    if unknown or missing:
        raise ValueError(
            f"track means are needed for exactly {', '.join(TRACKS)}; "
            f"missing {missing}, unknown {unknown}"
        )
    checked = {}
    for track in TRACKS:
        value = _finite(f"the {track} mean", means[track])
        high = TRACK_OF[track].high
        if not 0 <= value <= high:
            allowed = ">= 0" if high == math.inf else f"in [0, {high:g}]"
            raise ValueError(f"the {track} mean must be {allowed}; got {value!r}")
        checked[track] = value
    return checked


def track_means_report(means: Mapping[str, float] = SEED_MEANS) -> str:
    """The index from the track means, with each track's contribution in points.

    >>> print(track_means_report())
    P (theorem)       0.4    x 30 = 12 points
    S (solver)        0.25   x 30 = 7.5 points
    C (construction)  1.2    x 30 = 36 points
    O (conjecture)    0      x 10 = 0 points
    index = 30*P + 30*S + 30*C + 10*O = 55.5 points
    """
    checked = check_track_means(means)
    lines = []
    for track, mean in checked.items():
        name = f"{TRACK_OF[track].letter} ({track})"
        points = track_contribution(track, mean)
        lines.append(f"{name:<16}  {mean:<6.4g} x {TRACK_OF[track].weight} = {points:.6g} points")
    formula = INDEX_FORMULA.replace("·", "*")
    lines.append(f"index = {formula} = {combine_track_means(checked):.6g} points")
    return "\n".join(lines)


@takes_solver_settings
def ddof_contrast_report(
    values: Sequence[float] = SEED_VALUES,
    a: float = 14,
    **settings: Any,
) -> str:
    """The rule (sample std, ddof 1) beside the population std (ddof 0), a contrast only.

    >>> print(ddof_contrast_report([10, 12, 14], 14))
    reference values [10, 12, 14] (n = 3), maximize, candidate A = 14
                               s          scale      z          Phi(z)
    ddof 1 (the rule)          2          2          1          0.8413
    ddof 0 (contrast only)     1.63299    1.63299    1.22474    0.8897
    ddof 0 spread / ddof 1 spread = 0.816497
    """
    _, _, rel_floor, abs_floor, direction, stats = solver_case(values, a, **settings)
    z1, score1 = instance_score(a, stats, direction)
    usable = [float(v) for v in values if v is not None and math.isfinite(v)]
    s0 = statistics.pstdev(usable)  # the contrast: population std, ddof 0
    scale0 = max(scale_terms(stats.mu, s0, rel_floor, abs_floor).values())
    z0 = z_score(a, stats.mu, scale0, direction)
    rows = [
        ("ddof 1 (the rule)", stats.s, stats.scale, z1, score1),
        ("ddof 0 (contrast only)", s0, scale0, z0, phi(z0)),
    ]
    lines = [
        f"reference values {_show(values)} (n = {len(usable)}), {direction}, candidate A = {a:g}",
        f"{'':<25}  {'s':<9}  {'scale':<9}  {'z':<9}  Phi(z)",
    ]
    for label, s, scale, z, score in rows:
        lines.append(f"{label:<25}  {s:<9.6g}  {scale:<9.6g}  {z:<9.6g}  {score:.4f}")
    if stats.s > 0:
        lines.append(f"ddof 0 spread / ddof 1 spread = {s0 / stats.s:.6g}")
    return "\n".join(lines)
