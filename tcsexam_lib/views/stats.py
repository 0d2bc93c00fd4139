"""Uncertainty in the reports: intervals, rank intervals, tie groups, paired differences.

Every number here comes from a ``tcsexam stats`` document (:func:`stats_result`): the
one the report runner wrote beside the run set's index, or, when a notebook runs
standalone, the same computation on the index it shows. The index itself is never
changed; an interval is shown beside it. A provisional model gets intervals and keeps
its status; a model without an index gets none.
"""

from __future__ import annotations

import os
from typing import Any

import pandas as pd

from ..errors import InputRefused, Problem
from ..jsonio import read_json
from ..schemas import validate_with_schema
from ..vocab import TRACK_LETTERS, TRACKS
from .notebook import OKABE_ITO, Note, label_simulated, name_models_without_index, new_axes


def stats_result(
    result: dict[str, Any],
    *,
    stats_json: str | os.PathLike[str] = "",
    resamples: int = 10_000,
    seed: int = 0,
    level: float = 0.95,
) -> dict[str, Any]:
    """The ``tcsexam stats`` document of the index a notebook shows.

    With ``stats_json`` (what the report runner passes) the file is read, checked
    against its schema and refused unless it was computed from this index (same models,
    statuses and indexes); otherwise it is computed from ``result`` as ``tcsexam stats``
    does (``resamples``, ``seed`` and ``level`` as its options).

    Examples
    --------
    >>> entry = {"status": "incomplete", "index": None}
    >>> doc = {"metric_id": "m", "index_sha256": "0" * 64, "level": 0.95, "ranking": [],
    ...        "pairs": [], "leader_group": [], "tie_groups": [], "models": {"x": {
    ...        "status": "incomplete", "index": None, "rank": None, "index_se": None,
    ...        "index_ci": None, "index_ci_half_width": None, "rank_ci": None}}}
    >>> import json, pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "stats.json"
    >>> _ = path.write_text(json.dumps(doc))
    >>> stats_result({"models": {"x": entry}}, stats_json=path)["level"]
    0.95
    >>> try:
    ...     stats_result({"models": {"y": entry}}, stats_json=path)
    ... except InputRefused as exc:
    ...     print(exc.problems[0].field, "|", exc.problems[0].allowed)
    models | the models of the index shown: y
    """
    if not stats_json:
        from ..stats.command import compute_stats

        return compute_stats(
            result, source="the index shown", resamples=resamples, seed=seed, level=level
        ).to_dict()
    source = str(stats_json)
    stats = read_json(stats_json)
    validate_with_schema(stats, "stats-output", source)
    problems = []
    if list(stats["models"]) != list(result["models"]):
        problems.append(
            Problem(
                source,
                field="models",
                value=", ".join(stats["models"]),
                allowed="the models of the index shown: " + ", ".join(result["models"]),
            )
        )
    else:
        for model, entry in result["models"].items():
            for key in ("status", "index"):
                if stats["models"][model][key] != entry[key]:
                    problems.append(
                        Problem(
                            source,
                            field=f"models.{model}.{key}",
                            value=stats["models"][model][key],
                            allowed=f"{entry[key]!r}, as in the index shown (the stats of "
                            "another index?)",
                        )
                    )
    if problems:
        raise InputRefused.from_problems(f"{source} is not the stats of this index", problems)
    return stats


def _percent(level: float) -> str:
    return f"{level:.0%}" if round(level * 100, 6).is_integer() else f"{level:.1%}"


def _rank_text(rank_ci: list[int] | None) -> str | None:
    if rank_ci is None:
        return None
    best, worst = rank_ci
    return str(best) if best == worst else f"{best}–{worst}"


