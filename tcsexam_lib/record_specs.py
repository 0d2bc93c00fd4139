"""A record's msgspec spec, built on first use from its one declaration, and checking and
reading by it at the edge. See docs/architecture.md, "Output documents"."""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable
from typing import Any, Literal

from .documents import Doc, Record, is_record


def spec(record: type[Record], *, reading: bool = False) -> type:
    """``record``'s shape as a msgspec ``Struct`` (built once); ``reading``: a field the text
    leaves out reads as ``msgspec.UNSET``, so it encodes to the keys the text held.

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
    if origin in (list, dict, tuple) and args:
        return origin[tuple(_spec_type(a, reading) for a in args)]
    return annotation  # a plain type, or another generic msgspec reads as it is


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
    """True when parsed JSON ``data`` has the shape of ``record`` (fast: msgspec, plus required
    and further keys); where msgspec is stricter than the schema the full validator decides.

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
    """JSON ``text`` decoded as ``record``'s reading spec, or ``None`` when this fast way
    cannot vouch for it (the caller then parses and checks it the full way).

    Declines a repeated or further key (:func:`_no_key_dropped`) and a ``\\u`` escape.

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
    if not _no_key_dropped(msgspec.json.encode(decoded), text):
        return None
    free = [getattr(decoded, key) for key, declared in record.fields().items() if not declared.of]
    if not is_strict_json_data(free, MAX_JSON_DEPTH) or not _required_keys(decoded, record):
        return None
    return decoded


def _no_key_dropped(encoded: bytes, text: str | bytes) -> bool:
    """True when ``encoded`` (the decoded document) holds as many colons as ``text`` (no
    ``\\u`` escape): every dropped key takes its colon. Why it holds: docs/architecture.md.

    >>> _no_key_dropped(b'{"a":"x:y"}', '{"a" : "x:y"}')
    True
    >>> _no_key_dropped(b'{"a":1}', '{"a": 0, "a": 1}')
    False
    """
    return encoded.count(b":") == text.count(":" if isinstance(text, str) else b":")


def to_struct(data: dict[str, Any], record: type[Record]) -> Any:
    """A document already checked against ``record``, as its reading spec.

    >>> class Point(Record):
    ...     x: float
    >>> to_struct({"x": 1}, Point).x
    1.0
    """
    import msgspec

    return msgspec.convert(data, spec(record, reading=True), strict=False)


def unset_as_none(value: Any) -> Any:
    """A decoded field's value, ``None`` where the document left it out (``UNSET``).

    >>> import msgspec
    >>> unset_as_none(msgspec.UNSET), unset_as_none("lite"), unset_as_none(None)
    (None, 'lite', None)
    """
    import msgspec

    return None if value is msgspec.UNSET else value


def _required_keys(decoded: Any, record: type[Record]) -> bool:
    """The dicts with fixed keys (``Doc(keys=...)``) of a decoded record hold them all."""
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
    """The records a field of this shape holds (none when null, ``UNSET`` or empty)."""
    if not value:
        return ()
    items = [value] if shape == "record" else value
    items = items.values() if isinstance(items, dict) else items
    return [item for group in items for item in group] if shape == "dict_of_lists" else items


def _reads_fast(record: type[Record]) -> bool:
    """True when only ``record``'s own fields may hold any JSON."""
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
    """``data`` and its records have their required and further keys, where declared."""
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
    """What :func:`_keys_conform` (or, without ``further_keys``, :func:`_required_keys`)
    looks at in a record; ``None``: nothing."""
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
