""""Pass until…" (MTG Arena's auto-yield): a player's own choice to keep passing for a while.

Besides passing once, the player with priority may pass *until* the end of this combat, the end of this
turn, or until something happens to them (a card of theirs is targeted, they are attacked, a trigger of
theirs goes on the stack). It is their own choice, made in their own sitting, so what it says is theirs to
say: it is public (the other player hears of it), and whether it still holds is decided here on public
facts only — the turn, the window, whose turn it is, the stack and the public events since it was set
(rules.md §7a) — never on what a hand holds. It ends at the player's next own turn at the latest, and it
never passes the player's own Main Phase on an empty stack (with hands hidden that is always a stop).

A yield lives in the match's flow options (`Flow.until`, saved with the record's app settings), so it
survives a resume; an undo that goes back to before it was set takes it away with the pass it came with.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import WINDOW_INDEX, Game, PlayerView, observe

#: the kinds of yield, in the order a chooser offers them, with the words a chooser and the recap use
UNTIL_KINDS: dict[str, str] = {
    "combat": "until the end of this combat",
    "turn": "until the end of this turn",
    "me": "until something happens to me (a card of mine is targeted, I am attacked, a trigger of mine "
          "goes on the stack) or my next turn",
}
#: the word a player types after `pass until` (text loop) for each kind
UNTIL_WORDS: dict[str, str] = {"combat": "combat", "turn": "turn", "me": "me"}
_COMBAT_EXIT = WINDOW_INDEX["combat.exit"]
_MAIN = WINDOW_INDEX["main.priority"]


@dataclass(frozen=True)
class Yield:
    """Player's "pass until…": `kind` (combat | turn | me), set in `turn` when the match had `since`
    events (an undo to before that takes it away)."""

    kind: str
    turn: int
    since: int

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "turn": self.turn, "since": self.since}

    @staticmethod
    def from_dict(d: object) -> Yield | None:
        if check_until(d):
            return None
        assert isinstance(d, dict)
        return Yield(str(d["kind"]), int(d["turn"]), int(d["since"]))


def check_until(d: object, where: str = "app.flow.until.p1") -> str:
    """Why a saved yield is malformed ("" if it is fine)."""
    if not isinstance(d, dict):
        return f"{where}: expected a table {{kind, turn, since}}, not {d!r}"
    if d.get("kind") not in UNTIL_KINDS:
        return f"{where}.kind: expected one of {', '.join(UNTIL_KINDS)}, not {d.get('kind')!r}"
    for k in ("turn", "since"):
        if type(d.get(k)) is not int or int(d[k]) < 0:
            return f"{where}.{k}: expected a whole number ≥ 0, not {d.get(k)!r}"
    unknown = sorted(set(d) - {"kind", "turn", "since"})
    if unknown:
        return f"{where}: unknown key {unknown[0]!r} (kind, turn, since)"
    return ""


def may_choose(kind: str, window: str) -> str:
    """Why the player with priority in `window` can't pass until `kind` now ("" if they can): "the end of
    this combat" only before this turn's combat is over."""
    if kind not in UNTIL_KINDS:
        return f"pass until what? {USAGE}"
    if kind == "combat" and WINDOW_INDEX.get(window, 0) > _COMBAT_EXIT:
        return "this turn's combat is over: pass until the end of the turn instead"
    return ""


#: how the command is typed (the text loop, the app's command line)
USAGE = "pass until combat | turn | me"


def until_of(command: str) -> str | None:
    """The kind a typed `pass until <combat|turn|me>` asks for ("?" + the word for an unknown one), or None
    when the line is not a "pass until" command."""
    words_ = command.strip().lower().split()
    if len(words_) < 2 or words_[:2] != ["pass", "until"]:
        return None
    rest = " ".join(words_[2:])
    for kind, word in UNTIL_WORDS.items():
        if rest in (word, kind, f"end of {word}", f"the end of {word}"):
            return kind
    return "?" + rest


