"""Strict JSON: read (no ``NaN``/``Infinity``, no repeated key; refusals name the place) and
written atomically through :mod:`tcsexam_lib.outputfiles`."""

from __future__ import annotations

import json
import math
import os
import re
import sys
from collections.abc import Callable, Iterator
from itertools import chain, compress, repeat
from operator import is_
from pathlib import Path
from typing import Any

from .digests import sha256_bytes
from .errors import InputRefused, OutputRefused, Problem
from .inputfiles import decode_text, read_input_bytes
from .outputfiles import write_atomic


class _DuplicateKey(ValueError):
    pass


class NonFiniteLiteral:
    """Stands for a ``NaN``/``Infinity`` literal while parsing, so the refusal names its place."""

    def __init__(self, literal: str) -> None:
        self.literal = literal

    def __repr__(self) -> str:
        return self.literal


def _find_places(data: Any, test: Callable[[Any], bool], path: list[Any]) -> list[tuple]:
    """``(path, value)`` of every value and object key of ``data`` that ``test`` holds for."""
    if test(data):
        return [(path, data)]
    found: list[tuple] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if test(key):
                found.append(([*path, key], key))
            found.extend(_find_places(value, test, [*path, key]))
    elif isinstance(data, list | tuple):
        for index, value in enumerate(data):
            found.extend(_find_places(value, test, [*path, index]))
    return found


def _is_literal(value: Any) -> bool:
    return isinstance(value, NonFiniteLiteral)


def _is_non_finite_float(value: Any) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


#: A surrogate code point: JSON text may write one alone as an escape, but no UTF-8 file
#: can hold it (a pair of escapes is one character once parsed).
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
#: The escape of a surrogate in JSON text (the only way one can get into parsed data).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _has_lone_surrogate(value: Any) -> bool:
    return isinstance(value, str) and _LONE_SURROGATE.search(value) is not None


#: Largest finite float: a larger JSON integer cannot be scored (math.isfinite overflows).
_LARGEST_FLOAT = int(sys.float_info.max)


def is_finite_number(value: int | float) -> bool:
    """True for a float that is finite and an integer that a float can hold.

    >>> is_finite_number(12), is_finite_number(float("inf")), is_finite_number(10**400)
    (True, False, False)
    """
    if isinstance(value, int):
        return abs(value) <= _LARGEST_FLOAT
    return math.isfinite(value)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicateKey(f"key {key!r} appears twice in one object")
        seen[key] = value
    return seen


Describe = Callable[[list[Any]], str]

#: How deep arrays and objects may nest in a JSON input (the kit's formats need 6).
MAX_JSON_DEPTH = 64

#: The types of JSON's arrays and objects once parsed.
_CONTAINERS = frozenset({list, dict})


def _values_of(containers: list[Any]) -> Iterator[Any]:
    """Every value held by the given parsed arrays and objects."""
    return chain.from_iterable(c.values() if type(c) is dict else c for c in containers)


