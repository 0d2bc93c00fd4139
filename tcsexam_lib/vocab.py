"""The fixed vocabulary of TCSExam: tracks, weights, statuses and the fixed reference.

Everything here comes from the scoring rules (the README's "The scoring rules in short") and is
never configurable: a change would be a new metric id or a new reference id.
"""

from __future__ import annotations

#: Metric id of the index computed by this kit.
METRIC_ID = "tcsexam-index-original-30303010-v0.1"

#: Canonical track ids, in the order of the index formula.
TRACKS = ("theorem", "solver", "construction", "conjecture")

#: Letter of each track in ``index = 30*P + 30*S + 30*C + 10*O``.
TRACK_LETTERS = {"theorem": "P", "solver": "S", "construction": "C", "conjecture": "O"}

#: Fixed weight (points) of each track mean in the index.
TRACK_WEIGHTS = {"theorem": 30, "solver": 30, "construction": 30, "conjecture": 10}

#: Tracks whose value is 1 for an accepted complete result and 0 otherwise.
BINARY_TRACKS = frozenset({"theorem", "conjecture"})

#: A model's status in the index output, best first.
MODEL_STATUSES = ("complete", "provisional", "incomplete")

#: Id, floors and published counts of the frozen K3 reference of the paper.
FIXED_REFERENCE_ID = "paper-k3-fixed-260925"
FIXED_SCALE_FLOOR_RELATIVE = 0.02
FIXED_SCALE_FLOOR_ABSOLUTE = 1e-9
FIXED_FULL_SCORED_INSTANCES = 1860
FIXED_FULL_UNSCORED_INSTANCES = 32
FIXED_LITE_SOLVER_TASKS = 5

#: What a valid attempt score of each track can be (the spec's table, in words) ...
SCORE_RANGES = {
    "theorem": "exactly 0 or 1 (1 only if the judge accepted a complete proof)",
    "conjecture": "exactly 0 or 1 (1 only if a complete proof or disproof was accepted)",
    "solver": "a relative score in [0, 1]",
    "construction": "a finite raw reward >= 0",
}


def score_in_range(track: str, score: float) -> bool:
    """... and the test of it (a finite score; :data:`SCORE_RANGES` says it in words).

    Examples
    --------
    >>> score_in_range("theorem", 0.5), score_in_range("solver", 0.5)
    (False, True)
    """
    if track in BINARY_TRACKS:
        return score in (0.0, 1.0)
    if track == "solver":
        return 0.0 <= score <= 1.0
    return score >= 0.0


#: Solver instance statuses.
STATUS_OK = "ok"
COMPLETED_FAILURE_STATUSES = frozenset(
    {"timeout", "invalid", "certificate_failed", "crash", "memory_limit"}
)
INFRASTRUCTURE_STATUSES = frozenset({"infrastructure_error", "missing", "not_run", "judge_failed"})
KNOWN_RECORD_STATUSES = (
    frozenset({STATUS_OK}) | COMPLETED_FAILURE_STATUSES | INFRASTRUCTURE_STATUSES
)

#: Attempts table vocabulary (also published in references/schemas/attempts-row.schema.json).
ATTEMPT_COLUMNS = (
    "model",
    "track",
    "item",
    "attempt",
    "score",
    "adoption_status",
    "score_status",
    "score_type",
    "solver_protocol",
)
ADOPTION_STATUSES = ("selected", "selected_provisional", "excluded")
ADOPTED_STATUSES = frozenset({"selected", "selected_provisional"})
SCORE_STATUSES = ("valid", "judge_failed", "not_finished", "missing")
SCORE_TYPE_SOLVER = "fixed_reference_relative"
SCORE_TYPE_OTHER = "original_task_score"
SOLVER_PROTOCOLS = ("online", "offline")


def sorted_statuses(statuses: frozenset[str]) -> str:
    """Comma-separated, sorted list for messages."""
    return ", ".join(sorted(statuses))


def simulated_label(kind: str = "") -> str:
    """The words that label SIMULATED data wherever it appears (pages, charts, the
    commands' output, the demo's files), of one ``kind`` of demo data.

    Examples
    --------
    >>> simulated_label(), simulated_label("Full-size")
    ('SIMULATED demo data', 'SIMULATED Full-size demo data')
    """
    return f"SIMULATED {kind} demo data" if kind else "SIMULATED demo data"


#: The label of simulated data.
SIMULATED = simulated_label()
#: The banner of a page (and a chart) of simulated data.
SIMULATED_BANNER = f"{SIMULATED.upper()} — not TCSExam results"
