"""The canonical snapshot encoding (rules.md §7, docs/determinism.md §4): each rule, and each refusal."""

from __future__ import annotations

import enum
import hashlib
import json
from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.canonical import MAX_SAFE, EncodingError, canonical_bytes, state_hash
from tests.tier import examples


def test_booleans_are_0_and_1() -> None:
    assert canonical_bytes({"a": True, "b": [False, True]}) == b'{"a":1,"b":[0,1]}'


def test_absent_values_are_left_out_of_dicts() -> None:
    assert canonical_bytes({"a": None, "b": 1, "c": {"d": None}}) == b'{"b":1,"c":{}}'


def test_none_inside_a_list_is_refused_with_its_path() -> None:
    with pytest.raises(EncodingError, match=r"\$\.x\[1\]: None inside a list"):
        canonical_bytes({"x": [1, None]})


def test_integers_beyond_the_safe_range_are_decimal_strings() -> None:
    assert canonical_bytes([MAX_SAFE, -MAX_SAFE]) == b"[9007199254740991,-9007199254740991]"
    assert canonical_bytes([MAX_SAFE + 1, -MAX_SAFE - 1]) == b'["9007199254740992","-9007199254740992"]'
    assert canonical_bytes({"rng": (1 << 64) - 1}) == b'{"rng":"18446744073709551615"}'


def test_keys_sort_by_code_point_not_utf16() -> None:
    # U+FFFF < U+1F600 by code point (and by UTF-8 bytes); UTF-16 code units would put the emoji first
    assert canonical_bytes({"\U0001F600": 1, "\uffff": 2, "Z": 3, "a": 4}) == \
        '{"Z":3,"a":4,"\uffff":2,"\U0001F600":1}'.encode()


def test_strings_escape_only_quote_backslash_and_controls() -> None:
    s = 'q"b\\n\n\t\x01\x1f\x7f é ✓ \u2028 😀'
    assert canonical_bytes(s) == '"q\\"b\\\\n\\n\\t\\u0001\\u001f\x7f é ✓ \u2028 😀"'.encode()


def test_no_whitespace_and_nesting() -> None:
    assert canonical_bytes({"b": [1, [2, {"c": "x"}]], "a": {}}) == b'{"a":{},"b":[1,[2,{"c":"x"}]]}'


@pytest.mark.parametrize(("value", "message"), [
    ({"life": 1.5}, r"\$\.life: the float 1\.5"),
    ({"p": [{"x": 0.0}]}, r"\$\.p\[0\]\.x: the float"),
    ({1: 2}, r"dict key 1 is a int"),
    ({"s": {1, 2}}, r"\$\.s: a set"),
    ({"b": b"x"}, r"\$\.b: a bytes"),
    (None, r"None outside a dict"),
])
def test_other_types_are_refused_with_a_clear_message(value: object, message: str) -> None:
    with pytest.raises(EncodingError, match=message):
        canonical_bytes(value)


def test_subclasses_of_plain_types_are_refused() -> None:
    class Zone(enum.IntEnum):
        HAND = 1

    with pytest.raises(EncodingError, match=r"\$\.z: a Zone \(a subclass"):
        canonical_bytes({"z": Zone.HAND})


def test_lone_surrogates_are_refused() -> None:
    with pytest.raises(EncodingError, match="lone surrogate U\\+D800"):
        canonical_bytes({"name": "a\ud800"})


def test_hash_is_sha256_of_the_bytes() -> None:
    v = {"x": [1, "y", True]}
    assert state_hash(v) == hashlib.sha256(b'{"x":[1,"y",1]}').hexdigest()


def _reference(v: object) -> object:
    """docs/determinism.md §3 in other words: convert, then Python's own sorted compact JSON."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v if abs(v) <= MAX_SAFE else str(v)
    if isinstance(v, dict):
        return {k: _reference(x) for k, x in v.items() if x is not None}
    if isinstance(v, list):
        return [_reference(x) for x in v]
    return v


_SURROGATES: tuple[Literal["Cs"]] = ("Cs",)
_text = st.text(st.characters(exclude_categories=_SURROGATES), max_size=8)
_leaves = st.one_of(st.booleans(), st.integers(min_value=-(1 << 64), max_value=1 << 64), _text)
_values = st.recursive(_leaves, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(_text, st.one_of(inner, st.none()), max_size=4)), max_leaves=20)


@settings(max_examples=examples(300), deadline=None)
@given(_values)
def test_encoding_matches_the_documented_reference(v: object) -> None:
    expected = json.dumps(_reference(v), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    assert canonical_bytes(v) == expected
    # integers and strings only, and the bytes are their own canonical form
    assert canonical_bytes(json.loads(expected)) == expected
