"""Benchmark of a report notebook's own cost: papermill on the index notebook vs a baseline.

Run with ``make bench`` (or ``python benchmarks/bench_report.py --pairs N``). Each
round runs, one right after the other and in rotated order, the ``papermill`` command on

- ``notebooks/index.ipynb -f params/notebooks/index.yaml`` as the report runner runs it:
  given the index and stats JSON of the SIMULATED demo (written once, before timing);
- the same notebook standalone: it computes the index and its intervals from the raw
  demo inputs;
- a two-cell notebook (a ``parameters`` cell and ``x = 1``): papermill's own cost,
  kernel start-up included.

It prints the median of each and the ratios of the medians (the goal, 1.5x or less, is
for the notebook as the runner runs it),
then what the kernel spends importing the kit (``from tcsexam_lib import views`` in a
fresh interpreter) beside pandas and matplotlib's pyplot alone.

Then the cohort report at scale: the SIMULATED 200-model run set (``tcsexam demo generate
--models 200``) against the demo's 3-model ``demo-full-offline``, both on the suite
``demo-full`` and rendered by ``tcsexam report`` once (cohort report only); then, in
alternating order, the cohort page alone as the runner makes it (papermill in a fresh
kernel on the written index and intervals, then the HTML page), with the ratio of the
medians (goal: 3x or less), and the whole ``tcsexam report`` command of each (scoring
the 200 models' 1,600 solver records included). Nothing is asserted: the figures are
printed for the record.

First of all, kernels forked warm (see docs/reports.md, How kernels are started): in
rotated order, ``index.ipynb`` as the runner runs it in a warm worker (papermill and the
HTML page), its kernel forked by the run's kernel server and started cold, against
papermill's two-cell notebook in this warm process (goal: forked at most 1.0x); then
``tcsexam report params/demo-*.yaml -j 2`` from scratch with kernels forked and cold
(``TCSEXAM_KERNEL_SERVER=off``), alternately. ``--only-forked`` runs these alone.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_notebook

KIT = Path(__file__).resolve().parent.parent
PAPERMILL = [sys.executable, "-m", "papermill", "--no-progress-bar", "--log-level", "WARNING"]


def _two_cell(path: Path) -> None:
    params = new_code_cell('model = ""')
    params.metadata["tags"] = ["parameters"]
    kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook = new_notebook(cells=[params, new_code_cell("x = 1")],
                            metadata={"kernelspec": kernelspec})  # fmt: skip
    nbformat.write(notebook, path)


def _timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=KIT, check=True, capture_output=True)
    return time.perf_counter() - start


def _import_seconds(statement: str, repeat: int) -> float:
    code = f"import time; t = time.perf_counter(); {statement}; print(time.perf_counter() - t)"
    runs = [
        float(
            subprocess.run(
                [sys.executable, "-c", code], cwd=KIT, check=True, capture_output=True, text=True
            ).stdout
        )  # fmt: skip
        for _ in range(repeat)
    ]
    return statistics.median(runs)


def _runner_inputs(folder: Path) -> list[str]:
    """The index and stats JSON the report runner passes, written once for the demo."""
    sys.path.insert(0, str(KIT))
    from tcsexam_lib import run_score
    from tcsexam_lib.stats.command import run_stats

    demo = KIT / "demo" / "demo-lite-offline"
    index, stats = folder / "demo.index.json", folder / "demo.stats.json"
    run_score(suite="demo-lite", attempts=demo / "attempts.csv", cohort=demo / "cohort.json",
              output=index)  # fmt: skip
    run_stats(index=index, output=stats)
    return ["-p", "index_json", str(index), "-p", "stats_json", str(stats)]


def _cohort_only(folder: Path, name: str, source: Path) -> Path:
    """A copy of a run-set parameter file with absolute paths and the cohort report only."""
    import yaml

    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    for key in ("cohort", "attempts", "records", "references_dir"):
        if data.get(key):
            data[key] = str((source.parent / data[key]).resolve())
    data["notebooks"] = ["cohort"]
    data.pop("output", None)
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def _cohort_job(params: Path, output: Path):
    """The runner's cohort job of a published run set (its parameters as it passed them)."""
    sys.path.insert(0, str(KIT))
    from tcsexam_lib import load_report_params
    from tcsexam_lib.reports.execute import NotebookJob

    p = load_report_params(params, output=output)
    folder = output / p.name
    executed = nbformat.read(folder / "cohort.ipynb", as_version=4)
    return NotebookJob(label=f"{p.name}/cohort", name="cohort", source=KIT / "notebooks" /
                       "cohort.ipynb", folder=folder, parameters=dict(
                           executed.metadata.papermill.parameters), final_folder=folder,
                       output=output, source_name="notebooks/cohort.ipynb")  # fmt: skip


