"""The seed's worked examples (0.25 and 55.5), through the library and the command line,
and the seed's own commands run literally against a test-only references folder."""

from __future__ import annotations

import pytest
from conftest import (
    BASE_TRACK_MEANS,
    MODEL,
    SOLVER_TASK,
    TEST_REF_ID,
    WORKED_INDEX,
    WORKED_RELATIVE_SCORE,
    read_output,
)

from tcsexam_lib import (
    combine_track_means,
    compute_index,
    load_cohort,
    load_reference,
    load_suite,
    read_attempts,
    run_score,
    run_solver_score,
    score_solver_task,
)
from tcsexam_lib.vocab import FIXED_REFERENCE_ID, METRIC_ID


def _check_relative_example(result):
    """mu 12, s 2, scale 2, z 0, score 0.5 for example-1; 0 for the timeout; mean 0.25."""
    assert result["task"] == SOLVER_TASK
    assert result["reference_id"] == TEST_REF_ID
    assert (result["kind"], result["direction"]) == ("objective", "maximize")
    assert result["relative_score"] == WORKED_RELATIVE_SCORE
    assert result["n_scored"] == 2
    first, second = result["instances"]
    assert (first["instance"], first["status"], first["A"]) == ("example-1", "ok", 12)
    assert (first["mu"], first["s"], first["scale"], first["z"]) == (12, 2, 2, 0)
    assert first["score"] == 0.5
    assert (second["instance"], second["status"], second["score"]) == ("example-2", "timeout", 0)
    assert second["z"] is None and second["A"] is None
    assert result["unscored_instances"] == []


def _check_index_example(result):
    entry = result["models"][MODEL]
    assert result["metric_id"] == METRIC_ID
    assert result["status"] == entry["status"] == "complete"
    assert entry["index"] == pytest.approx(WORKED_INDEX, rel=1e-12)
    assert entry["track_means"] == pytest.approx(
        {"P": 0.4, "S": 0.25, "C": 1.2, "O": 0.0}, rel=1e-12
    )
    for track, mean in BASE_TRACK_MEANS.items():
        assert entry["tracks"][track]["mean"] == pytest.approx(mean, rel=1e-12)
    assert entry["issues"] == []


def test_combine_track_means_worked_example():
    assert combine_track_means(BASE_TRACK_MEANS) == WORKED_INDEX


def test_relative_score_library(ws):
    ws.write()
    reference = load_reference(ws.reference_path)
    _check_relative_example(score_solver_task(reference, SOLVER_TASK, ws.records))


def test_relative_score_run_and_cli_write_the_same(ws, run_cli, tmp_path):
    ws.write()
    from_lib = run_solver_score(**ws.solver_kwargs(tmp_path / "lib.json"))
    done = run_cli(ws.solver_args(tmp_path / "cli.json"))
    assert done.code == 0, done.err
    assert "relative_score 0.25 " in done.out
    from_cli = read_output(tmp_path / "cli.json")
    for result in (from_lib, read_output(tmp_path / "lib.json"), from_cli):
        _check_relative_example(result)
    drop = ("provenance",)
    assert {k: v for k, v in from_cli.items() if k not in drop} == {
        k: v for k, v in from_lib.items() if k not in drop
    }
    assert from_cli["provenance"]["reference"]["reference_id"] == TEST_REF_ID


def test_index_library(ws):
    ws.write()
    suite = load_suite("lite", references_dir=ws.refs_dir)
    cohort = load_cohort(ws.cohort_path, suite=suite)
    table = read_attempts(ws.attempts_path, suite=suite, cohort=cohort)
    _check_index_example(compute_index(table, suite, cohort))
    _check_index_example(run_score(**ws.score_kwargs()))


def test_index_cli_in_process(ws, run_cli, tmp_path):
    ws.write()
    done = run_cli(ws.score_args(tmp_path / "index.json"))
    assert done.code == 0, done.err
    assert "complete, index 55.50" in done.out
    _check_index_example(read_output(tmp_path / "index.json"))


def test_seed_solver_score_command_with_reference_path(ws, run_cli_subprocess, tmp_path):
    """`tcsexam solver-score --task maxcut-mqlib --records ... --reference PATH
    --output build/...`"""
    ws.write()
    args = ["solver-score", "--task", "maxcut-mqlib", "--records", ws.records_path]
    args += ["--reference", ws.reference_path, "--output", "build/maxcut-relative.json"]
    done = run_cli_subprocess(args, cwd=tmp_path)
    assert done.code == 0, done.err
    _check_relative_example(read_output(tmp_path / "build" / "maxcut-relative.json"))


@pytest.fixture
def run_seed(run_cli, run_cli_subprocess, monkeypatch, tmp_path):
    """Run a seed command from ``tmp_path`` with the references folder given either by
    ``--references-dir`` (in-process) or by ``TCSEXAM_REFERENCES`` (a real process)."""

    def run(how, args, refs_dir):
        if how == "option, in-process":
            monkeypatch.chdir(tmp_path)
            return run_cli([*args, "--references-dir", refs_dir])
        return run_cli_subprocess(args, cwd=tmp_path, env={"TCSEXAM_REFERENCES": str(refs_dir)})

    return run


HOW = ["option, in-process", "environment, subprocess"]


@pytest.mark.parametrize("how", HOW)
def test_seed_solver_score_command_with_suite_name(ws, run_seed, tmp_path, how):
    """`--reference lite` resolves under the references folder (here a test id)."""
    ws.write()
    args = ["solver-score", "--task", "maxcut-mqlib", "--records", ws.records_path]
    args += ["--reference", "lite", "--reference-id", TEST_REF_ID]
    args += ["--output", "build/maxcut-relative.json"]
    done = run_seed(how, args, ws.refs_dir)
    assert done.code == 0, done.err
    _check_relative_example(read_output(tmp_path / "build" / "maxcut-relative.json"))


@pytest.mark.parametrize("how", HOW)
def test_seed_solver_score_command_literal_without_release_file(ws, run_seed, tmp_path, how):
    """The seed's literal command needs the fixed reference: refused, saying where it goes."""
    ws.write()
    args = ["solver-score", "--task", "maxcut-mqlib", "--records", ws.records_path]
    args += ["--reference", "lite", "--output", "build/maxcut-relative.json"]
    done = run_seed(how, args, ws.refs_dir)
    assert done.code == 2
    expected = ws.refs_dir / FIXED_REFERENCE_ID / "lite.json"
    assert f"Put the release's lite.json at {expected}" in done.err
    assert not (tmp_path / "build").exists()


@pytest.mark.parametrize("how", HOW)
def test_seed_score_command(ws, run_seed, tmp_path, how):
    """`tcsexam score --suite lite --attempts attempts.csv --cohort cohort.json --output
    build/index.json`, with the references folder given by option or environment."""
    ws.write()
    args = ["score", "--suite", "lite", "--attempts", "attempts.csv", "--cohort", "cohort.json"]
    args += ["--output", "build/index.json"]
    done = run_seed(how, args, ws.refs_dir)
    assert done.code == 0, done.err
    result = read_output(tmp_path / "build" / "index.json")
    _check_index_example(result)
    assert result["reference_id"] == TEST_REF_ID
    assert result["suite"] == "lite" and result["solver_protocol"] == "offline"
