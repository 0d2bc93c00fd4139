"""The ``tcsexam`` command: a thin shell over :mod:`tcsexam_lib`.

Exit codes: 0 output written (also for an incomplete index: its status says so),
2 input refused (nothing written, an existing output untouched), 1 unexpected failure.
"""

from __future__ import annotations

import argparse
import signal
import sys
import traceback
from collections.abc import Sequence

from .errors import TcsexamError


def _add_references_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--references-dir",
        metavar="DIR",
        default=None,
        help="folder of suites and references (default: $TCSEXAM_REFERENCES or the kit's own "
        "references/)",
    )


_SIMULATED_NOTE = "SIMULATED demo data: these numbers are not TCSExam results"


def _run_with(function, args: argparse.Namespace):
    """Call a library function with the command-line options named as its parameters."""
    import inspect

    names = inspect.signature(function).parameters
    return function(**{name: value for name, value in vars(args).items() if name in names})


def _cmd_solver_score(args: argparse.Namespace) -> int:
    from .scoring.commands import run_solver_score

    result = _run_with(run_solver_score, args)
    print(
        f"{args.task}: relative_score {result['relative_score']!r} over "
        f"{result['n_scored']} scored instance(s), {len(result['unscored_instances'])} unscored "
        f"(reference {result['reference_id']}) -> {args.output}"
    )
    if result.get("simulated"):
        print(_SIMULATED_NOTE)
    return 0


def _cmd_score(args: argparse.Namespace) -> int:
    from .scoring.commands import run_score

    result = _run_with(run_score, args)
    for model, entry in result["models"].items():
        index = "no index" if entry["index"] is None else f"index {entry['index']:.2f}"
        errors = sum(1 for issue in entry["issues"] if issue["severity"] == "error")
        print(
            f"{model}: {entry['status']}, {index}"
            + (f", {errors} blocking issue(s)" if errors else "")
        )
    if "solver_evidence" in result:
        state = "consistent" if result["solver_evidence"]["consistent"] else "INCONSISTENT"
        print(f"solver evidence: {state} (see the solver_evidence_* issues)")
    print(f"overall status {result['status']} -> {args.output}")
    if result.get("simulated"):
        print(_SIMULATED_NOTE)
    return 0


