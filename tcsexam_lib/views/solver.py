"""Tables and plots of solver-score outputs: scores in [0, 1], 0.5 = the reference mean;
``z > 0``: better than the reference mean, whatever the task's direction."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pandas as pd

from ..formulas import SCALE_TERMS
from ..number_format import MEAN, RAW, TEXT, Z
from ..scoring.index_document import IndexDocument, as_index_document
from ..scoring.solver_document import SolverDocument, as_solver_document
from .charts import OKABE_ITO, describe, label_simulated, new_axes
from .notebook import Note
from .tables import Cell

#: Solver-score outputs as the views take them: the documents, or their parsed JSON.
Outputs = list[SolverDocument] | list[dict[str, Any]]


def _documents(outputs: Outputs) -> list[SolverDocument]:
    return [as_solver_document(out) for out in outputs]


def evidence_link(evidence_dir: str, task: str, attempt: Any) -> str | None:
    """The link to one solver-score output (the solver evidence) of the model's folder.

    >>> evidence_link("../../evidence/sim-alpha", "sim-sat", "1")
    '../../evidence/sim-alpha/sim-sat-1.json'
    >>> evidence_link("", "sim-sat", "1") is None
    True
    """
    if not evidence_dir:
        return None
    return f"{str(evidence_dir).rstrip('/')}/{task}-{attempt}.json"


def relative_score_table(outputs: Outputs, evidence_dir: str = "") -> pd.DataFrame:
    """One row per solver-score output; ``evidence_dir`` (relative to the page) links each.

    >>> table = relative_score_table([{"model": "m", "task": "t", "attempt": "1",
    ...     "relative_score": 0.25, "n_scored": 2, "unscored_instances": []}], "ev")
    >>> [str(v) for v in table.values[0]]
    ['t', '1', '0.25', '2', '0', 't-1.json']
    """
    rows = []
    for out in _documents(outputs):
        link = evidence_link(evidence_dir, out.task, out.attempt)
        rows.append(
            {
                "task": out.task,
                "attempt": out.attempt,
                "relative score": out.relative_score,
                "instances scored": out.n_scored,
                "unscored": len(out.unscored_rows),
                "evidence": None if link is None else Cell(link.rsplit("/", 1)[-1], href=link),
            }
        )
    columns = ["task", "attempt", "relative score", "instances scored", "unscored", "evidence"]
    table = pd.DataFrame(rows, columns=columns, dtype=object)
    table.attrs["kinds"] = {"attempt": TEXT, "relative score": MEAN,
                            "instances scored": "count", "unscored": "count"}  # fmt: skip
    table.attrs["tooltips"] = {
        "relative score": "mean of the instance scores Phi(z) over the scored instances (0 to "
        "1; 0.5 = as good as the reference mean; a completed failure scores 0)",
        "unscored": "records of instances outside the reference's scored set",
        "evidence": "the solver-score output (JSON) this score comes from",
    }
    table.attrs["empty_text"] = "No solver records: no task attempt was scored."
    return table


def solver_plan_table(
    result: IndexDocument | dict[str, Any], model: str, outputs: Outputs, evidence_dir: str = ""
) -> pd.DataFrame:
    """Every planned solver task and repeat of the model, with its score or why it has none.

    >>> task = {"track": "solver", "item": "t", "planned_attempts": 2, "adopted_attempts":
    ...         ["1"], "rows": [{"attempt": "1", "line": 5, "adoption_status": "selected",
    ...         "score_status": "valid", "score": 0.25}]}
    >>> out = {"task": "t", "attempt": "1", "relative_score": 0.25}
    >>> table = solver_plan_table({"models": {"m": {"tasks": [task]}}}, "m", [out])
    >>> table[["attempt", "relative score", "state"]].values.tolist()
    [['1', 0.25, 'adopted, scored'], ['repeat 2 of 2', None, 'planned, no adopted attempt yet']]
    """
    from ..scoring.index import missing_repeats

    scored = {(o.task, str(o.attempt)): o for o in _documents(outputs)}
    rows = []
    for task in as_index_document(result).result(model).tasks:
        if task.track != "solver":
            continue
        planned = task.planned_attempts
        for row in task.rows:
            out = scored.get((task.item, str(row.attempt)))
            adopted = row.adoption_status != "excluded"
            if row.score_status != "valid":
                state = f"{'adopted' if adopted else 'excluded'}, no score: {row.score_status}"
            elif out is None:
                state = "no solver records for this attempt"
            else:
                state = "adopted, scored" if adopted else "excluded (kept, not aggregated)"
            if row.adoption_status == "selected_provisional":
                state += " (provisional)"
            score = None if out is None else out.relative_score
            link = None if out is None else evidence_link(evidence_dir, task.item, row.attempt)
            rows.append({"task": task.item, "attempt": str(row.attempt),
                         "line": row.line, "relative score": score, "state": state,
                         "evidence": None if link is None else
                         Cell(link.rsplit("/", 1)[-1], href=link)})  # fmt: skip
        for repeat in missing_repeats(planned, len(task.adopted_attempts)):
            rows.append({"task": task.item, "attempt": f"repeat {repeat} of {planned}",
                         "line": None, "relative score": None,
                         "state": "planned, no adopted attempt yet",
                         "evidence": None})  # fmt: skip
    columns = ["task", "attempt", "line", "relative score", "state", "evidence"]
    table = pd.DataFrame(rows, columns=columns, dtype=object)
    table.attrs["kinds"] = {"attempt": TEXT, "line": "count", "relative score": MEAN}
    table.attrs["tooltips"] = {
        "line": "line of the attempts table",
        "evidence": "the solver-score output (JSON) the relative score comes from",
    }
    table.attrs["empty_text"] = f"The cohort plans no solver task for {model}."
    return table


_INSTANCE_COLUMNS = [
    "task",
    "attempt",
    "instance",
    "status",
    "A",
    "mu",
    "s",
    "scale",
    "scale_term",
    "z",
    "score",
]


#: The instance table's plain column names (the outputs' field names as tooltips).
_INSTANCE_NAMES = {"scale_term": "scale set by"}


def instance_table(outputs: Outputs) -> pd.DataFrame:
    """Every scored instance of the outputs, one row each (``z``/``A`` empty on failures).

    >>> out = {"task": "t", "attempt": "1", "instances": [{"instance": "g1",
    ...     "status": "ok", "A": 12, "mu": 12.0, "s": 2.0, "scale": 2.0,
    ...     "scale_term": "sample_std", "z": 0.0, "score": 0.5}]}
    >>> instance_table([out])[["instance", "z", "score"]]
      instance    z  score
    0       g1  0.0    0.5
    """
    rows = [
        {
            "task": out.task,
            "attempt": out.attempt,
            **{key: getattr(row, key) for key in _INSTANCE_COLUMNS[2:]},
        }
        for out in _documents(outputs)
        for row in out.rows
    ]
    table = pd.DataFrame(rows, columns=_INSTANCE_COLUMNS).rename(columns=_INSTANCE_NAMES)
    table.attrs["kinds"] = {"attempt": TEXT, "A": RAW, "mu": RAW, "s": RAW, "scale": RAW,
                            "z": Z, "score": MEAN}  # fmt: skip
    table.attrs["tooltips"] = {
        "A": "the candidate's value (as recorded)",
        "mu": "mean of the usable reference values",
        "s": "their sample standard deviation (ddof 1)",
        "scale": "max(s, relative floor × |mu|, absolute floor)",
        "scale set by": "which of the three terms set the scale",
        "z": "(A − mu) / scale, sign turned so that positive is better",
        "score": "Phi(z), 0 to 1 (0.5 = the reference mean; a completed failure scores 0)",
    }
    table.attrs["empty_text"] = "No solver records: no instance was scored."
    return table


def unscored_table(outputs: Outputs) -> pd.DataFrame:
    """Records kept out of the mean (``unscored_instances``), with their reason.

    >>> unscored_table([{"task": "t", "attempt": "1", "unscored_instances": [
    ...     {"instance": "g9", "status": "ok", "reason": "listed as unscored"}]}])
      task attempt instance status              reason
    0    t       1       g9     ok  listed as unscored
    """
    rows = [
        {
            "task": out.task,
            "attempt": out.attempt,
            "instance": row.instance,
            "status": row.status,
            "reason": row.reason,
        }
        for out in _documents(outputs)
        for row in out.unscored_rows
    ]
    table = pd.DataFrame(rows, columns=["task", "attempt", "instance", "status", "reason"])
    table.attrs["empty_text"] = "No unscored instance: every record is in the scored set."
    return table


def scale_term_table(outputs: Outputs) -> pd.DataFrame:
    """How many scored instances of each task had their scale set by each term.

    >>> out = {"task": "t", "instances": [{"scale_term": "sample_std"},
    ...                                   {"scale_term": "relative_floor"}]}
    >>> scale_term_table([out]).loc["t"].tolist()
    [1, 1, 0]
    """
    counts: dict[str, Counter[str]] = {}
    for out in _documents(outputs):
        # The reference sets the scale: every attempt of a task has the same scored
        # instances, so each task is counted once (from its first output).
        if out.task not in counts:
            counts[out.task] = Counter(row.scale_term for row in out.rows)
    table = pd.DataFrame(
        [[counts[task].get(term, 0) for term in SCALE_TERMS] for task in counts],
        index=pd.Index(list(counts), name="task"),
        columns=[term.replace("_", " ") for term in SCALE_TERMS],
    )
    table.attrs["tooltips"] = {
        "sample std": "the reference runs' spread set the scale",
        "relative floor": "2% of |mu| set the scale (the runs agree too closely)",
        "absolute floor": "1e-9 set the scale (mu is 0 or nearly)",
    }
    return table


#: Half-width of the z axis: beyond it Phi(z) is 0 or 1 to 6 digits, and one huge z (an
#: instance whose scale is the absolute floor) would squash every other bar.
Z_DISPLAY_LIMIT = 5.0


def plot_z_histogram(outputs: Outputs, ax: Any = None):
    """Histogram of ``z`` over valid candidate values; beyond ±5 in the edge bins, counted.

    >>> out = {"task": "t", "instances": [{"z": 0.0}, {"z": 1.5}, {"z": None}, {"z": 1e9}]}
    >>> plot_z_histogram([out]).axes[0].get_title()
    'z of 3 valid values\\n(1 beyond ±5 drawn at the edge; 1 completed failure without z)'
    >>> plot_z_histogram([{"task": "t", "instances": [{"z": None}, {"z": None}]}])
    Nothing to draw: no valid candidate value has a z (2 completed failures, scored 0).
    """
    from matplotlib.ticker import MaxNLocator

    z = [row.z for out in _documents(outputs) for row in out.rows]
    values = [value for value in z if value is not None]
    failures = len(z) - len(values)
    if not values:  # a sentence, not an empty chart
        plural = "" if failures == 1 else "s"
        return Note(f"Nothing to draw: no valid candidate value has a z ({failures} completed "
                    f"failure{plural}, scored 0).")  # fmt: skip
    fig, ax = new_axes(ax)
    limit = Z_DISPLAY_LIMIT
    beyond = sum(1 for z in values if abs(z) > limit)
    shown = [min(max(z, -limit), limit) for z in values]
    ax.hist(shown, bins=[limit * (k / 20 - 1) for k in range(41)], color=OKABE_ITO[0])
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # counts: no tick at 0.5
    ax.axvline(0.0, color="black", linewidth=1)
    ax.set_xlim(-limit, limit)
    ax.set_xlabel("z (positive: better than the reference mean)")
    ax.set_ylabel("instances")
    edge = f"{beyond} beyond ±{limit:g} drawn at the edge; " if beyond else ""
    ax.set_title(
        f"z of {len(values)} valid values\n({edge}{failures} completed failure"
        f"{'' if failures == 1 else 's'} without z)"
    )
    above = sum(1 for z in values if z > 0)
    describe(fig, f"Histogram of z over {len(values)} valid candidate values: {above} above "
             f"the reference mean (z > 0), {len(values) - above} at or below it; values beyond "
             f"±{limit:g} drawn at the edges. The instance table has every value.")  # fmt: skip
    return label_simulated(fig, any_simulated(outputs))


def plot_instance_scores(outputs: Outputs, ax: Any = None):
    """Histogram of instance scores ``Phi(z)`` in [0, 1] (failures score 0).

    >>> out = {"task": "t", "instances": [{"score": 0.5}, {"score": 0.0}]}
    >>> float(plot_instance_scores([out]).axes[0].get_xlim()[0])
    0.0
    """
    from matplotlib.ticker import MaxNLocator

    fig, ax = new_axes(ax)
    values = [row.score for out in _documents(outputs) for row in out.rows]
    ax.hist(values, bins=[i / 20 for i in range(21)], color=OKABE_ITO[3])
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # counts: no tick at 0.5
    ax.axvline(0.5, color="black", linewidth=1, linestyle="--")
    ax.set_xlim(0.0, 1.0)
    ax.set_xlabel("instance score Phi(z) (0.5 = reference mean; failures score 0)")
    ax.set_ylabel("instances")
    ax.set_title(f"Solver instance scores ({len(values)} instances)")
    zeros = sum(1 for v in values if v == 0)
    describe(fig, f"Histogram of {len(values)} solver instance scores Phi(z) from 0 to 1, "
             f"{zeros} of them 0 (completed failures or far below the reference); the dashed "
             "line is 0.5, as good as the reference mean.")  # fmt: skip
    return label_simulated(fig, any_simulated(outputs))


def floor_instances_table(outputs: Outputs) -> pd.DataFrame:
    """Reference instances whose scale is a floor, each once; the absolute floor first.

    >>> out = {"task": "t", "instances": [
    ...     {"instance": "b", "mu": 12.0, "s": 0.0, "scale": 0.24, "scale_term": "relative_floor"},
    ...     {"instance": "a", "mu": 0.0, "s": 0.0, "scale": 1e-9, "scale_term": "absolute_floor"}]}
    >>> table = floor_instances_table([out, out])
    >>> table["instance"].tolist(), table["what it means"][0][:24]
    (['a', 'b'], 'a value equal to mu scor')
    """
    from ..scoring.solver_notes import ABSOLUTE_FLOOR_MEANS, RELATIVE_FLOOR_MEANS

    seen = set()
    rows = []
    for out in _documents(outputs):
        for row in out.rows:
            key = (out.task, row.instance)
            if row.scale_term == "sample_std" or key in seen:
                continue
            seen.add(key)
            absolute = row.scale_term == "absolute_floor"
            rows.append(
                {
                    "task": out.task,
                    "instance": row.instance,
                    **{name: getattr(row, name) for name in ("mu", "s", "scale", "scale_term")},
                    "what it means": ABSOLUTE_FLOOR_MEANS if absolute else RELATIVE_FLOOR_MEANS,
                }
            )
    rows.sort(key=lambda entry: entry["what it means"] != ABSOLUTE_FLOOR_MEANS)
    columns = ["task", "instance", "mu", "s", "scale", "scale_term", "what it means"]
    table = pd.DataFrame(rows, columns=columns).rename(columns=_INSTANCE_NAMES)
    table.attrs["kinds"] = {"mu": RAW, "s": RAW, "scale": RAW}
    table.attrs["empty_text"] = "No floor sets a scale: every scale is the runs' sample std."
    return table


def far_values_table(outputs: Outputs) -> pd.DataFrame:
    """Candidate values over 1,000 x ``max(|mu|, scale, 1)`` from ``mu``: likely misrecorded.

    >>> out = {"task": "t", "attempt": "1", "instances": [
    ...     {"instance": "a", "A": 1e308, "mu": 12.0, "scale": 20.0, "z": 5e306, "score": 1.0},
    ...     {"instance": "b", "A": 14.0, "mu": 12.0, "scale": 2.0, "z": 1.0, "score": 0.84}]}
    >>> far_values_table([out])["instance"].tolist()
    ['a']
    """
    from ..scoring.solver_notes import far_from_reference

    rows = [
        {
            "task": out.task,
            "attempt": out.attempt,
            "instance": row.instance,
            "A": row.A,
            "mu": row.mu,
            "scale": row.scale,
            "score": row.score,
        }  # fmt: skip
        for out in _documents(outputs)
        for row in out.rows
        if row.z is not None and far_from_reference(row.A, row.mu, row.scale)
    ]
    columns = ["task", "attempt", "instance", "A", "mu", "scale", "score"]
    table = pd.DataFrame(rows, columns=columns)
    table.attrs["kinds"] = {"attempt": TEXT, "A": RAW, "mu": RAW, "scale": RAW, "score": MEAN}
    table.attrs["empty_text"] = "No value is orders of magnitude outside the reference."
    return table


def any_simulated(outputs: Outputs) -> bool:
    """True when an output says its inputs are simulated (demo data).

    >>> any_simulated([{"simulated": True}]), any_simulated([])
    (True, False)
    """
    return any(out.simulated for out in _documents(outputs))
