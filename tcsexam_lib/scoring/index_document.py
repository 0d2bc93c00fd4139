"""The ``tcsexam score`` output: its typed document, how it is assembled, its tables.

:class:`IndexDocument` and the records under it (:class:`ModelResult`,
:class:`TrackResult`, :class:`TaskResult`, :class:`AttemptRow`, :class:`IssueRecord`,
:class:`Coverage`, the evidence summaries) declare the output's shape once, checked
against ``references/schemas/index-output.schema.json`` by a test. This is the one module
that writes the document's keys: :func:`task_result` and :func:`assemble_index` build it
from what :mod:`.index` computed, :meth:`IndexDocument.attach_evidence` and
:meth:`IndexDocument.set_provenance` complete it; every other module reads it by
attribute.

For notebooks, the document's tables (pandas, imported only when asked for) are tidy:
:attr:`IndexDocument.models` one row per model, :attr:`~IndexDocument.tracks` per model
and track, :attr:`~IndexDocument.tasks` per model and task, :attr:`~IndexDocument.attempts`
per attempt row, :attr:`~IndexDocument.issues` per issue; an analysis starts from
``load_index("index.json").tasks``.
"""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Any

from ..documents import Record, field, frame
from ..errors import InputRefused, Problem
from ..formulas import combine_track_means, mean_score, track_contribution
from ..jsonio import read_json
from ..vocab import METRIC_ID, TRACK_LETTERS, TRACK_WEIGHTS, TRACKS

if TYPE_CHECKING:  # pragma: no cover - annotations only
    import pandas as pd

    from .evidence import EvidenceFindings

SCHEMA = "index-output"

STATUS_COMPLETE = "complete"
STATUS_PROVISIONAL = "provisional"
STATUS_INCOMPLETE = "incomplete"
_STATUS_ORDER = (STATUS_COMPLETE, STATUS_PROVISIONAL, STATUS_INCOMPLETE)


class AttemptRow(Record):
    """One attempts-table row as the index keeps it (further columns such as ``note`` too)."""

    SCHEMA = (SCHEMA, "/$defs/row")
    attempt: str = field()
    line: int = field()
    adoption_status: str = field()
    score_status: str = field()
    score: float | None = field()
    note: str | None = field(default=None)


class IssueRecord(Record):
    """One issue of a model (see :data:`~tcsexam_lib.scoring.issues.ISSUE_CODES`)."""

    SCHEMA = (SCHEMA, "/$defs/issue")
    code: str = field()
    severity: str = field()
    model: str = field()
    track: str = field()
    item: str = field()
    message: str = field()
    attempt: str | None = field(default=None)
    line: int | None = field(default=None)


class TaskResult(Record):
    """One planned task of a model: its status, adopted attempts, scores and mean."""

    SCHEMA = (SCHEMA, "/$defs/task")
    track: str = field()
    item: str = field()
    status: str = field()
    planned_attempts: int = field()
    adopted_attempts: list[str] = field()
    adopted_valid_attempts: list[str] = field()
    scores: list[float] = field()
    mean: float | None = field()
    rows: list[AttemptRow] = field(AttemptRow, shape="list")


class TrackResult(Record):
    """One track of a model: its mean, letter, weight and contribution (points)."""

    SCHEMA = (SCHEMA, "/$defs/track")
    letter: str = field()
    weight: int = field()
    mean: float | None = field()
    contribution: float | None = field()
    tasks_planned: int = field()
    tasks_complete: int = field()


class Coverage(Record):
    """Planned tasks and attempts of a model against those with an adopted valid score."""

    SCHEMA = (SCHEMA, "/$defs/coverage")
    tasks_planned: int = field()
    tasks_complete: int = field()
    attempts_planned: int = field()
    attempts_adopted_valid: int = field()
    rows: int = field()


