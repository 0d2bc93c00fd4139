"""Uncertainty beside the TCSExam index: ``tcsexam stats`` (not part of the index).

The index stays exactly as ``tcsexam score`` computes it; this package reports how
much it would move if the tasks of each track were drawn again from the same pool, and
which differences between models are larger than that:

- :func:`run_stats` (the command): reads a ``tcsexam score`` output, writes intervals,
  paired tests, rank intervals, the leader group and tie groups;
- :func:`analyse_cohort`: the same numbers as arrays, from task means (the calibration
  benchmark calls it on simulated cohorts);
- the pieces: :mod:`.intervals` (track and index intervals), :mod:`.pairs` (paired
  sign-flip tests, :mod:`.signflip`; Holm, rank intervals, groups), :mod:`.power`
  (attempts versus tasks),
  :mod:`.document` (the document and its JSON text).

References: Evan Miller, "Adding Error Bars to Evals" (arXiv 2411.00640); R. A. Fisher,
"The Design of Experiments" (1935, the sign-flip test); P. Hall,
"On the removal of skewness by transformation" (JRSS B 54, 1992); G. Y. Zou and A.
Donner, "Construction of confidence limits about effect measures" (Stat. Med., 2008).
"""

from .analysis import CohortAnalysis, analyse_cohort
from .command import compute_stats, run_stats

__all__ = ["CohortAnalysis", "analyse_cohort", "compute_stats", "run_stats"]
