"""The teaching notebook's examples: the seed's worked example, tiny ILLUSTRATIVE cohorts and
the exercises' ILLUSTRATIVE instances and cohorts.

Only the seed's values are real (relative score 0.25, index 55.5); every file written is
``"simulated": true``, in a temporary folder removed afterwards.
"""

from __future__ import annotations

import copy
import csv
import json
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..references.load import reference_from_data
from ..references.model import Reference
from ..scoring.commands import run_score
from ..scoring.index_document import IndexDocument, ModelResult
from ..scoring.solver import score_solver_task
from ..vocab import (
    ADOPTION_STATUSES,
    ATTEMPT_COLUMNS,
    FIXED_SCALE_FLOOR_ABSOLUTE,
    FIXED_SCALE_FLOOR_RELATIVE,
    SCORE_STATUSES,
    TRACK_OF,
    TRACKS,
)

#: The teaching suite's name and its reference id (ILLUSTRATIVE, not TCSExam's).
TEACHING_SUITE = "teaching"
TEACHING_REFERENCE_ID = "teaching-example-v0"
#: The solver protocol of every teaching cohort.
TEACHING_PROTOCOL = "offline"

#: The ILLUSTRATIVE teaching suite: 5 theorem tasks, the seed's solver task, 2
#: construction tasks and 1 conjecture task.
SUITE_TRACKS: dict[str, tuple[str, ...]] = {
    "theorem": ("thm-1", "thm-2", "thm-3", "thm-4", "thm-5"),
    "solver": ("maxcut-mqlib",),
    "construction": ("con-1", "con-2"),
    "conjecture": ("conj-1",),
}

_HIDDEN_COLUMNS = ("score_type", "solver_protocol")

_TRACK_OF = {item: track for track, items in SUITE_TRACKS.items() for item in items}

_REFERENCE_DATA: dict[str, Any] = {
    "reference_id": TEACHING_REFERENCE_ID,
    "suite": TEACHING_SUITE,
    "description": "ILLUSTRATIVE: the seed's worked example, not TCSExam reference values",
    "simulated": True,
    "scale_floor_relative": FIXED_SCALE_FLOOR_RELATIVE,
    "scale_floor_absolute": FIXED_SCALE_FLOOR_ABSOLUTE,
    "tasks": {
        "maxcut-mqlib": {
            "kind": "objective",
            "direction": "maximize",
            # example-1: the seed's values; example-2: ILLUSTRATIVE (the seed gives none,
            # and a timed-out instance scores 0 whatever they are).
            "instances": {"example-1": [10, 12, 14], "example-2": [5, 7]},
        }
    },
    "unscored_reference_instances": [],
}


def teaching_reference_data() -> dict[str, Any]:
    """The teaching reference file's content (a fresh copy; the floors are the fixed ones).

    >>> data = teaching_reference_data()
    >>> data["tasks"]["maxcut-mqlib"]["instances"]["example-1"]
    [10, 12, 14]
    >>> data["scale_floor_relative"], data["scale_floor_absolute"]
    (0.02, 1e-09)
    """
    return copy.deepcopy(_REFERENCE_DATA)


def teaching_reference() -> Reference:
    """The teaching reference, validated by :func:`tcsexam_lib.reference_from_data`."""
    return reference_from_data(teaching_reference_data(), source="teaching reference")


def worked_example_records(a: float = 12) -> list[dict[str, Any]]:
    """The seed's records: ``A`` on ``example-1`` (12 in the seed), a timeout on ``example-2``.

    >>> for record in worked_example_records():
    ...     print(record)
    {'instance': 'example-1', 'status': 'ok', 'A': 12}
    {'instance': 'example-2', 'status': 'timeout'}
    """
    return [
        {"instance": "example-1", "status": "ok", "A": a},
        {"instance": "example-2", "status": "timeout"},
    ]


def worked_example_relative_score(a: float = 12) -> float:
    """``relative_score`` of the seed's records (with ``A`` on ``example-1``).

    >>> worked_example_relative_score()
    0.25
    """
    result = score_solver_task(teaching_reference(), "maxcut-mqlib", worked_example_records(a))
    return result.relative_score


def one_instance_reference(
    values: Sequence[float | None],
    direction: str = "maximize",
    *,
    rel_floor: float = FIXED_SCALE_FLOOR_RELATIVE,
    abs_floor: float = FIXED_SCALE_FLOOR_ABSOLUTE,
) -> Reference:
    """An ILLUSTRATIVE reference: task ``illustrative-task``, instance ``example-1`` = ``values``.

    >>> ref = one_instance_reference([10, 12, 14], "minimize")
    >>> ref.tasks["illustrative-task"].direction
    'minimize'
    """
    return reference_from_data(
        {
            "reference_id": f"illustrative-{direction}",
            "suite": TEACHING_SUITE,
            "scale_floor_relative": rel_floor,
            "scale_floor_absolute": abs_floor,
            "tasks": {
                "illustrative-task": {
                    "kind": "objective",
                    "direction": direction,
                    "instances": {"example-1": list(values)},
                }
            },
            "unscored_reference_instances": [],
        },
        source="illustrative reference",
    )


