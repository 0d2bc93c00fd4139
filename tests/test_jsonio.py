"""Strict JSON reading (``tcsexam_lib.jsonio``): how deep arrays and objects may nest.

The limit (:data:`~tcsexam_lib.jsonio.MAX_JSON_DEPTH`, 64 levels) holds exactly, for
arrays and objects alike, whatever the caller's call depth, and the parse leaves the
interpreter's recursion limit alone (it is never changed).
"""

from __future__ import annotations

import sys

import pytest

from tcsexam_lib.errors import InputRefused
from tcsexam_lib.jsonio import MAX_JSON_DEPTH, parse_json_text


def _arrays(depth: int) -> str:
    return "[" * depth + "]" * depth


def _objects(depth: int) -> str:
    return '{"a": ' * (depth - 1) + "{}" + "}" * (depth - 1)


@pytest.mark.parametrize("nested", [_arrays, _objects])
def test_the_limit_holds_exactly(nested):
    assert MAX_JSON_DEPTH == 64
    parse_json_text(nested(MAX_JSON_DEPTH), "ok.json")
    with pytest.raises(InputRefused, match=r"deep\.json: nested more than 64 levels deep"):
        parse_json_text(nested(MAX_JSON_DEPTH + 1), "deep.json")


def test_the_limit_holds_from_deep_in_the_call_stack():
    def parse_at(depth: int):
        if depth:
            return parse_at(depth - 1)
        return parse_json_text(_arrays(MAX_JSON_DEPTH), "ok.json")

    assert parse_at(sys.getrecursionlimit() // 2) is not None


def test_deeper_than_the_interpreter_can_parse_is_refused_the_same_way():
    with pytest.raises(InputRefused, match=r"deep\.json: nested more than 64 levels deep"):
        parse_json_text(_arrays(100_000), "deep.json")


def test_a_parse_never_changes_the_recursion_limit(monkeypatch):
    def refuse(_limit: int) -> None:
        raise AssertionError("the recursion limit was changed")

    monkeypatch.setattr(sys, "setrecursionlimit", refuse)
    assert parse_json_text('[{"a": [1, 2]}]', "ok.json") == [{"a": [1, 2]}]
    with pytest.raises(InputRefused, match="nested more than 64"):
        parse_json_text(_objects(65), "deep.json")
