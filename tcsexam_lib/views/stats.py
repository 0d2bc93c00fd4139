"""Intervals, rank intervals, tie groups and paired differences from ``tcsexam stats``."""

from __future__ import annotations

import os
from typing import Any

import pandas as pd

from ..errors import InputRefused, Problem
from ..jsonio import read_json
from ..number_format import MEAN, TEXT, index_with_interval, interval, interval_reach, points
from ..schemas import validate_with_schema
from ..scoring.index_document import IndexDocument, as_index_document
from ..stats.document import StatsDocument, as_stats_document
from ..stats.wording import name_list, pairs_sentence, percent, tie_group_span, tie_groups_text
from ..vocab import TRACK_LETTERS, TRACKS
from .charts import OKABE_ITO, describe, label_simulated, name_models_without_index, new_axes
from .notebook import Note
from .tables import Cell


def stats_result(
    result: IndexDocument | dict[str, Any],
    *,
    stats_json: str | os.PathLike[str] = "",
    resamples: int = 10_000,
    seed: int = 0,
    level: float = 0.95,
) -> StatsDocument:
    """The ``tcsexam stats`` document of the index shown: ``stats_json`` read, else computed.

    A ``stats_json`` computed from another index (models, statuses, indexes) is refused.

    >>> entry = {"status": "incomplete", "index": None}
    >>> doc = {"metric_id": "m", "index_sha256": "0" * 64, "level": 0.95, "ranking": [],
    ...        "pairs": [], "leader_group": [], "tie_groups": [], "models": {"x": {
    ...        "status": "incomplete", "index": None, "rank": None, "index_se": None,
    ...        "index_ci": None, "index_ci_half_width": None, "rank_ci": None}}}
    >>> import json, pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "stats.json"
    >>> _ = path.write_text(json.dumps(doc))
    >>> stats_result({"models": {"x": entry}}, stats_json=path).level
    0.95
    >>> try:
    ...     stats_result({"models": {"y": entry}}, stats_json=path)
    ... except InputRefused as exc:
    ...     print(exc.problems[0].field, "|", exc.problems[0].allowed)
    models | the models of the index shown: y
    """
    if not stats_json:
        from ..stats.command import compute_stats

        computed = compute_stats(
            result, source="the index shown", resamples=resamples, seed=seed, level=level
        )
        return StatsDocument(computed.to_dict())
    source = str(stats_json)
    data = read_json(stats_json)
    validate_with_schema(data, "stats-output", source)
    document = StatsDocument(data)
    stats, shown = document.results, as_index_document(result).results
    problems = []
    if list(stats) != list(shown):
        problems.append(
            Problem(
                source,
                field="models",
                value=", ".join(stats),
                allowed="the models of the index shown: " + ", ".join(shown),
            )
        )
    else:
        for model, entry in shown.items():
            for key in ("status", "index"):
                found, wanted = getattr(stats[model], key), getattr(entry, key)
                if found != wanted:
                    problems.append(
                        Problem(
                            source,
                            field=f"models.{model}.{key}",
                            value=found,
                            allowed=f"{wanted!r}, as in the index shown (the stats of "
                            "another index?)",
                        )
                    )
    if problems:
        raise InputRefused.from_problems(f"{source} is not the stats of this index", problems)
    return document


def _rank_text(span: list[int] | tuple[int, int] | None) -> Cell | None:
    """``3`` or ``3–5``, sorting by its first number (``None`` for no span)."""
    if span is None:
        return None
    first, last = span
    return Cell(str(first) if first == last else f"{first}–{last}", order=first)


def interval_columns(stats: StatsDocument | dict[str, Any], model: str) -> dict[str, Any]:
    """The leaderboard's uncertainty columns for one model (``None`` without an index).

    ``±`` (points), ``could be first``, ``possible ranks``, ``tie group``: see
    docs/reports.md, "The cohort report"; each sorts by its first or larger number.

    >>> stats = {"tie_groups": [["a", "b"], ["b", "c"]], "leader_group": ["a", "b"],
    ...          "models": {"b": {"index": 38.49, "index_ci": [0.0, 88.02],
    ...                           "index_ci_half_width": 49.53, "rank_ci": [1, 3]}}}
    >>> columns = interval_columns(stats, "b")
    >>> [str(columns[c]) for c in ("±", "possible ranks", "could be first", "tie group")]
    ['+49.53 / −38.49', '1–3', 'yes', '1–2']
    """
    stats = as_stats_document(stats)
    entry = stats.result(model)
    could = None if entry.rank_ci is None else "yes" if model in stats.leader_group else "no"
    reach = None
    if entry.index_ci is not None:
        text = interval_reach(entry.index, *entry.index_ci)
        reach = Cell(text, order=entry.index_ci_half_width)
    return {
        "±": reach,
        "could be first": could,
        "possible ranks": _rank_text(entry.rank_ci),
        "tie group": _rank_text(tie_group_span(stats.tie_groups, model)),
    }


