"""Block declarations on wide boards: `legal_actions()` with and without its cap, and sampling.

    python bench/blocks_bench.py

Builds N ready units a side (N = 6, 7; Ironbound mirror, no Guard units), attacks with all of the
active player's, and times `legal_actions()` at the blockers decision with the cap lifted (the full
list) and with it (engine.game.BLOCK_LEAF_CAP), and `engine.sampling.random_block`.
"""

from __future__ import annotations

import os
import time

import engine.options as eg
from engine import zones
from engine.actions import Attack
from engine.cards import load_card_db
from engine.decks import find_deck, load_deck
from engine.game import Game
from engine.rng import SplitMix64
from engine.sampling import random_block
from engine.state import MatchOptions


def wide_board(n: int) -> Game:
    db = load_card_db()
    deck = load_deck(find_deck("ironbound"), db)
    g = Game.new(db, deck, deck, 41, MatchOptions(max_turns=200))
    for p in (0, 1):
        ps = g.players[p]
        ps.board = [0] * n
        units = [c for c in ps.library if g.card(c).type == "unit" and "guard" not in g.card(c).keywords][:n]
        for i, c in enumerate(units):
            ps.library.remove(c)
            zones.enter_play(g, c, p, i, summoned=True)
            g.perms[c].entered_turn = -5
    while g.pending.kind != "attackers":
        acts = g.legal_actions()
        g.apply(next((a for a in acts if str(a) in ("pass", "decline")), acts[0]))
    g.apply(Attack(tuple(g.players[0].units())))
    while g.pending.kind != "blockers":
        g.apply(next(a for a in g.legal_actions() if str(a) in ("pass", "decline")))
    return g


def main() -> None:
    cap = eg.BLOCK_LEAF_CAP
    print(f"load average {os.getloadavg()}")
    for n in (6, 7):
        g = wide_board(n)
        for c in (10**9, cap):
            eg.BLOCK_LEAF_CAP = c
            t = time.perf_counter()
            k = len(g.legal_actions())
            print(f"{n}x{n} {'full list' if c > cap else f'cap {cap}'}: {k} actions in "
                  f"{(time.perf_counter() - t) * 1000:.1f} ms")
        eg.BLOCK_LEAF_CAP = cap
        rng = SplitMix64(1)
        t = time.perf_counter()
        for _ in range(100):
            random_block(g, rng)
        print(f"{n}x{n} random_block: {(time.perf_counter() - t) * 10:.3f} ms")


if __name__ == "__main__":
    main()