class EvidenceSummary(Record):
    """A model's solver rows checked against their solver-score outputs."""

    SCHEMA = (SCHEMA, "/$defs/model_evidence")
    evidence_dir: str = field()
    rows_checked: int = field()
    matched: int = field(default=0)
    missing: int = field(default=0)
    score_mismatch: int = field(default=0)
    reference_mismatch: int = field(default=0)


class EvidenceCheck(Record):
    """The solver evidence check of the whole index: its folder, and whether all agree."""

    SCHEMA = (SCHEMA, "/$defs/evidence_check")
    evidence_dir: str = field()
    consistent: bool = field()


class ModelResult(Record):
    """One model: status, index (points, ``None`` when incomplete), tracks and tasks."""

    SCHEMA = (SCHEMA, "/$defs/model")
    status: str = field()
    index: float | None = field()
    tracks: dict[str, TrackResult] = field(TrackResult, shape="dict")
    track_means: dict[str, float | None] = field()
    tasks: list[TaskResult] = field(TaskResult, shape="list")
    coverage: Coverage = field(Coverage)
    issues: list[IssueRecord] = field(IssueRecord, shape="list")
    solver_evidence: EvidenceSummary | None = field(EvidenceSummary, default=None)

    @property
    def blocking_issues(self) -> list[IssueRecord]:
        """The issues of severity ``error``."""
        return [issue for issue in self.issues if issue.severity == "error"]

    def task_means(self) -> dict[str, dict[str, float | None]]:
        """The task means by track (``{track: {item: mean}}``): what a paired comparison of
        two run sets needs.

        Examples
        --------
        >>> ModelResult({"tasks": [{"track": "solver", "item": "x", "mean": 0.5}]}).task_means()
        {'solver': {'x': 0.5}}
        """
        out: dict[str, dict[str, float | None]] = {}
        for task in self.tasks:
            out.setdefault(task.track, {})[task.item] = task.mean
        return out


