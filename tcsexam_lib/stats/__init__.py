"""Uncertainty beside the TCSExam index: ``tcsexam stats`` (not part of the index).

The index stays as ``tcsexam score`` computes it; this package reports how much it would
move with other tasks of the same pools, and which differences between models exceed
that: :func:`run_stats` (the command) and :func:`analyse_cohort` (the same numbers as
arrays, from task means). The methods and their references: docs/uncertainty.md.
"""

from .analysis import CohortAnalysis, analyse_cohort
from .command import compute_stats, run_stats

__all__ = ["CohortAnalysis", "analyse_cohort", "compute_stats", "run_stats"]
