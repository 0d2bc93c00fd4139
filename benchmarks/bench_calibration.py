"""Calibration of ``tcsexam stats`` on SIMULATED cohorts: shown, not claimed.

Run with ``make bench-calibration`` (a few minutes on two cores). Every cohort below is
SIMULATED from the seeded hierarchical model described here; none is a TCSExam result.
The figures are computed with the kit's own :func:`tcsexam_lib.stats.analyse_cohort`
(what ``tcsexam stats`` writes) and printed with their goals, PASS or MISS:

1. coverage of the 95 % index interval (``index_ci``) over cohorts with 20 tasks a track
   and 1, 3 and 5 attempts a task (goal within [93.5 %, 96.5 %]); the bootstrap
   percentile interval (``index_ci_bootstrap``) and a BCa interval on the same bootstrap
   are printed beside it for comparison;
2. the type-I error of the paired sign-flip test on equal models (goal <= 5.5 %) and the
   family-wise error after Holm over the 6 pairs of 4 equal models (goal <= 5 %);
3. the Monte Carlo error (standard deviation over seeds) of the interval ends at
   B = 10,000 on one cohort (goal < 0.05 index points).

The hierarchical model (per model ``m`` with ability ``a_m``, task ``i`` of a track,
attempt ``j``; tasks are drawn anew for every cohort, so the true index is the
expectation over tasks, interactions and attempts, computed by Gauss-Hermite
quadrature):

- theorem: attempt accepted with probability ``expit(a_m + b_i + u_mi)``,
  ``b_i ~ N(0, 1.5^2)``, ``u_mi ~ N(0, 0.5^2)`` (the model-by-task interaction);
- conjecture: the same with ``b_i ~ N(-1.5, 1.5^2)`` (open problems: rarely solved);
- solver: relative score ``expit(0.5 a_m + b_i + u_mi + e_mij)``, ``b_i ~ N(0.2, 0.7^2)``,
  ``u_mi ~ N(0, 0.3^2)``, attempt noise ``e_mij ~ N(0, 0.4^2)``;
- construction: reward ``exp(0.3 a_m + b_i + u_mi + e_mij)``, ``b_i ~ N(-0.1, 0.35^2)``,
  ``u_mi ~ N(0, 0.15^2)``, ``e_mij ~ N(0, 0.25^2)`` (around 1, above it for strong models).

Coverage cohorts hold 4 models with abilities -1.0, -0.3, 0.4 and 1.2 (true indexes
about 47, 58, 72 and 89 points); null cohorts hold 4 models of ability 0.3.
"""

from __future__ import annotations

import sys
import time

import numpy as np
from scipy.special import expit, ndtr, ndtri

from tcsexam_lib.formulas import combine_track_mean_arrays
from tcsexam_lib.stats import analyse_cohort
from tcsexam_lib.stats.bootstrap import bootstrap_replicates, draw_task_indices

SEED = 20261211
N_TASKS = 20
ATTEMPTS = (1, 3, 5)
LEVEL = 0.95
COVERAGE_COHORTS = 2000  # per number of attempts
NULL_COHORTS = 4000  # per number of attempts
COVERAGE_RESAMPLES = 1000  # B inside the coverage study (the t-interval does not use it)
MC_RESAMPLES = 10_000  # B of the Monte Carlo error study (the command's default)
MC_SEEDS = 200
ABILITIES = (-1.0, -0.3, 0.4, 1.2)
NULL_ABILITY = 0.3

#: Per track (P, S, C, O): link, task mean, task sd, interaction sd, attempt sd, slope.
TRACK_MODEL = (
    ("bernoulli", 0.0, 1.5, 0.5, 0.0, 1.0),  # theorem
    ("logistic", 0.2, 0.7, 0.3, 0.4, 0.5),  # solver
    ("exp", -0.1, 0.35, 0.15, 0.25, 0.3),  # construction
    ("bernoulli", -1.5, 1.5, 0.5, 0.0, 1.0),  # conjecture
)

GOALS = {
    "coverage": (0.935, 0.965),
    "type_i": 0.055,
    "fwer": 0.05,
    "mc_error": 0.05,
}


def true_index(ability: float) -> float:
    """The expected index of a model of this ability over new tasks and attempts."""
    nodes, weights = np.polynomial.hermite_e.hermegauss(80)
    weights = weights / weights.sum()
    means = []
    for link, mu, sd_task, sd_inter, sd_attempt, slope in TRACK_MODEL:
        z = slope * ability + mu + np.sqrt(sd_task**2 + sd_inter**2 + sd_attempt**2) * nodes
        means.append(float((np.exp(z) if link == "exp" else expit(z)) @ weights))
    return float(combine_track_mean_arrays(np.array(means)))


