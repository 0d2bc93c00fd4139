"""tcsexam_lib: scoring rules of the TCSExam benchmark.

Public surface (everything else is internal):

- :func:`load_reference` / :class:`Reference`: a validated solver reference file;
- :func:`score_solver_task`: a task's relative score against a reference (0..1, higher
  is better, 0.5 = as good as the reference mean);
- :func:`load_suite`, :func:`load_cohort`, :func:`read_attempts`: validated inputs;
- :func:`compute_index`; :func:`run_solver_score` and :func:`run_score` do what the
  commands do (load, score, add provenance, write): the weighted TCSExam index in points
  (``30*P + 30*S + 30*C + 10*O``; higher is better; may exceed 100);
- :func:`combine_track_means`: the index from four track means;
- :func:`run_report` (``tcsexam report``): run sets of ``params/*.yaml`` scored and
  rendered into HTML reports; :func:`load_report_params` checks one such file and
  :func:`fill_solver_rows` fills blank solver scores of an attempts table (a copy)
  from solver-score outputs;
- :class:`TcsexamError` and its subclasses, the only exceptions raised on purpose;
- :mod:`tcsexam_lib.teaching` (imported on demand, ``from tcsexam_lib import teaching``):
  the teaching notebook's sliders, exercise checks, tiny ILLUSTRATIVE cohorts and plots.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("tcsexam-kit")
except PackageNotFoundError:  # pragma: no cover - running from a plain checkout
    __version__ = "0.0.0+unknown"

from .attempts import read_attempts
from .errors import InputRefused, OutputRefused, Problem, ReferenceProblem, TcsexamError
from .index import compute_index
from .jsonio import write_json_atomic
from .plan import Cohort, Suite, load_cohort, load_cohort_reference, load_suite
from .reference import Reference, load_reference
from .reference import build_reference as reference_from_data
from .report import run_report
from .report_params import load_report_params
from .runs import run_score, run_solver_score
from .scoring.formulas import (
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
from .solver import read_records, score_solver_task
from .solver_batch import fill_solver_rows
from .vocab import FIXED_REFERENCE_ID, METRIC_ID, TRACK_LETTERS, TRACK_WEIGHTS, TRACKS

__all__ = [
    "FIXED_REFERENCE_ID",
    "SCALE_TERMS",
    "InstanceStats",
    "METRIC_ID",
    "TRACKS",
    "TRACK_LETTERS",
    "TRACK_WEIGHTS",
    "Cohort",
    "InputRefused",
    "OutputRefused",
    "Problem",
    "Reference",
    "ReferenceProblem",
    "Suite",
    "TcsexamError",
    "__version__",
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
    "reference_from_data",
    "scale_terms",
    "z_score",
    "read_attempts",
    "read_records",
    "run_report",
    "run_score",
    "run_solver_score",
    "score_solver_task",
    "write_json_atomic",
]
