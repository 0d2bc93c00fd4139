"""The ``tcsexam`` command: a thin shell over :mod:`tcsexam_lib`.

Exit codes: 0 output written (also for an incomplete index: its status says so),
2 input refused (nothing written, an existing output untouched), 1 unexpected failure.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Sequence

from . import __version__
from .errors import TcsexamError
from .runs import run_score, run_solver_score


def _add_references_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--references-dir",
        metavar="DIR",
        default=None,
        help="folder of suites and references (default: $TCSEXAM_REFERENCES or the kit's own "
        "references/)",
    )


def _cmd_solver_score(args: argparse.Namespace) -> int:
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
    print(
        f"{args.task}: relative_score {result['relative_score']:.6f} over "
        f"{result['n_scored']} scored instance(s), {len(result['unscored_instances'])} unscored "
        f"(reference {result['reference_id']}) -> {args.output}"
    )
    return 0


def _cmd_score(args: argparse.Namespace) -> int:
    result = run_score(
        suite=args.suite,
        attempts=args.attempts,
        cohort=args.cohort,
        references_dir=args.references_dir,
        output=args.output,
        solver_evidence=args.solver_evidence,
    )
    for model, entry in result["models"].items():
        index = "null" if entry["index"] is None else f"{entry['index']:.4f}"
        errors = sum(1 for issue in entry["issues"] if issue["severity"] == "error")
        print(
            f"{model}: {entry['status']}, index {index}"
            + (f", {errors} blocking issue(s)" if errors else "")
        )
    if "solver_evidence" in result:
        state = "consistent" if result["solver_evidence"]["consistent"] else "INCONSISTENT"
        print(f"solver evidence: {state} (see the solver_evidence_* issues)")
    print(f"overall status {result['status']} -> {args.output}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``tcsexam`` command."""
    parser = argparse.ArgumentParser(
        prog="tcsexam",
        description="Score AI models on TCSExam (solver relative scores and the "
        "weighted TCSExam index).",
    )
    parser.add_argument("--version", action="version", version=f"tcsexam {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

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
    _add_references_dir(solver)
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
    _add_references_dir(score)
    score.set_defaults(handler=_cmd_score)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tcsexam`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except TcsexamError as exc:
        label = "refused" if exc.exit_code == 2 else "error"
        print(f"tcsexam {args.command}: {label}: {exc}", file=sys.stderr)
        if exc.exit_code == 2:
            print("Nothing was written.", file=sys.stderr)
        return exc.exit_code
    except Exception:  # noqa: BLE001 - the command line reports any crash as exit 1
        print(f"tcsexam {args.command}: unexpected failure (please report it):", file=sys.stderr)
        traceback.print_exc()
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