def simulate_cohort(
    rng: np.random.Generator, abilities: np.ndarray, attempts: int
) -> list[np.ndarray]:
    """SIMULATED task means: per track an array (models, N_TASKS)."""
    values = []
    for link, mu, sd_task, sd_inter, sd_attempt, slope in TRACK_MODEL:
        task = rng.normal(mu, sd_task, N_TASKS)
        inter = rng.normal(0.0, sd_inter, (abilities.size, N_TASKS))
        linear = (slope * abilities[:, None] + task + inter)[..., None]
        linear = linear + rng.normal(0.0, sd_attempt, (abilities.size, N_TASKS, attempts))
        if link == "bernoulli":
            scores = (rng.random(linear.shape) < expit(linear)).astype(float)
        else:
            scores = np.exp(linear) if link == "exp" else expit(linear)
        values.append(scores.mean(axis=-1))
    return values


def bca_interval(values: list[np.ndarray], rng: np.random.Generator, resamples: int):
    """BCa interval of each model's index (comparison only; not what the kit reports)."""
    index = combine_track_mean_arrays(np.stack([v.mean(-1) for v in values], -1))
    _, replicates = bootstrap_replicates(values, draw_task_indices(rng, [N_TASKS] * 4, resamples))
    below = (replicates < index[:, None]).mean(-1) + 0.5 * (replicates == index[:, None]).mean(-1)
    z0 = ndtri(np.clip(below, 1 / resamples, 1 - 1 / resamples))
    # Acceleration from the jackknife influence of each task (a linear statistic).
    centred = [v - v.mean(-1, keepdims=True) for v in values]
    influence = np.concatenate(
        [w * c / c.shape[-1] for w, c in zip(_weights(), centred, strict=True)], axis=-1
    )
    accel = (influence**3).sum(-1) / (6 * ((influence**2).sum(-1)) ** 1.5)
    ends = []
    for z in ndtri(np.array([(1 - LEVEL) / 2, (1 + LEVEL) / 2])):
        shifted = ndtr(z0 + (z0 + z) / (1 - accel * (z0 + z)))
        ends.append(np.array([np.quantile(r, q) for r, q in zip(replicates, shifted, strict=True)]))
    return ends[0], ends[1]


def _weights() -> np.ndarray:
    """The index weights, read through the kit's formula (the index of unit track means)."""
    return combine_track_mean_arrays(np.eye(4))


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def coverage_study(seed_sequence: np.random.SeedSequence) -> None:
    truth = np.array([true_index(a) for a in ABILITIES])
    low_goal, high_goal = GOALS["coverage"]
    print(
        f"\n1. Coverage of the {LEVEL:.0%} index interval ({COVERAGE_COHORTS} SIMULATED cohorts "
        f"per row, {len(ABILITIES)} models each, {N_TASKS} tasks a track, "
        f"B = {COVERAGE_RESAMPLES}); goal within [{low_goal:.1%}, {high_goal:.1%}]"
    )
    print(f"   true indexes: {', '.join(f'{t:.2f}' for t in truth)}")
    print(
        f"   {'attempts':>8}  {'index_ci (t, WS df)':>20}  {'bootstrap percentile':>20}  "
        f"{'bootstrap BCa':>14}  {'pair ci (t)':>11}"
    )
    totals = np.zeros(4)
    rng = np.random.default_rng(seed_sequence)
    abilities = np.array(ABILITIES)
    pair_truth = None
    for attempts in ATTEMPTS:
        hits = np.zeros(4)
        for _ in range(COVERAGE_COHORTS):
            values = simulate_cohort(rng, abilities, attempts)
            out = analyse_cohort(
                values, resamples=COVERAGE_RESAMPLES, seed=int(rng.integers(2**32)), level=LEVEL
            )
            bca = bca_interval(values, rng, COVERAGE_RESAMPLES)
            for k, (low, high) in enumerate((out.index_ci, out.index_ci_bootstrap, bca)):
                hits[k] += np.mean((low <= truth) & (truth <= high))
            pair_truth = np.array([truth[a] - truth[b] for a, b in out.pairs])
            hits[3] += np.mean((out.pair_ci[0] <= pair_truth) & (pair_truth <= out.pair_ci[1]))
        rates = hits / COVERAGE_COHORTS
        totals += rates
        ok = low_goal <= rates[0] <= high_goal
        print(
            f"   {attempts:>8}  {rates[0]:>13.2%} {_verdict(ok)}  {rates[1]:>15.2%} "
            f"{_verdict(low_goal <= rates[1] <= high_goal)}  {rates[2]:>9.2%} "
            f"{_verdict(low_goal <= rates[2] <= high_goal)}  {rates[3]:>11.2%}"
        )
    rates = totals / len(ATTEMPTS)
    print(
        f"   {'all':>8}  {rates[0]:>13.2%} {_verdict(low_goal <= rates[0] <= high_goal)}  "
        f"{rates[1]:>15.2%} {_verdict(low_goal <= rates[1] <= high_goal)}  {rates[2]:>9.2%} "
        f"{_verdict(low_goal <= rates[2] <= high_goal)}  {rates[3]:>11.2%}"
    )


