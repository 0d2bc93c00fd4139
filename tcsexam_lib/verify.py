"""Verifying an output: its inputs' sha256 checked, recomputed by the recorded function and
parameters, compared value by value (provenance aside), along the chain of inputs that are
outputs; a changed kit or environment is a note, not a mismatch (docs/references.md)."""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .digests import sha256_file
from .documents import Record
from .environment import EnvironmentDifference, describe_environment, environment_differences
from .errors import InputRefused, Problem, TcsexamError
from .jsonio import dumps_json, read_json
from .provenance import ENTRY_POINTS, RELATIVE_TO_OUTPUT
from .schemas import validate_with_schema
from .scoring.commands import run_model_index, run_score, run_solver_score
from .stats.command import run_stats
from .vocab import METRIC_ID

#: How many differing values a verification lists before it stops looking.
MAX_DIFFERENCES = 50

#: The library functions a recorded output can be recomputed with (their parameters:
#: :data:`~tcsexam_lib.provenance.ENTRY_POINTS`).
_ENTRY_POINTS = {
    "run_solver_score": run_solver_score,
    "run_score": run_score,
    "run_stats": run_stats,
    "run_model_index": run_model_index,
}
_PRODUCERS = {
    "tcsexam solver-score": "run_solver_score",
    "tcsexam score": "run_score",
    "tcsexam stats": "run_stats",
}


@dataclass(frozen=True)
class InputCheck:
    """One recorded input file: did its bytes change since the output was made?"""

    role: str
    path: str
    recorded_sha256: str | None
    current_sha256: str | None
    state: str  # unchanged, changed, missing, added

    @property
    def changed(self) -> bool:
        return self.state != "unchanged"

    def __str__(self) -> str:
        text = {
            "unchanged": "unchanged",
            "changed": "CHANGED since the output was made",
            "missing": "MISSING (not found)",
            "added": "NEW (not among the recorded inputs)",
        }[self.state]
        return f"{self.role}: {self.path}: {text}"


@dataclass(frozen=True)
class Difference:
    """One value that differs between the recorded and the recomputed output."""

    where: str
    recorded: Any
    recomputed: Any

    def __str__(self) -> str:
        return f"{self.where}: recorded {self.recorded!r}, recomputed {self.recomputed!r}"


@dataclass
class Verification:
    """The result of :func:`verify_output`; ``ok`` when it still matches."""

    output: str
    producer: str | None
    entry_point: str | None
    base_dir: str
    inputs: list[InputCheck] = field(default_factory=list)
    differences: list[Difference] = field(default_factory=list)
    recompute_error: str | None = None
    notes: list[str] = field(default_factory=list)
    #: how the current environment differs from the one the output records
    environment: list[EnvironmentDifference] = field(default_factory=list)
    #: the output records its environment (outputs made before the kit recorded it do not)
    environment_recorded: bool = True
    #: the reference id the output records
    reference_id: str | None = None
    #: the verifications of its inputs that are outputs too (solver evidence, an index)
    links: list[Verification] = field(default_factory=list)

    @property
    def changed_inputs(self) -> list[InputCheck]:
        return [check for check in self.inputs if check.changed]

    @property
    def matches_itself(self) -> bool:
        """No input changed and the recomputation equals the output (links aside)."""
        return not self.changed_inputs and not self.differences and self.recompute_error is None

    @property
    def ok(self) -> bool:
        return self.matches_itself and all(link.ok for link in self.links)

    @property
    def chain(self) -> list[Verification]:
        """This verification and, depth first, those of every link below it."""
        return [self, *(node for link in self.links for node in link.chain)]

    @property
    def checked(self) -> str:
        """What the chain covered, in words (``3 evidence files and their 3 records files,
        reference R``)."""
        below = self.chain[1:]
        evidence = [n for n in below if n.entry_point == "run_solver_score"]
        solvers = [self] if self.entry_point == "run_solver_score" else evidence
        records = _count(
            sum(c.role == "records" for n in solvers for c in n.inputs), "records file"
        )
        parts = [f"the index {n.output}" for n in below if n.entry_point == "run_score"]
        if evidence:
            parts.append(f"{_count(len(evidence), 'evidence file')} and their {records}")
        elif solvers:
            parts.append(records)
        references = {n.reference_id for n in self.chain if n.reference_checked} - {None}
        parts += [f"reference {ref}" for ref in sorted(references)]
        return ", ".join(parts) or "the output's own inputs"

    @property
    def changes(self) -> list[str]:
        """Each changed input of the chain, with the first value it changes below the top."""
        changes = []
        for node in self.chain:
            below = node is not self and node.differences
            effect = f" changes {node.output}: {node.differences[0]}" if below else ""
            changes += [f"{check.role} ({check.path}){effect}" for check in node.changed_inputs]
        return changes

    @property
    def reference_checked(self) -> bool:
        return any(check.role == "reference" for check in self.inputs)

    @property
    def mismatch_with_changed_environment(self) -> bool:
        """A MISMATCH while the environment differs (a changed package may be why)."""
        return not self.ok and bool(self.environment)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(ok=self.ok, links=[link.to_dict() for link in self.links])
        return data


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _locate(recorded: dict[str, Any], base: Path) -> Path:
    """Where a recorded input is now: its path under ``base``, else its resolved path."""
    recorded_path = Path(recorded.get("path") or "")
    candidate = recorded_path if recorded_path.is_absolute() else base / recorded_path
    resolved = Path(recorded.get("resolved") or recorded_path)
    resolved = resolved if resolved.is_absolute() else base / resolved
    if not candidate.exists() and resolved.exists():
        return resolved
    return candidate


