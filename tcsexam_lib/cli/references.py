"""``tcsexam reference check|build`` and ``tcsexam verify``: references and provenance."""

from __future__ import annotations

import argparse

from .common import REFERENCES_DIR, add_command, arguments, option, say, say_json

#: How many floor-set instances `reference check` prints per task (--json lists them all).
_SHOWN_FLOOR_INSTANCES = 10


def _scale_terms_text(terms: dict[str, int], n_scored: int) -> str:
    if n_scored and sum(terms.values()) != n_scored:
        return "not computed (the floors are not usable)"
    return ", ".join(f"{term} {n}" for term, n in terms.items())


def _print_reference_check(result) -> None:
    for report in result.files:
        say(f"{report.path}")
        say(f"  sha256 {report.sha256 or '(unreadable)'}")
        if report.reference_id is not None:
            label = " (simulated data)" if report.simulated else ""
            say(f"  reference_id {report.reference_id}, suite {report.suite}{label}")
            floors = [
                "(absent)" if value is None else repr(value)
                for value in (report.scale_floor_relative, report.scale_floor_absolute)
            ]
            say(f"  floors: relative {floors[0]}, absolute {floors[1]}")
            say(
                f"  {report.n_tasks} task(s), {report.n_scored} scored and "
                f"{report.n_unscored} unscored instance(s); scale set by: "
                + _scale_terms_text(report.scale_terms, report.n_scored)
            )
        for task in report.tasks:
            terms = _scale_terms_text(task.scale_terms, task.n_scored)
            say(
                f"    {task.task} ({task.kind}, {task.direction}): {task.n_scored} scored, "
                f"{task.n_unscored} unscored; scale set by: {terms}"
            )
            shown = task.floor_instances[:_SHOWN_FLOOR_INSTANCES]
            for row in shown:
                say(
                    f"      floor sets the scale of '{row['instance']}': {row['scale_term']} "
                    f"(mu {row['mu']:.6g}, s {row['s']:.6g}, scale {row['scale']:.6g})"
                )
            hidden = len(task.floor_instances) - len(shown)
            if hidden > 0:
                say(f"      ... and {hidden} more (--json lists them all)")
    for note in result.notes:
        say(f"note: {note}")
    findings = result.all_findings
    if findings:
        say(f"{len(findings)} finding(s):")
        for finding in findings:
            say(f"  - {finding}")
    say(
        f"reference check {result.target}: "
        + ("OK, everything holds" if result.ok else "FAILED (exit 2)")
    )


def _cmd_reference_check(args: argparse.Namespace) -> int:
    from ..references.check import check_reference

    result = check_reference(args.target, references_dir=args.references_dir, suite=args.suite)
    if args.json:
        say_json(result.to_dict())
    else:
        _print_reference_check(result)
    return 0 if result.ok else 2


def _cmd_reference_build(args: argparse.Namespace) -> int:
    from ..references.build import run_reference_build

    path, data = run_reference_build(
        reference_id=args.id,
        **arguments(args, "suite", "tasks", "runs", "output_dir", "description"),
    )
    n_scored = sum(len(task["instances"]) for task in data["tasks"].values()) - len(
        data["unscored_reference_instances"]
    )
    say(
        f"reference {data['reference_id']} suite {data['suite']}: {len(data['tasks'])} task(s), "
        f"{n_scored} scored and {len(data['unscored_reference_instances'])} unscored "
        f"instance(s) from {len(args.runs)} runs -> {path}"
    )
    from ..references.check import check_reference

    check = check_reference(path, references_dir=args.output_dir)
    for note in check.notes:
        say(f"note: {note}")
    verdict = "OK, everything holds" if check.ok else "FAILED"
    say(f"reference check {path}: {verdict} (again at any time: tcsexam reference check {path})")
    return 0 if check.ok else 2


