"""A run set's ``run-set.json``: its typed document and its tables for notebooks.

Its shape is declared once (the published schema is generated from it); :mod:`.runsets`
writes it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from ..documents import Doc, Interval, Record, field, frame
from ..environment import Environment
from ..jsonio import read_json
from ..scoring.index_document import Status
from ..vocab import LETTERS, LETTERS_TEXT

#: The run set's document in its published folder: what the landing page shows of a run
#: set, written last into its folder.
MANIFEST = "run-set.json"
#: ``kind`` of a manifest (tells the kit's run-set folders from any other folder).
MANIFEST_KIND = "tcsexam report run set"

if TYPE_CHECKING:  # pragma: no cover - annotations only
    import pandas as pd

SCHEMA = "run-set"


class NotebookFiles(Record):
    """One notebook page of a run set: whether it ran, its error, its files."""

    SCHEMA = (SCHEMA, "/$defs/notebook")
    name: str = field()
    ok: Annotated[bool | None, Doc("null while the run that renders the page is under way")] = (
        field()
    )
    error: str | None = field()
    executed: str | None = field()
    html: str | None = field()


class SummaryModel(Record):
    """What the landing page shows of a model: status, index (points), track means."""

    SCHEMA = (SCHEMA, "/$defs/summary_model")
    status: Status = field()
    index: float | None = field()
    track_means: dict[str, float | None] = field()
    index_ci_half_width: Annotated[float | None, Doc("points (with tcsexam stats)")] = field(
        default=None
    )
    index_ci: Annotated[
        Interval | None,
        Doc(
            "the index interval [low, high] in points (with tcsexam stats; null without an "
            "index, or in a run set written before it was kept)",
        ),
    ] = field(default=None)
    rank: Annotated[int | None, Doc("1 = best; null without an index (with tcsexam stats)")] = (
        field(default=None)
    )
    could_be_first: Annotated[
        bool, Doc("no model shown to be ahead of it (with tcsexam stats)")
    ] = field(default=False)


class RunSetSummary(Record):
    """A run set's models as the landing page and other cohort reports compare them."""

    SCHEMA = (SCHEMA, "/$defs/summary")
    suite: str = field()
    solver_protocol: str = field()
    results: dict[str, SummaryModel] = field(SummaryModel, shape="dict", key="models")
    level: Annotated[float | None, Doc("the level of the index intervals (with tcsexam stats)")] = (
        field(default=None)
    )
    leader_group: Annotated[
        list[str] | None,
        Doc(
            "the models that could be first, in rank order (with tcsexam stats; null in a run "
            "set written before it was kept: then each model's could_be_first says it)"
        ),
    ] = field(default=None)
    pairs_untested: Annotated[
        str | None, Doc("why no pair could be tested (tcsexam stats' pairs_untested), or null")
    ] = None
    notes: Annotated[
        list[str] | None,
        Doc(
            "the notes of tcsexam stats that qualify the lead (no pair can reach Holm's first step)"
        ),
    ] = None


class ComparedModel(Record):
    """One model in two run sets: both indexes, their difference paired over the common
    tasks with its interval, the differences of the track means, both statuses."""

    SCHEMA = (SCHEMA, "/$defs/compared_model")
    model: str = field()
    index: Annotated[float | None, Doc("this run set's index (points; null without one)")] = field()
    other_index: Annotated[
        float | None, Doc("the other run set's index (points; null without one)")
    ] = field()
    delta_index: Annotated[float | None, Doc("index − other index (points)")] = field()
    delta_common_tasks: Annotated[
        float | None,
        Doc(
            "the difference with both indexes computed on the common tasks (points; the "
            "published indexes when both hold the same tasks)"
        ),
    ] = field()
    ci: Annotated[
        Interval | None,
        Doc(
            "the interval of delta_common_tasks at the comparison's level, paired over the "
            "common tasks; null without both indexes or a common task in every track",
        ),
    ] = field()
    p_value: Annotated[
        float | None,
        Doc("two-sided p-value of the paired test (no adjustment across the models)"),
    ] = field()
    n_common_tasks: Annotated[int | None, Doc("tasks with a mean in both run sets")] = field()
    track_deltas: Annotated[
        dict[str, float | None],
        Doc(f"this run set's track means minus the other's, by letter ({LETTERS_TEXT})"),
    ] = field()
    status: Status = field()
    other_status: Status = field()


class RunSetComparison(Record):
    """This run set beside another with models in common: the other solver protocol
    (``by`` protocol, same suite) or another suite (``by`` suite, same protocol)."""

    SCHEMA = (SCHEMA, "/$defs/comparison")
    run_set: Annotated[str, Doc("the other run set's name")] = field()
    by: Annotated[
        Literal["protocol", "suite"],
        Doc("what the two run sets differ by (the other field is the same)"),
    ] = field()
    this: Annotated[str, Doc("this run set's value of that field")] = field()
    other: Annotated[str, Doc("the other run set's value of that field")] = field()
    same_tasks: Annotated[
        bool, Doc("true when every model in both holds the same tasks in both")
    ] = field()
    level: Annotated[
        float, Doc("the level of the intervals (the run set's tcsexam stats level)", gt=0, lt=1)
    ] = field()
    models: list[ComparedModel] = field(ComparedModel)


