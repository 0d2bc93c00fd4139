"""The hostile-input tier (``make test-hostile``): one table of cases, one set of checks.

Each case builds a small workspace in ``tmp_path`` (a copy of the SIMULATED demo's
``demo-lite-offline`` run set and the kit's references), spoils one input in a way a
hostile or careless user could, and runs the real ``tcsexam`` process. The shared checks:

- the exit code is the one the case expects (2 for a refusal, 0 where the input is fine);
- the message names the file or item (a regular expression per case);
- no traceback reaches the terminal;
- an output that existed before is left byte for byte as it was;
- nothing else in the workspace changed (every file's bytes compared before and after).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import tcsexam_command

from tcsexam_lib.paths import KIT_ROOT

pytestmark = pytest.mark.hostile

DEMO = KIT_ROOT / "demo" / "demo-lite-offline"
PREVIOUS = b'{"previous": "output"}\n'


@dataclass
class Space:
    """A copied run set: ``refs/`` (references and suites), ``cohort.json``,
    ``attempts.csv``, ``records/`` and an ``evidence/`` folder of solver-score outputs."""

    root: Path

    @property
    def refs(self) -> Path:
        return self.root / "refs"

    def score(self, output: str = "out/index.json", **overrides: str) -> list[str]:
        options = {
            "--suite": "demo-lite",
            "--attempts": str(self.root / "attempts.csv"),
            "--cohort": str(self.root / "cohort.json"),
            "--references-dir": str(self.refs),
            "--output": str(self.root / output),
            **overrides,
        }
        return ["score", *(item for pair in options.items() for item in pair)]

    def solver_score(self, records: str, reference: str, output: str = "out/s.json") -> list[str]:
        return [
            "solver-score", "--task", "t", "--records", str(self.root / records),
            "--reference", str(self.root / reference), "--output", str(self.root / output),
        ]  # fmt: skip

    def write_json(self, relative: str, data: object) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data), encoding="utf-8")
        return path

    def edit_json(self, relative: str, change: Callable[[dict], None]) -> None:
        path = self.root / relative
        data = json.loads(path.read_text(encoding="utf-8"))
        change(data)
        path.write_text(json.dumps(data), encoding="utf-8")


def _space(root: Path) -> Space:
    shutil.copytree(KIT_ROOT / "references", root / "refs")
    shutil.copy(DEMO / "cohort.json", root / "cohort.json")
    shutil.copy(DEMO / "attempts.csv", root / "attempts.csv")
    shutil.copytree(DEMO / "records", root / "records")
    space = Space(root)
    for records in sorted((root / "records").glob("*/*/*.json")):
        model, task, attempt = records.parent.parent.name, records.parent.name, records.stem
        subprocess.run(
            [*tcsexam_command(), "solver-score", "--task", task, "--records", str(records),
             "--reference", "demo-lite", "--reference-id", "demo-k3-sim-v1",
             "--references-dir", str(space.refs), "--model", model, "--attempt", attempt,
             "--output", str(root / "evidence" / f"{model}-{task}-{attempt}.json")],
            check=True, capture_output=True,
        )  # fmt: skip
    return space


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> Path:
    """One scored copy of the run set; each case gets its own copy of it."""
    return _space(tmp_path_factory.mktemp("hostile-template")).root


@dataclass(frozen=True)
class Case:
    id: str
    #: spoils the workspace and returns the command's arguments
    setup: Callable[[Space], list[str]]
    code: int
    match: str
    #: the output the command would write (relative to the workspace); pre-filled
    output: str | None = "out/index.json"


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def alias_bomb(space: Space) -> list[str]:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for k in range(1, 9):
        lines.append(f"{chr(97 + k)}: &{chr(97 + k)} [{','.join([f'*{chr(96 + k)}'] * 9)}]")
    (space.root / "bomb.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return ["report", str(space.root / "bomb.yaml"), "--output", str(space.root / "out")]


def lone_surrogate_yaml(space: Space) -> list[str]:
    (space.root / "set.yaml").write_text('suite: "demo\\udc00"\n', encoding="utf-8")
    return ["report", str(space.root / "set.yaml"), "--output", str(space.root / "out")]


def evidence_edit(change: Callable[[dict], None]) -> Callable[[Space], list[str]]:
    def setup(space: Space) -> list[str]:
        first = sorted((space.root / "evidence").glob("*.json"))[0]
        space.edit_json(str(first.relative_to(space.root)), change)
        return space.score(**{"--solver-evidence": str(space.root / "evidence")})

    return setup


def verified(change: Callable[[dict], None]) -> Callable[[Space], list[str]]:
    """``tcsexam verify`` on an index output whose provenance was edited."""

    def setup(space: Space) -> list[str]:
        subprocess.run(
            [*tcsexam_command(), *space.score(output="made/index.json")],
            check=True,
            capture_output=True,
        )
        space.edit_json("made/index.json", lambda data: change(data["provenance"]))
        return ["verify", str(space.root / "made" / "index.json")]

    return setup


def cohort_edit(change: Callable[[dict], None]) -> Callable[[Space], list[str]]:
    def setup(space: Space) -> list[str]:
        space.edit_json("cohort.json", change)
        return space.score()

    return setup


def plan(value: object) -> Callable[[dict], None]:
    def change(cohort: dict) -> None:
        cohort["models"]["sim-alpha"]["attempts_per_task"] = value

    return change


def attempts_edit(pattern: str, new: str) -> Callable[[Space], list[str]]:
    """Replace the first match of ``pattern`` in the attempts table."""

    def setup(space: Space) -> list[str]:
        path = space.root / "attempts.csv"
        text, count = re.subn(pattern, new, path.read_text(encoding="utf-8"), count=1)
        assert count == 1, pattern
        path.write_text(text, encoding="utf-8")
        return space.score()

    return setup


def far_candidate(values: list[float], a: float) -> Callable[[Space], list[str]]:
    def setup(space: Space) -> list[str]:
        space.write_json(
            "far/reference.json",
            {
                "reference_id": "test-far-v0", "suite": "far", "scale_floor_relative": 0.02,
                "scale_floor_absolute": 1e-9, "unscored_reference_instances": [],
                "tasks": {"t": {"kind": "objective", "direction": "maximize",
                                "instances": {"g": values}}},
            },
        )  # fmt: skip
        space.write_json("far/records.json", [{"instance": "g", "status": "ok", "A": a}])
        return space.solver_score("far/records.json", "far/reference.json")

    return setup


def lone_surrogate_record(space: Space) -> list[str]:
    """Records whose second instance name holds half of a surrogate pair (json.dumps escapes it)."""
    command = far_candidate([10, 12, 14], 12)(space)
    records = [{"instance": "g", "status": "ok", "A": 12}, {"instance": "g\udc00", "status": "ok"}]
    space.write_json("far/records.json", records)
    return command


def deep_yaml(text: str) -> Callable[[Space], list[str]]:
    """A run-set parameter file whose ``suite`` nests far deeper than any input may."""

    def setup(space: Space) -> list[str]:
        (space.root / "deep.yaml").write_text(text, encoding="utf-8")
        return ["report", str(space.root / "deep.yaml"), "--output", str(space.root / "out")]

    return setup


def deep_json(relative: str, command: Callable[[Space], list[str]]) -> Callable:
    def setup(space: Space) -> list[str]:
        (space.root / relative).write_text(nested(100_000), encoding="utf-8")
        return command(space)

    return setup


def fifo_cohort(space: Space) -> list[str]:
    import os

    os.mkfifo(space.root / "pipe.json")
    return space.score(**{"--cohort": str(space.root / "pipe.json")})


def huge_cohort(space: Space) -> list[str]:
    with open(space.root / "huge.json", "wb") as handle:
        handle.truncate(300 << 20)  # sparse: 300 MiB, nothing written to disk
    return space.score(**{"--cohort": str(space.root / "huge.json")})


def bom_in_json(space: Space) -> list[str]:
    path = space.root / "cohort.json"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    return space.score()


CASES = [
    # data loss: an output over, or inside, an input
    Case(
        "output-over-an-evidence-file",
        lambda s: s.score(
            output="evidence/sim-alpha-sim-tsp-1.json",
            **{"--solver-evidence": str(s.root / "evidence")},
        ),
        2,
        r"Output would overwrite an input",
        output=None,
    ),
    Case(
        "output-inside-the-evidence-folder",
        lambda s: s.score(
            output="evidence/new.json", **{"--solver-evidence": str(s.root / "evidence")}
        ),
        2,
        r"lies inside the input folder .*evidence",
        output=None,
    ),
    # resource exhaustion from tiny inputs
    Case("attempt-count-of-a-billion", cohort_edit(plan(10**9)), 2, r"from 1 to 100"),
    Case("yaml-alias-bomb", alias_bomb, 2, r"bomb\.yaml line 2 .*alias \*a refused", output=None),
    Case(
        "yaml-nested-100000-deep",
        deep_yaml("suite: " + nested(100_000) + "\n"),
        2,
        r"Parameter file nested too deep\n  - .*deep\.yaml line 1 column 71: nested more than 64 "
        r"levels deep",
        output=None,
    ),
    Case(
        "yaml-block-mappings-nested-deep",
        deep_yaml("".join(f"{' ' * k}k{k}:\n" for k in range(800)) + " " * 800 + "x: 1\n"),
        2,
        r"deep\.yaml line 65 column 65: nested more than 64 levels deep",
        output=None,
    ),
    Case(
        "lone-surrogate-in-a-parameter-file",
        lone_surrogate_yaml,
        2,
        r"set\.yaml suite: field 'suite' = \"demo\\udc00\" \(allowed: text without a lone",
        output=None,
    ),
    Case(
        "cohort-from-dev-zero",
        lambda s: s.score(**{"--cohort": "/dev/zero"}),
        2,
        r"/dev/zero: not a regular file",
    ),
    Case("cohort-a-named-pipe", fifo_cohort, 2, r"pipe\.json: not a regular file"),
    Case("cohort-over-the-size-limit", huge_cohort, 2, r"huge\.json: 314,572,800 bytes, more than"),
    Case(
        "cohort-nested-100000-deep",
        deep_json("cohort.json", lambda s: s.score()),
        2,
        r"cohort\.json: nested more than 64 levels",
    ),
    Case(
        "records-nested-100000-deep",
        deep_json(
            "deep-records.json",
            lambda s: s.solver_score("deep-records.json", "refs/demo-k3-sim-v1/demo-lite.json"),
        ),
        2,
        r"deep-records\.json: nested more than 64 levels",
        output="out/s.json",
    ),
    Case(
        "reference-nested-100000-deep",
        deep_json(
            "deep-ref.json",
            lambda s: s.solver_score("records/sim-alpha/sim-tsp/1.json", "deep-ref.json"),
        ),
        2,
        r"deep-ref\.json: nested more than 64 levels",
        output="out/s.json",
    ),
    # wrong types
    Case(
        "attempts-per-task-1.0", cohort_edit(plan(1.0)), 2, r"'attempts_per_task' = 1\.0 .*not 1\.0"
    ),
    Case(
        "a-task-count-4.0",
        cohort_edit(plan({"default": 1, "sim-maxcut": 4.0})),
        2,
        r"'attempts_per_task\.sim-maxcut' = 4\.0",
    ),
    Case(
        "evidence-of-another-reference-blocks-the-index",
        evidence_edit(lambda d: d.update(reference_id="someone-elses-ref")),
        0,
        r"sim-alpha: incomplete, no index; blocked by 1 issue\(s\):\n  "
        r"solver_evidence_reference_mismatch: sim-alpha/solver/sim-binpack attempt '1' \(line "
        r"\d+\): .*was scored against reference 'someone-elses-ref', the cohort declares "
        r"'demo-k3-sim-v1'\n    to do: score the records again against the cohort's reference"
        r"(.|\n)*solver evidence: INCONSISTENT, 1 of \d+ adopted solver row\(s\) contradicted",
    ),
    Case(
        "evidence-with-another-score-blocks-the-index",
        evidence_edit(lambda d: d.update(relative_score=0.123)),
        0,
        r"sim-alpha: incomplete, no index; blocked by 1 issue\(s\):\n  "
        r"solver_evidence_score_mismatch: sim-alpha/solver/sim-binpack attempt '1' \(line \d+\)"
        r": table score [0-9.]+ differs from relative_score 0\.123 in ",
    ),
    Case(
        "evidence-relative-score-text",
        evidence_edit(lambda d: d.update(relative_score="abc")),
        2,
        r"sim-alpha-sim-binpack-1\.json relative_score: field 'relative_score' = \"abc\"",
    ),
    Case(
        "evidence-relative-score-null",
        evidence_edit(lambda d: d.update(relative_score=None)),
        2,
        r"field 'relative_score' = null",
    ),
    Case(
        "evidence-provenance-forged",
        evidence_edit(lambda d: d.update(provenance="forged")),
        2,
        r"field 'provenance' = \"forged\"",
    ),
    Case(
        "verify-inputs-a-list",
        verified(lambda p: p.update(inputs=[])),
        2,
        r"provenance\.inputs",
        output=None,
    ),
    Case(
        "verify-cwd-a-number",
        verified(lambda p: p.update(cwd=5)),
        2,
        r"field 'cwd' = 5",
        output=None,
    ),
    Case(
        "verify-a-parameter-a-number",
        verified(lambda p: p["parameters"].update(attempts=7)),
        2,
        r"field 'attempts' = 7",
        output=None,
    ),
    Case(
        "verify-suite-a-list",
        verified(lambda p: p["parameters"].update(suite=["demo-lite"])),
        2,
        r"field 'suite' = \[\"demo-lite\"\]",
        output=None,
    ),
    # arithmetic
    Case(
        "candidate-far-from-a-zero-reference",
        far_candidate([0, 0, 0], 1e300),
        2,
        r"instance 'g'\): field 'A' = 1e\+300: z = \(A - mu\) / scale overflows",
        output="out/s.json",
    ),
    Case(  # A - mu is not a float, but z (58.3) is: computed exactly (values beyond 2**53)
        "candidate-minus-mean-beyond-floats-scored-exactly",
        far_candidate([-1.7e308, -1.7e308, -1.6e308], 1.7e308),
        0,
        r"t: relative_score 1\.0 over 1 scored instance",
        output="out/s.json",
    ),
    Case(
        "construction-reward-overflowing-the-index",
        attempts_edit(r"(sim-alpha,construction,sim-con-01,1,)[^,]*,", r"\g<1>1e308,"),
        2,
        r"attempts.csv line \d+: field 'score' = 1e\+308: model 'sim-alpha', construction "
        r"task 'sim-con-01' attempt '1': .* overflows a float",
    ),
    Case(
        "construction-reward-far-above-the-cohort-warned",
        attempts_edit(r"(sim-alpha,construction,sim-con-01,1,)[^,]*,", r"\g<1>1e15,"),
        0,
        r"sim-alpha: complete, index .*\n  warning: far_score: sim-alpha/construction/sim-con-01 "
        r"attempt '1' \(line \d+\): score 1e\+15 is orders of magnitude above",
    ),
    # smaller
    Case("byte-order-mark-in-json-accepted", bom_in_json, 0, r"sim-alpha: complete"),
    Case(
        "right-to-left-override-in-a-model-id",
        cohort_edit(lambda c: c["models"].__setitem__("evil\u202emodel", {"attempts_per_task": 1})),
        0,
        r"evil\\u202emodel: incomplete",
    ),
    Case(
        "lone-surrogate-in-a-model-id",
        cohort_edit(lambda c: c["models"].__setitem__("evil\ud800", {"attempts_per_task": 1})),
        2,
        r"cohort\.json holds text that is not valid Unicode(.|\n)*field 'evil\\ud800'",
    ),
    Case(
        "lone-surrogate-in-an-instance-name",
        lone_surrogate_record,
        2,
        r"record #2 \(instance 'g\\udc00'\): field 'instance' = \"g\\udc00\" \(allowed: text "
        r"without a lone surrogate",
        output="out/s.json",
    ),
    Case(
        "formula-as-an-attempt-id",
        attempts_edit(r"sim-alpha,theorem,sim-thm-03,1,", "sim-alpha,theorem,sim-thm-03,=1+1,"),
        2,
        r"field 'attempt' = \"=1\+1\" \(allowed: a non-empty id that does not start with =",
    ),
    Case(
        "a-nul-in-a-note-shown-escaped",
        attempts_edit("simulated: judge crashed", "simulated:\x00 judge crashed"),
        0,
        r"overall status incomplete",
    ),
]


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.is_fifo() and p.stat().st_size < (1 << 20)
    }


def test_registry_ids_are_unique():
    assert len({case.id for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_hostile_input(case: Case, prepared: Path, tmp_path: Path):
    shutil.copytree(prepared, tmp_path / "ws", symlinks=True)
    space = Space(tmp_path / "ws")
    args = case.setup(space)
    output = None if case.output is None else space.root / case.output
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_bytes(PREVIOUS)
    before = _snapshot(space.root)
    done = subprocess.run(
        [*tcsexam_command(), *map(str, args)], capture_output=True, text=True, timeout=60
    )
    shown = done.stdout + done.stderr
    assert done.returncode == case.code, shown
    assert re.search(case.match, shown), shown
    assert "Traceback" not in shown
    assert "\u202e" not in shown and "\x00" not in shown  # shown escaped, never raw
    after = _snapshot(space.root)
    if case.code == 0 and output is not None:
        after.pop(case.output)  # the one file a successful command writes
        before.pop(case.output)
    assert after == before, sorted(set(after) ^ set(before)) or "a file's bytes changed"


def test_a_model_whose_evidence_contradicts_its_table_is_never_ranked(prepared, tmp_path):
    """Score with solver evidence that contradicts one of sim-alpha's solver rows, then ask
    stats: sim-alpha, the demo's only complete model, has no index, interval or rank, and no
    tie or leader group holds it."""
    shutil.copytree(prepared, tmp_path / "ws", symlinks=True)
    space = Space(tmp_path / "ws")
    args = evidence_edit(lambda d: d.update(reference_id="someone-elses-ref"))(space)
    run = [*tcsexam_command()]
    scored = subprocess.run([*run, *args], capture_output=True, text=True, timeout=60)
    assert scored.returncode == 0, scored.stderr
    index = json.loads((space.root / "out" / "index.json").read_text(encoding="utf-8"))
    alpha = index["models"]["sim-alpha"]
    assert (alpha["status"], alpha["index"]) == ("incomplete", None)
    stats_path = space.root / "out" / "stats.json"
    ranked = subprocess.run(
        [*run, "stats", str(space.root / "out" / "index.json"), "--output", str(stats_path)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert ranked.returncode == 0, ranked.stderr
    stats = json.loads(stats_path.read_text(encoding="utf-8"))
    entry = stats["models"]["sim-alpha"]
    assert [entry[k] for k in ("index", "index_ci", "rank_ci")] == [None, None, None]
    assert "sim-alpha" not in stats["leader_group"]
    assert all("sim-alpha" not in group for group in stats["tie_groups"])
    assert all("sim-alpha" not in (p["model_a"], p["model_b"]) for p in stats["pairs"])


def test_a_closed_pipe_ends_quietly_with_the_closed_pipes_exit(tmp_path):
    """``tcsexam reference check ... | head -1``: the reader is gone before the command
    writes (its end of the pipe closed first), so every write fails."""
    import os

    reader, writer = os.pipe()
    os.close(reader)
    reference = KIT_ROOT / "references" / "demo-k3-sim-v1" / "demo-lite.json"
    try:
        done = subprocess.run(
            [*tcsexam_command(), "reference", "check", str(reference)],
            stdout=writer, stderr=subprocess.PIPE, text=True, timeout=60,
        )  # fmt: skip
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr) == (141, "")  # 128 + SIGPIPE, not a word
