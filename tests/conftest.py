"""Shared fixtures: small, clearly test-only inputs written into ``tmp_path``.

Every value here is made up for the tests. The reference id is ``TEST_REF_ID``
(never the fixed reference's id), and the task ids start with ``test-`` except
``maxcut-mqlib``, which the seed's own commands name.

A :class:`Workspace` holds the inputs as plain Python data (reference, suite,
cohort, attempts rows, instance records); a test mutates that data, then
:meth:`Workspace.write` puts the files on disk and ``solver_args`` / ``score_args``
give the command line that scores them.
"""

from __future__ import annotations

import copy
import csv
import json
import math
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat
import pytest
import yaml
from hypothesis import HealthCheck, settings
from nbformat.v4 import new_code_cell, new_notebook

from tcsexam_lib.cli import main
from tcsexam_lib.scoring.commands import run_solver_score
from tcsexam_lib.vocab import ATTEMPT_COLUMNS, FIXED_REFERENCE_ID

# Hypothesis: enough examples to find edge cases, few enough that `make test-unit`
# stays well under a minute on two cores. HYPOTHESIS_PROFILE=thorough for more.
settings.register_profile(
    "kit", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "kit"))

#: Id of the test-only reference (values below are invented for the tests).
#: Where Jupyter and IPython keep their state: a test that starts them points each here.
JUPYTER_STATE_VARIABLES = (
    "JUPYTER_CONFIG_DIR",
    "JUPYTER_DATA_DIR",
    "JUPYTER_RUNTIME_DIR",
    "JUPYTERLAB_SETTINGS_DIR",
    "JUPYTERLAB_WORKSPACES_DIR",
    "IPYTHONDIR",
)


def isolate_jupyter_state(env: dict[str, str], folder: Path) -> None:
    """Point ``env``'s Jupyter and IPython state into ``folder`` (never the user's own)."""
    for variable in JUPYTER_STATE_VARIABLES:
        env[variable] = str(folder / variable.lower())


TEST_REF_ID = "test-only-ref-v0"
assert TEST_REF_ID != FIXED_REFERENCE_ID
SUITE = "lite"
MODEL = "test-model-a"
SOLVER_TASK = "maxcut-mqlib"
SOLVE_TASK = "test-sat-solve"

THEOREM_TASKS = [f"test-thm-{k}" for k in range(1, 6)]
SOLVER_TASKS = [SOLVER_TASK, SOLVE_TASK]
CONSTRUCTION_TASKS = ["test-con-1", "test-con-2"]
CONJECTURE_TASKS = ["test-conj-1"]

#: Scores of the base attempts table: P = 2/5 = 0.4, S = 0.25, C = (1.0+1.4)/2 = 1.2, O = 0.
BASE_SCORES = {
    "test-thm-1": 1,
    "test-thm-2": 1,
    "test-thm-3": 0,
    "test-thm-4": 0,
    "test-thm-5": 0,
    SOLVER_TASK: 0.25,
    SOLVE_TASK: 0.25,
    "test-con-1": 1.0,
    "test-con-2": 1.4,
    "test-conj-1": 0,
}
#: Track means the base table is built to give (the seed's worked example).
BASE_TRACK_MEANS = {"theorem": 0.4, "solver": 0.25, "construction": 1.2, "conjecture": 0.0}
WORKED_INDEX = 55.5
WORKED_RELATIVE_SCORE = 0.25

HEADER = [*ATTEMPT_COLUMNS, "note"]


def strict_json_loads(text: str) -> Any:
    """Parse an output as strict JSON: a NaN/Infinity literal fails the test."""

    def refuse(name: str) -> Any:
        raise AssertionError(f"output is not strict JSON: contains {name}")

    return json.loads(text, parse_constant=refuse)


def read_output(path: Path) -> Any:
    """Read an output file written by the kit, strictly."""
    return strict_json_loads(Path(path).read_text(encoding="utf-8"))


def track_of(item: str) -> str:
    for track, items in (
        ("theorem", THEOREM_TASKS),
        ("solver", SOLVER_TASKS),
        ("construction", CONSTRUCTION_TASKS),
        ("conjecture", CONJECTURE_TASKS),
    ):
        if item in items:
            return track
    raise KeyError(item)


