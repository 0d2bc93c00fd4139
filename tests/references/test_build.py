"""`tcsexam reference build`: three simulated runs -> a reference that checks, loads and scores."""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from refdata import FIXED_ID, seeded_run_values, small_reference, write_json, write_runs

from tcsexam_lib import load_reference, run_solver_score, score_solver_task
from tcsexam_lib import reference_from_data as build_reference
from tcsexam_lib.cli import main
from tcsexam_lib.errors import InputRefused
from tcsexam_lib.references.build import UNSCORED_REASON, run_reference_build
from tcsexam_lib.references.check import check_reference

NEW_ID = "custom-k3-sim-v1"


@pytest.fixture
def runs(tmp_path: Path):
    values, kinds, declared = seeded_run_values()
    tasks = write_json(tmp_path / "tasks.json", declared)
    run_dirs = write_runs(tmp_path / "runs", values, kinds)
    return values, kinds, declared, tasks, run_dirs


def _build(tmp_path: Path, tasks: Path, run_dirs: list[Path], reference_id: str = NEW_ID):
    return run_reference_build(
        reference_id=reference_id,
        suite="lite",
        tasks=tasks,
        runs=run_dirs,
        output_dir=tmp_path / "refs",
    )


def test_three_runs_build_a_reference_that_checks_and_loads(runs, tmp_path: Path) -> None:
    values, kinds, declared, tasks, run_dirs = runs
    path, data = _build(tmp_path, tasks, run_dirs)
    assert path == tmp_path / "refs" / NEW_ID / "lite.json"
    assert check_reference(NEW_ID, references_dir=tmp_path / "refs").ok
    ref = load_reference(path)
    assert ref.reference_id == NEW_ID and ref.simulated

    # values: one per run, in run order; infrastructure / failures as the rule says
    for task, instances in values.items():
        assert data["tasks"][task]["kind"] == declared["tasks"][task]["kind"]
        assert data["tasks"][task]["direction"] == declared["tasks"][task]["direction"]
        for instance, per_run in instances.items():
            assert data["tasks"][task]["instances"][instance] == per_run
    unscored = {
        (e["task"], e["instance"]): e["reason"] for e in data["unscored_reference_instances"]
    }
    for task, instances in values.items():
        for instance, per_run in instances.items():
            n_usable = sum(v is not None for v in per_run)
            assert ((task, instance) in unscored) == (n_usable < 2)
    assert all(reason.startswith(UNSCORED_REASON) for reason in unscored.values())

    # provenance: the sha256 of every run file and of TASKS.json
    provenance = data["provenance"]
    assert provenance["tasks_file"]["sha256"] == hashlib.sha256(tasks.read_bytes()).hexdigest()
    for run, entry in zip(run_dirs, provenance["runs"], strict=True):
        for task in values:
            digest = hashlib.sha256((run / f"{task}.json").read_bytes()).hexdigest()
            assert entry["files"][task] == digest


def test_scoring_against_the_built_reference_round_trips(runs, tmp_path: Path) -> None:
    values, kinds, declared, tasks, run_dirs = runs
    path, _ = _build(tmp_path, tasks, run_dirs)
    # the same values, assembled by hand into a reference the core builds directly
    by_hand = build_reference(
        {
            "reference_id": NEW_ID,
            "suite": "lite",
            "scale_floor_relative": declared["scale_floor_relative"],
            "scale_floor_absolute": declared["scale_floor_absolute"],
            "tasks": {
                task: {**declared["tasks"][task], "instances": instances}
                for task, instances in values.items()
            },
            "unscored_reference_instances": [
                {"task": task, "instance": instance, "reason": "by hand"}
                for task, instances in values.items()
                for instance, per_run in instances.items()
                if sum(v is not None for v in per_run) < 2
            ],
        }
    )
    for task in values:
        # a candidate: run 1's records (its own values), scored through the command's path
        records = json.loads((run_dirs[0] / f"{task}.json").read_text())
        records = [
            r
            if r["status"] == "ok" or (task, r["instance"]) not in _scored(by_hand, task)
            else {**r, "status": "timeout"}
            for r in records
        ]
        records_path = write_json(tmp_path / "cand" / f"{task}.json", records)
        out = run_solver_score(task=task, records=records_path, reference=path)
        expected = score_solver_task(by_hand, task, records)
        assert out["relative_score"] == expected["relative_score"]
        assert out["instances"] == expected["instances"]
        assert (
            out["provenance"]["reference"]["sha256"]
            == hashlib.sha256(path.read_bytes()).hexdigest()
        )
        assert 0.0 <= out["relative_score"] <= 1.0 and math.isfinite(out["relative_score"])