def add_reference_commands(sub) -> None:
    reference = sub.add_parser("reference", help="check or build solver reference files")
    ref_sub = reference.add_subparsers(dest="reference_command", required=True, metavar="ACTION")
    add_command(
        ref_sub,
        "check",
        "check a reference file, or every suite file of a reference id (exit 0 only when "
        "everything holds, 2 otherwise)",
        _cmd_reference_check,
        option(
            "target", metavar="ID|PATH", help="a reference id (references/<id>/*.json) or a file"
        ),
        option(
            "--suite",
            metavar="NAME|PATH",
            default=None,
            help="the suite file whose solver tasks the reference must hold (default: "
            "<dir>/suites/<suite>.json beside the reference's folder <dir>/<id>/, else the "
            "references folder's suites/)",
        ),
        option("--json", action="store_true", help="print the full report as JSON"),
        REFERENCES_DIR,
    )
    add_command(
        ref_sub,
        "build",
        "build a custom reference from K runs of a reference solver",
        _cmd_reference_build,
        option("--id", required=True, help="the new reference id (never an existing one)"),
        option("--suite", required=True, help="suite name of the file (lite, full, ...)"),
        option(
            "--tasks",
            required=True,
            metavar="TASKS.json",
            help="kind, direction and both floors (schema references/schemas/"
            "reference-tasks.schema.json)",
        ),
        option(
            "--runs",
            required=True,
            nargs="+",
            metavar="RUN_DIR",
            help="one folder per reference run, each holding <task>.json instance records",
        ),
        option(
            "--output-dir",
            required=True,
            metavar="DIR",
            help="references folder; the file goes to DIR/<id>/<suite>.json",
        ),
        option("--description", default=None, help="free text stored in the file"),
    )


def _print_links(result) -> None:
    """Each link of the chain that does not match: its changed inputs and values."""
    for link in result.chain[1:]:
        if not link.matches_itself:
            say(f"{link.output}: does not match")
            for line in [*link.changed_inputs, *link.differences[:5], link.recompute_error]:
                if line:
                    say(f"  {line}")


def _cmd_verify(args: argparse.Namespace) -> int:
    from ..verify import verify_output

    result = verify_output(args.output, base_dir=args.base_dir)
    say(f"{result.output} ({result.producer}); inputs taken from {result.base_dir}")
    for check in result.inputs:
        say(f"  {check}")
    for note in dict.fromkeys(note for node in result.chain for note in node.notes):
        say(f"note: {note}")
    if result.recompute_error:
        say(f"recomputation refused: {result.recompute_error}")
    if result.differences:
        say(f"{len(result.differences)} value(s) differ:")
        for difference in result.differences:
            say(f"  - {difference}")
    if result.environment:
        say(f"environment: {len(result.environment)} difference(s) from the recorded one:")
        for difference in result.environment:
            say(f"  - {difference}")
    elif result.environment_recorded:
        say("environment: the same as recorded (Python, platform, lock, packages)")
    _print_links(result)
    say(f"checked: {result.checked} (each recomputed, or compared with its recorded sha256)")
    if result.ok:
        same = "; in another environment" if result.environment else ""
        say(f"verify: MATCH (recomputed from unchanged inputs; created_utc ignored{same})")
        return 0
    changed = ", ".join(result.changes)
    text = "verify: MISMATCH" + (f"; changed input(s): {changed}" if changed else "")
    if result.mismatch_with_changed_environment:
        packages = [d for d in result.environment if d.package]
        named = ", ".join(str(d) for d in (packages or result.environment))
        text += (
            f"; it coincides with a changed environment ({named}): the values may differ "
            "because of it (docs/reproducing.md: rebuilding the recorded environment)"
        )
    say(text)
    return 2


def add_verify_command(sub) -> None:
    add_command(
        sub,
        "verify",
        "recompute an output from its recorded inputs, and each output it rests on down to "
        "the records (exit 0 match, 2 mismatch or changed input)",
        _cmd_verify,
        option("output", metavar="OUTPUT.json", help="an output of the kit"),
        option(
            "--base-dir",
            default=None,
            metavar="DIR",
            help="folder the recorded relative paths are relative to (default: the recorded "
            "working folder when it exists, else the current one)",
        ),
    )
