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


# --- the fast path agrees with the checked one ------------------------------------------

import json  # noqa: E402

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_keys = st.sampled_from(["a", "b", 'c":', 'd"', "é"])
_leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(alphabet='ab":\\ ', max_size=6),
)
_documents = st.recursive(
    _leaves,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_keys, inner, max_size=4),
    max_leaves=20,
)


def _checked(text: str):
    """The oracle: every key and number checked by hooks, as the slow path does."""

    def no_duplicates(pairs):
        if len({k for k, _ in pairs}) != len(pairs):
            raise ValueError("duplicate")
        return dict(pairs)

    return json.loads(text, object_pairs_hook=no_duplicates)


@given(_documents, st.integers(0, 3), st.booleans())
def test_the_fast_parse_gives_the_checked_result(document, repeat, indent):
    """Whatever the text, the result is the checked parse's, and a repeated key is refused."""
    text = json.dumps(document, indent=1 if indent else None, ensure_ascii=False)
    if repeat and text.startswith("{") and len(text) > 2:  # repeat the first key of the top object
        text = '{"a": 1, "a": 2, ' + text[1:] if repeat == 1 else text
    try:
        expected = _checked(text)
    except ValueError:
        with pytest.raises(InputRefused, match="appears twice in one object"):
            parse_json_text(text, "doc.json")
        return
    assert parse_json_text(text, "doc.json") == expected


@pytest.mark.parametrize(
    "text, match",
    [
        ('{"x": 1, "x": 1}', "key 'x' appears twice in one object"),
        ('[{"a": 1}, {"b": {"c": 1, "c": 2}}]', "key 'c' appears twice"),
        ('{"x": 1e999}', "not strict JSON"),
        ('{"x": ' + "9" * 400 + "}", "not strict JSON"),
        ('{"x": NaN}', "not strict JSON"),
    ],
    ids=["repeated-key", "repeated-deep", "overflowing-float", "overflowing-int", "nan"],
)
def test_refusals_on_either_path(text, match):
    with pytest.raises(InputRefused, match=match):
        parse_json_text(text, "doc.json")


def test_an_underflowing_number_is_zero_on_the_fast_path():
    assert parse_json_text('{"x": 1e-400, "y": 2.5e-3}', "doc.json") == {"x": 0.0, "y": 0.0025}
