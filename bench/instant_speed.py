"""How often an agent acts at instant speed, and what it gains (issue #20 item 7).

    python bench/instant_speed.py [--agent greedy|search:1] [--matches 4] [--seed 1] [--decks all|A,B,...]
                                  [--modes free-old,free,...] [--workers 2] [--json FILE]

Plays every unordered pair of decks `--matches` times (seats alternate; round k of every pair before round
k + 1), once in each mode, on the same seeds. Deck A's seat is the tested one; the other seat always plays
the classic agent (`Classic`: the engine's agent with the evaluation and play-out of before item 7 patched
in while it decides — it reproduces the old agents' matches move for move):

- `free-old` / `free`: every decision is the agent's (as `c1k simulate` plays); the tested seat plays the
  classic / the new agent;
- `stops-old` / `stops`: both seats follow the app's public flow for an AI seat (c1k_tui/model/seats.py
  `fair_action`), the tested seat with the AI's stops (`AI_STOPS`), the other with a human's defaults —
  the AI of `c1k play --vs ai`; classic / new agent in the tested seat;
- `app`: the public flow with a human's default stops on both seats and the classic agent (the AI seat
  before issue #20);
- `hold`: `stops-old`, and the tested seat's classic greedy holds its Fast Actions in its own turn while
  the stack is empty (unless casting one wins the match), to cast them in the opponent's turn — an
  experiment of this bench (`HoldingGreedy`), not an agent of the engine.

Counts, per match and seat, *instant-speed plays*: a card played or an ability activated anywhere but in
one's own Main Phase on an empty stack (the opponent's turn, a response, one's own combat or draw and
influence windows), and Interrupts used; reports them per match, those in the opponent's turn or in response
alone (`opp_turn_or_response_per_match_a`), and by window (`own:`/`opp:` + window, "(response)" when
something was on the stack),
deck A's win rate (draws ½) in each mode, and the paired differences free − free-old, stops − stops-old
(stops-old − app, hold − app) with their 95% intervals. With `--json`, a partial report (`"partial": true`)
is written every few matches while it runs.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import math
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from c1k_tui.model.paths import DEFAULT_STOPS  # noqa: E402
from c1k_tui.model.seats import AI_STOPS  # noqa: E402

MODES = ("free-old", "free", "stops-old", "stops", "app", "hold")


def classic_evaluate(g: Any, player: int) -> int:
    """`engine.ai.evaluate` before issue #20 item 7: a "this turn" buff counted like a lasting one, and a Fast
    card in hand worth no more than any other."""
    from engine.ai import WIN_SCORE, life_value, unit_value
    if g.outcome is not None:
        w = g.outcome.winner
        return 0 if w is None else (WIN_SCORE if w == player else -WIN_SCORE)
    score = 0
    for p, sign in ((player, 1), (1 - player, -1)):
        ps = g.players[p]
        s = life_value(ps.life)
        for u in ps.board:
            if u:
                s += unit_value(g, u)
        for r in ps.relics:
            if r:
                s += 10 + 10 * g.card(r).cost
        s += 20 * len(ps.hand) + 20 * len(ps.set_cards) + 6 * ps.capacity
        s += min(len(ps.library), 10)
        score += sign * s
    return score


class Classic:
    """An engine agent deciding as it did before issue #20 item 7: while it decides, `engine.ai.evaluate` is
    the classic one and greedy's play-out goes on through the phase a candidate left the game in (greedy and
    search look both names up when they run)."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.name = f"{agent.name}-old"

    def act(self, info: Any) -> Any:
        import engine.ai as ai
        new, play_out = ai.evaluate, ai._play_out_phase

        def classic_play_out(g: Any, policy: Any, limit: int = 400, turn_of: Any = None) -> None:
            play_out(g, policy, limit)          # the phase the game is in after the candidate, as before

        ai.evaluate, ai._play_out_phase = classic_evaluate, classic_play_out
        try:
            return self.agent.act(info)
        finally:
            ai.evaluate, ai._play_out_phase = new, play_out


