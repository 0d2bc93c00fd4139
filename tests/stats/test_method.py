"""The ``method`` text every stats output carries names the rules the code applies.

The text is prose (``stats/method.py``), so a rule changed in the code can leave it behind
(it did: the pass/fail floor and the construction skewness floor of statistics v3). Each
case ties a phrase to the constant or behaviour that makes it true.
"""

from __future__ import annotations

import numpy as np
import pytest

from tcsexam_lib.stats.intervals import track_intervals, track_moments
from tcsexam_lib.stats.method import METHOD
from tcsexam_lib.stats.pairs import MDD_POWER
from tcsexam_lib.stats.signflip import EXACT_LIMIT, smallest_p
from tcsexam_lib.stats.skewness import one_sided_interval


@pytest.mark.parametrize(
    ("key", "phrase"),
    [
        ("tracks", "a share r = 1 - (alpha/2)^(1/n_t) of the tasks at the"),
        ("mdd", f"{MDD_POWER:.0%} power"),
        ("p_value", f"at most 2^{EXACT_LIMIT.bit_length() - 1}"),
        ("p_value", f"at most {EXACT_LIMIT.bit_length() - 1} tasks that differ"),
        ("p_value", "never below 2/2^k"),
        ("mdd", "2/2^K > (1 - level)/m"),
        ("tracks", "at least twice the coefficient of variation s_t / mean"),
    ],
)
def test_the_method_text_names_the_rule_the_code_applies(key, phrase):
    assert phrase in METHOD[key]


def test_no_pair_reaches_below_two_in_two_to_the_k():
    """What the p_value text says of its floor, on the smallest case: three tasks."""
    assert smallest_p(3) == 0.25


def test_a_bounded_track_reaches_as_far_as_the_undrawn_share():
    """What the text says of [0, 1] tracks: five solver scores near 0 reach up to the share
    r = 1 - 0.025^(1/5) of tasks at 1 (0.52), whatever their tiny spread."""
    values = [np.full((1, 5), 0.5), np.array([[0.0002, 0.0004, 0.0003, 0.0001, 0.0005]])]
    values += [np.full((1, 5), 0.5)] * 2
    intervals = track_intervals(values, track_moments(values), 0.95)
    share = 1 - 0.025 ** (1 / 5)
    assert intervals.high[0, 1] == pytest.approx(0.0003 + share * (1 - 0.0003), rel=1e-12)


def test_the_construction_skewness_is_at_least_twice_the_coefficient_of_variation():
    """What the text says of construction, checked on the code: symmetric rewards with a
    spread comparable to their mean are lengthened on the right as if skewed by 2 s / mean."""
    rewards = np.array([[0.5, 1.5, 0.5, 1.5, 1.0]])  # sample skewness 0, s / mean = 0.5
    others = [np.full((1, 5), 0.5)] * 3
    values = [others[0], others[1], rewards, others[2]]
    moments = track_moments(values)
    intervals = track_intervals(values, moments, 0.95)
    low, high = intervals.low[0, 2], intervals.high[0, 2]
    se, q = moments.sd[0, 2] / np.sqrt(5), intervals.quantile[0, 2]
    for factor, same in ((2.0, True), (1.0, False)):
        _, expected = one_sided_interval(np.array(1.0), se, factor * 0.5 / np.sqrt(5), q)
        assert np.isclose(high, expected) == same
    assert high - 1.0 > 1.0 - low > 0  # the right side is the longer one
