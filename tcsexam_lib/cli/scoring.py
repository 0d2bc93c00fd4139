"""``tcsexam solver-score`` and ``tcsexam score``: the two scoring commands."""

from __future__ import annotations

import argparse
from collections import Counter

from .common import SIMULATED_NOTE, add_references_dir, say

#: How many models `tcsexam score` lists on the terminal (beyond: the models that are not
#: complete, and a count per status).
_SHOWN_MODELS = 20


def _cmd_solver_score(args: argparse.Namespace) -> int:
    from ..scoring.commands import run_solver_score

    result = run_solver_score(
        task=args.task,
        records=args.records,
        reference=args.reference,
        reference_id=args.reference_id,
        references_dir=args.references_dir,
        model=args.model,
        attempt=args.attempt,
        output=args.output,
    )
    say(
        f"{args.task}: relative_score {result.relative_score!r} over "
        f"{result.n_scored} scored instance(s), {len(result.unscored_rows)} unscored "
        f"(reference {result.reference_id}) -> {args.output}"
    )
    if result.simulated:
        say(SIMULATED_NOTE)
    return 0


def _cmd_score(args: argparse.Namespace) -> int:
    from ..scoring.issues import describe_model
    from ..scoring.score_command import run_score

    result = run_score(
        suite=args.suite,
        attempts=args.attempts,
        cohort=args.cohort,
        references_dir=args.references_dir,
        output=args.output,
        solver_evidence=args.solver_evidence,
        solver_records=args.solver_records,
    )
    if args.solver_records is not None:
        from ..scoring.from_records import companion_paths

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
    solver = sub.add_parser(
        "solver-score", help="score one solver task's instance records against a reference"
    )
    solver.add_argument("--task", required=True, help="solver task id, e.g. maxcut-mqlib")
    solver.add_argument("--records", required=True, help="JSON list of final instance records")
    solver.add_argument(
        "--reference",
        required=True,
        metavar="SUITE|PATH",
        help="a suite name (lite, full, ...: references/<id>/<suite>.json) or a reference file",
    )
    solver.add_argument(
        "--reference-id",
        default=None,
        help="reference id (default with a suite name: paper-k3-fixed-260925; with a path, "
        "checked against the file when given)",
    )
    solver.add_argument("--output", required=True, help="where to write the JSON result")
    solver.add_argument("--model", default=None, help="model whose records these are (recorded)")
    solver.add_argument("--attempt", default=None, help="attempt id of the records (recorded)")
    add_references_dir(solver)
    solver.set_defaults(handler=_cmd_solver_score)

    score = sub.add_parser("score", help="compute the weighted TCSExam index of a cohort")
    score.add_argument("--suite", required=True, help="suite name (references/suites/<suite>.json)")
    score.add_argument("--attempts", required=True, help="attempts table (CSV)")
    score.add_argument("--cohort", required=True, help="cohort declaration (JSON)")
    score.add_argument("--output", required=True, help="where to write the JSON result")
    score.add_argument(
        "--solver-evidence",
        metavar="DIR",
        default=None,
        help="folder of solver-score outputs (with --model/--attempt) to cross-check every "
        "adopted solver row against",
    )
    score.add_argument(
        "--solver-records",
        metavar="DIR",
        default=None,
        help="folder of instance records <model>/<task>/<attempt>.json: each is scored, blank "
        "valid solver scores are filled from them and every adopted solver row is "
        "cross-checked; writes <output>.attempts.csv and <output>.evidence/ beside the index "
        "(not with --solver-evidence)",
    )
    add_references_dir(score)
    score.set_defaults(handler=_cmd_score)
