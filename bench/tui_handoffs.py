"""Hand-offs per turn of the hot-seat table's default flow, counted in the model (issue 18).

    .venv/bin/python bench/tui_handoffs.py [--matches 2] [--turns 10] [--flow stops] [--open-hands]
                                           [--bot random|greedy] [--until sensible|never]

Each match is played through the hot-seat model (`c1k_tui.model.table.Table`, the values the Textual
app renders) by a bot: at every point where a player must decide, the bot picks one of the deciding
player's legal actions and sends it as the app does. `--bot random` (the default, unchanged since issue
8): a seeded bot that passes half the time when it may, otherwise any other legal action. `--bot greedy`:
the greedy agent (engine/ai.py) choosing for both seats from each one's own information set — more like
a person; when it passes holding nothing it could cast in response (the Coin pays for a response but is
none), it passes "until something happens to me" (model/yields.py), as a sensible player would
(`--until never`: it never does, the figures before issue 27). Every hand-off the model returns is counted
and taken; "looks" are those owed after a public event with no decision of that player (none since issue
18); "turn screens" are the "Turn N — your turn" interstitials (the same player keeps the keyboard);
"pass_only" the hand-offs whose incoming player could only pass or decline (counted for this report only:
the flow never reads it). No wall clock, no timers: the same commit gives the same numbers.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DECKS = (("ironbound", "emberfall"), ("dominion-vanguard", "veil-masquerade"), ("null-silence", "paradox-flux"),
         ("solace-haven", "ruin-blight"))


def bot_command(game: Any, rng: Any) -> str:
    from engine.actions import Pass

    acts = game.legal_actions()
    if not acts:
        return "concede"
    if isinstance(acts[0], Pass) and (len(acts) == 1 or rng.below(2) == 0):
        return "pass"
    rest = [a for a in acts if not isinstance(a, Pass)]
    return str(rest[rng.below(len(rest))])


def holds_response(game: Any, p: int, db: Any) -> bool:
    """Whether player p holds something they could cast or use in response now (their own knowledge: their
    hand, Set cards, Influence and board) — what a sensible player looks at before passing "until…". Only the
    bot reads this; the table's flow never does."""
    from dataclasses import replace

    from c1k_tui.model.respond import COIN, _can_activate, _playable_card, _set_playable
    from engine import observe

    v = observe(game, p)
    coin = db.get(COIN)
    coins = sum(1 for h in v.hand if coin is not None and h.name == coin.name)
    side = replace(v.me, influence=v.me.influence + coins)   # the Coin pays for a response; it is none itself
    for h in v.hand:
        d = db.get(h.name.removesuffix(" [Set]"))
        if d is None:
            return True
        if d is coin:
            continue
        if h.name.endswith(" [Set]"):
            if _set_playable(d, side):
                return True
        elif _playable_card(d, side, slow_ok=False) or (d.hand_interrupt is not None and d.cost <= side.influence):
            return True
    for u in side.units + side.relics:
        if u is not None and u.activated and _can_activate(db.get(u.name), side, v.window, False, u.exhausted,
                                                           "Suppressed" in u.statuses):
            return True
    return False


def only_pass(game: Any) -> bool:
    """Whether the deciding player's only legal action is to pass (or decline): counted, never read by the flow."""
    from engine.actions import Decline, Pass

    return all(isinstance(a, (Pass, Decline)) for a in game.legal_actions())


def one_match(deck_a: str, deck_b: str, seed: int, turns: int, flow: str, open_hands: bool,
              bot: str = "random", until: str = "sensible") -> dict[str, Any]:
    from c1k_tui.cli import main as cli
    from c1k_tui.model.session import Flow, MatchSession
    from c1k_tui.model.table import GameOver, HandOff, Table, YourTurn
    from engine import InfoSet, Pass, derive_seed, make_agent
    from engine.rng import SplitMix64
    from engine.state import MatchOptions

    db = cli._db()
    decks = cli._decks(db, deck_a, deck_b)
    session = MatchSession.new(db, decks, seed, MatchOptions(), flow=Flow(flow), save_path=None,
                               open_hands=open_hands)
    session.run_autos()
    table = Table(session)
    rng = SplitMix64(seed ^ 0xB07)
    agents = [make_agent("greedy", derive_seed(seed, 0xB07 + p)) for p in (0, 1)] if bot == "greedy" else []
    decisions = turn_screens = pass_only = yields = 0
    after_handoff = False
    for _ in range(4000):
        g = session.game
        if g.is_terminal() or g.turn > turns:
            break
        shown = table.next()
        if isinstance(shown, GameOver):
            break
        if isinstance(shown, HandOff):
            table.took(shown)
            after_handoff = True
            continue
        if isinstance(shown, YourTurn):           # "Turn N — your turn": not a hand-off, one Enter
            turn_screens += 1
            table.took(shown)
            continue
        decisions += 1
        if after_handoff and only_pass(g):
            pass_only += 1
        after_handoff = False
        actor = g.current_player()
        seen, before = len(g.events), len(g.record)
        if agents:
            act = agents[actor].act(InfoSet(g, actor))
            if isinstance(act, Pass) and g.decision.kind == "priority" and until == "sensible" \
                    and not holds_response(g, actor, db):
                yields += 1                   # nothing to cast in response: pass until something happens
                out = session.pass_until("me", actor)
            else:
                out = session.send(act, actor)
        else:
            out = session.send(bot_command(g, rng))
        if out.ok:
            g = session.game
            table.accepted(actor, seen, g.record[before] if len(g.record) > before else "")
    g = session.game
    played = min(g.turn, turns)
    return {"decks": f"{deck_a}-{deck_b}", "seed": seed, "turns": played, "handoffs": table.handoffs,
            "of_which_looks": table.looks, "pass_only": pass_only, "turn_screens": turn_screens,
            "decisions": decisions, "yields": yields, "per_turn": round(table.handoffs / max(1, played), 2)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", type=int, default=4)
    ap.add_argument("--turns", type=int, default=10)
    ap.add_argument("--flow", default="stops")
    ap.add_argument("--open-hands", action="store_true")
    ap.add_argument("--bot", choices=("random", "greedy"), default="random")
    ap.add_argument("--until", choices=("sensible", "never"), default="sensible",
                    help="the greedy bot's \"pass until…\": when it holds nothing to cast in response, or never")
    args = ap.parse_args()
    total_h = total_t = total_l = total_p = 0
    per: list[float] = []
    for i in range(args.matches):
        a, b = DECKS[i % len(DECKS)]
        r = one_match(a, b, 1000 + i, args.turns, args.flow, args.open_hands, args.bot, args.until)
        total_h += r["handoffs"]
        total_t += r["turns"]
        total_l += r["of_which_looks"]
        total_p += r["pass_only"]
        per.append(r["per_turn"])
        print(r, flush=True)
    print(f"TOTAL ({args.bot}) handoffs {total_h} (looks {total_l}) turns {total_t} "
          f"per turn {total_h / max(1, total_t):.2f} (median of matches {statistics.median(per):.2f}) "
          f"pass-only {total_p} ({100 * total_p / max(1, total_h):.0f}% of hand-offs)")


if __name__ == "__main__":
    main()