class IndexDocument(Record):
    """A ``tcsexam score`` output: the index of every model of a cohort.

    Fields read by attribute (``document.status``, ``document.results["m"].index``), the
    JSON as ``document.data``; tables for notebooks as :attr:`models`, :attr:`tracks`,
    :attr:`tasks`, :attr:`attempts` and :attr:`issues`.

    Examples
    --------
    >>> from tcsexam_lib.teaching import score_tiny_cohort
    >>> document = score_tiny_cohort({"m": {}}).result  # the seed's worked example
    >>> document.status, document.results["m"].index, document.results["m"].tracks["theorem"].mean
    ('complete', 55.5, 0.4)
    >>> document.tasks.query("track == 'theorem'")[["model", "task", "mean"]].values.tolist()[:2]
    [['m', 'thm-1', 1.0], ['m', 'thm-2', 1.0]]
    """

    SCHEMA = (SCHEMA, "")
    metric_id: str = field()
    suite: str = field()
    solver_protocol: str = field()
    reference_id: str | None = field()
    weights: dict[str, int] = field()
    letters: dict[str, str] = field()
    adoption_rule: str | None = field()
    status: str = field()
    results: dict[str, ModelResult] = field(ModelResult, shape="dict", key="models")
    simulated: bool = field(default=False)
    solver_evidence: EvidenceCheck | None = field(EvidenceCheck, default=None)
    provenance: dict[str, Any] | None = field(default=None)

    def result(self, model: str) -> ModelResult:
        """One model's result; refused (naming the models there are) when it has none."""
        found = self.data["models"].get(model)
        if found is None:
            allowed = ", ".join(self.data["models"])
            problem = Problem("index output", field="model", value=model, allowed=allowed)
            raise InputRefused("Model not in the index output", [problem])
        return ModelResult(found)

    # --- completing the document (this module writes its keys) ---------------------------

    def mark_simulated(self) -> None:
        """Say that the inputs are simulated (demo) data: not TCSExam results."""
        self.data["simulated"] = True

    def attach_evidence(self, findings: EvidenceFindings) -> None:
        """Add the solver evidence check's summaries, one per model, and its verdict.

        ``findings`` is :func:`~tcsexam_lib.scoring.evidence.check_solver_evidence`'s
        result; its issues are already the models' (the index was computed with them). A
        model without a checked row gets an empty summary.
        """
        folder = findings.evidence_dir
        for model, entry in self.data["models"].items():
            empty = {"evidence_dir": folder, "rows_checked": 0}
            entry["solver_evidence"] = findings.summaries.get(model) or empty
        self.data["solver_evidence"] = {
            "evidence_dir": folder,
            "consistent": findings.consistent,
        }

    def set_provenance(self, provenance: dict[str, Any]) -> None:
        """The provenance block (it closes the document)."""
        self.data["provenance"] = provenance

    def for_model(self, model: str, provenance: dict[str, Any]) -> IndexDocument:
        """``model`` alone: its entry as here, its status and evidence verdict (its pages read it).

        >>> IndexDocument({"models": {"a": {"status": "complete"}}}).for_model("a", {}).status
        'complete'
        """
        entry = self.result(model)
        data = {k: v for k, v in self.data.items() if k not in ("models", "provenance")}
        data.update(status=entry.status, models={model: entry.data}, provenance=provenance)
        if self.solver_evidence is not None:  # the model's own verdict
            agree = not any(i.code.startswith("solver_evidence_") for i in entry.issues)
            data["solver_evidence"] = {**self.solver_evidence, "consistent": agree}
        return IndexDocument(data)

    def drop_provenance(self) -> None:
        """Leave the provenance block out (a document computed in a folder now gone)."""
        self.data.pop("provenance", None)

    # --- tables for notebooks -------------------------------------------------------------

    @property
    def models(self) -> pd.DataFrame:
        """One row per model: status, index (points), P, S, C, O, coverage, blocking issues.

        Examples
        --------
        >>> from tcsexam_lib.teaching import score_tiny_cohort
        >>> cohort = score_tiny_cohort({"a": {}, "b": {"thm-1": [1, 1]}}, {"b": {"default": 1,
        ...     "thm-1": 3}})
        >>> cohort.result.models[["model", "status", "index", "P"]].values.tolist()
        [['a', 'complete', 55.5, 0.4], ['b', 'incomplete', nan, nan]]
        """
        letters = [TRACK_LETTERS[t] for t in TRACKS]
        rows = [
            {
                "model": model,
                "status": entry.status,
                "index": entry.index,
                **{letter: entry.track_means[letter] for letter in letters},
                **{name: entry.coverage.data[name] for name in _COVERAGE_COLUMNS},
                "blocking_issues": len(entry.blocking_issues),
            }
            for model, entry in self.results.items()
        ]
        columns = ["model", "status", "index", *letters, *_COVERAGE_COLUMNS, "blocking_issues"]
        return frame(rows, columns, index=["model"])

    @property
    def tracks(self) -> pd.DataFrame:
        """One row per model and track: letter, weight, mean, contribution (points).

        Examples
        --------
        >>> from tcsexam_lib.teaching import score_tiny_cohort
        >>> tracks = score_tiny_cohort({"m": {}}).result.tracks
        >>> tracks[["track", "letter", "mean", "contribution"]].values.tolist()[:2]
        [['theorem', 'P', 0.4, 12.0], ['solver', 'S', 0.25, 7.5]]
        """
        rows = [
            {"model": model, "track": track, **info.data}
            for model, entry in self.results.items()
            for track, info in entry.tracks.items()
        ]
        return frame(rows, ["model", "track", *TrackResult.fields()], index=["model", "track"])

    @property
    def tasks(self) -> pd.DataFrame:
        """One row per model and task: status, planned and adopted attempts, mean."""
        rows = [
            {
                "model": model,
                "track": task.track,
                "task": task.item,
                "status": task.status,
                "planned_attempts": task.planned_attempts,
                "adopted_attempts": len(task.adopted_attempts),
                "adopted_valid_attempts": len(task.adopted_valid_attempts),
                "mean": task.mean,
            }
            for model, entry in self.results.items()
            for task in entry.tasks
        ]
        columns = ["model", "track", "task", "status", "planned_attempts", "adopted_attempts",
                   "adopted_valid_attempts", "mean"]  # fmt: skip
        return frame(rows, columns, index=["model", "track", "task"])

    @property
    def attempts(self) -> pd.DataFrame:
        """One row per attempts-table row, with its model, track and task (the table's
        ``item``; file order per task; further columns such as ``note`` as they were
        written).

        Examples
        --------
        >>> from tcsexam_lib.teaching import Attempt, score_tiny_cohort
        >>> cohort = score_tiny_cohort({"m": {"thm-1": [Attempt(1, "excluded", "valid",
        ...     "rerun"), Attempt(0)]}})
        >>> cohort.result.attempts.query("task == 'thm-1'")[
        ...     ["attempt", "adoption_status", "score", "note"]].values.tolist()
        [['1', 'excluded', 1.0, 'rerun'], ['2', 'selected', 0.0, '']]
        """
        rows = [
            {"model": model, "track": task.track, "task": task.item, **row.data}
            for model, entry in self.results.items()
            for task in entry.tasks
            for row in task.rows
        ]
        columns = ["model", "track", "task", *AttemptRow.fields()]
        return frame(rows, columns, index=["model", "track", "task", "attempt"], further=True)

    @property
    def issues(self) -> pd.DataFrame:
        """One row per issue: model, severity, code, track, task, attempt, line, message.

        Examples
        --------
        >>> from tcsexam_lib.teaching import status_walkthrough
        >>> issues = status_walkthrough().result.issues
        >>> issues.groupby("model")["code"].apply(sorted).to_dict()["walk-incomplete"]
        ['adopted_not_valid', 'missing_attempt', 'missing_attempt']
        """
        rows = [issue.data for entry in self.results.values() for issue in entry.issues]
        columns = ["model", "severity", "code", "track", "task", "attempt", "line", "message"]
        named = {"task": "item"}  # the JSON's name of a task (the attempts table's column)
        return frame([{c: row.get(named.get(c, c)) for c in columns} for row in rows], columns)


