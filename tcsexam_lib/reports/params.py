"""Run-set parameter files of ``tcsexam report`` (``params/*.yaml``).

Checked against ``references/schemas/report-params.schema.json``: an unknown or repeated
key is refused, naming the keys allowed. Relative paths are relative to the file's folder.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..errors import InputRefused, Problem, did_you_mean
from ..inputrules import Rule, RuleList
from ..references.suites import Suite, load_suite
from ..schemas import load_schema, validate_with_schema
from ..scoring.cohort import Cohort, load_cohort
from ..yamlio import read_yaml_mapping
from .notebooks import NOTEBOOK_NAMES

#: Schema name of a run-set parameter file.
PARAMS_SCHEMA = "report-params"

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


@dataclass
class ParamsInput:
    """A run-set parameter file as its rules read it: its ``data`` (a mapping), its
    ``source`` and the caller's ``--output``; the cohort once it is loaded."""

    source: Path
    data: dict[str, Any]
    output: str | os.PathLike[str] | None = None
    cohort: Cohort | None = None

    @cached_property
    def paths(self) -> dict[str, Path]:
        """The input paths, absolute (relative ones are relative to the file's folder)."""
        keys = ("cohort", "attempts", "records", "references_dir")
        return {key: _resolve(self.source.parent, self.data[key]) for key in keys
                if self.data.get(key) is not None}  # fmt: skip

    @cached_property
    def out(self) -> Path:
        """The output folder: the caller's, the file's, or the default."""
        if self.output is not None:
            return Path(self.output).resolve()
        if "output" in self.data:
            return _resolve(self.source.parent, self.data["output"])
        return DEFAULT_OUTPUT.resolve()

    @property
    def name(self) -> str:
        return f"{self.data['suite']}-{self.data['protocol']}"


def _allowed_keys() -> list[str]:
    return sorted(load_schema(PARAMS_SCHEMA)["properties"])


def _keys_explain(params: ParamsInput):
    allowed = _allowed_keys()
    for k, (key, value) in enumerate(params.data.items()):
        if key in allowed:
            continue
        yield (
            (k,),
            Problem(
                str(params.source),
                field=str(key),
                value=value,
                detail="; ".join(filter(None, ["unknown key", did_you_mean(key, allowed)])),
                allowed=", ".join(allowed),
            ),
        )


#: The keys of a parameter file (a typo is named with the key it was probably meant to be).
KEY_RULES: RuleList[ParamsInput, Problem] = RuleList(
    "run-set parameter keys",
    (
        Rule(
            "known keys",
            "every key is one the published schema names",
            lambda params: set(params.data) <= set(_allowed_keys()),
            _keys_explain,
        ),
    ),
)


def _wanted_dir(key: str) -> bool:
    return key in ("records", "references_dir")


def _exists(key: str, path: Path) -> bool:
    return path.is_dir() if _wanted_dir(key) else path.is_file()


def _paths_explain(params: ParamsInput):
    for k, (key, resolved) in enumerate(params.paths.items()):
        if not _exists(key, resolved):
            what = "folder" if _wanted_dir(key) else "file"
            parent = resolved.parent
            near = [p.name for p in parent.iterdir() if _exists(key, p)] if parent.is_dir() else []
            close = did_you_mean(resolved.name, near)
            yield (
                (k,),
                Problem(
                    str(params.source),
                    field=key,
                    value=params.data[key],
                    detail=f"{resolved} is not an existing {what}"
                    + (f"; {close}" if close else ""),
                    allowed=f"a path to an existing {what}, relative to the parameter "
                    "file's folder",
                ),
            )


#: The inputs a parameter file names exist (files and folders).
PATH_RULES: RuleList[ParamsInput, Problem] = RuleList(
    "run-set inputs",
    (
        Rule(
            "inputs exist",
            "cohort and attempts are files, records and references_dir folders",
            lambda params: all(_exists(key, path) for key, path in params.paths.items()),
            _paths_explain,
        ),
    ),
)


def _usable_model(model: str) -> bool:
    return "/" not in model and "\\" not in model and not model.startswith(".")


def _models_explain(params: ParamsInput):
    for k, model in enumerate(params.cohort.models if params.cohort else ()):
        if not _usable_model(model):
            yield (
                (0, k),
                Problem(
                    str(params.paths["cohort"]),
                    field="models",
                    value=model,
                    detail="the report runner keeps each model's records and reports in a "
                    "folder named after it",
                    allowed="a model id usable as one folder name (no '/' or '\\', "
                    "not starting with '.')",
                ),
            )


def _protocol_explain(params: ParamsInput):
    protocol = params.cohort.solver_protocol if params.cohort else params.data["protocol"]
    if protocol != params.data["protocol"]:
        yield (
            (1,),
            Problem(
                str(params.source),
                field="protocol",
                value=params.data["protocol"],
                allowed=f"'{protocol}' (the protocol of {params.paths['cohort']})",
            ),
        )


#: The run set and its loaded cohort agree.
COHORT_MATCH_RULES: RuleList[ParamsInput, Problem] = RuleList(
    "run set and cohort",
    (
        Rule(
            "model folders",
            "every model id of the cohort can name one folder",
            lambda params: all(map(_usable_model, params.cohort.models if params.cohort else ())),
            _models_explain,
        ),
        Rule(
            "protocol",
            "the run set's protocol is the cohort's",
            lambda params: (
                params.cohort is None or params.cohort.solver_protocol == params.data["protocol"]
            ),
            _protocol_explain,
        ),
    ),
)


def _blocking_file(params: ParamsInput) -> Path | None:
    """An existing file where the output folder (or one of its parents) would be."""
    out = params.out
    blocking = next((part for part in (out, *out.parents) if part.exists()), None)
    return blocking if blocking is not None and not blocking.is_dir() else None


