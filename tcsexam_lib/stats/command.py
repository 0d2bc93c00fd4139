"""``tcsexam stats``: intervals, paired comparisons, ranks and ties beside the index.

:func:`run_stats` reads a ``tcsexam score`` output, computes everything with
:func:`~tcsexam_lib.stats.analysis.analyse_cohort` and the variance components of
:mod:`~tcsexam_lib.stats.power`, and returns (and optionally writes) the JSON document.
The index itself is never changed: intervals are reported beside it.
"""

from __future__ import annotations

import hashlib
import math
import os
from typing import Any

import numpy as np

from ..errors import InputRefused, Problem
from ..jsonio import dumps_json, refuse_output_over_inputs, write_json_atomic
from ..provenance import build_provenance
from ..vocab import METRIC_ID, TRACK_WEIGHTS, TRACKS
from .analysis import CohortAnalysis, analyse_cohort
from .inputs import IndexInput, index_input_from_data, read_index_output
from .power import decompose_track_variance, project_index_se

#: Largest ``--resamples`` accepted. Memory grows with replicates x tasks, about 20 bytes
#: each: 0.2 GB at the default 10,000 replicates of 1,000 tasks, 1.6 GB at the limit with 80.
MAX_RESAMPLES = 1_000_000

#: How each number of the output is computed (the output's ``method``).
METHOD = {
    "name": "welch-satterthwaite-t; stratified-paired-bootstrap-percentile; "
    "stratified-sign-flip; holm",
    "model": "tasks are sampled within tracks; attempts are noise inside a task mean and are "
    "not resampled; index = sum_t W_t * mean_t with W = 30, 30, 30, 10 points",
    "index_se": "analytic stratified standard error sqrt(sum_t W_t^2 s_t^2 / n_t), s_t the "
    "sample standard deviation (ddof 1) of the model's task means in track t",
    "index_ci": "t-interval index -+ t(1 - (1 - level)/2, df) * index_se with Welch-Satterthwaite "
    "df = (sum_t v_t)^2 / sum_t v_t^2/(n_t - 1), v_t = W_t^2 s_t^2 / n_t. Chosen over the "
    "bootstrap percentile and BCa intervals, which covered less than 93.5 % at 20 tasks a "
    "track in the calibration benchmark (make bench-calibration) and whose ends move by more "
    "than 0.05 points between seeds at B = 10,000; the t-interval has no Monte Carlo error",
    "index_ci_bootstrap": "percentile interval of the stratified paired bootstrap (shown for "
    "comparison): B replicates, each drawing n_t tasks with replacement within every track, "
    "one draw shared by all models; numpy Generator (PCG64) from the first stream of "
    "SeedSequence(seed).spawn(2); quantiles by numpy.quantile (linear)",
    "index_ci_half_width": "t(1 - (1 - level)/2, df) * index_se, for 'index +- half-width' "
    "(index_ci is clipped at 0, which only matters for an index near 0)",
    "tracks": "mean -+ t(1 - (1 - level)/2, n_t - 1) * s_t / sqrt(n_t) (track-mean units), "
    "clipped to the track's range ([0, 1]; construction [0, inf)); ci_bootstrap: percentile "
    "interval of the same bootstrap",
    "pairs": "delta = index of a minus index of b (a ranked at or above b); se and ci as for the "
    "index, on the per-task differences a - b over the common tasks (paired); ci_bootstrap from "
    "the paired bootstrap replicates",
    "p_value": "two-sided stratified sign-flip permutation test on the per-task differences: B "
    "random sign flips within each track (second stream of SeedSequence(seed).spawn(2)), "
    "p = (1 + #{|delta*| >= |delta|}) / (B + 1); identical task means give p = 1",
    "p_holm": "Holm step-down adjustment over all pairs; significant: p_holm <= 1 - level",
    "rank_ci": "[best, worst], 1 = best: 1 + the number of models significantly ahead (Holm), "
    "number of ranked models - the number significantly behind; simultaneous at about level",
    "tie_groups": "in rank order: the leader and every model whose rank_ci overlaps the "
    "leader's; then the same rule on the models not yet grouped",
    "variance_components": "per track when some task has two or more attempts: pooled "
    "within-task variance of attempt scores and the moment estimate of the task variance; "
    "standard errors projected for twice the tasks and twice the attempts",
}