def until_options(window: str) -> list[tuple[str, str]]:
    """A chooser's rows for the player with priority in `window`: (label, command)."""
    return [(UNTIL_KINDS[k][0].upper() + UNTIL_KINDS[k][1:], f"pass until {UNTIL_WORDS[k]}") for k in UNTIL_KINDS
            if not may_choose(k, window)]


def expired(y: Yield, p: int, v: PlayerView) -> bool:
    """Whether player p's yield is over at the view's turn and window (public facts): their own next turn
    has come, or the turn / the combat it was set for is over."""
    if v.turn != y.turn:
        if y.kind in ("combat", "turn") or v.active == p:
            return True
    elif y.kind == "combat" and WINDOW_INDEX.get(v.window, 0) > _COMBAT_EXIT:
        return True
    return False


def happened_to(g: Game, p: int, since: int) -> str:
    """The first public event since event `since` that "happens to" player p, in words ("" if none): a card
    of theirs (or their Champion) targeted by the other player, an attack on them, a trigger of theirs put on
    the stack. Read from public events and the other player's view of p (public facts)."""
    mine: set[int] | None = None
    ev = g.events
    for i in range(max(0, since), len(ev)):
        e = ev[i]
        if e.private_to >= 0:
            continue
        if e.kind == "attack" and e.actor == 1 - p and e.cards:
            return "attacked"
        if e.kind == "trigger" and e.actor == p and e.detail != "removed":
            return "a trigger of theirs"
        if e.kind == "stack" and e.actor == p and e.command < 0 and not _own_play(ev, i, p):
            return "a trigger of theirs"
        if e.kind == "stack" and e.actor == 1 - p and len(e.cards) > 1:
            if mine is None:
                mine = _public_ids(g, p)
            if any(t in mine for t in e.cards[1:]):
                return "a card of theirs targeted"
    return ""


def _own_play(ev: Any, i: int, p: int) -> bool:
    """Whether the "→ stack" event at i was put there by a command of p's (a play or activation just before
    it), not by a trigger."""
    for j in range(i - 1, -1, -1):
        e = ev[j]
        if e.kind in ("play", "activate", "set") and e.actor == p:
            return True
        if e.command >= 0 or e.kind in ("stack", "trigger", "resolve", "window"):
            return False
    return False


def _public_ids(g: Game, p: int) -> set[int]:
    """The card ids the other player sees as p's: their Champion, Seat, units, relics, graveyard and void."""
    side = observe(g, 1 - p).side(p)
    ids = {side.champion, side.seat}
    ids |= {u.cid for u in side.units + side.relics if u is not None}
    ids |= {c.cid for c in side.graveyard_cards + side.void_cards}
    return ids


def over(g: Game, p: int, y: Yield, v: PlayerView | None = None) -> bool:
    """Whether p's yield is over for good (to be dropped): expired, or (until something happens) it did."""
    return expired(y, p, v or observe(g, p)) or (y.kind == "me" and bool(happened_to(g, p, y.since)))


def holds(g: Game, p: int, y: Yield | None, v: PlayerView | None = None) -> bool:
    """Whether p's yield passes for them now (p deciding at priority): set, not expired, not broken by
    something happening to them, and not their own Main Phase on an empty stack."""
    if y is None:
        return False
    v = v or observe(g, p)
    if expired(y, p, v):
        return False
    if v.active == p and WINDOW_INDEX.get(v.window, -1) == _MAIN and not v.stack:
        return False
    return not (y.kind == "me" and happened_to(g, p, y.since))


def words(name: str, y: Yield) -> str:
    """The public line: "Tomas passes until the end of this combat"."""
    if y.kind == "me":
        return f"{name} passes until something happens to them, or their next turn"
    return f"{name} passes {UNTIL_KINDS[y.kind]}"


__all__ = ["UNTIL_KINDS", "UNTIL_WORDS", "USAGE", "Yield", "check_until", "expired", "happened_to", "holds",
           "may_choose", "over", "until_of", "until_options", "words"]
