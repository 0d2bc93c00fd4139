"""What more data would buy: attempts versus tasks (the power view of Miller, 2024).

A task mean's variance is ``sigma_task^2 + sigma_attempt^2 / k``: doubling the tasks halves
a track mean's variance, doubling the attempts only the attempt part (docs/uncertainty.md).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from ..formulas import WEIGHT_VECTOR
from ..vocab import TRACKS


def decompose_track_variance(task_scores: Sequence[Sequence[float]]) -> dict[str, Any] | None:
    """Task and attempt shares of a track mean's variance, and projected standard errors.

    ``task_scores``: per task, the scores of its adopted valid attempts. ``None`` when no
    task has two attempts or the track has fewer than two tasks; the keys (track-mean
    units) are the ``variance_components`` of docs/uncertainty.md.

    Four tasks with 2 attempts each:

    >>> out = decompose_track_variance([[0.2, 0.4], [0.5, 0.7], [0.8, 0.6], [0.3, 0.5]])
    >>> round(out["attempt_variance"], 6), round(out["attempt_share"], 6)
    (0.02, 0.3)
    >>> round(out["se_fitted"], 4), round(out["se_twice_attempts"], 4)
    (0.0913, 0.0842)
    >>> decompose_track_variance([[1.0], [0.0]]) is None
    True
    """
    n = len(task_scores)
    repeated = [s for s in task_scores if len(s) >= 2]
    if n < 2 or not repeated:
        return None
    # Plain Python: a task holds a few attempts, far too few for numpy to pay off.
    means = [math.fsum(s) / len(s) for s in task_scores]
    within = math.fsum(_squared_deviations(s) for s in repeated)
    attempt_variance = within / sum(len(s) - 1 for s in repeated)
    inverse_k = math.fsum(1.0 / len(s) for s in task_scores) / n
    attempt_part = attempt_variance * inverse_k
    task_variance = max(0.0, _squared_deviations(means) / (n - 1) - attempt_part)
    total = task_variance + attempt_part
    return {
        "n_tasks": n,
        "n_tasks_with_repeats": len(repeated),
        "mean_attempts": sum(len(s) for s in task_scores) / n,
        "attempt_variance": attempt_variance,
        "attempt_part": attempt_part,
        "task_variance": task_variance,
        "attempt_share": attempt_part / total if total > 0 else None,
        "task_share": task_variance / total if total > 0 else None,
        "se_fitted": math.sqrt(total / n),
        "se_twice_tasks": math.sqrt(total / (2 * n)),
        "se_twice_attempts": math.sqrt((task_variance + attempt_part / 2) / n),
    }


class RepeatSpread(NamedTuple):
    """How a task's adopted valid repeats spread: count, low, high, range, std (ddof 1)."""

    repeats: int
    low: float
    high: float
    range: float
    std: float


def repeat_spread(scores: Sequence[float]) -> RepeatSpread | None:
    """The spread of one task's repeats; ``None`` for fewer than two.

    >>> repeat_spread([0.2, 0.4])
    RepeatSpread(repeats=2, low=0.2, high=0.4, range=0.2, std=0.14142135623730953)
    >>> repeat_spread([1.0]) is None
    True
    """
    if len(scores) < 2:
        return None
    import numpy as np

    values = np.asarray(scores, dtype=float)
    low, high = values.min(), values.max()
    spread = float(round(high - low, 12))  # numpy's rounding, as the pages always showed
    return RepeatSpread(len(values), float(low), float(high), spread, float(values.std(ddof=1)))


def _squared_deviations(values: Sequence[float]) -> float:
    """``sum((x - mean)^2)`` of a few numbers (two passes, compensated sums)."""
    mean = math.fsum(values) / len(values)
    return math.fsum((x - mean) ** 2 for x in values)


def project_index_se(
    track_sd: Mapping[str, float | None],
    n_tasks: Mapping[str, int],
    components: Mapping[str, dict[str, Any] | None],
) -> dict[str, float | None]:
    """The index standard error projected for twice the tasks or twice the attempts.

    Per track, a task mean's variance is the fitted one of :func:`decompose_track_variance`
    where it could split the parts, else ``s_t^2``. ``twice_attempts`` is ``None`` unless
    every track was split; both are ``None`` when a track has fewer than two tasks.

    >>> sd = dict(zip(TRACKS, (0.5, 0.2, 0.4, 0.5)))
    >>> n = dict.fromkeys(sd, 20)
    >>> out = project_index_se(sd, n, dict.fromkeys(sd))
    >>> round(out["twice_tasks"], 4), out["twice_attempts"]
    (3.2787, None)
    """
    if any(track_sd.get(track) is None for track in TRACKS):
        return {"twice_tasks": None, "twice_attempts": None}
    twice_tasks, twice_attempts = 0.0, 0.0  # variances, summed over the tracks
    for weight, track in zip(WEIGHT_VECTOR, TRACKS, strict=True):
        part, n = components.get(track), n_tasks[track]
        if part is None:
            twice_tasks += weight * weight * track_sd[track] ** 2 / (2 * n)
            twice_attempts = math.nan
        else:
            variance = part["task_variance"] + part["attempt_part"]
            twice_tasks += weight * weight * variance / (2 * n)
            twice_attempts += weight * weight * (variance - part["attempt_part"] / 2) / n
    return {
        "twice_tasks": math.sqrt(twice_tasks),
        "twice_attempts": None if math.isnan(twice_attempts) else math.sqrt(twice_attempts),
    }


#: Fewer repeated tasks than this in a track: ``attempt_se`` carries a warning.
FEW_REPEATED_TASKS = 3


def attempt_standard_error(
    components: Mapping[str, dict[str, Any] | None], n_tasks: Mapping[str, int]
) -> float | None:
    """The index standard error from attempts alone: how far a rerun of the same tasks moves it.

    ``sqrt(sum_t W_t^2 * attempt_part_t / n_t)`` in points; ``None`` unless every track has
    a task with two or more attempts.

    >>> part = {"attempt_part": 0.01}
    >>> n = dict.fromkeys(TRACKS, 20)
    >>> round(attempt_standard_error(dict.fromkeys(TRACKS, part), n), 4)   # sqrt(1.4)
    1.1832
    >>> attempt_standard_error({**dict.fromkeys(TRACKS, part), "solver": None}, n) is None
    True
    """
    if any(components.get(track) is None for track in TRACKS):
        return None
    return math.sqrt(
        math.fsum(
            w * w * components[t]["attempt_part"] / n_tasks[t]
            for w, t in zip(WEIGHT_VECTOR, TRACKS, strict=True)
        )
    )
