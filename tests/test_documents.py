"""Typed output documents (``documents.py`` and the documents built on it) against the
published JSON Schemas.

Each record class of an output (``scoring/index_document.py``,
``scoring/solver_document.py``, ``stats/document.py``, ``reports/run_set_document.py``)
names the place of its object in a published schema. These tests hold the two together:
the same fields, the schema's required fields required by the record, each field's type
one the schema allows, and nested records where the schema refers to them. The kit's own
outputs (the index, a solver-score output, a run set's ``run-set.json`` and its stats)
validate against the schemas.
"""

from __future__ import annotations

import json
import platform
import types
import typing
from typing import Any

import pytest
from conftest import write_run_set

from tcsexam_lib import environment, provenance, run_report, run_score, run_solver_score
from tcsexam_lib.documents import Field, Record
from tcsexam_lib.record_specs import conforms
from tcsexam_lib.reports import history, run_set_document
from tcsexam_lib.schemas import load_schema, schema_errors, write_schemas
from tcsexam_lib.scoring import index_document, solver_document
from tcsexam_lib.stats import document as stats_document

MODULES = (index_document, solver_document, stats_document, run_set_document, environment,
           provenance, history)  # fmt: skip
RECORDS = [
    value
    for module in MODULES
    for value in vars(module).values()
    if isinstance(value, type)
    and issubclass(value, Record)
    and value.__module__ == module.__name__
    and value.SCHEMA is not None  # not the parameters of an entry point (inline in provenance)
]

#: Required by the schema, optional in the record, and why.
OPTIONAL_HERE = {
    ("SolverDocument", "model"): "the schema publishes an output as solver evidence, which "
    "names its model and attempt; solver-score writes them only when given",
    ("SolverDocument", "attempt"): "as for model",
}

#: The JSON types a Python annotation accepts.
_JSON_TYPES = {
    str: {"string"},
    int: {"integer"},
    float: {"number", "integer"},
    bool: {"boolean"},
    type(None): {"null"},
    list: {"array"},
    dict: {"object"},
}


def _accepted(annotation: Any) -> set[str] | None:
    """JSON types an annotation accepts (``None``: any)."""
    if annotation is Any:
        return None
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _accepted(typing.get_args(annotation)[0])
    if origin is typing.Literal:
        names = {str: "string", bool: "boolean", int: "integer", float: "number"}
        return {"null" if v is None else names[type(v)] for v in typing.get_args(annotation)}
    if origin in (typing.Union, types.UnionType):
        found: set[str] = set()
        for arg in typing.get_args(annotation):
            accepted = _accepted(arg)
            if accepted is None:
                return None
            found |= accepted
        return found
    target = origin or annotation
    if isinstance(target, type) and issubclass(target, Record):
        return {"object"}
    return _JSON_TYPES[target]


def _allowed(prop: dict[str, Any], schema: dict[str, Any]) -> set[str] | None:
    """JSON types a schema property allows (``None``: any); a reference to a definition
    that is not an object (``number_or_null``, an interval) allows what it allows."""
    if "$ref" in prop:
        target = _resolve(schema, prop["$ref"])
        return {"object"} if target.get("type") == "object" else _allowed(target, schema)
    for combined in ("anyOf", "oneOf"):
        if combined in prop:
            found: set[str] = set()
            for option in prop[combined]:
                allowed = _allowed(option, schema)
                if allowed is None:
                    return None
                found |= allowed
            return found
    values = prop.get("enum", [prop["const"]] if "const" in prop else None)
    if values is not None:
        names = {str: "string", bool: "boolean", int: "integer", float: "number"}
        return {"null" if v is None else names[type(v)] for v in values}
    declared = prop.get("type")
    if declared is None:
        return None
    return set(declared) if isinstance(declared, list) else {declared}


def _resolve(schema: dict[str, Any], pointer: str) -> dict[str, Any]:
    """The node a local ``$ref`` (``#/$defs/...``) points to."""
    node = schema
    for step in [s for s in pointer.removeprefix("#").split("/") if s]:
        node = node[step]
    return node


def _subschema(record: type[Record]) -> tuple[dict[str, Any], dict[str, Any]]:
    name, pointer = record.SCHEMA
    schema = load_schema(name)
    return schema, _resolve(schema, pointer)


def _attributes(record: type[Record]) -> dict[str, str]:
    """JSON key -> the attribute declaring it."""
    found = {}
    for klass in reversed(record.__mro__):
        for name, value in vars(klass).items():
            if isinstance(value, Field):
                found[value.key] = name
    return found


def _refers_to(prop: dict[str, Any], field: Field) -> bool:
    """The schema property holds the record of ``field`` where the field reads one."""
    want = "#" + field.of.SCHEMA[1]
    inner = {
        "record": lambda p: [p, *p.get("anyOf", [])],
        "list": lambda p: [p.get("items", {})],
        "dict": lambda p: [p.get("additionalProperties", {})],
        "dict_of_lists": lambda p: [p.get("additionalProperties", {}).get("items", {})],
    }[field.shape](prop)
    if field.shape == "dict" and "properties" in prop:  # a fixed set of keys, each a record
        return all(node.get("$ref") == want for node in prop["properties"].values())
    return any(node.get("$ref") == want for node in inner)