def as_index_document(result: IndexDocument | dict[str, Any]) -> IndexDocument:
    """An index output as a document (its parsed JSON is wrapped, not copied)."""
    return result if isinstance(result, IndexDocument) else IndexDocument(result)


def as_model_result(entry: ModelResult | dict[str, Any]) -> ModelResult:
    """A model's result as a record (its parsed JSON is wrapped, not copied)."""
    return entry if isinstance(entry, ModelResult) else ModelResult(entry)


_COVERAGE_COLUMNS = ("tasks_planned", "tasks_complete", "attempts_planned",
                     "attempts_adopted_valid")  # fmt: skip


def load_index(path: str | os.PathLike[str]) -> IndexDocument:
    """Read a ``tcsexam score`` output (strict JSON) as an :class:`IndexDocument`.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from tcsexam_lib.jsonio import write_json_atomic
    >>> from tcsexam_lib.teaching import score_tiny_cohort
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "index.json"
    >>> _ = write_json_atomic(path, score_tiny_cohort({"m": {}}).result.data)
    >>> tasks = load_index(path).tasks
    >>> len(tasks), tasks.loc[0, "task"], float(tasks.loc[0, "mean"])
    (9, 'thm-1', 1.0)
    """
    data = read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("models"), dict):
        allowed = "an output of tcsexam score (or the report runner's index JSON)"
        problem = Problem(str(path), field="models", detail="no models here", allowed=allowed)
        raise InputRefused("Not an index output", [problem])
    return IndexDocument(data)


# --- assembling the document from what the index computed --------------------------------


