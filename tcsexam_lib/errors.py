"""The kit's one exception family: :class:`TcsexamError`, and :class:`InputRefused` with one
:class:`Problem` per finding. Only the command line prints them or exits."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

#: How many findings an error message lists before summarising the rest.
MAX_LISTED_PROBLEMS = 20


#: Unicode categories shown escaped in messages: controls, format characters (a
#: right-to-left override, a zero-width space), line and paragraph separators, surrogates.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


def visible(text: str) -> str:
    r"""``text`` with every invisible or direction-changing character shown as ``\uXXXX``
    (a NUL or right-to-left override could hide or reorder what a terminal shows).

    >>> print(visible("model\u202eevil\x00"))
    model\u202eevil\u0000
    """
    if text.isprintable():
        return text
    import unicodedata

    return "".join(
        f"\\u{ord(ch):04x}" if unicodedata.category(ch) in _HIDDEN_CATEGORIES else ch for ch in text
    )


def _show_value(value: Any) -> str:
    """Render a received value for a message: JSON-like, short, never empty."""
    if value is NOT_GIVEN:
        return "(absent)"
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def did_you_mean(value: Any, choices: Sequence[str]) -> str | None:
    """``did you mean 'x'?`` for the choice closest to ``value``, or ``None``.

    >>> did_you_mean("sim-alfa", ["sim-alpha", "sim-beta"]), did_you_mean("zzz", ["a"])
    ("did you mean 'sim-alpha'?", None)
    """
    import difflib

    close = difflib.get_close_matches(str(value), list(choices), n=1)
    return f"did you mean '{close[0]}'?" if close else None


def quoted_names(names: Sequence[str], limit: int) -> str:
    """The first ``limit`` names, quoted, and how many more there are.

    >>> quoted_names(["g1", "g2", "g3"], 2), quoted_names(["g1"], 2)
    ("'g1', 'g2' and 1 more", "'g1'")
    """
    shown = ", ".join(f"'{name}'" for name in names[:limit])
    more = len(names) - limit
    return shown + (f" and {more} more" if more > 0 else "")


class _NotGiven:
    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return "<not given>"


#: Marker for "the field was absent" (distinct from a JSON ``null``).
NOT_GIVEN: Any = _NotGiven()


@dataclass(frozen=True)
class Problem:
    """One finding about an input: ``where`` (file and line or record), ``field``, the
    ``value`` received, what is ``allowed``, and an optional ``detail``."""

    where: str
    field: str | None = None
    value: Any = NOT_GIVEN
    allowed: str | None = None
    detail: str | None = None

    def __str__(self) -> str:
        return visible(self._text())

    def _text(self) -> str:
        parts = [self.where]
        if self.field is not None:
            parts.append(f"field '{self.field}' = {_show_value(self.value)}")
        text = ": ".join(parts)
        if self.detail:
            text += f": {self.detail}"
        if self.allowed:
            text += f" (allowed: {self.allowed})"
        return text

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        if self.value is NOT_GIVEN:
            data.pop("value")
        return {key: value for key, value in data.items() if value is not None}


class TcsexamError(Exception):
    """Base class of every error the kit raises on purpose: ``problems`` (may be empty),
    ``hint`` (what to do, ending the message) and the CLI's ``exit_code``."""

    exit_code = 1

    def __init__(
        self, message: str, problems: list[Problem] | None = None, hint: str | None = None
    ) -> None:
        self.problems = list(problems or [])
        self.summary = message
        self.hint = hint
        super().__init__(self._render())

    def _render(self) -> str:
        lines = [visible(self.summary)]
        for problem in self.problems[:MAX_LISTED_PROBLEMS]:
            lines.append(f"  - {problem}")
        hidden = len(self.problems) - MAX_LISTED_PROBLEMS
        if hidden > 0:
            lines.append(f"  ... and {hidden} more")
        if self.hint:
            lines.append(f"  to do: {visible(self.hint)}")
        return "\n".join(lines)


class InputRefused(TcsexamError):
    """An input file or record cannot be scored as given; nothing was written."""

    exit_code = 2

    @classmethod
    def from_problems(
        cls, summary: str, problems: list[Problem], hint: str | None = None
    ) -> InputRefused:
        count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
        return cls(f"{summary} ({count})", problems, hint)


class ReferenceProblem(InputRefused):
    """A reference file is absent, malformed, or inconsistent with what it claims."""


class OutputRefused(TcsexamError):
    """An output could not be written (the previous file, if any, is untouched)."""


class KernelStartFailed(TcsexamError):
    """A notebook's kernel died before it could run a cell, at each of its starts."""
