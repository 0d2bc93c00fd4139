"""The published JSON Schemas (``references/schemas/``) and validation against them.

Every JSON input is checked against its schema: each value against its vocabulary and
range. A compiled validator accepts valid data quickly; a refused document is explained
by the full validator, every violation becoming a :class:`~tcsexam_lib.errors.Problem`
that names the file, the place, the field, the value received and what is allowed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from .documents import Record, conforms
from .errors import InputRefused, Problem
from .inputrules import Rule, RuleList
from .jsonio import Describe, json_pointer
from .paths import schema_path

if TYPE_CHECKING:  # pragma: no cover - annotations only
    import jsonschema


#: The published schemas generated from the kit's typed records (``make schemas``), by
#: name: the module and the record of the document's top level. The other schemas
#: (``references/schemas/``) describe inputs, and are written by hand.
GENERATED = {
    "index-output": ("tcsexam_lib.scoring.index_document", "IndexDocument"),
    "solver-output": ("tcsexam_lib.scoring.solver_document", "SolverDocument"),
    "provenance": ("tcsexam_lib.provenance", "OutputWithProvenance"),
}


def generated_schema_text(name: str) -> str:
    """The text of a generated schema (:data:`GENERATED`), as committed."""
    import importlib

    from .documents import generate_schema

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
    """A parsed JSON input as a schema rule sees it: its data, its name in messages and,
    optionally, how a place in it is said (``describe``: see :func:`schema_problem`)."""

    data: Any
    source: str
    describe: Describe | None = None


def schema_rule(
    schema_name: str, holds: Callable[[Document], bool] | None = None
) -> Rule[Document, Problem]:
    """The rule "matches the published schema ``schema_name``", with its two halves.

    The fast test is the compiled validator (or ``holds``, a check written for the
    schema's shape that accepts exactly what it accepts); the explanation is every
    violation the full validator finds, in document order.

    Examples
    --------
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
    """True when ``data`` matches a published schema (the fast check, compiled once).

    It accepts exactly what :func:`schema_errors` finds nothing in (a property test holds
    the two together); the full validator is imported only to explain a refusal.
    """
    import fastjsonschema

    try:
        _compiled(schema_name)(data)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def schema_errors(data: Any, schema_name: str) -> list[jsonschema.ValidationError]:
    """Every violation of a published schema by ``data``, in document order."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(load_schema(schema_name))
    return sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))


def schema_problem(
    error: jsonschema.ValidationError,
    source: str,
    describe: Callable[[list[Any]], str] | None = None,
) -> Problem:
    """One schema violation in the kit's message template.

    ``describe`` turns a JSON path into a readable location (for example the instance
    name of a record) so that messages name what the researcher knows.
    """
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
    """Validate ``data`` against a published schema; refuse with every violation.

    ``describe``: see :func:`schema_problem`.
    """
    refuse_document(schema_rules(schema_name), Document(data, source, describe), schema_name)


def validate_document(data: Any, record: type[Record], source: str) -> None:
    """Refuse ``data`` unless it has the shape of the output ``record`` (its published
    schema, named by ``record.SCHEMA``): msgspec checks it fast, and a refusal is
    explained, every problem at once, as :func:`validate_with_schema` does."""
    name = record.SCHEMA[0]
    rule = schema_rule(name, holds=lambda document: conforms(document.data, record))
    refuse_document(RuleList(f"{name} schema", (rule,)), Document(data, source), name)


def refuse_document(
    rules: RuleList[Document, Problem], document: Document, schema_name: str
) -> None:
    """Raise :class:`InputRefused` with every problem of ``document`` that a schema rule
    list explains (the fast tests accept: return)."""
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