def worst_status(statuses: set[str]) -> str:
    """The status of a whole made of parts with these statuses (incomplete beats provisional)."""
    return max(statuses, key=_STATUS_ORDER.index)


def task_result(
    key: tuple[str, str, str],
    status: str,
    planned: int,
    adopted: list[str],
    valid: list[str],
    scores: list[float],
    rows: list[dict[str, Any]],
) -> dict[str, Any]:
    """One task of the index output: its mean when every planned attempt is there."""
    return {
        "track": key[1],
        "item": key[2],
        "status": status,
        "planned_attempts": planned,
        "adopted_attempts": adopted,
        "adopted_valid_attempts": valid,
        "scores": scores,
        "mean": None if status == STATUS_INCOMPLETE else mean_score(scores),
        "rows": rows,
    }


def model_result(
    model: str, tasks: list[dict[str, Any]], issues: list[dict[str, Any]]
) -> dict[str, Any]:
    """One model of the index output from its tasks (see :func:`task_result`) and issues."""
    by_track: dict[str, list[dict[str, Any]]] = {track: [] for track in TRACKS}
    for task in tasks:
        by_track[task["track"]].append(task)
    tracks = {}
    for track, in_track in by_track.items():
        means = [t["mean"] for t in in_track if t["mean"] is not None]
        mean = mean_score(means) if len(means) == len(in_track) else None
        tracks[track] = {
            "letter": TRACK_LETTERS[track],
            "weight": TRACK_WEIGHTS[track],
            "mean": mean,
            "contribution": None if mean is None else track_contribution(track, mean),
            "tasks_planned": len(in_track),
            "tasks_complete": len(means),
        }
    status = worst_status({t["status"] for t in tasks})
    index = None
    if status != STATUS_INCOMPLETE:
        index = combine_track_means({t: tracks[t]["mean"] for t in TRACKS})
    sums = [index, *(t["mean"] for t in tasks), *(t["contribution"] for t in tracks.values())]
    if not all(math.isfinite(value) for value in sums if value is not None):
        _refuse_overflow(model, tracks)
    coverage = {
        "tasks_planned": len(tasks),
        "tasks_complete": sum(t["mean"] is not None for t in tasks),
        "attempts_planned": sum(t["planned_attempts"] for t in tasks),
        "attempts_adopted_valid": sum(len(t["adopted_valid_attempts"]) for t in tasks),
        "rows": sum(len(t["rows"]) for t in tasks),
    }
    return {
        "status": status,
        "index": index,
        "tracks": tracks,
        "track_means": {TRACK_LETTERS[t]: tracks[t]["mean"] for t in TRACKS},
        "tasks": tasks,
        "coverage": coverage,
        "issues": issues,
    }


def _refuse_overflow(model: str, tracks: dict[str, dict[str, Any]]) -> None:
    """Raw rewards so large that the weighted sum of the means is not a float."""
    means = {track: entry["mean"] for track, entry in tracks.items()}
    problem = Problem(
        f"model '{model}'",
        field="track means",
        value=means,
        detail="a mean or the index (30*P + 30*S + 30*C + 10*O) overflows a float",
        allowed="scores whose weighted means sum to a float (construction rewards below "
        "about 1e306)",
    )
    raise InputRefused("Cannot compute the index", [problem])


def assemble_index(
    models: dict[str, dict[str, Any]],
    *,
    suite: str,
    solver_protocol: str,
    reference_id: str,
    adoption_rule: str | None,
) -> IndexDocument:
    """The index document of a cohort's models (see :func:`model_result`)."""
    return IndexDocument(
        {
            "metric_id": METRIC_ID,
            "suite": suite,
            "solver_protocol": solver_protocol,
            "reference_id": reference_id,
            "weights": dict(TRACK_WEIGHTS),
            "letters": dict(TRACK_LETTERS),
            "adoption_rule": adoption_rule,
            "status": worst_status({m["status"] for m in models.values()}),
            "models": models,
        }
    )