@dataclass(frozen=True)
class Attempt:
    """One ILLUSTRATIVE attempts-table row (its attempt id: its position, from 1)."""

    score: float | None
    adoption_status: str = "selected"
    score_status: str = "valid"
    note: str = ""

    def __post_init__(self) -> None:
        if self.adoption_status not in ADOPTION_STATUSES:
            raise ValueError(
                f"adoption_status {self.adoption_status!r} is not one of "
                f"{', '.join(ADOPTION_STATUSES)}"
            )
        if self.score_status not in SCORE_STATUSES:
            raise ValueError(
                f"score_status {self.score_status!r} is not one of {', '.join(SCORE_STATUSES)}"
            )


def seed_attempts() -> dict[str, list[Attempt]]:
    """One adopted valid attempt per task giving the seed's track means (index 55.5).

    Theorem 1, 1, 0, 0, 0; the solver task's 0.25 from the seed's records; construction
    1.0 and 1.4; conjecture 0.
    """
    scores = {
        "thm-1": 1,
        "thm-2": 1,
        "thm-3": 0,
        "thm-4": 0,
        "thm-5": 0,
        "maxcut-mqlib": worked_example_relative_score(),
        "con-1": 1.0,
        "con-2": 1.4,
        "conj-1": 0,
    }
    return {item: [Attempt(score)] for item, score in scores.items()}


AttemptsSpec = Mapping[str, Sequence[Attempt | float | int | None]]


@dataclass(frozen=True)
class TinyCohort:
    """A scored ILLUSTRATIVE cohort: its attempts rows and the ``tcsexam score`` output."""

    rows: tuple[dict[str, Any], ...]
    attempts_per_task: dict[str, Any]
    result: IndexDocument
    #: The items listed for each model (those that differ from the seed's attempts).
    listed: dict[str, tuple[str, ...]]

    def model(self, name: str) -> ModelResult:
        """The scored entry of one model (``status``, ``index``, ``tracks``, ``issues``...)."""
        return self.result.result(name)

    def attempts_table(self, *, listed_only: bool = False, models: Sequence[str] = ()):
        """The attempts table as a DataFrame in file order, scores as written.

        ``listed_only``: only the listed items' rows; ``models``: only these models. The
        columns ``score_type`` and ``solver_protocol`` are left out (they follow the track).
        """
        import pandas as pd

        shown = [c for c in (*ATTEMPT_COLUMNS, "note") if c not in _HIDDEN_COLUMNS]
        rows = [
            {**row, "score": "" if row["score"] == "" else f"{row['score']:g}"}
            for row in self.rows
            if (not listed_only or row["item"] in self.listed[row["model"]])
            and (not models or row["model"] in models)
        ]
        return pd.DataFrame(rows, columns=shown)

    def status_report(self, models: Sequence[str] = ()) -> str:
        """Each model's status, index, coverage and issues, as the notebook prints them."""
        lines = []
        for name, entry in self.result.results.items():
            if models and name not in models:
                continue
            coverage = entry.coverage
            index = entry.index
            shown = "None (no index: a result is missing)" if index is None else f"{index:.6g}"
            excluded = sum(
                row["adoption_status"] == "excluded" for row in self.rows if row["model"] == name
            )
            lines.append(f"{name}: status {entry.status}, index {shown}")
            lines.append(
                f"  {coverage.attempts_adopted_valid} of {coverage.attempts_planned} "
                f"planned attempts adopted and valid; {coverage.rows} rows, "
                f"{excluded} excluded"
            )
            for issue in entry.issues:
                lines.append(f"  {issue.severity}: {issue.message}")
        return "\n".join(lines)


def _as_attempt(value: Attempt | float | int | None) -> Attempt:
    return value if isinstance(value, Attempt) else Attempt(value)


def _rows(model: str, attempts: AttemptsSpec) -> list[dict[str, Any]]:
    rows = []
    for item, listed in attempts.items():
        track = _TRACK_OF.get(item)
        if track is None:
            raise ValueError(
                f"unknown item {item!r} of the teaching suite; one of: {', '.join(_TRACK_OF)}"
            )
        solver = track == "solver"
        for number, value in enumerate(listed, start=1):
            row = _as_attempt(value)
            rows.append(
                {
                    "model": model,
                    "track": track,
                    "item": item,
                    "attempt": str(number),
                    "score": "" if row.score is None else row.score,
                    "adoption_status": row.adoption_status,
                    "score_status": row.score_status,
                    "score_type": TRACK_OF[track].score_type,
                    "solver_protocol": TEACHING_PROTOCOL if solver else "",
                    "note": row.note,
                }
            )
    return rows


