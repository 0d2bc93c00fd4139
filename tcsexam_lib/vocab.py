"""The fixed vocabulary of TCSExam (tracks, weights, statuses, the fixed reference), from the
scoring rules; never configurable (a change is a new metric or reference id)."""

from __future__ import annotations

from dataclasses import dataclass

#: Metric id of the index computed by this kit.
METRIC_ID = "tcsexam-index-original-30303010-v0.1"

#: Attempt score types: solver rows, and the other tracks' rows.
SCORE_TYPE_SOLVER = "fixed_reference_relative"
SCORE_TYPE_OTHER = "original_task_score"


@dataclass(frozen=True)
class Track:
    """A track of the index, every fact about it (its tasks are in each suite)."""

    name: str
    letter: str
    weight: int  # points per unit of track mean
    high: float  # the highest valid attempt score (inf: none)
    binary: bool  # a valid attempt score is exactly 0 or 1
    colour: str
    tip: str  # what its mean is (the tooltip of its column)
    score_words: str  # what a valid attempt score can be
    score_type: str = SCORE_TYPE_OTHER


#: The tracks, in the order of the index formula: their one declaration.
TRACK_DECLARATION = (
    Track("theorem", "P", 30, 1.0, True, "#0072B2",
          "theorem track mean: share of theorems proved (0 to 1)",
          "exactly 0 or 1 (1 only if the judge accepted a complete proof)"),
    Track("solver", "S", 30, 1.0, False, "#E69F00",
          "solver track mean: relative score against the reference (0 to 1; 0.5 = as good as "
          "the reference mean)", "a relative score in [0, 1]", SCORE_TYPE_SOLVER),
    Track("construction", "C", 30, float("inf"), False, "#009E73",
          "construction track mean: raw reward (1 = the reference level; it can exceed 1)",
          "a finite raw reward >= 0"),
    Track("conjecture", "O", 10, 1.0, True, "#CC79A7",
          "open-conjecture track mean: share of conjectures settled (0 to 1)",
          "exactly 0 or 1 (1 only if a complete proof or disproof was accepted)"),
)  # fmt: skip

TRACK_OF = {t.name: t for t in TRACK_DECLARATION}
TRACKS = tuple(TRACK_OF)
TRACK_LETTERS = {t.name: t.letter for t in TRACK_DECLARATION}
LETTERS = tuple(TRACK_LETTERS.values())
TRACK_WEIGHTS = {t.name: t.weight for t in TRACK_DECLARATION}
BINARY_TRACKS = frozenset(t.name for t in TRACK_DECLARATION if t.binary)
SCORE_RANGES = {t.name: t.score_words for t in TRACK_DECLARATION}
#: The letters and weights in words ("P, S, C, O", "30, 30, 30, 10"), the index formula.
LETTERS_TEXT = ", ".join(LETTERS)
WEIGHTS_TEXT = ", ".join(str(t.weight) for t in TRACK_DECLARATION)
INDEX_FORMULA = " + ".join(f"{t.weight}·{t.letter}" for t in TRACK_DECLARATION)

#: A model's status in the index output, best first.
MODEL_STATUSES = ("complete", "provisional", "incomplete")

#: Id, floors and published counts of the frozen K3 reference of the paper.
FIXED_REFERENCE_ID = "paper-k3-fixed-260925"
FIXED_SCALE_FLOOR_RELATIVE = 0.02
FIXED_SCALE_FLOOR_ABSOLUTE = 1e-9
FIXED_FULL_SCORED_INSTANCES = 1860
FIXED_FULL_UNSCORED_INSTANCES = 32
FIXED_LITE_SOLVER_TASKS = 5


def score_in_range(track: str, score: float) -> bool:
    """Whether a finite valid score is in its track's range (:data:`SCORE_RANGES` in words).

    >>> score_in_range("theorem", 0.5), score_in_range("solver", 0.5)
    (False, True)
    """
    spec = TRACK_OF[track]
    return score in (0.0, 1.0) if spec.binary else 0.0 <= score <= spec.high


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
SOLVER_PROTOCOLS = ("online", "offline")


def sorted_statuses(statuses: frozenset[str]) -> str:
    """Comma-separated, sorted list for messages."""
    return ", ".join(sorted(statuses))


def simulated_label(kind: str = "") -> str:
    """The words that label SIMULATED data everywhere, of one ``kind`` of demo data.

    >>> simulated_label(), simulated_label("Full-size")
    ('SIMULATED demo data', 'SIMULATED Full-size demo data')
    """
    return f"SIMULATED {kind} demo data" if kind else "SIMULATED demo data"


#: The label of simulated data.
SIMULATED = simulated_label()
#: The banner of a page (and a chart) of simulated data.
SIMULATED_BANNER = f"{SIMULATED.upper()} — not TCSExam results"