def attempt_row(
    item: str,
    score: Any,
    *,
    attempt: str = "1",
    adoption_status: str = "selected",
    score_status: str = "valid",
    model: str = MODEL,
    note: str = "",
    track: str | None = None,
) -> dict[str, str]:
    """One attempts-table row with the right score type and protocol for its track."""
    track = track or track_of(item)
    solver = track == "solver"
    return {
        "model": model,
        "track": track,
        "item": item,
        "attempt": str(attempt),
        "score": "" if score is None else str(score),
        "adoption_status": adoption_status,
        "score_status": score_status,
        "score_type": "fixed_reference_relative" if solver else "original_task_score",
        "solver_protocol": "offline" if solver else "",
        "note": note,
    }


def base_rows() -> list[dict[str, str]]:
    """A complete table for MODEL (one selected valid attempt per task) worth 55.5."""
    return [attempt_row(item, score) for item, score in BASE_SCORES.items()]


def row_line(rows: list[dict[str, str]], item: str, attempt: str = "1") -> int:
    """CSV line number of a row (the header is line 1)."""
    for position, row in enumerate(rows):
        if row["item"] == item and row["attempt"] == attempt:
            return position + 2
    raise KeyError((item, attempt))


def base_reference() -> dict[str, Any]:
    """A test-only reference: the seed's worked example plus a small solve task."""
    return {
        "reference_id": TEST_REF_ID,
        "suite": SUITE,
        "description": "test-only values invented for the kit's unit tests",
        "simulated": True,
        "scale_floor_relative": 0.02,
        "scale_floor_absolute": 1e-9,
        "tasks": {
            SOLVER_TASK: {
                "kind": "objective",
                "direction": "maximize",
                "instances": {"example-1": [10, 12, 14], "example-2": [5, 7, 9]},
            },
            SOLVE_TASK: {
                "kind": "solve",
                "direction": "maximize",
                "instances": {"sat-1": [1, 0, 1, 1], "sat-2": [0, 0, 1]},
            },
        },
        "unscored_reference_instances": [],
    }


def base_suite() -> dict[str, Any]:
    return {
        "suite": SUITE,
        "description": "test-only suite for the kit's unit tests",
        "simulated": True,
        "tracks": {
            "theorem": list(THEOREM_TASKS),
            "solver": list(SOLVER_TASKS),
            "construction": list(CONSTRUCTION_TASKS),
            "conjecture": list(CONJECTURE_TASKS),
        },
    }


def base_cohort() -> dict[str, Any]:
    return {
        "suite": SUITE,
        "solver_protocol": "offline",
        "solver_reference_id": TEST_REF_ID,
        "models": {MODEL: {"attempts_per_task": 1}},
    }


def worked_records() -> list[dict[str, Any]]:
    """The seed's records: example-1 at the reference mean, example-2 timed out."""
    return [
        {"instance": "example-1", "status": "ok", "A": 12},
        {"instance": "example-2", "status": "timeout"},
    ]


