"""A record's msgspec spec: built from its one declaration, then checking and reading by it.

:func:`spec` is a :class:`~tcsexam_lib.documents.Record`'s shape as a `msgspec
<https://jcristharif.com/msgspec/>`_ ``Struct`` (:func:`build_spec`, on first use, so
that a command that only writes never imports msgspec); the published JSON Schemas are
generated from it (:mod:`tcsexam_lib.schemas`). At the edge a document is checked by it
(:func:`conforms`, parsed JSON) or decoded into it in one pass (:func:`decode_record`,
JSON text, into the reading spec whose left-out fields are ``UNSET``); one already
checked is converted to it (:func:`to_struct`), and read by attribute (:func:`given`).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable
from typing import Any, Literal

from .documents import Doc, Record, is_record


def spec(record: type[Record], *, reading: bool = False) -> type:
    """``record``'s shape as a msgspec ``Struct`` (built once, on first use).

    ``reading``: the same shape for decoding JSON text straight into it, a field the
    text leaves out read as ``msgspec.UNSET`` (so that what was decoded can be told from
    a default, and encodes to the keys the text held, no more).

    >>> from tcsexam_lib.scoring.index_document import TrackResult
    >>> spec(TrackResult)(mean=0.5).weight, spec(TrackResult, reading=True)(mean=0.5).weight
    (None, UNSET)
    """
    name = "_reading_spec" if reading else "_spec"
    built = record.__dict__.get(name)
    if built is None:
        built = build_spec(record, reading)
        setattr(record, name, built)
    return built


def _spec_type(annotation: Any, reading: bool = False) -> Any:
    """An annotation with every record replaced by its spec and every Doc by msgspec's Meta."""
    import msgspec

    if is_record(annotation):
        return spec(annotation, reading=reading)
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        inner, *extras = args
        metas = [_meta(e) if isinstance(e, Doc) else e for e in extras]
        return typing.Annotated[(_spec_type(inner, reading), *metas)]
    if origin in (typing.Union, types.UnionType):
        return typing.Union[tuple(_spec_type(a, reading) for a in args)]  # noqa: UP007
    if origin is Literal:  # the published enum keeps the declared order (msgspec sorts it)
        return typing.Annotated[annotation, msgspec.Meta(extra_json_schema={"x-enum": list(args)})]
    if not args:
        return annotation
    if origin in (list, dict, tuple):
        return origin[tuple(_spec_type(a, reading) for a in args)]
    assert msgspec  # other generics are msgspec's own
    return annotation


def _meta(doc: Doc) -> Any:
    import msgspec

    extra = {"x-keys": list(doc.keys)} if doc.keys else None
    return msgspec.Meta(description=doc.text, extra_json_schema=extra, **doc.constraints)


def build_spec(cls: type[Record], reading: bool = False) -> type:
    import msgspec

    specs = [
        (
            key,
            _spec_type(declared.annotation, reading),
            msgspec.field(default=msgspec.UNSET if reading else declared.default),
        )
        if declared.optional
        else (key, _spec_type(declared.annotation, reading))
        for key, declared in cls.fields().items()
    ]
    struct = msgspec.defstruct(cls.__name__, specs, module=cls.__module__, kw_only=True)
    struct.__doc__ = cls.__dict__.get("DESCRIPTION")  # the schema's words for the object
    struct._record = cls
    return struct


def conforms(data: Any, record: type[Record]) -> bool:
    """True when parsed JSON ``data`` has the shape of ``record`` (fast: msgspec).

    The fast check of a document read at the edge: msgspec converts it to the record's
    spec, then the two things msgspec does not check are looked at (a dict's required
    keys, an object's further keys); a refusal is explained by the full validator of the
    published schema (:mod:`tcsexam_lib.schemas`), in the kit's message template. Where
    msgspec is stricter than the schema (a whole number written ``1.0``) the full
    validator decides.

    Examples
    --------
    >>> class Point(Record):
    ...     x: float
    >>> conforms({"x": 1}, Point), conforms({"x": "1"}, Point), conforms({}, Point)
    (True, False, False)
    """
    import msgspec

    try:
        msgspec.convert(data, spec(record), strict=True)
    except msgspec.ValidationError:
        return False
    return _keys_conform(data, record)


