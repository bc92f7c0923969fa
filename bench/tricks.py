"""Combat tricks in the opponent's combat, counted over AI-vs-AI matches (issue #29 item 6).

    python bench/tricks.py [--agent search:1] [--opponent AGENT] [--matches 40] [--seed 1] [--workers 1]
                           [--decks NAME,NAME,...] [--json FILE]

Plays the first `--matches` deals of the ladder's seeded order (bench/ladder.py: a deck pair of the 11
bundled decks and a match seed), AGENT in the first seat and OPPONENT (default: AGENT) in the second, and
counts (`--decks`: only the deals where one of the two decks is named, e.g. the decks that carry combat
tricks), for the *defender* — the player who is not the active one — in the opponent's
`combat.declare_blockers` window (after blockers are declared, before damage):

- `windows`: its decisions there (forced ones included: every time it has priority);
- `holding`: of those, how many it made holding a Fast card it could play (in hand or Set; a Nullify card,
  used only against an action, is not one);
- `castable`: how many it made with a Fast play legal (a card it holds and the Influence to pay for it);
- `cast`: how many it answered with a play or an activation (a trick after blockers);
- `cast_with_block`: of `cast`, how many with at least one of its units blocking;
- `winnable`: of `castable`, how many had a *winning* play (`winning_plays`): a Fast play or activation that,
  applied on the true game and the rest of the phase played out by `reply_policy` (both players pass, so
  combat damage is dealt), leaves the fight better than passing does, played out the same way — every
  attacker that passing kills is dead and every blocker of the defender that passing keeps lives, and at
  least one more attacker is dead or one more blocker lives. A unit lives when it is on the board with
  health left beyond its "this turn" buffs (damage stays: a unit that lives only by "+0/+2 this turn" dies
  when the turn ends); an attacker is dead otherwise (destroyed, bounced, or dying at the end of the turn);
- `winnable_cast`: of `winnable`, how many it answered with a play or an activation;
- `cast_wins`: of `winnable_cast`, how many with a winning play;
- `winnable_kept`: of the windows that are not `winnable`, how many would have been had the defender kept
  its Influence: with its Influence raised to its capacity (all it had after its own Influence gain, spent
  on nothing since), a play it holds — or an activation — wins (`winning_plays`). What its Influence went
  to before the window cost it there.

It also counts every play or activation a seat made anywhere in the opponent's turn (`opp_turn_plays`). The
counts are totals over the matches, with their number a match; the JSON keeps every match's counts.
Run the same file on two trees (before / after a change) for the same matches: the deals and the agents'
seeds depend only on `--seed`, the deal and the agent spec. Counting only: no timing here.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for _p in (ROOT, ROOT / "bench"):        # run as a script from anywhere: this tree's engine and bench
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from ladder import _deck, deals, deck_names, emit  # noqa: E402  (the ladder's deals and deck cache)

KEYS = ("windows", "holding", "castable", "cast", "cast_with_block", "winnable", "winnable_cast", "cast_wins",
        "winnable_kept", "opp_turn_plays")


def _fight(g: Any, attackers: Sequence[int], blockers: Sequence[int]) -> tuple[frozenset[int], frozenset[int]]:
    """(the attackers dead, the blockers living) of a fight in `g`: living is being on the board with health
    left beyond the "this turn" buffs (they end with the turn; damage stays)."""
    def lives(u: int) -> bool:
        return bool(g.is_unit_in_play(u) and g.health(u) - g.perms[u].temp_health > 0)
    return frozenset(a for a in attackers if not lives(a)), frozenset(b for b in blockers if lives(b))


def winning_plays(g: Any, p: int) -> list[Any]:
    """`p`'s Fast plays and activations legal now (it must have priority) that win the fight: each applied on
    a copy of `g` and the phase played out by `reply_policy` (both pass: the stack resolves, combat damage is
    dealt), against a pass played out the same way — no attacker that passing kills lives, no blocker of `p`
    that passing keeps dies, and one more attacker dies or one more blocker lives (`_fight`)."""
    from engine.actions import Activate, Pass, Play
    from engine.ai import _play_out_phase, reply_policy
    from engine.rng import SplitMix64

    attackers = tuple(g.attackers)
    blockers = tuple(b for b, _ in g.blocks if b in g.players[p].board)

    def after(a: Any) -> tuple[frozenset[int], frozenset[int]]:
        h = g.clone()
        h.apply(a, p)
        _play_out_phase(h, reply_policy(SplitMix64(0x7121C)), turn_of=g.turn)
        return _fight(h, attackers, blockers)

    dead, living = after(Pass())
    out = []
    for a in g.legal_actions():
        if isinstance(a, Play | Activate):
            d, lv = after(a)
            if dead <= d and living <= lv and (d, lv) != (dead, living):
                out.append(a)
    return out


def winnable_kept(g: Any, p: int) -> bool:
    """Whether `p` would have a winning play (`winning_plays`) had it kept its Influence: on a copy of `g`
    with its Influence raised to its capacity (what it had after its own Influence gain, spent on nothing
    since). False when it has that much already."""
    ps = g.players[p]
    if ps.capacity <= ps.influence:
        return False
    kept = g.clone()
    kept.players[p].influence = ps.capacity
    return bool(winning_plays(kept, p))


def play_one(job: tuple[tuple[int, str, str, int], str, str, int]) -> dict[str, Any]:
    """One match of a deal, AGENT in the first seat; the defender's counts after blockers."""
    from engine.actions import Activate, Play
    from engine.ai import make_agent, play_match
    from engine.cards import NEVER
    from engine.game import Game
    from engine.rng import derive_seed
    from engine.state import DECLARE_BLOCKERS, MatchOptions

    (index, deck1, deck2, seed), agent, opponent, max_turns = job
    game = Game.new(_db(), _deck(deck1), _deck(deck2), seed, MatchOptions(max_turns=max_turns))
    counts = dict.fromkeys(KEYS, 0)

    def seen(p: int, a: Any) -> None:
        g = game
        acting = isinstance(a, Play | Activate)
        if p != g.active and acting:
            counts["opp_turn_plays"] += 1
        if p == g.active or g.win != DECLARE_BLOCKERS or g.pending.kind != "priority" or not g.attackers:
            return
        counts["windows"] += 1
        ps = g.players[p]
        if any(g.card(c).playable and g.card(c).least_fast_cost < NEVER for c in (*ps.hand, *ps.set_cards)):
            counts["holding"] += 1
        castable = any(isinstance(x, Play | Activate) for x in g.legal_actions())
        wins = winning_plays(g, p) if castable else []
        if not wins:
            counts["winnable_kept"] += winnable_kept(g, p)
        if not castable:
            return
        counts["castable"] += 1
        if wins:
            counts["winnable"] += 1
            if acting:
                counts["winnable_cast"] += 1
                counts["cast_wins"] += a in wins
        if acting:
            counts["cast"] += 1
            if any(b in ps.board for b, _ in g.blocks):
                counts["cast_with_block"] += 1

    agents = (make_agent(agent, derive_seed(seed, 1)), make_agent(opponent, derive_seed(seed, 2)))
    r = play_match(game, agents, on_decision=seen)
    return {"deal": index, "decks": [deck1, deck2], "seed": seed, "winner": r.winner, "turns": r.turns, **counts}


