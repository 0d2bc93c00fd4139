"""The report notebooks, each declared once (:class:`ReportNotebook`).

The parameter checks, the runner's jobs, the pages' links and page reuse derive from it
(docs/reports.md); it imports nothing heavy: a notebook's kernel reads it on every run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..paths import KIT_ROOT
from .run_set_document import MANIFEST

#: Kinds of parameters: a plain value, a file or folder the notebook reads, a path it
#: writes to, or data the runner passes (a mapping).
VALUE = "value"
INPUT_FILE = "input file"
INPUT_FOLDER = "input folder"
OUTPUT = "output"
DATA = "data"
KINDS = (VALUE, INPUT_FILE, INPUT_FOLDER, OUTPUT, DATA)

#: A notebook is made once per run set, or once per model of the run set.
PER_RUN_SET = "run set"
PER_MODEL = "model"

#: What the report runner can give a notebook (see :func:`.runsets.notebook_jobs`).
RUNNER_GIVES = {
    "model": "the model of the page",
    "suite": "the run set's suite",
    "protocol": "the run set's solver protocol",
    "references_dir": "the run set's references folder (empty: the default)",
    "reference_id": "the run set's reference id",
    "index_json": "the run set's index JSON",
    "stats_json": "the run set's intervals JSON (tcsexam stats)",
    "model_index_json": "the model's entry of the index (models/<model>/model.index.json)",
    "model_stats_json": "tcsexam stats of the model's entry (models/<model>/model.stats.json)",
    "model_evidence": "the model's solver-score outputs (evidence/<model>/)",
    "changes": "what changed since the run set's previous publication",
}


@dataclass(frozen=True)
class ReportNotebook:
    """One report notebook, declared once.

    ``parameters``: each parameter of its cell, in order, to its kind; ``always``: never
    empty; ``unless``: ``(given, names)``, ``names`` unneeded when ``given`` is set;
    ``runner``: parameter -> a key of :data:`RUNNER_GIVES`; ``reads_beside``: a file also
    read beside the file a parameter names.
    """

    name: str
    per: str
    title: str
    short: str
    parameters: Mapping[str, str]
    always: tuple[str, ...]
    unless: tuple[tuple[str, tuple[str, ...]], ...]
    runner: Mapping[str, str]
    reads_beside: Mapping[str, str] = field(default_factory=dict)

    @property
    def source(self) -> Path:
        """The kit's notebook, ``notebooks/<name>.ipynb``."""
        return KIT_ROOT / "notebooks" / f"{self.name}.ipynb"

    def of_kind(self, *kinds: str) -> tuple[str, ...]:
        """The parameters of these kinds, in the cell's order.

        >>> notebook("diagnostics").of_kind(INPUT_FILE)
        ('cohort', 'attempts', 'index_json')
        """
        return tuple(name for name, kind in self.parameters.items() if kind in kinds)

    def needed(self, values: Mapping[str, Any]) -> list[tuple[str, str]]:
        """The parameters a run with ``values`` needs, each with why ("" for always).

        >>> notebook("index").needed({"index_json": "x.json"})
        [('model', ''), ('suite', ''), ('protocol', '')]
        >>> [name for name, _ in notebook("cohort").needed({})]
        ['suite', 'protocol', 'cohort', 'attempts']
        """
        needed = [(name, "") for name in self.always]
        for given, names in self.unless:
            if is_empty(values.get(given)):
                needed += [(name, f"needed unless {given} is given") for name in names]
        return needed

    def read(self, values: Mapping[str, Any]) -> tuple[str, ...]:
        """The non-empty input parameters a run with ``values`` reads (``unless`` applied).

        >>> notebook("solver_scoring").read({"records_dir": "r", "solver_outputs": "e",
        ...                                  "index_json": "i.json", "cohort": "c.json"})
        ('solver_outputs', 'index_json')
        """
        unread = {name for given, names in self.unless if not is_empty(values.get(given))
                  for name in names}  # fmt: skip
        return tuple(
            name
            for name in self.of_kind(INPUT_FILE, INPUT_FOLDER)
            if name not in unread and not is_empty(values.get(name))
        )


def is_empty(value: Any) -> bool:
    """A parameter left empty: ``None`` or blank text.

    >>> is_empty(""), is_empty("  "), is_empty(None), is_empty(0), is_empty("x")
    (True, True, True, False, False)
    """
    return value is None or (isinstance(value, str) and not value.strip())


_COMMON = {"suite": VALUE, "protocol": VALUE}
_SCORED = {"cohort": INPUT_FILE, "attempts": INPUT_FILE, "references_dir": INPUT_FOLDER}
_RUN_SET = {"suite": "suite", "protocol": "protocol", "references_dir": "references_dir"}
_MODEL = {"model": "model", **_RUN_SET}
_INDEX_UNNEEDED = ("index_json", ("cohort", "attempts"))

