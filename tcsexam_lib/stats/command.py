"""``tcsexam stats``: intervals, paired comparisons and rank claims beside the index.

:func:`write_stats` is what the command line calls (the pairs kept as columns,
:class:`PairTable`), :func:`run_stats` the same with the pairs as dictionaries. The index
itself is never changed: intervals are reported beside it.
"""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

from ..digests import sha256_text
from ..errors import InputRefused, Problem
from ..exports import show_keywords_of
from ..jsonio import dumps_json
from ..outputfiles import refuse_output_over_inputs
from ..provenance import build_provenance
from ..record_specs import unset_as_none
from ..vocab import METRIC_ID, TRACK_WEIGHTS, TRACKS
from .analysis import CohortAnalysis, analyse_cohort
from .document import ComputedStats, PairTable, StatsDocument, write_stats_json
from .inputs import IndexInput, index_input_from_data, read_index_output
from .intervals import TRACK_RANGES
from .method import METHOD
from .power import (
    FEW_REPEATED_TASKS,
    attempt_standard_error,
    decompose_track_variance,
    project_index_se,
)
from .signflip import smallest_p
from .wording import NO_PAIR_CAN_DIFFER, name_list

#: Largest ``--resamples`` accepted (recorded only: no figure is resampled).
MAX_RESAMPLES = 1_000_000
#: Bytes of memory a pair needs while it is computed and written (measured: about 250).
BYTES_PER_PAIR = 400
#: Bytes a model's task means and its part of the document need, per task (generous).
BYTES_PER_MODEL_TASK = 2000


def write_stats(
    *,
    index: str | os.PathLike[str],
    output: str | os.PathLike[str] | None = None,
    resamples: int = 10_000,
    seed: int = 0,
    level: float = 0.95,
    producer: str = "tcsexam stats",
    available_memory: int | None = None,
) -> ComputedStats:
    """Compute the stats document of a ``tcsexam score`` output and write it (streamed).

    A cohort that would need more than ``available_memory`` (bytes; default: what the
    machine has available now) is refused before any work.
    """
    _check_parameters(resamples, seed, level)
    if output is not None:
        refuse_output_over_inputs(
            output, [index], field="--output", allowed="a path that is not the index output read"
        )
    source = read_index_output(index)
    check_memory(source, available_memory)
    document = build_stats_document(source, resamples=resamples, seed=seed, level=level)
    document.set_provenance(
        stats_provenance(
            index,
            source.sha256,
            unset_as_none(source.data.reference_id),
            resamples=resamples,
            seed=seed,
            level=level,
            producer=producer,
        )
    )
    if output is not None:
        write_stats_json(output, document)
    return document


@show_keywords_of(write_stats)
def run_stats(**parameters: Any) -> dict[str, Any]:
    """Intervals, paired tests and rank claims of a ``tcsexam score`` output (``index``),
    written atomically to ``output`` if given (nothing on a refusal), and returned as a
    dict; the parameters are :func:`write_stats`'s.

    ``level``: the two-sided confidence level (tests at ``1 - level``); no figure depends on
    ``resamples`` or ``seed``. Fields: references/schemas/stats-output.schema.json (index
    intervals in points, higher is better). Refused (``InputRefused``): a parameter out of
    range, an output path equal to the input, an unusable input, too large a cohort.

    >>> run_stats(index="index.json", resamples=0, level=1.5)
    Traceback (most recent call last):
    ...
    tcsexam_lib.errors.InputRefused: Parameters refused (2 problems)
      - --resamples: field 'resamples' = 0 (allowed: an integer from 1 to 1000000)
      - --level: field 'level' = 1.5 (allowed: a number strictly between 0 and 1, e.g. 0.95)
    """
    return write_stats(**parameters).to_dict()


