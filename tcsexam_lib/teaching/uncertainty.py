"""Reading an index's uncertainty: ``tcsexam stats``' analysis on ILLUSTRATIVE cohorts.

Every text is computed when shown, on cohorts where only the number of tasks changes
between the slider's positions (docs/teaching.md).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..number_format import P_VALUE, format_value, interval, points
from ..stats.analysis import CohortAnalysis, analyse_cohort
from ..stats.intervals import METHOD_WILSON, undrawn_ends
from ..stats.method import METHOD
from ..stats.wording import name_list, percent
from ..vocab import TRACK_LETTERS, TRACKS

#: The numbers of tasks per track the slider offers, and the one shown first.
TASKS_PER_TRACK = (5, 10, 20, 40, 80, 160)
DEFAULT_TASKS = 20


@dataclass(frozen=True)
class SimulatedCohort:
    """An ILLUSTRATIVE cohort: per model (name, shift from the first model in track-mean units,
    0.03 = 3 index points; standard deviation of its task differences from the first model)."""

    models: tuple[tuple[str, float, float], ...]
    #: The range of the task difficulties (the first model's task means before its spread).
    base: tuple[float, float]
    first_spread: float = 0.05
    seed: int = 20261203

    @property
    def names(self) -> list[str]:
        return [name for name, _, _ in self.models]


#: Section "Reading the uncertainty": a model far ahead (c), and two close ones (b, a).
SLIDER_COHORT = SimulatedCohort(
    (("illustrative-a", 0.0, 0.0), ("illustrative-b", 0.03, 0.20), ("illustrative-c", 0.15, 0.15)),
    base=(0.35, 0.5),
)
#: The reading exercise: osprey ahead, heron close behind but with very uneven task
#: scores, wren steady a little further behind, kestrel far behind.
READING_COHORT = SimulatedCohort(
    (("osprey", 0.0, 0.0), ("heron", -0.03, 0.22), ("wren", -0.06, 0.07), ("kestrel", -0.15, 0.07)),
    base=(0.45, 0.6),
)
#: The number of tasks per track of the reading exercise.
READING_TASKS = 20


def _pattern(n_tasks: int, rng: np.random.Generator) -> np.ndarray:
    """A shuffled -1, 0, +1 pattern of ``n_tasks`` values with mean 0 and sd 1 (ddof 1)."""
    pattern = np.resize(np.array([-1.0, 0.0, 1.0]), n_tasks)
    rng.shuffle(pattern)
    pattern -= pattern.mean()
    return pattern / pattern.std(ddof=1)


def simulated_task_means(cohort: SimulatedCohort, n_tasks: int) -> list[np.ndarray]:
    """ILLUSTRATIVE task means in [0, 1] per track, a row per model, ``n_tasks`` each (seeded).

    >>> means = simulated_task_means(SLIDER_COHORT, 20)
    >>> len(means), means[0].shape
    (4, (3, 20))
    >>> bool((means[1][1] - means[1][0]).mean().round(12) == 0.03)
    True
    """
    if isinstance(n_tasks, bool) or not isinstance(n_tasks, int) or n_tasks < 3:
        raise ValueError(f"n_tasks must be a whole number >= 3; got {n_tasks!r}")
    rng = np.random.default_rng([cohort.seed, n_tasks])
    tracks = []
    for _ in TRACKS:
        difficulty = np.linspace(*cohort.base, n_tasks)
        rng.shuffle(difficulty)
        first = difficulty + cohort.first_spread * _pattern(n_tasks, rng)
        rows = np.vstack(
            [first + shift + spread * _pattern(n_tasks, rng) for _, shift, spread in cohort.models]
        )
        if rows.min() < 0 or rows.max() > 1:  # the cohorts above are built to stay inside
            raise ValueError("an ILLUSTRATIVE task mean fell outside [0, 1]")
        tracks.append(rows)
    return tracks


@lru_cache(maxsize=16)
def analyse(cohort: SimulatedCohort, n_tasks: int, level: float = 0.95) -> CohortAnalysis:
    """``tcsexam stats``' analysis of an ILLUSTRATIVE cohort (cached: it is read often)."""
    return analyse_cohort(simulated_task_means(cohort, n_tasks), names=cohort.names, level=level)


def could_be_first(cohort: SimulatedCohort, n_tasks: int, level: float = 0.95) -> list[str]:
    """The models that no model is shown to be ahead of, in rank order."""
    names = cohort.names
    return [names[k] for k in analyse(cohort, n_tasks, level).leader_group]


@dataclass(frozen=True)
class Pair:
    """One pair of an analysis, by name (``first`` ranked at or above ``second``)."""

    first: str
    second: str
    delta: float
    ci: tuple[float, float]
    p_holm: float
    differ: bool


def pairs(cohort: SimulatedCohort, n_tasks: int, level: float = 0.95) -> list[Pair]:
    """Every pair of the cohort's analysis, in the analysis' order."""
    names = cohort.names
    tests = analyse(cohort, n_tasks, level).pairs
    return [
        Pair(
            names[int(tests.first[k])],
            names[int(tests.second[k])],
            float(tests.delta[k]),
            (float(tests.ci_low[k]), float(tests.ci_high[k])),
            float(tests.p_holm[k]),
            bool(tests.significant[k]),
        )
        for k in range(len(tests))
    ]


def reaching_tracks(
    cohort: SimulatedCohort, n_tasks: int, row: int, level: float = 0.95
) -> list[str]:
    """The [0, 1] tracks' letters with an interval end set by the undrawn share."""
    out = analyse(cohort, n_tasks, level)
    mean, (low, high) = out.moments.mean[row], out.track_ci
    reach_low, reach_high = undrawn_ends(mean, out.moments.n, 1 - level)
    reach = np.isclose(low[row], reach_low) | np.isclose(high[row], reach_high)
    reach &= out.track_ci_methods[row] == METHOD_WILSON
    return [TRACK_LETTERS[track] for track, r in zip(TRACKS, reach, strict=True) if r]


