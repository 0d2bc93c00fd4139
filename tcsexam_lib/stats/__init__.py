"""Uncertainty beside the TCSExam index: ``tcsexam stats`` (not part of the index).

The index stays as ``tcsexam score`` computes it; this package reports how far it would
move with other tasks of the same pools: :func:`run_stats` (the command),
:func:`analyse_cohort` (arrays). Methods and references: docs/uncertainty.md.
"""

from .analysis import CohortAnalysis, analyse_cohort
from .command import compute_stats, run_stats

__all__ = ["CohortAnalysis", "analyse_cohort", "compute_stats", "run_stats"]
