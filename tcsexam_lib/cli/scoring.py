"""``tcsexam solver-score``, ``tcsexam score`` and ``tcsexam stats``: the commands that
compute (a task's relative score, the index, the intervals beside it)."""

from __future__ import annotations

import argparse
from collections import Counter

from .common import OUTPUT_JSON, REFERENCES_DIR, SIMULATED_NOTE, add_command, arguments, option, say

#: How many models `tcsexam score` lists on the terminal (beyond: the models that are not
#: complete, and a count per status).
_SHOWN_MODELS = 20


def _cmd_solver_score(args: argparse.Namespace) -> int:
    from ..scoring.commands import run_solver_score
    from ..scoring.solver_notes import solver_notes

    names = ("task", "records", "reference", "reference_id", "references_dir", "model")
    result = run_solver_score(**arguments(args, *names, "attempt", "output"))
    notes = solver_notes(result)
    say(
        f"{args.task}: relative_score {result.relative_score!r} over "
        f"{result.n_scored} scored instance(s), {notes.failures_text()}, "
        f"{len(result.unscored_rows)} unscored (reference {result.reference_id}) -> {args.output}"
    )
    for line in notes.lines():
        say(f"  {line}")
    if result.simulated:
        say(SIMULATED_NOTE)
    return 0


def _cmd_score(args: argparse.Namespace) -> int:
    from ..scoring.commands import run_score
    from ..scoring.issues import describe_model

    names = ("suite", "attempts", "cohort", "references_dir", "output", "solver_evidence")
    result = run_score(**arguments(args, *names, "solver_records"))
    if args.solver_records is not None:
        from ..scoring.commands import companion_paths

        table, evidence = companion_paths(args.output)
        say(f"solver scores from {args.solver_records}: the filled table -> {table}, the "
            f"solver-score outputs -> {evidence}/")  # fmt: skip
    models = result.results
    shown = (
        list(models)
        if len(models) <= _SHOWN_MODELS
        else [model for model, entry in models.items() if entry.status != "complete"][
            :_SHOWN_MODELS
        ]
    )
    for model in shown:
        for line in describe_model(model, models[model]):
            say(line)
    if len(shown) < len(models):
        counts = Counter(entry.status for entry in models.values())
        tally = ", ".join(f"{counts[status]} {status}" for status in sorted(counts))
        say(f"{len(models)} models ({tally}); every model is in {args.output}")
    if result.solver_evidence is not None:
        say(_evidence_line(result))
    say(f"overall status {result.status} -> {args.output}")
    if result.simulated:
        say(SIMULATED_NOTE)
    return 0


def _evidence_line(result) -> str:
    """What the solver evidence check found, in one line."""
    summaries = [e.solver_evidence for e in result.results.values() if e.solver_evidence]
    checked = sum(s.rows_checked for s in summaries)
    folder = result.solver_evidence.evidence_dir
    if result.solver_evidence.consistent:
        return (
            f"solver evidence: {checked} adopted solver row(s) checked against {folder}, "
            "each score matches its solver-score output"
        )
    wrong = checked - sum(s.matched for s in summaries)
    return (
        f"solver evidence: INCONSISTENT, {wrong} of {checked} adopted solver row(s) "
        f"contradicted by {folder}; their models are incomplete (no index), each issue "
        "named above"
    )


