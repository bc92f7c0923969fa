"""Hand-offs per turn of the hot-seat table's default flow, counted in the model (issue 18).

    .venv/bin/python bench/tui_handoffs.py [--matches 2] [--turns 10] [--flow stops] [--open-hands]
                                           [--bot random|greedy]

Each match is played through the hot-seat model (`c1k_tui.model.table.Table`, the values the Textual
app renders) by a bot: at every point where a player must decide, the bot picks one of the deciding
player's legal actions and sends it as the app does. `--bot random` (the default, unchanged since issue
8): a seeded bot that passes half the time when it may, otherwise any other legal action. `--bot greedy`:
the greedy agent (engine/ai.py) choosing for both seats from each one's own information set — more like
a person. Every hand-off the model returns is counted and taken; "looks" are those owed after a public
event with no decision of that player (none since issue 18); "turn screens" are the "Turn N — your turn"
interstitials (the same player keeps the keyboard). No wall clock, no timers: the same commit gives the same numbers.
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


def one_match(deck_a: str, deck_b: str, seed: int, turns: int, flow: str, open_hands: bool,
              bot: str = "random") -> dict[str, Any]:
    from c1k_tui.cli import main as cli
    from c1k_tui.model.session import Flow, MatchSession
    from c1k_tui.model.table import GameOver, HandOff, Table, YourTurn
    from engine import InfoSet, derive_seed, make_agent
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
    decisions = turn_screens = 0
    for _ in range(4000):
        g = session.game
        if g.is_terminal() or g.turn > turns:
            break
        shown = table.next()
        if isinstance(shown, GameOver):
            break
        if isinstance(shown, HandOff):
            table.took(shown)
            continue
        if isinstance(shown, YourTurn):           # "Turn N — your turn": not a hand-off, one Enter
            turn_screens += 1
            table.took(shown)
            continue
        decisions += 1
        actor = g.current_player()
        seen, before = len(g.events), len(g.record)
        if agents:
            out = session.send(agents[actor].act(InfoSet(g, actor)), actor)
        else:
            out = session.send(bot_command(g, rng))
        if out.ok:
            g = session.game
            table.accepted(actor, seen, g.record[before] if len(g.record) > before else "")
    g = session.game
    played = min(g.turn, turns)
    return {"decks": f"{deck_a}-{deck_b}", "seed": seed, "turns": played, "handoffs": table.handoffs,
            "of_which_looks": table.looks, "turn_screens": turn_screens, "decisions": decisions,
            "per_turn": round(table.handoffs / max(1, played), 2)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", type=int, default=4)
    ap.add_argument("--turns", type=int, default=10)
    ap.add_argument("--flow", default="stops")
    ap.add_argument("--open-hands", action="store_true")
    ap.add_argument("--bot", choices=("random", "greedy"), default="random")
    args = ap.parse_args()
    total_h = total_t = total_l = 0
    per: list[float] = []
    for i in range(args.matches):
        a, b = DECKS[i % len(DECKS)]
        r = one_match(a, b, 1000 + i, args.turns, args.flow, args.open_hands, args.bot)
        total_h += r["handoffs"]
        total_t += r["turns"]
        total_l += r["of_which_looks"]
        per.append(r["per_turn"])
        print(r, flush=True)
    print(f"TOTAL ({args.bot}) handoffs {total_h} (looks {total_l}) turns {total_t} "
          f"per turn {total_h / max(1, total_t):.2f} (median of matches {statistics.median(per):.2f})")


if __name__ == "__main__":
    main()