def holding_greedy(seed: int) -> Any:
    """Greedy (classic evaluation) that keeps Fast Actions for the opponent's turn: in its own turn, on an
    empty stack, playing one is not a candidate unless it wins the match."""
    from engine.actions import Play
    from engine.ai import (
        WIN_SCORE,
        GreedyAgent,
        _order_key,
        _play_out_phase,
        _prefer,
        candidates,
        reply_policy,
    )
    from engine.rng import SplitMix64, derive_seed
    from engine.sampling import InfoSet, mix

    evaluate = classic_evaluate

    class HoldingGreedy(GreedyAgent):
        def act(self, info: InfoSet) -> Any:
            s = mix(self.seed, info.key)
            rng = SplitMix64(s)
            games = [info.sample(derive_seed(s, i)) for i in range(self.samples)]
            g0 = games[0]
            acts = candidates(g0, rng)
            if len(acts) == 1:
                return acts[0]
            me = info.player
            quiet = g0.active == me and not g0.stack
            best, best_score = acts[0], None
            for a in sorted(acts, key=_order_key):
                fast_action = (isinstance(a, Play) and g0.card(a.card).type == "action"
                               and g0.card(a.card).speed == "fast")
                score = 0
                for gs in games:
                    g = gs.clone()
                    g.apply(a, me)
                    _play_out_phase(g, reply_policy(SplitMix64(rng.next())))
                    score += evaluate(g, me)
                if quiet and fast_action and score < WIN_SCORE * len(games):
                    continue               # held for the opponent's turn
                if best_score is None or score > best_score or (score == best_score and _prefer(a, best)):
                    best, best_score = a, score
            return best

    return HoldingGreedy(seed)


@dataclass
class Outcome:
    mode: str
    pair: int
    k: int
    points_a: float
    instants: list[int]                       # per seat A, B
    windows: dict[str, int] = field(default_factory=dict)   # deck A's instant plays by window


def play_one(args: tuple[str, str, str, int, bool, str, int, int]) -> Outcome:
    deck_a_path, deck_b_path, agent, seed, a_first, mode, pair, k = args
    from c1k_tui.model.seats import fair_action
    from c1k_tui.model.session import Flow
    from engine import Game, MatchOptions, derive_seed, load_card_db, load_deck
    from engine.actions import Activate, Interrupt, Play
    from engine.ai import make_agent
    from engine.sampling import InfoSet
    from engine.state import MAIN, WINDOWS, player_name

    db = load_card_db()
    da, dbk = load_deck(Path(deck_a_path), db, playtest=True), load_deck(Path(deck_b_path), db, playtest=True)
    first, second = (da, dbk) if a_first else (dbk, da)
    game = Game.new(db, first, second, seed, MatchOptions(max_turns=200))
    seat_a = 0 if a_first else 1
    # the other seat is always the classic agent; the tested seat is the new one unless the mode ends in -old
    agents: list[Any] = [Classic(make_agent(agent, derive_seed(seed, 1 + (p != seat_a)))) for p in (0, 1)]
    if mode in ("free", "stops"):
        agents[seat_a] = make_agent(agent, derive_seed(seed, 1))
    elif mode == "hold":
        agents[seat_a] = holding_greedy(derive_seed(seed, 1))
    flow = None
    if not mode.startswith("free"):
        stops = {player_name(p): list(AI_STOPS if (mode != "app" and p == seat_a) else DEFAULT_STOPS)
                 for p in (0, 1)}
        flow = Flow("stops", stops)
    instants = [0, 0]
    windows: Counter[str] = Counter()
    n = 0
    while not game.is_terminal() and n < 20000:
        p = game.current_player()
        a = fair_action(game, flow) if flow is not None else None
        if a is None:
            a = agents[p].act(InfoSet(game, p))
        if isinstance(a, Interrupt) or (isinstance(a, Play | Activate)
                                        and (p != game.active or game.stack or game.win != MAIN)):
            side = 0 if p == seat_a else 1
            instants[side] += 1
            if side == 0:
                windows[("opp:" if p != game.active else "own:") + WINDOWS[game.win]
                        + (" (response)" if game.stack or isinstance(a, Interrupt) else "")] += 1
        game.apply(a, p)
        n += 1
    w = game.outcome.winner if game.outcome else None
    pts = 0.5 if w is None else (1.0 if w == seat_a else 0.0)
    return Outcome(mode, pair, k, pts, instants, dict(windows))


