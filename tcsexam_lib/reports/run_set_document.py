"""A run set's ``run-set.json``: its typed document, how it is assembled, its tables.

The report runner writes ``run-set.json`` into every run set it publishes: what the
landing page shows (the run set's files, each model's status, index and track means,
each notebook page and whether it ran) and the comparisons with other run sets that
the cohort report draws. :class:`RunSetDocument` with :class:`RunSetSummary`,
:class:`SummaryModel`, :class:`NotebookFiles`, :class:`RunSetComparison` and
:class:`ComparedModel` declares its shape once, checked against
``references/schemas/run-set.schema.json`` by a test; :mod:`.runsets` writes it
(``summary`` and ``manifest``; the comparisons come from :mod:`.comparisons`).
For notebooks: :attr:`RunSetDocument.models` (one row per model) and
:attr:`RunSetDocument.pages` (one row per notebook page).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..documents import Record, field, frame
from ..environment import Environment
from ..jsonio import read_json
from ..vocab import TRACK_LETTERS, TRACKS

if TYPE_CHECKING:  # pragma: no cover - annotations only
    import pandas as pd

SCHEMA = "run-set"


class NotebookFiles(Record):
    """One notebook page of a run set: whether it ran, its error, its files."""

    SCHEMA = (SCHEMA, "/$defs/notebook")
    name: str = field()
    #: ``None`` while the run that renders it is under way (the planned pages)
    ok: bool | None = field()
    error: str | None = field()
    executed: str | None = field()
    html: str | None = field()


class SummaryModel(Record):
    """What the landing page shows of a model: status, index (points), P, S, C, O."""

    SCHEMA = (SCHEMA, "/$defs/summary_model")
    status: str = field()
    index: float | None = field()
    track_means: dict[str, float | None] = field()
    index_ci_half_width: float | None = field(default=None)
    #: the index interval [low, high] (points); ``None`` in a run set written before it was kept
    index_ci: list[float] | None = field(default=None)
    #: 1 = best (null without an index); with the run set's ``tcsexam stats`` document
    rank: int | None = field(default=None)
    #: no model significantly ahead of it (false without an index)
    could_be_first: bool = field(default=False)


class RunSetSummary(Record):
    """A run set's models as the landing page and other cohort reports compare them."""

    SCHEMA = (SCHEMA, "/$defs/summary")
    suite: str = field()
    solver_protocol: str = field()
    results: dict[str, SummaryModel] = field(SummaryModel, shape="dict", key="models")
    level: float | None = field(default=None)
    #: ``None`` in a run set written before the leader group was kept (then each model's
    #: ``could_be_first`` says it)
    leader_group: list[str] | None = field(default=None)


class ComparedModel(Record):
    """One model in two run sets: both indexes, their difference paired over the common
    tasks with its interval, the differences of the track means, both statuses."""

    SCHEMA = (SCHEMA, "/$defs/compared_model")
    model: str = field()
    #: this run set's index and the other's (points; null without one)
    index: float | None = field()
    other_index: float | None = field()
    #: index − other index (points)
    delta_index: float | None = field()
    #: the difference with both indexes computed on the common tasks (points); equal to
    #: ``delta_index`` when both run sets hold the same tasks
    delta_common_tasks: float | None = field()
    #: the interval of ``delta_common_tasks`` at the comparison's level, paired over the
    #: common tasks (the kit's paired test); null when a track has fewer than two
    ci: list[float] | None = field()
    p_value: float | None = field()
    n_common_tasks: int | None = field()
    #: this run set's track means minus the other's, by letter (P, S, C, O)
    track_deltas: dict[str, float | None] = field()
    status: str = field()
    other_status: str = field()


class RunSetComparison(Record):
    """This run set beside another with models in common: the other solver protocol
    (``by`` protocol, same suite) or another suite (``by`` suite, same protocol)."""

    SCHEMA = (SCHEMA, "/$defs/comparison")
    run_set: str = field()
    by: str = field()
    #: the value of the field the two run sets differ by, this one's and the other's
    this: str = field()
    other: str = field()
    #: true when every model common to both holds the same tasks in both
    same_tasks: bool = field()
    level: float = field()
    models: list[ComparedModel] = field(ComparedModel)


class RunSetDocument(Record):
    """A published run set's ``run-set.json`` (``folder``: the folder it was read from).

    Examples
    --------
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
    kind: str = field()
    kit_version: str = field()
    name: str = field()
    suite: str = field()
    protocol: str = field()
    description: str | None = field(default=None)
    simulated: bool = field(default=False)
    reference_id: str | None = field()
    metric_id: str | None = field(default=None)
    status: str = field()
    index_json: str = field()
    stats_json: str | None = field(default=None)
    attempts: str = field()
    kernel_log: str = field()
    cohort: NotebookFiles | None = field(NotebookFiles, default=None)
    summary: RunSetSummary = field(RunSetSummary)
    notebooks: dict[str, list[NotebookFiles]] = field(NotebookFiles, shape="dict_of_lists")
    #: this run set beside each run set it is compared with (computed by the runner, drawn
    #: by the cohort report; empty in a run set written before they were kept)
    comparisons: list[RunSetComparison] = field(RunSetComparison, default=())
    #: the environment the run set was computed and rendered in (``None`` in a run set
    #: written before it was recorded)
    environment: Environment | None = field(Environment, default=None)
    created_utc: str = field(default="")

    def __init__(self, data: dict[str, Any], folder: str = "") -> None:
        super().__init__(data)
        self.folder = folder

    @property
    def models(self) -> pd.DataFrame:
        """One row per model: status, index (points), its ± half-width, P, S, C, O."""
        letters = [TRACK_LETTERS[t] for t in TRACKS]
        rows = [
            {
                "run_set": self.name,
                "model": model,
                "status": entry.status,
                "index": entry.index,
                "index_ci_half_width": entry.index_ci_half_width,
                **{letter: entry.track_means.get(letter) for letter in letters},
            }
            for model, entry in self.summary.results.items()
        ]
        columns = ["run_set", "model", "status", "index", "index_ci_half_width", *letters]
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
    file = path / "run-set.json" if path.is_dir() else path
    return RunSetDocument(read_json(file), folder=file.parent.name)
