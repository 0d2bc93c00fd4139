"""Cohorts: the suite, solver protocol, reference and adopted attempts per task of each
model, declared before anything is aggregated and checked against the suite."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputRefused, Problem, quoted_names
from ..inputrules import Rule, RuleList
from ..jsonio import read_json, read_json_with_digest
from ..references.load import list_reference_ids, load_reference
from ..references.model import Reference
from ..references.suites import Suite
from ..schemas import validate_with_schema
from ..vocab import FIXED_REFERENCE_ID


@dataclass(frozen=True)
class ModelPlan:
    """Planned attempts per task for one model."""

    attempts_per_task: int | dict[str, int]
    adoption_rule: str | None = None

    def planned(self, task: str) -> int:
        """Planned number of adopted attempts of ``task``."""
        if isinstance(self.attempts_per_task, int):
            return self.attempts_per_task
        if task in self.attempts_per_task:
            return self.attempts_per_task[task]
        return self.attempts_per_task["default"]


@dataclass(frozen=True)
class Cohort:
    """A validated cohort declaration."""

    suite: str
    solver_protocol: str
    solver_reference_id: str
    models: dict[str, ModelPlan]
    adoption_rule: str | None = None
    path: Path | None = None
    sha256: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class CohortInput:
    """A cohort declaration (it matches its schema) and the suite it is checked against."""

    data: dict[str, Any]
    source: str
    suite: Suite

    @property
    def plans(self) -> list[tuple[int, str, int | dict[str, int]]]:
        """``(position, model, attempts_per_task)`` of every model, in file order."""
        models = self.data["models"].items()
        return [(k, model, entry["attempts_per_task"]) for k, (model, entry) in enumerate(models)]

    @property
    def tasks(self) -> set[str]:
        """Every task id of the suite."""
        return {item for _, item in self.suite.tasks}

    def plan_problem(self, position: int, model: str, rule: int, **problem: Any):
        """A problem of the model's ``attempts_per_task``, keyed to sort in file order."""
        problem.setdefault("field", "attempts_per_task")
        return (1, position, rule), Problem(f"{self.source} model '{model}'", **problem)


def _counts(plan: int | dict[str, int]) -> list[tuple[str | None, Any]]:
    return list(plan.items()) if isinstance(plan, dict) else [(None, plan)]


def _suite_explain(cohort: CohortInput):
    if cohort.data["suite"] != cohort.suite.name:
        allowed = f"'{cohort.suite.name}' (the suite given with --suite)"
        yield (0,), Problem(cohort.source, field="suite", value=cohort.data["suite"],
                            allowed=allowed)  # fmt: skip


def _whole_explain(cohort: CohortInput):
    """Counts written as whole numbers: JSON Schema's ``integer`` accepts ``1.0``; we do not."""
    for position, model, plan in cohort.plans:
        for task, count in _counts(plan):
            if not isinstance(count, int):
                yield cohort.plan_problem(
                    position,
                    model,
                    0,
                    field="attempts_per_task" if task is None else f"attempts_per_task.{task}",
                    value=count,
                    allowed="a whole number written without a decimal point (1, not 1.0)",
                )


def _named_tasks_holds(cohort: CohortInput) -> bool:
    named = {task for _, _, plan in cohort.plans if isinstance(plan, dict) for task in plan}
    return named <= cohort.tasks | {"default"}


def _named_tasks_explain(cohort: CohortInput):
    tasks = cohort.tasks
    for position, model, plan in cohort.plans:
        for task in plan if isinstance(plan, dict) else ():
            if task != "default" and task not in tasks:
                yield cohort.plan_problem(
                    position,
                    model,
                    1,
                    value=task,
                    allowed=f"a task of suite '{cohort.suite.name}' or 'default'",
                )


def _planned_holds(cohort: CohortInput) -> bool:
    tasks = cohort.tasks
    plans = [plan for _, _, plan in cohort.plans if isinstance(plan, dict)]
    return all("default" in plan or tasks <= plan.keys() for plan in plans)


