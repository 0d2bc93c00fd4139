"""What the scoring commands (and the notebooks) run: load, score, attach provenance, write;
``tcsexam score`` (:func:`run_score`) also cross-checks solver rows against solver evidence
or scores them from a records folder (``--solver-records``, docs/own-results.md). Each
returns the exact document the command writes, so a notebook writes the same file."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..csvio import CsvTable, read_csv_table
from ..digests import sha256_text
from ..errors import InputRefused, OutputRefused, Problem
from ..folders import remove_tree, switch_into_place
from ..jsonio import dumps_json, write_json_atomic
from ..outputfiles import refuse_output_over_inputs, write_text_atomic
from ..provenance import RELATIVE_TO_OUTPUT, InputFile, build_provenance, relative_provenance
from ..references.load import load_reference
from ..references.model import Reference
from ..references.suites import Suite, load_suite
from .attempts import AttemptRows, validate_attempts
from .cohort import Cohort, load_cohort, load_cohort_reference
from .evidence import SOLVER_OUTPUT_SCHEMA, SolverOutput, check_solver_evidence, read_solver_outputs
from .fill import FillResult, fill_table, refuse_unmatched
from .index import compute_index
from .index_document import IndexDocument
from .records_folder import RecordsFile, check_records_folder, find_records, solver_output_path
from .solver_document import SolverDocument

PathLike = str | os.PathLike[str]


def run_solver_score(
    *,
    task: str,
    records: PathLike,
    reference: PathLike,
    reference_id: str | None = None,
    references_dir: PathLike | None = None,
    model: str | None = None,
    attempt: str | None = None,
    output: PathLike | None = None,
    producer: str = "tcsexam solver-score",
    loaded_reference: Reference | None = None,
) -> SolverDocument:
    """Score one task's records file and (optionally) write the result atomically; nothing
    is written when the input is refused.

    ``"simulated": true`` is added for a simulated reference; ``loaded_reference`` saves
    loading it again (the report runner).
    """
    from ..references.records import read_records_with_digest  # numpy: not for score
    from .solver import score_solver_task

    parameters = {
        "task": task,
        "records": records,
        "reference": reference,
        "reference_id": reference_id,
        "references_dir": references_dir,
        "model": model,
        "attempt": attempt,
    }
    ref = loaded_reference or load_reference(
        reference, reference_id=reference_id, references_dir=references_dir
    )
    data, digest = read_records_with_digest(records)
    result = score_solver_task(ref, task, data, source=str(records), model=model, attempt=attempt)
    if ref.simulated:
        result.mark_simulated()  # scored against a simulated (demo) reference
    inputs: dict[str, InputFile] = {"records": (records, digest)}
    result.set_provenance(build_provenance(producer, "run_solver_score", parameters, inputs, ref))
    write_output(output, result.data, [records, ref.path])
    return result


@dataclass(frozen=True)
class ScoringInputs:
    """The loaded suite, cohort and reference of an index, and their ``references_dir``."""

    suite: Suite
    cohort: Cohort
    reference: Reference
    references_dir: PathLike | None = None

    @property
    def simulated(self) -> bool:
        """True when the suite, the cohort or the reference is marked simulated."""
        return bool(
            self.suite.simulated or self.reference.simulated or self.cohort.raw.get("simulated")
        )


def load_scoring_inputs(
    suite: str, cohort: PathLike, references_dir: PathLike | None = None
) -> ScoringInputs:
    """Load the suite, the cohort (checked against it) and the cohort's reference."""
    suite_obj = load_suite(suite, references_dir=references_dir)
    cohort_obj = load_cohort(cohort, suite=suite_obj)
    reference = load_cohort_reference(cohort_obj, suite_obj, references_dir=references_dir)
    return ScoringInputs(suite_obj, cohort_obj, reference, references_dir)