def _scored(reference, task: str) -> set[tuple[str, str]]:
    return {(task, name) for name in reference.tasks[task].scored}


def test_value_rule_per_status(tmp_path: Path) -> None:
    declared = {
        "scale_floor_relative": 0.02,
        "scale_floor_absolute": 1e-9,
        "tasks": {
            "obj": {"kind": "objective", "direction": "minimize"},
            "sol": {"kind": "solve", "direction": "maximize"},
        },
    }
    obj_runs = [
        ({"status": "ok", "A": 4}, 4),
        ({"status": "ok", "A": 6.5}, 6.5),
        ({"status": "timeout", "A": 3}, None),
        ({"status": "crash"}, None),
        ({"status": "infrastructure_error"}, None),
        ({"status": "not_run"}, None),
    ]
    sol_runs = [
        ({"status": "ok", "solved": True}, 1),
        ({"status": "ok", "A": 0}, 0),
        ({"status": "timeout"}, 0),
        ({"status": "crash"}, 0),
        ({"status": "infrastructure_error"}, None),
        ({"status": "not_run"}, None),
    ]
    run_dirs = []
    for k, ((obj, _), (sol, _)) in enumerate(zip(obj_runs, sol_runs, strict=True)):
        run = tmp_path / f"run{k}"
        write_json(run / "obj.json", [{"instance": "x", **obj}])
        write_json(run / "sol.json", [{"instance": "x", **sol}])
        run_dirs.append(run)
    tasks = write_json(tmp_path / "tasks.json", declared)
    _, data = run_reference_build(
        reference_id="rule-test", suite="s", tasks=tasks, runs=run_dirs, output_dir=tmp_path / "r"
    )
    assert data["tasks"]["obj"]["instances"]["x"] == [want for _, want in obj_runs]
    assert data["tasks"]["sol"]["instances"]["x"] == [want for _, want in sol_runs]


def _tasks_with(**change):
    def setup(tmp_path: Path, tasks: Path, run_dirs: list[Path]) -> dict:
        data = json.loads(tasks.read_text())
        data["tasks"]["sat"].update(change)
        write_json(tasks, data)
        return {}

    return setup


def _remove_file(task: str, run: int):
    def setup(tmp_path: Path, tasks: Path, run_dirs: list[Path]) -> dict:
        (run_dirs[run] / f"{task}.json").unlink()
        return {}

    return setup


def _edit_records(task: str, run: int, edit: Callable[[list], list]):
    def setup(tmp_path: Path, tasks: Path, run_dirs: list[Path]) -> dict:
        path = run_dirs[run] / f"{task}.json"
        write_json(path, edit(json.loads(path.read_text())))
        return {}

    return setup


def _extra_file(tmp_path: Path, tasks: Path, run_dirs: list[Path]) -> dict:
    write_json(run_dirs[0] / "undeclared.json", [])
    return {}


def _existing(tmp_path: Path, tasks: Path, run_dirs: list[Path]) -> dict:
    write_json(tmp_path / "refs" / NEW_ID / "lite.json", small_reference(NEW_ID))
    return {}


def _conflicting_sibling(tmp_path: Path, tasks: Path, run_dirs: list[Path]) -> dict:
    other = small_reference(NEW_ID, suite="full")
    other["scale_floor_relative"] = 0.05
    write_json(tmp_path / "refs" / NEW_ID / "full.json", other)
    return {}


def _suite_with_another_task(tmp_path: Path, tasks: Path, run_dirs: list[Path]) -> dict:
    """The suite's task list beside the new reference lists a solver task the runs lack."""
    tracks = {"theorem": [], "solver": ["cut", "tour", "sat", "sat-comp"], "construction": [],
              "conjecture": []}  # fmt: skip
    write_json(tmp_path / "refs" / "suites" / "lite.json", {"suite": "lite", "tracks": tracks})
    return {}


def _run_twice(tmp_path: Path, tasks: Path, run_dirs: list[Path]) -> dict:
    run_dirs[2] = Path(os.path.relpath(run_dirs[0]))  # run1, spelt otherwise
    return {}


def _copied_run(tmp_path: Path, tasks: Path, run_dirs: list[Path]) -> dict:
    shutil.rmtree(run_dirs[2])
    shutil.copytree(run_dirs[0], run_dirs[2])
    return {}


