"""The value of an instance record: the one rule shared by every reader of the record format.

``tcsexam solver-score`` reads a candidate's records and ``tcsexam reference build`` reads
each reference run's records in the same format (schema ``records``); an ``ok`` record's
usable value is found here for both.
"""

from __future__ import annotations

import math
import sys
from typing import Any

from .errors import NOT_GIVEN, Problem


def is_finite_number(value: int | float) -> bool:
    """True for a float that is finite and an integer that a float can hold.

    Examples
    --------
    >>> is_finite_number(12), is_finite_number(float("inf")), is_finite_number(10**400)
    (True, False, False)
    """
    if isinstance(value, int):
        return abs(value) <= _LARGEST_FLOAT
    return math.isfinite(value)


_LARGEST_FLOAT = int(sys.float_info.max)


def candidate_value(
    record: dict[str, Any], kind: str, where: str
) -> tuple[float | None, Problem | None]:
    """The usable value of an ``ok`` record of a task of ``kind``, or a problem saying why
    there is none.

    Objective tasks need a finite number ``A`` (not a boolean); ``solve`` tasks take
    ``A`` 1 or 0 or ``solved`` true or false (both must agree when both are given).
    """
    has_a = "A" in record and record["A"] is not None
    has_solved = "solved" in record and record["solved"] is not None
    a = record.get("A")
    if kind == "objective":  # a 'solved' field was refused before
        if not has_a:
            return None, Problem(
                where,
                field="A",
                value=record.get("A", NOT_GIVEN),
                allowed="a finite number when status is 'ok'",
            )
        if isinstance(a, bool) or not isinstance(a, int | float) or not is_finite_number(a):
            return None, Problem(
                where,
                field="A",
                value=a,
                allowed="a finite number (not a boolean) when status is 'ok'",
            )
        return float(a), None
    # solve task: 1 (solved) or 0 (not solved), from `solved` or from A
    if has_a:
        if isinstance(a, bool):
            value = 1.0 if a else 0.0
        elif isinstance(a, int | float) and a in (0, 1):
            value = float(a)
        else:
            return None, Problem(
                where, field="A", value=a, allowed="1 (solved) or 0 (not solved) on a solve task"
            )
    else:
        value = None
    if has_solved:
        solved = 1.0 if record["solved"] else 0.0
        if value is not None and value != solved:
            return None, Problem(
                where, field="solved", value=record["solved"], detail=f"disagrees with A = {a!r}"
            )
        value = solved
    if value is None:
        return None, Problem(
            where,
            field="A",
            value=record.get("A", NOT_GIVEN),
            allowed="A (1 or 0) or solved (true/false) when status is 'ok'",
        )
    return value, None
