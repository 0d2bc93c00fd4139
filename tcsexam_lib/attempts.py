"""Reading and validating the attempts table (one CSV row per attempt).

Validation has two layers. First every value against its vocabulary and range
(``track``, ``adoption_status``, ``score_status``, ``score_type``,
``solver_protocol``, a finite ``score`` in its track's range when valid). Then the
relations: model in the cohort, item in the suite under that track, the solver
protocol and score type of the cohort, unique (model, track, item, attempt), and no
more adopted attempts than planned. Every problem names the file, line, field and
value; all of them are reported at once.
"""

from __future__ import annotations

import csv
import math
import os
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pandas as pd

from .errors import InputRefused, Problem
from .plan import Cohort, Suite
from .vocab import (
    ADOPTED_STATUSES,
    ADOPTION_STATUSES,
    ATTEMPT_COLUMNS,
    BINARY_TRACKS,
    SCORE_STATUSES,
    SCORE_TYPE_OTHER,
    SCORE_TYPE_SOLVER,
    SOLVER_PROTOCOLS,
    TRACKS,
)

_RANGES = {
    "theorem": "exactly 0 or 1 (1 only if the judge accepted a complete proof)",
    "conjecture": "exactly 0 or 1 (1 only if a complete proof or disproof was accepted)",
    "solver": "a relative score in [0, 1]",
    "construction": "a finite raw reward >= 0",
}


def _in_range(track: str, score: float) -> bool:
    if track in BINARY_TRACKS:
        return score in (0.0, 1.0)
    if track == "solver":
        return 0.0 <= score <= 1.0
    return score >= 0.0


_NUMBER = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*")


def _parse_score(text: str) -> float | None:
    """A decimal number (``0.25``, ``1``, ``2.5e-1``), or ``None`` for anything else.

    Python's ``float`` would also take ``1_000``, ``nan`` or ``inf``; a score is plain text.
    """
    if not _NUMBER.fullmatch(text):
        return None
    return float(text)


def _check_values(row: dict[str, str], where: str) -> list[Problem]:
    """Layer 1: each value against its vocabulary and range."""
    problems = []
    for name in ("model", "item", "attempt"):
        if not row[name].strip():
            problems.append(Problem(where, field=name, value=row[name], allowed="a non-empty id"))
    vocabularies = {
        "track": TRACKS,
        "adoption_status": ADOPTION_STATUSES,
        "score_status": SCORE_STATUSES,
        "score_type": (SCORE_TYPE_SOLVER, SCORE_TYPE_OTHER),
        "solver_protocol": ("",) + SOLVER_PROTOCOLS,
    }
    for name, allowed in vocabularies.items():
        if row[name] not in allowed:
            problems.append(
                Problem(
                    where,
                    field=name,
                    value=row[name],
                    allowed=", ".join(a if a else "(blank)" for a in allowed),
                )
            )
    text = row["score"]
    if row["score_status"] == "valid":
        score = _parse_score(text) if text.strip() else None
        if score is None or not math.isfinite(score):
            problems.append(
                Problem(
                    where,
                    field="score",
                    value=text,
                    allowed="a finite number when score_status is 'valid'",
                )
            )
        elif row["track"] in _RANGES and not _in_range(row["track"], score):
            problems.append(
                Problem(
                    where,
                    field="score",
                    value=text,
                    allowed=f"{_RANGES[row['track']]} for track '{row['track']}'",
                )
            )
    elif text.strip() and _parse_score(text) is None:
        problems.append(
            Problem(
                where,
                field="score",
                value=text,
                allowed="blank or a number when the score is not valid",
            )
        )
    return problems