def run_stats(
    *,
    index: str | os.PathLike[str],
    output: str | os.PathLike[str] | None = None,
    resamples: int = 10_000,
    seed: int = 0,
    level: float = 0.95,
    producer: str = "tcsexam stats",
) -> dict[str, Any]:
    """Intervals and paired comparisons of a ``tcsexam score`` output; the document written.

    Parameters
    ----------
    index : path
        An output of ``tcsexam score`` (or of a notebook calling ``run_score``).
    output : path, optional
        Where to write the JSON (atomically); nothing is written when ``None`` or when
        the input is refused.
    resamples : int
        Bootstrap and permutation replicates ``B`` (1 to 1,000,000).
    seed : int
        Non-negative seed of the two random streams: the same seed gives the same
        document (apart from ``provenance.created_utc``).
    level : float
        Two-sided confidence level in (0, 1); the tests' significance level is
        ``1 - level``.

    Returns
    -------
    dict
        ``models.<model>``: ``status``, ``index``, ``rank``, ``index_se``, ``index_ci``
        ``[low, high]`` (points; higher is better), ``rank_ci`` ``[best, worst]``,
        ``tracks.<track>`` (``mean``, ``n_tasks``, ``se``, ``ci``, ...); ``pairs``
        (``delta`` = a minus b, ``se``, ``ci``, ``p_value``, ``p_holm``,
        ``n_common_tasks``); ``tie_groups``; ``method``; ``provenance``. A model
        without an index has null intervals and no rank.

    Raises
    ------
    InputRefused
        A parameter out of range, an output path equal to the input, or an input that
        is not a usable ``tcsexam score`` output.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> run_stats(index=pathlib.Path(tempfile.mkdtemp()) / "none.json")
    Traceback (most recent call last):
    ...
    tcsexam_lib.errors.InputRefused: Input file not found
      - ...none.json: no such file
    >>> run_stats(index="index.json", resamples=0, level=1.5)
    Traceback (most recent call last):
    ...
    tcsexam_lib.errors.InputRefused: Parameters refused (2 problems)
      - --resamples: field 'resamples' = 0 (allowed: an integer from 1 to 1000000)
      - --level: field 'level' = 1.5 (allowed: a number strictly between 0 and 1, e.g. 0.95)
    """
    _check_parameters(resamples, seed, level)
    if output is not None:
        refuse_output_over_inputs(
            output, [index], field="--output", allowed="a path that is not the index output read"
        )
    source = read_index_output(index)
    result = build_stats_document(source, resamples=resamples, seed=seed, level=level)
    result["provenance"] = stats_provenance(
        index,
        source.sha256,
        source.data.get("reference_id"),
        resamples=resamples,
        seed=seed,
        level=level,
        producer=producer,
    )
    if output is not None:
        write_json_atomic(output, result)
    return result