def null_study(seed_sequence: np.random.SeedSequence) -> None:
    alpha = 1 - LEVEL
    print(
        f"\n2. Equal models ({NULL_COHORTS} SIMULATED cohorts per row, 4 models of ability "
        f"{NULL_ABILITY}, 6 pairs, sign-flip B = {COVERAGE_RESAMPLES}); goals: type-I "
        f"<= {GOALS['type_i']:.1%}, family-wise error after Holm <= {GOALS['fwer']:.1%}"
    )
    rng = np.random.default_rng(seed_sequence)
    abilities = np.full(4, NULL_ABILITY)
    rejections = familywise = pairs = cohorts = 0
    for attempts in ATTEMPTS:
        rejected = any_rejected = 0
        for _ in range(NULL_COHORTS):
            values = simulate_cohort(rng, abilities, attempts)
            out = analyse_cohort(
                values, resamples=COVERAGE_RESAMPLES, seed=int(rng.integers(2**32)), level=LEVEL
            )
            rejected += int((out.p_value <= alpha).sum())
            any_rejected += int((out.p_holm <= alpha).any())
        n_pairs = NULL_COHORTS * 6
        print(
            f"   attempts {attempts}: type-I {rejected / n_pairs:6.2%} "
            f"{_verdict(rejected / n_pairs <= GOALS['type_i'])}   family-wise "
            f"{any_rejected / NULL_COHORTS:6.2%} "
            f"{_verdict(any_rejected / NULL_COHORTS <= GOALS['fwer'])}"
        )
        rejections += rejected
        familywise += any_rejected
        pairs += n_pairs
        cohorts += NULL_COHORTS
    print(
        f"   all       : type-I {rejections / pairs:6.2%} "
        f"{_verdict(rejections / pairs <= GOALS['type_i'])}   family-wise "
        f"{familywise / cohorts:6.2%} {_verdict(familywise / cohorts <= GOALS['fwer'])}"
    )


def monte_carlo_study(seed_sequence: np.random.SeedSequence) -> None:
    print(
        f"\n3. Monte Carlo error of the interval ends at B = {MC_RESAMPLES} (standard "
        f"deviation over {MC_SEEDS} seeds, one SIMULATED cohort of 4 models, 3 attempts); "
        f"goal < {GOALS['mc_error']} index points"
    )
    rng = np.random.default_rng(seed_sequence)
    values = simulate_cohort(rng, np.array(ABILITIES), 3)
    ends = {"index_ci (t, WS df)": [], "index_ci_bootstrap (percentile)": [], "pair ci": []}
    p_values = []
    for seed in range(MC_SEEDS):
        out = analyse_cohort(values, resamples=MC_RESAMPLES, seed=seed, level=LEVEL)
        ends["index_ci (t, WS df)"].append(np.concatenate(out.index_ci))
        ends["index_ci_bootstrap (percentile)"].append(np.concatenate(out.index_ci_bootstrap))
        ends["pair ci"].append(np.concatenate(out.pair_ci))
        p_values.append(out.p_value)
    print(
        f"   index standard errors of the cohort: "
        f"{', '.join(f'{se:.2f}' for se in out.index_se)} points"
    )
    for label, rows in ends.items():
        worst = float(np.std(np.array(rows), axis=0, ddof=1).max())
        print(
            f"   {label:<32} largest sd of an end {worst:.4f} {_verdict(worst < GOALS['mc_error'])}"
        )
    spread = np.std(np.array(p_values), axis=0, ddof=1).max()
    means = ", ".join(f"{p:.3f}" for p in np.mean(p_values, axis=0))
    print(
        f"   sign-flip p-values (for the record, no goal): largest sd {spread:.4f}; means {means}"
    )


def main() -> int:
    start = time.perf_counter()
    print(f"Calibration of tcsexam stats on SIMULATED cohorts (not TCSExam results); seed {SEED}")
    coverage, null, monte_carlo = np.random.SeedSequence(SEED).spawn(3)
    coverage_study(coverage)
    null_study(null)
    monte_carlo_study(monte_carlo)
    print(f"\n({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
