"""`tcsexam verify` and `tcsexam score --solver-evidence` on generated inputs."""

from __future__ import annotations

import csv
import inspect
import json
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from refdata import small_reference, suite_for, write_json

from tcsexam_lib import run_score, run_solver_score
from tcsexam_lib.cli import main
from tcsexam_lib.errors import InputRefused
from tcsexam_lib.provenance import ENTRY_POINTS
from tcsexam_lib.verify import _ENTRY_POINTS, verify_output
from tcsexam_lib.vocab import ATTEMPT_COLUMNS

REF_ID = "test-ref-v1"
HEADER = list(ATTEMPT_COLUMNS)

#: Candidate records per solver task of refdata.small_reference (generated, not real).
CANDIDATE = {
    "obj-max": [
        {"instance": "spread", "status": "ok", "A": 12},
        {"instance": "tight", "status": "ok", "A": 101},
        {"instance": "zero", "status": "timeout"},
        {"instance": "lonely", "status": "ok", "A": 4},
    ],
    "obj-min": [
        {"instance": "a", "status": "ok", "A": 50},
        {"instance": "b", "status": "ok", "A": 7.2},
    ],
    "sat": [
        {"instance": "s1", "status": "ok", "solved": True},
        {"instance": "s2", "status": "ok", "A": 0},
    ],
}


