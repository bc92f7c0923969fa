"""Whether a player could respond now, decided on public facts only (rules.md §7a) — as the engine asks
an Interrupt question (`legality.may_interrupt`): from the public deck list minus the cards of it seen
in public zones, the player's public Influence and free slots, the cards they control with an activated
ability, and the window. Never from their hand: the hand's size is public, what it holds is not.

Cards given in public at the start are counted too: the Coin the second player gets (docs/rules.md
`RULES Second player`) is in no deck list, and its gift and its play are public events.

The answer over-approximates (a card that *may* be in the hand or Set counts), so a player is never
skipped who could have acted; and two matches with the same public facts get the same answer, so
whether the keyboard is handed over tells nobody what a hand holds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine import CardDB, CardDef, Game, SideView, events_for, observe

END_WINDOWS = ("end.start", "end.final")
#: the Coin's card id (decks/cards/core.toml)
COIN = "the-coin"


def coins_in_hand(g: Game, p: int, db: CardDB) -> int:
    """How many Coins player p holds, from public events only (what the other player reads): given at
    the start (`RULES Second player`) and not yet put on the stack."""
    coin = db.get(COIN)
    if coin is None or not g.options.compensates("coin"):
        return 0
    given = played = 0
    on_stack = f"{coin.name} #"
    for e in events_for(g, 1 - p, renumber=False):
        if e.actor != p:
            continue
        if e.kind == "draw" and e.rule == "RULES Second player":
            given += 1
        elif e.kind == "stack" and e.text.lstrip().startswith(on_stack):
            played += 1
    return max(0, given - played)


def unseen(deck_list: Sequence[str], side: SideView, others: Sequence[SideView]) -> Counter[str]:
    """The public deck list (card names) minus the cards of it that have been seen in a public zone:
    the cards that may be in the hand, the library or Set (a multiset of names)."""
    left = Counter(name.lower() for name in deck_list)
    p = side.player
    seen = [c.name for c in side.graveyard_cards + side.void_cards]
    for s in (side, *others):
        seen += [u.name for u in s.units + s.relics if u is not None and u.owner == p]
    for name in seen:
        key = name.lower()
        if left[key] > 0:
            left[key] -= 1
    return +left


def _playable_card(d: CardDef, side: SideView, slow_ok: bool) -> bool:
    if d.type not in ("unit", "relic", "action") or d.hand_interrupt is not None:
        return False
    if d.speed == "slow" and not slow_ok:
        return False
    cost = d.cost if d.voidcast is None else min(d.cost, d.voidcast)
    if cost > side.influence:
        return False
    if d.type == "unit" and None not in side.units:
        return False
    return not (d.type == "relic" and None not in side.relics)


def _set_playable(d: CardDef, side: SideView) -> bool:
    """A Set card is played at Fast speed (Veil, C1K §9)."""
    return _playable_card(d, side, slow_ok=True)


def _can_activate(d: CardDef | None, side: SideView, window: str, slow_ok: bool, exhausted: bool,
                  suppressed: bool) -> bool:
    if d is None:
        return True                  # a card the database doesn't name: assume it could
    if suppressed:
        return False
    for _, ab in d.act:
        act = ab.activate
        if act is None:
            continue
        if act.timing == "end_phase" and window not in END_WINDOWS:
            continue
        if act.speed == "slow" and not slow_ok:
            continue
        if act.exhaust and exhausted:
            continue
        if act.cost > side.influence:
            continue
        return True
    return False


def could_respond(g: Game, p: int, deck_list: Sequence[str], db: CardDB) -> bool:
    """Whether player p might act now (play, Set-play or activate), on public facts only: everything
    here is read from the *opponent's* view of the match, the public deck list and the card database."""
    v = observe(g, 1 - p)             # what the other player sees: public facts about p
    side = v.side(p)
    others = [v.side(1 - p)]
    slow_ok = p == v.active and v.window == "main.priority" and not v.stack
    if side.hand_size and coins_in_hand(g, p, db):
        return True                   # the Coin: cost 0, Fast, known to be in the hand
    for d, _ in _unseen_defs(deck_list, side, others, db):
        if side.hand_size and _playable_card(d, side, slow_ok):
            return True
        if side.set_count and _set_playable(d, side):
            return True
    for u in side.units + side.relics:
        if u is not None and u.activated:
            if _can_activate(db.get(u.name), side, v.window, slow_ok, u.exhausted, "Suppressed" in u.statuses
                             or "suppressed" in u.statuses):
                return True
    for name in (side.champion_name, side.seat_name):
        top = db.get(name) if name else None
        if top is not None and top.act and _can_activate(top, side, v.window, slow_ok, False, False):
            return True
    return False


def _unseen_defs(deck_list: Sequence[str], side: SideView, others: Sequence[SideView],
                 db: CardDB) -> list[tuple[CardDef, int]]:
    out: list[tuple[CardDef, int]] = []
    for name, n in sorted(unseen(deck_list, side, others).items()):
        d = db.get(name)
        if d is not None:
            out.append((d, n))
    return out


__all__ = ["coins_in_hand", "could_respond", "unseen"]
