"""`tcsexam reference check`: one registry case per finding, each on a small broken file.

Every file here is generated at test time (see refdata.py). Files under the fixed id
``paper-k3-fixed-260925`` are SYNTHETIC FIXTURES written only to pytest's tmp_path.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from refdata import (
    FIXED_ID,
    small_reference,
    suite_for,
    synthetic_fixed_reference,
    write_json,
)

from tcsexam_lib import compute_instance_stats, load_reference
from tcsexam_lib.cli import main
from tcsexam_lib.errors import ReferenceProblem
from tcsexam_lib.paths import kit_references_dir
from tcsexam_lib.references.check import FINDING_CODES, check_reference

REF_ID = "test-ref-v1"


def _place(refs: Path, data: dict[str, Any], suite_file: str = "lite") -> Path:
    """Write a reference as refs/<REF_ID>/<suite_file>.json plus its suite task list."""
    write_json(refs / "suites" / f"{suite_file}.json", suite_for({**data, "suite": suite_file}))
    return write_json(refs / REF_ID / f"{suite_file}.json", data)


def _mutated(mutate: Callable[[dict[str, Any]], None]) -> Callable[[Path], tuple[str, Path]]:
    def setup(refs: Path) -> tuple[str, Path]:
        data = small_reference(REF_ID)
        mutate(data)
        _place(refs, data)
        return REF_ID, refs

    return setup


def _raw_text(refs: Path) -> tuple[str, Path]:
    path = _place(refs, small_reference(REF_ID))
    path.write_text(path.read_text().replace("100.5", "NaN"), encoding="utf-8")
    return REF_ID, refs


def _suite_list_without(task: str) -> Callable[[Path], tuple[str, Path]]:
    def setup(refs: Path) -> tuple[str, Path]:
        data = small_reference(REF_ID)
        _place(refs, data)
        suite = suite_for(data)
        suite["tracks"]["solver"].remove(task)
        write_json(refs / "suites" / "lite.json", suite)
        return REF_ID, refs

    return setup


def _second_suite(mutate: Callable[[dict[str, Any]], None]) -> Callable[[Path], tuple[str, Path]]:
    """lite.json plus a full.json of the same id, changed by ``mutate``."""

    def setup(refs: Path) -> tuple[str, Path]:
        _place(refs, small_reference(REF_ID))
        full = small_reference(REF_ID, suite="full")
        mutate(full)
        _place(refs, full, suite_file="full")
        return REF_ID, refs

    return setup


def _fixed(
    mutate_full: Callable[[dict[str, Any]], None] | None = None,
    mutate_lite: Callable[[dict[str, Any]], None] | None = None,
    suites: tuple[str, ...] = ("full", "lite"),
    by_path: str | None = None,
    **shape: int,
) -> Callable[[Path], tuple[str, Path]]:
    """SYNTHETIC FIXTURE under the fixed id, in tmp_path only."""

    def setup(refs: Path) -> tuple[str, Path]:
        full, lite = synthetic_fixed_reference(**shape)
        for data, mutate in ((full, mutate_full), (lite, mutate_lite)):
            if mutate is not None:
                mutate(data)
        for name, data in (("full", full), ("lite", lite)):
            if name in suites:
                write_json(refs / "suites" / f"{name}.json", suite_for(data))
                write_json(refs / FIXED_ID / f"{name}.json", data)
        if by_path is not None:
            return str(refs / FIXED_ID / by_path), refs
        return FIXED_ID, refs

    return setup


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        if value is _DELETE:
            del target[path[-1]]
        else:
            target[path[-1]] = value

    return mutate


def _list(task: str, instance: str) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        data["unscored_reference_instances"].append(
            {"task": task, "instance": instance, "reason": "test"}
        )

    return mutate


def _add_empty_task(data: dict[str, Any]) -> None:
    data["tasks"]["empty"] = {
        "kind": "objective",
        "direction": "maximize",
        "instances": {"only": [1, None]},
    }
    _list("empty", "only")(data)


def _drop_task(task: str) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        del data["tasks"][task]
        data["unscored_reference_instances"] = [
            e for e in data["unscored_reference_instances"] if e["task"] != task
        ]

    return mutate


def _rename_other_suite(data: dict[str, Any]) -> None:
    data["suite"] = "other"


_DELETE = object()


@dataclass(frozen=True)
class Case:
    name: str
    setup: Callable[[Path], tuple[str, Path]]
    code: str
    task: str | None = None
    instance: str | None = None
    #: load_reference refuses the same file (the file itself is broken)
    load_refuses: bool = True


CASES = [
    Case("floor absent", _mutated(_set(["scale_floor_absolute"], _DELETE)), "floor"),
    Case("floor negative", _mutated(_set(["scale_floor_relative"], -0.1)), "floor"),
    Case("floor not a number", _mutated(_set(["scale_floor_absolute"], "1e-9")), "floor"),
    Case(
        "solve task minimises",
        _mutated(_set(["tasks", "sat", "direction"], "minimize")),
        "kind_direction",
        "sat",
    ),
    Case(
        "solve value not 0/1",
        _mutated(_set(["tasks", "sat", "instances", "s1"], [1, 0.5, 1])),
        "solve_value",
        "sat",
        "s1",
    ),
    Case(
        "unscorable instance not listed",
        _mutated(_set(["tasks", "obj-min", "instances", "b"], [7, None, None])),
        "unlisted_unscorable",
        "obj-min",
        "b",
    ),
    Case(
        "listed instance scorable",
        _mutated(_list("obj-min", "a")),
        "listed_scorable",
        "obj-min",
        "a",
    ),
    Case("listed unknown task", _mutated(_list("nope", "x")), "listed_unknown_task", "nope", "x"),
    Case("listed twice", _mutated(_list("obj-max", "lonely")), "listed_twice", "obj-max", "lonely"),
    Case("task without scored instance", _mutated(_add_empty_task), "task_without_scored", "empty"),
    Case(
        "value of the wrong type",
        _mutated(_set(["tasks", "obj-max", "instances", "spread"], [10, "12", 14])),
        "schema",
        "obj-max",
        "spread",
    ),
    Case("NaN literal", _raw_text, "unreadable"),
    Case("id of another folder", _mutated(_set(["reference_id"], "other-id")), "id_mismatch"),
    Case("suite of another file", _mutated(_set(["suite"], "full")), "suite_mismatch"),
    Case(
        "suite list misses a task",
        _suite_list_without("obj-min"),
        "suite_tasks",
        "obj-min",
        load_refuses=False,
    ),
    Case(
        "floors differ between suites",
        _second_suite(_set(["scale_floor_relative"], 0.05)),
        "floors_differ",
        load_refuses=False,
    ),
    Case(
        "shared task differs between suites",
        _second_suite(_set(["tasks", "obj-max", "instances", "spread"], [10, 12, 15])),
        "task_differs",
        "obj-max",
        "spread",
        load_refuses=False,
    ),
    Case(
        "fixed id: relative floor",
        _fixed(mutate_full=_set(["scale_floor_relative"], 0.03), suites=("full",)),
        "fixed_floor",
    ),
    Case(
        "fixed id: Full counts",
        _fixed(scored=1859, suites=("full",)),
        "fixed_full_counts",
        load_refuses=False,
    ),
    Case(
        "fixed id: Lite task count",
        _fixed(mutate_lite=_drop_task("synthetic-task-04")),
        "fixed_lite_tasks",
        load_refuses=False,
    ),
    Case(
        "fixed id: Lite entry differs from Full",
        _fixed(
            mutate_lite=lambda d: d["tasks"]["synthetic-task-00"]["instances"].__setitem__(
                "i00000", [1.0, 2.0, 3.0]
            )
        ),
        "task_differs",
        "synthetic-task-00",
        "i00000",
        load_refuses=False,
    ),
    Case(
        "fixed id: unknown suite",
        _fixed(mutate_full=_rename_other_suite, suites=("full",), by_path="full.json"),
        "fixed_suite",
        load_refuses=False,
    ),
    Case("fixed id: release files absent", _fixed(suites=()), "not_found", load_refuses=False),
    Case(
        "provenance repeats a run",
        _mutated(
            _set(
                ["provenance"],
                {
                    "runs": [
                        {"run": 1, "path": "runs/r1", "files": {"obj-max": "ab" * 32}},
                        {"run": 2, "path": "runs/r1", "files": {"obj-max": "ab" * 32}},
                    ]
                },
            )
        ),
        "repeated_run",
        load_refuses=False,
    ),
    Case(
        "no such file",
        lambda refs: (str(refs / "missing" / "lite.json"), refs),
        "not_found",
        load_refuses=False,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_each_finding_on_a_broken_file(case: Case, tmp_path: Path, capsys) -> None:
    refs = tmp_path / "refs"
    target, refs_dir = case.setup(refs)
    result = check_reference(target, references_dir=refs_dir)

    assert not result.ok
    codes = {f.code for f in result.all_findings}
    assert codes == {case.code}, [str(f) for f in result.all_findings]
    named = [f for f in result.all_findings if (f.task, f.instance) == (case.task, case.instance)]
    assert named, [str(f) for f in result.all_findings]
    for finding in named:
        for name in (case.task, case.instance):
            if name is not None:
                assert f"'{name}'" in str(finding)

    assert main(["reference", "check", target, "--references-dir", str(refs_dir)]) == 2
    printed = capsys.readouterr().out
    assert f"[{case.code}]" in printed and "FAILED" in printed

    if case.load_refuses:
        with pytest.raises(ReferenceProblem, match=r"\S"):
            load_reference("lite", reference_id=REF_ID, references_dir=refs_dir)


def test_registry_covers_every_finding_code() -> None:
    exercised = {case.code for case in CASES}
    # load_failed is a safety net for a relation the check would not cover
    assert exercised == set(FINDING_CODES) - {"load_failed"}


def test_good_reference_holds_and_summarises(tmp_path: Path, capsys) -> None:
    data = small_reference(REF_ID)
    path = _place(tmp_path, data)
    result = check_reference(REF_ID, references_dir=tmp_path)
    assert result.ok, [str(f) for f in result.all_findings]
    (report,) = result.files
    assert report.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert report.n_tasks == len(data["tasks"])
    assert report.n_unscored == len(data["unscored_reference_instances"])
    # which scale term wins: against compute_instance_stats, instance by instance
    listed = {(e["task"], e["instance"]) for e in data["unscored_reference_instances"]}
    for summary in report.tasks:
        expected = {"sample_std": 0, "relative_floor": 0, "absolute_floor": 0}
        floors = set()
        for instance, values in data["tasks"][summary.task]["instances"].items():
            if (summary.task, instance) in listed:
                continue
            stats = compute_instance_stats(values, 0.02, 1e-9)
            expected[stats.scale_term] += 1
            if stats.scale_term != "sample_std":
                floors.add(instance)
        assert summary.scale_terms == expected
        assert {row["instance"] for row in summary.floor_instances} == floors
    assert report.n_scored == sum(report.scale_terms.values())

    assert main(["reference", "check", str(path)]) == 0
    printed = capsys.readouterr().out
    assert report.sha256 in printed and "OK" in printed
    assert "floor sets the scale of 'zero': absolute_floor" in printed


def test_check_collects_findings_load_reference_stops_at_first_layer(tmp_path: Path) -> None:
    data = small_reference(REF_ID)
    _set(["tasks", "obj-max", "instances", "spread"], [10, "12", 14])(data)  # schema layer
    _set(["tasks", "obj-min", "instances", "b"], [7, None, None])(data)  # relation layer
    _list("sat", "s2")(data)  # relation layer
    _place(tmp_path, data)
    result = check_reference(REF_ID, references_dir=tmp_path)
    assert {f.code for f in result.all_findings} == {
        "schema",
        "unlisted_unscorable",
        "listed_scorable",
    }
    with pytest.raises(ReferenceProblem, match="is not valid") as info:
        load_reference("lite", reference_id=REF_ID, references_dir=tmp_path)
    assert "unscored" not in str(info.value)


def test_synthetic_fixed_reference_passes_the_published_facts(tmp_path: Path, capsys) -> None:
    """SYNTHETIC FIXTURE: simulated values shaped like the release, in tmp_path only."""
    target, refs = _fixed()(tmp_path)
    result = check_reference(target, references_dir=refs)
    assert result.ok, [str(f) for f in result.all_findings]
    by_suite = {report.suite: report for report in result.files}
    assert (by_suite["full"].n_scored, by_suite["full"].n_unscored) == (1860, 32)
    assert by_suite["lite"].n_tasks == 5
    assert main(["reference", "check", FIXED_ID, "--references-dir", str(refs)]) == 0
    printed = capsys.readouterr().out
    for report in result.files:
        assert hashlib.sha256(Path(report.path).read_bytes()).hexdigest() in printed


def test_fixed_lite_alone_is_checked_and_says_what_was_not_compared(tmp_path: Path) -> None:
    """SYNTHETIC FIXTURE in tmp_path only."""
    target, refs = _fixed(suites=("lite",))(tmp_path)
    result = check_reference(target, references_dir=refs)
    assert result.ok
    assert any("Lite was not compared with Full" in note for note in result.notes)


def test_kit_ships_no_values_under_the_fixed_id() -> None:
    folder = kit_references_dir() / FIXED_ID
    assert (folder / "README.md").is_file()
    git = shutil.which("git")
    root = kit_references_dir().parent
    if git is None or not (root / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = subprocess.run(
        [git, "ls-files", f"references/{FIXED_ID}"], cwd=root, capture_output=True, text=True
    ).stdout.split()
    assert [name for name in tracked if not name.endswith(".md")] == []
    # release files dropped there are not hidden by .gitignore
    ignored = subprocess.run(
        [git, "check-ignore", "-q", f"references/{FIXED_ID}/full.json"], cwd=root
    )
    assert ignored.returncode == 1


def _reference_without_a_suite_task(refs: Path) -> Path:
    """A reference whose suite (refs/suites/lite.json) lists a solver task it does not hold."""
    data = small_reference(REF_ID)
    path = _place(refs, data)
    suite = suite_for(data)
    suite["tracks"]["solver"].append("sat-comp")
    write_json(refs / "suites" / "lite.json", suite)
    return path


# The same verdict whichever way the reference is named: by id, by its folder, by its file
# (with or without --references-dir), or with the suite file named (--suite).
NAMINGS = [
    ("id", lambda refs, path: [REF_ID, "--references-dir", str(refs)]),
    ("folder", lambda refs, path: [str(path.parent)]),
    ("file", lambda refs, path: [str(path)]),
    ("file, references dir", lambda refs, path: [str(path), "--references-dir", str(refs)]),
    ("file, suite by path", lambda refs, path: [str(path), "--suite", str(refs / "suites" /
                                                                       "lite.json")]),
    ("file, suite by name", lambda refs, path: [str(path), "--suite", "lite",
                                                "--references-dir", str(refs)]),
]  # fmt: skip


@pytest.mark.parametrize("naming", [n[1] for n in NAMINGS], ids=[n[0] for n in NAMINGS])
def test_a_missing_suite_task_fails_by_path_as_by_id(naming, tmp_path: Path, capsys) -> None:
    refs = tmp_path / "refs"
    path = _reference_without_a_suite_task(refs)
    assert main(["reference", "check", *naming(refs, path)]) == 2
    printed = capsys.readouterr().out
    assert re.search(r"\[suite_tasks\] .*solver task 'sat-comp' of .*lite\.json has no entry",
                     printed), printed  # fmt: skip
    assert "FAILED" in printed and "OK" not in printed


def test_a_suite_file_nowhere_is_a_note_naming_where_it_was_looked_for(tmp_path: Path) -> None:
    path = write_json(tmp_path / "mine" / REF_ID / "lite.json", small_reference(REF_ID))
    result = check_reference(path, references_dir=tmp_path / "empty")
    assert result.ok
    assert result.notes == [
        f"{tmp_path / 'mine' / 'suites' / 'lite.json'} or "
        f"{tmp_path / 'empty' / 'suites' / 'lite.json'} absent: the solver task list of suite "
        "'lite' was not compared (name the suite file with --suite)"
    ]


def test_suite_named_with_suite_must_be_the_reference_s(tmp_path: Path) -> None:
    refs = tmp_path / "refs"
    path = _place(refs, small_reference(REF_ID))
    other = write_json(tmp_path / "full.json", {**suite_for(small_reference(REF_ID)),
                                                  "suite": "full"})  # fmt: skip
    result = check_reference(path, references_dir=refs, suite=other)
    assert [f.code for f in result.all_findings] == ["suite_tasks"]
    assert "--suite names suite 'full'" in str(result.all_findings[0])
    missing = check_reference(path, references_dir=refs, suite=tmp_path / "nope.json")
    assert [f.code for f in missing.all_findings] == ["not_found"]


def test_absolute_floor_instances_are_named_before_the_cut(tmp_path: Path, capsys) -> None:
    data = small_reference(REF_ID)
    instances = data["tasks"]["obj-max"]["instances"]
    instances.update({f"close{k:02}": [100, 100] for k in range(12)})  # relative floor
    instances["zero-last"] = [0, 0]  # absolute floor, last in file order
    path = _place(tmp_path, data)
    (report,) = check_reference(REF_ID, references_dir=tmp_path).files
    terms = [row["scale_term"] for row in report.tasks[0].floor_instances]
    assert terms == sorted(terms, key=lambda term: term != "absolute_floor")
    assert main(["reference", "check", str(path)]) == 0
    shown = capsys.readouterr().out.split("... and")[0]
    assert "'zero-last': absolute_floor" in shown
