"""What a solver-score output says beyond its score: the floors that set the scale, the
completed failures, and warnings (never refusals) for values far outside the reference."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..errors import quoted_names
from ..formulas import SCALE_TERMS
from .solver_document import SolverDocument

#: A candidate this many times ``max(|mu|, scale, 1)`` away from ``mu`` is warned about.
FAR_FACTOR = 1000.0

#: How many instance names a note spells out before counting the rest.
NAMED = 10

#: What the absolute floor means for a candidate, in words.
ABSOLUTE_FLOOR_MEANS = (
    "a value equal to mu scores 0.5, any other about 0 or 1: at best 0.5 where mu is "
    "already the best value (e.g. a cost of 0)"
)
#: What the relative floor means, in words.
RELATIVE_FLOOR_MEANS = (
    "the runs agree more closely than the relative floor (2% of |mu| in the fixed "
    "reference): the scale is that band"
)


@dataclass(frozen=True)
class SolverNotes:
    """Floors, completed failures and far values of one solver-score output.

    >>> from tcsexam_lib import reference_from_data, score_solver_task
    >>> ref = reference_from_data({"reference_id": "x", "suite": "lite",
    ...     "scale_floor_relative": 0.02, "scale_floor_absolute": 1e-9,
    ...     "tasks": {"t": {"kind": "objective", "direction": "minimize", "instances":
    ...         {"a": [0, 0], "b": [10, 12, 14], "c": [5, 7]}}},
    ...     "unscored_reference_instances": []})
    >>> out = score_solver_task(ref, "t", [{"instance": "a", "status": "ok", "A": 0},
    ...     {"instance": "b", "status": "ok", "A": 1e308},
    ...     {"instance": "c", "status": "timeout"}])
    >>> notes = solver_notes(out)
    >>> notes.failures, notes.absolute_floor, len(notes.far)
    ({'timeout': 1}, ['a'], 1)
    >>> print(notes.lines()[0])
    scale set by: sample std 2, relative floor 0, absolute floor 1
    """

    scale_terms: dict[str, int]
    absolute_floor: list[str]
    failures: dict[str, int]
    far: list[str]

    def failures_text(self) -> str:
        """``1 completed failure (timeout 1)`` or ``no completed failure``."""
        n = sum(self.failures.values())
        if not n:
            return "no completed failure"
        counts = ", ".join(f"{status} {k}" for status, k in sorted(self.failures.items()))
        return f"{n} completed failure{'' if n == 1 else 's'} scored 0 ({counts})"

    def lines(self) -> list[str]:
        """The notes in words: the floors, then a warning per far value."""
        terms = ", ".join(f"{t.replace('_', ' ')} {k}" for t, k in self.scale_terms.items())
        lines = [f"scale set by: {terms}"]
        if self.absolute_floor:
            lines.append(
                f"absolute floor sets the scale of {len(self.absolute_floor)} instance(s): "
                f"{quoted_names(self.absolute_floor, NAMED)}; there {ABSOLUTE_FLOOR_MEANS}"
            )
        return lines + [f"warning: {text}" for text in self.far]


def far_from_reference(a: float, mu: float, scale: float) -> bool:
    """True when ``a`` is over :data:`FAR_FACTOR` times ``max(|mu|, scale, 1)`` from ``mu``.

    >>> far_from_reference(1e308, 12.0, 20.0), far_from_reference(3.0, 0.0, 1e-9)
    (True, False)
    >>> far_from_reference(1.7e308, -1.6e308, 5.8e306)  # twice |mu| away: not far
    False
    """
    return abs(float(a) / FAR_FACTOR - mu / FAR_FACTOR) > max(abs(mu), scale, 1.0)  # no overflow


def solver_notes(output: SolverDocument) -> SolverNotes:
    """The :class:`SolverNotes` of a solver-score output (read from its instance rows)."""
    terms = Counter(row.scale_term for row in output.rows)
    far = [
        f"instance '{row.instance}': A = {row.A!r} is orders of magnitude outside the "
        f"reference (mu {row.mu:.6g}, scale {row.scale:.6g}; more than {FAR_FACTOR:g} x "
        "max(|mu|, scale, 1) away): check the record"
        for row in output.rows
        if row.z is not None and far_from_reference(row.A, row.mu, row.scale)
    ]
    return SolverNotes(
        {term: terms.get(term, 0) for term in SCALE_TERMS},
        [row.instance for row in output.rows if row.scale_term == "absolute_floor"],
        dict(Counter(row.status for row in output.rows if row.z is None)),
        far,
    )