def _output_folder_explain(params: ParamsInput):
    blocking = _blocking_file(params)
    if blocking is not None:
        from_file = params.output is None and "output" in params.data
        yield (
            (0,),
            Problem(
                str(params.source) if from_file else "tcsexam report --output",
                field="output",
                value=params.data["output"] if from_file else str(params.output or DEFAULT_OUTPUT),
                detail=f"{blocking} is an existing file",
                allowed="a folder (existing or not) for the reports",
            ),
        )


#: The output names a folder (existing or not), not a file.
OUTPUT_FOLDER_RULES: RuleList[ParamsInput, Problem] = RuleList(
    "run-set output folder",
    (
        Rule(
            "output folder",
            "the output (and every folder above it) is a folder or does not exist",
            lambda params: _blocking_file(params) is None,
            _output_folder_explain,
        ),
    ),
)


def _inputs_written_over(params: ParamsInput) -> list[str]:
    """The inputs the runner would write over: the landing page, or inside the run set."""
    out, paths = params.out, params.paths
    run_set = out / params.name  # replaced as a whole when the run set is published
    return [
        key
        for key in ("cohort", "attempts", "references_dir")
        if key in paths and (paths[key] == out / "index.html" or run_set in paths[key].parents)
    ]


def _nested_folders(params: ParamsInput) -> str | None:
    """``output`` inside the records folder, ``records`` inside the run set's, or neither."""
    out, records = params.out, params.paths["records"]
    run_set = out / params.name
    if out == records or records in out.parents:
        return "output"
    if records == run_set or run_set in records.parents:
        return "records"
    return None


def _apart_explain(params: ParamsInput):
    out, paths, source = params.out, params.paths, str(params.source)
    run_set = out / params.name
    for k, key in enumerate(_inputs_written_over(params)):
        yield (
            (0, k),
            Problem(
                source,
                field=key,
                value=params.data[key],
                detail=f"the report would write {paths[key]}"
                if paths[key] == out / "index.html"
                else f"{paths[key]} lies inside the run set's output folder {run_set}, which "
                "the runner replaces as a whole",
                allowed=f"an input outside the files the runner writes in {out}",
            ),
        )
    nested = _nested_folders(params)
    allowed = "output and records folders that do not contain each other"
    records = paths["records"]
    if nested == "output":
        detail = f"the output folder lies inside the records folder {records}"
        yield (1,), Problem(source, field="output", value=str(out), detail=detail,
                            allowed=allowed)  # fmt: skip
    elif nested == "records":
        detail = f"the records folder {records} lies inside the run set's output folder {run_set}"
        yield (1,), Problem(source, field="records", value=params.data["records"],
                            detail=detail, allowed=allowed)  # fmt: skip


#: The runner's outputs land apart from the run set's inputs.
OUTPUT_APART_RULES: RuleList[ParamsInput, Problem] = RuleList(
    "run-set output apart from the inputs",
    (
        Rule(
            "output apart",
            "no input where the runner writes, and output and records folders apart",
            lambda params: not _inputs_written_over(params) and _nested_folders(params) is None,
            _apart_explain,
        ),
    ),
)


def _resolve(base: Path, value: str) -> Path:
    path = Path(value).expanduser()
    return path if path.is_absolute() else (base / path).resolve()


def _refuse(rules: RuleList[ParamsInput, Problem], params: ParamsInput, count: bool) -> None:
    problems = rules.refusal(params)
    if problems:
        summary = f"Parameter file {params.source} refused"
        if count:
            raise InputRefused.from_problems(summary, problems)
        raise InputRefused(summary, problems)


def load_report_params(
    path: str | os.PathLike[str], *, output: str | os.PathLike[str] | None = None
) -> ReportParams:
    """Load and check one run-set parameter file; ``output`` overrides the file's.

    Checks the schema, that every path exists, that the suite loads, and that the cohort
    declares this suite and protocol.

    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "set.yaml"
    >>> _ = p.write_text("suite: demo-lite\\nprotocl: offline\\n")
    >>> try:
    ...     load_report_params(p)
    ... except InputRefused as exc:
    ...     print(exc.problems[0].field, "->", exc.problems[0].detail)
    protocl -> unknown key; did you mean 'protocol'?
    """
    source = Path(path).resolve()
    params = ParamsInput(source, read_yaml_mapping(source), output)
    _refuse(KEY_RULES, params, count=True)
    validate_with_schema(params.data, PARAMS_SCHEMA, str(source))
    _refuse(PATH_RULES, params, count=True)
    data, paths = params.data, params.paths
    try:
        suite = load_suite(data["suite"], references_dir=paths.get("references_dir"))
        params.cohort = cohort = load_cohort(paths["cohort"], suite=suite)
    except InputRefused as exc:
        raise InputRefused(f"Parameter file {source}: {exc.summary}", exc.problems) from exc
    _refuse(COHORT_MATCH_RULES, params, count=False)
    _refuse(OUTPUT_FOLDER_RULES, params, count=False)
    _refuse(OUTPUT_APART_RULES, params, count=True)
    out = params.out
    return ReportParams(
        source=source,
        suite=data["suite"],
        protocol=data["protocol"],
        cohort=paths["cohort"],
        attempts=paths["attempts"],
        records=paths["records"],
        references_dir=paths.get("references_dir"),
        output=out,
        notebooks=tuple(n for n in NOTEBOOK_NAMES if n in data.get("notebooks", NOTEBOOK_NAMES)),
        description=data.get("description"),
        simulated=suite.simulated,
        models=tuple(cohort.models),
        loaded_suite=suite,
        loaded_cohort=cohort,
    )
