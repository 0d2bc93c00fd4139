"""The rules of an input, each written once: a fast column-wise test that accepts
(``holds``) and a row-wise explanation naming every problem (``explain``).

Where ``holds`` is true ``explain`` finds nothing; a refused input is explained by the list
(a rule may leave a row to an earlier rule). See docs/architecture.md, "Rules of the inputs".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Generic, TypeVar

Data = TypeVar("Data")
Found = TypeVar("Found")

#: The key an explained problem is listed by (problems with equal keys keep rule order).
Key = tuple[Any, ...]


@dataclass(frozen=True)
class Rule(Generic[Data, Found]):
    """One rule of an input kind: its name, what it says, and its two halves."""

    name: str
    says: str
    holds: Callable[[Data], bool]
    explain: Callable[[Data], Iterable[tuple[Key, Found]]]


@dataclass(frozen=True)
class RuleList(Generic[Data, Found]):
    """Every rule of one input kind, in the order their problems are told.

    >>> from tcsexam_lib.errors import Problem
    >>> positive = Rule(
    ...     "positive", "every value is > 0",
    ...     holds=lambda values: min(values, default=1) > 0,
    ...     explain=lambda values: [((k,), Problem(f"value #{k + 1}", field="value", value=v,
    ...                                            allowed="a number > 0"))
    ...                             for k, v in enumerate(values) if not v > 0])
    >>> rules = RuleList("numbers", (positive,))
    >>> rules.hold([1, 2]), rules.problems([1, 2])
    (True, [])
    >>> rules.hold([1, -2]), [str(p) for p in rules.problems([1, -2])]
    (False, ["value #2: field 'value' = -2 (allowed: a number > 0)"])
    """

    kind: str
    rules: tuple[Rule[Data, Found], ...]

    def hold(self, data: Data) -> bool:
        """True when every rule's fast test accepts ``data``."""
        return all(rule.holds(data) for rule in self.rules)

    def problems(self, data: Data) -> list[Found]:
        """Every problem the rules explain in ``data``, by key (then in rule order)."""
        explained = [found for rule in self.rules for found in rule.explain(data)]
        explained.sort(key=itemgetter(0))
        return [found for _, found in explained]

    def refusal(self, data: Data) -> list[Found]:
        """Nothing when every fast test accepts ``data``; else every explained problem."""
        return [] if self.hold(data) else self.problems(data)

    def __iter__(self):
        return iter(self.rules)
