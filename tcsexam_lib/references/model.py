"""A loaded solver reference: tasks, their kind and direction, and instance statistics."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..formulas import InstanceStats


@dataclass(frozen=True)
class TaskReference:
    """One solver task of a reference: kind, direction, ``scored`` instance statistics
    (``None`` only where the floors are unusable) and ``unscored`` reasons."""

    name: str
    kind: str
    direction: str
    scored: dict[str, InstanceStats | None]
    unscored: dict[str, str]
    raw: dict[str, Any] = field(repr=False, compare=False)
    #: values derived from the fields above, computed once when first needed (the scored
    #: instances as arrays, for scoring many records at once)
    derived: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class Reference:
    """A loaded, validated reference file for one suite."""

    reference_id: str
    suite: str
    scale_floor_relative: float
    scale_floor_absolute: float
    tasks: dict[str, TaskReference]
    path: Path | None
    sha256: str | None
    simulated: bool = False
    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def n_scored(self) -> int:
        """Number of scored instances over all tasks."""
        return sum(len(task.scored) for task in self.tasks.values())

    @property
    def n_unscored(self) -> int:
        """Number of instances listed in ``unscored_reference_instances``."""
        return sum(len(task.unscored) for task in self.tasks.values())
