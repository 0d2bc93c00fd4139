"""A run set's output files made in memory, by path relative to its folder, before any is written.

An output equal to the one published before but for ``provenance.created_utc`` keeps its
old bytes, so what reads it stays the same (:func:`kept_bytes`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..digests import sha256_bytes
from ..jsonio import dumps_json
from ..provenance import relative_provenance
from ..scoring.commands import EVIDENCE, index_document, model_index_provenance
from ..scoring.evidence import SCORE_MISMATCH, SolverOutput
from ..scoring.index_document import IndexDocument, IssueRecord
from ..scoring.records_folder import solver_output_path
from ..scoring.solver_document import SolverDocument
from ..stats.command import compute_stats, stats_provenance
from ..stats.document import ComputedStats

#: Producer recorded in the provenance of the runner's outputs.
PRODUCER = "tcsexam report"
#: Folder of a run set that holds one folder of pages per model.
MODELS = "models"
#: A model's own files, in its folder of pages.
MODEL_INDEX = "model.index.json"
MODEL_STATS = "model.stats.json"

#: The creation time in an output's provenance (the one value a rerun changes).
_CREATED = re.compile(rb'"created_utc": "[^"]*"')


@dataclass
class RunSetOutputs:
    """The files of a run set beside its pages, as bytes by relative path, and what they hold."""

    files: dict[str, bytes]
    score: IndexDocument
    stats: ComputedStats
    solver_outputs: dict[str, list[SolverDocument]]
    index_name: str
    stats_name: str
    attempts_name: str
    #: hand-written solver scores the evidence check found other than computed
    disagreeing: list[IssueRecord] = field(default_factory=list)
    #: the outputs whose published bytes were kept (their content had not changed)
    kept: set[str] = field(default_factory=set)


def kept_bytes(new: bytes, previous: Path | None) -> bytes | None:
    """The bytes of ``previous`` when they hold ``new`` but for the creation time, else None.

    >>> import tempfile, pathlib
    >>> old = pathlib.Path(tempfile.mkdtemp()) / "x.json"
    >>> _ = old.write_bytes(b'{"a": 1, "provenance": {"created_utc": "2026-01-01T00:00:00Z"}}')
    >>> kept_bytes(b'{"a": 1, "provenance": {"created_utc": "2026-02-02T00:00:00Z"}}', old)[-24:]
    b'"2026-01-01T00:00:00Z"}}'
    >>> kept_bytes(b'{"a": 2, "provenance": {"created_utc": "2026-02-02T00:00:00Z"}}', old) is None
    True
    """
    if previous is None or previous.is_symlink() or not previous.is_file():
        return None
    try:
        old = previous.read_bytes()
    except OSError:
        return None
    if old == new:
        return old
    if len(_CREATED.findall(new)) != 1 or len(_CREATED.findall(old)) != 1:
        return None
    return old if _CREATED.sub(b"", old) == _CREATED.sub(b"", new) else None


def build_outputs(
    prepared: Any, folder: Path, previous: Path | None = None, same_tools: bool = False
) -> RunSetOutputs:
    """The output files of a prepared run set to be published at ``folder``.

    ``previous``: the folder as published before (or None). With ``same_tools`` (same kit
    and environment), a model whose index kept its bytes keeps its intervals file.
    """
    params = prepared.params
    out = _FilesToPublish(previous)
    evidence, solver_outputs = _evidence_outputs(prepared, folder, out)
    attempts_name = f"{params.name}.attempts.csv"
    attempts = out.settle(attempts_name, prepared.filled.to_text().encode("utf-8"))
    score = index_document(  # the evidence and the filled copy, relative to the run set
        prepared.inputs,
        prepared.table,
        attempts=(Path(attempts_name), sha256_bytes(attempts)),
        evidence=(Path(EVIDENCE), evidence),
        producer=PRODUCER,
        base_dir=folder,
    )
    score.set_provenance(relative_provenance(score.provenance, folder))
    index_name = f"{params.name}.index.json"
    index = out.settle(index_name, dumps_json(score.data).encode("utf-8"))
    stats_name = f"{params.name}.stats.json"
    stats = _stats(index, folder / index_name, score, PRODUCER)
    out.settle(stats_name, b"".join(stats.json_chunks()))
    for model in params.models:
        _model_outputs(out, model, score, index_name, folder, same_tools)
    disagreeing = [  # hand-written scores the solver evidence check found other than computed
        issue
        for entry in score.results.values()
        for issue in entry.issues
        if issue.code == SCORE_MISMATCH
    ]
    return RunSetOutputs(out.files, score, stats, solver_outputs, index_name, stats_name,
                         attempts_name, disagreeing, out.kept)  # fmt: skip


class _FilesToPublish:
    """Output files by path relative to the run set: each new one's bytes or, where it did
    not change but for its creation time, the bytes published before (listed in ``kept``)."""

    def __init__(self, previous: Path | None) -> None:
        self.previous = previous
        self.files: dict[str, bytes] = {}
        self.kept: set[str] = set()

    def settle(self, relative: str, new: bytes) -> bytes:
        """Add an output; return the bytes it will be published with."""
        old = kept_bytes(new, None if self.previous is None else self.previous / relative)
        if old is not None:
            self.kept.add(relative)
        self.files[relative] = new if old is None else old
        return self.files[relative]

    def keep(self, relative: str, data: bytes) -> None:
        """Add an output published before, kept as it is."""
        self.files[relative] = data
        self.kept.add(relative)


def _evidence_outputs(
    prepared: Any, folder: Path, out: _FilesToPublish
) -> tuple[dict[tuple[str, str, str], SolverOutput], dict[str, list[SolverDocument]]]:
    """Each solver output as evidence (its provenance relative to its own folder): by
    ``(model, task, attempt)`` as the index records it, and each model's list."""
    evidence: dict[tuple[str, str, str], SolverOutput] = {}
    solver_outputs: dict[str, list[SolverDocument]] = {m: [] for m in prepared.params.models}
    for item, found in zip(prepared.records, prepared.outputs, strict=True):
        relative = solver_output_path(Path(EVIDENCE) / item.model, item.task, item.attempt)
        output = SolverDocument(found)  # a copy: the relative provenance is its own
        output.set_provenance(relative_provenance(found.provenance, (folder / relative).parent))
        data = out.settle(relative.as_posix(), dumps_json(output.data).encode("utf-8"))
        evidence[(item.model, item.task, item.attempt)] = SolverOutput(
            relative, sha256_bytes(data), output.data
        )
        solver_outputs[item.model].append(output)
    return evidence, solver_outputs


