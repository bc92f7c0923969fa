"""The hot-seat flow lives in the model (issue 27, "First: the flow lives in the model"): a whole match is
played through `MatchFlow` alone — no Textual — two greedy agents at one keyboard with hands hidden, each
typing its command as a player would.

It checks the flow's promises as the App renders them: the keyboard changes hands only through a hand-off
(rules.md §7a: never one player's table before the other's eyes), "your turn" only for the player who
already holds it, each table is the deciding player's with the opponent's hand hidden, the engine's
questions come as prompts to the player asked, and the record the match leaves is the engine's own: the
commands typed are in it in order, and replaying it through the engine gives the same game, bit for bit.
"""

from __future__ import annotations

import pytest

from c1k_tui.model.flow import MatchFlow, ShowBanner, ShowGameOver, ShowHandOff, ShowTable
from c1k_tui.model.session import Flow, MatchSession, game_from_record
from engine import InfoSet, derive_seed, make_agent
from engine.state import MatchOptions


def play_through_the_model(seed: int, flow: str = "stops") -> dict[str, object]:
    from c1k_tui.cli import main as cli

    db = cli._db()
    decks = cli._decks(db, "ironbound", "emberfall")
    session = MatchSession.new(db, decks, seed, MatchOptions(), flow=Flow(flow), save_path=None, open_hands=False)
    m = MatchFlow(db=db)
    m.start(session)
    agents = [make_agent("greedy", derive_seed(seed, p)) for p in (0, 1)]
    keyboard, handoffs, banners, prompts, typed = -1, 0, 0, 0, []
    turn_seen, turn_starts = [-1, -1], 0
    over: ShowGameOver | None = None
    for _ in range(20000):
        nxt = m.next()
        g = session.game
        if isinstance(nxt, ShowGameOver):
            over = nxt
            break
        if isinstance(nxt, ShowHandOff):
            h = nxt.handoff
            assert h.player != keyboard, "a hand-off to the player who already holds the keyboard"
            # the hand-off that begins the incoming player's own turn reads as the turn banner (tui.md round 3)
            assert h.turn_start == (g.active == h.player and turn_seen[h.player] < g.turn), (h, g.turn)
            turn_starts += h.turn_start
            m.took(h)
            turn_seen[h.player] = h.turn
            keyboard, handoffs = h.player, handoffs + 1
            continue
        if isinstance(nxt, ShowBanner):
            assert nxt.turn.player == keyboard, "a turn banner for a player who doesn't hold the keyboard"
            assert g.turn == nxt.turn.turn
            m.took(nxt.turn)
            banners += 1
            continue
        assert isinstance(nxt, ShowTable), nxt
        actor = g.current_player()
        turn_seen[actor] = g.turn
        # the table is shown only to the player who holds the keyboard, and it is theirs to decide on
        assert nxt.viewer == keyboard == actor == m.viewer
        view = m.view_for(nxt.viewer)
        assert view.viewer == actor and view.top_hand is None     # the opponent's hand: hidden
        asked = g.decision.kind in ("interrupt", "choice")
        assert (nxt.prompt is not None) == asked, "a question of the engine's comes as a prompt"
        prompts += asked
        command = str(agents[actor].act(InfoSet(g, actor)))
        out = m.send(command)
        assert out.then in ("next", "present") and out.sent, (command, out)
        typed.append(f"p{actor + 1}: {command}")
        m.pace_plan(out.since) if out.then == "next" else None
    assert over is not None and session.game.is_terminal(), "the match did not end"
    assert m.next() is None                   # the game-over screen once
    return {"session": session, "db": db, "handoffs": handoffs, "banners": banners, "prompts": prompts,
            "typed": typed, "over": over, "turn_starts": turn_starts}


@pytest.mark.parametrize(("seed", "flow"), [(7, "stops"), (11, "stops"), (7, "full"), (7, "learning")])
def test_a_whole_greedy_match_through_the_model(seed: int, flow: str) -> None:
    got = play_through_the_model(seed, flow)
    session = got["session"]
    assert isinstance(session, MatchSession)
    g = session.game
    # hot seat with hands hidden: each player decides at least once a turn, so the keyboard changed hands
    assert isinstance(got["handoffs"], int) and got["handoffs"] >= g.turn - 1
    # most turns begin with a turn banner: a hand-off to their player that reads as one, or the banner
    # itself when that player already holds the keyboard
    assert isinstance(got["turn_starts"], int) and isinstance(got["banners"], int)
    assert got["turn_starts"] + got["banners"] >= g.turn // 2
    # the record is the engine's: the typed commands, in order, and between them only what the flow
    # options passed for a player (`session.auto`, marked "(auto)" in the log) …
    record, typed = list(g.record), got["typed"]
    assert isinstance(typed, list)
    mine = [i for i in range(len(record)) if i not in session.auto]
    assert [record[i] for i in mine] == typed
    # … and replaying it through the engine gives the same game, bit for bit
    replayed, _ = game_from_record(session.record(), got["db"])      # type: ignore[arg-type]
    assert list(replayed.record) == record
    assert replayed.state_hash() == g.state_hash()
    over = got["over"]
    assert isinstance(over, ShowGameOver) and over.summary.commands == len(record)
