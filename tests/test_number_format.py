"""The number policy of every page (``number_format.py``): one format per kind of number."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tcsexam_lib.number_format import (
    MISSING_TEXT,
    format_value,
    interval,
    points,
    rounded_parts,
    signed_points,
    task_kind,
)


@pytest.mark.parametrize(
    ("value", "kind", "text"),
    [
        (82.892634, "points", "82.89"),
        (55.5, "points", "55.50"),
        (-0.001, "points", "0.00"),  # never "-0.00"
        (0.59472, "mean", "0.595"),
        (1.1267, "mean", "1.127"),
        (1.0, "pass/fail", "pass"),
        (0, "pass/fail", "fail"),
        (2 / 3, "pass/fail", "0.667"),  # a share over repeats reads as a mean
        (0.1580, "p", "0.158"),
        (0.00049, "p", "< 0.001"),
        (1.0, "p", "1.000"),
        (1.234, "z", "1.23"),
        (523.714159, "raw", "523.714"),
        (1e-9, "raw", "1e-09"),
        (32, "count", "32"),
        (None, "points", MISSING_TEXT),
        (float("nan"), "mean", MISSING_TEXT),
        (True, "text", "yes"),
    ],
)
def test_each_kind_has_one_format(value, kind, text):
    assert format_value(value, kind) == text


def test_helpers_follow_the_same_policy():
    assert points(70.7457) == "70.75" and signed_points(12.1549) == "+12.15"
    assert signed_points(-5.2) == "-5.20" and signed_points(None) == MISSING_TEXT
    assert interval(68.9, 92.54) == "[68.90, 92.54]" and interval(None, 1.0) == MISSING_TEXT
    assert interval(0.1854, 0.9462, "mean") == "[0.185, 0.946]"
    assert task_kind("theorem") == task_kind("conjecture") == "pass/fail"
    assert task_kind("solver") == task_kind("construction") == "mean"


def test_rounded_parts_add_up_to_the_rounded_total_and_move_less_than_a_unit():
    """The issue's example: a bar of 63.67 made of 49.333... and 14.333..."""
    parts = [148 / 3, 43 / 3]
    shown = rounded_parts(parts)
    assert points(sum(shown)) == points(sum(parts)) == "63.67"
    assert all(abs(a - b) < 0.01 for a, b in zip(shown, parts, strict=True))


@given(st.lists(st.one_of(st.none(), st.floats(0, 60, allow_nan=False)), min_size=1, max_size=6))
def test_rounded_parts_property(parts):
    shown = rounded_parts(parts)
    present = [p for p in parts if p is not None]
    assert [s is None for s in shown] == [p is None for p in parts]
    assert math.isclose(
        round(sum(s for s in shown if s is not None), 2), float(points(sum(present))), abs_tol=1e-9
    )
    for s, p in zip(shown, parts, strict=True):
        if p is not None:
            assert abs(s - p) < 0.01 + 1e-9
