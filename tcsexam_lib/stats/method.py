"""How each number of a ``tcsexam stats`` document is computed, in words (its ``method``).

The computing modules say the same with the formulas' reasons; this summary travels with
every output, so a reader of the JSON alone can tell which method gave each figure.
"""

from __future__ import annotations

from ..vocab import WEIGHTS_TEXT

#: How each number of the output is computed (the output's ``method``).
METHOD = {
    "name": "track intervals: clopper-pearson (0/1 tracks), wilson with effective n (other "
    "[0, 1] tracks), t lengthened on the side of the skewness by hall's transformation "
    "(construction), wilson (no spread); index interval: mover-welch; pairs: fisher's sign-flip "
    "randomisation test (exact count; beyond 2^22 patterns a grid count, a saddlepoint where "
    "p > 0.5); holm",
    "model": "tasks are sampled within tracks; attempts are noise inside a task mean and are "
    f"not resampled; index = sum_t W_t * mean_t with W = {WEIGHTS_TEXT} points",
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
    "/ se^2, each end at least as far as a share r = 1 - (alpha/2)^(1/n_t) of the tasks at the "
    "far bound would take the mean (the exact rule of three: a share n_t tasks all miss with "
    "probability alpha/2); construction: mean -+ q se, the side of "
    "the sample's skewness lengthened to -g^-1(-q) standard errors, g Hall's (1992) "
    "transformation with A = G/sqrt(n_t) (G the adjusted sample skewness G1 but at least twice "
    "the coefficient of variation s_t / mean, a gamma's skewness: rewards >= 0 are skewed "
    "right), |A| capped where "
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
    "tasks (paired), the sum over tasks of the parts c = W_t / n_t * d (d a task mean of a "
    "minus that of b); se = sqrt(sum_t W_t^2 s_t^2 / n_t), s_t the standard deviation "
    "(ddof 1) of the per-task differences in track t; ci: this pair's alone, not adjusted: "
    "delta -+ z(1 - (1 - level)/2) sqrt(sum c^2) (the normal spread of the sign patterns), "
    "its end moved to 0 where that disagrees with the pair's own test at 1 - level; null "
    "with every p-value when a track has fewer than two tasks (pairs_untested says why)",
    "p_value": "Fisher's sign-flip randomisation test: the share of the 2^K sign patterns of "
    "the parts c whose sum is at least |delta| from 0, exact under the null that the two "
    "models are exchangeable on each task whatever the scores' shape (and conservative for "
    "equal expected indexes); never below 2/2^k for k tasks that differ; does not depend on "
    "the level; counted exactly (meet in the middle, a pass/fail track merged into a "
    "binomial) while the patterns number at most 2^22, else for a pair with at most 22 "
    "tasks that differ; beyond, counted on a grid of about 1/8192 of the parts' sum with the "
    "rounding added to the distance, never below the exact tail (at most 1.3 times it at "
    "Holm's first steps, 3.5 times for near-binary parts, docs/uncertainty.md), where the "
    "Lugannani-Rice saddlepoint approximation of the same tail gives p <= 0.2, else that "
    "approximation",
    "p_holm": "Holm step-down adjustment over all pairs; significant (shown to differ): "
    "p_holm <= 1 - level; otherwise not shown to differ, which is not the same as equal",
    "mdd": "about the difference in favour of model_a that Holm's strictest step would show "
    "with 80% power: se * (z(1 - (1 - level)/(2m)) + z(0.8)) (normal approximation, m the "
    "number of pairs; optimistic with few tasks: see the calibration in docs/uncertainty.md); "
    "null where no pair can reach that step (2/2^K > (1 - level)/m)",
    "rank_ci": "simultaneous: [1 + the number of models shown to be ahead (Holm over all "
    "pairs), number of ranked models - the number shown to be behind]; all hold together "
    "with probability at least about level (Holm's family-wise error; see the calibration in "
    "docs/uncertainty.md)",
    "rank_ci_marginal": "the same with Holm over this model's own pairs only: each holds on "
    "its own with probability at least about level (not simultaneous)",
    "leader_group": "the models that no model is shown to be ahead of, in rank order: the "
    "models that could be first",
    "tie_groups": "every longest run of consecutive places in the ranking (models with equal "
    "indexes share a place) in which no pair is shown to differ (each run that no longer run "
    "contains), in rank order; runs may overlap; they do not depend on names or input order",
    "attempt_se": "sqrt(sum_t W_t^2 * attempt_part_t / n_t): the index's standard error from "
    "attempt noise alone (a rerun of the same tasks); null unless every track has a task "
    "with two or more attempts",
    "variance_components": "per track when some task has two or more attempts: pooled "
    "within-task variance of attempt scores and the moment estimate of the task variance; "
    "standard errors projected for twice the tasks and twice the attempts",
}