def _model_lines(cohort: SimulatedCohort, n_tasks: int, level: float) -> list[str]:
    names = cohort.names
    out = analyse(cohort, n_tasks, level)
    lines, reached = [], False
    for row in out.order:
        low, high = out.index_ci[0][row], out.index_ci[1][row]
        reach = reaching_tracks(cohort, n_tasks, row, level)
        reached |= bool(reach)
        lines.append(
            f"  {names[row]}: index {points(out.index[row])}, {percent(level)} interval "
            f"{interval(low, high)} (width {points(high - low)}; SE {points(out.index_se[row])}"
            f"{'; undrawn share: ' + ', '.join(reach) if reach else ''})"
        )
    lines.append(WIDTH_NOTE + (REACH_NOTE if reached else "") + ".")
    return lines


#: How a width compares with the standard error, and why it can be wider (the readouts).
WIDTH_NOTE = (
    "  Width against SE: 2 x 1.96 SE with many tasks; wider with few tasks (a t quantile),\n"
    "  on C's skewed side"
)
REACH_NOTE = (
    ", and on an undrawn share track: its task scores agree so closely that\n"
    "  the interval reaches as far as a share 1 - (alpha/2)^(1/n_t) of tasks at the far bound\n"
    "  would take it (rare failures may not have been drawn)"
)


def interval_report(n_tasks: int = DEFAULT_TASKS, level: float = 0.95) -> str:
    """The slider cohort with ``n_tasks`` tasks per track: intervals, leaders, pairs.

    >>> print(interval_report(20).splitlines()[0])
    ILLUSTRATIVE (simulated) cohort: 3 models, 20 tasks per track
    """
    return _cohort_report(SLIDER_COHORT, n_tasks, level, verdicts=True)


def reading_exercise_report(level: float = 0.95) -> str:
    """The reading exercise's cohort as ``tcsexam stats`` reports it (Holm's p), no verdicts.

    >>> print(reading_exercise_report().splitlines()[0])
    ILLUSTRATIVE (simulated) cohort: 4 models, 20 tasks per track
    """
    return _cohort_report(READING_COHORT, READING_TASKS, level, verdicts=False)


def _cohort_report(cohort: SimulatedCohort, n_tasks: int, level: float, verdicts: bool) -> str:
    """A cohort's intervals and pairs; ``verdicts``: also who could be first, and whether
    each pair is shown to differ."""
    lines = [
        f"ILLUSTRATIVE (simulated) cohort: {len(cohort.models)} models, {n_tasks} tasks per track"
    ]
    lines += _model_lines(cohort, n_tasks, level)
    if verdicts:
        lines.append(f"Could be first: {name_list(could_be_first(cohort, n_tasks, level))}")
    n_pairs = len(cohort.models) * (len(cohort.models) - 1) // 2
    lines.append(
        "Pairs (first minus second, paired over the same tasks); each interval:\n"
        f"  this pair alone; the verdict adjusts for {n_pairs} pairs (Holm, adjusted p at most "
        f"{percent(1 - level)})"
    )
    for pair in pairs(cohort, n_tasks, level):
        shown = (
            f"  {pair.first} - {pair.second}: {points(pair.delta)} points, interval "
            f"{interval(*pair.ci)}"
        )
        p = format_value(pair.p_holm, P_VALUE)
        if verdicts:
            verdict = "shown to differ" if pair.differ else "not shown to differ"
            lines.append(f"{shown}: {verdict} (adjusted p {p})")
        else:
            lines.append(f"{shown}, adjusted p {p}")
    return "\n".join(lines)


#: The parts of the stats library's ``method`` the note shows, and their headings.
_NOTE_PARTS = {
    "name": "methods, by name",
    "model": "what is sampled",
    "tracks": "a track mean's interval",
    "index_ci": "the index's interval",
    "pairs": "a pair's difference and its interval",
    "p_value": "a pair's p-value",
    "p_holm": "the adjustment for the number of pairs",
    "leader_group": "could be first",
}


@dataclass(frozen=True, repr=False)
class MethodsNote:
    """How each figure of ``tcsexam stats`` is computed, as the library describes it."""

    parts: tuple[tuple[str, str], ...]

    def __repr__(self) -> str:
        lines = ["How tcsexam stats computes each figure (folded in JupyterLab):"]
        lines += [f"- {heading}: {text}" for heading, text in self.parts]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        items = "".join(
            f"<li><b>{html.escape(heading)}</b>: {html.escape(text)}</li>"
            for heading, text in self.parts
        )
        return (
            '<details class="tcs-methods"><summary><b>How each figure is computed</b> '
            "(the method names; click to unfold)</summary><ul>"
            f"{items}</ul></details>"
        )


def methods_note(keys: Sequence[str] = tuple(_NOTE_PARTS)) -> MethodsNote:
    """The stats library's own description of its methods (``METHOD``), folded.

    Fails loudly if one of ``keys`` is no longer described.

    >>> note = methods_note()
    >>> [heading for heading, _ in note.parts][:2]
    ['methods, by name', 'what is sampled']
    """
    missing = [key for key in keys if key not in METHOD]
    if missing:
        raise KeyError(f"tcsexam_lib.stats.method.METHOD no longer describes {missing}")
    return MethodsNote(tuple((_NOTE_PARTS.get(key, key), METHOD[key]) for key in keys))