def index_document(
    inputs: ScoringInputs,
    table: AttemptRows,
    *,
    attempts: tuple[PathLike, str | None],
    evidence: tuple[PathLike, dict[tuple[str, str, str], SolverOutput]] | None = None,
    producer: str = "tcsexam score",
    base_dir: PathLike | None = None,
) -> IndexDocument:
    """The ``tcsexam score`` output of a validated attempts table against loaded inputs.

    ``evidence`` is checked against every adopted valid solver row; relative paths are
    relative to ``base_dir``.
    """
    evidence_dir, outputs = evidence if evidence is not None else (None, {})
    findings = None
    if evidence_dir is not None:
        findings = check_solver_evidence(
            table,
            outputs,
            evidence_dir=evidence_dir,
            reference_id=inputs.reference.reference_id,
            reference_sha256=inputs.reference.sha256,
        )
    result = compute_index(
        table,
        inputs.suite,
        inputs.cohort,
        reference_id=inputs.reference.reference_id,
        found=findings.issues if findings else (),
    )
    if inputs.simulated:
        result.mark_simulated()  # simulated (demo) inputs: not TCSExam results
    if findings is not None:
        result.attach_evidence(findings)
    files: dict[str, InputFile] = {
        "attempts": attempts,
        "cohort": (inputs.cohort.path, inputs.cohort.sha256),
        "suite": (inputs.suite.path, inputs.suite.sha256),
    }
    for found in sorted(outputs.values(), key=lambda o: o.path):
        role = f"solver_evidence/{found.path.relative_to(evidence_dir).as_posix()}"
        files[role] = (found.path, found.sha256)
    parameters = {
        "suite": inputs.suite.name,
        "attempts": attempts[0],
        "cohort": inputs.cohort.path,
        "references_dir": inputs.references_dir,
        "solver_evidence": evidence_dir,
    }
    result.set_provenance(
        build_provenance(
            producer, "run_score", parameters, files, inputs.reference, base_dir=base_dir
        )
    )
    return result


def write_output(
    output: PathLike | None, result: dict[str, Any], inputs: list[Any], folders: list[Any] = ()
) -> None:
    """Write ``result`` atomically, refusing to replace an input or land in an input folder."""
    if output is None:
        return
    refuse_output_over_inputs(
        output,
        inputs,
        field="--output",
        allowed="a path that is not one of the inputs",
        folders=list(folders),
    )
    write_json_atomic(output, result)


def model_index_provenance(index: PathLike, model: str, producer: str) -> dict[str, Any]:
    """The provenance of one model's entry of an index: no time and no digest of the index,
    so the file changes only when the model's entry does."""
    block = build_provenance(producer, "run_model_index", {"index": index, "model": model}, {},
                             None)  # fmt: skip
    block.pop("created_utc")
    return {**block, "cwd": ".", "paths_relative_to": RELATIVE_TO_OUTPUT}


def run_model_index(*, index: PathLike, model: str) -> IndexDocument:
    """The entry of ``model`` in the index output ``index``, alone, as an index output
    (the runner's ``models/<model>/model.index.json``)."""
    from .index_document import load_index

    provenance = model_index_provenance(index, model, "tcsexam report")  # as the runner writes it
    return load_index(index).for_model(model, provenance)


#: The folder of solver-score outputs inside a run set, and the suffix of the one beside an
#: index written by ``tcsexam score --solver-records`` (``<name>.evidence``).
EVIDENCE = "evidence"


def score_records_files(
    records: list[RecordsFile],
    reference: Reference,
    *,
    references_dir: PathLike | None = None,
    producer: str = "tcsexam report",
) -> list[SolverDocument]:
    """Score each records file against one loaded reference (each output what ``tcsexam
    solver-score`` writes), in order; a refused file stops the run."""
    return [
        run_solver_score(
            task=item.task,
            records=item.path,
            reference=reference.suite,
            reference_id=reference.reference_id,
            references_dir=references_dir,
            model=item.model,
            attempt=item.attempt,
            producer=producer,
            loaded_reference=reference,
        )
        for item in records
    ]


@dataclass(frozen=True)
class RecordsFill:
    """An attempts table filled from a records folder, in memory: ``records``, their
    ``outputs``, the ``filled`` copy, what the ``fill`` did, the copy validated (``table``)."""

    records: list[RecordsFile]
    outputs: list[SolverDocument]
    filled: CsvTable
    fill: FillResult
    table: AttemptRows