def test_every_output_module_has_record_classes():
    names = {r.__name__ for r in RECORDS}
    assert names >= {"IndexDocument", "SolverDocument", "StatsDocument", "RunSetDocument"}


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.__name__)
def test_each_record_declares_what_its_published_schema_describes(record):
    assert record.SCHEMA is not None, f"{record.__name__} names no schema"
    schema, node = _subschema(record)
    fields = record.fields()
    properties = node["properties"]
    assert sorted(fields) == sorted(properties), "fields and schema properties differ"
    for key in node.get("required", []):
        if (record.__name__, key) not in OPTIONAL_HERE:
            assert not fields[key].optional, f"{key}: required by the schema, optional here"
    hints = typing.get_type_hints(record)
    for key, attribute in _attributes(record).items():
        accepted, allowed = _accepted(hints[attribute]), _allowed(properties[key], schema)
        if accepted is not None and allowed is not None:
            assert allowed <= accepted, f"{key}: schema allows {allowed}, annotated {accepted}"
        if fields[key].of is not None:
            assert _refers_to(properties[key], fields[key]), f"{key}: not the schema's record"


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.__name__)
def test_no_field_hides_a_method_of_the_json_object(record):
    assert not set(_attributes(record).values()) & set(dir(dict))


def test_the_kits_outputs_match_their_published_schemas(ws, tmp_path, tiny_notebooks):
    ws.write()
    solver = run_solver_score(**ws.solver_kwargs())
    index = run_score(**ws.score_kwargs())
    assert schema_errors(json.loads(json.dumps(index)), "index-output") == []
    solver_as_evidence = {"model": "m", "attempt": "1", **solver}
    assert schema_errors(solver_as_evidence, "solver-output") == []
    path = write_run_set(ws, notebooks=["index"])
    (run_set,) = run_report([path], output=tmp_path / "out").run_sets
    manifest = json.loads((run_set.folder / "run-set.json").read_text(encoding="utf-8"))
    assert schema_errors(manifest, "run-set") == []
    assert run_set_document.load_run_set(run_set.folder).summary.results.keys() == {"test-model-a"}
    stats = json.loads(run_set.stats_output.read_text(encoding="utf-8"))
    assert schema_errors(stats, "stats-output") == []
    loaded = stats_document.load_stats(run_set.stats_output)
    entry = loaded.result("test-model-a")
    assert entry.index == run_set.score.results["test-model-a"].index
    assert isinstance(entry.index_se_projected, stats_document.ProjectedSE)
    # every output kind carries the environment it was made in, of the published shape
    blocks = {
        "solver-score": solver.provenance["environment"],
        "score": index.provenance["environment"],
        "stats": stats["provenance"]["environment"],
        "run set": manifest["environment"],
    }
    for kind, block in blocks.items():
        assert (
            schema_errors(
                {"provenance": {"parameters": {}, "inputs": {}, "environment": block}}, "provenance"
            )
            == []
        ), kind
        assert environment.Environment(block).python == platform.python_version(), kind
    assert set(blocks["solver-score"]["packages"]) == {"numpy", "scipy", "fastjsonschema",
                                                      "msgspec"}  # fmt: skip
    assert "matplotlib" in blocks["run set"]["packages"]
    assert (
        run_set_document.load_run_set(run_set.folder).environment.packages
        == (blocks["run set"]["packages"])
    )


def test_the_committed_schemas_are_generated_from_the_records():
    """``make schemas`` writes them; a record changed without it fails here."""
    assert write_schemas(check=True) == [], "run make schemas and commit the schemas"


def test_a_record_is_declared_once_and_its_spec_checks_the_json():
    document = index_document.IndexDocument
    assert list(document.fields())[:3] == ["metric_id", "suite", "solver_protocol"]
    assert document.fields()["models"].name == "results"
    assert conforms({"metric_id": "m", "models": {"a": {}}}, document) is False
    assert solver_document.SolverDocument.fields()["instances"].of is solver_document.InstanceRow


def test_the_environment_is_defined_once_in_the_published_schemas():
    """run-set.schema.json holds a copy of provenance's (each schema file stands alone)."""
    assert (
        load_schema("run-set")["$defs"]["environment"]
        == (load_schema("provenance")["$defs"]["environment"])
    )


def test_load_index_gives_tidy_tables(ws, tmp_path):
    ws.write()
    run_score(**ws.score_kwargs(tmp_path / "index.json"))
    document = index_document.load_index(tmp_path / "index.json")
    assert list(document.models["model"]) == ["test-model-a"]
    assert float(document.models.loc[0, "index"]) == 55.5
    assert len(document.tracks) == 4 and set(document.tracks["track"]) == {
        "theorem", "solver", "construction", "conjecture"
    }  # fmt: skip
    assert len(document.tasks) == len(document.attempts) == 10
    assert document.issues.empty
