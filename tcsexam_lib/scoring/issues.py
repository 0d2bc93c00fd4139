"""The one issue type of the index output and what each code means (:data:`ISSUE_CODES`:
severity, ``meaning``, ``action``); the index and the evidence check report with it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

#: Severities: ``error`` keeps the index from being published or flags wrong evidence,
#: ``info`` makes it provisional, ``warning`` is worth a look but changes nothing.
SEVERITIES = ("error", "info", "warning")


@dataclass(frozen=True)
class IssueCode:
    """What an issue code means and what a researcher does about it."""

    severity: str
    meaning: str
    action: str


#: Every issue code the kit reports.
ISSUE_CODES = {
    "missing_task": IssueCode(
        "error",
        "no attempt row at all",
        "add the task's attempt rows (a valid score for each planned attempt), then score again",
    ),
    "missing_attempt": IssueCode(
        "error",
        "fewer adopted valid attempts than planned",
        "add the missing repeats as adopted rows with a valid score, then score again",
    ),
    "adopted_not_valid": IssueCode(
        "error",
        "an adopted attempt has no valid score yet",
        "repair the judge input and give the row a valid score, or mark it 'excluded' with a "
        "note and adopt another attempt",
    ),
    "provisional_attempt": IssueCode(
        "info",
        "adopted for now, awaiting confirmation",
        "once checked, change adoption_status from 'selected_provisional' to 'selected' in the "
        "attempts table and score again",
    ),
    "excluded_without_note": IssueCode(
        "warning",
        "an excluded attempt has no note saying why",
        "add a note (a column named note) saying why the attempt was replaced",
    ),
    "far_score": IssueCode(
        "warning",
        "a construction score orders of magnitude above the cohort's (over 1,000 times the "
        "larger of 1 and the lower median of its adopted valid construction scores)",
        "check the row (a unit, a scale or a misplaced decimal point): it counts as written",
    ),
    "solver_evidence_missing": IssueCode(
        "error",
        "no solver-score output for an adopted solver row",
        "score the attempt's instance records with tcsexam solver-score --model --attempt",
    ),
    "solver_evidence_score_mismatch": IssueCode(
        "error",
        "the table's score is not the solver-score output's relative_score",
        "copy the relative_score of the solver-score output into the table (or leave the "
        "score blank in a report run set)",
    ),
    "solver_evidence_reference_mismatch": IssueCode(
        "error",
        "the solver-score output was computed against another reference",
        "score the records again against the cohort's reference",
    ),
}


@dataclass(frozen=True)
class Issue:
    """One finding about a model's results (severity from its code; ``details``: the rest).

    >>> issue = Issue.about("missing_task", ("m", "theorem", "t1"), "no attempt row")
    >>> issue.to_dict()["message"], issue.severity
    ('m/theorem/t1: no attempt row', 'error')
    >>> Issue.about("provisional_attempt", ("m", "theorem", "t1"), "adopted provisionally",
    ...             attempt="2", line=7).message
    "m/theorem/t1 attempt '2' (line 7): adopted provisionally"
    """

    code: str
    model: str
    track: str
    item: str
    message: str
    attempt: str | None = None
    line: int | None = None
    details: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def about(
        cls,
        code: str,
        key: tuple[str, str, str],
        text: str,
        *,
        attempt: str | None = None,
        line: int | None = None,
        **details: Any,
    ) -> Issue:
        """An issue about task ``key`` = (model, track, item), or one of its attempt rows."""
        if code not in ISSUE_CODES:
            raise ValueError(f"unknown issue code {code!r}")
        model, track, item = key
        where = f"{model}/{track}/{item}"
        if attempt is not None:
            where += f" attempt '{attempt}'" + (f" (line {line})" if line is not None else "")
        return cls(code, model, track, item, f"{where}: {text}", attempt, line, details)

    @property
    def severity(self) -> str:
        return ISSUE_CODES[self.code].severity

    def to_dict(self) -> dict[str, Any]:
        """The issue as it appears in the index output."""
        data: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity,
            "model": self.model,
            "track": self.track,
            "item": self.item,
            "message": self.message,
        }
        if self.attempt is not None:
            data["attempt"] = self.attempt
        if self.line is not None:
            data["line"] = self.line
        data.update(self.details)
        return data


class _Described(Protocol):
    code: str
    message: str


class _ModelEntry(Protocol):
    status: str
    index: float | None
    blocking_issues: list[Any]
    issues: list[Any]


#: How many blocking issues of a model a terminal names before it counts the rest.
SHOWN_ISSUES = 3


def describe_issues(issues: Iterable[_Described], *, limit: int = SHOWN_ISSUES) -> list[str]:
    """Lines naming the first ``limit`` issues (what to do once per code), then how many
    more: what a terminal says of a blocked model.

    >>> first = Issue.about("missing_task", ("m", "theorem", "t1"), "no attempt row")
    >>> second = Issue.about("missing_task", ("m", "theorem", "t2"), "no attempt row")
    >>> for line in describe_issues([first, second, first], limit=2):
    ...     print(line)
    missing_task: m/theorem/t1: no attempt row
    missing_task: m/theorem/t2: no attempt row
      to do: add the task's attempt rows (a valid score for each planned attempt), then score again
    and 1 more
    """
    issues = list(issues)
    shown = issues[:limit]
    lines = []
    codes = [issue.code for issue in shown]
    for n, issue in enumerate(shown):
        lines.append(f"{issue.code}: {issue.message}")
        if issue.code not in codes[n + 1 :]:  # after the last issue shown with this code
            lines.append(f"  to do: {ISSUE_CODES[issue.code].action}")
    if len(issues) > limit:
        lines.append(f"and {len(issues) - limit} more")
    return lines


def describe_model(model: str, entry: _ModelEntry) -> list[str]:
    """A model's status and index on the terminal, then its first blocking issues and
    ``far_score`` warnings.

    >>> from tcsexam_lib.teaching import score_tiny_cohort
    >>> cohort = score_tiny_cohort({"m": {"thm-1": []}})
    >>> for line in describe_model("m", cohort.result.results["m"]):
    ...     print(line[:72])
    m: incomplete, no index; blocked by 1 issue(s):
      missing_task: m/theorem/thm-1: no attempt row; 1 adopted valid attempt
        to do: add the task's attempt rows (a valid score for each planned a
    """
    index = "no index" if entry.index is None else f"index {entry.index:.2f}"
    blocking = entry.blocking_issues
    head = f"{model}: {entry.status}, {index}"
    if blocking:
        head += f"; blocked by {len(blocking)} issue(s):"
    far = [issue for issue in entry.issues if issue.code == "far_score"]
    return [
        head,
        *(f"  {line}" for line in describe_issues(blocking)),
        *(f"  {'' if line[0] == ' ' else 'warning: '}{line}" for line in describe_issues(far)),
    ]