#: The report notebooks, in the order the runner makes them and the pages list them.
NOTEBOOKS: tuple[ReportNotebook, ...] = (
    ReportNotebook(
        name="cohort",
        per=PER_RUN_SET,
        title="leaderboard",
        short="leaderboard",
        parameters={
            **_COMMON,
            **_SCORED,
            "index_json": INPUT_FILE,
            "stats_json": INPUT_FILE,
            "changes": DATA,
        },  # fmt: skip
        always=("suite", "protocol"),
        unless=(_INDEX_UNNEEDED,),
        runner={
            **_RUN_SET,
            "index_json": "index_json",
            "stats_json": "stats_json",
            "changes": "changes",
        },  # fmt: skip
        # the pages it links (published_pages) and the comparisons it draws
        reads_beside={"index_json": MANIFEST},
    ),
    ReportNotebook(
        name="index",
        per=PER_MODEL,
        title="index",
        short="index",
        parameters={
            "model": VALUE,
            **_COMMON,
            **_SCORED,
            "solver_evidence": INPUT_FOLDER,
            "output": OUTPUT,
            "index_json": INPUT_FILE,
            "stats_json": INPUT_FILE,
        },  # fmt: skip
        always=("model", "suite", "protocol"),
        unless=(_INDEX_UNNEEDED,),
        runner={**_MODEL, "index_json": "model_index_json", "stats_json": "model_stats_json"},
    ),
    ReportNotebook(
        name="solver_scoring",
        per=PER_MODEL,
        title="solver scoring",
        short="solver",
        parameters={
            "model": VALUE,
            **_COMMON,
            "reference_id": VALUE,
            "references_dir": INPUT_FOLDER,
            "cohort": INPUT_FILE,
            "attempts": INPUT_FILE,
            "records_dir": INPUT_FOLDER,
            "tasks": VALUE,
            "output_dir": OUTPUT,
            "solver_outputs": INPUT_FOLDER,
            "index_json": INPUT_FILE,
        },  # fmt: skip
        always=("model", "suite", "protocol"),
        unless=(_INDEX_UNNEEDED, ("solver_outputs", ("records_dir", "reference_id"))),
        runner={
            **_MODEL,
            "reference_id": "reference_id",
            "solver_outputs": "model_evidence",
            "index_json": "model_index_json",
        },  # fmt: skip
    ),
    ReportNotebook(
        name="diagnostics",
        per=PER_MODEL,
        title="diagnostics",
        short="diagnostics",
        parameters={
            "model": VALUE,
            **_COMMON,
            **_SCORED,
            "records_dir": INPUT_FOLDER,
            "index_json": INPUT_FILE,
            "solver_outputs": INPUT_FOLDER,
        },  # fmt: skip
        always=("model", "suite", "protocol"),
        unless=(_INDEX_UNNEEDED, ("solver_outputs", ("records_dir",))),
        runner={**_MODEL, "index_json": "model_index_json", "solver_outputs": "model_evidence"},
    ),
)

#: The notebooks' names, in order (what a run-set parameter file's ``notebooks`` may list).
NOTEBOOK_NAMES = tuple(nb.name for nb in NOTEBOOKS)
#: The notebook of the run set's cohort report (the leaderboard).
COHORT_NOTEBOOK = next(nb.name for nb in NOTEBOOKS if nb.per == PER_RUN_SET)
#: The notebooks made for each model, in the order the pages list them.
MODEL_NOTEBOOKS = tuple(nb for nb in NOTEBOOKS if nb.per == PER_MODEL)


def notebook(name: str) -> ReportNotebook:
    """The declaration of the report notebook ``name``.

    >>> notebook("index").per, notebook("cohort").title
    ('model', 'leaderboard')
    """
    for declared in NOTEBOOKS:
        if declared.name == name:
            return declared
    raise KeyError(f"no report notebook {name!r} (the kit's are {', '.join(NOTEBOOK_NAMES)})")


@dataclass(frozen=True)
class CellParameter:
    """One assignment of a notebook's ``parameters`` cell: name, default, its comment."""

    name: str
    default: Any
    comment: str


def cell_parameters(path: str | Path) -> tuple[CellParameter, ...]:
    """A notebook's ``parameters`` cell read by ``papermill.inspect_notebook`` (imported here).

    Each default is the literal the cell assigns (``None`` if not a plain literal), each
    comment the text after its ``#``.
    """
    import ast

    import papermill

    found = papermill.inspect_notebook(str(path))

    def literal(text: str) -> Any:
        try:
            return ast.literal_eval(text)
        except (ValueError, SyntaxError):
            return None

    return tuple(
        CellParameter(name, literal(info["default"]), info["help"].strip())
        for name, info in found.items()
    )
