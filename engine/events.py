"""Typed events: every change the engine makes, as immutable values that say who may see them.

The match's English log is a rendering of these events, and the only filter for hidden information in
a log is `events_for(game, player)`: an event is public (`private_to == -1`) or private to one player,
in which case the other player sees `public_text` instead (or nothing when it is empty) — a draw is
"p2 draws Ember Sprite #31" for p2 and "p2 draws a card" for p1.

Events are bookkeeping, not state: they are not in `Game.snapshot()` (so no state hash depends on the
wording of a line), and `Game.clone()` shares them (`EventLog.fork` is O(log n), so clones made for a
search don't grow with the length of the match).

Kinds (`Event.kind`):

| kind | what happened | cards | amount |
|---|---|---|---|
| window | a window was entered (text "T3 main.priority") | | |
| priority | a player received priority (not shown in the text log) | | |
| pass, play, set, activate, attack, block, interrupt, choice, concede | a player's command (text: the command line; `command`: its index in the match record). `interrupt` with `detail="declined"`/`"asked"` is private to the asked player | source, targets | |
| refusal | a refused command (private to the typist; the other player sees the rule only) | | |
| stack | an item was put on the stack | source | |
| resolve | the top item resolves | source | |
| counter | an item was countered | source | |
| trigger | a triggered ability went on the stack (or was removed) | source | |
| damage, heal | damage dealt / healed, after prevention and modification | source, target | dealt |
| destroy | a card was destroyed (`detail`: the cause) | card | |
| draw | a card was drawn (private to the drawer) | card | 1 |
| discard | a card was discarded | card | |
| move | a card changed zone (enters play, returns to hand, Void, no room) | card | |
| influence | a player's Influence changed | | new value |
| flux | a Flux outcome was drawn (`detail` spells out the effects) | source | outcome (1-based) |
| thread | a Thread branch waits, resolves or is cut | source | branch |
| sba | a state-based action (0 life, Evolve) | | |
| game_over | the match ended (`detail`: the termination) | | |
| note | anything else the rules say out loud (keywords, permissions, combat steps) | | |
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal, NamedTuple, Protocol, overload

from engine.chunked import ChunkedList

#: what an event is: a window entered, priority given, a command (or a refused one), or something the
#: rules did (a draw, damage, a trigger going on the stack, a state-based action, the end …); "note" is
#: anything else worth a line in the log
EventKind = Literal[
    "window", "priority", "pass", "play", "set", "activate", "attack", "block", "interrupt", "choice",
    "concede", "refusal", "note", "draw", "discard", "influence", "stack", "trigger", "resolve", "counter",
    "damage", "heal", "destroy", "move", "sba", "flux", "thread", "game_over",
]
#: kinds a text log leaves out (they would repeat on every pass)
QUIET_KINDS: frozenset[EventKind] = frozenset({"priority"})
#: kinds that are a player's typed command (their `command` field is the index in the match record)
COMMAND_KINDS: frozenset[EventKind] = frozenset({"pass", "play", "set", "activate", "attack", "block", "interrupt", "choice",
                           "concede", "refusal"})


#: the tags of the short raw forms of the three events every pass makes (EventLog._seal expands them)
RAW_WINDOW, RAW_PRIORITY, RAW_PASS = 0, 1, 2


class Event(NamedTuple):
    """One thing that happened. `text` is the line a player who may see it reads; a private event
    (`private_to` 0 or 1) shows the other player `public_text` instead, or nothing when that is "".

    An immutable record (a NamedTuple rather than a frozen dataclass: the engine makes several per
    action, and a NamedTuple is built ~6× faster)."""

    n: int               # index in the match's event list (game.events)
    kind: EventKind
    turn: int
    window: str          # window id where it happened ("combat.damage")
    rule: str            # rule id ("C1K 4.3")
    actor: int           # 0 / 1 = the player who acted or whom it concerns; -1 = the game
    private_to: int      # -1 public; 0 / 1: only that player may see `text`
    text: str
    public_text: str = ""
    cards: tuple[int, ...] = ()   # card ids involved: source first, then targets/affected
    amount: int = 0
    detail: str = ""     # e.g. the Flux outcome chosen, the termination, the cause of a destruction
    command: int = -1    # a typed command (or refused attempt): its index in the match record

    def visible_to(self, player: int) -> bool:
        """Whether `player` may read `text` (-1: a spectator, who sees public events only)."""
        return self.private_to < 0 or self.private_to == player

    def seen_by(self, player: int) -> Event | None:
        """This event as `player` may know it: itself, its public face, or None (nothing at all)."""
        if self.visible_to(player):
            return self
        if not self.public_text:
            return None
        return self._replace(text=self.public_text, public_text="", cards=(), detail="", private_to=-1)


class EventLog(ChunkedList[Event]):
    """The match's events: an append-only list whose copies share everything already written
    (`fork()` is O(log n): engine.chunked).

    The engine appends each event raw (building the NamedTuple costs about as much as the rest of
    logging, and most events of a self-play or search match are never read): `MatchState.log` appends
    the tuple of its fields but `n` (its index, known from its place); the three events of every pass
    append a shorter tuple, tagged by an int (RAW_WINDOW, RAW_PRIORITY, RAW_PASS below), whose other
    fields are always the same. They become `Event`s, once each, when the log is first read or forked
    after them. Every read below sees Events only."""

    __slots__ = ()

    def _seal(self, items: list[Event]) -> tuple[Event, ...]:
        out: list[Event] = []
        add = out.append
        make = Event._make
        for i, t in enumerate(items, self.done):
            tag = t[0]
            if tag == RAW_WINDOW:     # (tag, turn, window, rule, active player)
                add(make((i, "window", t[1], t[2], t[3], t[4], -1, f"T{t[1]} {t[2]}", "", (), 0, "", -1)))
            elif tag == RAW_PRIORITY:   # (tag, turn, window, player, text)
                add(make((i, "priority", t[1], t[2], "C1K 6", t[3], -1, t[4], "", (), 0, "", -1)))
            elif tag == RAW_PASS:     # (tag, turn, window, rule, player, text, command)
                add(make((i, "pass", t[1], t[2], t[3], t[4], -1, t[5], "", (), 0, "", t[6])))
            else:                     # every field but n
                add(make((i, *t)))
        return tuple(out)

    def append(self, item: Event) -> None:
        """Add an event made elsewhere (its `n` becomes its place here)."""
        self.tail.append(item[1:])  # type: ignore[arg-type]   # (the raw form: every field but n)

    def __iter__(self) -> Iterator[Event]:
        self._freeze()
        return super().__iter__()

    @overload
    def __getitem__(self, i: int) -> Event: ...
    @overload
    def __getitem__(self, i: slice) -> list[Event]: ...

    def __getitem__(self, i: int | slice) -> Event | list[Event]:
        self._freeze()
        return super().__getitem__(i)

    def since(self, start: int) -> Iterator[Event]:
        self._freeze()
        return super().since(start)


class HasEvents(Protocol):
    """What `events_for` reads of a match (a `MatchState`, a `Game`): its event list. (A protocol, so
    that events, below the match state, imports nothing of it.)"""

    @property
    def events(self) -> EventLog: ...


def events_for(game: HasEvents, player: int, since: int = 0, renumber: bool = True) -> tuple[Event, ...]:
    """The events from index `since` of the match's event list on, as `player` may know them (-1: a
    spectator): private events of the other player appear by their public face only (or not at all).

    With `renumber` (the default) each returned event's `n` and `command` count only the events (and
    typed commands) this player may know of, from the start of the match: numbers with gaps would show
    where something hidden happened (an Interrupt the opponent was asked about and declined, rules.md
    §7a). `renumber=False` keeps the match-wide numbers, for a screen that shows the text only and needs
    to link its own commands to the match record."""
    if not renumber:
        out = []
        for e in game.events.since(since):
            seen = e if e.private_to < 0 or e.private_to == player else e.seen_by(player)
            if seen is not None:
                out.append(seen)
        return tuple(out)
    kept: list[Event] = []
    n = c = 0
    for i, e in enumerate(game.events):
        seen = e if e.private_to < 0 or e.private_to == player else e.seen_by(player)
        if seen is None:
            continue
        if i >= since:
            kept.append(seen._replace(n=n, command=c if seen.command >= 0 else -1))
        n += 1
        if seen.command >= 0:
            c += 1
    return tuple(kept)


def log_lines_for(game: HasEvents, player: int, since: int = 0) -> list[str]:
    """The English log `player` may read (-1: a spectator): the text of their events, quiet kinds left out."""
    return [e.text for e in events_for(game, player, since) if e.kind not in QUIET_KINDS]


__all__ = ["COMMAND_KINDS", "Event", "EventLog", "QUIET_KINDS", "events_for", "log_lines_for"]