class _VersionAction(argparse.Action):
    """``--version``: the installed version, looked up only when asked for."""

    def __init__(self, option_strings, dest, help=None):  # noqa: A002 - argparse's name
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from .provenance import kit_version

        parser.exit(message=f"tcsexam {kit_version()}\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``tcsexam`` command."""
    parser = argparse.ArgumentParser(
        prog="tcsexam",
        description="Score AI models on TCSExam (solver relative scores and the "
        "weighted TCSExam index).",
    )
    parser.add_argument("--version", action=_VersionAction, help="show the kit's version and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_report_command(sub)
    _add_reference_commands(sub)  # reference check / reference build
    _add_verify_command(sub)
    _add_demo_commands(sub)  # demo generate / demo check

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


# --- reference check / reference build / verify --------------------------------------

#: How many floor-set instances `reference check` prints per task (--json lists them all).
_SHOWN_FLOOR_INSTANCES = 10


def _scale_terms_text(terms: dict[str, int], n_scored: int) -> str:
    if n_scored and sum(terms.values()) != n_scored:
        return "not computed (the floors are not usable)"
    return ", ".join(f"{term} {n}" for term, n in terms.items())


def _print_reference_check(result) -> None:
    for report in result.files:
        print(f"{report.path}")
        print(f"  sha256 {report.sha256 or '(unreadable)'}")
        if report.reference_id is not None:
            label = " (simulated data)" if report.simulated else ""
            print(f"  reference_id {report.reference_id}, suite {report.suite}{label}")
            floors = [
                "(absent)" if value is None else repr(value)
                for value in (report.scale_floor_relative, report.scale_floor_absolute)
            ]
            print(f"  floors: relative {floors[0]}, absolute {floors[1]}")
            print(
                f"  {report.n_tasks} task(s), {report.n_scored} scored and "
                f"{report.n_unscored} unscored instance(s); scale set by: "
                + _scale_terms_text(report.scale_terms, report.n_scored)
            )
        for task in report.tasks:
            terms = _scale_terms_text(task.scale_terms, task.n_scored)
            print(
                f"    {task.task} ({task.kind}, {task.direction}): {task.n_scored} scored, "
                f"{task.n_unscored} unscored; scale set by: {terms}"
            )
            shown = task.floor_instances[:_SHOWN_FLOOR_INSTANCES]
            for row in shown:
                print(
                    f"      floor sets the scale of '{row['instance']}': {row['scale_term']} "
                    f"(mu {row['mu']:.6g}, s {row['s']:.6g}, scale {row['scale']:.6g})"
                )
            hidden = len(task.floor_instances) - len(shown)
            if hidden > 0:
                print(f"      ... and {hidden} more (--json lists them all)")
    for note in result.notes:
        print(f"note: {note}")
    findings = result.all_findings
    if findings:
        print(f"{len(findings)} finding(s):")
        for finding in findings:
            print(f"  - {finding}")
    print(
        f"reference check {result.target}: "
        + ("OK, everything holds" if result.ok else "FAILED (exit 2)")
    )


def _cmd_reference_check(args: argparse.Namespace) -> int:
    import json

    from .references.check import check_reference

    result = check_reference(args.target, references_dir=args.references_dir)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
    else:
        _print_reference_check(result)
    return 0 if result.ok else 2


def _cmd_reference_build(args: argparse.Namespace) -> int:
    from .references.build import run_reference_build

    path, data = run_reference_build(
        reference_id=args.id,
        suite=args.suite,
        tasks=args.tasks,
        runs=args.runs,
        output_dir=args.output_dir,
        description=args.description,
    )
    n_scored = sum(len(task["instances"]) for task in data["tasks"].values()) - len(
        data["unscored_reference_instances"]
    )
    print(
        f"reference {data['reference_id']} suite {data['suite']}: {len(data['tasks'])} task(s), "
        f"{n_scored} scored and {len(data['unscored_reference_instances'])} unscored "
        f"instance(s) from {len(args.runs)} runs -> {path}"
    )
    print(f"check it with: tcsexam reference check {path}")
    return 0


def _add_reference_commands(sub) -> None:
    reference = sub.add_parser("reference", help="check or build solver reference files")
    ref_sub = reference.add_subparsers(dest="reference_command", required=True, metavar="ACTION")
    check = ref_sub.add_parser(
        "check",
        help="check a reference file, or every suite file of a reference id (exit 0 only "
        "when everything holds, 2 otherwise)",
    )
    check.add_argument(
        "target", metavar="ID|PATH", help="a reference id (references/<id>/*.json) or a file"
    )
    check.add_argument("--json", action="store_true", help="print the full report as JSON")
    _add_references_dir(check)
    check.set_defaults(handler=_cmd_reference_check)

    build = ref_sub.add_parser(
        "build", help="build a custom reference from K runs of a reference solver"
    )
    build.add_argument("--id", required=True, help="the new reference id (never an existing one)")
    build.add_argument("--suite", required=True, help="suite name of the file (lite, full, ...)")
    build.add_argument(
        "--tasks",
        required=True,
        metavar="TASKS.json",
        help="kind, direction and both floors (schema references/schemas/"
        "reference-tasks.schema.json)",
    )
    build.add_argument(
        "--runs",
        required=True,
        nargs="+",
        metavar="RUN_DIR",
        help="one folder per reference run, each holding <task>.json instance records",
    )
    build.add_argument(
        "--output-dir",
        required=True,
        metavar="DIR",
        help="references folder; the file goes to DIR/<id>/<suite>.json",
    )
    build.add_argument("--description", default=None, help="free text stored in the file")
    build.set_defaults(handler=_cmd_reference_build)


def _cmd_verify(args: argparse.Namespace) -> int:
    from .verify import verify_output

    result = verify_output(args.output, base_dir=args.base_dir)
    print(f"{result.output} ({result.producer}); inputs taken from {result.base_dir}")
    for check in result.inputs:
        print(f"  {check}")
    for note in result.notes:
        print(f"note: {note}")
    if result.recompute_error:
        print(f"recomputation refused: {result.recompute_error}")
    if result.differences:
        print(f"{len(result.differences)} value(s) differ:")
        for difference in result.differences:
            print(f"  - {difference}")
    if result.ok:
        print("verify: MATCH (recomputed from unchanged inputs; created_utc ignored)")
        return 0
    changed = ", ".join(f"{c.role} ({c.path})" for c in result.changed_inputs)
    print("verify: MISMATCH" + (f"; changed input(s): {changed}" if changed else ""))
    return 2


def _add_verify_command(sub) -> None:
    verify = sub.add_parser(
        "verify",
        help="recompute a solver-score or score output from its recorded inputs "
        "(exit 0 match, 2 mismatch or changed input)",
    )
    verify.add_argument("output", metavar="OUTPUT.json", help="an output of the kit")
    verify.add_argument(
        "--base-dir",
        default=None,
        metavar="DIR",
        help="folder the recorded relative paths are relative to (default: the recorded "
        "working folder when it exists, else the current one)",
    )
    verify.set_defaults(handler=_cmd_verify)


def _cmd_demo(args: argparse.Namespace) -> int:
    from .demo import SIMULATED_LABEL, compare_demo, write_demo

    if args.demo_command == "generate" and args.scale == "full":
        from .demo_full_size import LABEL, write_files

        root = args.root or "build/demo-full-size"
        written = write_files(root)
        print(f"{len(written)} file(s) written under {root} ({LABEL})")
        print(f"render them with: tcsexam report {root}/demo-full-size-offline.yaml -j 2")
        return 0
    if args.demo_command == "generate":
        written = write_demo(args.root)
        print(f"{len(written)} demo file(s) written ({SIMULATED_LABEL})")
        return 0
    differing = compare_demo(args.root)
    for relative, what in differing:
        print(f"  {relative}: {what}")
    if differing:
        print(
            f"demo check: {len(differing)} file(s) are not the generator's output; "
            "`tcsexam demo generate` rewrites the generator's files (it removes nothing)"
        )
        return 2
    print("demo check: every demo file equals the generator's output")
    return 0


def _add_demo_commands(sub) -> None:
    demo = sub.add_parser(
        "demo", help="write or check the embedded SIMULATED demo data (not TCSExam results)"
    )
    demo_sub = demo.add_subparsers(dest="demo_command", required=True, metavar="ACTION")
    for action, text in (
        ("generate", "write the demo files from the seeded generator"),
        ("check", "compare the demo files with the generator (exit 0 equal, 2 otherwise)"),
    ):
        command = demo_sub.add_parser(action, help=text)
        command.add_argument(
            "--root",
            default=None,
            metavar="DIR",
            help="folder that receives demo/ and references/ (default: the kit's checkout; "
            "with --scale full: build/demo-full-size)",
        )
        if action == "generate":
            command.add_argument(
                "--scale",
                choices=("demo", "full"),
                default="demo",
                help="demo: the embedded demo; full: a SIMULATED run set of the size of "
                "TCSExam Full (1,860 + 32 instances, 20 solver tasks, 20 models, 3 attempts)",
            )
        command.set_defaults(handler=_cmd_demo)


def _cmd_report(args: argparse.Namespace) -> int:
    from .reports.runner import run_report

    result = run_report(
        args.params,
        jobs=args.jobs,
        output=args.output,
        notebooks_dir=args.notebooks_dir,
        progress=print,
    )
    for failure in result.failures:
        print(f"FAILED {failure.label}: {failure.error}", file=sys.stderr)
        print(f"  see {failure.html or failure.executed}", file=sys.stderr)
    pages = ", ".join(str(page) for page in result.landing_pages)
    notebooks = sum(len(rs.notebooks) for rs in result.run_sets)
    print(
        f"report: {notebooks - len(result.failures)} of {notebooks} notebook(s) ran in "
        f"{result.seconds:.1f} s; landing page {pages}"
    )
    return 0 if result.ok else 1


def _add_report_command(sub) -> None:
    report = sub.add_parser(
        "report",
        help="score run sets (params/*.yaml) and render every model's notebooks to HTML "
        "(exit 0 all ran, 1 a notebook failed, 2 parameters refused)",
    )
    report.add_argument(
        "params", nargs="+", metavar="PARAMS.yaml", help="run-set parameter file(s)"
    )
    report.add_argument(
        "-j", "--jobs", type=int, default=1, metavar="N", help="notebooks run in parallel"
    )
    report.add_argument(
        "--output",
        default=None,
        metavar="DIR",
        help="output folder (default: the files' output, else build/reports)",
    )
    report.add_argument(
        "--notebooks-dir",
        default=None,
        metavar="DIR",
        help="folder of the report notebooks (default: the kit's notebooks/)",
    )
    report.set_defaults(handler=_cmd_report)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tcsexam`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    previous = _stop_on_sigterm()
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        # Ctrl-C (or SIGTERM): the library has already stopped its workers and removed
        # its unfinished files; one line, no traceback.
        signum = getattr(_stop_on_sigterm, "received", signal.SIGINT)
        print(
            f"tcsexam {args.command}: interrupted ({signal.Signals(signum).name}); "
            "nothing unfinished was published",
            file=sys.stderr,
        )
        return 128 + int(signum)
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
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _stop_on_sigterm():
    """Turn SIGTERM into the same prompt stop as Ctrl-C (in the main thread only)."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None

    def handler(signum, _frame):
        _stop_on_sigterm.received = signum
        raise KeyboardInterrupt

    _stop_on_sigterm.received = signal.SIGINT
    return signal.signal(signal.SIGTERM, handler)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
