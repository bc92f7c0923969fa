"""Invariants of a game state, checked after every action by the property tests."""

from __future__ import annotations

from engine.game import Game
from engine.state import BOARD, COMMAND, GONE, GRAVEYARD, HAND, LIBRARY, RELICS, SET, STACK, VOID


def check_invariants(g: Game) -> None:
    where: dict[int, str] = {}

    def put(cid: int, zone: str) -> None:
        assert cid not in where, f"card #{cid} is in {where[cid]} and in {zone}"
        where[cid] = zone

    codes = {"library": LIBRARY, "hand": HAND, "graveyard": GRAVEYARD, "void": VOID, "board": BOARD,
             "relics": RELICS, "command": COMMAND, "stack": STACK, "set": SET}
    for p, ps in enumerate(g.players):
        for zone in ("library", "hand", "graveyard", "void"):
            for c in getattr(ps, zone):
                put(c, zone)
        for c in ps.board:
            if c:
                put(c, "board")
        for c in ps.relics:
            if c:
                put(c, "relics")
        for c in ps.set_cards:
            put(c, "set")
        put(ps.champion, "command")
        if ps.seat:
            put(ps.seat, "command")
        assert ps.influence >= 0, f"p{p + 1} has negative Influence {ps.influence}"
        assert all(g.owner[c] == p for c in ps.hand + ps.library + ps.graveyard), "a card is in another's zone"
    resolving = [g.resolving.item] if g.resolving is not None and g.resolving.item is not None else []
    for it in g.stack + resolving:   # (an item paused mid-resolution for a Flux Interrupt is still there)
        if it.kind in ("card", "voidcast"):
            put(it.source, "stack")
    for cid in sorted(c for c in g.defs if c):
        z = where.get(cid)
        if z is None:
            assert g.zone[cid] == GONE, f"card #{cid} is in no zone but marked {g.zone[cid]}"
        else:
            assert g.zone[cid] == codes[z], f"card #{cid} is in {z} but marked {g.zone[cid]}"
    in_play = {c for c, z in where.items() if z in ("board", "relics", "command")}
    assert all(c in where for c in g.players[0].void + g.players[1].void)
    assert set(g.perms) == in_play, "in-play state exists exactly for the cards in play"
    if not g.is_terminal():
        assert g.legal_actions(), f"no legal action for {g.pending}"
        assert g.current_player() in (0, 1)
    else:
        assert g.legal_actions() == []
