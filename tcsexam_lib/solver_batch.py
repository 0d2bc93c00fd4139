"""Solver records of a whole run: find them, score them, fill the attempts table.

A records folder is laid out as ``<model>/<task>/<attempt>.json`` (one instance
records file per solver attempt). :func:`find_records` lists it,
:func:`run_solver_scores` scores every file with :func:`run_solver_score` (the same
JSON as ``tcsexam solver-score``), and :func:`fill_solver_rows` writes a copy of an
attempts table whose blank solver scores are taken from those outputs. A relative
score is in [0, 1]; higher is better and 0.5 is as good as the reference mean.
"""

from __future__ import annotations

import csv
import io
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import InputRefused, Problem
from .evidence import SCORE_TOLERANCE
from .jsonio import refuse_output_over_inputs, write_text_atomic
from .runs import run_solver_score


@dataclass(frozen=True)
class RecordsFile:
    """One solver attempt's records file: whose, which task, which attempt."""

    model: str
    task: str
    attempt: str
    path: Path


def find_records(
    records_dir: str | os.PathLike[str],
    *,
    model: str | None = None,
    tasks: list[str] | tuple[str, ...] | str | None = None,
) -> list[RecordsFile]:
    """Every ``<model>/<task>/<attempt>.json`` under ``records_dir``, sorted.

    ``model`` and ``tasks`` (a list, or one comma-separated string) restrict the list.
    With ``tasks`` given, a task that has no records folder is refused (it is a typo or
    a missing export).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> (root / "m" / "sim-tsp").mkdir(parents=True)
    >>> _ = (root / "m" / "sim-tsp" / "1.json").write_text("[]")
    >>> [(r.model, r.task, r.attempt) for r in find_records(root)]
    [('m', 'sim-tsp', '1')]
    """
    if isinstance(tasks, str):  # papermill -p tasks sim-sat,sim-tsp gives one string
        tasks = [task.strip() for task in tasks.split(",") if task.strip()]
    folder = Path(records_dir)
    if not folder.is_dir():
        raise InputRefused(
            "Records folder not found",
            [
                Problem(
                    str(folder),
                    field="records",
                    value=str(records_dir),
                    detail="no such folder",
                    allowed="a folder laid out as <model>/<task>/<attempt>.json",
                )
            ],
        )
    found = [
        RecordsFile(path.parent.parent.name, path.parent.name, path.stem, path)
        for path in sorted(folder.glob("*/*/*.json"))
        if (model is None or path.parent.parent.name == model)
        and (not tasks or path.parent.name in tasks)
    ]
    if tasks:
        seen = {r.task for r in found}
        missing = [t for t in tasks if t not in seen]
        if missing:
            raise InputRefused(
                "No records for a requested task",
                [
                    Problem(
                        str(folder / (model or "<model>")),
                        field="tasks",
                        value=task,
                        detail="no <task>/<attempt>.json records file",
                        allowed=", ".join(sorted({r.task for r in find_records(folder)}))
                        or "none found",
                    )
                    for task in missing
                ],
            )
    return found


def solver_output_path(solver_dir: str | os.PathLike[str], task: str, attempt: str) -> Path:
    """Where the runner writes the solver-score output of one attempt: ``<task>-<attempt>.json``.

    Examples
    --------
    >>> solver_output_path("out", "sim-tsp", "2").as_posix()
    'out/sim-tsp-2.json'
    """
    return Path(solver_dir) / f"{task}-{attempt}.json"


def run_solver_scores(
    records: list[RecordsFile],
    *,
    reference: str,
    reference_id: str | None = None,
    references_dir: str | os.PathLike[str] | None = None,
    output_dir: str | os.PathLike[str] | None = None,
    producer: str = "tcsexam report",
) -> list[dict[str, Any]]:
    """Score each records file; return the outputs in order (and write them when asked).

    Each output is exactly what ``tcsexam solver-score --model M --attempt A`` writes;
    with ``output_dir`` it also goes to ``output_dir/<task>-<attempt>.json`` (so the
    records of one model at a time). A refused records file stops the run.
    """
    models = sorted({r.model for r in records})
    if output_dir is not None and len(models) > 1:
        raise InputRefused(
            "One output folder per model",
            [
                Problem(
                    str(output_dir),
                    field="records",
                    value=models,
                    allowed="the records of one model (call once per model)",
                )
            ],
        )
    outputs = []
    for item in records:
        target = None
        if output_dir is not None:
            target = solver_output_path(output_dir, item.task, item.attempt)
        outputs.append(
            run_solver_score(
                task=item.task,
                records=item.path,
                reference=reference,
                reference_id=reference_id,
                references_dir=references_dir,
                model=item.model,
                attempt=item.attempt,
                output=target,
                producer=producer,
            )
        )
    return outputs


