"""Typed output documents: each JSON object's shape declared once (a :class:`Record`),
read by attribute; its msgspec spec and published schema come from that declaration.
See docs/architecture.md, "Output documents"."""

from __future__ import annotations

import types
import typing
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:  # pragma: no cover - annotations only
    import pandas as pd

#: How a field's value is read: as it is, as one record, as a list or a dict of them, or
#: as a dict of lists of them.
SHAPES = ("value", "record", "list", "dict", "dict_of_lists")

_NO_DEFAULT: Any = object()


class Doc:
    """A field's doc and range: ``Annotated[int, Doc("points", ge=0)]``. ``text`` is the
    schema's description (and what a refusal allows); ``constraints`` are msgspec's."""

    __slots__ = ("text", "constraints", "keys")

    def __init__(self, text: str | None = None, *, keys: tuple[str, ...] = (), **constraints: Any):
        self.text, self.constraints, self.keys = text, constraints, keys


#: A sha256 in hex.
Sha256 = typing.Annotated[str, Doc(pattern="^[0-9a-f]{64}$")]
#: An interval ``[low, high]``.
Interval = typing.Annotated[list[float], Doc(min_length=2, max_length=2)]


class Field:
    """A field of a :class:`Record`: its JSON key, its default and how it is read."""

    __slots__ = ("key", "name", "default", "_of", "_shape", "owner")

    def __init__(self, default: Any = _NO_DEFAULT, key: str = "") -> None:
        self.key, self.name, self.default = key, "", default
        self._of: type[Record] | None = None
        self._shape = ""
        self.owner: type[Record] | None = None

    @property
    def optional(self) -> bool:
        """True when the document may leave the field out (it then reads as the default)."""
        return self.default is not _NO_DEFAULT

    @property
    def annotation(self) -> Any:
        """The field's type, as annotated (``Annotated`` docs included)."""
        assert self.owner is not None
        return _hints(self.owner)[self.name]

    @property
    def doc(self) -> Doc | None:
        """The field's :class:`Doc` (its description and range), if its annotation has one."""
        return _strip(self.annotation)[1]

    @property
    def of(self) -> type[Record] | None:
        """The record class the field's value holds (alone, in a list or a dict), if any."""
        if not self._shape:
            self._shape, self._of = _shape_of(self.annotation)
        return self._of

    @property
    def shape(self) -> str:
        """How the value is read (one of :data:`SHAPES`)."""
        self.of  # noqa: B018 - resolves the shape
        return self._shape

    def __set_name__(self, owner: type[Record], name: str) -> None:
        self.name, self.owner = name, owner
        self.key = self.key or name

    def __get__(self, record: Record | None, owner: type[Record] | None = None) -> Any:
        if record is None:
            return self
        try:
            value = dict.__getitem__(record, self.key)
        except KeyError:
            if self.default is _NO_DEFAULT:
                raise AttributeError(f"{type(record).__name__} has no field {self.key!r}") from None
            return self.default
        of = self.of
        if of is None or value is None:
            return value
        shape = self._shape
        if shape == "record":
            return of(value)
        if shape == "list":
            return [of(item) for item in value]
        if shape == "dict":
            return {key: of(item) for key, item in value.items()}
        return {key: [of(item) for item in items] for key, items in value.items()}


def field(
    of: type[Record] | None = None, *, shape: str = "", default: Any = _NO_DEFAULT, key: str = ""
) -> Any:
    """A field whose JSON key differs from its attribute (``key``) or that may be left out
    (``default``); ``of`` and ``shape``, if given, must agree with the annotation."""
    if shape and shape not in SHAPES:
        raise ValueError(f"unknown shape {shape!r}")
    return Field(default, key)


