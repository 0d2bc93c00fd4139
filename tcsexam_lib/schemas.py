"""The published JSON Schemas (``references/schemas/``): validation (a compiled validator
accepts, the full one explains every violation as a Problem) and generation from records."""

from __future__ import annotations

import json
import typing
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from .documents import Record, is_record
from .errors import InputRefused, Problem
from .inputfiles import decode_text
from .inputrules import Rule, RuleList
from .internals import import_jsonschema
from .jsonio import Describe, json_pointer, parse_json_text
from .paths import schema_path
from .record_specs import conforms, decode_record, spec, to_struct

if TYPE_CHECKING:  # pragma: no cover - annotations only
    import jsonschema


#: The published schemas generated from the kit's typed records (``make schemas``), by
#: name: the module and the record of the document's top level. The other schemas
#: (``references/schemas/``) describe inputs, and are written by hand.
GENERATED = {
    "index-output": ("tcsexam_lib.scoring.index_document", "IndexDocument"),
    "solver-output": ("tcsexam_lib.scoring.solver_document", "SolverDocument"),
    "provenance": ("tcsexam_lib.provenance", "OutputWithProvenance"),
    "run-set": ("tcsexam_lib.reports.run_set_document", "RunSetDocument"),
    "history-record": ("tcsexam_lib.reports.history", "PublicationRecord"),
    "stats-output": ("tcsexam_lib.stats.document", "StatsDocument"),
}


def generated_schema_text(name: str) -> str:
    """The text of a generated schema (:data:`GENERATED`), as committed."""
    import importlib

    module, record = GENERATED[name]
    schema = generate_schema(getattr(importlib.import_module(module), record))
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def write_schemas(check: bool = False) -> list[str]:
    """Write every generated schema (``check``: write nothing); the names that differed."""
    differ = []
    for name in GENERATED:
        path, text = schema_path(name), generated_schema_text(name)
        if path.read_text(encoding="utf-8") != text:
            differ.append(name)
            if not check:
                path.write_text(text, encoding="utf-8")
    return differ


def generate_schema(record: type[Record]) -> dict[str, Any]:
    """The published JSON Schema of an output whose top-level object is ``record`` (title
    ``TITLE``, description ``DESCRIPTION``, nested records as ``$defs`` in first-held order)."""
    import msgspec

    specs = _specs(record)
    (top,), components = msgspec.json.schema_components(
        [spec(record)], ref_template="#/$defs/{name}"
    )
    names = {s.__name__: (s._record.SCHEMA or ("", s.__name__))[1].rsplit("/", 1)[-1]
             for s in specs}  # fmt: skip
    body = _published_style(components[spec(record).__name__], names)
    schema: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": record.TITLE,
        "description": body.pop("description", None),
        **body,
    }
    _in_order(record, schema)
    definitions = {}
    for nested in specs[1:]:
        node = _in_order(nested._record, _published_style(components[nested.__name__], names))
        definitions[names[nested.__name__]] = node
    if definitions:
        schema["$defs"] = definitions
    return schema


def _required(record: type[Record]) -> dict[str, Any]:
    """The keys a record requires and its properties, in declaration order."""
    keys = [key for key, declared in record.fields().items() if not declared.optional]
    return {"required": keys} if keys else {}


def _in_order(record: type[Record], node: dict[str, Any]) -> dict[str, Any]:
    properties = node.get("properties", {})
    node["properties"] = {key: properties[key] for key in record.fields()}
    node.update(_required(record))
    node.update(_extra(record))
    return node


def _extra(record: type[Record]) -> dict[str, Any]:
    """What a record adds to its schema: its further keys, its own keywords."""
    extra = {} if record.FURTHER is None else {"additionalProperties": record.FURTHER}
    hook = getattr(record, "schema_extra", None)
    return {**extra, **(hook() if hook else {})}


def inline_schema(record: type[Record]) -> dict[str, Any]:
    """The JSON Schema of a record without nested records, inline (no definitions).

    >>> class Point(Record):
    ...     x: float
    ...     label: str | None = None
    >>> inline_schema(Point)["properties"]
    {'x': {'type': 'number'}, 'label': {'type': ['string', 'null']}}
    """
    import msgspec

    _, components = msgspec.json.schema_components([spec(record)], ref_template="#/$defs/{name}")
    return _published_style(components[spec(record).__name__], {})