def interval_columns(stats: dict[str, Any], model: str) -> dict[str, Any]:
    """What the leaderboard shows of one model's uncertainty (``None`` without an index).

    ``± half-width`` (points): the index interval reaches at most this far from the
    index; ``rank interval``: the best–worst rank the paired tests allow (1 = best,
    simultaneous over all models); ``could be first``: no model is significantly ahead
    of it (Holm); ``tie group``: 1, 2, ... down the ranking, a new group starting at the
    first model a member of the current group is significantly ahead of.

    Examples
    --------
    >>> stats = {"tie_groups": [["a", "b"]], "leader_group": ["a", "b"],
    ...          "models": {"a": {"index_ci_half_width": 6.5, "rank_ci": [1, 2]}}}
    >>> interval_columns(stats, "a")
    {'± half-width': 6.5, 'rank interval': '1–2', 'could be first': 'yes', 'tie group': 1}
    """
    entry = stats["models"][model]
    group = next((k for k, g in enumerate(stats["tie_groups"], start=1) if model in g), None)
    could = None if entry["rank_ci"] is None else "yes" if model in stats["leader_group"] else "no"
    return {
        "± half-width": entry["index_ci_half_width"],
        "rank interval": _rank_text(entry["rank_ci"]),
        "could be first": could,
        "tie group": group,
    }


def ties_note(stats: dict[str, Any]) -> Note:
    """Which models could be first, the tie groups, and how many pairs differ after Holm.

    Examples
    --------
    >>> stats = {"level": 0.95, "leader_group": ["a", "b"], "tie_groups": [["a", "b"], ["c"]],
    ...          "pairs": [{"significant": False}, {"significant": True},
    ...                    {"significant": True}]}
    >>> print(ties_note(stats).text)
    Could be first (no model is significantly ahead of them): a, b.
    Tie groups down the ranking (no pair inside a group differs): a, b | c.
    2 of 3 pairs of models differ at the 5% level after Holm's adjustment.
    """
    groups = stats["tie_groups"]
    if not groups:
        return Note("No model has an index, so there is no ranking and no pairwise test.")
    lines = [
        f"Could be first (no model is significantly ahead of them): "
        f"{', '.join(stats['leader_group'])}.",
        "Tie groups down the ranking (no pair inside a group differs): "
        + " | ".join(", ".join(g) for g in groups)
        + ".",
    ]
    differ = sum(1 for pair in stats["pairs"] if pair["significant"])
    alpha = _percent(1 - stats["level"])
    lines.append(
        f"{differ} of {len(stats['pairs'])} pairs of models differ at the {alpha} level after "
        "Holm's adjustment."
    )
    return Note("\n".join(lines))


def _ranked_entries(stats: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(model, stats["models"][model]) for model in stats["ranking"]]


def plot_index_intervals(result: dict[str, Any], stats: dict[str, Any], ax: Any = None):
    """Forest plot: each ranked model's index with its interval, highest first.

    Provisional models are drawn hollow (orange); the models that could be first (no
    model significantly ahead) are shaded; models without an index are named under it.

    Examples
    --------
    >>> stats = {"level": 0.95, "ranking": ["a"], "leader_group": ["a"], "models": {"a": {
    ...     "status": "complete", "index": 50.0, "index_ci": [40.0, 60.0]}}}
    >>> plot_index_intervals({"models": {"a": {}}}, stats).axes[0].get_xlabel()
    'index (points; higher is better)'
    """
    shown = _ranked_entries(stats)
    missing = [m for m, e in stats["models"].items() if e["index"] is None]
    fig, ax = new_axes(ax, size=(7.5, 1.5 + 0.4 * max(len(shown), 1) + 0.2 * bool(missing)))
    leaders = set(stats["leader_group"])
    top = 1.0
    for row, (model, entry) in enumerate(shown):
        y = len(shown) - 1 - row
        low, high = entry["index_ci"]
        top = max(top, high, entry["index"])
        if model in leaders:
            ax.axhspan(y - 0.45, y + 0.45, color="#EEEEEE", zorder=0)
        provisional = entry["status"] == "provisional"
        colour = OKABE_ITO[1] if provisional else OKABE_ITO[0]
        ax.plot([low, high], [y, y], color=colour, linewidth=2)
        ax.plot([entry["index"]], [y], marker="o", markersize=7, color=colour,
                markerfacecolor="white" if provisional else colour)  # fmt: skip
        ax.annotate(f"{entry['index']:.2f} [{low:.2f}, {high:.2f}] ({entry['status']})",
                    (high, y), xytext=(5, 0), textcoords="offset points", va="center",
                    fontsize=8)  # fmt: skip
    ax.set_yticks(range(len(shown)), [m for m, _ in shown][::-1])
    ax.set_ylim(-0.6, max(len(shown), 1) - 0.4)
    ax.set_xlim(0, top * 1.45)  # room for the labels
    ax.set_xlabel("index (points; higher is better)")
    ax.set_title(
        f"Index with its {_percent(stats['level'])} interval "
        "(grey band: could be first; hollow: provisional)"
    )
    name_models_without_index(fig, missing)
    return label_simulated(fig, bool(result.get("simulated")))