def decode_record(text: str | bytes, record: type[Record]) -> Any:
    """JSON ``text`` decoded as ``record``'s reading spec (a msgspec ``Struct``, read by
    attribute; a field the text leaves out is ``msgspec.UNSET``) when it is strict JSON
    with the record's shape; ``None`` when this fast reading cannot vouch for it (the
    caller then parses and checks the text the full way, which explains any refusal).

    msgspec decodes the text straight into the spec, which refuses what is not JSON, a
    number out of a float's range and a lone surrogate. What msgspec lets through is
    looked at here: a repeated key or a further key (msgspec keeps the last, or skips
    it) leaves the decoded document with fewer colons than the text, counted in both
    (see :func:`_same_colons`); the values of top-level fields that hold any JSON are
    walked for their depth and numbers; dicts' required keys are checked. A text with a
    ``\\u`` escape (which could spell a colon) is left to the full way.

    Examples
    --------
    >>> class Point(Record):
    ...     x: float
    ...     label: str | None = None
    >>> decode_record('{"x": 1.5}', Point)
    Point(x=1.5, label=UNSET)
    >>> [decode_record(text, Point) for text in ('{"x": 1, "x": 2}', '{"x": 1, "y": 0}')]
    [None, None]
    """
    import msgspec

    from .jsonio import MAX_JSON_DEPTH, is_strict_json_data

    escape = "\\u" if isinstance(text, str) else b"\\u"
    if (escape[:1] in text and escape in text) or not _reads_fast(record):  # "\\" is rare
        return None
    try:
        decoded = msgspec.json.decode(text, type=spec(record, reading=True), strict=True)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None
    if not _same_colons(msgspec.json.encode(decoded), text):
        return None
    free = [getattr(decoded, key) for key, declared in record.fields().items() if not declared.of]
    if not is_strict_json_data(free, MAX_JSON_DEPTH) or not _required_keys(decoded, record):
        return None
    return decoded


def _same_colons(encoded: bytes, text: str | bytes) -> bool:
    """True when the decoded document, ``encoded`` again, holds as many colons as ``text``
    (which has no ``\\u`` escape): then no key of the text was dropped.

    A colon in JSON text either ends a key or stands inside a string. The encoded
    document has one after each key it kept, and each string it kept with the same
    characters: an escape other than ``\\u`` (``\\"``, ``\\n``, ...) neither spells nor
    hides a colon, whitespace outside strings holds none, numbers hold none (the specs
    read this way hold strings, numbers, booleans, null and containers, which msgspec
    writes again as they were; ``tests/stats/test_command.py`` keeps the index's so).
    Every key dropped (a repeated one, a further one) takes at least its own colon with
    it, so the counts are equal only when none was. One character counted in both: no
    regular expression over the text.

    >>> _same_colons(b'{"a":"x:y"}', '{"a" : "x:y"}'), _same_colons(b'{"a":1}', '{"a": 0, "a": 1}')
    (True, False)
    """
    return encoded.count(b":") == text.count(":" if isinstance(text, str) else b":")


def to_struct(data: dict[str, Any], record: type[Record]) -> Any:
    """A document already checked against ``record`` (parsed JSON, or one the kit has
    just built), as the reading spec :func:`decode_record` gives: one typed object for
    either way in.

    >>> class Point(Record):
    ...     x: float
    >>> to_struct({"x": 1}, Point).x
    1.0
    """
    import msgspec

    return msgspec.convert(data, spec(record, reading=True), strict=False)


def given(value: Any) -> Any:
    """A field's value read from a decoded record, ``None`` where the document left the
    field out (``msgspec.UNSET``).

    >>> import msgspec
    >>> given(msgspec.UNSET), given("lite"), given(None)
    (None, 'lite', None)
    """
    import msgspec

    return None if value is msgspec.UNSET else value