class RunSetDocument(Record):
    """A published run set's ``run-set.json`` (``folder``: the folder it was read from).

    >>> summary = {"suite": "s", "solver_protocol": "offline", "models": {"m": {
    ...     "status": "complete", "index": 55.5, "track_means": {"P": 0.4, "S": 0.25,
    ...     "C": 1.2, "O": 0.0}}}}
    >>> document = RunSetDocument({"name": "s-offline", "summary": summary,
    ...     "cohort": None, "notebooks": {"m": [{"name": "index", "ok": True,
    ...     "error": None, "executed": "models/m/index.ipynb", "html": "models/m/index.html"}]}})
    >>> document.summary.results["m"].index
    55.5
    >>> document.models[["model", "index", "P"]].values.tolist()
    [['m', 55.5, 0.4]]
    >>> document.pages[["model", "notebook", "ok"]].values.tolist()
    [['m', 'index', True]]
    """

    __slots__ = ("folder",)

    SCHEMA = (SCHEMA, "")
    TITLE = "A published run set's run-set.json (tcsexam report)"
    DESCRIPTION = (
        "What the landing page shows of a run set and the comparisons its cohort report "
        "draws, written by the report runner into its folder; every path is relative to "
        "that folder. Generated from the kit's typed document "
        "tcsexam_lib.reports.run_set_document.RunSetDocument (make schemas)."
    )
    kind: Annotated[
        Literal["tcsexam report run set"], Doc("says the folder is a run set the kit wrote")
    ] = field()
    kit_version: str = field()
    name: Annotated[str, Doc("<suite>-<protocol>, the run set's folder")] = field()
    suite: str = field()
    protocol: Literal["online", "offline"] = field()
    description: str | None = field(default=None)
    simulated: bool = field(default=False)
    reference_id: str | None = field()
    metric_id: Annotated[str | None, Doc("the index metric's id")] = field(default=None)
    status: Status = field()
    index_json: Annotated[str, Doc("the index output")] = field()
    stats_json: Annotated[str | None, Doc("the tcsexam stats output, or null")] = field(
        default=None
    )
    attempts: Annotated[str, Doc("the attempts table with its blank solver scores filled")] = (
        field()
    )
    kernel_log: str = field()
    cohort: Annotated[NotebookFiles | None, Doc("the cohort report, or null")] = field(
        NotebookFiles, default=None
    )
    summary: RunSetSummary = field(RunSetSummary)
    notebooks: Annotated[dict[str, list[NotebookFiles]], Doc("each model's pages")] = field(
        NotebookFiles, shape="dict_of_lists"
    )
    comparisons: Annotated[
        list[RunSetComparison],
        Doc(
            "this run set beside each run set it is compared with (the other solver "
            "protocol, or another suite), computed by the runner and drawn by the cohort "
            "report; absent in a run set written before they were kept"
        ),
    ] = field(RunSetComparison, default=())
    environment: Annotated[
        Environment | None,
        Doc("the environment the run set was computed and rendered in (absent before it "
            "was recorded)"),
    ] = field(Environment, default=None)  # fmt: skip
    created_utc: str = field(default="")

    def __init__(self, data: dict[str, Any], folder: str = "") -> None:
        super().__init__(data)
        self.folder = folder

    @property
    def models(self) -> pd.DataFrame:
        """One row per model: status, index (points), its ± half-width, track means."""
        rows = [
            {
                "run_set": self.name,
                "model": model,
                "status": entry.status,
                "index": entry.index,
                "index_ci_half_width": entry.index_ci_half_width,
                **{letter: entry.track_means.get(letter) for letter in LETTERS},
            }
            for model, entry in self.summary.results.items()
        ]
        columns = ["run_set", "model", "status", "index", "index_ci_half_width", *LETTERS]
        return frame(rows, columns, index=["run_set", "model"])

    @property
    def pages(self) -> pd.DataFrame:
        """One row per notebook page (the cohort report's model is empty)."""
        pages = [(None, self.cohort)] if self.cohort is not None else []
        pages += [(model, nb) for model, nbs in self.notebooks.items() for nb in nbs]
        rows = [
            {"run_set": self.name, "model": model, "notebook": nb.name, "ok": nb.ok,
             "error": nb.error, "html": nb.html, "executed": nb.executed}
            for model, nb in pages
        ]  # fmt: skip
        columns = ["run_set", "model", "notebook", "ok", "error", "html", "executed"]
        return frame(rows, columns, index=["run_set", "model", "notebook"])


def load_run_set(path: str | Path) -> RunSetDocument:
    """Read a published run set's ``run-set.json`` (``path``: the file or its folder)."""
    path = Path(path)
    file = path / MANIFEST if path.is_dir() else path
    return RunSetDocument(read_json(file), folder=file.parent.name)