def fill_from_records(
    inputs: ScoringInputs,
    attempts: PathLike,
    records_dir: PathLike,
    *,
    producer: str,
    source: str,
    summary: str,
) -> RecordsFill:
    """Score a records folder and fill the table's blank solver scores from it; nothing is
    written. Refused: a file not ``<model>/<task>/<attempt>.json`` of a cohort model and
    suite solver task, a records file no row names, a blank valid score without records,
    and what the table's own rules refuse (naming the researcher's table)."""
    suite, cohort = inputs.suite, inputs.cohort
    records = find_records(records_dir)
    check_records_folder(
        Path(records_dir),
        records,
        models=tuple(cohort.models),
        solver_tasks=set(suite.tracks["solver"]),
        suite=suite.name,
        source=source,
    )
    outputs = score_records_files(
        records, inputs.reference, references_dir=inputs.references_dir, producer=producer
    )
    filled, fill = fill_table(read_csv_table(attempts, kind="Attempts file"), outputs)
    refuse_unmatched(
        fill, records, attempts=attempts, records_dir=records_dir, summary=f"{summary} refused"
    )
    try:
        table = validate_attempts(filled, suite=suite, cohort=cohort)
    except InputRefused as exc:
        raise InputRefused(f"{summary}: {exc.summary}", exc.problems) from exc
    return RecordsFill(records, outputs, filled, fill, table)


@dataclass(frozen=True)
class EvidenceFiles:
    """The solver-score outputs of a records fill as the files to write, by path."""

    texts: dict[Path, str]
    outputs: dict[tuple[str, str, str], SolverOutput]


def evidence_files(
    filled: RecordsFill, evidence: Path, published_in: Path | None = None
) -> EvidenceFiles:
    """The evidence of ``filled`` as ``<evidence>/<model>/<task>-<attempt>.json``; with
    ``published_in`` each provenance is made relative to its own folder."""
    texts: dict[Path, str] = {}
    outputs: dict[tuple[str, str, str], SolverOutput] = {}
    for item, found in zip(filled.records, filled.outputs, strict=True):
        relative = solver_output_path(evidence / item.model, item.task, item.attempt)
        output = SolverDocument(found)  # a copy: a relative provenance is its own
        if published_in is not None:
            where = (published_in / relative).parent
            output.set_provenance(relative_provenance(found.provenance, where))
        text = dumps_json(output.data)
        texts[relative] = text
        outputs[(item.model, item.task, item.attempt)] = SolverOutput(
            relative, sha256_text(text), output.data
        )
    return EvidenceFiles(texts, outputs)


def companion_paths(output: PathLike) -> tuple[Path, Path]:
    """The filled table and the evidence folder written beside an index ``output``.

    >>> [p.as_posix() for p in companion_paths("build/index.json")]
    ['build/index.attempts.csv', 'build/index.evidence']
    """
    path = Path(output)
    stem = path.name.removesuffix(".json")
    return path.with_name(f"{stem}.attempts.csv"), path.with_name(f"{stem}.{EVIDENCE}")


def _score_with_records(
    inputs: ScoringInputs,
    attempts: PathLike,
    solver_records: PathLike,
    output: Path,
    read: list[PathLike],
    producer: str,
) -> IndexDocument:
    """``--solver-records DIR``: writes the index ``output``, ``<name>.attempts.csv`` (the
    filled copy) and ``<name>.evidence/`` (every solver-score output). Nothing is written on
    a refusal; the evidence folder is switched in whole, and one the kit did not write is
    refused."""
    filled = fill_from_records(
        inputs,
        attempts,
        solver_records,
        producer=producer,
        source=f"--solver-records of {attempts}",
        summary=f"Attempts file {attempts} with records {solver_records}",
    )
    table_path, evidence_dir = companion_paths(output)
    read = read + [item.path for item in filled.records]
    for path, name in ((output, "--output"), (table_path, "filled table"),
                       (evidence_dir, "evidence folder")):  # fmt: skip
        refuse_output_over_inputs(
            path,
            read,
            field=name,
            allowed="an --output whose folder holds none of the inputs",
            folders=[solver_records],
        )
    _refuse_foreign_evidence(evidence_dir)
    files = evidence_files(filled, evidence_dir)
    table_text = filled.filled.to_text()
    result = index_document(
        inputs,
        filled.table,
        attempts=(table_path, sha256_text(table_text)),
        evidence=(evidence_dir, files.outputs),
        producer=producer,
    )
    index_text = dumps_json(result.data)
    _write_all(evidence_dir, files.texts, (table_path, table_text), (output, index_text))
    return result