class Record(dict):
    """One JSON object of an output document (a ``dict``), read by typed attribute.

    >>> class Point(Record):
    ...     x: float
    ...     label: str | None = None
    >>> point = Point({"x": 1.5})
    >>> point.x, point.label, point["x"], point.data
    (1.5, None, 1.5, {'x': 1.5})
    >>> list(Point.fields())
    ['x', 'label']
    """

    __slots__ = ()

    #: ``(schema name, JSON pointer)``: where the published schema describes this object.
    SCHEMA: ClassVar[tuple[str, str] | None] = None
    #: What the published schema says of the object as a whole (most objects: nothing).
    DESCRIPTION: ClassVar[str | None] = None
    #: The title of a published schema (its top-level record's).
    TITLE: ClassVar[str | None] = None
    #: The schema of the further keys the object may hold (``None``: any).
    FURTHER: ClassVar[dict[str, Any] | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = []
        for name in cls.__dict__.get("__annotations__", {}):
            if name.startswith("_") or _is_classvar(cls.__annotations__[name]):
                continue
            value = cls.__dict__.get(name, _NO_DEFAULT)
            declared = value if isinstance(value, Field) else Field(value)
            setattr(cls, name, declared)
            declared.__set_name__(cls, name)
            own.append(declared)
        cls._own_fields = tuple(own)

    @property
    def data(self) -> dict[str, Any]:
        """The JSON object itself (what is written)."""
        return self

    @classmethod
    def fields(cls) -> dict[str, Field]:
        """Every declared field by its JSON key, in declaration order (a base class's first)."""
        found: dict[str, Field] = {}
        for klass in reversed(cls.__mro__):
            for declared in klass.__dict__.get("_own_fields", ()):
                found[declared.key] = declared
        return found


def _is_classvar(annotation: Any) -> bool:
    return (isinstance(annotation, str) and annotation.startswith("ClassVar")) or (
        typing.get_origin(annotation) is ClassVar
    )


def _hints(cls: type[Record]) -> dict[str, Any]:
    """The evaluated annotations of a record class (cached on the class)."""
    found = cls.__dict__.get("_hints")
    if found is None:
        found = typing.get_type_hints(cls, include_extras=True)
        cls._hints = found
    return found


def _strip(annotation: Any) -> tuple[Any, Doc | None]:
    """The type inside ``Annotated`` (and its :class:`Doc`), ``None`` left out of a union."""
    doc = None
    if typing.get_origin(annotation) is typing.Annotated:
        annotation, *extras = typing.get_args(annotation)
        doc = next((e for e in extras if isinstance(e, Doc)), None)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            annotation = _strip(args[0])[0]
    return annotation, doc


def is_record(value: Any) -> bool:
    """True for a record class."""
    return isinstance(value, type) and issubclass(value, Record)


def _shape_of(annotation: Any) -> tuple[str, type[Record] | None]:
    inner = _strip(annotation)[0]
    if is_record(inner):
        return "record", inner
    origin, args = typing.get_origin(inner), typing.get_args(inner)
    if origin is list and args and is_record(_strip(args[0])[0]):
        return "list", _strip(args[0])[0]
    if origin is dict and len(args) == 2:
        value = _strip(args[1])[0]
        if is_record(value):
            return "dict", value
        if typing.get_origin(value) is list and is_record(_strip(typing.get_args(value)[0])[0]):
            return "dict_of_lists", _strip(typing.get_args(value)[0])[0]
    return "value", None


def frame(
    rows: list[dict[str, Any]],
    columns: list[str],
    *,
    index: list[str] | None = None,
    caption: str | None = None,
    further: bool = False,
) -> pd.DataFrame:
    """A tidy table (pandas) of ``rows`` with these ``columns``, then, with ``further``,
    every other key sorted; ``index`` columns identify a row (``attrs["key"]``).

    >>> frame([{"model": "m", "index": 55.5}], ["model", "index"]).to_dict("records")
    [{'model': 'm', 'index': 55.5}]
    """
    import pandas as pd

    if further:
        columns = [*columns, *sorted({key for row in rows for key in row} - set(columns))]
    table = pd.DataFrame(rows, columns=columns)
    if index:
        table.attrs["key"] = list(index)
    if caption:
        table.attrs["caption"] = caption
    return table
