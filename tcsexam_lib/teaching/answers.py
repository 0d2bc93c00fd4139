"""What every exercise shares: the :class:`Check`, the folded :class:`Solution`, and reading
an answer (a wrong kind is a one-line :class:`WrongKind`, not a traceback)."""

from __future__ import annotations

import html
import math
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

#: Numeric answers within this distance of the library's value count as right: a score in
#: [0, 1] given to the 3 decimals the exercises teach (intermediate steps rounded too).
TOLERANCE = 1.5e-3
#: The same for an index in points (track means rounded to 3 decimals move it by 0.05).
POINTS_TOLERANCE = 0.05

_COLOURS = {"right": "#0072B2", "wrong": "#D55E00", "unanswered": "#6b6b6b"}  # Okabe-Ito
_BOX = (
    "border-left:6px solid {colour};background:#f7f7f7;color:#1a1a1a;padding:6px 10px;margin:4px 0"
)


@dataclass(frozen=True, repr=False)
class Check:
    """The verdict on one answer: ``correct`` and ``why`` (what was right or wrong)."""

    exercise: str
    number: int
    correct: bool
    why: str
    answered: bool = True
    #: False for an answer of the wrong kind (``why`` then says what is expected).
    kind_ok: bool = True

    @property
    def verdict(self) -> str:
        """``right``, ``not right yet``, ``not answered yet`` or ``not the kind of answer
        expected``."""
        if not self.kind_ok:
            return "not the kind of answer expected"
        if not self.answered:
            return "not answered yet"
        return "right" if self.correct else "not right yet"

    def __repr__(self) -> str:
        head = f"Exercise {self.number} ({self.exercise}): {self.verdict}"
        return f"{head}: {self.why}" if not self.kind_ok else f"{head}.\n{self.why}"

    def _repr_html_(self) -> str:
        key = "right" if self.correct else ("wrong" if self.answered else "unanswered")
        mark = {"right": "&#10004;", "wrong": "&#10008;", "unanswered": "&#8230;"}[key]
        why = html.escape(self.why).replace("\n", "<br>")
        head = f"<b>{mark} Exercise {self.number}: {self.verdict}.</b>"
        return (
            f'<div style="{_BOX.format(colour=_COLOURS[key])}">'
            f"{head}{' ' if not self.kind_ok else '<br>'}{why}</div>"
        )


@dataclass(frozen=True, repr=False)
class Solution:
    """An exercise's solution: its answer and derivation, computed; folded (``<details>``)."""

    exercise: str
    number: int
    answer: str
    derivation: str

    def __repr__(self) -> str:
        return (
            f"Solution to exercise {self.number} ({self.exercise}), folded in JupyterLab: "
            f"{self.answer}\n{self.derivation}"
        )

    def _repr_html_(self) -> str:
        derivation = html.escape(self.derivation).replace("\n", "<br>")
        return (
            f'<details class="tcs-solution"><summary><b>Solution to exercise {self.number}</b>'
            f" (click to unfold)</summary>"
            f'<div style="{_BOX.format(colour=_COLOURS["right"])}">'
            f"<b>Answer: {html.escape(self.answer)}</b><br>{derivation}</div></details>"
        )


class WrongKind(ValueError):
    """An answer of the wrong kind (turned into a :class:`Check` by ``check_answer``)."""


@dataclass(frozen=True)
class Exercise:
    """One exercise: id, number, task, the kind of answer expected, check, true answer."""

    id: str
    number: int
    task: str
    expects: str
    check: Callable[[Any], Check]
    truth: Callable[[], Any]
    #: The true answer as the solution writes it.
    show: Callable[[Any], str] = str

    def unanswered(self) -> Check:
        """The verdict on ``None``: the task again, and no hint of the answer."""
        return Check(self.id, self.number, False, f"Task: {self.task}", answered=False)

    def wrong(self, why: str) -> Check:
        return Check(self.id, self.number, False, why)

    def right(self, why: str) -> Check:
        return Check(self.id, self.number, True, why)


