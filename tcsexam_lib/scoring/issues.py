"""The one issue type of the index output, and what each issue code means.

An :class:`Issue` says what stands between a model and a complete, confirmed index: it
names the model, track and task (and the attempt row, when one is concerned), carries a
code from :data:`ISSUE_CODES` and a message. The index (:mod:`.index`) and the solver
evidence check (:mod:`.evidence`) report with it; the report pages explain each code
with its ``meaning`` and ``action``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
    """One finding about a model's results, for the index output's ``issues`` list.

    ``severity`` comes from the code's entry in :data:`ISSUE_CODES`. ``details`` holds
    further fields of the code (planned counts, the evidence file, both scores ...).

    Examples
    --------
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
