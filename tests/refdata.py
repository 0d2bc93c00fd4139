"""Generated fixtures for the reference, build and verify tests.

Everything here is produced by seeded generators at test time; nothing is a real
TCSExam value. Files that carry the fixed id ``paper-k3-fixed-260925`` are SYNTHETIC
FIXTURES written only under pytest's ``tmp_path`` and never committed.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

FIXED_ID = "paper-k3-fixed-260925"


def write_json(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def small_reference(reference_id: str = "test-ref-v1", suite: str = "lite") -> dict[str, Any]:
    """A small valid reference: an objective maximise task, a minimise task, a solve task.

    ``obj-max`` has a scored instance per scale term and one listed unscored instance.
    """
    return {
        "reference_id": reference_id,
        "suite": suite,
        "scale_floor_relative": 0.02,
        "scale_floor_absolute": 1e-9,
        "tasks": {
            "obj-max": {
                "kind": "objective",
                "direction": "maximize",
                "instances": {
                    "spread": [10, 12, 14],
                    "tight": [100, 100.5, None],
                    "zero": [0, 0, 0],
                    "lonely": [5, None, None],
                },
            },
            "obj-min": {
                "kind": "objective",
                "direction": "minimize",
                "instances": {"a": [50.0, 51.5, 49.0], "b": [7, 7.5, 6.5]},
            },
            "sat": {
                "kind": "solve",
                "direction": "maximize",
                "instances": {"s1": [1, 0, 1], "s2": [1, 1, 1]},
            },
        },
        "unscored_reference_instances": [
            {"task": "obj-max", "instance": "lonely", "reason": "fewer than two usable values"}
        ],
    }


def suite_for(reference: dict[str, Any]) -> dict[str, Any]:
    """A suite whose solver tasks are the reference's tasks (other tracks generated)."""
    name = reference["suite"]
    return {
        "suite": name,
        "tracks": {
            "theorem": [f"{name}-thm-1"],
            "solver": list(reference["tasks"]),
            "construction": [f"{name}-con-1"],
            "conjecture": [f"{name}-conj-1"],
        },
    }


def synthetic_fixed_reference(
    seed: int = 7, n_tasks: int = 12, scored: int = 1860, unscored: int = 32
) -> tuple[dict[str, Any], dict[str, Any]]:
    """SYNTHETIC FIXTURE (simulated values) shaped like the fixed reference: (full, lite).

    Full holds ``scored`` scored and ``unscored`` unscored instances over ``n_tasks``
    tasks; Lite copies five of its tasks. Written only to ``tmp_path`` by the tests.
    """
    rng = random.Random(seed)
    tasks: dict[str, Any] = {}
    listed = []
    for t in range(n_tasks):
        kind = "solve" if t % 4 == 3 else "objective"
        direction = "maximize" if kind == "solve" or t % 2 == 0 else "minimize"
        tasks[f"synthetic-task-{t:02d}"] = {"kind": kind, "direction": direction, "instances": {}}
    names = list(tasks)
    for k in range(scored + unscored):
        task = names[k % n_tasks]
        kind = tasks[task]["kind"]
        if k < scored:
            if kind == "solve":
                values = [rng.randint(0, 1) for _ in range(3)]
            else:
                values = [round(rng.uniform(10, 100), 3) for _ in range(3)]
        else:
            values = [rng.randint(0, 1) if kind == "solve" else 1.5, None, None]
            listed.append(
                {"task": task, "instance": f"i{k:05d}", "reason": "fewer than two usable values"}
            )
        tasks[task]["instances"][f"i{k:05d}"] = values
    full = {
        "reference_id": FIXED_ID,
        "suite": "full",
        "description": "SYNTHETIC TEST FIXTURE: simulated values, not the TCSExam release",
        "simulated": True,
        "scale_floor_relative": 0.02,
        "scale_floor_absolute": 1e-9,
        "tasks": tasks,
        "unscored_reference_instances": listed,
    }
    lite_tasks = names[:5]
    lite = copy.deepcopy(full)
    lite["suite"] = "lite"
    lite["tasks"] = {t: copy.deepcopy(tasks[t]) for t in lite_tasks}
    lite["unscored_reference_instances"] = [e for e in listed if e["task"] in lite_tasks]
    return full, lite


def write_runs(
    root: Path, values: dict[str, dict[str, list[Any]]], kinds: dict[str, str]
) -> list[Path]:
    """Write K run folders from ``values[task][instance] = [run1, run2, ...]``.

    ``None`` becomes a ``timeout`` record (objective) or a ``not_run`` record (solve);
    solve values become ``solved`` booleans.
    """
    k_runs = len(next(iter(next(iter(values.values())).values())))
    runs = [root / f"run{k + 1}" for k in range(k_runs)]
    for k, run in enumerate(runs):
        for task, instances in values.items():
            records = []
            for instance, per_run in instances.items():
                value = per_run[k]
                if value is None:
                    status = "not_run" if kinds[task] == "solve" else "timeout"
                    records.append({"instance": instance, "status": status})
                elif kinds[task] == "solve":
                    records.append({"instance": instance, "status": "ok", "solved": bool(value)})
                else:
                    records.append({"instance": instance, "status": "ok", "A": value})
            write_json(run / f"{task}.json", records)
    return runs


def seeded_run_values(seed: int = 3, k_runs: int = 3) -> tuple[dict, dict, dict]:
    """Simulated reference-run values: (values, kinds, tasks.json content)."""
    rng = random.Random(seed)
    declared = {
        "description": "simulated reference runs (test fixture)",
        "simulated": True,
        "scale_floor_relative": 0.02,
        "scale_floor_absolute": 1e-9,
        "tasks": {
            "cut": {"kind": "objective", "direction": "maximize"},
            "tour": {"kind": "objective", "direction": "minimize"},
            "sat": {"kind": "solve", "direction": "maximize"},
        },
    }
    kinds = {task: spec["kind"] for task, spec in declared["tasks"].items()}
    values: dict[str, dict[str, list[Any]]] = {}
    for task, kind in kinds.items():
        values[task] = {}
        for i in range(6):
            if kind == "solve":
                per_run = [rng.randint(0, 1) for _ in range(k_runs)]
            else:
                centre = rng.uniform(20, 200)
                per_run = [round(centre + rng.gauss(0, 3), 2) for _ in range(k_runs)]
            if i == 4:  # one unusable run
                per_run[1] = None
            if i == 5:  # only one usable run: unscored
                per_run = [per_run[0]] + [None] * (k_runs - 1)
            values[task][f"{task}-{i}"] = per_run
    return values, kinds, declared
