"""Typed output documents: a JSON object read by attribute, its shape declared once.

The kit's outputs are JSON documents (``tcsexam solver-score``, ``tcsexam score``, a run
set's ``run-set.json``). Each object in them has a :class:`Record` class that declares its
fields once, as typed attributes (:func:`field`), next to the JSON Schema that publishes
it (``SCHEMA``: the schema's name and the place of the object in it; a test holds the two
together). A record is the parsed JSON object itself (a ``dict``): ``record.status``
reads the field, and ``record["status"]`` still reads it as plain data (a notebook
written against the JSON keeps working, and the document is written, validated and
compared as the JSON it is).

Only the module that builds a document writes its keys; every other module reads it by
attribute. Tables for notebooks (pandas, imported only when a table is asked for) come
from :func:`frame`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:  # pragma: no cover - annotations only
    import pandas as pd

#: How a field's value is read: as it is, as one record, as a list or a dict of them, or
#: as a dict of lists of them.
SHAPES = ("value", "record", "list", "dict", "dict_of_lists")

_NO_DEFAULT: Any = object()


class Field:
    """A field of a :class:`Record`: its key (the attribute's name) and how it is read."""

    __slots__ = ("key", "of", "shape", "default")

    def __init__(self, of: type[Record] | None, shape: str, default: Any, key: str) -> None:
        self.key = key
        self.of, self.shape, self.default = of, shape, default

    @property
    def optional(self) -> bool:
        """True when the document may leave the field out (it then reads as the default)."""
        return self.default is not _NO_DEFAULT

    def __set_name__(self, owner: type[Record], name: str) -> None:
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
        if self.of is None or value is None:
            return value
        if self.shape == "record":
            return self.of(value)
        if self.shape == "list":
            return [self.of(item) for item in value]
        if self.shape == "dict":
            return {key: self.of(item) for key, item in value.items()}
        return {key: [self.of(item) for item in items] for key, items in value.items()}


def field(
    of: type[Record] | None = None, *, shape: str = "", default: Any = _NO_DEFAULT, key: str = ""
) -> Any:
    """Declare a field of a :class:`Record` (annotate it with its type).

    ``of`` reads the value as that record (``shape`` ``record``, the default with
    ``of``), a list of them (``list``) or a dict of them (``dict``); ``default`` makes the
    field optional (read as the default when the document leaves it out); ``key`` is the
    JSON key when the attribute has another name.
    """
    shape = shape or ("record" if of is not None else "value")
    if shape not in SHAPES:
        raise ValueError(f"unknown shape {shape!r}")
    return Field(of, shape, default, key)


class Record(dict):
    """One JSON object of an output document, read by typed attribute.

    A record *is* the parsed JSON object (a ``dict``, so that it is written, validated
    and compared as the JSON it is); its fields are also typed attributes. Reading a
    field that holds records (``of=``) wraps them on each read (a shallow copy of their
    keys; the values are shared).

    Examples
    --------
    >>> class Point(Record):
    ...     x: float = field()
    ...     label: str | None = field(default=None)
    >>> point = Point({"x": 1.5})
    >>> point.x, point.label, point["x"], point.data
    (1.5, None, 1.5, {'x': 1.5})
    >>> list(Point.fields())
    ['x', 'label']
    """

    __slots__ = ()

    #: ``(schema name, JSON pointer)``: where the published schema describes this object.
    SCHEMA: ClassVar[tuple[str, str] | None] = None

    @property
    def data(self) -> dict[str, Any]:
        """The JSON object itself (what is written)."""
        return self

    @classmethod
    def fields(cls) -> dict[str, Field]:
        """Every declared field by its JSON key, in declaration order (a base class's first)."""
        found: dict[str, Field] = {}
        for klass in reversed(cls.__mro__):
            for value in vars(klass).values():
                if isinstance(value, Field):
                    found[value.key] = value
        return found


def frame(
    rows: list[dict[str, Any]],
    columns: list[str],
    *,
    index: list[str] | None = None,
    caption: str | None = None,
    further: bool = False,
) -> pd.DataFrame:
    """A tidy table of ``rows`` (one dict each) with these ``columns`` (pandas imported here).

    ``further``: then every other key the rows hold (a further column of the attempts
    table, a field a judge added to its records), sorted.

    ``index`` names the columns that identify a row (kept as columns, so that a table
    can be filtered and merged on them; listed in ``table.attrs["key"]``). A missing
    number (an incomplete model's index) is ``NaN``, as pandas has it.

    Examples
    --------
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