def _specs(record: type[Record]) -> list[type]:
    """The spec of ``record`` and of every record nested in it, depth first."""
    found: dict[type[Record], None] = {}

    def visit(cls: type[Record]) -> None:
        if cls in found:
            return
        found[cls] = None
        for declared in cls.fields().values():
            for nested in _records_in(declared.annotation):
                visit(nested)

    visit(record)
    return [spec(cls) for cls in found]


def _records_in(annotation: Any) -> list[type[Record]]:
    if is_record(annotation):
        return [annotation]
    return [r for a in typing.get_args(annotation) for r in _records_in(a)]


def _published_style(node: Any, renamed: dict[str, str]) -> Any:
    """msgspec's schema in the house style: no titles or defaults, ``["number", "null"]``
    for a nullable scalar, definitions by their published names."""
    if isinstance(node, list):
        return [_published_style(item, renamed) for item in node]
    if not isinstance(node, dict):
        return node
    out = {
        k: _published_style(v, renamed) for k, v in node.items() if k not in ("title", "default")
    }
    if "x-enum" in out:
        values = out.pop("x-enum")
        out = {"enum": values, **{k: v for k, v in out.items() if k not in ("enum", "anyOf")}}
    if "$ref" in out:
        out["$ref"] = "#/$defs/" + renamed.get(out["$ref"].rsplit("/", 1)[1], out["$ref"])
    options = out.get("anyOf")
    if options and all(set(o) == {"type"} for o in options):
        del out["anyOf"]
        types_ = [t for o in options for t in (o["type"] if isinstance(o["type"], list) else
                                               [o["type"]])]  # fmt: skip
        out = {"type": types_ if len(types_) > 1 else types_[0], **out}
    elif options and len(options) == 2 and {"type": "null"} in options:
        other = next(o for o in options if o != {"type": "null"})
        if set(other) <= {"type", "minLength", "pattern", "minimum", "maximum"} or "enum" in other:
            del out["anyOf"]
            if "enum" in other:
                other = {"enum": [*other["enum"], None]}
            else:
                other = {**other, "type": [other["type"], "null"]}
            out = {**other, **out}
    if out.get("required") == []:
        del out["required"]
    keys = out.pop("x-keys", None)
    if keys is not None:
        item = out.pop("additionalProperties")
        out["required"] = list(keys)
        out["properties"] = {key: item for key in keys}
    order = ("type", "enum", "required", "properties")
    return {**{k: out[k] for k in order if k in out}, **{k: v for k, v in out.items()
                                                         if k not in order}}  # fmt: skip


@cache
def load_schema(name: str) -> dict[str, Any]:
    """Return the published JSON Schema ``references/schemas/<name>.schema.json``."""
    return json.loads(schema_path(name).read_text(encoding="utf-8"))


def _allowed_from_schema(error: jsonschema.ValidationError) -> str | None:
    schema = error.schema if isinstance(error.schema, dict) else {}
    if "enum" in schema:
        return ", ".join(json.dumps(v) for v in schema["enum"])
    if "const" in schema:
        return json.dumps(schema["const"])
    if "description" in schema:
        return schema["description"]
    return None


@cache
def _compiled(schema_name: str) -> Callable[[Any], Any]:
    import fastjsonschema

    return fastjsonschema.compile(load_schema(schema_name))


@dataclass(frozen=True)
class Document:
    """A parsed JSON input as a schema rule sees it: data, name, and ``describe`` for places."""

    data: Any
    source: str
    describe: Describe | None = None


def schema_rule(
    schema_name: str, holds: Callable[[Document], bool] | None = None
) -> Rule[Document, Problem]:
    """The rule "matches the published schema ``schema_name``": the compiled validator (or
    ``holds``, accepting exactly the same) and every violation, in document order.

    >>> rule = schema_rule("suite")
    >>> rule.holds(Document({"suite": "lite"}, "s.json"))
    False
    >>> [str(p) for _, p in rule.explain(Document({"suite": "lite"}, "s.json"))]
    ["s.json (top level): field 'tracks' = (absent): required field is missing"]
    """

    def explain(document: Document):
        for k, error in enumerate(schema_errors(document.data, schema_name)):
            yield (k,), schema_problem(error, document.source, document.describe)

    def accepts(document: Document) -> bool:
        return schema_accepts(document.data, schema_name)

    says = f"matches references/schemas/{schema_name}.schema.json"
    return Rule(f"schema {schema_name}", says, holds or accepts, explain)