def score_tiny_cohort(
    models: Mapping[str, AttemptsSpec],
    attempts_per_task: Mapping[str, int | Mapping[str, int]] | None = None,
) -> TinyCohort:
    """Score an ILLUSTRATIVE cohort on the teaching suite with :func:`tcsexam_lib.run_score`.

    ``models``: name -> ``{item: [Attempt or bare score, ...]}``, unlisted items get the
    seed's attempt; ``attempts_per_task``: name -> an int or ``{"default": 1, item: n}``.

    >>> cohort = score_tiny_cohort({"illustrative-model": {}})
    >>> entry = cohort.model("illustrative-model")
    >>> entry.status, entry.index
    ('complete', 55.5)
    """
    plans_given = dict(attempts_per_task or {})
    unknown = sorted(set(plans_given) - set(models))
    if unknown:
        raise ValueError(f"attempts_per_task names models that have no attempts: {unknown}")
    plans = {name: copy.deepcopy(plans_given.get(name, 1)) for name in models}
    rows: list[dict[str, Any]] = []
    for name, attempts in models.items():
        rows.extend(_rows(name, {**seed_attempts(), **attempts}))
    cohort = {
        "suite": TEACHING_SUITE,
        "description": "ILLUSTRATIVE cohort of the teaching notebook (simulated)",
        "simulated": True,
        "solver_protocol": TEACHING_PROTOCOL,
        "solver_reference_id": TEACHING_REFERENCE_ID,
        "models": {name: {"attempts_per_task": plan} for name, plan in plans.items()},
    }
    suite = {
        "suite": TEACHING_SUITE,
        "description": "ILLUSTRATIVE suite of the teaching notebook",
        "simulated": True,
        "tracks": {track: list(SUITE_TRACKS[track]) for track in TRACKS},
    }
    with tempfile.TemporaryDirectory(prefix="tcsexam-teaching-") as folder:
        root = Path(folder)
        references = root / "references"
        (references / TEACHING_REFERENCE_ID).mkdir(parents=True)
        (references / "suites").mkdir()
        _write_json(references / TEACHING_REFERENCE_ID / f"{TEACHING_SUITE}.json", _REFERENCE_DATA)
        _write_json(references / "suites" / f"{TEACHING_SUITE}.json", suite)
        _write_json(root / "cohort.json", cohort)
        attempts_path = root / "attempts.csv"
        with attempts_path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=[*ATTEMPT_COLUMNS, "note"])
            writer.writeheader()
            writer.writerows(rows)
        result = run_score(
            suite=TEACHING_SUITE,
            attempts=attempts_path,
            cohort=root / "cohort.json",
            references_dir=references,
            producer="tcsexam_lib.teaching",
        )
    result.drop_provenance()  # it names the temporary folder, now removed
    listed = {name: tuple(attempts) for name, attempts in models.items()}
    return TinyCohort(tuple(rows), plans, result, listed)


def _write_json(path: Path, data: Mapping[str, Any]) -> None:
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


# --- The status walk-through -------------------------------------------------------------

#: The notes of the walk-through's rows (ILLUSTRATIVE).
EXCLUDED_NOTE = "ILLUSTRATIVE: wrong time limit; see attempt 2"
PROVISIONAL_NOTE = "ILLUSTRATIVE: awaits a manual check"
CONFIRMED_NOTE = "ILLUSTRATIVE: manual check passed"


def status_walkthrough(*, confirmed: bool = False) -> TinyCohort:
    """Three ILLUSTRATIVE models, one per status, on the seed's scores.

    ``walk-complete`` (an ``excluded`` attempt, replaced), ``walk-provisional``
    (``selected_provisional``; ``confirmed=True`` makes it complete), ``walk-incomplete``
    (a planned attempt missing, a ``judge_failed`` adoption).

    >>> walk = status_walkthrough()
    >>> [entry.status for entry in walk.result.results.values()]
    ['complete', 'provisional', 'incomplete']
    >>> status_walkthrough(confirmed=True).model("walk-provisional").status
    'complete'
    """
    adoption = "selected" if confirmed else "selected_provisional"
    note = CONFIRMED_NOTE if confirmed else PROVISIONAL_NOTE
    return score_tiny_cohort(
        {
            "walk-complete": {
                "thm-3": [Attempt(1, "excluded", "valid", EXCLUDED_NOTE), Attempt(0)],
            },
            "walk-provisional": {"con-2": [Attempt(1.4, adoption, "valid", note)]},
            "walk-incomplete": {
                "thm-1": [1, 1],
                "con-1": [Attempt(None, "selected", "judge_failed")],
            },
        },
        {"walk-incomplete": {"default": 1, "thm-1": 3}},
    )


