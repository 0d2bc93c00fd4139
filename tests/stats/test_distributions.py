"""`tcsexam_lib.stats.distributions` against scipy (the oracle; the kit avoids its import).

One table of cases per function; each case states the range it covers and the
tolerance the kit's docstrings promise.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from scipy import special
from scipy.stats import binomtest

from tcsexam_lib.stats.distributions import (
    beta_cdf,
    beta_quantile,
    log_gamma,
    normal_quantile,
    t_quantile,
    t_two_sided_p,
)
from tcsexam_lib.stats.intervals import clopper_pearson

RNG = np.random.default_rng(20261202)


def _log_uniform(low: float, high: float, size: int) -> np.ndarray:
    return np.exp(RNG.uniform(np.log(low), np.log(high), size))


def test_log_gamma_matches_scipy():
    x = np.concatenate([_log_uniform(0.5, 1e5, 5000), [0.5, 1.0, 1.5, 2.0, 10.0]])
    assert (
        np.max(np.abs(log_gamma(x) - special.gammaln(x)) / np.abs(special.gammaln(x)).clip(1))
        < 1e-13
    )


def test_beta_cdf_matches_scipy():
    a, b = _log_uniform(0.5, 500, 4000), _log_uniform(0.5, 500, 4000)
    x = RNG.random(4000)
    assert np.max(np.abs(beta_cdf(x, a, b) - special.betainc(a, b, x))) < 1e-12
    assert beta_cdf(0.0, 2.0, 3.0) == 0.0 and beta_cdf(1.0, 2.0, 3.0) == 1.0


P_VALUE_CASES = {
    # name: (t values, degrees of freedom)
    "moderate": (RNG.standard_normal(4000) * 3, _log_uniform(1.0, 200.0, 4000)),
    "far tails": (RNG.uniform(5, 80, 4000), _log_uniform(1.0, 60.0, 4000)),
    "near zero": (RNG.uniform(0, 1e-3, 2000), _log_uniform(0.5, 1e4, 2000)),
    "many df": (RNG.standard_normal(2000) * 4, _log_uniform(200.0, 1e4, 2000)),
}


@pytest.mark.parametrize("case", P_VALUE_CASES, ids=list(P_VALUE_CASES))
def test_two_sided_p_matches_scipy(case):
    t, df = P_VALUE_CASES[case]
    expected = 2 * special.stdtr(df, -np.abs(t))
    got = t_two_sided_p(t, df)
    usable = expected > 1e-300
    assert np.max(np.abs(got[usable] - expected[usable]) / expected[usable]) < 1e-11
    assert np.all((got >= 0) & (got <= 1))


def test_p_values_have_no_resampling_floor():
    """A difference hundreds of standard errors wide gives p far below 1/(B + 1)."""
    assert t_two_sided_p(200.0, 10.0) < 1e-15  # B = 10,000 resamples could not go below 1e-4
    assert t_two_sided_p(np.array([0.0]), np.array([3.0])).tolist() == [1.0]


QUANTILE_CASES = {
    # name: (tail, number of df values (over 128: the interpolated path), df range)
    "95% few df": (0.025, 40, (1.0, 40.0)),
    "95% many df": (0.025, 5000, (1.0, 1e4)),
    "power 80%": (0.2, 5000, (2.0, 200.0)),
    "holm step, 1770 pairs": (0.05 / (2 * 1770), 5000, (1.0, 100.0)),
    "holm step, 499,500 pairs": (0.05 / (2 * 499500), 300, (4.0, 16.0)),
    "near the median": (0.4999, 300, (0.5, 3.0)),
}


@pytest.mark.parametrize("case", QUANTILE_CASES, ids=list(QUANTILE_CASES))
def test_t_quantile_matches_scipy(case):
    tail, size, (low, high) = QUANTILE_CASES[case]
    df = _log_uniform(low, high, size)
    expected = -special.stdtrit(df, tail)
    got = t_quantile(None, df, tail=tail)
    assert np.max(np.abs(got - expected) / expected) < 1e-11


def test_t_quantile_of_a_probability_and_its_symmetry():
    df = np.array([3.0, 7.5, 30.0])
    assert np.allclose(t_quantile(0.975, df), special.stdtrit(df, 0.975), rtol=1e-12)
    assert np.allclose(t_quantile(0.025, df), -t_quantile(0.975, df), rtol=0)
    assert t_quantile(0.5, df).tolist() == [0.0, 0.0, 0.0]
    assert np.isnan(t_quantile(0.975, np.array([np.nan]))).all()


def test_beta_quantile_and_clopper_pearson_match_scipy():
    n = 20
    k = np.arange(1.0, n + 1)
    assert np.allclose(
        beta_quantile(0.025, k, n - k + 1), special.betaincinv(k, n - k + 1, 0.025), atol=1e-14
    )
    for n in (1, 5, 8, 20):
        for successes in range(n + 1):
            low, high = clopper_pearson(np.array([successes]), n, 0.05)
            exact = binomtest(successes, n).proportion_ci(confidence_level=0.95, method="exact")
            assert (low[0], high[0]) == pytest.approx((exact.low, exact.high), abs=1e-12)


def test_normal_quantile():
    assert normal_quantile(0.975) == pytest.approx(special.ndtri(0.975), rel=1e-15)


def test_the_stats_command_does_not_import_scipy_or_pandas():
    """scipy.special costs about 0.25 s to import: more than the command at 200 models."""
    code = (
        "import sys, tempfile, pathlib, json\n"
        "from tcsexam_lib.stats.command import write_stats\n"
        "from tcsexam_lib.stats import analyse_cohort\n"
        "import numpy as np\n"
        "analyse_cohort([np.array([[0.0, 1, 1], [1, 1, 0.5]])] * 4)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('scipy', 'pandas')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_quantile_memo_stays_bounded_and_right(monkeypatch):
    """When the memo is full it starts again; every answer stays the solved one."""
    from tcsexam_lib.stats import distributions

    monkeypatch.setattr(distributions, "_SOLVED", {})
    monkeypatch.setattr(distributions, "_SOLVED_LIMIT", 10)
    first = np.arange(1.0, 9.0)
    second = np.arange(5.0, 13.0)  # half of them known, the memo overflows
    for df in (first, second, first):
        assert np.allclose(t_quantile(0.975, df), special.stdtrit(df, 0.975), rtol=1e-12)
        assert len(distributions._SOLVED) <= 10