def _set_fast_held(v: int | None) -> None:
    if v is not None:
        import engine.ai
        engine.ai.FAST_HELD = v


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--agent", default="greedy")
    ap.add_argument("--matches", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--decks", default="all")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--modes", default=",".join(MODES), help="which of " + ", ".join(MODES))
    ap.add_argument("--fast-held", type=int, default=None,
                    help="an experiment: engine.ai.FAST_HELD for the new agent (default: the engine's)")
    a = ap.parse_args()
    from engine import bundled_deck_paths, derive_seed, find_deck

    paths = ([str(p) for p in bundled_deck_paths()] if a.decks == "all"
             else [str(find_deck(n)) for n in a.decks.split(",")])
    pairs = [(x, y) for i, x in enumerate(paths) for y in paths[i + 1:]]
    modes = a.modes.split(",")
    # round k of every pair before round k + 1, so that a partial report covers every pair alike
    jobs = [(x, y, a.agent, derive_seed(derive_seed(a.seed, pi), k), k % 2 == 0, mode, pi, k)
            for k in range(a.matches) for pi, (x, y) in enumerate(pairs) for mode in modes]
    outs: list[Outcome] = []
    with cf.ProcessPoolExecutor(a.workers, initializer=_set_fast_held, initargs=(a.fast_held,)) as pool:
        for o in pool.map(play_one, jobs):
            outs.append(o)
            if a.json and len(outs) % (10 * len(modes)) == 0 and len(outs) < len(jobs):
                a.json.write_text(json.dumps(make_report(a, modes, outs, partial=True), indent=1) + "\n")
    text = json.dumps(make_report(a, modes, outs), indent=1)
    print(text)
    if a.json:
        a.json.write_text(text + "\n")


def make_report(a: argparse.Namespace, modes: list[str], outs: list[Outcome], partial: bool = False) -> dict[str, Any]:
    """The report of the matches played (a partial one: of the (pair, round)s every mode has finished)."""
    by = {(o.mode, o.pair, o.k): o for o in outs}
    done = {(o.pair, o.k) for o in outs if all((m, o.pair, o.k) in by for m in modes)}
    outs = [o for o in outs if (o.pair, o.k) in done]
    report: dict[str, Any] = {"agent": a.agent, "matches_per_mode": len(done), "seed": a.seed,
                              "matches_per_pair": a.matches, "modes": {}}
    if partial:
        report["partial"] = True
    for mode in modes:
        os_ = [o for o in outs if o.mode == mode]
        if not os_:
            continue
        wins = sum(o.points_a for o in os_)
        win_windows: Counter[str] = Counter()
        for o in os_:
            win_windows.update(o.windows)
        report["modes"][mode] = {
            "matches": len(os_), "win_rate_a": round(wins / len(os_), 4),
            "instant_plays_per_match_a": round(sum(o.instants[0] for o in os_) / len(os_), 3),
            "instant_plays_per_match_b": round(sum(o.instants[1] for o in os_) / len(os_), 3),
            "matches_with_an_instant_play_a": sum(1 for o in os_ if o.instants[0]),
            # the sense: in the opponent's turn or in response (not one's own combat or draw)
            "opp_turn_or_response_per_match_a": round(sum(
                n for o in os_ for w, n in o.windows.items() if w.startswith("opp:") or w.endswith("(response)"))
                / len(os_), 3),
            "by_window_a": dict(win_windows.most_common()),
        }
    for new, base in (("free", "free-old"), ("stops", "stops-old"), ("stops-old", "app"), ("hold", "app")):
        if new not in modes or base not in modes or not outs:
            continue
        diffs = [by[(new, o.pair, o.k)].points_a - o.points_a for o in outs if o.mode == base]
        mean = sum(diffs) / len(diffs)
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1))
        half = 1.959963984540054 * sd / math.sqrt(len(diffs))
        report[f"{new}_minus_{base}"] = {"diff": round(mean, 4), "ci95": [round(mean - half, 4), round(mean + half, 4)],
                                         "paired_matches": len(diffs)}
    return report


if __name__ == "__main__":
    main()