@cache
def schema_rules(schema_name: str) -> RuleList[Document, Problem]:
    """The rule list of a document whose only rule is its published schema."""
    return RuleList(f"{schema_name} schema", (schema_rule(schema_name),))


def schema_accepts(data: Any, schema_name: str) -> bool:
    """True when ``data`` matches a published schema (compiled once; it accepts exactly
    what :func:`schema_errors` finds nothing in)."""
    import fastjsonschema

    try:
        _compiled(schema_name)(data)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def schema_errors(data: Any, schema_name: str) -> list[jsonschema.ValidationError]:
    """Every violation of a published schema by ``data``, in document order."""
    jsonschema = import_jsonschema()
    validator = jsonschema.Draft202012Validator(load_schema(schema_name))
    return sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))


def schema_problem(
    error: jsonschema.ValidationError,
    source: str,
    describe: Callable[[list[Any]], str] | None = None,
) -> Problem:
    """One schema violation in the kit's template; ``describe`` words a JSON path as the
    researcher knows it (an instance name)."""
    path = list(error.absolute_path)
    where = f"{source} {describe(path) if describe else json_pointer(path)}"
    field = str(path[-1]) if path and isinstance(path[-1], str) else None
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return Problem(where, field=missing, detail="required field is missing")
    if error.validator == "additionalProperties":
        return Problem(where, detail=error.message)
    allowed = _allowed_from_schema(error)
    return Problem(
        where,
        field=field if field is not None else json_pointer(path),
        value=error.instance,
        allowed=allowed,
        detail=None if allowed else error.message,
    )


def validate_with_schema(
    data: Any,
    schema_name: str,
    source: str,
    describe: Describe | None = None,
) -> None:
    """Validate ``data`` against a published schema; refuse with every violation."""
    refuse_document(schema_rules(schema_name), Document(data, source, describe), schema_name)


def validate_document(data: Any, record: type[Record], source: str) -> None:
    """Refuse ``data`` unless it has the shape of output ``record`` (msgspec fast, then every
    problem explained as :func:`validate_with_schema` does)."""
    name = record.SCHEMA[0]
    rule = schema_rule(name, holds=lambda document: conforms(document.data, record))
    refuse_document(RuleList(f"{name} schema", (rule,)), Document(data, source), name)


def parse_document(text: str | bytes, record: type[Record], source: str) -> Any:
    """Parse JSON ``text`` (or bytes) as a document of ``record``, returned as its reading
    spec; refuse with every problem. The fast way (``decode_record``) only ever declines;
    the full way parses, validates and explains.

    >>> from tcsexam_lib.scoring.index_document import IndexDocument
    >>> try:
    ...     parse_document('{"models": {}, "models": {}}', IndexDocument, "index.json")
    ... except InputRefused as exc:
    ...     print(exc.summary)
    Input is not strict JSON
    """
    decoded = decode_record(text, record)
    if decoded is None:
        if isinstance(text, bytes):
            text = decode_text(text, source)
        data = parse_json_text(text, source)
        validate_document(data, record, source)
        decoded = to_struct(data, record)
    return decoded


def refuse_document(
    rules: RuleList[Document, Problem], document: Document, schema_name: str
) -> None:
    """Raise :class:`InputRefused` with every problem a schema rule list explains in
    ``document`` (none when the fast tests accept)."""
    problems = rules.refusal(document)
    if problems:
        raise InputRefused.from_problems(
            f"{document.source} does not match the published schema '{schema_name}'", problems
        )


if __name__ == "__main__":  # make schemas
    import sys

    checking = "--check" in sys.argv
    changed = write_schemas(check=checking)
    verb = "differ from the records" if checking else "rewritten"
    print(f"{', '.join(changed)}: {verb}" if changed else "every generated schema is current")
    sys.exit(1 if checking and changed else 0)