def cohort_at_scale(pairs: int) -> None:
    """The 200-model cohort page against the 3-model one (see the module's docstring)."""
    sys.path.insert(0, str(KIT))
    from tcsexam_lib.demo_scale import write_files
    from tcsexam_lib.reports.execute import execute_notebook

    tcsexam = str(Path(sys.executable).with_name("tcsexam"))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_files(folder / "many", "models", 200)
        params = {
            "3 models": _cohort_only(folder, "three", KIT / "params" / "demo-full-offline.yaml"),
            "200 models": _cohort_only(folder, "many", folder / "many" / "demo-models-200.yaml"),
        }
        outputs = {name: folder / f"out-{k}" for k, name in enumerate(params)}
        commands = {n: [tcsexam, "report", str(params[n]), "--output", str(outputs[n])]
                    for n in params}  # fmt: skip
        for name in params:  # published once: the pages' inputs are written
            _timed(commands[name])
        jobs = {name: _cohort_job(params[name], outputs[name]) for name in params}
        page: dict[str, list[float]] = {name: [] for name in params}
        whole: dict[str, list[float]] = {name: [] for name in params}
        for turn in range(pairs):
            order = list(params) if turn % 2 == 0 else list(params)[::-1]
            for name in order:
                start = time.perf_counter()
                outcome = execute_notebook(jobs[name])
                page[name].append(time.perf_counter() - start)
                assert outcome.ok, outcome.error
            for name in order:
                whole[name].append(_timed(commands[name]))
    print(f"cohort report at scale (SIMULATED, suite demo-full, {pairs} rounds, order alternated)")
    for label, times in (("the cohort page (papermill + HTML)", page),
                         ("tcsexam report, cohort only (scoring included)", whole)):  # fmt: skip
        medians = {name: statistics.median(values) for name, values in times.items()}
        for name, values in times.items():
            print(f"  {label}, {name:<10} median {medians[name]:5.2f} s  "
                  f"(min {min(values):.2f}, max {max(values):.2f})")  # fmt: skip
        ratio = medians["200 models"] / medians["3 models"]
        goal = " (goal: 3x or less)" if "page" in label else ""
        print(f"  ratio of medians, 200 vs 3 models: {ratio:.2f}x{goal}")


def forked_vs_warm(pairs: int) -> None:
    """index.ipynb as the runner runs it (papermill and HTML in a warm worker), its kernel
    forked by the run's server or started cold, against papermill's two-cell notebook in
    this warm process; rounds in rotated order."""
    import os
    from dataclasses import replace

    import papermill
    import yaml

    sys.path.insert(0, str(KIT))
    from tcsexam_lib.reports import kernels
    from tcsexam_lib.reports.execute import NotebookJob, execute_notebook

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        baseline = folder / "two_cell.ipynb"
        _two_cell(baseline)
        params = yaml.safe_load((KIT / "params/notebooks/index.yaml").read_text(encoding="utf-8"))
        given = _runner_inputs(folder)  # -p index_json PATH -p stats_json PATH
        params.update({given[1]: given[2], given[4]: given[5]})
        params.update({key: str(KIT / params[key]) for key in ("cohort", "attempts")},
                      output=str(folder / "i.json"))  # fmt: skip
        job = NotebookJob(label="bench/index", name="index", source=KIT / "notebooks/index.ipynb",
                          folder=folder / "page", parameters=params)  # fmt: skip
        with kernels.private_runtime_folder() as runtime, kernels.kernel_server(runtime) as served:
            assert served[0], f"no kernel server: {served[1]}"
            job = replace(job, runtime=runtime, transport=kernels.kernel_transport(runtime)[0],
                          stderr_file=runtime / "index.stderr")  # fmt: skip

            def two_cell() -> None:
                papermill.execute_notebook(str(baseline), str(folder / "two-out.ipynb"),
                                           progress_bar=False, log_output=False)  # fmt: skip

            runs = {
                "forked": lambda: execute_notebook(replace(job, kernel_server=served[0])),
                "cold": lambda: execute_notebook(job),
                "baseline": two_cell,
            }
            times: dict[str, list[float]] = {name: [] for name in runs}
            for turn in range(pairs + 1):  # the first round warms this process, not counted
                names = list(runs)
                for name in names[turn % 3 :] + names[: turn % 3]:
                    start = time.perf_counter()
                    outcome = runs[name]()
                    assert outcome is None or outcome.ok, outcome.error
                    if turn:
                        times[name].append(time.perf_counter() - start)
    medians = {name: statistics.median(values) for name, values in times.items()}
    print(f"a report notebook as the runner runs it, in a warm worker ({pairs} rounds, "
          f"order rotated; pid {os.getpid()})")  # fmt: skip
    labels = {"forked": "index.ipynb, its kernel forked by the run's server (papermill + HTML)",
              "cold": "index.ipynb, its kernel started cold (papermill + HTML)",
              "baseline": "papermill's two-cell notebook in a warm process"}  # fmt: skip
    for name, label in labels.items():
        print(f"  {label:<72} median {medians[name]:5.2f} s  "
              f"(min {min(times[name]):.2f}, max {max(times[name]):.2f})")  # fmt: skip
    base = medians["baseline"]
    print(f"  ratio of medians, forked vs the two-cell notebook: "
          f"{medians['forked'] / base:.2f}x (goal: 1.0x or less)")  # fmt: skip
    print(f"  ratio of medians, cold vs the two-cell notebook:   {medians['cold'] / base:.2f}x")