def _check_relations(
    row: dict[str, str], where: str, suite: Suite, cohort: Cohort
) -> list[Problem]:
    """Layer 2: the row against the cohort and the suite."""
    problems = []
    if row["model"] not in cohort.models:
        problems.append(
            Problem(
                where,
                field="model",
                value=row["model"],
                allowed="a model of the cohort: " + ", ".join(cohort.models),
            )
        )
    track, item = row["track"], row["item"]
    owner = suite.track_of(item)
    if owner is None:
        problems.append(
            Problem(
                where,
                field="item",
                value=item,
                allowed=f"a task of suite '{suite.name}' track '{track}'",
            )
        )
    elif track in TRACKS and owner != track:
        problems.append(
            Problem(
                where,
                field="track",
                value=track,
                detail=f"item '{item}' belongs to track '{owner}'",
                allowed=f"'{owner}'",
            )
        )
    if track == "solver":
        if row["score_type"] != SCORE_TYPE_SOLVER:
            problems.append(
                Problem(
                    where,
                    field="score_type",
                    value=row["score_type"],
                    allowed=f"'{SCORE_TYPE_SOLVER}' on solver rows",
                )
            )
        if row["solver_protocol"] != cohort.solver_protocol:
            problems.append(
                Problem(
                    where,
                    field="solver_protocol",
                    value=row["solver_protocol"],
                    allowed=f"'{cohort.solver_protocol}' (the cohort's protocol)",
                )
            )
    elif track in TRACKS:
        if row["score_type"] != SCORE_TYPE_OTHER:
            problems.append(
                Problem(
                    where,
                    field="score_type",
                    value=row["score_type"],
                    allowed=f"'{SCORE_TYPE_OTHER}' on {track} rows",
                )
            )
        if row["solver_protocol"] not in ("", cohort.solver_protocol):
            problems.append(
                Problem(
                    where,
                    field="solver_protocol",
                    value=row["solver_protocol"],
                    allowed=f"blank (or the cohort's '{cohort.solver_protocol}') on {track} rows",
                )
            )
    return problems


def _read_rows(path: Path) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    try:
        handle = open(path, newline="", encoding="utf-8-sig")
    except FileNotFoundError as exc:
        raise InputRefused(
            "Attempts file not found", [Problem(str(path), detail="no such file")]
        ) from exc
    except OSError as exc:
        raise InputRefused(
            "Attempts file unreadable", [Problem(str(path), detail=str(exc))]
        ) from exc
    with handle:
        try:
            reader = csv.reader(handle, strict=True)
            header = next(reader, None)
            if header is None:
                raise InputRefused(
                    "Attempts file is empty",
                    [
                        Problem(
                            f"{path} line 1", detail="no header", allowed=",".join(ATTEMPT_COLUMNS)
                        )
                    ],
                )
            _check_header(header, path)
            rows = []
            problems = []
            for values in reader:
                line = reader.line_num
                if not values or all(not v.strip() for v in values):
                    continue
                if len(values) != len(header):
                    problems.append(
                        Problem(
                            f"{path} line {line}",
                            detail=f"{len(values)} fields, header has {len(header)}",
                        )
                    )
                    continue
                rows.append((line, dict(zip(header, values, strict=True))))
        except csv.Error as exc:
            raise InputRefused(
                "Attempts file is not valid CSV",
                [Problem(f"{path} line {reader.line_num}", detail=str(exc))],
            ) from exc
        except UnicodeDecodeError as exc:
            raise InputRefused(
                "Attempts file is not UTF-8", [Problem(str(path), detail=str(exc))]
            ) from exc
    if problems:
        raise InputRefused.from_problems(f"Attempts table {path} refused", problems)
    return header, rows