def ties_note(stats: StatsDocument | dict[str, Any]) -> Note:
    """The tie groups down the ranking, how many pairs the tests separate, and the notes.

    >>> stats = {"level": 0.95, "tie_groups": [["a", "b"], ["b", "c"]],
    ...          "pairs": [{"significant": False}, {"significant": True},
    ...                    {"significant": False}], "notes": ["few tasks"]}
    >>> import re
    >>> print(re.sub(r" [(].*?[)]", "", ties_note(stats).text))   # without the brackets
    Tie groups down the ranking: a, b | b, c.
    1 of the 3 pairs shown to differ; the other 2 not shown to differ.
    Note: few tasks.
    >>> print(ties_note({"level": 0.95, "tie_groups": [["a", "b"]],
    ...                  "pairs": [{"significant": False}]}).text.splitlines()[1][:35])
    The one pair is not shown to differ
    """
    stats = as_stats_document(stats)
    groups = stats.tie_groups
    if not groups:
        return Note("No model has an index, so there is no ranking and no pairwise test.")
    meaning = "no pair inside one is shown to differ; a model may be in two"
    if len(groups) <= 12:
        lines = [f"Tie groups down the ranking ({meaning}): {tie_groups_text(groups)}."]
    else:
        lines = [
            f"{len(groups)} tie groups down the ranking ({meaning}); the leaderboard's tie "
            "group column says which groups each model is in."
        ]
    pairs = stats.pair_rows
    if pairs:
        shown = sum(1 for pair in pairs if pair.significant)
        lines.append(pairs_sentence(shown, len(pairs), stats.level, stats.pairs_untested))
    lines.extend(f"Note: {note}." for note in stats.notes)
    return Note("\n".join(lines))


#: Up to this many ranked models, the forest plot writes each index and interval.
LABELLED_ROWS = 30


def plot_index_intervals(
    result: IndexDocument | dict[str, Any], stats: StatsDocument | dict[str, Any], ax: Any = None
):
    """Forest plot: each ranked model's index with its interval, highest first.

    Rows are labelled with numbers up to :data:`LABELLED_ROWS` models.

    >>> stats = {"level": 0.95, "ranking": ["a"], "leader_group": ["a"], "models": {"a": {
    ...     "status": "complete", "index": 50.0, "index_ci": [40.0, 60.0]}}}
    >>> plot_index_intervals({"models": {"a": {}}}, stats).axes[0].get_xlabel()
    'index (points; higher is better)'
    """
    stats = as_stats_document(stats)
    models = stats.results  # read once: each read wraps every model again
    shown = [(model, models[model]) for model in stats.ranking]
    missing = [m for m, e in models.items() if e.index is None]
    n = max(len(shown), 1)
    labelled = n <= LABELLED_ROWS
    row_height = 0.4 if labelled else 0.15
    height = 1.5 + row_height * n + 0.2 * bool(missing)
    margins = None if labelled else (1.1, 0.9, 0.2, 0.6)  # fixed: hundreds of rows
    fig, ax = new_axes(ax, size=(8.0, height), margins=margins)
    top = _draw_intervals(ax, shown, set(stats.leader_group), labelled)
    ax.set_yticks(range(len(shown)), [m for m, _ in shown][::-1], fontsize=9 if labelled else 7)
    ax.set_ylim(-0.6, n - 0.4)
    ax.set_xlim(0, top * (1.4 if labelled else 1.05))  # room for the labels
    ax.set_xlabel("index (points; higher is better)")
    ax.set_title(
        f"Index with its {percent(stats.level)} interval "
        "(grey band: could be first; hollow: provisional)"
    )
    name_models_without_index(fig, missing)
    listed = "; ".join(f"{m} {points(e.index)} {interval(*e.index_ci)}" for m, e in shown[:10])
    more = f"; and {len(shown) - 10} more" if len(shown) > 10 else ""
    describe(
        fig,
        f"Forest plot of the index of the {len(shown)} model(s) with one, each with its "
        f"{percent(stats.level)} interval, highest first: {listed}{more}. Could be first "
        f"(shaded): {name_list(stats.leader_group)}."
        + (f" No index: {name_list(missing)}." if missing else ""),
    )
    return label_simulated(fig, bool(as_index_document(result).simulated))


def _draw_intervals(ax: Any, shown: list, leaders: set[str], labelled: bool) -> float:
    """Draw the ranked models' intervals; return the highest value drawn (at least 1)."""
    ys = [len(shown) - 1 - row for row in range(len(shown))]
    lows = [e.index_ci[0] for _, e in shown]
    highs = [e.index_ci[1] for _, e in shown]
    index = [e.index for _, e in shown]
    for y, (model, _) in zip(ys, shown, strict=True):  # one band per run of leaders
        if model in leaders:
            ax.axhspan(y - 0.5, y + 0.5, color="#E4E4E4", zorder=0, linewidth=0)
    provisional = [e.status == "provisional" for _, e in shown]
    for hollow in (False, True):
        rows = [k for k, p in enumerate(provisional) if p == hollow]
        if not rows:
            continue
        colour = OKABE_ITO[1] if hollow else OKABE_ITO[0]
        ax.hlines([ys[k] for k in rows], [lows[k] for k in rows], [highs[k] for k in rows],
                  color=colour, linewidth=2 if labelled else 1.2)  # fmt: skip
        ax.scatter([index[k] for k in rows], [ys[k] for k in rows], s=40 if labelled else 9,
                   color=colour, facecolors="white" if hollow else colour, zorder=3)  # fmt: skip
    if labelled:
        for y, low, high, value in zip(ys, lows, highs, index, strict=True):
            ax.annotate(f"{points(value)} {interval(low, high)}", (high, y), xytext=(5, 0),
                        textcoords="offset points", va="center", fontsize=9)  # fmt: skip
    return max([1.0, *highs, *index])