def compute_stats(
    index_data: dict[str, Any],
    *,
    source: str = "index output",
    sha256: str | None = None,
    resamples: int = 10_000,
    seed: int = 0,
    level: float = 0.95,
) -> ComputedStats:
    """The stats document of an index output in memory, without provenance.

    ``sha256``: of its JSON text (default: the kit's text of ``index_data``). The report
    runner adds :func:`stats_provenance`.

    >>> try:
    ...     compute_stats({"metric_id": "other"}, source="mine")
    ... except InputRefused as exc:
    ...     print(exc.problems[0])
    mine (top level): field 'models' = (absent): required field is missing
    """
    _check_parameters(resamples, seed, level)
    if sha256 is None:
        sha256 = sha256_text(dumps_json(index_data))
    source_input = index_input_from_data(index_data, source, sha256)
    return build_stats_document(source_input, resamples=resamples, seed=seed, level=level)


def stats_provenance(
    index: str | os.PathLike[str],
    index_sha256: str,
    reference_id: str | None,
    *,
    resamples: int,
    seed: int,
    level: float,
    producer: str,
) -> dict[str, Any]:
    """The provenance of a stats document: ``tcsexam verify`` calls :func:`run_stats` again.

    ``index``: the index output's path as the run names it (relative to the working folder).
    """
    parameters = {"index": index, "resamples": resamples, "seed": seed, "level": level}
    return build_provenance(
        producer, "run_stats", parameters, {"index": (index, index_sha256)}, reference_id
    )


def estimate_memory(source: IndexInput) -> int:
    """Bytes ``tcsexam stats`` needs for this input, generously (pairs dominate).

    >>> import numpy as np
    >>> from tcsexam_lib.stats.inputs import IndexInput
    >>> values = tuple(np.zeros((1000, 5)) for _ in range(4))
    >>> source = IndexInput("x", "0" * 64, {}, [], ["m"] * 1000, ((),) * 4, values, {})
    >>> estimate_memory(source) // 10**6
    239
    """
    n_models = len(source.ranked)
    n_tasks = sum(v.shape[-1] for v in source.values)
    pairs = n_models * (n_models - 1) // 2
    return pairs * BYTES_PER_PAIR + n_models * max(n_tasks, 1) * BYTES_PER_MODEL_TASK


def check_memory(source: IndexInput, available: int | None = None) -> None:
    """Refuse, before any work, a cohort that would need more memory than is available."""
    needed = estimate_memory(source)
    available = available_memory() if available is None else available
    if needed > available:
        pairs = len(source.ranked) * (len(source.ranked) - 1) // 2
        raise InputRefused(
            "Not enough memory for these statistics",
            [
                Problem(
                    source.path,
                    field="models",
                    value=f"{len(source.ranked)} models with an index ({pairs} pairs)",
                    allowed=f"a cohort that needs at most the {available / 1e9:.1f} GB of "
                    f"memory available (this one needs about {needed / 1e9:.1f} GB)",
                )
            ],
        )


