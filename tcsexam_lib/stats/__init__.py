"""Uncertainty beside the TCSExam index: ``tcsexam stats`` (not part of the index).

The index stays exactly as ``tcsexam score`` computes it; this package reports how
much it would move if the tasks of each track were drawn again from the same pool, and
which differences between models are larger than that:

- :func:`run_stats` (the command): reads a ``tcsexam score`` output, writes intervals,
  paired comparisons, rank intervals and tie groups;
- :func:`analyse_cohort`: the same numbers as arrays, from task means (the calibration
  benchmark calls it on simulated cohorts);
- the pieces: :mod:`.intervals` (analytic standard errors, t-intervals),
  :mod:`.bootstrap` (stratified paired bootstrap), :mod:`.pairs` (sign-flip test,
  Holm, rank intervals, ties), :mod:`.power` (attempts versus tasks).

Reference: Evan Miller, "Adding Error Bars to Evals" (arXiv 2411.00640).
"""

from .analysis import CohortAnalysis, analyse_cohort
from .command import compute_stats, run_stats

__all__ = ["CohortAnalysis", "analyse_cohort", "compute_stats", "run_stats"]
