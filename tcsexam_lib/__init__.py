"""tcsexam_lib: scoring rules of the TCSExam benchmark.

Public surface (everything else is internal):

- the formulas (:mod:`tcsexam_lib.formulas`): :func:`compute_instance_stats`,
  :func:`scale_terms`, :func:`z_score`, :func:`phi`, :func:`instance_score`,
  :func:`mean_score` and :func:`combine_track_means` (the index from four track means);
- :func:`load_reference` / :class:`Reference` / :func:`reference_from_data`: a validated
  solver reference; :func:`check_reference` reports every finding on reference files;
- :func:`score_solver_task`: a task's relative score against a reference (0..1, higher
  is better, 0.5 = as good as the reference mean);
- :func:`load_suite`, :func:`load_cohort`, :func:`read_attempts`: validated inputs;
- :func:`compute_index`; :func:`run_solver_score` and :func:`run_score` do what the
  commands do (load, score, add provenance, write): the weighted TCSExam index in points
  (``30*P + 30*S + 30*C + 10*O``; higher is better; may exceed 100);
- :func:`verify_output`: recompute an output from its recorded inputs;
- :func:`run_stats` (``tcsexam stats``): intervals, paired comparisons, rank intervals
  and tie groups beside the index of a ``tcsexam score`` output;
- :func:`run_report` (``tcsexam report``): run sets of ``params/*.yaml`` scored and
  rendered into HTML reports; :func:`load_report_params` checks one such file and
  :func:`fill_solver_rows` fills blank solver scores of an attempts table (a copy)
  from solver-score outputs; ``views`` is what the report notebooks import;
- :class:`TcsexamError` and its subclasses, the only exceptions raised on purpose;
- ``teaching`` (``from tcsexam_lib import teaching``): the teaching notebook's sliders,
  exercise checks, tiny ILLUSTRATIVE cohorts and plots.

Names are imported when first used, so that ``import tcsexam_lib`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: Public name -> the module (under this package) that defines it.
_EXPORTS = {
    "FIXED_REFERENCE_ID": "vocab",
    "METRIC_ID": "vocab",
    "TRACKS": "vocab",
    "TRACK_LETTERS": "vocab",
    "TRACK_WEIGHTS": "vocab",
    "InputRefused": "errors",
    "OutputRefused": "errors",
    "Problem": "errors",
    "ReferenceProblem": "errors",
    "TcsexamError": "errors",
    "SCALE_TERMS": "formulas",
    "InstanceStats": "formulas",
    "combine_track_means": "formulas",
    "compute_instance_stats": "formulas",
    "instance_score": "formulas",
    "mean_score": "formulas",
    "phi": "formulas",
    "scale_terms": "formulas",
    "z_score": "formulas",
    "Issue": "scoring.issues",
    "ISSUE_CODES": "scoring.issues",
    "Reference": "references.model",
    "reference_from_data": "references.rules",
    "load_reference": "references.load",
    "check_reference": "references.check",
    "Suite": "references.suites",
    "load_suite": "references.suites",
    "Cohort": "scoring.cohort",
    "load_cohort": "scoring.cohort",
    "load_cohort_reference": "scoring.cohort",
    "read_attempts": "scoring.attempts",
    "validate_attempts": "scoring.attempts",
    "read_records": "scoring.solver",
    "score_solver_task": "scoring.solver",
    "compute_index": "scoring.index",
    "run_score": "scoring.commands",
    "run_solver_score": "scoring.commands",
    "verify_output": "verify",
    "write_json_atomic": "jsonio",
    "fill_solver_rows": "reports.fill",
    "load_report_params": "reports.params",
    "run_report": "reports.runner",
    "run_stats": "stats.command",
}

__all__ = [
    "Cohort",
    "FIXED_REFERENCE_ID",
    "ISSUE_CODES",
    "InputRefused",
    "InstanceStats",
    "Issue",
    "METRIC_ID",
    "OutputRefused",
    "Problem",
    "Reference",
    "ReferenceProblem",
    "SCALE_TERMS",
    "Suite",
    "TRACKS",
    "TRACK_LETTERS",
    "TRACK_WEIGHTS",
    "TcsexamError",
    "__version__",
    "check_reference",
    "combine_track_means",
    "compute_index",
    "compute_instance_stats",
    "fill_solver_rows",
    "instance_score",
    "load_cohort",
    "load_cohort_reference",
    "load_reference",
    "load_report_params",
    "load_suite",
    "mean_score",
    "phi",
    "read_attempts",
    "read_records",
    "reference_from_data",
    "run_report",
    "run_score",
    "run_solver_score",
    "run_stats",
    "scale_terms",
    "score_solver_task",
    "validate_attempts",
    "verify_output",
    "views",
    "write_json_atomic",
    "z_score",
]


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from .provenance import kit_version

        return kit_version()
    if name == "views":
        return importlib.import_module(".reports.views", __name__)
    if name == "teaching":
        return importlib.import_module(".teaching", __name__)
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tcsexam_lib' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from .errors import InputRefused, OutputRefused, Problem, ReferenceProblem, TcsexamError
    from .formulas import (
        SCALE_TERMS,
        InstanceStats,
        combine_track_means,
        compute_instance_stats,
        instance_score,
        mean_score,
        phi,
        scale_terms,
        z_score,
    )
    from .jsonio import write_json_atomic
    from .references.check import check_reference
    from .references.load import load_reference
    from .references.model import Reference
    from .references.rules import reference_from_data
    from .references.suites import Suite, load_suite
    from .reports import views
    from .reports.fill import fill_solver_rows
    from .reports.params import load_report_params
    from .reports.runner import run_report
    from .scoring.attempts import read_attempts, validate_attempts
    from .scoring.cohort import Cohort, load_cohort, load_cohort_reference
    from .scoring.commands import run_score, run_solver_score
    from .scoring.index import compute_index
    from .scoring.issues import ISSUE_CODES, Issue
    from .scoring.solver import read_records, score_solver_task
    from .stats.command import run_stats
    from .verify import verify_output
    from .vocab import FIXED_REFERENCE_ID, METRIC_ID, TRACK_LETTERS, TRACK_WEIGHTS, TRACKS
