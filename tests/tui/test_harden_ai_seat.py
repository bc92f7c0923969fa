"""Issue #23 item 7: an AI seat that tells nothing (rules.md §7a).

- Timing: against a human no AI answer shows sooner than the floor, and the floor covers the level's
  longest search (`LEVEL_FLOOR_MS`); with hands hidden `--pace 0` doesn't lower it (issue #28 item 6). A
  search that still outlasts it shows at the next multiple of the floor (a quantum) and raises the floor
  to that multiple for the rest of the match, so forced and searched answers keep showing after the same
  time. The clock is injected: no timed assertion.
- Undo can't take back a decision the AI chose from its hidden cards (asking it again after another
  attack would compare two answers); a forced one is undone as before.
- `InfoSet` holds only what its player may know: the game it keeps is a sample, equal for twins that
  differ in hidden cards; the real game is not reachable from it.
- An agent's seed comes from the match seed through SHA-256 (the record shows it; the match seed, which
  fixes the opening shuffle, must not follow from it)."""

from __future__ import annotations

import gc
import hashlib
from typing import Any

from c1k_tui.model.pacing import LEVEL_FLOOR_MS
from c1k_tui.model.session import Flow
from c1k_tui.model.versus_session import VersusSession, agent_seed
from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.multi_choice_modal import MultiChoiceModal
from c1k_tui.screens.prompt_modal import PromptModal
from c1k_tui.screens.versus import Shown
from engine import Attack, Block, Decline, InfoSet, Pass
from engine.cards import CardDB
from engine.decks import find_deck, load_deck
from engine.rng import derive_seed
from engine.scenario import scenario_from_data
from engine.state import MatchOptions
from tests.test_ai import hidden_twin, midgame
from tests.tui.conftest import flow_data, run_app, snapshot_data

AI_CARDS = ["Emberlash", "Swallowed Word", "Test Recruit", "Test Wall", "Test Recruit", "Test Recruit"]


def _vs(db: CardDB, spec: str, hand: list[str] | None = None) -> VersusSession:
    data = flow_data()
    data["p1"]["hand"] = ["Test Favor", "Test Recruit"]
    if hand is not None:
        data["p2"]["hand"] = hand
        rest = list(AI_CARDS)
        for name in hand:
            rest.remove(name)
        data["p2"]["library"] = rest
    data["p2"]["influence"] = 3
    s = VersusSession.from_scenario(scenario_from_data(data, "<test>", db), db, "<test>", flow=Flow("stops"),
                                    agents={1: (spec, 5)})
    assert isinstance(s, VersusSession)
    return s


def _shown(db: CardDB, spec: str, search_s: list[float], hand: list[str], turns: int = 5) -> tuple[list[Shown], int, int]:
    """The AI's decisions as the human sees them, at `spec`'s floor, with an agent that 'searches' the
    next of `search_s` seconds (on the injected clock) at each real choice and no time on a forced one.
    Returns what was shown, how many answers were late, and the floor at the end."""
    s = _vs(db, spec, hand)
    app = C1KApp(db=db, session=s)
    app.versus_pace = 700
    clock = [0.0]
    times = list(search_s)

    class Searcher:
        name = "searcher"

        def act(self, info: InfoSet) -> Any:
            legal = info.legal_actions()
            if len(legal) > 1:
                clock[0] += times.pop(0) if len(times) > 1 else times[0]
            kind = info.view.decision.kind  # type: ignore[union-attr]
            if kind in ("attackers", "blockers"):
                return Attack(()) if kind == "attackers" else Block(())
            return next((a for a in legal if isinstance(a, Pass | Decline)), legal[0])

    def later(seconds: float, then: Any) -> None:
        clock[0] += seconds
        app.call_later(then)

    played = [False]

    def command(g: Any) -> str:
        d = g.decision
        if d.kind == "interrupt":
            return "decline"
        if d.kind == "choice":
            return "choose 1"
        if d.kind == "attackers":
            return f"attack #{g.players[0].units()[0]}"
        if d.kind == "blockers":
            return "block none"
        if g.window == "main.priority" and not g.stack and not played[0]:
            played[0] = True
            return 'play "Test Favor"'
        return "pass"

    async def body(pilot: Any) -> None:
        v = app.versus
        assert v is not None
        v.agents[1], v.clock, v.later = Searcher(), lambda: clock[0], later
        for _ in range(400):
            await app.workers.wait_for_complete()
            await pilot.pause()
            g = s.game
            if g.is_terminal() or g.turn >= turns:
                return
            if v.busy() or app.pacing:
                continue
            cmd = command(g)
            if isinstance(app.screen, PromptModal | MultiChoiceModal):
                app.screen.dismiss(cmd)
            else:
                app.send(cmd)
        raise AssertionError("the scripted match did not end")

    run_app(app, body)
    assert app.versus is not None
    return app.versus.shown, app.versus.slow, app.versus.floor_ms


