"""How each number of a ``tcsexam stats`` document is computed, in words (its ``method``).

The modules that compute them (:mod:`.intervals`, :mod:`.pairs`, :mod:`.power`) say
the same with the formulas' reasons; this is the summary every output carries, so a
reader of the JSON alone can tell which test and which interval gave each figure.
"""

from __future__ import annotations

#: How each number of the output is computed (the output's ``method``).
METHOD = {
    "name": "track intervals: clopper-pearson (0/1 tracks), wilson (no spread), "
    "hall-skewness-corrected-t; index interval: mover-welch; pairs: welch-satterthwaite-t "
    "with moment degrees of freedom and a skewness-inflated standard error; holm",
    "model": "tasks are sampled within tracks; attempts are noise inside a task mean and are "
    "not resampled; index = sum_t W_t * mean_t with W = 30, 30, 30, 10 points",
    "resamples": "no figure is computed by resampling (every interval and test is analytic), "
    "so the numbers do not depend on resamples or seed; both are recorded as given",
    "index_se": "analytic stratified standard error sqrt(sum_t W_t^2 s_t^2 / n_t), s_t the "
    "sample standard deviation (ddof 1) of the model's task means in track t",
    "tracks": "ci by what the track's task means are: all 0 or 1: Clopper-Pearson interval "
    "of k solved out of n_t (exact for one attempt a task); all equal otherwise: Wilson "
    "interval of c/U out of n_t (U = 1; construction U = max(1, c)); otherwise Hall's (1992) "
    "skewness-corrected t-interval on s_t/sqrt(n_t) with the adjusted sample skewness G1 and "
    "df = the Satterthwaite match of s_t^2 from its fourth moment, at most n_t - 1; clipped "
    "to the track's range ([0, 1]; construction [0, inf)); ci_method names the rule used",
    "index_ci": "MOVER-Welch: per side, each track's half-width on that side divided by the "
    "t quantile of its df is a standard error; E = sqrt(sum_t W_t^2 e_t^2); half-width "
    "t(1 - (1 - level)/2, df) * E with df the Welch-Satterthwaite df of that sum "
    "(index_ci_df: low side, high side); the low end is clipped at 0",
    "index_ci_half_width": "the larger of index - low and high - index, for 'index +- "
    "half-width' (the interval itself may be asymmetric)",
    "pairs": "delta = index of a minus index of b (a ranked at or above b), over the common "
    "tasks (paired); se = sqrt(sum_t W_t^2 s_t^2 / n_t) of the per-task differences; "
    "se_adjusted = se * (1 + A^2 (z^4 + 2z^2 - 3) / 18), A = sum_t W_t^3 k3_t / n_t^2 / se^3 "
    "(k3 the unbiased third cumulant of the differences, z the normal quantile at the level): "
    "the skewness term of the two-sided Edgeworth expansion; df: Welch-Satterthwaite over "
    "tracks with per-track df matched from the fourth moment (at most n_t - 1); "
    "ci = delta -+ t(1 - (1 - level)/2, df) * se_adjusted; se_adjusted and df are not written "
    "per pair (a 1,000-model file has 499,500 pairs): tcsexam_lib.stats.analyse_cohort gives them",
    "p_value": "two-sided t-test of equal expected indexes (the models may differ in shape): "
    "P(|T_df| >= |delta| / se_adjusted), from the t distribution (no resampling floor); "
    "se = 0 gives p = 1 when delta = 0, else p = 0",
    "p_holm": "Holm step-down adjustment over all pairs; significant: p_holm <= 1 - level",
    "mdd": "minimum detectable difference at 80% power after Holm: (t(1 - (1 - level)/(2m), "
    "df) + t(0.8, df)) * se_adjusted, m the number of pairs (Holm's strictest step)",
    "rank_ci": "simultaneous: [1 + the number of models significantly ahead (Holm over all "
    "pairs), number of ranked models - the number significantly behind]; all hold together "
    "with probability about level or more",
    "rank_ci_marginal": "the same with Holm over this model's own pairs only: each holds on "
    "its own with probability about level or more (not simultaneous)",
    "leader_group": "the models that no model is significantly ahead of, in rank order: the "
    "models that could be first",
    "tie_groups": "every longest run of consecutive models in the ranking in which no pair is "
    "significant (each run that no longer run contains), in rank order; runs may overlap: a "
    "model that differs from neither of two models that differ is in both",
    "attempt_se": "sqrt(sum_t W_t^2 * attempt_part_t / n_t): the index's standard error from "
    "attempt noise alone (a rerun of the same tasks); null unless every track has a task "
    "with two or more attempts",
    "variance_components": "per track when some task has two or more attempts: pooled "
    "within-task variance of attempt scores and the moment estimate of the task variance; "
    "standard errors projected for twice the tasks and twice the attempts",
}