def publication_forked_vs_cold(pairs: int) -> None:
    """``tcsexam report params/demo-*.yaml -j 2`` from scratch (a new output folder), with
    kernels forked and cold (``TCSEXAM_KERNEL_SERVER=off``), in alternating order."""
    import os

    tcsexam = str(Path(sys.executable).with_name("tcsexam"))
    params = sorted(str(path) for path in (KIT / "params").glob("demo-*.yaml"))
    times: dict[str, list[float]] = {"forked": [], "cold": []}
    with tempfile.TemporaryDirectory() as tmp:
        for turn in range(pairs):
            for name in list(times) if turn % 2 == 0 else list(times)[::-1]:
                env = {**os.environ, "TCSEXAM_KERNEL_SERVER": "on" if name == "forked" else "off"}
                output = Path(tmp) / f"{name}-{turn}"
                start = time.perf_counter()
                subprocess.run([tcsexam, "report", *params, "-j", "2", "--output", str(output)],
                               cwd=KIT, env=env, check=True, capture_output=True)  # fmt: skip
                times[name].append(time.perf_counter() - start)
    print(f"a from-scratch publication of the demo run sets (tcsexam report params/demo-*.yaml "
          f"-j 2, {pairs} pairs, order alternated)")  # fmt: skip
    for name, values in times.items():
        print(f"  kernels {name:<6} median {statistics.median(values):6.2f} s  "
              f"(min {min(values):.2f}, max {max(values):.2f})")  # fmt: skip
    ratios = [forked / cold for forked, cold in zip(times["forked"], times["cold"], strict=True)]
    print(f"  median of the paired ratios, forked vs cold: {statistics.median(ratios):.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=7, help="paired runs (default 7)")
    parser.add_argument("--scale-pairs", type=int, default=5,
                        help="rounds of the cohort page, 200 vs 3 models (default 5)")  # fmt: skip
    parser.add_argument("--only-scale", action="store_true",
                        help="run only the cohort page at scale")  # fmt: skip
    parser.add_argument("--publication-pairs", type=int, default=3,
                        help="demo publications, forked and cold (default 3)")  # fmt: skip
    parser.add_argument("--only-forked", action="store_true",
                        help="run only the forked-kernel comparisons")  # fmt: skip
    args = parser.parse_args()
    if args.only_scale:
        cohort_at_scale(args.scale_pairs)
        return
    forked_vs_warm(args.pairs)
    publication_forked_vs_cold(args.publication_pairs)
    if args.only_forked:
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        baseline = folder / "two_cell.ipynb"
        _two_cell(baseline)
        index = [*PAPERMILL, "notebooks/index.ipynb", str(folder / "index-out.ipynb"),
                 "-f", "params/notebooks/index.yaml"]  # fmt: skip
        commands = {
            "runner": [*index, *_runner_inputs(folder)],
            "standalone": [*index, "-p", "output", str(folder / "i.json")],
            "baseline": [*PAPERMILL, str(baseline), str(folder / "two-out.ipynb")],
        }
        _timed(commands["baseline"])  # warm the file cache once, not counted
        times: dict[str, list[float]] = {name: [] for name in commands}
        for turn in range(args.pairs):
            names = list(commands)
            for name in names[turn % 3 :] + names[: turn % 3]:  # each first in turn
                times[name].append(_timed(commands[name]))
    medians = {name: statistics.median(values) for name, values in times.items()}
    labels = {
        "runner": "index.ipynb as the runner runs it (index_json, stats_json)",
        "standalone": "index.ipynb standalone (computes index and stats)",
        "baseline": "two-cell notebook (baseline)",
    }
    print(f"report notebook (papermill, {args.pairs} rounds, order rotated)")
    for name, label in labels.items():
        print(f"  {label:<60} median {medians[name]:5.2f} s  "
              f"(min {min(times[name]):.2f}, max {max(times[name]):.2f})")  # fmt: skip
    base = medians["baseline"]
    print(f"  ratio of medians, as the runner runs it: {medians['runner'] / base:.2f}x "
          "(goal: 1.5x or less)")  # fmt: skip
    print(f"  ratio of medians, standalone:            {medians['standalone'] / base:.2f}x")
    views = _import_seconds("from tcsexam_lib import views", 5)
    libraries = _import_seconds("import pandas, matplotlib.pyplot", 5)
    print(
        f"  in a fresh interpreter: `from tcsexam_lib import views` {views:.2f} s; "
        f"`import pandas, matplotlib.pyplot` alone {libraries:.2f} s"
    )
    cohort_at_scale(args.scale_pairs)


if __name__ == "__main__":
    main()