def index_interval_note(stats: StatsDocument | dict[str, Any], model: str) -> Note:
    """One model's index with its interval, standard error and what more data would buy.

    >>> entry = {"status": "complete", "index": 50.0, "index_ci": [40.0, 60.0],
    ...          "index_ci_half_width": 10.0, "index_se": 4.5, "rank": 1, "rank_ci": [1, 2],
    ...          "index_se_projected": {"twice_tasks": 3.2, "twice_attempts": None}}
    >>> print(index_interval_note({"level": 0.95, "models": {"m": entry}}, "m").text)
    Index 50.00 ± 10.00 points: 95% interval [40.00, 60.00], standard error 4.50.
    Twice the tasks would bring the standard error to about 3.20.
    Its rank, possible ranks and tie group depend on every model: see the run set's leaderboard.
    """
    stats = as_stats_document(stats)
    entry = stats.result(model)
    if entry.index is None:
        return Note(f"{model} has no index (status {entry.status}), so no interval.")
    lines = [
        f"Index {index_with_interval(entry.index, *entry.index_ci)} points: "
        f"{percent(stats.level)} interval {interval(*entry.index_ci)}, standard error "
        f"{points(entry.index_se)}.",
    ]
    projected = entry.index_se_projected
    figures = (
        []
        if projected is None
        else [(projected.twice_tasks, "tasks"), (projected.twice_attempts, "attempts")]
    )
    more = [
        f"twice the {what} would bring the standard error to about {points(value)}"
        for value, what in figures
        if value is not None
    ]
    if more:
        lines.append("; ".join(more).capitalize() + ".")
    if entry.status == "provisional":
        lines.append("The status stays provisional: the interval uses the attempts as they stand.")
    single = [track for track, t in (entry.tracks or {}).items() if t.n_tasks < 2]
    if single:
        lines.append(
            f"Its pairs cannot be tested: fewer than two tasks in {', '.join(single)}, so how "
            "much its tasks differ cannot be seen there."
        )
    lines.append(
        "Its rank, possible ranks and tie group depend on every model: see the run set's "
        "leaderboard."
    )
    return Note("\n".join(lines))


def track_intervals_table(stats: StatsDocument | dict[str, Any], model: str) -> pd.DataFrame:
    """One model's track means with their standard error and interval (track units).

    >>> track = {"mean": 0.5, "n_tasks": 5, "se": 0.1, "ci": [0.2, 0.8],
    ...          "ci_method": "clopper-pearson"}
    >>> stats = {"level": 0.95, "models": {"m": {"tracks": {"theorem": track}}}}
    >>> track_intervals_table(stats, "m").values.tolist()
    [['P theorem', 0.5, 5, 0.1, 0.2, 0.8, 'clopper-pearson']]
    """
    stats = as_stats_document(stats)
    level = percent(stats.level)
    tracks = stats.result(model).tracks or {}
    rows = [
        {
            "track": f"{TRACK_LETTERS[track]} {track}",
            "mean": info.mean,
            "tasks": info.n_tasks,
            "standard error": info.se,
            f"{level} low": None if info.ci is None else info.ci[0],
            f"{level} high": None if info.ci is None else info.ci[1],
            "method": info.ci_method,
        }
        for track, info in tracks.items()
        if track in TRACKS
    ]
    columns = ["track", "mean", "tasks", "standard error", f"{level} low", f"{level} high",
               "method"]  # fmt: skip
    table = pd.DataFrame(rows, columns=columns, dtype=object)
    table.attrs["kinds"] = {"mean": MEAN, "tasks": "count", "standard error": MEAN,
                            f"{level} low": MEAN, f"{level} high": MEAN,
                            "method": TEXT}  # fmt: skip
    table.attrs["tooltips"] = {
        "method": "clopper-pearson where every task mean is 0 or 1; wilson-effective-n for "
        "other means in [0, 1]; hall-skewness-corrected-t for construction rewards "
        "(wilson-no-spread where they are all equal); see docs/uncertainty.md",
        "standard error": "of the track mean, over the tasks of the track",
    }
    table.attrs["caption"] = "Track means with their interval (track units, 3 decimals)."
    table.attrs["empty_text"] = "No interval: the model has no index."
    return table
