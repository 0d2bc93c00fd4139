"""Run-set parameter files of ``tcsexam report`` (``params/*.yaml``).

A run set is one suite, one solver protocol and one cohort: its attempts table and
the folder of solver instance records (``<model>/<task>/<attempt>.json``). The file
is YAML, checked against the published schema
``references/schemas/report-params.schema.json``. An unknown key (a typo) is an
error naming the file, the key, its value and the keys allowed; so is a repeated key.
Relative paths are relative to the folder of the parameter file, so a run set can be
run from anywhere.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputRefused, Problem
from ..references.suites import Suite, load_suite
from ..schemas import load_schema, validate_with_schema
from ..scoring.cohort import Cohort, load_cohort
from ..yamlio import read_yaml_mapping

#: Schema name of a run-set parameter file.
PARAMS_SCHEMA = "report-params"

#: The report notebooks, in the order they are run for each model.
REPORT_NOTEBOOKS = ("cohort", "solver_scoring", "index", "diagnostics")

#: Output folder used when neither the file nor the caller names one.
DEFAULT_OUTPUT = Path("build") / "reports"


@dataclass(frozen=True)
class ReportParams:
    """A validated run set; every path is absolute."""

    source: Path
    suite: str
    protocol: str
    cohort: Path
    attempts: Path
    records: Path
    references_dir: Path | None
    output: Path
    notebooks: tuple[str, ...]
    description: str | None = None
    simulated: bool = False
    models: tuple[str, ...] = ()
    #: The suite and cohort as loaded while checking the file (loaded once per run).
    loaded_suite: Suite | None = field(default=None, repr=False, compare=False)
    loaded_cohort: Cohort | None = field(default=None, repr=False, compare=False)

    @property
    def name(self) -> str:
        """The run set's folder name, ``<suite>-<protocol>``."""
        return f"{self.suite}-{self.protocol}"


def _unknown_key_problems(data: dict[str, Any], source: Path) -> list[Problem]:
    allowed = sorted(load_schema(PARAMS_SCHEMA)["properties"])
    problems = []
    for key in data:
        if key in allowed:
            continue
        close = difflib.get_close_matches(str(key), allowed, n=1)
        problems.append(
            Problem(
                str(source),
                field=str(key),
                value=data[key],
                detail="unknown key" + (f" (did you mean '{close[0]}'?)" if close else ""),
                allowed=", ".join(allowed),
            )
        )
    return problems


def _resolve(base: Path, value: str) -> Path:
    path = Path(value).expanduser()
    return path if path.is_absolute() else (base / path).resolve()


def _refuse_output_over_inputs(
    source: Path, data: dict[str, Any], out: Path, paths: dict[str, Path]
) -> None:
    """Refuse an output folder whose files would land on (or among) the run set's inputs."""
    name = f"{data['suite']}-{data['protocol']}"
    run_set = out / name  # replaced as a whole when the run set is published
    problems = [
        Problem(
            str(source),
            field=key,
            value=data[key],
            detail=f"the report would write {paths[key]}"
            if paths[key] == out / "index.html"
            else f"{paths[key]} lies inside the run set's output folder {run_set}, which "
            "the runner replaces as a whole",
            allowed=f"an input outside the files the runner writes in {out}",
        )
        for key in ("cohort", "attempts", "references_dir")
        if key in paths and (paths[key] == out / "index.html" or run_set in paths[key].parents)
    ]
    records = paths["records"]
    run_set_folder = out / name
    allowed = "output and records folders that do not contain each other"
    if out == records or records in out.parents:
        problems.append(
            Problem(
                str(source),
                field="output",
                value=str(out),
                detail=f"the output folder lies inside the records folder {records}",
                allowed=allowed,
            )
        )
    elif records == run_set_folder or run_set_folder in records.parents:
        problems.append(
            Problem(
                str(source),
                field="records",
                value=data["records"],
                detail=f"the records folder {records} lies inside the run set's output "
                f"folder {run_set_folder}",
                allowed=allowed,
            )
        )
    if problems:
        raise InputRefused.from_problems(f"Parameter file {source} refused", problems)


