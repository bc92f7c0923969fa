"""An append-only list whose copies share what is already written: `fork()` costs O(log n), not O(n).

The match's events (`engine.events.EventLog`) and its record of commands (`Game.record`) grow with the
match; `Game.clone()` forks them, so a clone made for a search costs the same at turn 5 and at turn 50.

The items are kept as immutable chunks (tuples) plus a short mutable tail. `fork()` freezes the tail
into a chunk and gives the copy the list of chunks; chunks are merged so that each is at least twice
the size of the next (a binary counter), so there are O(log n) of them and each item is copied O(log n)
times over the whole match.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Self, TypeVar, overload

T = TypeVar("T")


class ChunkedList(Sequence[T]):
    """A list that only grows: `append`, `len`, indexing, slices (as lists), iteration, `since`, and
    equality with any sequence of the same items (`game.record == ["p1: pass"]`).

    Its end is public, for the engine's hot paths (every pass appends to the record and the events, and
    a method call there costs more than the append): `tail` is the list being appended to — appending
    to it is `append` — and `done + len(tail)` is the length. Read `tail` each time: `fork()` starts a
    new one. Nothing else of a ChunkedList may be written from outside."""

    __slots__ = ("_chunks", "done", "tail")

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._chunks: list[tuple[T, ...]] = []
        self.done = 0        # items in the chunks
        self.tail: list[T] = list(items)

    def append(self, item: T) -> None:
        self.tail.append(item)

    def _seal(self, items: list[T]) -> tuple[T, ...]:
        """The tail as an immutable chunk (a subclass may convert what was appended raw)."""
        return tuple(items)

    def _freeze(self) -> None:
        if not self.tail:
            return
        chunk = self._seal(self.tail)
        self.tail = []
        chunks = self._chunks
        chunks.append(chunk)
        self.done += len(chunk)
        while len(chunks) >= 2 and len(chunks[-2]) <= 2 * len(chunks[-1]):
            b = chunks.pop()
            chunks[-1] = chunks[-1] + b

    def fork(self) -> Self:
        """A copy that shares every item written so far (of the same class)."""
        self._freeze()
        other = type(self).__new__(type(self))
        other._chunks = self._chunks.copy()
        other.done = self.done
        other.tail = []
        return other

    def __len__(self) -> int:
        return self.done + len(self.tail)

    def __iter__(self) -> Iterator[T]:
        for c in self._chunks:
            yield from c
        yield from self.tail

    @overload
    def __getitem__(self, i: int) -> T: ...
    @overload
    def __getitem__(self, i: slice) -> list[T]: ...

    def __getitem__(self, i: int | slice) -> T | list[T]:
        if isinstance(i, slice):
            return list(self)[i]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        if i >= self.done:
            return self.tail[i - self.done]
        for c in self._chunks:
            if i < len(c):
                return c[i]
            i -= len(c)
        raise IndexError(i)   # pragma: no cover

    def since(self, start: int) -> Iterator[T]:
        """The items from index `start` on."""
        if start >= self.done:
            yield from self.tail[max(0, start - self.done):]
            return
        pos = 0
        for c in self._chunks:
            if pos + len(c) > start:
                yield from c[max(0, start - pos):]
            pos += len(c)
        yield from self.tail

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (ChunkedList, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None   # type: ignore[assignment]   # (mutable: like a list)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self)!r})"


__all__ = ["ChunkedList"]