def _db() -> Any:
    from ladder import _DB

    _deck("ironbound")                   # loads the card database once per process
    return _DB["db"]


def run(agent: str, opponent: str, seed: int, matches: int, workers: int, max_turns: int = 200,
        decks: Sequence[str] = ()) -> dict[str, Any]:
    unknown = [d for d in decks if d not in deck_names()]
    if unknown:
        raise ValueError(f"unknown deck {unknown[0]!r}: use one of {', '.join(deck_names())}")
    chosen = [d for d in deals(seed, 1) if not decks or d[1] in decks or d[2] in decks]
    jobs = [(d, agent, opponent, max_turns) for d in chosen[:matches]]
    if workers > 1:
        with mp.get_context("spawn").Pool(workers) as pool:
            rows = pool.map(play_one, jobs, chunksize=1)
    else:
        rows = [play_one(j) for j in jobs]
    totals = {k: sum(r[k] for r in rows) for k in KEYS}
    n = max(1, len(rows))
    return {"agent": agent, "opponent": opponent, "seed": seed, "decks": list(decks), "matches": len(rows), "totals": totals,
            "per_match": {k: round(v / n, 3) for k, v in totals.items()}, "rows": rows}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agent", default="search:1")
    ap.add_argument("--opponent", default="")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--matches", type=int, default=40)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--decks", default="", help="comma-separated deck names: only deals with one of them")
    ap.add_argument("--json", type=Path, default=None)
    a = ap.parse_args(argv)
    decks = [d for d in a.decks.split(",") if d]
    try:
        rep = run(a.agent, a.opponent or a.agent, a.seed, a.matches, a.workers, decks=decks)
    except ValueError as e:
        print(f"tricks: {e}", file=sys.stderr)
        return 2
    rep["command"] = "python bench/tricks.py " + " ".join(argv if argv is not None else sys.argv[1:])
    return emit(rep, a.json)


if __name__ == "__main__":
    raise SystemExit(main())