@pytest.fixture
def work(tmp_path: Path, monkeypatch) -> Path:
    """A project folder with refs/, records/, evidence/ and an attempts table.

    The commands run from inside it with relative paths, as a researcher would.
    """
    root = tmp_path / "project"
    reference = small_reference(REF_ID)
    write_json(root / "refs" / REF_ID / "lite.json", reference)
    suite = suite_for(reference)
    write_json(root / "refs" / "suites" / "lite.json", suite)
    cohort = {
        "suite": "lite",
        "solver_protocol": "offline",
        "solver_reference_id": REF_ID,
        "models": {"m1": {"attempts_per_task": 1}},
    }
    write_json(root / "cohort.json", cohort)
    monkeypatch.chdir(root)
    rows = []
    for task, records in CANDIDATE.items():
        write_json(root / "records" / f"{task}.json", records)
        out = run_solver_score(
            task=task,
            records=f"records/{task}.json",
            reference="lite",
            reference_id=REF_ID,
            references_dir="refs",
            model="m1",
            attempt="a1",
            output=f"evidence/m1/{task}/a1.json",
        )
        rows.append(["m1", "solver", task, "a1", repr(out["relative_score"]), "selected", "valid"])
        rows[-1] += ["fixed_reference_relative", "offline"]
    for track, score in (("theorem", "1"), ("construction", "1.2"), ("conjecture", "0")):
        item = suite["tracks"][track][0]
        rows.append(
            ["m1", track, item, "a1", score, "selected", "valid", "original_task_score", ""]
        )
    with open(root / "attempts.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows(rows)
    return root


def _score(output: str = "build/index.json", evidence: str | None = "evidence") -> dict:
    return run_score(
        suite="lite",
        attempts="attempts.csv",
        cohort="cohort.json",
        references_dir="refs",
        solver_evidence=evidence,
        output=output,
    )


def _solver_output() -> str:
    return "evidence/m1/obj-max/a1.json"


def _score_output() -> str:
    _score()
    return "build/index.json"


def _replace(old: str, new: str) -> Callable[[Path], None]:
    def edit(path: Path) -> None:
        text = path.read_text(encoding="utf-8")
        assert old in text and len(old) == len(new)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    return edit


def _append_byte(path: Path) -> None:
    with open(path, "ab") as handle:
        handle.write(b" ")


@dataclass(frozen=True)
class Edit:
    name: str
    make_output: Callable[[], str]
    role: str
    file: str
    edit: Callable[[Path], None]


EDITS = [
    Edit(
        "solver-score: records",
        _solver_output,
        "records",
        "records/obj-max.json",
        _replace("12", "13"),
    ),
    Edit(
        "solver-score: reference",
        _solver_output,
        "reference",
        f"refs/{REF_ID}/lite.json",
        _replace("100.5", "100.6"),
    ),
    Edit("score: attempts", _score_output, "attempts", "attempts.csv", _replace(",1.2,", ",1.3,")),
    Edit("score: cohort", _score_output, "cohort", "cohort.json", _append_byte),
    Edit("score: suite", _score_output, "suite", "refs/suites/lite.json", _append_byte),
    Edit(
        "score: reference",
        _score_output,
        "reference",
        f"refs/{REF_ID}/lite.json",
        _replace("100.5", "100.6"),
    ),
    Edit(
        "score: solver evidence",
        _score_output,
        "solver_evidence/m1/sat/a1.json",
        "evidence/m1/sat/a1.json",
        _append_byte,
    ),
]


@pytest.mark.parametrize("case", EDITS, ids=[e.name for e in EDITS])
def test_verify_matches_then_names_the_edited_input(case: Edit, work: Path, capsys) -> None:
    output = case.make_output()
    untouched = verify_output(output)
    assert untouched.ok, (
        untouched.differences,
        untouched.changed_inputs,
        untouched.recompute_error,
    )
    assert main(["verify", output]) == 0
    assert "MATCH" in capsys.readouterr().out

    case.edit(work / case.file)
    result = verify_output(output)
    assert not result.ok
    changed = {check.role: check for check in result.changed_inputs}
    assert set(changed) == {case.role}
    assert Path(changed[case.role].path).resolve() == (work / case.file).resolve()
    assert main(["verify", output]) == 2
    printed = capsys.readouterr().out
    assert f"changed input(s): {case.role} (" in printed and case.file in printed


def test_verify_reports_the_values_that_changed(work: Path) -> None:
    output = _solver_output()
    _replace("12", "13")(work / "records" / "obj-max.json")
    result = verify_output(output)
    where = {difference.where for difference in result.differences}
    assert {"relative_score", "instances[0].A", "instances[0].score"} <= where


def test_verify_from_another_folder_and_after_moving_the_project(work: Path, monkeypatch) -> None:
    output = work / _score_output()
    monkeypatch.chdir(work.parent)
    assert verify_output(output).ok  # the recorded working folder is used
    moved = work.parent / "moved"
    shutil.move(work, moved)
    result = verify_output(moved / "build" / "index.json", base_dir=moved)
    assert result.ok, (result.differences, result.changed_inputs, result.recompute_error)
    assert result.base_dir == str(moved.resolve())


def test_verify_names_an_evidence_file_added_later(work: Path) -> None:
    output = _score_output()
    shutil.copy(work / "evidence/m1/sat/a1.json", work / "evidence/copy.json")
    result = verify_output(output)
    assert not result.ok
    assert [(c.role, c.state) for c in result.changed_inputs] == [
        ("solver_evidence/copy.json", "added")
    ]
    # two outputs for one (model, task, attempt): the recomputation itself is refused
    assert "second output" in result.recompute_error


def test_verify_refuses_a_file_without_provenance(work: Path) -> None:
    write_json(work / "plain.json", {"relative_score": 0.25})
    with pytest.raises(InputRefused, match="plain.json.*provenance"):
        verify_output(work / "plain.json")
    assert main(["verify", str(work / "plain.json")]) == 2


def test_provenance_records_what_verify_needs(work: Path) -> None:
    provenance = _score()["provenance"]
    assert provenance["entry_point"] == "run_score"
    assert provenance["cwd"] == str(work)
    assert provenance["references_dir"] == str((work / "refs").resolve())
    assert provenance["reference"]["reference_id"] == REF_ID
    roles = set(provenance["inputs"])
    assert {"attempts", "cohort", "suite"} <= roles
    assert {f"solver_evidence/m1/{task}/a1.json" for task in CANDIDATE} <= roles
    for described in provenance["inputs"].values():
        assert Path(described["resolved"]).is_absolute() and len(described["sha256"]) == 64


def _edit_environment(path: Path, edit: Callable[[dict], None]) -> None:
    """Edit the environment an output records, by hand (as if made elsewhere)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data["provenance"]["environment"])
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


def _older_scipy_and_python(environment: dict) -> None:
    environment["packages"]["scipy"] = "1.11.0"
    environment["python"] = "3.11.0"


def test_verify_names_every_difference_of_the_recorded_environment(work: Path, capsys) -> None:
    output = _solver_output()
    recorded = json.loads(Path(output).read_text(encoding="utf-8"))["provenance"]["environment"]
    assert set(recorded["packages"]) == {"numpy", "scipy", "fastjsonschema", "msgspec"}
    assert verify_output(output).environment == []
    assert main(["verify", output]) == 0
    assert "environment: the same as recorded" in capsys.readouterr().out

    _edit_environment(work / output, _older_scipy_and_python)
    result = verify_output(output)
    assert result.ok  # the values decide: the same values in another environment match
    assert [(d.what, d.recorded, d.current) for d in result.environment] == [
        ("python", "3.11.0", recorded["python"]),
        ("package scipy", "1.11.0", recorded["packages"]["scipy"]),
    ]
    assert main(["verify", output]) == 0
    printed = capsys.readouterr().out
    assert f"  - package scipy: recorded 1.11.0, current {recorded['packages']['scipy']}" in printed
    assert "verify: MATCH" in printed and "in another environment" in printed


def test_verify_says_when_a_mismatch_coincides_with_a_changed_package(work: Path, capsys) -> None:
    output = _solver_output()

    def edit(environment: dict) -> None:
        environment["packages"]["numpy"] = "1.26.0"
        environment["lock_sha256"] = "0" * 64
        del environment["packages"]["fastjsonschema"]  # recorded nothing for it

    _edit_environment(work / output, edit)
    data = json.loads((work / output).read_text(encoding="utf-8"))
    data["relative_score"] += 0.125  # and a value that the recomputation does not give
    (work / output).write_text(json.dumps(data), encoding="utf-8")
    result = verify_output(output)
    assert not result.ok and result.mismatch_with_changed_environment
    assert [d.what for d in result.environment] == [
        "lock", "package fastjsonschema", "package numpy"
    ]  # fmt: skip
    assert main(["verify", output]) == 2
    printed = capsys.readouterr().out
    assert "verify: MISMATCH; it coincides with a changed environment (package " in printed
    assert "package numpy: recorded 1.26.0, current " in printed
    assert "package fastjsonschema: recorded (none), current " in printed


def test_verify_notes_an_output_made_before_the_environment_was_recorded(work: Path, capsys):
    output = work / _score_output()
    data = json.loads(output.read_text(encoding="utf-8"))
    del data["provenance"]["environment"]
    output.write_text(json.dumps(data), encoding="utf-8")
    result = verify_output(output)
    assert result.ok and not result.environment_recorded and result.environment == []
    assert any("records no environment" in note for note in result.notes)


def _drop_evidence(work: Path) -> None:
    (work / "evidence/m1/obj-min/a1.json").unlink()


def _other_table_score(work: Path) -> None:
    path = work / "attempts.csv"
    rows = list(csv.reader(path.open(encoding="utf-8")))
    for row in rows:
        if row[2] == "sat":
            row[4] = "0.125"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)


def _other_reference(work: Path) -> None:
    other = small_reference("other-ref-v1")
    write_json(work / "refs" / "other-ref-v1" / "lite.json", other)
    run_solver_score(
        task="obj-max",
        records="records/obj-max.json",
        reference="lite",
        reference_id="other-ref-v1",
        references_dir="refs",
        model="m1",
        attempt="a1",
        output="evidence/m1/obj-max/a1.json",
    )


def _same_id_other_values(work: Path) -> None:
    """An output scored against a file that claims the cohort's id but holds other values."""
    changed = small_reference(REF_ID)
    changed["tasks"]["obj-max"]["instances"]["spread"] = [10, 12, 15]
    path = write_json(work / "elsewhere" / "lite.json", changed)
    run_solver_score(
        task="obj-max",
        records="records/obj-max.json",
        reference=str(path),
        model="m1",
        attempt="a1",
        output="evidence/m1/obj-max/a1.json",
    )


EVIDENCE_CASES = [
    (["solver_evidence_missing"], "obj-min", _drop_evidence),
    (["solver_evidence_score_mismatch"], "sat", _other_table_score),
    (["solver_evidence_reference_mismatch"], "obj-max", _other_reference),
    # other values give another score too: both are reported
    (
        ["solver_evidence_reference_mismatch", "solver_evidence_score_mismatch"],
        "obj-max",
        _same_id_other_values,
    ),
]


@pytest.mark.parametrize(
    ("codes", "task", "change"), EVIDENCE_CASES, ids=[c[2].__name__ for c in EVIDENCE_CASES]
)
def test_evidence_mismatches_appear_in_issues(work: Path, codes: list, task: str, change) -> None:
    consistent = _score()
    assert consistent["solver_evidence"]["consistent"]
    assert not [i for i in consistent["models"]["m1"]["issues"] if i["code"].startswith("solver_")]
    change(work)
    result = _score()
    issues = [i for i in result["models"]["m1"]["issues"] if i["code"].startswith("solver_")]
    assert [(i["code"], i["item"], i["attempt"]) for i in issues] == [
        (code, task, "a1") for code in codes
    ]
    assert not result["solver_evidence"]["consistent"]
    # the row keeps its place and its score, but no mean or index rests on it: the task and
    # the model are incomplete
    table = {row[2]: row[4] for row in csv.reader((work / "attempts.csv").open(encoding="utf-8"))}
    rows = {t["item"]: t for t in result["models"]["m1"]["tasks"]}
    assert [row["score"] for row in rows[task]["rows"]] == [json.loads(table[task])]
    assert (rows[task]["status"], rows[task]["mean"]) == ("incomplete", None)
    assert (result["models"]["m1"]["status"], result["models"]["m1"]["index"]) == (
        "incomplete",
        None,
    )


def _stats_output() -> str:
    from tcsexam_lib.stats.command import run_stats

    _score()
    run_stats(index="build/index.json", output="build/stats.json")
    return "build/stats.json"


@pytest.mark.parametrize("make_output", [_score_output, _stats_output])
def test_verify_follows_the_chain_down_to_a_changed_record(work: Path, make_output, capsys):
    output = make_output()
    assert verify_output(output).ok
    records = work / "records" / "obj-max.json"
    recorded = records.read_bytes()
    _replace('"A": 12', '"A": 13')(records)  # after scoring: the evidence is unchanged
    result = verify_output(output)
    assert not result.ok
    assert result.matches_itself  # recomputed from its own inputs, it still matches
    assert main(["verify", output]) == 2
    verdict = capsys.readouterr().out.splitlines()[-1]
    assert verdict.startswith("verify: MISMATCH; changed input(s): records (")
    assert "records/obj-max.json" in verdict and "evidence/m1/obj-max/a1.json" in verdict
    assert re.search(r"changes .*: relative_score: recorded [0-9.]+, recomputed [0-9.]+", verdict)

    records.write_bytes(recorded)
    assert main(["verify", output]) == 0
    printed = capsys.readouterr().out
    assert f"checked: {'the index ' if 'stats' in output else ''}" in printed
    assert f"3 evidence files and their 3 records files, reference {REF_ID} (" in printed


def test_verify_names_what_it_checked(work: Path, capsys) -> None:
    assert main(["verify", _solver_output()]) == 0
    assert f"checked: 1 records file, reference {REF_ID} (" in capsys.readouterr().out
    _score(evidence=None)
    assert main(["verify", "build/index.json"]) == 0
    printed = capsys.readouterr().out
    assert "note: no solver evidence: the table's solver scores were taken as given" in printed


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_each_entry_point_takes_the_parameters_its_provenance_declares(entry: str) -> None:
    """verify calls the function with every declared parameter, by keyword: each must be one
    of its keyword parameters, and each of its parameters without a default must be declared."""
    signature = inspect.signature(_ENTRY_POINTS[entry]).parameters
    declared = set(ENTRY_POINTS[entry].fields())
    assert declared <= set(signature), declared - set(signature)
    required = {name for name, p in signature.items() if p.default is inspect.Parameter.empty}
    assert required <= declared, required - declared