def _planned_explain(cohort: CohortInput):
    tasks = cohort.tasks
    for position, model, plan in cohort.plans:
        if not isinstance(plan, dict) or "default" in plan:
            continue
        unplanned = sorted(tasks - set(plan))
        if unplanned:
            yield cohort.plan_problem(
                position,
                model,
                2,
                value=plan,
                detail="no planned count for " + quoted_names(unplanned, 10),
                allowed="a count for every task of the suite, or a 'default'",
            )


#: The rules of a cohort declaration beyond its schema, checked against the suite.
COHORT_RULES: RuleList[CohortInput, Problem] = RuleList(
    "cohort",
    (
        Rule(
            "suite",
            "the declared suite is the suite being scored",
            lambda cohort: cohort.data["suite"] == cohort.suite.name,
            _suite_explain,
        ),
        Rule(
            "whole counts",
            "every planned count is written as a whole number (1, not 1.0)",
            lambda cohort: all(
                isinstance(count, int) for _, _, plan in cohort.plans for _, count in _counts(plan)
            ),
            _whole_explain,
        ),
        Rule(
            "named tasks",
            "every task an attempts_per_task object names is a task of the suite",
            _named_tasks_holds,
            _named_tasks_explain,
        ),
        Rule(
            "every task planned",
            "every task of the suite gets a planned count (directly or through 'default')",
            _planned_holds,
            _planned_explain,
        ),
    ),
)


def declared_models(path: str | os.PathLike[str]) -> list[str]:
    """The model ids a cohort file declares, read as they are (empty when none)."""
    data = read_json(path)
    models = data.get("models") if isinstance(data, dict) else None
    return list(models) if isinstance(models, dict) else []


def load_cohort(path: str | os.PathLike[str], *, suite: Suite) -> Cohort:
    """Load ``cohort.json`` and check it against the suite being scored: its schema, then
    :data:`COHORT_RULES` (the suite is ``suite``; named tasks are its tasks; every task
    gets a planned count, directly or through ``"default"``)."""
    path = Path(path)
    data, digest = read_json_with_digest(path)
    validate_with_schema(data, "cohort", str(path))
    problems = COHORT_RULES.refusal(CohortInput(data, str(path), suite))
    if problems:
        raise InputRefused(f"Cohort {path} is inconsistent", problems)
    models = {
        model: ModelPlan(entry["attempts_per_task"], entry.get("adoption_rule"))
        for model, entry in data["models"].items()
    }
    return Cohort(
        data["suite"],
        data["solver_protocol"],
        data["solver_reference_id"],
        models,
        data.get("adoption_rule"),
        path,
        digest,
        data,
    )


def load_cohort_reference(
    cohort: Cohort, suite: Suite, *, references_dir: str | os.PathLike[str] | None = None
) -> Reference:
    """Load the cohort's reference for the suite; its tasks must be the suite's solver tasks."""
    known = list_reference_ids(references_dir)
    if cohort.solver_reference_id not in known and cohort.solver_reference_id != FIXED_REFERENCE_ID:
        raise InputRefused(
            "Unknown reference id",
            [
                Problem(
                    str(cohort.path),
                    field="solver_reference_id",
                    value=cohort.solver_reference_id,
                    allowed=", ".join(known)
                    if known
                    else "no reference present under the references folder",
                )
            ],
        )
    reference = load_reference(
        suite.name, reference_id=cohort.solver_reference_id, references_dir=references_dir
    )
    in_suite = set(suite.tracks["solver"])
    in_reference = set(reference.tasks)
    if in_suite != in_reference:
        details = []
        if in_suite - in_reference:
            details.append("in the suite only: " + ", ".join(sorted(in_suite - in_reference)))
        if in_reference - in_suite:
            details.append("in the reference only: " + ", ".join(sorted(in_reference - in_suite)))
        raise InputRefused(
            "Suite and reference disagree",
            [
                Problem(
                    f"suite '{suite.name}' vs reference {reference.path}",
                    field="solver tasks",
                    detail="; ".join(details),
                    allowed="exactly the same solver task ids",
                )
            ],
        )
    return reference