def pairs_table(stats: dict[str, Any]) -> pd.DataFrame:
    """Every pair of ranked models: Δ index (a − b, points), its interval, p and Holm's p.

    Examples
    --------
    >>> pair = {"model_a": "a", "model_b": "b", "delta": 2.0, "se": 1.0, "ci": [0.1, 3.9],
    ...         "p_value": 0.04, "p_holm": 0.04, "significant": True, "mdd": 4.5,
    ...         "n_common_tasks": 20}
    >>> pairs_table({"level": 0.95, "pairs": [pair]}).values.tolist()
    [['a', 'b', 2.0, 0.1, 3.9, 0.04, 0.04, 'yes', 4.5, 20]]
    """
    percent = _percent(stats["level"])
    rows = [
        {
            "model a": p["model_a"],
            "model b": p["model_b"],
            "Δ index": p["delta"],
            f"Δ {percent} low": None if p["ci"] is None else p["ci"][0],
            f"Δ {percent} high": None if p["ci"] is None else p["ci"][1],
            "p": p["p_value"],
            "p (Holm)": p["p_holm"],
            "differ": "yes" if p["significant"] else "no",
            "detectable Δ": p.get("mdd"),
            "common tasks": p["n_common_tasks"],
        }
        for p in stats["pairs"]
    ]
    columns = ["model a", "model b", "Δ index", f"Δ {percent} low", f"Δ {percent} high", "p",
               "p (Holm)", "differ", "detectable Δ", "common tasks"]  # fmt: skip
    table = pd.DataFrame(rows, columns=columns, dtype=object)
    table.attrs["caption"] = (
        f"Δ index = index of a − index of b (points, a ranked at or above b), paired over "
        f"the common tasks; differ: Holm-adjusted p ≤ {_percent(1 - stats['level'])}; "
        "detectable Δ: the smallest difference these tasks would show at 80 % power after "
        "Holm."
    )
    table.attrs["empty_text"] = "Fewer than two models have an index: no pair to compare."
    return table


def plot_pair_matrix(result: dict[str, Any], stats: dict[str, Any], ax: Any = None):
    """Matrix of Δ index (row minus column, points); cells that differ after Holm framed.

    Models in rank order; a diverging colour-blind safe map centred on 0; a cell reads
    ``+2.40*`` when the pair differs after Holm's adjustment (and is framed in green).

    Examples
    --------
    >>> pair = {"model_a": "a", "model_b": "b", "delta": 2.0, "significant": True}
    >>> stats = {"level": 0.95, "ranking": ["a", "b"], "pairs": [pair]}
    >>> ax = plot_pair_matrix({}, stats).axes[0]
    >>> [t.get_text() for t in ax.texts]
    ['+2.00*', '−2.00*']
    """
    import numpy as np
    from matplotlib.patches import Rectangle

    models = list(stats["ranking"])
    n = len(models)
    delta = np.full((n, n), np.nan)
    marked = np.zeros((n, n), dtype=bool)
    where = {m: k for k, m in enumerate(models)}
    for pair in stats["pairs"]:
        a, b = where[pair["model_a"]], where[pair["model_b"]]
        delta[a, b], delta[b, a] = pair["delta"], -pair["delta"]
        marked[a, b] = marked[b, a] = pair["significant"]
    fig, ax = new_axes(ax, size=(max(5.0, 2.5 + 0.55 * n), max(3.0, 1.8 + 0.45 * n)))
    span = float(np.nanmax(np.abs(delta))) if n > 1 else 1.0
    image = ax.imshow(np.ma.masked_invalid(delta), cmap="PuOr", vmin=-span, vmax=span)
    if n <= 25:
        for i in range(n):
            for j in range(n):
                if i == j:
                    continue
                text = f"{delta[i, j]:+.2f}".replace("-", "−") + ("*" if marked[i, j] else "")
                dark = abs(delta[i, j]) > 0.55 * span  # the map's ends are dark
                ax.text(j, i, text, ha="center", va="center", fontsize=7,
                        color="white" if dark else "black",
                        fontweight="bold" if marked[i, j] else "normal")  # fmt: skip
    for i, j in zip(*np.nonzero(marked), strict=True):
        ax.add_patch(Rectangle((j - 0.5, i - 0.45), 0.95, 0.9, fill=False, linewidth=2.5,
                               edgecolor="#009E73"))  # fmt: skip
    ax.set_xticks(range(n), models, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(n), models, fontsize=8)
    alpha = _percent(1 - stats["level"])
    ax.set_title(f"Δ index, row − column (points); * and a green frame: differs (Holm, {alpha})")
    fig.colorbar(image, ax=ax, label="Δ index (points)", shrink=0.7)
    return label_simulated(fig, bool(result.get("simulated")))


