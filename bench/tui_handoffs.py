"""Hand-offs per turn of the app's default flow, measured in a bot-driven Pilot run (issue 8 item 3).

    .venv/bin/python bench/tui_handoffs.py [--matches 4] [--turns 10] [--flow stops] [--open-hands]

Each match is played through the real app (`C1KApp.run_test`, 120×40, hands hidden unless
`--open-hands`) by a seeded bot: at every screen where a player must decide, the bot picks one of the
deciding player's legal actions (pass half the time when it may, otherwise any other legal action) and
sends it through the app as a typed command; every hand-off screen is counted, then dismissed with
Enter. Prints hand-offs (and how many of them were "looks" owed after a declaration of attackers with
no engine decision for that player), turns and hand-offs per turn for each match and in total. No wall
clock.
"""

from __future__ import annotations

import argparse
import asyncio
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


async def one_match(deck_a: str, deck_b: str, seed: int, turns: int, flow: str, open_hands: bool) -> dict[str, Any]:
    from c1k_tui.cli import main as cli
    from c1k_tui.model.session import Flow, MatchSession
    from c1k_tui.screens.app import C1KApp
    from c1k_tui.screens.menus import HandoffScreen
    from engine.rng import SplitMix64
    from engine.state import MatchOptions

    db = cli._db()
    decks = cli._decks(db, deck_a, deck_b)
    session = MatchSession.new(db, decks, seed, MatchOptions(), flow=Flow(flow), save_path=None,
                               open_hands=open_hands)
    app = C1KApp(db=db, session=session)
    rng = SplitMix64(seed ^ 0xB07)
    handoffs = 0
    decisions = 0
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for _ in range(4000):
            g = app.game
            if g.is_terminal() or g.turn > turns:
                break
            scr = app.screen
            if isinstance(scr, HandoffScreen):
                handoffs += 1
                await pilot.press("enter")
                await pilot.pause()
                continue
            if scr is not app.match_screen:
                # a prompt (Interrupt, choice, refusal notice): the bot answers for the deciding player
                scr.dismiss(None)
                await pilot.pause()
            decisions += 1
            app.send(bot_command(app.game, rng))
            await pilot.pause()
    g = app.game
    played = min(g.turn, turns)
    return {"decks": f"{deck_a}-{deck_b}", "seed": seed, "turns": played, "handoffs": handoffs,
            "of_which_looks": getattr(app, "looks", 0),
            "decisions": decisions, "per_turn": round(handoffs / max(1, played), 2)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", type=int, default=4)
    ap.add_argument("--turns", type=int, default=10)
    ap.add_argument("--flow", default="stops")
    ap.add_argument("--open-hands", action="store_true")
    args = ap.parse_args()
    total_h = total_t = 0
    for i in range(args.matches):
        a, b = DECKS[i % len(DECKS)]
        r = asyncio.run(one_match(a, b, 1000 + i, args.turns, args.flow, args.open_hands))
        total_h += r["handoffs"]
        total_t += r["turns"]
        print(r, flush=True)
    print(f"TOTAL handoffs {total_h} turns {total_t} per turn {total_h / max(1, total_t):.2f}")


if __name__ == "__main__":
    main()