@dataclass
class Workspace:
    """Test inputs as data, written on demand under ``root``."""

    root: Path
    reference: dict[str, Any] = field(default_factory=base_reference)
    suite: dict[str, Any] = field(default_factory=base_suite)
    cohort: dict[str, Any] = field(default_factory=base_cohort)
    rows: list[dict[str, str]] = field(default_factory=base_rows)
    header: list[str] = field(default_factory=lambda: list(HEADER))
    records: Any = field(default_factory=worked_records)
    task: str = SOLVER_TASK
    #: ``None``: pass the reference file by path; otherwise a suite name such as "lite".
    solver_reference: str | None = None
    solver_reference_id: str | None = None
    #: Raw text overriding ``records`` / the attempts CSV (for malformed inputs).
    records_text: str | None = None
    attempts_text: str | None = None
    suite_arg: str = SUITE
    #: Marker strings in reference/suite/cohort data replaced by raw JSON text on writing
    #: (to write numbers json.dumps cannot produce, such as 1e999).
    raw_numbers: dict[str, str] = field(default_factory=dict)

    @property
    def refs_dir(self) -> Path:
        return self.root / "refs"

    @property
    def reference_path(self) -> Path:
        return self.refs_dir / self.reference["reference_id"] / f"{self.reference['suite']}.json"

    @property
    def suite_path(self) -> Path:
        return self.refs_dir / "suites" / f"{self.suite['suite']}.json"

    @property
    def cohort_path(self) -> Path:
        return self.root / "cohort.json"

    @property
    def attempts_path(self) -> Path:
        return self.root / "attempts.csv"

    @property
    def records_path(self) -> Path:
        return self.root / "records.json"

    def write(self) -> Workspace:
        """Write every input file (JSON with NaN literals kept, for refusal tests)."""
        for path, data in (
            (self.reference_path, self.reference),
            (self.suite_path, self.suite),
            (self.cohort_path, self.cohort),
        ):
            path.parent.mkdir(parents=True, exist_ok=True)
            text = json.dumps(data, indent=1)
            for marker, raw in self.raw_numbers.items():
                text = text.replace(json.dumps(marker), raw)
            path.write_text(text, encoding="utf-8")
        text = self.records_text
        if text is None:
            text = json.dumps(self.records, allow_nan=True)
        self.records_path.write_text(text, encoding="utf-8")
        if self.attempts_text is not None:
            self.attempts_path.write_text(self.attempts_text, encoding="utf-8")
        else:
            with open(self.attempts_path, "w", newline="", encoding="utf-8") as handle:
                writer = csv.writer(handle, lineterminator="\n")
                writer.writerow(self.header)
                for row in self.rows:
                    writer.writerow([row.get(column, "") for column in self.header])
        return self

    def solver_args(self, output: Path) -> list[str]:
        reference = self.solver_reference or str(self.reference_path)
        args = ["solver-score", "--task", self.task, "--records", str(self.records_path)]
        args += ["--reference", reference, "--references-dir", str(self.refs_dir)]
        if self.solver_reference_id is not None:
            args += ["--reference-id", self.solver_reference_id]
        return args + ["--output", str(output)]

    def score_args(self, output: Path) -> list[str]:
        return [
            "score",
            "--suite",
            self.suite_arg,
            "--attempts",
            str(self.attempts_path),
            "--cohort",
            str(self.cohort_path),
            "--references-dir",
            str(self.refs_dir),
            "--output",
            str(output),
        ]

    def solver_kwargs(self, output: Path | None = None) -> dict[str, Any]:
        """Keyword arguments of :func:`run_solver_score` equal to :meth:`solver_args`."""
        return {
            "task": self.task,
            "records": self.records_path,
            "reference": self.solver_reference or self.reference_path,
            "reference_id": self.solver_reference_id,
            "references_dir": self.refs_dir,
            "output": output,
        }

    def score_kwargs(self, output: Path | None = None) -> dict[str, Any]:
        """Keyword arguments of :func:`run_score` equal to :meth:`score_args`."""
        return {
            "suite": self.suite_arg,
            "attempts": self.attempts_path,
            "cohort": self.cohort_path,
            "references_dir": self.refs_dir,
            "output": output,
        }

    def copy(self, root: Path) -> Workspace:
        clone = copy.deepcopy(self)
        clone.root = root
        return clone


# --- the workspace as a run set of `tcsexam report` ------------------------------------

#: Records of the solve task: both instances solved (a relative score computed by the kit).
SAT_RECORDS = [
    {"instance": "sat-1", "status": "ok", "solved": True},
    {"instance": "sat-2", "status": "ok", "solved": False},
]


