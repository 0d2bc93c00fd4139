"""Why two close indexes may not differ: the teaching notebook's look at ``tcsexam stats``.

An index is a weighted mean over about twenty tasks per track. Another draw of tasks
from the same pool would move it by a few points, so two models a point or two apart
can trade places. :func:`close_indexes_report` shows it on an ILLUSTRATIVE cohort of
three simulated models (20 tasks per track): two close ones and one far ahead, with the
intervals, paired tests and rank claims of :func:`tcsexam_lib.stats.analyse_cohort`.
"""

from __future__ import annotations

import numpy as np

from ..stats.analysis import analyse_cohort
from ..vocab import TRACKS

#: The ILLUSTRATIVE models and how far each is from the first, in track-mean units.
CLOSE_MODELS = {"illustrative-a": 0.0, "illustrative-b": 0.03, "illustrative-c": 0.25}


def close_models_task_means(seed: int = 20261202) -> list[np.ndarray]:
    """ILLUSTRATIVE task means of the three models, per track (P, S, C, O): 20 tasks each.

    The second model is ahead of the first by 0.03 on average, the third by 0.25; each
    task's mean varies around that by about 0.25 (tasks differ in difficulty).
    """
    rng = np.random.default_rng(seed)
    tracks = []
    for track in TRACKS:
        base = rng.uniform(0.2, 0.8, size=20)
        rows = [base + shift + rng.normal(0.0, 0.25, size=20) for shift in CLOSE_MODELS.values()]
        upper = 1.5 if track == "construction" else 1.0
        tracks.append(np.clip(np.vstack(rows), 0.0, upper))
    return tracks


def close_indexes_report(level: float = 0.95) -> str:
    """Each model's index with its interval, each pair's difference and test, and the claims.

    Examples
    --------
    >>> print(close_indexes_report().splitlines()[0])
    ILLUSTRATIVE (simulated) cohort: 3 models, 20 tasks per track
    """
    names = list(CLOSE_MODELS)
    out = analyse_cohort(close_models_task_means(), names=names, level=level)
    percent = f"{level:.0%}"
    lines = [f"ILLUSTRATIVE (simulated) cohort: {len(names)} models, 20 tasks per track"]
    for position in out.order:
        low, high = out.index_ci[0][position], out.index_ci[1][position]
        lines.append(
            f"  {names[position]}: index {out.index[position]:.2f} "
            f"({percent} interval {low:.2f} to {high:.2f}), rank {out.ranks[position]}, "
            f"rank interval {out.rank_ci[position][0]} to {out.rank_ci[position][1]}"
        )
    lines.append("Pairs (a minus b), paired over the same tasks:")
    pairs = out.pairs
    for k in range(len(pairs)):
        a, b = int(pairs.first[k]), int(pairs.second[k])
        verdict = "differ" if pairs.significant[k] else "cannot be told apart"
        lines.append(
            f"  {names[a]} - {names[b]}: {pairs.delta[k]:.2f} points "
            f"({percent} interval {pairs.ci_low[k]:.2f} to {pairs.ci_high[k]:.2f}), "
            f"p {pairs.p_holm[k]:.3f} after Holm: {verdict}"
        )
    leaders = ", ".join(names[k] for k in out.leader_group)
    lines.append(f"Could be first (no model significantly ahead): {leaders}")
    groups = " | ".join(", ".join(names[k] for k in group) for group in out.tie_groups)
    lines.append(f"Tie groups (no pair inside a group differs): {groups}")
    return "\n".join(lines)