def index_interval_note(stats: dict[str, Any], model: str) -> Note:
    """One model's index with its interval, standard error and what more data would buy.

    Examples
    --------
    >>> entry = {"status": "complete", "index": 50.0, "index_ci": [40.0, 60.0],
    ...          "index_ci_half_width": 10.0, "index_se": 4.5, "rank": 1, "rank_ci": [1, 2],
    ...          "index_se_projected": {"twice_tasks": 3.2, "twice_attempts": None}}
    >>> print(index_interval_note({"level": 0.95, "models": {"m": entry}}, "m").text)
    Index 50.00 ± 10.00 points: 95% interval [40.00, 60.00], standard error 4.50.
    Rank 1 (1 = best), rank interval 1–2.
    Twice the tasks would bring the standard error to about 3.20.
    """
    entry = stats["models"][model]
    if entry["index"] is None:
        return Note(f"{model} has no index (status {entry['status']}), so no interval.")
    low, high = entry["index_ci"]
    lines = [
        f"Index {entry['index']:.2f} ± {entry['index_ci_half_width']:.2f} points: "
        f"{_percent(stats['level'])} interval [{low:.2f}, {high:.2f}], standard error "
        f"{entry['index_se']:.2f}.",
        f"Rank {entry['rank']} (1 = best), rank interval {_rank_text(entry['rank_ci'])}.",
    ]
    projected = entry.get("index_se_projected") or {}
    more = [
        f"twice the {what} would bring the standard error to about {projected[key]:.2f}"
        for key, what in (("twice_tasks", "tasks"), ("twice_attempts", "attempts"))
        if projected.get(key) is not None
    ]
    if more:
        lines.append("; ".join(more).capitalize() + ".")
    if entry["status"] == "provisional":
        lines.append("The status stays provisional: the interval uses the attempts as they stand.")
    return Note("\n".join(lines))


def track_intervals_table(stats: dict[str, Any], model: str) -> pd.DataFrame:
    """One model's track means with their standard error and interval (track units).

    Examples
    --------
    >>> track = {"mean": 0.5, "n_tasks": 5, "se": 0.1, "ci": [0.2, 0.8],
    ...          "ci_method": "clopper-pearson"}
    >>> stats = {"level": 0.95, "models": {"m": {"tracks": {"theorem": track}}}}
    >>> track_intervals_table(stats, "m").values.tolist()
    [['theorem', 'P', 0.5, 5, 0.1, 0.2, 0.8, 'clopper-pearson']]
    """
    percent = _percent(stats["level"])
    tracks = stats["models"][model].get("tracks") or {}
    rows = [
        {
            "track": track,
            "letter": TRACK_LETTERS[track],
            "mean": info["mean"],
            "tasks": info["n_tasks"],
            "se": info["se"],
            f"{percent} low": None if info["ci"] is None else info["ci"][0],
            f"{percent} high": None if info["ci"] is None else info["ci"][1],
            "interval": info.get("ci_method"),
        }
        for track, info in tracks.items()
        if track in TRACKS
    ]
    columns = ["track", "letter", "mean", "tasks", "se", f"{percent} low", f"{percent} high",
               "interval"]  # fmt: skip
    table = pd.DataFrame(rows, columns=columns, dtype=object)
    table.attrs["caption"] = (
        "Track means with their interval: clopper-pearson where every task mean is 0 or 1, "
        "wilson-effective-n for other means in [0, 1], hall-skewness-corrected-t for "
        "construction rewards (wilson-no-spread where they are all equal); see "
        "docs/uncertainty.md."
    )
    table.attrs["empty_text"] = "No interval: the model has no index."
    return table