def _check_input(role: str, recorded: dict[str, Any], base: Path) -> InputCheck:
    path = _locate(recorded, base)
    want = recorded.get("sha256")
    if not path.is_file():
        return InputCheck(role, str(path), want, None, "missing")
    got = sha256_file(path)
    return InputCheck(role, str(path), want, got, "unchanged" if got == want else "changed")


def _diff(recorded: Any, recomputed: Any, where: str, out: list[Difference]) -> None:
    if len(out) >= MAX_DIFFERENCES:
        return
    if isinstance(recorded, dict) and isinstance(recomputed, dict):
        for key in list(recorded) + [k for k in recomputed if k not in recorded]:
            _diff(
                recorded.get(key, "(absent)"),
                recomputed.get(key, "(absent)"),
                f"{where}.{key}" if where else str(key),
                out,
            )
    elif isinstance(recorded, list) and isinstance(recomputed, list):
        if len(recorded) != len(recomputed):
            out.append(Difference(f"{where} (length)", len(recorded), len(recomputed)))
        for index, (a, b) in enumerate(zip(recorded, recomputed, strict=False)):
            _diff(a, b, f"{where}[{index}]", out)
    elif recorded != recomputed or type(recorded) is not type(recomputed):
        if isinstance(recorded, int | float) and isinstance(recomputed, int | float):
            if recorded == recomputed and not isinstance(recorded, bool):
                return
        out.append(Difference(where or "(top level)", recorded, recomputed))


def verify_output(
    output: str | os.PathLike[str], *, base_dir: str | os.PathLike[str] | None = None
) -> Verification:
    """Recompute a solver-score or score output from its recorded inputs and compare.

    ``base_dir``: what recorded relative paths are relative to when the recorded working
    folder is gone (default: the current one). Returns a :class:`Verification` (``ok``: no
    input changed, the recomputation equals the output, every link ``ok``); refuses
    (:class:`InputRefused`) a file that is not a kit output with a provenance block.

    >>> import pathlib, tempfile
    >>> missing = pathlib.Path(tempfile.mkdtemp()) / "none.json"
    >>> verify_output(missing)
    Traceback (most recent call last):
    ...
    tcsexam_lib.errors.InputRefused: Input file not found
      - ...none.json: no such file
    """
    output = Path(output)
    data, provenance, entry = _read_provenance(output)
    notes: list[str] = []
    base = _base_folder(output, provenance, base_dir, notes)
    result = Verification(str(output), provenance.get("producer"), entry, str(base), notes=notes)
    result.inputs.extend(_check_inputs(provenance, entry, base))
    if provenance.get("metric_id") != METRIC_ID:
        result.differences.append(
            Difference("provenance.metric_id", provenance.get("metric_id"), METRIC_ID)
        )
    _recompute(result, data, provenance, entry, base)
    _compare_environment(result, provenance.get("environment"), entry)
    result.reference_id = (provenance.get("reference") or {}).get("reference_id")
    for check in result.inputs:
        if check.state in ("unchanged", "changed") and _is_link(check.role):
            result.links.append(_verify_link(check.path, base_dir))
    if entry == "run_score" and provenance["parameters"].get("solver_evidence") is None:
        notes.append("no solver evidence: the table's solver scores were taken as given")
    return result


def _is_link(role: str) -> bool:
    """An input that is an output of the kit too: solver evidence, or an index."""
    return role == "index" or role.startswith("solver_evidence/")


def _verify_link(path: str, base_dir: Any) -> Verification:
    """The verification of an input that is itself an output (one it cannot verify fails)."""
    try:
        return verify_output(path, base_dir=base_dir)
    except TcsexamError as exc:
        return Verification(path, None, None, "", recompute_error=f"not verifiable: {exc}")


