"""How often a kernel fails to stop cleanly: ipykernel's launcher against the kit's, side by side.

Run with ``make bench-soak`` (before the soak rounds) or ``python
benchmarks/bench_kernel_stops.py --kernels N``. Two processes (as ``tcsexam report -j 2``
runs two notebooks at once) each run N one-cell notebooks through the report runner's
papermill engine over IPC, alternating the kernel's launcher: ipykernel's own
(``-m ipykernel_launcher``) and the kit's (``-m tcsexam_lib.reports.kernel_launch``, see
that module for the shutdown race it closes). For each launcher it prints the kernels
run and those that did not stop cleanly on their shutdown request, by what went wrong
(the manager had to stop it with SIGTERM after 2.5 s, it ended by a signal such as
SIGABRT, or it exited with an error code), and the seconds from the shutdown request to
the kernel's exit (median and slowest). Goal: 0 unclean stops with the kit's launcher.

``--direct N``: papermill's own way instead, as a reader runs it (``papermill nb.ipynb
out.ipynb``, the command line, its own engine and kernel manager): N runs of a two-cell
notebook for each launcher, alternating, two at a time, the ``python3`` kernelspec
pointed at by ``JUPYTER_PATH`` (the environment's, as ``make venv`` installs it through
:mod:`tcsexam_lib.reports.kernelspec`, and the same spec with ipykernel's launcher). A
run is *unclean* when papermill fails, its log (``--log-level DEBUG``) says the kernel
was terminated or killed after its shutdown request, or the kernel wrote a traceback,
``ZMQError``, a libzmq assertion or ``KeyboardInterrupt``; *slow* when it took more than
2 s over the median of its launcher's runs. Goal for the kit's: 0 of either. With
``TCSEXAM_KEEP_UNCLEAN=FOLDER`` the output of each unclean run is kept there.
Nothing is asserted; the exit status is 0 whatever the figures.
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path

LAUNCHERS = ("ipykernel", "kit")


def _run_kernels(kernels: int, offset: int) -> dict[str, dict]:
    """Run ``kernels`` one-cell notebooks, the launcher alternating; what each stop was like."""
    import nbformat
    import papermill

    from tcsexam_lib.reports import kernel_client
    from tcsexam_lib.reports.kernels import kernel_transport, private_runtime_folder
    from tcsexam_lib.reports.kernelspec import IPYKERNEL_LAUNCHER

    kit_launcher = kernel_client.REPORT_LAUNCHER
    manager = kernel_client.ReportKernelManager
    shutdown = manager._async_shutdown_kernel
    seconds: list[float] = []

    async def timed_shutdown(self, *args, **kwargs):
        started = time.monotonic()
        await shutdown(self, *args, **kwargs)
        seconds.append(time.monotonic() - started)

    manager._async_shutdown_kernel = timed_shutdown
    found = {name: {"run": 0, "stops": collections.Counter(), "seconds": []} for name in LAUNCHERS}
    with private_runtime_folder() as folder, tempfile.TemporaryDirectory() as scratch:
        transport, _ = kernel_transport(folder)
        source = Path(scratch) / "one-cell.ipynb"
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")])
        notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
        nbformat.write(notebook, source)
        for number in range(kernels):
            name = LAUNCHERS[(number + offset) % 2]
            kernel_client.REPORT_LAUNCHER = (
                IPYKERNEL_LAUNCHER if name == "ipykernel" else kit_launcher
            )
            problems: list[str] = []
            papermill.execute_notebook(
                str(source),
                str(Path(scratch) / "out.ipynb"),
                progress_bar=False,
                **kernel_client.engine_options(transport, str(folder), None, problems.append),
            )
            found[name]["run"] += 1
            found[name]["seconds"].append(seconds[-1])
            for problem in problems:
                found[name]["stops"][_kind(problem)] += 1
    return found


def _kind(problem: str) -> str:
    for kind in ("SIGTERM", "SIGKILL", "SIGABRT", "signal", "code"):
        if kind in problem:
            return kind
    return problem


#: What a direct papermill run's output says when its kernel did not stop cleanly.
UNCLEAN = ("taking too long to finish", "Traceback", "ZMQError", "Assertion failed",
           "KeyboardInterrupt")  # fmt: skip
#: A direct run this much slower than its launcher's median is slow (seconds).
SLOW = 2.0


def direct_runs(runs: int) -> None:
    """``papermill`` run directly, the kernelspec's launcher alternating (see the docstring)."""
    import concurrent.futures
    import os
    import subprocess

    import nbformat

    from tcsexam_lib.reports.kernelspec import IPYKERNEL_LAUNCHER, KIT_LAUNCHER, install_kernelspec

    launchers = {"ipykernel": IPYKERNEL_LAUNCHER, "kit": KIT_LAUNCHER}
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        paths = {}
        for name, launcher in launchers.items():
            install_kernelspec(str(root / name), launcher)
            paths[name] = str(root / name / "share" / "jupyter")
        params = nbformat.v4.new_code_cell('model = ""')
        params.metadata["tags"] = ["parameters"]
        notebook = nbformat.v4.new_notebook(cells=[params, nbformat.v4.new_code_cell("x = 1")])
        notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
        nbformat.write(notebook, root / "two-cell.ipynb")

        def one(number: int) -> tuple[str, float, bool]:
            name = LAUNCHERS[number % 2]
            env = {**os.environ, "JUPYTER_PATH": paths[name]}
            command = [sys.executable, "-m", "papermill", str(root / "two-cell.ipynb"),
                       str(root / f"out-{number}.ipynb"), "--log-level", "DEBUG",
                       "--no-progress-bar"]  # fmt: skip
            begin = time.monotonic()
            done = subprocess.run(command, env=env, capture_output=True, text=True)
            seconds = time.monotonic() - begin
            said = done.stdout + done.stderr
            why = [w for w in UNCLEAN if w in said] + (["exit code"] if done.returncode else [])
            if why and os.environ.get("TCSEXAM_KEEP_UNCLEAN"):  # the log, to read what happened
                Path(os.environ["TCSEXAM_KEEP_UNCLEAN"], f"{name}-{number}.log").write_text(said)
            return name, seconds, why

        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            results = list(pool.map(one, range(2 * runs)))
    print(f"direct papermill runs: {2 * runs} runs of a two-cell notebook, two at a time, "
          f"launchers alternating ({time.monotonic() - started:.0f} s)")  # fmt: skip
    for name in LAUNCHERS:
        times = sorted(s for n, s, _ in results if n == name)
        median = statistics.median(times)
        slow = sum(1 for s in times if s > median + SLOW)
        unclean = sum(1 for n, _, why in results if n == name and why)
        kinds = collections.Counter(w for n, _, why in results if n == name for w in why)
        how = ", ".join(f"{count} {kind!r}" for kind, count in sorted(kinds.items())) or "none"
        goal = ""
        if name == "kit":
            goal = f" (goal: 0 and 0) {'PASS' if slow == unclean == 0 else 'MISS'}"
        print(f"  {name:9} launcher: {len(times)} runs, {unclean} unclean ({how}), {slow} slow "
              f"(over median + {SLOW:.0f} s){goal}; median {median:.2f} s, "
              f"slowest {times[-1]:.2f} s")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--kernels", type=int, default=200, help="kernels per process (2 processes; default 200)"
    )
    parser.add_argument(
        "--direct", type=int, default=0, metavar="N",
        help="N direct papermill runs per launcher instead (the command line, as a reader runs it)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.direct:
        direct_runs(args.direct)
        return 0
    started = time.monotonic()
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        parts = pool.starmap(_run_kernels, [(args.kernels, 0), (args.kernels, 1)])
    print(
        f"kernel stops: {2 * args.kernels} one-cell notebooks, two at a time, launchers "
        f"alternating ({time.monotonic() - started:.0f} s)"
    )
    for name in LAUNCHERS:
        run = sum(part[name]["run"] for part in parts)
        stops = sum((part[name]["stops"] for part in parts), collections.Counter())
        seconds = sorted(s for part in parts for s in part[name]["seconds"])
        unclean = sum(stops.values())
        how = ", ".join(f"{count} {kind}" for kind, count in sorted(stops.items())) or "none"
        goal = ""
        if name == "kit":
            goal = f" (goal: 0) {'PASS' if unclean == 0 else 'MISS'}"
        print(
            f"  {name:9} launcher: {run} kernels, {unclean} did not stop cleanly ({how}){goal}; "
            f"shutdown request to exit: median {statistics.median(seconds):.2f} s, "
            f"slowest {seconds[-1]:.2f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
