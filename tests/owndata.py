"""SIMULATED "own results" for the walk-through of docs/own-results.md.

A researcher who scores their own models has their own suite, K runs of a reference
solver, records and an attempts table. :func:`write_own_results` writes such files, from a
seeded generator, into ``<root>/my-work/`` (the folder the page's commands name); every
file says it is simulated. Nothing here is a TCSExam result.
"""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path
from typing import Any

SUITE = "my-lite"
REFERENCE_ID = "my-ref-k3-v1"
TRACKS = {
    "theorem": ["my-thm-1", "my-thm-2", "my-thm-3"],
    "solver": ["my-maxcut", "my-sat"],
    "construction": ["my-con-1", "my-con-2"],
    "conjecture": ["my-conj-1", "my-conj-2"],
}
#: model -> planned attempts per task (model-b repeats the maxcut task twice)
MODELS = {"model-a": {"default": 1}, "model-b": {"default": 1, "my-maxcut": 2}}
RUNS = ("run1", "run2", "run3")
INSTANCES = 6
NOTE = "SIMULATED own-results walk-through (tests/owndata.py): not TCSExam results"


def _write(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def _maxcut_records(rng: random.Random, centres: list[float], shift: float) -> list[dict]:
    return [
        {"instance": f"g{k}", "status": "ok", "A": round(centre + shift + rng.gauss(0, 2), 2)}
        for k, centre in enumerate(centres, start=1)
    ]


def _sat_records(rng: random.Random, p_solved: float, unsolved: int = 0) -> list[dict]:
    records = []
    for k in range(1, INSTANCES + 1):
        if rng.random() < p_solved and k != unsolved:
            records.append({"instance": f"s{k}", "status": "ok", "solved": True})
        else:
            records.append({"instance": f"s{k}", "status": "timeout"})
    return records


def write_own_results(root: Path, seed: int = 11) -> Path:
    """Write the walk-through's inputs under ``root/my-work``; return that folder."""
    rng = random.Random(seed)
    work = root / "my-work"
    _write(
        work / "refs" / "suites" / f"{SUITE}.json",
        {"suite": SUITE, "description": NOTE, "simulated": True, "tracks": TRACKS},
    )
    _write(
        work / "tasks.json",
        {
            "description": NOTE,
            "simulated": True,
            "scale_floor_relative": 0.02,
            "scale_floor_absolute": 1e-9,
            "tasks": {
                "my-maxcut": {"kind": "objective", "direction": "maximize"},
                "my-sat": {"kind": "solve", "direction": "maximize"},
            },
        },
    )
    centres = [rng.uniform(40, 120) for _ in range(INSTANCES)]
    for run in RUNS:
        _write(work / "ref-runs" / run / "my-maxcut.json", _maxcut_records(rng, centres, 0))
        # no reference run solves the last instance: its scale is the absolute floor
        _write(work / "ref-runs" / run / "my-sat.json", _sat_records(rng, 0.6, INSTANCES))
    _write(
        work / "cohort.json",
        {
            "suite": SUITE,
            "solver_protocol": "offline",
            "solver_reference_id": REFERENCE_ID,
            "simulated": True,
            "description": NOTE,
            "models": {model: {"attempts_per_task": plan} for model, plan in MODELS.items()},
        },
    )
    rows = []
    skill = {"model-a": 0.7, "model-b": 0.4}
    for model, plan in MODELS.items():
        for track, tasks in TRACKS.items():
            for task in tasks:
                for attempt in range(1, plan.get(task, plan["default"]) + 1):
                    rows.append(_row(rng, work, model, track, task, str(attempt), skill[model],
                                     centres))  # fmt: skip
    with (work / "attempts.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["model", "track", "item", "attempt", "score", "adoption_status",
                         "score_status", "score_type", "solver_protocol", "note"])  # fmt: skip
        writer.writerows(rows)
    (work / "run-set.yaml").write_text(
        f"# {NOTE}\n"
        f'description: "{NOTE}"\n'
        f"suite: {SUITE}\nprotocol: offline\ncohort: cohort.json\nattempts: attempts.csv\n"
        "records: records\nreferences_dir: refs\noutput: out/reports\n",
        encoding="utf-8",
    )
    return work


def _row(rng, work, model, track, task, attempt, skill, centres) -> list[str]:
    """One attempts row; a solver row's score is left blank (its records give it)."""
    if track == "solver":
        if task == "my-maxcut":
            records = _maxcut_records(rng, centres, (skill - 0.5) * 8)
        else:
            records = _sat_records(rng, skill)
        _write(work / "records" / model / task / f"{attempt}.json", records)
        return [model, track, task, attempt, "", "selected", "valid",
                "fixed_reference_relative", "offline", "simulated"]  # fmt: skip
    if track == "construction":
        score = repr(round(rng.uniform(0.3, 1.1) * (0.5 + skill), 3))
    else:
        score = "1" if rng.random() < skill else "0"
    return [model, track, task, attempt, score, "selected", "valid", "original_task_score", "",
            "simulated"]  # fmt: skip
