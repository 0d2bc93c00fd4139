"""Filling blank solver scores of an attempts table (a copy: the researcher's table is never
changed) from solver-score outputs; a hand-written score is kept and checked later
(:func:`~tcsexam_lib.scoring.evidence.score_mismatch`)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..csvio import CsvTable, read_csv_table
from ..errors import InputRefused, Problem
from ..outputfiles import refuse_output_over_inputs, write_text_atomic
from .records_folder import RecordsFile
from .solver_document import SolverDocument, as_solver_document

#: The columns a table needs to be filled (the attempts reader says what else is wrong).
_NEEDED = ("model", "track", "item", "attempt", "score", "score_status")


@dataclass
class FillResult:
    """What :func:`fill_table` did: ``filled`` rows, ``unfilled`` blank valid rows without an
    output, ``orphans`` (outputs no row names), ``solver_rows`` and the ``output`` written."""

    output: Path | None = None
    solver_rows: int = 0
    filled: list[dict[str, Any]] = field(default_factory=list)
    unfilled: list[dict[str, Any]] = field(default_factory=list)
    orphans: list[dict[str, str]] = field(default_factory=list)


def fill_table(
    table: CsvTable, outputs: Sequence[SolverDocument | dict[str, Any]]
) -> tuple[CsvTable, FillResult]:
    """A copy of ``table`` whose blank valid solver scores are the ``relative_score`` of the
    matching output (shortest round-trip text); formula-like notes made text. The copy
    keeps ``source`` and lines, so a refusal names the researcher's file.

    >>> table = CsvTable("a.csv", ["model", "track", "item", "attempt", "score", "score_status"],
    ...                  [(2, ["m", "solver", "t", "1", "", "valid"])])
    >>> filled, result = fill_table(table, [{"model": "m", "task": "t", "attempt": "1",
    ...                                      "relative_score": 0.25}])
    >>> filled.rows[0][1][4], result.filled[0]["line"], filled.source
    ('0.25', 2, 'a.csv')
    """
    filled = table.copy()
    result = FillResult()
    header = filled.header
    if any(column not in header for column in _NEEDED):
        return filled, result  # not a table that can be filled: the attempts reader says why
    col = {name: header.index(name) for name in _NEEDED}
    documents = map(as_solver_document, outputs)
    by_key = {(str(o.model), str(o.task), str(o.attempt)): o for o in documents}
    named = set()
    for line, row in filled.rows:
        if len(row) <= max(col.values()) or row[col["track"]].strip() != "solver":
            continue
        key = tuple(row[col[name]].strip() for name in ("model", "item", "attempt"))
        named.add(key)  # a short row still names its records (the reader refuses the row)
        result.solver_rows += 1
        if len(row) < len(header) or row[col["score_status"]].strip() != "valid":
            continue
        found = by_key.get(key)
        written = row[col["score"]].strip()
        where = {"model": key[0], "item": key[1], "attempt": key[2], "line": line}
        if found is None:
            if not written:
                result.unfilled.append(where)
            continue
        if not written:
            score = float(found.relative_score)
            row[col["score"]] = repr(score)
            result.filled.append({**where, "score": score})
    result.orphans = [
        {"model": key[0], "task": key[1], "attempt": key[2]} for key in by_key if key not in named
    ]
    return filled.neutralized(), result


def fill_solver_rows(
    attempts: str | os.PathLike[str],
    outputs: Sequence[SolverDocument | dict[str, Any]],
    output: str | os.PathLike[str],
) -> FillResult:
    """Write a copy of an attempts table with blank solver scores filled (:func:`fill_table`),
    atomically to ``output`` (never the input).

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> table = folder / "attempts.csv"
    >>> _ = table.write_text(
    ...     "model,track,item,attempt,score,adoption_status,score_status,score_type,"
    ...     "solver_protocol\\n"
    ...     "m,solver,sim-tsp,1,,selected,valid,fixed_reference_relative,offline\\n")
    >>> out = [{"model": "m", "task": "sim-tsp", "attempt": "1", "relative_score": 0.25}]
    >>> result = fill_solver_rows(table, out, folder / "filled.csv")
    >>> result.filled[0]["score"], (folder / "filled.csv").read_text().splitlines()[1]
    (0.25, 'm,solver,sim-tsp,1,0.25,selected,valid,fixed_reference_relative,offline')
    """
    target = Path(output)
    refuse_output_over_inputs(
        target,
        [attempts],
        field="output",
        allowed="a path other than the attempts table (the input is never changed)",
    )
    filled, result = fill_table(read_csv_table(attempts, kind="Attempts table"), outputs)
    write_text_atomic(target, filled.to_text())
    result.output = target
    return result


_ROW_PER_RECORDS = (
    "a records file whose model, task and attempt have a row in the attempts table (add "
    "the row: excluded, with a note, if it is not adopted)"
)


def refuse_unmatched(
    fill: FillResult,
    records: list[RecordsFile],
    *,
    attempts: str | os.PathLike[str],
    records_dir: str | os.PathLike[str],
    summary: str,
) -> None:
    """Refuse records files no solver row names (``fill.orphans``) and blank valid scores
    without records (``fill.unfilled``); ``summary`` heads the refusal."""
    paths = {(r.model, r.task, r.attempt): r.path for r in records}
    if fill.orphans and not fill.solver_rows:  # one finding, not one per records file
        example = paths[tuple(fill.orphans[0].values())]
        detail = (
            f"the table has no solver row, and {records_dir} holds {len(fill.orphans)} records "
            f"file(s) (e.g. {example})"
        )
        problem = Problem(str(attempts), detail=detail, allowed=_ROW_PER_RECORDS)
        raise InputRefused.from_problems(summary, [problem])
    problems = [
        Problem(
            str(paths[(o["model"], o["task"], o["attempt"])]),
            field="attempt",
            value=o["attempt"],
            detail=f"no solver row {o['model']}/{o['task']} attempt '{o['attempt']}' in {attempts}",
            allowed=_ROW_PER_RECORDS,
        )
        for o in fill.orphans
    ]
    problems += [
        Problem(
            f"{attempts} line {u['line']}",
            field="score",
            value="",
            detail="blank valid solver score and no records file "
            f"{Path(records_dir) / u['model'] / u['item'] / (u['attempt'] + '.json')}",
            allowed="a relative score in [0, 1], or that records file (the score is filled "
            "from it)",
        )
        for u in fill.unfilled
    ]
    if problems:
        raise InputRefused.from_problems(summary, problems)