# --- The exercises' ILLUSTRATIVE data (no TCSExam value); cohorts scored once each -------

#: Exercise 1: the seed's task with this candidate on example-1 (the seed has 12, and
#: the section's readouts show 12 and 14).
RELATIVE_SCORE_A = 13
#: Exercise 2 (a floor case: the relative floor wins) and exercise 3 (a minimize task: the
#: sample std wins): one instance each, as (reference values, direction, candidate A).
FLOOR_CASE = ((99.8, 100.0, 100.2), "maximize", 103.0)
MINIMIZE_CASE = ((190.0, 200.0, 210.0), "minimize", 197.0)
#: Exercise 3's second instance: every reference run reached 0, the absolute floor wins.
ZERO_CASE = ((0.0, 0.0, 0.0), "minimize", 2e-9)
#: Exercise 7: the pair of the reading exercise's cohort to compare.
DIFFER_PAIR = ("heron", "wren")

#: The models of exercise 4 and of the self-check.
INDEX_MODEL = "illustrative-index"
SELF_CHECK_MODEL = "illustrative-self-check"


@lru_cache(maxsize=1)
def index_exercise_cohort() -> TinyCohort:
    """Exercise 4's model: repeats on thm-1 (3) and con-1 (2), one attempt elsewhere."""
    scores = {
        "thm-1": [1, 0, 0],
        "thm-2": [1],
        "thm-3": [1],
        "thm-4": [0],
        "thm-5": [0],
        "maxcut-mqlib": [0.6],
        "con-1": [0.5, 1.5],
        "con-2": [1.3],
        "conj-1": [1],
    }
    return score_tiny_cohort(
        {INDEX_MODEL: scores}, {INDEX_MODEL: {"default": 1, "thm-1": 3, "con-1": 2}}
    )


def index_exercise_scores() -> str:
    """Exercise 4's attempt scores, a line per task (every attempt adopted and valid).

    >>> print(index_exercise_scores().splitlines()[0])
    theorem       thm-1         1, 0, 0
    """
    entry = index_exercise_cohort().model(INDEX_MODEL)
    return "\n".join(
        f"{task.track:<12}  {task.item:<12}  {', '.join(f'{s:g}' for s in task.scores)}"
        for task in entry.tasks
    )


@lru_cache(maxsize=1)
def status_exercise_cohort() -> TinyCohort:
    """Exercise 5's cohort of three models (statuses to predict)."""
    judge = Attempt(None, "excluded", "judge_failed", "ILLUSTRATIVE: judge crashed")
    pending = Attempt(0, "selected_provisional", note="ILLUSTRATIVE: awaits a check")
    other_machine = Attempt(0.3, "excluded", note="ILLUSTRATIVE: wrong machine")
    return score_tiny_cohort(
        {
            "model-x": {"thm-4": [Attempt(1, "excluded"), Attempt(0)]},
            "model-y": {"con-1": [judge, Attempt(1.0)], "conj-1": [pending]},
            "model-z": {"maxcut-mqlib": [0.25, other_machine]},
        },
        {"model-z": {"default": 1, "maxcut-mqlib": 2}},
    )


#: The self-check's notes.
SELF_CHECK_NOTES = (
    "ILLUSTRATIVE: ran with a wrong time limit",
    "ILLUSTRATIVE: judge crashed; re-judged",
    "ILLUSTRATIVE: certificate awaits a re-check",
)


@lru_cache(maxsize=1)
def self_check_cohort() -> TinyCohort:
    """The self-check's model: its whole attempts table is shown to the student."""
    timing, judge, certificate = SELF_CHECK_NOTES
    attempts = {
        "thm-1": [Attempt(1), Attempt(0, "excluded", note=timing), Attempt(1)],
        "thm-2": [0],
        "thm-3": [1],
        "thm-4": [0],
        "thm-5": [0],
        "maxcut-mqlib": [Attempt(0.25, "selected_provisional", note=certificate)],
        "con-1": [Attempt(None, "excluded", "judge_failed", judge), Attempt(1.2)],
        "con-2": [0.65],
        "conj-1": [0],
    }
    return score_tiny_cohort(
        {SELF_CHECK_MODEL: attempts}, {SELF_CHECK_MODEL: {"default": 1, "thm-1": 2}}
    )
