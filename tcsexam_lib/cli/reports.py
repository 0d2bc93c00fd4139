"""``tcsexam report``, ``tcsexam teaching-html``, ``tcsexam stats`` and ``tcsexam demo``:
pages, the teaching notebook's page, intervals, demo data."""

from __future__ import annotations

import argparse
import sys

from .common import SIMULATED_NOTE, say


def _cmd_demo(args: argparse.Namespace) -> int:
    from ..demo import SIMULATED_LABEL, compare_demo, write_demo

    if args.demo_command == "generate" and getattr(args, "models", None) is not None:
        from ..demo_models import LABEL as MANY
        from ..demo_models import check_count
        from ..demo_models import write_files as write_many

        count = check_count(args.models)
        root = args.root or f"build/demo-models-{count}"
        written = write_many(count, root)
        say(f"{len(written)} file(s) written under {root} ({MANY})")
        say(f"render the cohort report with: tcsexam report {root}/demo-models-{count}.yaml")
        return 0
    if args.demo_command == "generate" and args.scale == "full":
        from ..demo_full_size import LABEL, write_files

        root = args.root or "build/demo-full-size"
        written = write_files(root)
        say(f"{len(written)} file(s) written under {root} ({LABEL})")
        say(f"render them with: tcsexam report {root}/demo-full-size-offline.yaml -j 2")
        return 0
    if args.demo_command == "generate":
        written = write_demo(args.root)
        say(f"{len(written)} demo file(s) written ({SIMULATED_LABEL})")
        return 0
    differing = compare_demo(args.root)
    for relative, what in differing:
        say(f"  {relative}: {what}")
    if differing:
        say(
            f"demo check: {len(differing)} file(s) are not the generator's output; "
            "`tcsexam demo generate` rewrites the generator's files (it removes nothing)"
        )
        return 2
    say("demo check: every demo file equals the generator's output")
    return 0


def add_demo_commands(sub) -> None:
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
            "with --scale full: build/demo-full-size; with --models N: build/demo-models-N)",
        )
        if action == "generate":
            command.add_argument(
                "--scale",
                choices=("demo", "full"),
                default="demo",
                help="demo: the embedded demo; full: a SIMULATED run set of the size of "
                "TCSExam Full (1,860 + 32 instances, 20 solver tasks, 20 models, 3 attempts)",
            )
            command.add_argument(
                "--models",
                type=int,
                default=None,
                metavar="N",
                help="a SIMULATED run set of N models (2 to 1000) on the demo-full suite, "
                "to see the leaderboard at scale (default folder: build/demo-models-N)",
            )
        command.set_defaults(handler=_cmd_demo)


def _cmd_report(args: argparse.Namespace) -> int:
    from ..reports.runner import run_report

    result = run_report(
        args.params,
        jobs=args.jobs,
        output=args.output,
        notebooks_dir=args.notebooks_dir,
        progress=say,
    )
    for failure in result.failures:
        say(f"FAILED {failure.label}: {failure.error}", file=sys.stderr)
        say(f"  see {failure.html or failure.executed}", file=sys.stderr)
    pages = ", ".join(str(page) for page in result.landing_pages)
    notebooks = sum(len(rs.notebooks) for rs in result.run_sets)
    say(
        f"report: {notebooks - len(result.failures)} of {notebooks} notebook(s) ran in "
        f"{result.seconds:.1f} s; landing page {pages}"
    )
    return 0 if result.ok else 1


def add_report_command(sub) -> None:
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


def _cmd_teaching_html(args: argparse.Namespace) -> int:
    from ..reports.teaching_page import write_teaching_page

    page = write_teaching_page(args.output)
    say(f"teaching notebook (static copy, formulas typeset offline) -> {page}")
    return 0


def add_teaching_command(sub) -> None:
    teaching = sub.add_parser(
        "teaching-html",
        help="write the teaching notebook as an HTML page that reads offline (MathJax in "
        "its _assets/); tcsexam report writes it into every report folder too",
    )
    teaching.add_argument(
        "--output",
        default="build/teaching",
        metavar="DIR",
        help="folder of teaching.html and its _assets/ (default: build/teaching)",
    )
    teaching.set_defaults(handler=_cmd_teaching_html)


def _interval_text(interval) -> str:
    return "—" if interval is None else f"[{interval[0]:.2f}, {interval[1]:.2f}]"


#: Models the command's summary lists one line each (the rest are in the file).
SUMMARY_MODELS = 10


def _cmd_stats(args: argparse.Namespace) -> int:
    from ..stats.command import write_stats

    result = write_stats(
        index=args.index,
        output=args.output,
        resamples=args.resamples,
        seed=args.seed,
        level=args.level,
    )
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
        say(f"pairs: {pairs.count_significant()} of {len(pairs)} differ after Holm at {level}")
    leaders = head.leader_group
    if leaders:
        shown = ", ".join(leaders[:SUMMARY_MODELS])
        more = f" and {len(leaders) - SUMMARY_MODELS} more" if len(leaders) > SUMMARY_MODELS else ""
        say(f"could be first (no model significantly ahead): {shown}{more}")
    say(f"tie groups: {len(head.tie_groups)} (no group holds a significant pair)")
    say("method: analytic intervals and tests (see the file's method); nothing resampled")
    say(f"-> {args.output}")
    if head.simulated:
        say(SIMULATED_NOTE)
    return 0


def add_stats_command(sub) -> None:
    stats = sub.add_parser(
        "stats",
        help="confidence intervals, paired tests, rank intervals, the models that could be "
        "first and tie groups of a tcsexam score output (beside the index, never instead of it)",
    )
    stats.add_argument("index", metavar="INDEX.json", help="an output of tcsexam score")
    stats.add_argument("--output", required=True, help="where to write the JSON result")
    stats.add_argument(
        "--resamples",
        type=int,
        default=10_000,
        metavar="B",
        help="recorded in the output (default 10000); every figure is analytic",
    )
    stats.add_argument(
        "--seed", type=int, default=0, help="recorded in the output (default 0); nothing is random"
    )
    stats.add_argument(
        "--level", type=float, default=0.95, help="confidence level in (0, 1) (default 0.95)"
    )
    stats.set_defaults(handler=_cmd_stats)
