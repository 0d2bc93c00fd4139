"""Which models differ: the pair matrix and table up to :data:`MATRIX_MODELS` models, else
each model against the next (docs/reports.md, "The cohort report")."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..number_format import P_VALUE, POINTS, TEXT, interval, signed_points
from ..scoring.index_document import IndexDocument, as_index_document
from ..stats.document import StatsDocument, StatsPair, as_stats_document
from ..stats.wording import percent
from .charts import describe, label_simulated, new_axes
from .notebook import Note
from .tables import Cell

#: Up to this many ranked models: the matrix and every pair; beyond, the view at scale.
MATRIX_MODELS = 25

_PAIR_TIPS = {
    "Δ index": "index of a − index of b (points; a is ranked at or above b)",
    "interval": "{level} interval of Δ, paired over the common tasks: this pair alone (the "
    "verdict beside it adjusts for every pair, Holm)",
    "p": "two-sided p-value of the paired test (no adjustment)",
    "p (Holm)": "p adjusted over all pairs (Holm)",
    "differ": "yes: shown to differ after Holm's adjustment; not shown: the tests did not "
    "separate them (which is not the same as equal); untested: no test could be made",
    "detectable Δ": "the smallest difference these tasks would show at 80% power after Holm",
    "common tasks": "tasks both models have a mean for",
}


def _verdict(pair: StatsPair) -> str:
    """``yes``, ``not shown`` or ``untested``: no stronger than the test."""
    if pair.ci is None:  # no test could be made (the pair's p-value is null too)
        return "untested"
    return "yes" if pair.significant else "not shown"


def _interval_cell(pair: StatsPair) -> Cell | None:
    if pair.ci is None:
        return None
    return Cell(interval(*pair.ci), order=pair.ci[0])


def pairs_table(stats: StatsDocument | dict[str, Any]) -> pd.DataFrame:
    """Every pair of ranked models: Δ index (a − b, points), its interval, p and Holm's p.

    >>> pair = {"model_a": "a", "model_b": "b", "delta": 2.0, "se": 1.0, "ci": [0.1, 3.9],
    ...         "p_value": 0.04, "p_holm": 0.04, "significant": True, "mdd": 4.5,
    ...         "n_common_tasks": 20}
    >>> [str(v) for v in pairs_table({"level": 0.95, "pairs": [pair]}).values[0]]
    ['a', 'b', '2.0', '[0.10, 3.90]', '0.04', '0.04', 'yes', '4.5', '20']
    """
    stats = as_stats_document(stats)
    rows = [
        {
            "model a": p.model_a,
            "model b": p.model_b,
            "Δ index": p.delta,
            "interval": _interval_cell(p),
            "p": p.p_value,
            "p (Holm)": p.p_holm,
            "differ": _verdict(p),
            "detectable Δ": p.mdd,
            "common tasks": p.n_common_tasks,
        }
        for p in stats.pair_rows
    ]
    table = pd.DataFrame(rows, columns=["model a", "model b", *_PAIR_TIPS], dtype=object)
    level = percent(stats.level)
    table.attrs["kinds"] = {"Δ index": POINTS, "p": P_VALUE, "p (Holm)": P_VALUE,
                            "detectable Δ": POINTS, "common tasks": "count"}  # fmt: skip
    table.attrs["tooltips"] = {c: t.replace("{level}", level) for c, t in _PAIR_TIPS.items()}
    table.attrs["caption"] = (
        f"Every pair (a ranked at or above b): Δ index in points with its {level} interval, "
        f"paired over the common tasks, each pair's alone; differ: Holm-adjusted p ≤ "
        f"{percent(1 - stats.level)} (sign-flip tests)."
    )
    table.attrs["empty_text"] = "Fewer than two models have an index: no pair to compare."
    return table


def plot_pair_matrix(
    result: IndexDocument | dict[str, Any], stats: StatsDocument | dict[str, Any], ax: Any = None
):
    """Matrix of Δ index (row − column, points) in rank order; pairs that differ (Holm) framed.

    >>> pair = {"model_a": "a", "model_b": "b", "delta": 2.0, "significant": True}
    >>> stats = {"level": 0.95, "ranking": ["a", "b"], "pairs": [pair]}
    >>> ax = plot_pair_matrix({}, stats).axes[0]
    >>> [t.get_text() for t in ax.texts]
    ['+2.00*', '-2.00*']
    """
    import numpy as np
    from matplotlib.patches import Rectangle

    stats = as_stats_document(stats)
    models = list(stats.ranking)
    pairs = stats.pair_rows
    n = len(models)
    delta = np.full((n, n), np.nan)
    marked = np.zeros((n, n), dtype=bool)
    where = {m: k for k, m in enumerate(models)}
    for pair in pairs:
        a, b = where[pair.model_a], where[pair.model_b]
        delta[a, b], delta[b, a] = pair.delta, -pair.delta
        marked[a, b] = marked[b, a] = pair.significant
    cell = 0.9 if n <= 8 else 0.45
    fig, ax = new_axes(ax, size=(min(13.0, 3.0 + cell * n), min(13.0, 2.0 + cell * n)))
    span = float(np.nanmax(np.abs(delta))) if n > 1 and np.isfinite(delta).any() else 1.0
    image = ax.imshow(np.ma.masked_invalid(delta), cmap="PuOr", vmin=-span, vmax=span)
    fontsize = 9 if n <= 8 else 7 if n <= 18 else 0
    for i in range(n if fontsize else 0):
        for j in range(n):
            if i == j:
                continue
            text = signed_points(delta[i, j]) + ("*" if marked[i, j] else "")
            dark = abs(delta[i, j]) > 0.55 * span  # the map's ends are dark
            ax.text(j, i, text, ha="center", va="center", fontsize=fontsize,
                    color="white" if dark else "black",
                    fontweight="bold" if marked[i, j] else "normal")  # fmt: skip
    for i, j in zip(*np.nonzero(marked), strict=True):
        ax.add_patch(Rectangle((j - 0.5, i - 0.45), 0.95, 0.9, fill=False, linewidth=2.5,
                               edgecolor="#009E73"))  # fmt: skip
    ax.set_xticks(range(n), models, rotation=30 if n > 3 else 0,
                  ha="right" if n > 3 else "center", fontsize=9)  # fmt: skip
    ax.set_yticks(range(n), models, fontsize=9)
    alpha = percent(1 - stats.level)
    ax.set_title(
        f"Δ index, row − column (points)\n* and a green frame: shown to differ (Holm, {alpha})"
    )
    fig.colorbar(image, ax=ax, label="Δ index (points)", shrink=0.7)
    differ = int(marked.sum()) // 2
    describe(
        fig,
        f"Matrix of the differences of index between the {n} ranked models (row minus "
        f"column, points), in rank order; {differ} of {len(pairs)} pairs shown to differ "
        "after Holm's adjustment (framed), the others not shown to differ. The table below "
        "lists every pair.",
    )
    return label_simulated(fig, bool(as_index_document(result).simulated))


def neighbours_table(stats: StatsDocument | dict[str, Any]) -> pd.DataFrame:
    """Each ranked model against the next one down, and how many it is ahead of and behind.

    >>> pairs = [{"model_a": "a", "model_b": "b", "delta": 3.0, "ci": [1.0, 5.0],
    ...           "p_holm": 0.01, "significant": True}]
    >>> table = neighbours_table({"level": 0.95, "ranking": ["a", "b"], "pairs": pairs})
    >>> [str(v) for v in table.values[0]]
    ['1', 'a', '3.0', '[1.00, 5.00]', 'yes', '1', '0', '0']
    >>> [str(v) for v in table.values[1]]
    ['2', 'b', 'None', 'None', 'None', '0', '1', '0']
    """
    stats = as_stats_document(stats)
    ranking = list(stats.ranking)
    ahead = dict.fromkeys(ranking, 0)
    behind = dict.fromkeys(ranking, 0)
    following = dict(zip(ranking, ranking[1:], strict=False))
    next_pair: dict[str, StatsPair] = {}
    for pair in stats.pair_rows:
        a, b = pair.model_a, pair.model_b
        if pair.significant:
            ahead[a] += 1
            behind[b] += 1
        if following.get(a) == b:
            next_pair[a] = pair
    rows = []
    for position, model in enumerate(ranking, start=1):
        pair = next_pair.get(model)
        rows.append(
            {
                "rank": position,
                "model": model,
                "Δ to the next": None if pair is None else pair.delta,
                "interval": None if pair is None else _interval_cell(pair),
                "differ": None if pair is None else _verdict(pair),
                "ahead of": ahead[model],
                "behind": behind[model],
                "not separated from": len(ranking) - 1 - ahead[model] - behind[model],
            }
        )
    columns = ["rank", "model", "Δ to the next", "interval", "differ", "ahead of", "behind",
               "not separated from"]  # fmt: skip
    table = pd.DataFrame(rows, columns=columns, dtype=object)
    level = percent(stats.level)
    table.attrs["kinds"] = {"rank": "count", "model": TEXT, "Δ to the next": POINTS,
                            "ahead of": "count", "behind": "count",
                            "not separated from": "count"}  # fmt: skip
    table.attrs["tooltips"] = {
        "Δ to the next": "index of this model − index of the next one down (points)",
        "interval": f"{level} interval of that Δ, paired over the common tasks (this pair alone)",
        "differ": "yes: shown to differ after Holm's adjustment over all pairs; not shown: not "
        "separated (not the same as equal)",
        "ahead of": "how many models this one is shown to be ahead of (Holm)",
        "behind": "how many models are shown to be ahead of this one (Holm)",
        "not separated from": "how many models the tests do not separate from this one",
    }
    table.attrs["caption"] = (
        f"Each model against the next one down the ranking (Δ in points, {level} interval), "
        "and how many models it is shown to be ahead of and behind (Holm)."
    )
    table.attrs["empty_text"] = "Fewer than two models have an index: no pair to compare."
    return table


def pairs_view(
    result: IndexDocument | dict[str, Any], stats: StatsDocument | dict[str, Any]
) -> list[Any]:
    """The cohort report's pairs: matrix and every pair, or at scale each model against the next.

    >>> stats = {"level": 0.95, "ranking": [f"m{k}" for k in range(30)], "pairs": []}
    >>> [type(part).__name__ for part in pairs_view({}, stats)]
    ['Note', 'DataFrame']
    """
    stats = as_stats_document(stats)
    n = len(stats.ranking)
    if n <= MATRIX_MODELS:
        if n < 2:
            return [pairs_table(stats)]
        return [plot_pair_matrix(result, stats), pairs_table(stats)]
    pairs = n * (n - 1) // 2
    note = Note(
        f"With {n} ranked models ({pairs:,} pairs) a matrix of every pair would not be "
        "readable: each model is shown against the next one down the ranking, with how "
        "many models it is shown to be ahead of and behind. Every pair (Δ, interval, p, "
        "Holm's p, detectable Δ) is in the run set's intervals JSON."
    )
    return [note, neighbours_table(stats)]