def add_scoring_commands(sub) -> None:
    """The ``solver-score`` and ``score`` subcommands."""
    add_command(
        sub,
        "solver-score",
        "score one solver task's instance records against a reference",
        _cmd_solver_score,
        option("--task", required=True, help="solver task id, e.g. maxcut-mqlib"),
        option("--records", required=True, help="JSON list of final instance records"),
        option(
            "--reference",
            required=True,
            metavar="SUITE|PATH",
            help="a suite name (lite, full, ...: references/<id>/<suite>.json) or a reference file",
        ),
        option(
            "--reference-id",
            default=None,
            help="reference id (default with a suite name: paper-k3-fixed-260925; with a path, "
            "checked against the file when given)",
        ),
        OUTPUT_JSON,
        option("--model", default=None, help="model whose records these are (recorded)"),
        option("--attempt", default=None, help="attempt id of the records (recorded)"),
        REFERENCES_DIR,
    )
    add_command(
        sub,
        "score",
        "compute the weighted TCSExam index of a cohort",
        _cmd_score,
        option("--suite", required=True, help="suite name (references/suites/<suite>.json)"),
        option("--attempts", required=True, help="attempts table (CSV)"),
        option("--cohort", required=True, help="cohort declaration (JSON)"),
        OUTPUT_JSON,
        option(
            "--solver-evidence",
            metavar="DIR",
            default=None,
            help="folder of solver-score outputs (with --model/--attempt) to cross-check every "
            "adopted solver row against",
        ),
        option(
            "--solver-records",
            metavar="DIR",
            default=None,
            help="folder of instance records <model>/<task>/<attempt>.json: each is scored, "
            "blank valid solver scores are filled from them and every adopted solver row is "
            "cross-checked; writes <output>.attempts.csv and <output>.evidence/ beside the "
            "index (not with --solver-evidence)",
        ),
        REFERENCES_DIR,
    )


def _interval_text(interval) -> str:
    return "—" if interval is None else f"[{interval[0]:.2f}, {interval[1]:.2f}]"


#: Models the command's summary lists one line each (the rest are in the file).
SUMMARY_MODELS = 10


def _cmd_stats(args: argparse.Namespace) -> int:
    from ..stats.command import write_stats
    from ..stats.wording import pairs_sentence

    result = write_stats(**arguments(args, "index", "output", "resamples", "seed", "level"))
    head = result.head
    level = f"{head.level * 100:g}%"
    ranking, models = head.ranking, head.results
    for model in ranking[:SUMMARY_MODELS]:
        entry = models[model]
        best, worst = entry.rank_ci
        say(
            f"{model}: index {entry.index:.2f}, {level} CI {_interval_text(entry.index_ci)}"
            f", rank {entry.rank} (interval {best}-{worst}), {entry.status}"
        )
    if len(ranking) > SUMMARY_MODELS:
        say(f"... and {len(ranking) - SUMMARY_MODELS} more ranked models (all in the file)")
    unranked = [m for m, entry in models.items() if entry.index is None]
    for model in unranked[:SUMMARY_MODELS]:
        say(f"{model}: {models[model].status}, no index: no interval, no rank")
    if len(unranked) > SUMMARY_MODELS:
        say(f"... and {len(unranked) - SUMMARY_MODELS} more models without an index")
    pairs = result.pairs
    if len(pairs):
        sentence = pairs_sentence(
            pairs.count_significant(), len(pairs), head.level, head.pairs_untested
        )
        say(f"pairs: {sentence[0].lower()}{sentence[1:]}")
    leaders = head.leader_group
    if leaders:
        shown = ", ".join(leaders[:SUMMARY_MODELS])
        more = f" and {len(leaders) - SUMMARY_MODELS} more" if len(leaders) > SUMMARY_MODELS else ""
        say(f"could be first (no model shown to be ahead): {shown}{more}")
    groups = len(head.tie_groups)
    say(f"tie groups: {groups} (no group holds a pair shown to differ; they may overlap)")
    for note in head.notes:
        say(f"note: {note}")
    say("method: sign-flip tests, analytic intervals (see the file's method); nothing resampled")
    say(f"-> {args.output}")
    if head.simulated:
        say(SIMULATED_NOTE)
    return 0


def add_stats_command(sub) -> None:
    add_command(
        sub,
        "stats",
        "confidence intervals, paired tests, rank intervals, the models that could be first "
        "and tie groups of a tcsexam score output (beside the index, never instead of it)",
        _cmd_stats,
        option("index", metavar="INDEX.json", help="an output of tcsexam score"),
        OUTPUT_JSON,
        option(
            "--resamples",
            type=int,
            default=10_000,
            metavar="B",
            help="recorded in the output (default 10000); every figure is analytic",
        ),
        option(
            "--seed",
            type=int,
            default=0,
            help="recorded in the output (default 0); nothing is random",
        ),
        option(
            "--level", type=float, default=0.95, help="confidence level in (0, 1) (default 0.95)"
        ),
    )
