"""``tcsexam solver-score`` and ``tcsexam score`` hand every option to the library by name.

The commands call :func:`~tcsexam_lib.scoring.commands.run_solver_score` and
:func:`~tcsexam_lib.scoring.commands.run_score` with each option written out; these tests
give every option of the parser a value of its own and check that the library receives
each one under its own name (an option the call forgot, or a renamed parameter, fails).
"""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from tcsexam_lib.cli import build_parser, main
from tcsexam_lib.scoring import commands
from tcsexam_lib.scoring.index_document import IndexDocument
from tcsexam_lib.scoring.solver_document import SolverDocument


def _options(command: str) -> dict[str, str]:
    """The option strings of a subcommand, by destination (help aside)."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {
        action.dest: action.option_strings[-1]
        for action in sub.choices[command]._actions
        if action.option_strings and action.dest != "help"
    }


SOLVER_RESULT = SolverDocument(
    {
        "relative_score": 0.25,
        "n_scored": 0,
        "instances": [],
        "unscored_instances": [],
        "reference_id": "r",
    }
)
SCORE_RESULT = IndexDocument({"models": {}, "status": "complete"})


@pytest.mark.parametrize(
    ("command", "module", "function", "result"),
    [
        ("solver-score", commands, "run_solver_score", SOLVER_RESULT),
        ("score", commands, "run_score", SCORE_RESULT),
    ],
)
def test_every_option_reaches_the_library_under_its_own_name(
    monkeypatch, capsys, command, module, function, result
):
    received = {}

    def fake(**kwargs):
        received.update(kwargs)
        return result

    monkeypatch.setattr(module, function, fake)
    options = _options(command)
    argv = [command]
    for dest, option in options.items():
        argv += [option, f"value-of-{dest}"]
    assert main(argv) == 0
    assert received == {dest: f"value-of-{dest}" for dest in options}
    assert set(options) >= {"output", "references_dir"}
    capsys.readouterr()


def test_score_imports_neither_pandas_nor_numpy_and_solver_score_not_pandas(ws, tmp_path):
    """The typed documents keep their tables lazy: ``-X importtime`` lists what ran."""
    ws.write()
    commands = {
        "score": (ws.score_args(tmp_path / "index.json"), {"pandas", "numpy"}),
        "solver-score": (ws.solver_args(tmp_path / "solver.json"), {"pandas"}),
    }
    for command, (args, absent) in commands.items():
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "tcsexam_lib.cli", *map(str, args)],
            capture_output=True,
            text=True,
            check=True,
        )
        imported = {line.split("|")[-1].strip().split(".")[0] for line in done.stderr.splitlines()}
        assert "tcsexam_lib" in imported, command
        assert not imported & absent, f"{command} imported {sorted(imported & absent)}"


def _solver_files(tmp_path, instances, records):
    """A one-task reference file (floors 0.02, 1e-9) and a records file."""
    import json

    reference = {
        "reference_id": "test-ref", "suite": "lite",
        "scale_floor_relative": 0.02, "scale_floor_absolute": 1e-9,
        "tasks": {"t": {"kind": "objective", "direction": "minimize", "instances": instances}},
        "unscored_reference_instances": [],
    }  # fmt: skip
    paths = tmp_path / "ref.json", tmp_path / "records.json"
    for path, data in zip(paths, (reference, records), strict=True):
        path.write_text(json.dumps(data), encoding="utf-8")
    return ["solver-score", "--task", "t", "--reference", paths[0], "--records", paths[1]]


def test_solver_score_says_where_the_floors_decide_and_warns_of_far_values(tmp_path, capsys):
    instances = {f"z{k}": [0, 0, 0] for k in range(12)}  # absolute floor
    instances.update({"close": [100, 100], "g": [10, 12, 14], "h": [1, 2]})
    records = [{"instance": name, "status": "ok", "A": 0} for name in instances if name[0] == "z"]
    records += [
        {"instance": "close", "status": "timeout"},
        {"instance": "g", "status": "ok", "A": 1e308},  # far: scored all the same
        {"instance": "h", "status": "crash"},
    ]
    args = _solver_files(tmp_path, instances, records)
    assert main([*map(str, args), "--output", str(tmp_path / "out.json")]) == 0
    out = capsys.readouterr().out
    assert "2 completed failures scored 0 (crash 1, timeout 1)" in out
    assert "scale set by: sample std 2, relative floor 1, absolute floor 12" in out
    assert "absolute floor sets the scale of 12 instance(s): 'z0', " in out
    assert "'z9' and 2 more; there a value equal to mu scores 0.5" in out
    assert "at best 0.5" in out
    assert "warning: instance 'g': A = 1e+308 is orders of magnitude outside the reference" in out


def test_solver_score_reads_integers_beyond_2_53_exactly(tmp_path, capsys):
    import json

    big = 2**60
    args = _solver_files(
        tmp_path,
        {"g": [big + 1, big + 3, big + 5]},
        [{"instance": "g", "status": "ok", "A": big + 3 + 97}],
    )
    assert main([*map(str, args), "--output", str(tmp_path / "out.json")]) == 0
    (row,) = json.loads((tmp_path / "out.json").read_text())["instances"]
    assert (row["A"], row["s"]) == (big + 100, 2.0) and row["score"] < 0.5
    capsys.readouterr()
