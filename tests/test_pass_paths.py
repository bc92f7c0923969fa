"""A pass has two ways through the engine: the fast path of `apply` and `pass_if_forced`
(`commands._pass`: the record line and the pass event written in their short forms, and do_pass's
empty-stack case written out inline, hot) and the general path (the record line, `log_command`'s event,
`priority.do_pass`). The fast path is held equal to the general path here — the same state hash, record and events — at every priority decision of random
matches, on an empty stack and on a full one."""

from __future__ import annotations

from engine.actions import Pass
from engine.cards import load_card_db
from engine.commands import _pass, log_command
from engine.decks import find_deck, load_deck
from engine.game import Game
from engine.priority import do_pass
from engine.rng import SplitMix64, derive_seed
from engine.state import MatchOptions, player_name

DB = load_card_db()


def _general(g: Game) -> None:
    actor = g.pending.player
    line = f"{player_name(actor)}: {Pass()}"
    g.record.append(line)
    log_command(g, line, Pass(), actor)
    do_pass(g, actor)


def test_the_fast_passes_are_the_general_pass() -> None:
    met = {True: 0, False: 0}   # (by: the stack was empty)
    for i, (a, b) in enumerate((("ironbound", "emberfall"), ("paradox-flux", "genesis-grove"),
                                ("null-silence", "solace-haven"))):
        seed = derive_seed(6100, i)
        g = Game.new(DB, load_deck(find_deck(a), DB), load_deck(find_deck(b), DB), seed,
                     MatchOptions(max_turns=12))
        agent = SplitMix64(seed)
        while not g.is_terminal():
            if g.pending.kind == "priority":
                met[not g.stack] += 1
                ref = g.clone()
                start = len(ref.events)
                _general(ref)
                one, two = g.clone(), g.clone()
                one.apply(Pass())
                _pass(two, two.pending)
                for other in (one, two):
                    assert other.state_hash() == ref.state_hash(), f"turn {g.turn} {g.window}"
                    assert list(other.record) == list(ref.record)
                    assert other.events[start:] == ref.events[start:]
            acts = g.legal_actions()
            g.apply(acts[agent.below(len(acts))])
    assert met[True] > 100 and met[False] > 20, met
