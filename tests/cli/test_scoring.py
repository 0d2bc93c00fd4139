"""``tcsexam solver-score`` and ``tcsexam score`` hand every option to the library by name.

The commands call :func:`~tcsexam_lib.scoring.commands.run_solver_score` and
:func:`~tcsexam_lib.scoring.score_command.run_score` with each option written out; these tests
give every option of the parser a value of its own and check that the library receives
each one under its own name (an option the call forgot, or a renamed parameter, fails).
"""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from tcsexam_lib.cli import build_parser, main
from tcsexam_lib.scoring import commands, score_command
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
    {"relative_score": 0.25, "n_scored": 1, "unscored_instances": [], "reference_id": "r"}
)
SCORE_RESULT = IndexDocument({"models": {}, "status": "complete"})


@pytest.mark.parametrize(
    ("command", "module", "function", "result"),
    [
        ("solver-score", commands, "run_solver_score", SOLVER_RESULT),
        ("score", score_command, "run_score", SCORE_RESULT),
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
