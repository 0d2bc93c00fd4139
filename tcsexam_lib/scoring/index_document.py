"""The ``tcsexam score`` output: its typed document (the published
``references/schemas/index-output.schema.json`` is generated from it), its completion
(evidence, provenance) and its tidy tables for notebooks (``load_index(...).tasks``)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Annotated, Any, Literal

from ..documents import Doc, Record, field, frame
from ..errors import InputRefused, Problem
from ..jsonio import read_json
from ..vocab import LETTERS, LETTERS_TEXT, METRIC_ID, TRACKS, WEIGHTS_TEXT
from .issues import ISSUE_CODES

if TYPE_CHECKING:  # pragma: no cover - annotations only
    import pandas as pd

    from .evidence import EvidenceFindings

SCHEMA = "index-output"

STATUS_COMPLETE = "complete"
STATUS_PROVISIONAL = "provisional"
STATUS_INCOMPLETE = "incomplete"
STATUS_ORDER = (STATUS_COMPLETE, STATUS_PROVISIONAL, STATUS_INCOMPLETE)


Status = Literal["complete", "provisional", "incomplete"]
Count = Annotated[int, Doc(ge=0)]
Mean = Annotated[float | None, Doc("the track mean, or null")]


class AttemptRow(Record):
    """One attempts-table row as the index keeps it (further columns such as ``note`` too)."""

    SCHEMA = (SCHEMA, "/$defs/row")
    FURTHER = {"type": "string", "description": "a further column of the table, as written"}
    attempt: str
    line: Annotated[int, Doc("the CSV line the row ends on", ge=2)]
    adoption_status: Literal["selected", "selected_provisional", "excluded"]
    score_status: Literal["valid", "judge_failed", "not_finished", "missing"]
    score: Annotated[float | None, Doc("the score, or null when blank")]
    note: Annotated[str, Doc("why an attempt was excluded (an optional column)")] = None


class IssueRecord(Record):
    """One issue of a model (see :data:`~tcsexam_lib.scoring.issues.ISSUE_CODES`)."""

    SCHEMA = (SCHEMA, "/$defs/issue")
    code: Literal[tuple(ISSUE_CODES)]
    severity: Literal["error", "info", "warning"]
    model: str
    track: str
    item: str
    message: str
    attempt: str = None
    line: int = None
    planned: Annotated[int, Doc("missing_attempt: the attempts planned", ge=1)] = None
    adopted_valid: Annotated[int, Doc("missing_attempt: the valid ones adopted", ge=0)] = None
    evidence: Annotated[str, Doc("solver evidence: the solver-score output read")] = None
    table_score: Annotated[float | None, Doc("score mismatch: the attempts table's")] = None
    evidence_score: Annotated[float, Doc("score mismatch: the output's relative_score")] = None


class TaskResult(Record):
    """One planned task of a model: its status, adopted attempts, scores and mean."""

    SCHEMA = (SCHEMA, "/$defs/task")
    track: Literal[TRACKS]
    item: Annotated[str, Doc("a non-empty task id", min_length=1)]
    status: Status = None
    planned_attempts: Annotated[int, Doc(ge=1)] = None
    adopted_attempts: Annotated[
        list[str], Doc("attempt ids adopted (selected or selected_provisional)")
    ] = None
    adopted_valid_attempts: Annotated[list[str], Doc("attempt ids adopted with a valid score")] = (
        None
    )
    scores: list[Annotated[float, Doc("an attempt score (a JSON number)")]]
    mean: Annotated[float | None, Doc("the task mean, or null")]
    rows: Annotated[
        list[AttemptRow], Doc("every attempts-table row of the task, in file order")
    ] = None


class TrackResult(Record):
    """One track of a model: its mean, letter, weight and contribution (points)."""

    SCHEMA = (SCHEMA, "/$defs/track")
    letter: Literal[LETTERS] = None
    weight: Annotated[int, Doc("points")] = None
    mean: Mean
    contribution: Annotated[float | None, Doc("weight x mean (points), or null")] = None
    tasks_planned: Count = None
    tasks_complete: Count = None


class Coverage(Record):
    """Planned tasks and attempts of a model against those with an adopted valid score."""

    SCHEMA = (SCHEMA, "/$defs/coverage")
    tasks_planned: Count
    tasks_complete: Count
    attempts_planned: Count
    attempts_adopted_valid: Count
    rows: Count


class EvidenceSummary(Record):
    """A model's solver rows checked against their solver-score outputs."""

    SCHEMA = (SCHEMA, "/$defs/model_evidence")
    evidence_dir: str
    rows_checked: Count
    matched: Count = 0
    missing: Count = 0
    score_mismatch: Count = 0
    reference_mismatch: Count = 0


class EvidenceCheck(Record):
    """The solver evidence check of the whole index: its folder, and whether all agree."""

    SCHEMA = (SCHEMA, "/$defs/evidence_check")
    evidence_dir: str
    consistent: Annotated[
        bool, Doc("true when no solver row disagrees with its solver-score output")
    ]