def _read_provenance(output: Path) -> tuple[Any, dict[str, Any], str]:
    """The output's data, its provenance block and the entry point that made it (or refused)."""
    data = read_json(output)
    provenance = data.get("provenance") if isinstance(data, dict) else None
    if not isinstance(provenance, dict) or not isinstance(provenance.get("parameters"), dict):
        raise InputRefused(
            "Not a kit output with provenance",
            [
                Problem(
                    str(output),
                    field="provenance",
                    detail="no provenance block with parameters",
                    allowed="an output of tcsexam solver-score, score or stats",
                )
            ],
        )
    validate_with_schema(data, "provenance", str(output))
    entry = provenance.get("entry_point") or _PRODUCERS.get(provenance.get("producer"))
    if entry not in _ENTRY_POINTS:
        raise InputRefused(
            "Cannot tell how this output was computed",
            [
                Problem(
                    str(output),
                    field="provenance.entry_point",
                    value=provenance.get("entry_point"),
                    allowed=", ".join(_ENTRY_POINTS),
                )
            ],
        )
    return data, provenance, entry


def _base_folder(output: Path, provenance: dict[str, Any], base_dir: Any, notes: list[str]) -> Path:
    """The folder the recorded relative paths are taken from (a note when it had to guess)."""
    recorded_cwd = provenance.get("cwd")
    if base_dir is not None:
        return Path(base_dir).resolve()
    if provenance.get("paths_relative_to") == RELATIVE_TO_OUTPUT:
        return output.resolve().parent  # a published report: paths from the file's folder
    if recorded_cwd and Path(recorded_cwd).is_dir():
        return Path(recorded_cwd)
    base = Path.cwd()
    if recorded_cwd:
        notes.append(
            f"recorded working folder {recorded_cwd} not found: relative paths are taken "
            f"from {base}"
        )
    return base


def _check_inputs(provenance: dict[str, Any], entry: str, base: Path) -> list[InputCheck]:
    """Each recorded input (and the reference) unchanged, changed or missing; and each
    solver evidence file a score run would now read unrecorded (added)."""
    recorded_inputs = provenance.get("inputs") or {}
    checks = [_check_input(role, recorded, base) for role, recorded in recorded_inputs.items()]
    reference = provenance.get("reference") or {}
    if reference.get("path"):
        checks.append(_check_input("reference", reference, base))
    evidence_dir = provenance["parameters"].get("solver_evidence")
    if entry == "run_score" and evidence_dir is not None:
        folder = Path(evidence_dir) if Path(evidence_dir).is_absolute() else base / evidence_dir
        for path in sorted(folder.rglob("*.json")) if folder.is_dir() else []:
            role = f"solver_evidence/{path.relative_to(folder).as_posix()}"
            if role not in recorded_inputs:
                checks.append(InputCheck(role, str(path), None, sha256_file(path), "added"))
    return checks


def _compare_environment(result: Verification, recorded: Any, entry: str) -> None:
    """Name every difference between the recorded environment and the current one."""
    if not isinstance(recorded, dict):
        result.environment_recorded = False
        result.notes.append(
            "the output records no environment (it was made before the kit recorded one): "
            "package versions cannot be compared"
        )
        return
    result.environment = environment_differences(recorded, describe_environment(entry))


def _recompute(
    result: Verification,
    data: dict[str, Any],
    provenance: dict[str, Any],
    entry: str,
    base: Path,
) -> None:
    function, parameters = _ENTRY_POINTS[entry], provenance["parameters"]
    arguments = {name: parameters.get(name) for name in ENTRY_POINTS[entry].fields()}
    recorded_refs = provenance.get("references_dir")
    if arguments.get("references_dir") is None and recorded_refs:
        if (base / recorded_refs).is_dir():  # a relative one is relative to the base
            arguments["references_dir"] = recorded_refs
        else:
            result.notes.append(
                f"recorded references folder {recorded_refs} not found: the current default "
                "is used (the reference's sha256 says whether it is the same file)"
            )
    try:
        with contextlib.chdir(base):
            fresh = function(**arguments)
    except TcsexamError as exc:
        result.recompute_error = str(exc)
        return
    fresh = json.loads(dumps_json(fresh.data if isinstance(fresh, Record) else fresh))
    fresh_provenance = fresh.pop("provenance")
    recorded = {k: v for k, v in data.items() if k != "provenance"}
    _diff(recorded, fresh, "", result.differences)
    known = {check.role for check in result.inputs}
    for role, described in (fresh_provenance.get("inputs") or {}).items():
        if role not in known:
            result.inputs.append(
                InputCheck(role, described["path"], None, described["sha256"], "added")
            )
    fresh_reference = fresh_provenance.get("reference") or {}
    recorded_reference = provenance.get("reference") or {}
    if fresh_reference.get("sha256") != recorded_reference.get("sha256") and not any(
        check.role == "reference" and check.changed for check in result.inputs
    ):
        result.inputs.append(
            InputCheck(
                "reference",
                str(fresh_reference.get("resolved") or fresh_reference.get("path")),
                recorded_reference.get("sha256"),
                fresh_reference.get("sha256"),
                "changed",
            )
        )
    if fresh_provenance.get("kit_version") != provenance.get("kit_version"):
        result.notes.append(
            f"recorded with kit version {provenance.get('kit_version')}, recomputed with "
            f"{fresh_provenance.get('kit_version')}"
        )