def load_report_params(
    path: str | os.PathLike[str], *, output: str | os.PathLike[str] | None = None
) -> ReportParams:
    """Load and check one run-set parameter file.

    ``output`` (the caller's ``--output``) overrides the file's ``output``. Checks: the
    schema (unknown keys are named with what is allowed), that every path exists, that
    the suite loads, and that the cohort declares this suite and this protocol.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "set.yaml"
    >>> _ = p.write_text("suite: demo-lite\\nprotocl: offline\\n")
    >>> try:
    ...     load_report_params(p)
    ... except InputRefused as exc:
    ...     print(exc.problems[0].field, "->", exc.problems[0].detail)
    protocl -> unknown key (did you mean 'protocol'?)
    """
    source = Path(path).resolve()
    data = read_yaml_mapping(source)
    problems = _unknown_key_problems(data, source)
    if problems:
        raise InputRefused.from_problems(f"Parameter file {source} refused", problems)
    validate_with_schema(data, PARAMS_SCHEMA, str(source))
    base = source.parent
    paths = {key: _resolve(base, data[key]) for key in ("cohort", "attempts", "records")}
    references_dir = data.get("references_dir")
    if references_dir is not None:
        paths["references_dir"] = _resolve(base, references_dir)
    problems = []
    for key, resolved in paths.items():
        wanted_dir = key in ("records", "references_dir")
        if not (resolved.is_dir() if wanted_dir else resolved.is_file()):
            problems.append(
                Problem(
                    str(source),
                    field=key,
                    value=data[key],
                    detail=f"{resolved} is not an existing {'folder' if wanted_dir else 'file'}",
                    allowed=f"a path to an existing {'folder' if wanted_dir else 'file'}, "
                    "relative to the parameter file's folder",
                )
            )
    if problems:
        raise InputRefused.from_problems(f"Parameter file {source} refused", problems)
    try:
        suite = load_suite(data["suite"], references_dir=paths.get("references_dir"))
        cohort = load_cohort(paths["cohort"], suite=suite)
    except InputRefused as exc:
        raise InputRefused(f"Parameter file {source}: {exc.summary}", exc.problems) from exc
    unusable = [m for m in cohort.models if "/" in m or "\\" in m or m.startswith(".")]
    if unusable:
        raise InputRefused(
            f"Parameter file {source} refused",
            [
                Problem(
                    str(paths["cohort"]),
                    field="models",
                    value=model,
                    detail="the report runner keeps each model's records and reports in a "
                    "folder named after it",
                    allowed="a model id usable as one folder name (no '/' or '\\', "
                    "not starting with '.')",
                )
                for model in unusable
            ],
        )
    if cohort.solver_protocol != data["protocol"]:
        raise InputRefused(
            f"Parameter file {source} refused",
            [
                Problem(
                    str(source),
                    field="protocol",
                    value=data["protocol"],
                    allowed=f"'{cohort.solver_protocol}' (the protocol of {paths['cohort']})",
                )
            ],
        )
    if output is not None:
        out = Path(output).resolve()
    elif "output" in data:
        out = _resolve(base, data["output"])
    else:
        out = DEFAULT_OUTPUT.resolve()
    blocking = next((part for part in (out, *out.parents) if part.exists()), None)
    if blocking is not None and not blocking.is_dir():
        from_file = output is None and "output" in data
        raise InputRefused(
            f"Parameter file {source} refused",
            [
                Problem(
                    str(source) if from_file else "tcsexam report --output",
                    field="output",
                    value=data["output"] if from_file else str(output or DEFAULT_OUTPUT),
                    detail=f"{blocking} is an existing file",
                    allowed="a folder (existing or not) for the reports",
                )
            ],
        )
    _refuse_output_over_inputs(source, data, out, paths)
    return ReportParams(
        source=source,
        suite=data["suite"],
        protocol=data["protocol"],
        cohort=paths["cohort"],
        attempts=paths["attempts"],
        records=paths["records"],
        references_dir=paths.get("references_dir"),
        output=out,
        notebooks=tuple(data.get("notebooks", REPORT_NOTEBOOKS)),
        description=data.get("description"),
        simulated=suite.simulated,
        models=tuple(cohort.models),
        loaded_suite=suite,
        loaded_cohort=cohort,
    )