def available_memory() -> int:
    """Bytes of memory available now (``MemAvailable`` of ``/proc/meminfo``, else all)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def _check_parameters(resamples: Any, seed: Any, level: Any) -> None:
    problems = []
    if not _is_int(resamples) or not 1 <= resamples <= MAX_RESAMPLES:
        problems.append(
            Problem(
                "--resamples",
                field="resamples",
                value=resamples,
                allowed=f"an integer from 1 to {MAX_RESAMPLES}",
            )
        )
    if not _is_int(seed) or seed < 0:
        problems.append(
            Problem("--seed", field="seed", value=seed, allowed="a non-negative integer")
        )
    is_number = isinstance(level, int | float) and not isinstance(level, bool)
    if not is_number or not 0 < level < 1:
        problems.append(
            Problem(
                "--level",
                field="level",
                value=level,
                allowed="a number strictly between 0 and 1, e.g. 0.95",
            )
        )
    if problems:
        raise InputRefused.from_problems("Parameters refused", problems)


def _is_int(value: Any) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def _number(value: Any) -> float | None:
    """A figure, or ``None`` where it cannot be computed (NaN; an infinite df)."""
    value = float(value)
    return value if math.isfinite(value) else None


def _pair(low: Any, high: Any) -> list[float] | None:
    low, high = _number(low), _number(high)
    return None if low is None or high is None else [low, high]


def build_stats_document(
    source: IndexInput, *, resamples: int, seed: int, level: float
) -> ComputedStats:
    """The ``tcsexam stats`` document of a checked input, without its provenance.

    >>> import numpy as np
    >>> from tcsexam_lib.record_specs import spec
    >>> from tcsexam_lib.scoring.index_document import IndexDocument
    >>> from tcsexam_lib.stats.inputs import IndexInput
    >>> data = spec(IndexDocument, reading=True)(metric_id="m", models={})  # no model at all
    >>> empty = IndexInput("x.json", "0" * 64, data, [], [], ((),) * 4, (np.zeros((0, 0)),) * 4, {})
    >>> doc = build_stats_document(empty, resamples=10, seed=0, level=0.95).to_dict()
    >>> doc["pairs"], doc["tie_groups"], doc["leader_group"], doc["models"]
    ([], [], [], {})
    """
    data = source.data
    n_tasks = [len(items) for items in source.items]
    analysis = None
    if source.ranked:
        analysis = analyse_cohort(
            source.values,
            names=source.ranked,
            index=[data.models[m].index for m in source.ranked],
            level=level,
        )
    head: dict[str, Any] = {
        "metric_id": METRIC_ID,
        "index_sha256": source.sha256,
        "suite": unset_as_none(data.suite),
        "solver_protocol": unset_as_none(data.solver_protocol),
        "reference_id": unset_as_none(data.reference_id),
        "method": METHOD,
        "resamples": resamples,
        "seed": seed,
        "level": float(level),
        "weights": dict(TRACK_WEIGHTS),
    }
    if data.simulated:  # False, or UNSET when left out
        head["simulated"] = True  # computed from simulated (demo) data
    models, few_repeats = {}, {}
    rows = {model: row for row, model in enumerate(source.ranked)}
    for model in source.models:
        if model in rows:
            models[model], few_repeats[model] = _ranked_model(source, analysis, rows[model])
        else:
            models[model] = _unranked_model(data.models[model])
    head["models"] = models
    names = source.ranked
    head["ranking"] = [] if analysis is None else [names[i] for i in analysis.order]
    head["leader_group"] = [] if analysis is None else [names[i] for i in analysis.leader_group]
    head["tie_groups"] = (
        [] if analysis is None else [[names[i] for i in g] for g in analysis.tie_groups]
    )
    head["notes"] = _notes(source, n_tasks, models, few_repeats, level)
    head["pairs_untested"] = _untested(source, n_tasks)
    pairs = PairTable.empty() if analysis is None else PairTable(names, analysis.pairs, n_tasks)
    return ComputedStats(StatsDocument(head), pairs)


def _ranked_model(
    source: IndexInput, analysis: CohortAnalysis, row: int
) -> tuple[dict[str, Any], list[str]]:
    model = source.ranked[row]
    entry = source.data.models[model]
    moments, intervals = analysis.moments, analysis.tracks
    low, high = analysis.track_ci
    methods = analysis.track_ci_methods
    tracks, components, sds, n_tasks = {}, {}, {}, {}
    for k, track in enumerate(TRACKS):
        components[track] = decompose_track_variance(source.scores[model][k])
        sds[track] = _number(moments.sd[row, k])
        n_tasks[track] = n = int(moments.n[k])
        tracks[track] = {
            "mean": entry.tracks[track].mean,
            "n_tasks": n,
            "sd": sds[track],
            "se": None if sds[track] is None else sds[track] / math.sqrt(n),
            "df": _number(intervals.df[row, k]),
            "ci": _pair(low[row, k], high[row, k]),
            "ci_method": methods[row, k],
            "variance_components": components[track],
        }
    index = entry.index
    index_low, index_high = (float(end[row]) for end in analysis.index_ci)
    no_interval = math.isnan(index_low) or math.isnan(index_high)
    half_width = None if no_interval else max(index - index_low, index_high - index)
    few = [
        track
        for track in TRACKS
        if components[track] is not None
        and components[track]["n_tasks_with_repeats"] < FEW_REPEATED_TASKS
    ]
    result = {
        "status": entry.status,
        "index": index,
        "rank": analysis.ranks[row],
        "index_se": _number(analysis.index_se[row]),
        "index_ci": _pair(index_low, index_high),
        "index_ci_df": _pair(analysis.index_df[0][row], analysis.index_df[1][row]),
        "index_ci_half_width": half_width,
        "rank_ci": list(analysis.rank_ci[row]),
        "rank_ci_marginal": list(analysis.rank_ci_marginal[row]),
        "attempt_se": attempt_standard_error(components, n_tasks),
        "index_se_projected": project_index_se(sds, n_tasks, components),
        "tracks": tracks,
    }
    if entry.status == "provisional":
        result["note"] = (
            "provisional: some adopted attempt awaits confirmation; the intervals use the "
            "adopted attempts as they stand and the status stays provisional"
        )
    return result, few


def _unranked_model(entry: Any) -> dict[str, Any]:
    tracks = {
        track: {
            "mean": entry.tracks[track].mean,
            "n_tasks": sum(1 for task in entry.tasks if task.track == track),
            "sd": None,
            "se": None,
            "df": None,
            "ci": None,
            "ci_method": "none",
            "variance_components": None,
        }
        for track in TRACKS
    }
    return {
        "status": entry.status,
        "index": None,
        "rank": None,
        "index_se": None,
        "index_ci": None,
        "index_ci_df": None,
        "index_ci_half_width": None,
        "rank_ci": None,
        "rank_ci_marginal": None,
        "attempt_se": None,
        "index_se_projected": None,
        "tracks": tracks,
        "note": f"no index (status {entry.status}): no intervals and no rank; left out of "
        "pairs, ranking, leader group and tie groups",
    }


def _untested(source: IndexInput, n_tasks: list[int]) -> str | None:
    """Why no pair could be tested (``pairs_untested``), or ``None``."""
    single = ", ".join(t for t, n in zip(TRACKS, n_tasks, strict=True) if n < 2)
    if len(source.ranked) >= 2 and single:
        return f"fewer than two tasks in {single}, so how much its tasks differ cannot be seen"
    return None


def _notes(
    source: IndexInput,
    n_tasks: list[int],
    models: dict[str, dict[str, Any]],
    few_repeats: dict[str, list[str]],
    level: float,
) -> list[str]:
    notes, ranked = [], set(source.ranked)
    unranked = [m for m in source.models if m not in ranked]
    if unranked:
        notes.append(
            f"without an index (incomplete): {name_list(unranked)}; listed with null intervals "
            "and no rank, left out of pairs, ranking, leader group and tie groups"
        )
    single = [t for t, n in zip(TRACKS, n_tasks, strict=True) if n < 2]
    if source.ranked and single:
        bounded = [t for t in single if TRACK_RANGES[t][1] == 1.0]
        notes.append(
            f"fewer than two tasks in {', '.join(single)}: no standard deviation there, so "
            "index_se and the pairs' se, ci and p-values are null: the pairs cannot be tested"
            + (f" (the track intervals of {', '.join(bounded)} need no spread)" if bounded else "")
        )
    if len(source.ranked) < 2:
        notes.append("fewer than two models with an index: no pairs")
    pairs, tasks = len(source.ranked) * (len(source.ranked) - 1) // 2, sum(n_tasks)
    if pairs and not single and smallest_p(tasks) > (1.0 - level) / pairs:
        notes.append(
            f"{NO_PAIR_CAN_DIFFER}: with {tasks} tasks the smallest p-value a pair "
            f"can reach is 2/2^{tasks} = {smallest_p(tasks):.3g}, above Holm's first step "
            f"{1.0 - level:g}/{pairs} = {(1.0 - level) / pairs:.3g}; more tasks, not more "
            "attempts, would change that"
        )
    no_attempt_se = [m for m in source.ranked if models[m]["attempt_se"] is None]
    if no_attempt_se:
        notes.append(
            f"attempt_se is null for {name_list(no_attempt_se)}: some track has no task with two "
            "or more attempts, so attempt noise cannot be told from task differences there"
        )
    few = {m: tracks for m, tracks in few_repeats.items() if tracks}
    if few:
        tracks = sorted({t for ts in few.values() for t in ts}, key=TRACKS.index)
        notes.append(
            f"warning: the variance components of {name_list(list(few))} rest on fewer than "
            f"{FEW_REPEATED_TASKS} repeated tasks in {', '.join(tracks)}: attempt_variance, "
            "attempt_se and the projected standard errors are rough there"
        )
    return notes