def _model_outputs(
    out: _FilesToPublish,
    model: str,
    score: IndexDocument,
    index_name: str,
    folder: Path,
    same: bool,
) -> None:
    """What a model's pages read: the model alone, its index and its intervals (with
    ``same`` tools, kept from before without computing them when its index kept its bytes)."""
    where = f"{MODELS}/{model}"
    provenance = model_index_provenance(f"../../{index_name}", model, PRODUCER)
    alone = score.for_model(model, provenance)
    alone_index = out.settle(f"{where}/{MODEL_INDEX}", dumps_json(alone.data).encode("utf-8"))
    kept_stats = _kept_stats(out.previous, where, alone_index) if same else None
    if kept_stats is not None:
        out.keep(f"{where}/{MODEL_STATS}", kept_stats)
        return
    alone_stats = _stats(alone_index, folder / where / MODEL_INDEX, alone, PRODUCER)
    out.settle(f"{where}/{MODEL_STATS}", b"".join(alone_stats.json_chunks()))


def _kept_stats(previous: Path | None, where: str, index: bytes) -> bytes | None:
    """The published intervals of a model whose own index did not change (they are
    ``tcsexam stats`` of those same bytes, by the same kit and environment)."""
    if previous is None:
        return None
    try:
        old_index = (previous / where / MODEL_INDEX).read_bytes()
        old_stats = (previous / where / MODEL_STATS).read_bytes()
    except OSError:
        return None
    digest = sha256_bytes(index).encode("ascii")
    if old_index != index or b'"index_sha256": "' + digest + b'"' not in old_stats:
        return None
    return old_stats


def _stats(index: bytes, path: Path, score: IndexDocument, producer: str) -> ComputedStats:
    """``tcsexam stats`` (its defaults) of the index published as ``index`` at ``path``."""
    digest = sha256_bytes(index)
    stats = compute_stats(score.data, source=str(path), sha256=digest)
    provenance = stats_provenance(  # verify recomputes it from the index beside it
        path.resolve(),
        digest,
        score.reference_id,
        resamples=stats.head.resamples,
        seed=stats.head.seed,
        level=stats.head.level,
        producer=producer,
    )
    stats.set_provenance(relative_provenance(provenance, path.parent))
    return stats