def compute_stats(
    index_data: dict[str, Any],
    *,
    source: str = "index output",
    sha256: str | None = None,
    resamples: int = 10_000,
    seed: int = 0,
    level: float = 0.95,
) -> dict[str, Any]:
    """The :func:`run_stats` document of an index output in memory, without provenance.

    ``source`` names the output in refusals; ``sha256`` is that of the text it was (or
    will be) written as, by default the kit's own JSON text of ``index_data``. A report
    notebook run standalone calls it on the index it computed; the report runner on the
    index it writes (and adds the provenance with :func:`stats_provenance`).

    Examples
    --------
    >>> try:
    ...     compute_stats({"metric_id": "other"}, source="mine")
    ... except InputRefused as exc:
    ...     print(exc.problems[0])
    mine (top level): field 'models' = (absent): required field is missing
    """
    _check_parameters(resamples, seed, level)
    if sha256 is None:
        sha256 = hashlib.sha256(dumps_json(index_data).encode("utf-8")).hexdigest()
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

    ``index`` is the path of the index output as the run names it (relative paths are
    relative to the working folder), ``index_sha256`` the sha256 of the bytes read.
    """
    parameters = {"index": index, "resamples": resamples, "seed": seed, "level": level}
    return build_provenance(
        producer, "run_stats", parameters, {"index": (index, index_sha256)}, reference_id
    )


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
    value = float(value)
    return None if math.isnan(value) else value


def _pair(low: Any, high: Any) -> list[float] | None:
    low, high = _number(low), _number(high)
    return None if low is None or high is None else [low, high]


def build_stats_document(
    source: IndexInput, *, resamples: int, seed: int, level: float
) -> dict[str, Any]:
    """The ``tcsexam stats`` document of a checked input, without its provenance.

    Examples
    --------
    >>> import numpy as np
    >>> from tcsexam_lib.stats.inputs import IndexInput
    >>> empty = IndexInput("x.json", "0" * 64, {"metric_id": "m", "models": {}}, [], [],
    ...                    ((),) * 4, (np.zeros((0, 0)),) * 4, {})
    >>> doc = build_stats_document(empty, resamples=10, seed=0, level=0.95)
    >>> doc["pairs"], doc["tie_groups"], doc["models"]
    ([], [], {})
    """
    data = source.data
    n_tasks = [len(items) for items in source.items]
    analysis = None
    if source.ranked:
        analysis = analyse_cohort(
            source.values,
            names=source.ranked,
            index=[data["models"][m]["index"] for m in source.ranked],
            resamples=resamples,
            seed=seed,
            level=level,
        )
    document: dict[str, Any] = {
        "metric_id": METRIC_ID,
        "index_sha256": source.sha256,
        "suite": data.get("suite"),
        "solver_protocol": data.get("solver_protocol"),
        "reference_id": data.get("reference_id"),
        "method": METHOD,
        "resamples": resamples,
        "seed": seed,
        "level": float(level),
        "weights": dict(TRACK_WEIGHTS),
    }
    if data.get("simulated"):
        document["simulated"] = True  # computed from simulated (demo) data
    models = {}
    for model in source.models:
        if model in source.ranked:
            models[model] = _ranked_model(source, analysis, source.ranked.index(model))
        else:
            models[model] = _unranked_model(data["models"][model])
    document["models"] = models
    document["ranking"] = [] if analysis is None else [source.ranked[i] for i in analysis.order]
    document["pairs"] = [] if analysis is None else _pairs(source, analysis, n_tasks, level)
    document["tie_groups"] = (
        [] if analysis is None else [[source.ranked[i] for i in g] for g in analysis.tie_groups]
    )
    document["notes"] = _notes(source, n_tasks)
    return document


def _ranked_model(source: IndexInput, analysis: CohortAnalysis, row: int) -> dict[str, Any]:
    model = source.ranked[row]
    entry = source.data["models"][model]
    tracks, components, sds = {}, {}, {}
    for k, track in enumerate(TRACKS):
        components[track] = decompose_track_variance(source.scores[model][k])
        sds[track] = _number(analysis.track_sd[row, k])
        n = int(analysis.n_tasks[k])
        tracks[track] = {
            "mean": entry["tracks"][track]["mean"],
            "n_tasks": n,
            "sd": sds[track],
            "se": _number(analysis.track_se[row, k]),
            "df": n - 1 if n >= 2 else None,
            "ci": _pair(analysis.track_ci[0][row, k], analysis.track_ci[1][row, k]),
            "ci_bootstrap": _pair(
                analysis.track_ci_bootstrap[0][row, k], analysis.track_ci_bootstrap[1][row, k]
            ),
            "variance_components": components[track],
        }
    index_ci = _pair(analysis.index_ci[0][row], analysis.index_ci[1][row])
    half_width = _number(analysis.index_ci[1][row] - analysis.index[row])
    result = {
        "status": entry["status"],
        "index": entry["index"],
        "rank": analysis.ranks[row],
        "index_se": _number(analysis.index_se[row]),
        "index_df": _number(analysis.index_df[row]),
        "index_ci": index_ci,
        "index_ci_half_width": half_width,
        "index_ci_bootstrap": _pair(
            analysis.index_ci_bootstrap[0][row], analysis.index_ci_bootstrap[1][row]
        ),
        "rank_ci": list(analysis.rank_ci[row]),
        "index_se_projected": project_index_se(
            sds, dict(zip(TRACKS, map(len, source.items), strict=True)), components
        ),
        "tracks": tracks,
    }
    if entry["status"] == "provisional":
        result["note"] = (
            "provisional: some adopted attempt awaits confirmation; the intervals use the "
            "adopted attempts as they stand and the status stays provisional"
        )
    return result


def _unranked_model(entry: dict[str, Any]) -> dict[str, Any]:
    tracks = {
        track: {
            "mean": entry["tracks"][track]["mean"],
            "n_tasks": sum(1 for task in entry["tasks"] if task["track"] == track),
            "sd": None,
            "se": None,
            "df": None,
            "ci": None,
            "ci_bootstrap": None,
            "variance_components": None,
        }
        for track in TRACKS
    }
    return {
        "status": entry["status"],
        "index": None,
        "rank": None,
        "index_se": None,
        "index_df": None,
        "index_ci": None,
        "index_ci_half_width": None,
        "index_ci_bootstrap": None,
        "rank_ci": None,
        "index_se_projected": None,
        "tracks": tracks,
        "note": f"no index (status {entry['status']}): no intervals and no rank; left out of "
        "pairs, ranking and tie groups",
    }


def _pairs(
    source: IndexInput, analysis: CohortAnalysis, n_tasks: list[int], level: float
) -> list[dict[str, Any]]:
    pairs = []
    for k, (a, b) in enumerate(analysis.pairs):
        p_holm = float(analysis.p_holm[k])
        pairs.append(
            {
                "model_a": source.ranked[a],
                "model_b": source.ranked[b],
                "delta": float(analysis.pair_delta[k]),
                "se": _number(analysis.pair_se[k]),
                "df": _number(analysis.pair_df[k]),
                "ci": _pair(analysis.pair_ci[0][k], analysis.pair_ci[1][k]),
                "ci_bootstrap": _pair(
                    analysis.pair_ci_bootstrap[0][k], analysis.pair_ci_bootstrap[1][k]
                ),
                "p_value": float(analysis.p_value[k]),
                "p_holm": p_holm,
                "significant": p_holm <= 1 - level,
                "n_common_tasks": sum(n_tasks),
            }
        )
    return pairs


def _notes(source: IndexInput, n_tasks: list[int]) -> list[str]:
    notes = []
    unranked = [m for m in source.models if m not in source.ranked]
    if unranked:
        notes.append(
            f"without an index (incomplete): {', '.join(unranked)}; listed with null intervals "
            "and no rank, left out of pairs, ranking and tie groups"
        )
    single = [t for t, n in zip(TRACKS, n_tasks, strict=True) if n < 2]
    if source.ranked and single:
        notes.append(
            f"fewer than two tasks in {', '.join(single)}: no standard deviation there, so "
            "index_se, index_ci and the pairs' se and ci are null"
        )
    if len(source.ranked) < 2:
        notes.append("fewer than two models with an index: no pairs")
    return notes
