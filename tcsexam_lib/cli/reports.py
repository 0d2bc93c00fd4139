"""``tcsexam report``, ``tcsexam teaching-html`` and ``tcsexam demo``: the pages, the
teaching notebook's page, and the SIMULATED run sets they are shown on."""

from __future__ import annotations

import argparse
import sys

from .common import add_command, option, say


def _cmd_demo(args: argparse.Namespace) -> int:
    from ..demo import SIMULATED_LABEL, compare_demo, write_demo

    scale = "models" if getattr(args, "models", None) is not None else getattr(args, "scale", "")
    if args.demo_command == "generate" and scale != "demo":
        from ..demo_scale import LABELS, check_count, write_files

        count = check_count(args.models) if scale == "models" else None
        name = f"demo-models-{count}" if count else "demo-full-size"
        root = args.root or f"build/{name}"
        written = write_files(root, scale, count)
        say(f"{len(written)} file(s) written under {root} ({LABELS[scale]})")
        if count:
            say(f"render the cohort report with: tcsexam report {root}/{name}.yaml")
        else:
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
    root = option(
        "--root",
        default=None,
        metavar="DIR",
        help="folder that receives demo/ and references/ (default: the kit's checkout; with "
        "--scale full: build/demo-full-size; with --models N: build/demo-models-N)",
    )
    add_command(
        demo_sub,
        "generate",
        "write the demo files from the seeded generator",
        _cmd_demo,
        root,
        option(
            "--scale",
            choices=("demo", "full"),
            default="demo",
            help="demo: the embedded demo; full: a SIMULATED run set of the size of TCSExam "
            "Full (1,860 + 32 instances, 20 solver tasks, 20 models, 3 attempts)",
        ),
        option(
            "--models",
            type=int,
            default=None,
            metavar="N",
            help="a SIMULATED run set of N models (2 to 1000) on the demo-full suite, to see "
            "the leaderboard at scale (default folder: build/demo-models-N)",
        ),
    )
    add_command(
        demo_sub,
        "check",
        "compare the demo files with the generator (exit 0 equal, 2 otherwise)",
        _cmd_demo,
        root,
    )


def _cmd_report(args: argparse.Namespace) -> int:
    from ..reports.runner import run_report

    result = run_report(
        args.params,
        jobs=args.jobs,
        output=args.output,
        notebooks_dir=args.notebooks_dir,
        progress=say,
        force=args.force,
        dry_run=args.dry_run,
    )
    if result.unchanged:
        say(
            f"report: nothing changed since the last publication of "
            f"{', '.join(result.unchanged)}; nothing written ({result.seconds:.1f} s)"
        )
        return 0
    if result.dry_run:
        say(f"report: dry run, nothing written ({result.seconds:.1f} s)")
        return 0
    for failure in result.failures:
        say(f"FAILED {failure.label}: {failure.error}", file=sys.stderr)
        say(f"  see {failure.html or failure.executed}", file=sys.stderr)
    pages = ", ".join(str(page) for page in result.landing_pages)
    notebooks = [nb for rs in result.run_sets for nb in rs.notebooks]
    reused = sum(1 for nb in notebooks if nb.reused)
    ran = len(notebooks) - reused
    say(
        f"report: {ran - len(result.failures)} of {ran} notebook(s) ran, {reused} reused from "
        f"the store, in {result.seconds:.1f} s; landing page {pages}"
    )
    return 0 if result.ok else 1


def add_report_command(sub) -> None:
    add_command(
        sub,
        "report",
        "score run sets (params/*.yaml) and render every model's notebooks to HTML (exit 0 all "
        "ran, 1 a notebook failed, 2 parameters refused)",
        _cmd_report,
        option("params", nargs="+", metavar="PARAMS.yaml", help="run-set parameter file(s)"),
        option("-j", "--jobs", type=int, default=1, metavar="N", help="notebooks run in parallel"),
        option(
            "--output",
            default=None,
            metavar="DIR",
            help="output folder (default: the files' output, else build/reports)",
        ),
        option(
            "--notebooks-dir",
            default=None,
            metavar="DIR",
            help="folder of the report notebooks (default: the kit's notebooks/)",
        ),
        option(
            "--force",
            action="store_true",
            help="run every notebook again (by default a page whose inputs did not change is "
            "reused from the output folder's store)",
        ),
        option(
            "--dry-run",
            action="store_true",
            help="score the run sets and say what would change since their last publication "
            "and which notebooks would run (and why); write nothing",
        ),
    )


def _cmd_teaching_html(args: argparse.Namespace) -> int:
    from ..reports.teaching_page import write_teaching_page

    page = write_teaching_page(args.output)
    say(f"teaching notebook (static copy, formulas typeset offline) -> {page}")
    return 0


def add_teaching_command(sub) -> None:
    add_command(
        sub,
        "teaching-html",
        "write the teaching notebook as an HTML page that reads offline (MathJax in its "
        "_assets/); tcsexam report writes it into every report folder too",
        _cmd_teaching_html,
        option(
            "--output",
            default="build/teaching",
            metavar="DIR",
            help="folder of teaching.html and its _assets/ (default: build/teaching)",
        ),
    )