def write_run_set(ws: Workspace, **overrides: Any) -> Path:
    """Write the workspace as a run set; the solve task's table score is left blank."""
    for row in ws.rows:
        if row["item"] == SOLVE_TASK:
            row["score"] = ""
    ws.write()
    records = ws.root / "records" / MODEL
    for task, data in ((SOLVER_TASK, ws.records), (SOLVE_TASK, SAT_RECORDS)):
        (records / task).mkdir(parents=True, exist_ok=True)
        (records / task / "1.json").write_text(json.dumps(data), encoding="utf-8")
    params = {
        "suite": ws.suite["suite"],
        "protocol": "offline",
        "cohort": "cohort.json",
        "attempts": "attempts.csv",
        "records": "records",
        "references_dir": "refs",
        "output": "out",
        **overrides,
    }
    path = ws.root / "params.yaml"
    path.write_text(yaml.safe_dump(params), encoding="utf-8")
    return path


def tiny_notebook(path: Path, body: str, parameters: str = 'model = ""\nsuite = ""') -> None:
    """A three-cell report notebook (parameters ``model`` and ``suite``) ending in ``body``."""
    params = new_code_cell(parameters)
    params.metadata["tags"] = ["parameters"]
    notebook = new_notebook(
        cells=[params, new_code_cell("x = 1"), new_code_cell(body)],
        metadata={
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}
        },
    )
    nbformat.write(notebook, path)


def sat_score(ws: Workspace) -> float:
    """The relative score the kit gives the solve task's records of a run set."""
    path = ws.root / "records" / MODEL / SOLVE_TASK / "1.json"
    return run_solver_score(task=SOLVE_TASK, records=path, reference=ws.reference_path)[
        "relative_score"
    ]


def read_csv_rows(path: Path) -> list[dict[str, str]]:
    """The rows of a CSV file the kit wrote, as dictionaries."""
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture
def tiny_notebooks(tmp_path, monkeypatch) -> Path:
    """The runner's notebooks replaced by tiny ones: ``index`` prints its model;
    ``solver_scoring`` fails in its third cell."""
    from tcsexam_lib.reports import runner

    folder = tmp_path / "notebooks"
    folder.mkdir()
    tiny_notebook(folder / "index.ipynb", 'print("report of", model)')
    tiny_notebook(folder / "solver_scoring.ipynb", "1 / 0")
    monkeypatch.setattr(runner, "NOTEBOOKS_DIR", folder)
    return folder


@pytest.fixture(autouse=True)
def _no_ambient_references(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests never read the caller's TCSEXAM_REFERENCES."""
    monkeypatch.delenv("TCSEXAM_REFERENCES", raising=False)


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    """A fresh test workspace (not yet written: call ``ws.write()``)."""
    return Workspace(tmp_path)


@dataclass
class CliResult:
    code: int
    out: str
    err: str


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]):
    """Run ``tcsexam`` in-process through :func:`tcsexam_lib.cli.main`."""

    def run(args: list[Any]) -> CliResult:
        capsys.readouterr()
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return run


def tcsexam_command() -> list[str]:
    """The installed console script next to the interpreter, else ``python -m``."""
    script = shutil.which("tcsexam", path=str(Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-m", "tcsexam_lib.cli"]


@pytest.fixture
def run_cli_subprocess():
    """Run ``tcsexam`` as a separate process (the real console script)."""

    def run(args: list[Any], *, cwd: Path | None = None, env: dict[str, str] | None = None):
        full_env = {k: v for k, v in os.environ.items() if k != "TCSEXAM_REFERENCES"}
        full_env.update(env or {})
        done = subprocess.run(
            [*tcsexam_command(), *map(str, args)],
            cwd=cwd,
            env=full_env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        return CliResult(done.returncode, done.stdout, done.stderr)

    return run


def phi(z: float) -> float:
    """Standard normal CDF written independently of the kit (math.erfc)."""
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def assert_rules_agree(rules: Any, data: Any) -> None:
    """The two halves of every rule of ``rules`` agree on ``data``.

    Where a rule's fast test holds, its explanation finds nothing; where the list refuses
    ``data``, the explanations name at least one problem (a rule may leave a row to an
    earlier rule that explains it, so that half holds for the list).
    """
    for rule in rules:
        if rule.holds(data):
            assert list(rule.explain(data)) == [], f"rule {rule.name!r} holds but explains"
    if not rules.hold(data):
        assert rules.problems(data), f"{rules.kind} refused and nothing explained"
    else:
        assert rules.problems(data) == []