def test_each_level_has_a_floor_above_its_longest_search_whatever_the_pace(db: CardDB) -> None:
    from c1k_tui.model.pacing import FAST_FLOOR_MS
    from c1k_tui.screens.versus import Versus

    for spec, level in (("search:1", 1), ("search:2", 2), ("search:3", 3), ("search:4", 4), ("random", 0),
                        ("greedy", 0)):
        floor = LEVEL_FLOOR_MS.get(level, FAST_FLOOR_MS)
        s = _vs(db, spec)
        app = C1KApp(db=db, session=s)
        assert Versus(app, s, 700).floor_ms == max(700, floor), spec
        assert Versus(app, s, 0).floor_ms == floor, f"{spec}: --pace 0 can't turn the floor off, hands hidden"
        assert Versus(app, s, 20_000).floor_ms == 20_000, "a slower pace wins"
        s.open_hands = True                                  # nothing hidden: --pace 0 turns it off
        assert Versus(app, s, 0).floor_ms == 0


def test_forced_and_searched_answers_show_after_the_same_time_at_level_4(db: CardDB) -> None:
    """ai:4 searching two thirds of its floor: every answer, forced or searched, shows at the floor."""
    f = LEVEL_FLOOR_MS[4]
    shown, slow, floor = _shown(db, "search:4", [0.66 * f / 1000], ["Emberlash", "Swallowed Word"])
    shown_none, _, _ = _shown(db, "search:4", [0.66 * f / 1000], ["Test Recruit", "Test Wall"])
    assert len(shown) >= 4 and slow == 0 and floor == f
    assert {x.ms for x in shown} == {f} and shown == shown_none


def test_a_search_longer_than_the_floor_shows_at_the_next_multiple_and_raises_it(db: CardDB) -> None:
    """A slow machine: a real choice takes 1.2 floors at ai:3 — shown at 2 floors, not at its own length;
    from then on the floor is 2 floors and every answer, forced or searched, shows there."""
    f = LEVEL_FLOOR_MS[3]
    shown, slow, floor = _shown(db, "search:3", [1.2 * f / 1000], ["Emberlash", "Swallowed Word"])
    assert slow == 1 and floor == 2 * f
    late = next(i for i, x in enumerate(shown) if x.ms != f)
    assert all(x.ms == f for x in shown[:late]) and all(x.ms == 2 * f for x in shown[late:])
    assert len(shown) > late + 2


def test_undo_cant_take_back_a_decision_the_ai_chose_from_its_hand(db: CardDB) -> None:
    data = snapshot_data()                  # p2 (the AI) holds Test Bolt and Influence: its pass is a choice
    scn = scenario_from_data(data, "<test>", db)
    s = VersusSession.from_scenario(scn, db, "<test>", flow=Flow("full"), agents={1: ("random", 5)})
    assert isinstance(s, VersusSession)
    s.send("pass")
    s.send("pass", 1)
    ok, why = s.undo_check()
    assert not ok and "the AI has decided since" in why
    assert "Test Bolt" not in why and "#" not in why.split("'")[-1]     # nothing of the AI's hand named
    assert not s.undo() and len(s.game.record) == 2


def test_an_infoset_holds_nothing_its_player_may_not_know() -> None:
    for seed in (3, 17):
        g = midgame(seed)
        t = hidden_twin(g, 0)
        a, b = InfoSet(g, 0), InfoSet(t, 0)
        assert a._game.state_hash() == b._game.state_hash()          # the kept game: a function of the view
        real = [g.card(c).id for c in g.players[1].hand]
        kept = [a._game.card(c).id for c in a._game.players[1].hand]
        assert [t.card(c).id for c in t.players[1].hand] != real
        assert kept == [b._game.card(c).id for c in b._game.players[1].hand]
        # nothing reachable from the information set is the real game or one of its parts
        secret = {id(g), id(g.players), id(g.defs), *(id(p) for p in g.players), id(g.players[1].hand)}
        seen: set[int] = set()
        todo: list[Any] = [a]
        while todo and len(seen) < 200_000:
            x = todo.pop()
            if id(x) in seen:
                continue
            seen.add(id(x))
            assert id(x) not in secret
            if isinstance(x, type) or type(x).__module__ == "builtins" and callable(x):
                continue
            todo.extend(gc.get_referents(x))


def test_agent_seeds_come_from_the_match_seed_through_sha256(db: CardDB) -> None:
    for seed in (0, 1, 2**63 + 5):
        for seat in (0, 1):
            want = int.from_bytes(hashlib.sha256(b"c1k-agent-seed\0" + seed.to_bytes(8, "big")
                                                 + bytes([0xA1, seat])).digest()[:8], "big")
            assert agent_seed(seed, seat) == want
            assert agent_seed(seed, seat) != derive_seed(seed, 0xA1 + seat)     # (the invertible step before)
    decks = [load_deck(find_deck("ironbound"), db), load_deck(find_deck("emberfall"), db)]
    s = VersusSession.new_vs(db, decks, 77, MatchOptions(), {1: "random"})
    assert s.record().agents == {"p2": ("random", agent_seed(77, 1))}