def _check_header(header: list[str], path: Path) -> None:
    # Exact names: a padded name (" track") would not be found when the rows are read.
    head = header[: len(ATTEMPT_COLUMNS)]
    problems = []
    if tuple(head) != ATTEMPT_COLUMNS:
        # Name the first wrong column: the whole header is cut short in the message.
        position = next(
            (k for k, want in enumerate(ATTEMPT_COLUMNS) if k >= len(head) or head[k] != want)
        )
        got = repr(head[position]) if position < len(head) else "nothing"
        problems.append(
            Problem(
                f"{path} line 1",
                field="header",
                value=",".join(header),
                detail=f"column {position + 1} is {got}, expected '{ATTEMPT_COLUMNS[position]}'",
                allowed=",".join(ATTEMPT_COLUMNS)
                + " (in this order; further columns such as note may follow)",
            )
        )
    duplicated = sorted({h for h in header if header.count(h) > 1})
    if duplicated:
        problems.append(
            Problem(
                f"{path} line 1",
                field="header",
                value=",".join(duplicated),
                detail="column named twice",
            )
        )
    if "line" in header:
        problems.append(
            Problem(
                f"{path} line 1",
                field="header",
                value="line",
                detail="this column name is reserved for the CSV line number the kit adds",
                allowed="another name for this further column (e.g. source_line)",
            )
        )
    if problems:
        raise InputRefused("Attempts table header refused", problems)


def read_attempts(path: str | os.PathLike[str], *, suite: Suite, cohort: Cohort) -> pd.DataFrame:
    """Read and validate an attempts table against a suite and a cohort.

    Returns
    -------
    pandas.DataFrame
        One row per CSV row, in file order: the nine attempt columns (``score`` as a
        float, NaN when not valid and blank), any further columns (``note``...) as
        text, and ``line`` (the CSV line number). Nothing is dropped.

    Raises
    ------
    InputRefused
        Listing every problem by file, line, field and value.
    """
    path = Path(path)
    header, rows = _read_rows(path)
    problems: list[Problem] = []
    seen: dict[tuple[str, str, str, str], int] = {}
    adopted: dict[tuple[str, str, str], list[int]] = defaultdict(list)
    for line, row in rows:
        where = f"{path} line {line}"
        value_problems = _check_values(row, where)
        problems.extend(value_problems)
        if any(p.field in ("track", "model", "item") for p in value_problems):
            continue
        problems.extend(_check_relations(row, where, suite, cohort))
        key = (row["model"], row["track"], row["item"], row["attempt"])
        if key in seen:
            problems.append(
                Problem(
                    where,
                    field="attempt",
                    value=row["attempt"],
                    detail=f"duplicate (model, track, item, attempt); first at line {seen[key]}",
                )
            )
        else:
            seen[key] = line
        if row["adoption_status"] in ADOPTED_STATUSES:
            adopted[key[:3]].append(line)
    for (model, track, item), lines in adopted.items():
        plan = cohort.models.get(model)
        if plan is None or suite.track_of(item) != track:
            continue
        planned = plan.planned(item)
        if len(lines) > planned:
            problems.append(
                Problem(
                    f"{path} lines {', '.join(map(str, lines))}",
                    field="adoption_status",
                    value=f"{len(lines)} adopted attempts of {model}/{track}/{item}",
                    allowed=f"at most {planned} adopted (planned in the cohort); mark the others "
                    "'excluded' with a note",
                )
            )
    if problems:
        problems.sort(key=lambda p: _line_of(p.where))
        raise InputRefused.from_problems(f"Attempts table {path} refused", problems)
    return _to_frame(header, rows)


def _line_of(where: str) -> int:
    tail = where.rsplit(" line ", 1)
    if len(tail) == 2 and tail[1].isdigit():
        return int(tail[1])
    return 1 << 30


def _to_frame(header: list[str], rows: list[tuple[int, dict[str, str]]]) -> pd.DataFrame:
    records: list[dict[str, Any]] = []
    for line, row in rows:
        record: dict[str, Any] = dict(row)
        record["score"] = _parse_score(row["score"]) if row["score"].strip() else math.nan
        record["line"] = line
        records.append(record)
    columns = list(header) + ["line"]
    frame = pd.DataFrame.from_records(records, columns=columns)
    frame["score"] = frame["score"].astype(float)
    frame["line"] = frame["line"].astype(int)
    return frame