def _required_keys(decoded: Any, record: type[Record]) -> bool:
    """The dicts with fixed keys (``Doc(keys=...)``) of a decoded record, and of the records
    in it, hold them all."""
    plan = _key_plan(record, further_keys=False)
    if plan is None:
        return True
    _, _, keyed, nested = plan
    for key, keys in keyed:
        value = getattr(decoded, key)
        if isinstance(value, dict) and not value.keys() >= keys:
            return False
    for key, shape, child in nested:
        items = _records_held(getattr(decoded, key), shape)
        if not all(_required_keys(item, child) for item in items if item is not None):
            return False
    return True


def _records_held(value: Any, shape: str) -> Iterable[Any]:
    """The records a field of this shape (:data:`~tcsexam_lib.documents.SHAPES`) holds:
    none when its value is null, left out (``UNSET``) or empty."""
    if not value:
        return ()
    items = [value] if shape == "record" else value
    items = items.values() if isinstance(items, dict) else items
    return [item for group in items for item in group] if shape == "dict_of_lists" else items


def _reads_fast(record: type[Record]) -> bool:
    """True when only ``record``'s own fields may hold any JSON (the records in it may not:
    their values are never walked)."""
    found = record.__dict__.get("_reads_fast")
    if found is None:
        nested = {d.of for d in record.fields().values() if d.of is not None}
        found = not any(_holds_any(n, set()) for n in nested)
        record._reads_fast = found
    return found


def _holds_any(record: type[Record], seen: set) -> bool:
    if record in seen:
        return False
    seen.add(record)
    return any(
        _mentions_any(declared.annotation)
        or (declared.of is not None and _holds_any(declared.of, seen))
        for declared in record.fields().values()
    )


def _mentions_any(annotation: Any) -> bool:
    return annotation is Any or any(map(_mentions_any, typing.get_args(annotation)))


_JSON_TYPE_OF = {"string": str, "boolean": bool, "object": dict, "array": list}


def _keys_conform(data: dict[str, Any], record: type[Record]) -> bool:
    """A dict's required keys (``Doc(keys=...)``) and further keys (``FURTHER``) of
    ``data`` and of the records in it, where the record declares any."""
    plan = _key_plan(record)
    if plan is None:
        return True
    further, declared, keyed, nested = plan
    if further is not None and not all(
        isinstance(data[key], further) for key in data.keys() - declared
    ):
        return False
    for key, keys in keyed:
        value = data.get(key)
        if isinstance(value, dict) and not value.keys() >= keys:
            return False
    for key, shape, child in nested:
        items = _records_held(data.get(key), shape)
        child_further, child_declared, child_keyed, child_nested = _key_plan(child)
        if child_keyed or child_nested:
            if not all(_keys_conform(item, child) for item in items):
                return False
        elif any(  # the usual leaf (a table's row): one loop, no call per item
            not isinstance(item[k], child_further)
            for item in items
            for k in item.keys() - child_declared
        ):
            return False
    return True


def _key_plan(record: type[Record], further_keys: bool = True) -> tuple | None:
    """What :func:`_keys_conform` looks at in a record (``None``: nothing, at any depth);
    without ``further_keys``, what :func:`_required_keys` looks at."""
    name = "_plan" if further_keys else "_keyed_plan"
    if name in record.__dict__:
        return record.__dict__[name]
    setattr(record, name, None)  # a record nested in itself
    further = None
    if further_keys and record.FURTHER is not None:
        further = _JSON_TYPE_OF.get(record.FURTHER.get("type"), object)
    keyed, nested = [], []
    for key, declared in record.fields().items():
        doc = declared.doc
        if doc is not None and doc.keys:
            keyed.append((key, frozenset(doc.keys)))
        if declared.of is not None and _key_plan(declared.of, further_keys) is not None:
            nested.append((key, declared.shape, declared.of))
    found = (further, frozenset(record.fields()), keyed, nested)
    setattr(record, name, found if further is not None or keyed or nested else None)
    return record.__dict__[name]
