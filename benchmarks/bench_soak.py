"""Soak check of the report runner: no notebook lost to a kernel that could not start.

Run with ``make bench-soak`` (about 7 minutes on two idle cores, longer on a busy machine).
It writes the Full-size SIMULATED run set once (``tcsexam demo generate --scale full``, as
``make report-full-size`` does: 61 notebooks), then renders it with ``tcsexam report
--force`` three times in a row at ``-j 2`` and once at ``-j 4`` (into ``build/bench-soak/``;
without ``--force`` a round would reuse every page the round before it published, and run
nothing), and prints for each round the notebooks run, lost (every notebook that did not
run, whatever the cause), the kernels started again and what the kernel log holds besides
its header (shutdown errors: a kernel interrupted on its way out, or one that did not stop
cleanly on its shutdown request, which the runner logs), then the totals against the goals:
0 lost of at least 240, and no line in the kernel logs besides their headers. Nothing is
asserted; the exit status is 0 whatever the figures.

``--transport tcp`` runs the same rounds with kernels over TCP, the fallback of platforms
without IPC (it replaces the runner's choice of transport, as the unit tests do), to see
how often a kernel dies before replying to ``kernel_info`` and is started again.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

KIT = Path(__file__).resolve().parent.parent
ROOT = KIT / "build" / "demo-full-size"
PARAMS = ROOT / "demo-full-size-offline.yaml"
OUTPUT = KIT / "build" / "bench-soak"
ROUNDS = [2, 2, 2, 4]
GOAL_NOTEBOOKS = 240

# The runner in a fresh interpreter; with --transport tcp, its transport choice replaced.
RUN = "from tcsexam_lib.cli import main; raise SystemExit(main(sys.argv[1:]))"
RUN_TCP = (
    "import tcsexam_lib.reports.execute as e\n"
    "e.kernel_transport = lambda folder: ('tcp', 'forced by bench_soak --transport tcp')\n"
) + RUN


def _report(jobs: int, transport: str) -> dict[str, object]:
    code = "import sys\n" + (RUN_TCP if transport == "tcp" else RUN)
    command = [
        sys.executable,
        "-c",
        code,
        "report",
        str(PARAMS),
        "-j",
        str(jobs),
        "--output",
        str(OUTPUT),
        "--force",
    ]
    started = time.monotonic()
    done = subprocess.run(command, cwd=KIT, capture_output=True, text=True)
    seconds = time.monotonic() - started
    out = done.stdout + done.stderr
    planned = re.search(r"executing (\d+) notebook\(s\)", out)
    ran = re.search(r"report: (\d+) of (\d+) notebook\(s\) ran", out)
    total = int(planned.group(1)) if planned else 0
    run = int(ran.group(1)) if ran else 0
    logs = sorted(OUTPUT.glob("*/report-kernels.log"))
    log = "".join(p.read_text(encoding="utf-8", errors="replace") for p in logs)
    lines = [ln for ln in log.splitlines() if not ln.startswith("[report runner] ")]
    return {
        "exit": done.returncode,
        "planned": total,
        "run": run,
        "lost": total - run if planned else None,
        "retried": out.count("its kernel was started again"),
        "log_lines": len(lines),
        "shutdown_errors": sum(
            "KeyboardInterrupt caught in kernel" in ln or "after its shutdown request" in ln
            for ln in lines
        ),
        "transport_warnings": sum("running over TCP without encryption" in ln for ln in lines),
        "seconds": seconds,
        "failures": [ln for ln in out.splitlines() if ln.startswith("FAILED ")],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--transport",
        choices=["auto", "tcp"],
        default="auto",
        help="auto: what the runner chooses (IPC here); tcp: the fallback",
    )
    args = parser.parse_args()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "tcsexam_lib.cli",
            "demo",
            "generate",
            "--scale",
            "full",
            "--root",
            str(ROOT),
        ],
        cwd=KIT,
        check=True,
        capture_output=True,
    )
    print(
        f"soak: the Full-size SIMULATED run set, rounds at -j {ROUNDS} (kernels: {args.transport})"
    )
    results = []
    for number, jobs in enumerate(ROUNDS, 1):
        r = _report(jobs, args.transport)
        results.append(r)
        lost = "?" if r["lost"] is None else r["lost"]
        print(
            f"  round {number} (-j {jobs}): {r['run']} of {r['planned']} notebooks run, "
            f"{lost} lost, {r['retried']} kernel(s) started again, exit {r['exit']}, "
            f"{r['seconds']:.0f} s; kernel log: {r['log_lines']} line(s) besides the "
            f"header, {r['shutdown_errors']} shutdown error(s), "
            f"{r['transport_warnings']} transport warning(s)"
        )
        for failure in r["failures"]:
            print(f"    {failure}")
    run = sum(int(r["run"]) for r in results)
    unknown = any(r["lost"] is None for r in results)
    lost = sum(int(r["lost"] or 0) for r in results)
    ok = not unknown and lost == 0 and run >= GOAL_NOTEBOOKS
    print(
        f"  notebooks run: {run}, lost: {'?' if unknown else lost} "
        f"(goal: 0 lost of at least {GOAL_NOTEBOOKS}) {'PASS' if ok else 'MISS'}"
    )
    lines = sum(int(r["log_lines"]) for r in results)
    print(
        f"  kernel log lines besides the headers: {lines}, of which shutdown errors: "
        f"{sum(int(r['shutdown_errors']) for r in results)} (goal: 0) "
        f"{'PASS' if lines == 0 else 'MISS'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
