"""Strict YAML for parameter files: the safe loader, a mapping at the top, no repeated key,
no alias, at most 64 levels; refusals name the file, line and column (docs/input-safety.md)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

from .errors import InputRefused, Problem
from .inputfiles import MAX_BYTES, decode_text, read_input_bytes
from .jsonio import MAX_JSON_DEPTH, refuse_lone_surrogates

#: What a refusal says of a parameter file nested deeper than the kit's JSON inputs may.
TOO_DEEP = f"nested more than {MAX_JSON_DEPTH} levels deep (sequences and mappings)"


class _TooDeep(yaml.composer.ComposerError):
    """Sequences and mappings nested deeper than a parameter file may."""


class _StrictLoader(yaml.SafeLoader):
    """A safe loader refusing repeated keys, aliases and nesting deeper than
    :data:`~tcsexam_lib.jsonio.MAX_JSON_DEPTH` (PyYAML recurses: a stack overflow)."""

    _depth = 0

    def compose_node(self, parent, index):  # type: ignore[no-untyped-def]
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None,
                None,
                f"alias *{event.anchor} refused (anchors and aliases are not allowed in a "
                "parameter file)",
                event.start_mark,
            )
        collection = self.check_event(yaml.SequenceStartEvent, yaml.MappingStartEvent)
        if collection and self._depth >= MAX_JSON_DEPTH:  # as deep as JSON inputs may nest
            raise _TooDeep(None, None, TOO_DEEP, self.peek_event().start_mark)
        self._depth += collection
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= collection


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    seen: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"key {key!r} appears twice in one mapping",
                key_node.start_mark,
            )
        seen[key] = loader.construct_object(value_node, deep=True)
    return seen


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def read_yaml_mapping(path: str | os.PathLike[str], kind: str = "Parameter file") -> dict[str, Any]:
    """Read a YAML file strictly (no repeated keys) into a mapping.

    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "set.yaml"
    >>> _ = p.write_text("suite: demo-lite\\nprotocol: offline\\n")
    >>> read_yaml_mapping(p)
    {'suite': 'demo-lite', 'protocol': 'offline'}
    """
    path = Path(path)
    text = decode_text(read_input_bytes(path, kind, MAX_BYTES["yaml"]), path, kind)
    try:
        data = yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except RecursionError as exc:  # not expected below the limit; refused all the same
        problem = Problem(str(path), detail=TOO_DEEP)
        raise InputRefused(f"{kind} nested too deep", [problem]) from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path} line {mark.line + 1} column {mark.column + 1}" if mark else str(path)
        problem = getattr(exc, "problem", None) or str(exc)
        summary = "nested too deep" if isinstance(exc, _TooDeep) else "is not valid YAML"
        raise InputRefused(f"{kind} {summary}", [Problem(where, detail=problem)]) from exc
    if not isinstance(data, dict):
        raise InputRefused(
            f"{kind} refused",
            [
                Problem(
                    str(path),
                    field="(top level)",
                    value=data,
                    allowed="a mapping of keys such as suite, protocol, cohort, attempts, records",
                )
            ],
        )
    refuse_lone_surrogates(data, str(path))  # a "\ud800" escape in a double-quoted string
    return data
