"""Benchmarks of the scoring core: prints wall time and peak Python memory.

Run with ``make bench``. The data are synthetic (seeded, generated in a temporary
folder under the id ``bench-synthetic``); they are not TCSExam values. Nothing here is
a test: the figures are printed for the record, never asserted.
"""

from __future__ import annotations

import csv
import json
import random
import tempfile
import time
import tracemalloc
from pathlib import Path

from tcsexam_lib import load_reference, run_score, score_solver_task
from tcsexam_lib.vocab import TRACKS

FULL_SCORED = 1860  # the size of the fixed reference's Full file
FULL_UNSCORED = 32


def _measure(label: str, func, repeat: int = 5):
    tracemalloc.start()
    result = func()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    best, median = min(times), sorted(times)[len(times) // 2]
    print(
        f"{label:<58} best {best * 1e3:9.1f} ms  median {median * 1e3:9.1f} ms  "
        f"peak {peak / 2**20:7.1f} MiB"
    )
    return result


def _write_reference(root: Path, n_tasks: int) -> tuple[Path, dict[str, list[str]]]:
    rng = random.Random(20261201)
    per_task = FULL_SCORED // n_tasks
    tasks, unscored, names = {}, [], {}
    for t in range(n_tasks):
        task = f"task-{t:02d}"
        count = per_task + (1 if t < FULL_SCORED % n_tasks else 0)
        instances = {}
        for i in range(count):
            mu = rng.uniform(10, 1000)
            instances[f"i{i:04d}"] = [round(rng.gauss(mu, mu * 0.05), 3) for _ in range(3)]
        if t < FULL_UNSCORED:
            instances["short"] = [1.0, None, None]
            unscored.append({"task": task, "instance": "short", "reason": "fewer than two usable"})
        tasks[task] = {
            "kind": "objective",
            "direction": "maximize" if t % 2 else "minimize",
            "instances": instances,
        }
        names[task] = list(instances)
    data = {
        "reference_id": "bench-synthetic",
        "suite": "bench",
        "simulated": True,
        "description": "synthetic benchmark data, not TCSExam values",
        "scale_floor_relative": 0.02,
        "scale_floor_absolute": 1e-9,
        "tasks": tasks,
        "unscored_reference_instances": unscored,
    }
    folder = root / "bench-synthetic"
    folder.mkdir(parents=True)
    path = folder / "bench.json"
    path.write_text(json.dumps(data))
    return path, names


def _write_cohort(root: Path, tasks: list[str], n_models: int, repeats: int) -> tuple[Path, Path]:
    rng = random.Random(7)
    per_track = {
        "theorem": [f"thm-{i}" for i in range(40)],
        "solver": tasks,
        "construction": [f"con-{i}" for i in range(40)],
        "conjecture": [f"conj-{i}" for i in range(20)],
    }
    (root / "suites").mkdir()
    (root / "suites" / "bench.json").write_text(json.dumps({"suite": "bench", "tracks": per_track}))
    models = {f"model-{m:02d}": {"attempts_per_task": repeats} for m in range(n_models)}
    cohort = root / "cohort.json"
    cohort.write_text(
        json.dumps(
            {
                "suite": "bench",
                "solver_protocol": "offline",
                "solver_reference_id": "bench-synthetic",
                "models": models,
            }
        )
    )
    attempts = root / "attempts.csv"
    with attempts.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            [
                "model",
                "track",
                "item",
                "attempt",
                "score",
                "adoption_status",
                "score_status",
                "score_type",
                "solver_protocol",
                "note",
            ]
        )
        for model in models:
            for track in TRACKS:
                for item in per_track[track]:
                    for attempt in range(1, repeats + 1):
                        if track in ("theorem", "conjecture"):
                            score = rng.choice([0, 1])
                        elif track == "solver":
                            score = round(rng.random(), 6)
                        else:
                            score = round(rng.uniform(0, 1.5), 6)
                        writer.writerow(
                            [
                                model,
                                track,
                                item,
                                attempt,
                                score,
                                "selected",
                                "valid",
                                "fixed_reference_relative"
                                if track == "solver"
                                else "original_task_score",
                                "offline" if track == "solver" else "",
                                "",
                            ]
                        )
    return cohort, attempts


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        path, names = _write_reference(root, n_tasks=40)
        print(
            f"synthetic reference: {FULL_SCORED} scored + {FULL_UNSCORED} unscored instances "
            f"in {len(names)} tasks, {path.stat().st_size / 2**20:.2f} MiB"
        )
        reference = _measure(
            "load_reference (Full-size, schema + relations)", lambda: load_reference(path)
        )
        big = {
            "kind": "objective",
            "direction": "maximize",
            "instances": {f"j{i:05d}": [100.0 + i % 7, 101.0, 99.5] for i in range(20000)},
        }
        big_path = root / "bench-synthetic" / "big.json"
        big_path.write_text(
            json.dumps(
                {
                    "reference_id": "bench-synthetic",
                    "suite": "big",
                    "scale_floor_relative": 0.02,
                    "scale_floor_absolute": 1e-9,
                    "tasks": {"big": big},
                    "unscored_reference_instances": [],
                }
            )
        )
        big_ref = _measure(
            "load_reference (one task, 20,000 instances)",
            lambda: load_reference(big_path),
            repeat=3,
        )
        rng = random.Random(1)
        records = [
            {
                "instance": name,
                "status": "ok" if rng.random() > 0.1 else "timeout",
                "A": 100.0 + rng.gauss(0, 2),
            }
            for name in big["instances"]
        ]
        out = _measure(
            "score_solver_task (20,000 records)",
            lambda: score_solver_task(big_ref, "big", records),
            repeat=3,
        )
        print(f"  relative_score {out['relative_score']:.6f} over {out['n_scored']} instances")
        every = [
            (task, [{"instance": n, "status": "ok", "A": 500.0} for n in names[task]])
            for task in reference.tasks
        ]
        _measure(
            f"score_solver_task x {len(every)} tasks (whole Full-size set)",
            lambda: [score_solver_task(reference, t, r) for t, r in every],
        )
        for n_models, repeats in ((3, 1), (20, 3)):
            env_dir = root / f"c{n_models}"
            env_dir.mkdir()
            cohort, attempts = _write_cohort(env_dir, list(reference.tasks), n_models, repeats)
            rows = sum(1 for _ in attempts.open()) - 1
            (env_dir / "bench-synthetic").symlink_to(root / "bench-synthetic")
            result = _measure(
                f"run_score ({n_models} models x 140 tasks x {repeats}: {rows} rows)",
                lambda c=cohort, a=attempts, d=env_dir: run_score(
                    suite="bench", attempts=a, cohort=c, references_dir=d
                ),
                repeat=3,
            )
            print(f"  overall status {result['status']}")


if __name__ == "__main__":
    main()
