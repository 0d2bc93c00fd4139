"""The formulas module (``formulas.py``) against independent implementations.

Reference means and sample standard deviations are exact and rounded once: bit for bit
what :mod:`statistics` gives (which computes with fractions).
"""

from __future__ import annotations

import statistics

from hypothesis import given
from hypothesis import strategies as st

from tcsexam_lib.formulas import exact_mean, exact_sample_std

FLOATS = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300)


VALUE_LISTS = st.one_of(
    st.lists(FLOATS, min_size=2, max_size=7),
    st.builds(lambda x, n: [x] * n, FLOATS, st.integers(2, 5)),  # identical values
    st.lists(st.sampled_from([0.0, 1.0]), min_size=2, max_size=6),  # solve tasks
    st.lists(st.decimals(-1e6, 1e6, places=3).map(float), min_size=2, max_size=5),
)


@given(VALUE_LISTS)
def test_mean_and_std_are_bit_identical_to_the_statistics_module(values):
    assert exact_mean(values) == statistics.mean(values)
    assert exact_sample_std(values) == statistics.stdev(values)


def test_identical_values_give_their_value_and_zero_spread():
    assert (exact_mean([0.1, 0.1, 0.1]), exact_sample_std([0.1, 0.1, 0.1])) == (0.1, 0.0)
