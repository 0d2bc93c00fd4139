"""Benchmark of a report notebook's own cost: papermill on the index notebook vs a baseline.

Run with ``make bench`` (or ``python benchmarks/bench_report.py --pairs N``). Each pair
runs, one right after the other and in alternating order, the ``papermill`` command on

- ``notebooks/index.ipynb -f params/notebooks/index.yaml`` (the SIMULATED demo; its
  ``output`` sent to a temporary folder), and
- a two-cell notebook (a ``parameters`` cell and ``x = 1``): papermill's own cost,
  kernel start-up included.

It prints the median of each and the ratio of the medians (the goal is 1.5x or less),
then what the kernel spends importing the kit (``from tcsexam_lib import views`` in a
fresh interpreter) beside pandas and matplotlib's pyplot alone. Nothing is asserted:
the figures are printed for the record.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=7, help="paired runs (default 7)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        baseline = folder / "two_cell.ipynb"
        _two_cell(baseline)
        index = [
            *PAPERMILL,
            "notebooks/index.ipynb",
            str(folder / "index-out.ipynb"),
            "-f",
            "params/notebooks/index.yaml",
            "-p",
            "output",
            str(folder / "i.json"),
        ]
        base = [*PAPERMILL, str(baseline), str(folder / "two-out.ipynb")]  # fmt: skip
        _timed(base)  # warm the file cache once, not counted
        times: dict[str, list[float]] = {"index": [], "baseline": []}
        for pair in range(args.pairs):
            order = (("index", index), ("baseline", base))
            for name, command in order if pair % 2 == 0 else order[::-1]:
                times[name].append(_timed(command))
    index_median = statistics.median(times["index"])
    base_median = statistics.median(times["baseline"])
    print(f"report notebook (papermill, {args.pairs} pairs, alternating order)")
    print(
        f"  index.ipynb -f params/notebooks/index.yaml  median {index_median:6.2f} s  "
        f"(min {min(times['index']):.2f}, max {max(times['index']):.2f})"
    )
    print(
        f"  two-cell notebook (baseline)                median {base_median:6.2f} s  "
        f"(min {min(times['baseline']):.2f}, max {max(times['baseline']):.2f})"
    )
    print(f"  ratio of medians: {index_median / base_median:.2f}x (goal: 1.5x or less)")
    views = _import_seconds("from tcsexam_lib import views", 5)
    libraries = _import_seconds("import pandas, matplotlib.pyplot", 5)
    print(
        f"  in a fresh interpreter: `from tcsexam_lib import views` {views:.2f} s; "
        f"`import pandas, matplotlib.pyplot` alone {libraries:.2f} s"
    )


if __name__ == "__main__":
    main()
