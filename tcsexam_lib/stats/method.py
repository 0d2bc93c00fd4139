"""How each number of a ``tcsexam stats`` document is computed, in words (its ``method``).

The modules that compute them (:mod:`.intervals`, :mod:`.pairs`, :mod:`.power`) say
the same with the formulas' reasons; this is the summary every output carries, so a
reader of the JSON alone can tell which test and which interval gave each figure.
"""

from __future__ import annotations

#: How each number of the output is computed (the output's ``method``).
METHOD = {
    "name": "track intervals: clopper-pearson (0/1 tracks), wilson with effective n (other "
    "[0, 1] tracks), t lengthened on the side of the skewness by hall's transformation "
    "(construction), wilson (no spread); index interval: mover-welch; pairs: "
    "welch-satterthwaite t with a floor on 0/1 tracks and hall's skewness correction used one "
    "way; holm",
    "model": "tasks are sampled within tracks; attempts are noise inside a task mean and are "
    "not resampled; index = sum_t W_t * mean_t with W = 30, 30, 30, 10 points",
    "resamples": "no figure is computed by resampling (every interval and test is analytic), "
    "so the numbers do not depend on resamples or seed; both are recorded as given",
    "index_se": "analytic stratified standard error sqrt(sum_t W_t^2 s_t^2 / n_t), s_t the "
    "sample standard deviation (ddof 1) of the model's task means in track t",
    "tracks": "ci by what the track's task means are, with q the t quantile at df = the "
    "Satterthwaite match of s_t^2 from its fourth moment (at most n_t - 1): all 0 or 1: "
    "Clopper-Pearson interval of k solved out of n_t (exact for one attempt a task; with more "
    "attempts a binomial has the largest variance a mean in [0, 1] can have); all equal "
    "otherwise: Wilson interval of c/U out of n_t with q (U = 1; construction U = max(1, c)); "
    "other means in [0, 1]: Wilson interval with q at the effective sample size n* = p(1 - p) "
    "/ se^2, at most 8 n_t (n_t when p is 0 or 1); construction: mean -+ q se, the side of "
    "the sample's skewness lengthened to -g^-1(-q) standard errors, g Hall's (1992) "
    "transformation with A = G/sqrt(n_t) (G the adjusted sample skewness G1 but at least the "
    "coefficient of variation s_t / mean: rewards >= 0 are skewed right), |A| capped where "
    "that reach is largest (about 4q standard errors); the other side is not shortened; "
    "clipped to the track's range ([0, 1]; construction [0, inf)); ci_method names the rule",
    "index_ci": "MOVER-Welch: per side, each track's half-width on that side divided by the "
    "track's q (above; for a Clopper-Pearson side too, which no quantile built) is a "
    "standard error e_t; E = sqrt(sum_t W_t^2 e_t^2); "
    "half-width t(1 - (1 - level)/2, df) * E with df the Welch-Satterthwaite df of that sum "
    "(index_ci_df: low side, high side); a side whose tracks all end at their means has width "
    "0; the low end is clipped at 0",
    "index_ci_half_width": "the larger of index - low and high - index, for 'index +- "
    "half-width' (the interval itself may be asymmetric)",
    "pairs": "delta = index of a minus index of b (a ranked at or above b), over the common "
    "tasks (paired); se = sqrt(sum_t W_t^2 s_t^2 / n_t), s_t^2 the variance (ddof 1) of the "
    "per-task differences, on theorem and conjecture (pass/fail) and on any track where both "
    "models' task means are all 0 or 1, where the pair differs on some task, plus 2 (D^2 + "
    "dbar_t^2) / (n_t - 1), D the largest |d| of the track (one pseudo task each way as far "
    "as D; D = 1 with one attempt a task); df: Welch-Satterthwaite over the tracks' n_t - 1; "
    "A = sum_t W_t^3 k3_t / n_t^2 / se^3 (k3 the unbiased third cumulant of the differences; "
    "0 on those floored tracks); ci = delta -+ "
    "t(1 - (1 - level)/2, df) * se on one side, the other (the side of the skewness) "
    "lengthened by hall's transformation as for construction: the differences the test does "
    "not reject at 1 - level; df and A are not written per pair (a 1,000-model file has "
    "499,500 pairs): tcsexam_lib.stats.analyse_cohort gives them",
    "p_value": "two-sided t-test of equal expected indexes (the models may differ in shape): "
    "P(|T_df| >= S), T = delta / se, S = |T| where T and A have the same sign, else the "
    "smallest |g(T)| that a skewness between 0 and A gives (g Hall's transformation); "
    "evaluated at the observed T, so it does not depend on the level; from the t "
    "distribution (no resampling floor); se = 0 gives p = 1 when delta = 0, else p = 0",
    "p_holm": "Holm step-down adjustment over all pairs; significant: p_holm <= 1 - level",
    "mdd": "minimum detectable difference in favour of model_a at 80% power at Holm's "
    "strictest step: se * (r (1 - 1/(4 df)) + z sqrt(1 + r^2 / (2 df))), the normal "
    "approximation to the noncentral t (Abramowitz & Stegun 26.7.10), z the normal 0.8 "
    "quantile, r = t(1 - (1 - level)/(2m), df) (m the number of pairs), or where A < 0 the "
    "longer hall side at that quantile",
    "rank_ci": "simultaneous: [1 + the number of models significantly ahead (Holm over all "
    "pairs), number of ranked models - the number significantly behind]; all hold together "
    "with probability at least about level (Holm's family-wise error; see the calibration in "
    "docs/uncertainty.md)",
    "rank_ci_marginal": "the same with Holm over this model's own pairs only: each holds on "
    "its own with probability at least about level (not simultaneous)",
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