class ModelResult(Record):
    """One model: status, index (points, ``None`` when incomplete), tracks and tasks."""

    SCHEMA = (SCHEMA, "/$defs/model")
    status: Status
    index: Annotated[float | None, Doc("index points, or null when incomplete")]
    tracks: Annotated[dict[str, TrackResult], Doc(keys=TRACKS)]
    track_means: Annotated[
        dict[str, float | None],
        Doc(f"the track means by letter ({LETTERS_TEXT}), null when incomplete"),
    ] = None
    tasks: Annotated[list[TaskResult], Doc(min_length=1)]
    coverage: Coverage = None
    issues: list[IssueRecord] = None
    solver_evidence: EvidenceSummary = None

    @property
    def blocking_issues(self) -> list[IssueRecord]:
        """The issues of severity ``error``."""
        return [issue for issue in self.issues if issue.severity == "error"]

    def task_means(self) -> dict[str, dict[str, float | None]]:
        """The task means by track (``{track: {item: mean}}``), for a paired comparison.

        >>> ModelResult({"tasks": [{"track": "solver", "item": "x", "mean": 0.5}]}).task_means()
        {'solver': {'x': 0.5}}
        """
        out: dict[str, dict[str, float | None]] = {}
        for task in self.tasks:
            out.setdefault(task.track, {})[task.item] = task.mean
        return out


class IndexDocument(Record):
    """A ``tcsexam score`` output: the index of every model, by attribute (``.data``: the
    JSON); tables :attr:`models`, :attr:`tracks`, :attr:`tasks`, :attr:`attempts`, :attr:`issues`.

    >>> from tcsexam_lib.teaching import score_tiny_cohort
    >>> document = score_tiny_cohort({"m": {}}).result  # the seed's worked example
    >>> document.status, document.results["m"].index, document.results["m"].tracks["theorem"].mean
    ('complete', 55.5, 0.4)
    >>> document.tasks.query("track == 'theorem'")[["model", "task", "mean"]].values.tolist()[:2]
    [['m', 'thm-1', 1.0], ['m', 'thm-2', 1.0]]
    """

    SCHEMA = (SCHEMA, "")
    TITLE = "TCSExam index output (tcsexam score)"
    DESCRIPTION = (
        "Everything tcsexam score writes (the report runner's index JSON too): the kit's "
        "typed document tcsexam_lib.scoring.index_document.IndexDocument, from which this "
        "schema is generated (make schemas). Further fields are allowed and ignored by "
        "readers. tcsexam stats reads this output and also checks that the numbers agree: "
        "each task mean is the mean of its scores, each track mean the mean of its task "
        "means, the index the weighted sum of the track means, and a model has an index "
        "exactly when it is not incomplete."
    )
    metric_id: Annotated[str, Doc(f"the metric id of the kit ({METRIC_ID})")]
    suite: str = None
    solver_protocol: str = None
    reference_id: str | None = None
    weights: Annotated[
        dict[str, int], Doc(f"the weight (points) of each track: {WEIGHTS_TEXT}")
    ] = None
    letters: Annotated[dict[str, str], Doc(f"the letter of each track: {LETTERS_TEXT}")] = None
    adoption_rule: Annotated[str | None, Doc("the cohort's declared adoption rule, or null")] = None
    status: Annotated[Status, Doc("the worst status of the models")] = None
    results: Annotated[dict[str, ModelResult], Doc(min_length=1)] = field(key="models")
    simulated: bool = False
    solver_evidence: EvidenceCheck = None
    provenance: Annotated[
        dict[str, Any],
        Doc("how the output was computed (references/schemas/provenance.schema.json)"),
    ] = None

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
        """Add the evidence check's summaries (an empty one for a model without a checked
        row) and its verdict; its issues are already the models'."""
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
        """One row per model: status, index (points), track means, coverage, blocking issues.

        >>> from tcsexam_lib.teaching import score_tiny_cohort
        >>> cohort = score_tiny_cohort({"a": {}, "b": {"thm-1": [1, 1]}}, {"b": {"default": 1,
        ...     "thm-1": 3}})
        >>> cohort.result.models[["model", "status", "index", "P"]].values.tolist()
        [['a', 'complete', 55.5, 0.4], ['b', 'incomplete', nan, nan]]
        """
        rows = [
            {
                "model": model,
                "status": entry.status,
                "index": entry.index,
                **{letter: entry.track_means[letter] for letter in LETTERS},
                **{name: entry.coverage.data[name] for name in _COVERAGE_COLUMNS},
                "blocking_issues": len(entry.blocking_issues),
            }
            for model, entry in self.results.items()
        ]
        columns = ["model", "status", "index", *LETTERS, *_COVERAGE_COLUMNS, "blocking_issues"]
        return frame(rows, columns, index=["model"])

    @property
    def tracks(self) -> pd.DataFrame:
        """One row per model and track: letter, weight, mean, contribution (points).

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
        """One row per attempts-table row, with model, track and task (file order per task;
        further columns as written).

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

        >>> from tcsexam_lib.teaching import status_walkthrough
        >>> issues = status_walkthrough().result.issues
        >>> issues.groupby("model")["code"].apply(sorted).to_dict()["walk-incomplete"]
        ['adopted_not_valid', 'missing_attempt', 'missing_attempt']
        """
        rows = [issue.data for entry in self.results.values() for issue in entry.issues]
        columns = ["model", "severity", "code", "track", "task", "attempt", "line", "message"]
        named = {"task": "item"}  # the JSON's name of a task (the attempts table's column)
        return frame([{c: row.get(named.get(c, c)) for c in columns} for row in rows], columns)


class ComputedIndex(IndexDocument):
    """An index computed in this process: its numbers agree by construction, so ``tcsexam
    stats`` in the same process takes it without checking it again."""

    __slots__ = ()


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