def is_strict_json_data(data: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    """True when ``data`` nests at most ``limit`` deep and its numbers are finite (False may
    mean finite numbers whose sum overflows: look closer).

    >>> is_strict_json_data({"a": [1, 2.5]}), is_strict_json_data([10**400])
    (True, False)
    """
    deep, _, finite = _walk_containers(data, limit)
    return finite and not deep


def _walk_containers(data: Any, limit: int) -> tuple[bool, int, bool]:
    """``(deeper than limit, object key count, every number finite)`` of parsed ``data``,
    walked level by level without recursion, at most ``limit + 1`` levels deep."""
    level = [data] if type(data) in _CONTAINERS else []
    keys, finite = 0, _finite([data])
    for _ in range(limit):
        if not level:
            return False, keys, finite
        keys += sum(map(len, filter(_is_dict, level)))
        values = list(_values_of(level))  # C-level loops below: no Python call per value
        finite = finite and _finite(values)
        level = list(compress(values, map(_CONTAINERS.__contains__, map(type, values))))
    return bool(level), keys, finite


def _finite(values: list[Any]) -> bool:
    """True when the floats of ``values`` sum to a finite float and its integers fit one."""
    types = list(map(type, values))
    floats = list(compress(values, map(is_, types, repeat(float))))
    if floats and not math.isfinite(sum(floats)):
        return False
    ints = list(compress(values, map(is_, types, repeat(int))))
    return not ints or (max(ints) <= _LARGEST_FLOAT and min(ints) >= -_LARGEST_FLOAT)


def _is_dict(value: Any) -> bool:
    return type(value) is dict


#: The end of an object key: a closing quote, then a colon (JSON's whitespace between).
#: Counted in the text, it is at least the number of keys written (a string can hold the
#: same characters, never fewer).
_KEY_END = re.compile(r'"[ \t\r\n]*:')
_SPACED_KEY_END = re.compile(r'"[ \t\r\n]+:')


def _count_key_ends(text: str) -> int:
    """How many quotes followed by a colon JSON ``text`` holds: at least its object keys.

    >>> _count_key_ends('{"a": 1, "b" : {"c": "x\\":"}}')
    4
    """
    if _SPACED_KEY_END.search(text):
        return len(_KEY_END.findall(text))
    return text.count('":')


class _NonFiniteKept:
    """The parse's number hooks: ``NaN``, ``Infinity`` and overflowing numbers (``1e999``)
    kept as :class:`NonFiniteLiteral` so their places can be named."""

    def __init__(self) -> None:
        self.seen = False

    def parse_constant(self, name: str) -> NonFiniteLiteral:
        self.seen = True
        return NonFiniteLiteral(name)

    def parse_float(self, text: str) -> float | NonFiniteLiteral:
        value = float(text)
        return value if math.isfinite(value) else self.parse_constant(text)

    def parse_int(self, text: str) -> int | NonFiniteLiteral:
        value = int(text)
        return value if is_finite_number(value) else self.parse_constant(text)


def parse_json_text(
    text: str, source: str, describe_for: Callable[[Any], Describe] | None = None
) -> Any:
    """Parse strict JSON, raising :class:`InputRefused` that names ``source`` and the place
    of a non-finite or overflowing number (``describe_for(data)(path)`` words it).

    A repeated key: when the objects hold fewer keys than the text has key ends, the text
    is parsed again with every key checked (a hook per object would cost more than the parse).
    """
    kept = _NonFiniteKept()
    too_deep = f"nested more than {MAX_JSON_DEPTH} levels deep (arrays and objects)"
    try:
        data = json.loads(text)  # the C scanner alone: no Python call per number
        deep, keys, finite = _walk_containers(data, MAX_JSON_DEPTH)
        if not deep and not finite:  # parsed again to say where each such number stood
            data = json.loads(
                text,
                parse_constant=kept.parse_constant,
                parse_float=kept.parse_float,
                parse_int=kept.parse_int,
            )
        if not deep and keys != _count_key_ends(text):
            json.loads(text, object_pairs_hook=_no_duplicates)  # names a repeated key
    except RecursionError as exc:  # deeper than the interpreter's recursion limit allows
        raise InputRefused("Input nested too deep", [Problem(source, detail=too_deep)]) from exc
    except json.JSONDecodeError as exc:
        if not text.strip():
            empty = Problem(source, detail="empty file", allowed="a JSON document")
            raise InputRefused("Input file is empty", [empty]) from exc
        raise InputRefused(
            "Input is not valid JSON",
            [Problem(f"{source} line {exc.lineno} column {exc.colno}", detail=exc.msg)],
        ) from exc
    except ValueError as exc:  # a repeated key, or an integer too long to convert
        raise InputRefused("Input is not strict JSON", [Problem(source, detail=str(exc))]) from exc
    if deep:  # checked before anything walks the data
        raise InputRefused("Input nested too deep", [Problem(source, detail=too_deep)])
    describe = describe_for(data) if describe_for else json_pointer
    if kept.seen:
        _refuse_places(
            _find_places(data, _is_literal, []),
            f"{source} is not strict JSON",
            "a finite JSON number or null (NaN and Infinity are not JSON numbers)",
            source,
            describe,
        )
    if _SURROGATE_ESCAPE.search(text):  # the only way a lone surrogate gets into the data
        refuse_lone_surrogates(data, source, describe)
    return data


def refuse_lone_surrogates(data: Any, source: str, describe: Describe | None = None) -> None:
    """Refuse parsed input holding a lone surrogate (no UTF-8 output could hold it).

    >>> refuse_lone_surrogates({"model": "sim-\U0001f600"}, "cohort.json")  # a pair: fine
    >>> try:
    ...     refuse_lone_surrogates({"model": "sim-\\ud800"}, "cohort.json")
    ... except InputRefused as exc:
    ...     print(exc.summary)
    cohort.json holds text that is not valid Unicode (1 problem)
    """
    _refuse_places(
        _find_places(data, _has_lone_surrogate, []),
        f"{source} holds text that is not valid Unicode",
        "text without a lone surrogate (an escape from \\ud800 to \\udfff is valid only as "
        "one half of a pair)",
        source,
        describe or json_pointer,
    )


def _refuse_places(
    found: list[tuple], summary: str, allowed: str, source: str, describe: Describe
) -> None:
    """Raise :class:`InputRefused` naming each ``(path, value)`` found (none: return)."""
    if found:
        problems = [
            Problem(
                f"{source} {describe(path)}",
                field=str(path[-1]) if path and isinstance(path[-1], str) else "value",
                value=value,
                allowed=allowed,
            )
            for path, value in found
        ]
        raise InputRefused.from_problems(summary, problems)


def json_pointer(path: list[Any]) -> str:
    """A JSON path in words: ``tasks.t.instances[2]``, or ``(top level)``."""
    if not path:
        return "(top level)"
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def read_json(
    path: str | os.PathLike[str], describe_for: Callable[[Any], Describe] | None = None
) -> Any:
    """Read a strict JSON file; a missing or unreadable file is refused by name."""
    return read_json_with_digest(path, describe_for)[0]


def read_json_with_digest(
    path: str | os.PathLike[str], describe_for: Callable[[Any], Describe] | None = None
) -> tuple[Any, str]:
    """:func:`read_json` and the sha256 of the bytes parsed (the file is read once)."""
    path = Path(path)
    data = read_input_bytes(path)
    text = decode_text(data, path)
    return parse_json_text(text, str(path), describe_for), sha256_bytes(data)


def _unwritable(data: Any, exc: ValueError) -> OutputRefused:
    """The refusal of data that strict JSON in UTF-8 cannot hold, naming the first place."""
    if isinstance(exc, UnicodeEncodeError):
        what, test = "text that is not valid Unicode (a lone surrogate)", _has_lone_surrogate
    else:
        what, test = "a non-finite number", _is_non_finite_float
    found = _find_places(data, test, [])
    where = json_pointer(found[0][0]) if found else "(not found again)"
    return OutputRefused(f"Refusing to write {what} at {where}")


def _json_pieces(data: Any, depth: int = 0) -> Iterator[bytes]:
    """``data`` as JSON indented by two spaces (msgspec), a member of it and of the objects it
    holds at a time (an index is never held whole as text). msgspec writes a NaN as ``null``:
    only a piece holding a ``null`` is searched for one (docs/speed.md)."""
    import msgspec

    if depth == 2 or not isinstance(data, dict) or not data:
        text = msgspec.json.encode(data)
        if b"null" in text and _find_places(data, _is_non_finite_float, []):
            raise ValueError("a non-finite number")
        text = msgspec.json.format(text, indent=2)
        yield text.replace(b"\n", b"\n" + b"  " * depth) if depth else text
        return
    for k, (key, value) in enumerate(data.items()):
        key_text = msgspec.json.encode({key: None})[1:-6]  # the key as msgspec writes it
        yield (b",\n" if k else b"{\n") + b"  " * (depth + 1) + key_text + b": "
        yield from _json_pieces(value, depth + 1)
    yield b"\n" + b"  " * depth + b"}"


def _strict_pieces(data: Any) -> Iterator[bytes]:
    """:func:`_json_pieces`, then a newline; refused: a NaN, an infinity, a lone surrogate."""
    try:
        yield from _json_pieces(data)
    except ValueError as exc:
        raise _unwritable(data, exc) from exc
    yield b"\n"


def dumps_json(data: Any) -> str:
    """Strict JSON indented by two spaces (msgspec's text: numbers as the shortest text that
    reads back as the same double); a NaN or an infinity is an error.

    >>> print(dumps_json({"score": 0.25, "scale": 1e-09}), end="")
    {
      "score": 0.25,
      "scale": 1e-9
    }
    """
    return b"".join(_strict_pieces(data)).decode("utf-8")


def write_json_atomic(path: str | os.PathLike[str], data: Any) -> Path:
    """Write ``dumps_json(data)`` atomically to ``path``, a piece at a time.

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "x.json"
    >>> _ = write_json_atomic(out, {"score": 0.25})
    >>> out.read_text()
    '{\\n  "score": 0.25\\n}\\n'
    """
    return write_atomic(path, lambda handle: handle.writelines(_strict_pieces(data)))