@dataclass
class FillResult:
    """What :func:`fill_solver_rows` did.

    ``filled``: rows whose blank score was set (model, item, attempt, line, score);
    ``mismatches``: issues for hand-written scores that differ from their solver-score
    output by more than 1e-9 (kept as written); ``unfilled``: blank valid solver rows
    without an output (left blank: scoring will refuse them); ``orphans``: outputs
    (model, task, attempt) that no solver row of the table names.
    """

    output: Path
    filled: list[dict[str, Any]] = field(default_factory=list)
    mismatches: list[dict[str, Any]] = field(default_factory=list)
    unfilled: list[dict[str, Any]] = field(default_factory=list)
    orphans: list[dict[str, str]] = field(default_factory=list)


def _parse_number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def fill_solver_rows(
    attempts: str | os.PathLike[str],
    outputs: list[dict[str, Any]],
    output: str | os.PathLike[str],
) -> FillResult:
    """Write a copy of an attempts table with blank solver scores filled in.

    A ``valid`` solver row whose ``score`` is blank gets the ``relative_score`` of the
    solver-score output with the same model, task and attempt (written as the shortest
    text that reads back to the same float). A score already written that differs from
    its output by more than 1e-9 is kept and reported in ``mismatches``. Everything
    else is copied unchanged. The input is never modified; ``output`` (which must not
    be the input) is written atomically.

    Examples
    --------
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
    source = Path(attempts)
    target = Path(output)
    refuse_output_over_inputs(
        target,
        [source],
        field="output",
        allowed="a path other than the attempts table (the input is never changed)",
    )
    try:
        with open(source, encoding="utf-8-sig", newline="") as handle:
            text = handle.read()  # newline="": a CRLF inside a quoted field is kept
    except (OSError, UnicodeDecodeError) as exc:
        raise InputRefused(
            "Attempts table unreadable (it must be a UTF-8 CSV file)",
            [Problem(str(source), detail=str(exc))],
        ) from exc
    reader = csv.reader(io.StringIO(text, newline=""))
    rows, lines = [], []
    for row in reader:
        rows.append(row)
        lines.append(reader.line_num)  # the row's last physical line, as read_attempts says
    result = FillResult(target)
    if not rows:
        write_text_atomic(target, text)
        return result
    header = rows[0]
    needed = ("model", "track", "item", "attempt", "score", "score_status")
    if any(column not in header for column in needed):
        # Not a table we can fill: copy it, and let the attempts reader say what is wrong.
        write_text_atomic(target, text)
        return result
    col = {name: header.index(name) for name in needed}
    by_key = {(str(o["model"]), str(o["task"]), str(o["attempt"])): o for o in outputs}
    named = set()
    for line, row in zip(lines[1:], rows[1:], strict=True):
        if len(row) > max(col.values()) and row[col["track"]].strip() == "solver":
            # a short row still names its records (the attempts reader refuses the row)
            named.add(tuple(row[col[name]].strip() for name in ("model", "item", "attempt")))
        if len(row) < len(header) or row[col["track"]].strip() != "solver":
            continue
        if row[col["score_status"]].strip() != "valid":
            continue
        key = tuple(row[col[name]].strip() for name in ("model", "item", "attempt"))
        found = by_key.get(key)
        written = row[col["score"]].strip()
        where = {"model": key[0], "item": key[1], "attempt": key[2], "line": line}
        if found is None:
            if not written:
                result.unfilled.append(where)
            continue
        score = float(found["relative_score"])
        if not written:
            row[col["score"]] = repr(score)
            result.filled.append({**where, "score": score})
            continue
        value = _parse_number(written)
        if value is None or abs(value - score) > SCORE_TOLERANCE:
            result.mismatches.append(
                {
                    "code": "solver_score_mismatch",
                    "severity": "error",
                    "track": "solver",
                    **where,
                    "table_score": written,
                    "solver_score": score,
                    "message": f"{key[0]}/solver/{key[1]} attempt '{key[2]}' (line {line}): "
                    f"table score {written} differs from the solver-score value {score!r} "
                    f"by more than {SCORE_TOLERANCE:g}; kept as written",
                }
            )
    result.orphans = [
        {"model": key[0], "task": key[1], "attempt": key[2]} for key in by_key if key not in named
    ]
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    write_text_atomic(target, buffer.getvalue())
    return result