def _refuse_foreign_evidence(evidence_dir: Path) -> None:
    """Refuse to replace an ``evidence_dir`` holding anything but the kit's outputs."""
    if evidence_dir.is_symlink() or not evidence_dir.exists():
        return  # nothing there, or a link that is replaced (never followed)
    try:
        if not evidence_dir.is_dir():
            raise InputRefused("not a folder", [])
        stray = [p for p in evidence_dir.rglob("*") if p.is_file() and p.suffix != ".json"]
        if stray:
            raise InputRefused("not a solver-score output", [])
        read_solver_outputs(evidence_dir)
    except InputRefused as exc:
        raise InputRefused(
            "Evidence folder refused",
            [
                Problem(
                    str(evidence_dir),
                    field="--output",
                    detail="it holds files that are not solver-score outputs "
                    f"({exc.summary}); it is replaced whole only when the kit wrote it",
                    allowed="move or remove it, or choose another --output "
                    f"(its evidence goes to <name>.{EVIDENCE}/; outputs match "
                    f"references/schemas/{SOLVER_OUTPUT_SCHEMA}.schema.json)",
                )
            ],
        ) from exc


def _write_all(
    evidence_dir: Path,
    evidence: dict[Path, str],
    table: tuple[Path, str],
    index: tuple[Path, str],
) -> None:
    """Write the evidence (staged, switched in), the filled table, then the index last: an
    interrupted write leaves the previous index, naming the files it came from."""
    staging = evidence_dir.parent / f".{evidence_dir.name}.staging-{os.getpid()}"
    try:
        evidence_dir.parent.mkdir(parents=True, exist_ok=True)
        if staging.exists() or staging.is_symlink():
            remove_tree(staging)
        staging.mkdir()
        for path, text in evidence.items():
            write_text_atomic(staging / path.relative_to(evidence_dir), text)
        switch_into_place(staging, evidence_dir)
    except OSError as exc:
        remove_tree(staging)
        raise OutputRefused(f"Cannot write {evidence_dir}: {exc}") from exc
    except BaseException:
        remove_tree(staging)
        raise
    write_text_atomic(*table)
    write_text_atomic(*index)


def run_score(
    *,
    suite: str,
    attempts: PathLike,
    cohort: PathLike,
    references_dir: PathLike | None = None,
    output: PathLike | None = None,
    solver_evidence: PathLike | None = None,
    solver_records: PathLike | None = None,
    producer: str = "tcsexam score",
) -> IndexDocument:
    """Compute the index of a cohort and (optionally) write the result atomically
    (``"simulated": true`` for simulated inputs).

    ``solver_evidence``: outputs each adopted solver row is checked against (a disagreement
    makes the model ``incomplete``); ``solver_records``: a records folder scored instead,
    its filled table and evidence written beside ``output``.
    """
    if solver_records is not None:
        if solver_evidence is not None:
            raise InputRefused(
                "Give the solver evidence or the records, not both",
                [Problem("--solver-evidence", field="--solver-records", value=str(solver_records),
                         allowed="one of the two (the records' outputs are the evidence)")],
            )  # fmt: skip
        if output is None:
            raise InputRefused(
                "--solver-records writes its evidence beside the index: name the output",
                [Problem("run_score", field="output", value=None, allowed="a path")],
            )
    inputs = load_scoring_inputs(suite, cohort, references_dir)
    read = [attempts, cohort, inputs.suite.path, inputs.reference.path]
    if solver_records is not None:
        return _score_with_records(inputs, attempts, solver_records, Path(output), read, producer)
    csv_table = read_csv_table(attempts, kind="Attempts file")
    table = validate_attempts(csv_table, suite=inputs.suite, cohort=inputs.cohort)
    evidence = None
    if solver_evidence is not None:
        evidence = (solver_evidence, read_solver_outputs(solver_evidence))
    result = index_document(
        inputs, table, attempts=(attempts, csv_table.sha256), evidence=evidence, producer=producer
    )
    read += [found.path for found in (evidence[1] if evidence else {}).values()]
    write_output(output, result.data, read, folders=[solver_evidence])
    return result