@dataclass(frozen=True)
class Refusal:
    name: str
    setup: Callable
    match: str
    reference_id: str = NEW_ID
    n_runs: int = 3


REFUSALS = [
    Refusal("the fixed id", lambda *a: {}, "Refusing to build the fixed reference", FIXED_ID),
    Refusal("an existing file", _existing, "never overwritten"),
    Refusal("fewer than two runs", lambda *a: {}, "two or more run folders", n_runs=1),
    Refusal("solve task that minimises", _tasks_with(direction="minimize"), "reference-tasks"),
    Refusal("kind not declared", _tasks_with(kind="guess"), "kind"),
    Refusal("a missing run file", _remove_file("cut", 1), r"run2/cut\.json.*no record file"),
    Refusal("an undeclared task file", _extra_file, "undeclared.*does not declare"),
    Refusal(
        "an instance missing from one run",
        _edit_records("tour", 2, lambda recs: recs[1:]),
        r"run3/tour\.json.*'tour-0'",
    ),
    Refusal(
        "an unknown status",
        _edit_records("cut", 0, lambda recs: [{**recs[0], "status": "weird"}] + recs[1:]),
        r"instance 'cut-0'.*status.*weird",
    ),
    Refusal(
        "ok without A",
        _edit_records("cut", 0, lambda recs: [{"instance": "cut-0", "status": "ok"}] + recs[1:]),
        r"instance 'cut-0'.*field 'A'",
    ),
    Refusal(
        "a duplicate instance",
        _edit_records("sat", 0, lambda recs: recs + recs[:1]),
        r"instance 'sat-0'.*duplicate",
    ),
    Refusal("floors disagreeing with another suite file", _conflicting_sibling, "floors_differ"),
    Refusal(
        "a run given twice", _run_twice, r"field 'runs'.*run 3 \(.*\) is run 1 \(.*/run1\) given"
    ),
    Refusal("a copied run", _copied_run, r"run 3 \(.*/run3\) has the same content as run 1"),
    Refusal(
        "a solver task of the suite without runs",
        _suite_with_another_task,
        r"(?s)suite 'lite'.*\[suite_tasks\] solver task 'sat-comp' of "
        r".*suites/lite\.json has no entry",
    ),
]


@pytest.mark.parametrize("case", REFUSALS, ids=[r.name for r in REFUSALS])
def test_build_refusals_write_nothing(case: Refusal, runs, tmp_path: Path, capsys) -> None:
    _, _, _, tasks, run_dirs = runs
    case.setup(tmp_path, tasks, run_dirs)
    target = tmp_path / "refs" / case.reference_id / "lite.json"
    before = target.read_bytes() if target.exists() else None
    with pytest.raises(InputRefused, match=case.match):
        _build(tmp_path, tasks, run_dirs[: case.n_runs], reference_id=case.reference_id)
    assert (target.read_bytes() if target.exists() else None) == before
    argv = ["reference", "build", "--id", case.reference_id, "--suite", "lite"]
    argv += ["--tasks", str(tasks), "--output-dir", str(tmp_path / "refs"), "--runs"]
    argv += [str(r) for r in run_dirs[: case.n_runs]]
    assert main(argv) == 2
    assert "Nothing was written" in capsys.readouterr().err
    assert (target.read_bytes() if target.exists() else None) == before


def test_a_second_suite_of_the_same_id_is_added_when_it_agrees(runs, tmp_path: Path) -> None:
    _, _, _, tasks, run_dirs = runs
    _build(tmp_path, tasks, run_dirs)
    path, _ = run_reference_build(
        reference_id=NEW_ID, suite="full", tasks=tasks, runs=run_dirs, output_dir=tmp_path / "refs"
    )
    assert path.name == "full.json"
    assert check_reference(NEW_ID, references_dir=tmp_path / "refs").ok


def test_cli_build_then_check(runs, tmp_path: Path, capsys) -> None:
    _, _, _, tasks, run_dirs = runs
    argv = ["reference", "build", "--id", NEW_ID, "--suite", "lite", "--tasks", str(tasks)]
    argv += ["--output-dir", str(tmp_path / "refs"), "--runs", *map(str, run_dirs)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert f"{NEW_ID}/lite.json" in printed
    # the build says the check's verdict, and that the suite's task list was not there
    assert "suites/lite.json absent" in printed and ": OK, everything holds" in printed
    assert main(["reference", "check", NEW_ID, "--references-dir", str(tmp_path / "refs")]) == 0