def as_number(exercise: Exercise, answer: Any) -> float:
    """The answer as a finite number, or :class:`WrongKind` saying what is expected.

    >>> demo = Exercise("demo", 1, "give a number", "a number such as 0.5", None, None)
    >>> as_number(demo, 3)
    3.0
    >>> try:
    ...     as_number(demo, "0.4")
    ... except WrongKind as wrong:
    ...     print(wrong)
    expected a number such as 0.5; got '0.4' (str): write the number without quotes, e.g. 0.4
    """
    if isinstance(answer, bool) or not isinstance(answer, numbers.Real):
        hint = ""
        if isinstance(answer, str) and _parses_as_number(answer):
            hint = f": write the number without quotes, e.g. {answer.strip()}"
        raise WrongKind(
            f"expected {exercise.expects}; got {answer!r} ({type(answer).__name__}){hint}"
        )
    value = float(answer)
    if not math.isfinite(value):
        raise WrongKind(f"expected {exercise.expects}; got {answer!r}, not a finite number")
    return value


def _parses_as_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def close(a: float, b: float, tolerance: float = TOLERANCE) -> bool:
    """Whether two numbers agree within ``tolerance``."""
    return abs(a - b) <= tolerance


def numeric_check(
    exercise: Exercise,
    answer: Any,
    truth: float,
    right_why: str,
    mistakes: Sequence[tuple[float, str]],
    hint: str,
    tolerance: float = TOLERANCE,
) -> Check:
    """Right within ``tolerance``; else the first mistake recognised at that tolerance, else
    ``hint``."""
    if answer is None:
        return exercise.unanswered()
    value = as_number(exercise, answer)
    if close(value, truth, tolerance):
        return exercise.right(right_why)
    for mistaken, why in mistakes:
        if close(value, mistaken, tolerance):
            return exercise.wrong(f"{value:.4g}: {why}")
    return exercise.wrong(f"{value:.4g} is not it. {hint}")


def as_names(exercise: Exercise, answer: Any, allowed: Sequence[str]) -> set[str]:
    """The answer as a set of names among ``allowed`` (a list, tuple or set of strings).

    >>> demo = Exercise("demo", 1, "name some", "a list of names", None, None)
    >>> sorted(as_names(demo, ["b", "a"], ["a", "b", "c"]))
    ['a', 'b']
    >>> try:
    ...     as_names(demo, ["d"], ["a", "b"])
    ... except WrongKind as wrong:
    ...     print(wrong)
    'd' is not one of the names: a, b
    """
    if isinstance(answer, str):
        answer = [answer]
    if not isinstance(answer, list | tuple | set | frozenset) or not all(
        isinstance(name, str) for name in answer
    ):
        raise WrongKind(f"expected {exercise.expects}; got {answer!r}")
    unknown = [name for name in answer if name not in allowed]
    if unknown:
        raise WrongKind(f"{unknown[0]!r} is not one of the names: {', '.join(allowed)}")
    return set(answer)


#: The answers read as yes and as no.
_YES = {"yes", "y", "true"}
_NO = {"no", "n", "false"}


def as_yes_no(exercise: Exercise, answer: Any) -> bool:
    """``"yes"``/``"no"`` (or ``True``/``False``) as a bool.

    >>> demo = Exercise("demo", 1, "yes or no", '"yes" or "no"', None, None)
    >>> as_yes_no(demo, "No"), as_yes_no(demo, True)
    (False, True)
    """
    if isinstance(answer, bool):
        return answer
    if isinstance(answer, str) and answer.strip().lower() in _YES | _NO:
        return answer.strip().lower() in _YES
    raise WrongKind(f"expected {exercise.expects}; got {answer!r}")


def refuse_outside(answer: dict[str, Any], allowed: Sequence[str], what: str) -> None:
    """Refuse an answer whose values are not all among ``allowed`` (wrong kind)."""
    bad = {k: v for k, v in answer.items() if v not in allowed}
    if bad:
        raise WrongKind(f"{bad}: each {what} is one of {', '.join(allowed)}")
