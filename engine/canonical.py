"""The canonical snapshot encoding (rules.md §7; specified field by field in docs/determinism.md).

`canonical_bytes(value)` turns a snapshot — nested dicts, lists, strings, integers, booleans and None —
into the bytes whose SHA-256 is the state hash. The output is JSON that holds integers and strings only,
so any language (the seeds name a TypeScript client) reads and rewrites it exactly:

- a dict is an object; its keys must be strings and are written sorted by Unicode code point (the
  same order as their UTF-8 bytes; *not* JavaScript's default UTF-16 sort); a key whose value is None
  is left out (an absent value is absent);
- a list (or tuple) is an array; None inside an array is refused (a position can't be "absent");
- a boolean is the integer 1 or 0;
- an integer in [-(2^53 - 1), 2^53 - 1] (JavaScript's safe integers) is written in decimal; any other
  integer (the generator state, 64-bit seeds) is written as a JSON string of its decimal digits;
- a string is written as JSON with only `"`, `\\` and the control characters U+0000..U+001F escaped
  (`\\b \\f \\n \\r \\t`, the others as `\\u00xx` with lowercase hex); everything else is written as
  itself in UTF-8; a string holding a lone surrogate is refused;
- no whitespace anywhere; anything else (floats, enums, bytes, sets, objects) is refused.

Any refusal raises `EncodingError`, naming the path of the bad value (`$.players[0].life`).
`ENCODING` is the version of these rules and of the snapshot's fields (docs/determinism.md): it is
written into every snapshot, so a change to either changes every hash — bump it with such a change.
"""

from __future__ import annotations

import hashlib
from json.encoder import encode_basestring  # C-accelerated; escapes only quote, backslash and U+0000..U+001F
from typing import Any

from engine.errors import BadInput

#: the version of the encoding rules and snapshot fields (docs/determinism.md); written into the snapshot
ENCODING = 2

MAX_SAFE = (1 << 53) - 1


class EncodingError(BadInput, TypeError):
    """A value the canonical encoding does not allow (the message names where it is)."""

    def __init__(self, what: str, path: list[str] | None = None) -> None:
        self.what = what
        self.path = path or []
        super().__init__(self._message())

    def _message(self) -> str:
        return f"snapshot value at ${''.join(self.path)}: {self.what}"

    def at(self, segment: str) -> EncodingError:
        self.path.insert(0, segment)
        self.args = (self._message(),)
        return self


def _leaf(x: Any) -> str | None:
    """The encoding of an int, str or bool; None for anything else (the caller recurses or refuses)."""
    t = type(x)
    if t is int:
        return str(x) if -MAX_SAFE <= x <= MAX_SAFE else f'"{x}"'
    if t is str:
        return encode_basestring(x)
    if t is bool:
        return "1" if x else "0"
    return None


def _enc(v: Any, out: list[str]) -> None:
    # the common leaves (int, str) are handled inline in the loops: this runs once per state hash
    t = type(v)
    if t is list or t is tuple:
        out.append("[")
        for i, x in enumerate(v):
            if i:
                out.append(",")
            tx = type(x)
            if tx is int and -MAX_SAFE <= x <= MAX_SAFE:
                out.append(str(x))
            elif tx is str:
                out.append(encode_basestring(x))
            else:
                if x is None:
                    raise EncodingError("None inside a list (an absent value can only be left out of a dict)",
                                        [f"[{i}]"])
                try:
                    _enc(x, out)
                except EncodingError as e:
                    raise e.at(f"[{i}]") from None
        out.append("]")
    elif t is dict:
        d: dict[Any, Any] = v
        for k in d:
            if type(k) is not str:
                raise EncodingError(f"dict key {k!r} is a {type(k).__name__}; keys must be strings")
        out.append("{")
        first = True
        for k in sorted(d):   # str order is code point order
            x = d[k]
            if x is None:
                continue
            if first:
                first = False
            else:
                out.append(",")
            out.append(encode_basestring(k))
            out.append(":")
            tx = type(x)
            if tx is int and -MAX_SAFE <= x <= MAX_SAFE:
                out.append(str(x))
            elif tx is str:
                out.append(encode_basestring(x))
            else:
                try:
                    _enc(x, out)
                except EncodingError as e:
                    raise e.at(f".{k}") from None
        out.append("}")
    else:
        leaf = _leaf(v)
        if leaf is not None:
            out.append(leaf)
        elif v is None:
            raise EncodingError("None outside a dict (an absent value can only be left out of a dict)")
        elif t is float:
            raise EncodingError(f"the float {v!r}: floats are not allowed in the state (rules.md §7)")
        elif isinstance(v, (bool, int, str, list, tuple, dict)):
            raise EncodingError(f"a {t.__name__} (a subclass of a plain type): only plain types are allowed")
        else:
            raise EncodingError(f"a {t.__name__}: only dict, list, str, int and bool are allowed")


def canonical_text(value: object) -> str:
    """The canonical encoding as text (`canonical_bytes` is its UTF-8)."""
    out: list[str] = []
    _enc(value, out)
    return "".join(out)


def canonical_bytes(value: object) -> bytes:
    """The canonical encoding of `value` (see the module docstring); raises EncodingError if it can't."""
    text = canonical_text(value)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise EncodingError(f"a string holds the lone surrogate U+{ord(text[e.start]):04X}, which UTF-8 "
                            f"can't encode (near {text[max(0, e.start - 30):e.start]!r})") from None


def state_hash(value: object) -> str:
    """SHA-256 of the canonical bytes, as 64 lowercase hex digits."""
    return hashlib.sha256(canonical_bytes(value)).hexdigest()


__all__ = [
    "ENCODING", "MAX_SAFE", "EncodingError", "canonical_bytes", "canonical_text", "state_hash",
]
