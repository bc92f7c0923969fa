"""Playing against an agent and watching two agents (c1k_tui/screens/versus.py): a whole match through the app,
the AI's hand hidden in every screen, log line and recap (rules.md §7a), undo back to the human's last
decision, records that name the AI seats and resume to the same match, and the CLI options."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app as cli
from c1k_tui.cli.versus_play import ai_pair
from c1k_tui.model.builders import resume_session
from c1k_tui.model.session import Flow
from c1k_tui.model.versus_session import VersusError, VersusSession, agent_spec, transcript
from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.game_over import GameOverScreen
from c1k_tui.screens.multi_choice_modal import MultiChoiceModal
from c1k_tui.screens.prompt_modal import PromptModal
from c1k_tui.screens.versus import Shown, WatchScreen
from engine import Attack, Block, Decline, InfoSet, Pass, make_agent, observe
from engine import record as rec
from engine.cards import CardDB
from engine.decks import find_deck, load_deck
from engine.scenario import scenario_from_data
from engine.state import MatchOptions
from tests.tui.conftest import flow_data, run_app, snapshot_data

runner = CliRunner()


def vs_session(db: CardDB, spec: str = "random", seed: int = 11, max_turns: int = 6, tmp: Path | None = None,
               agents: dict[int, str] | None = None, flow: str = "stops") -> VersusSession:
    decks = [load_deck(find_deck("ironbound"), db), load_deck(find_deck("emberfall"), db)]
    decks[0].player, decks[1].player = "Mira", "AI"
    return VersusSession.new_vs(db, decks, seed, MatchOptions(max_turns=max_turns), agents or {1: spec},
                                flow=Flow(flow), save_path=(tmp / "m.json") if tmp else None,
                                open_hands=agents is not None and len(agents) == 2)


def scenario_vs(db: CardDB, data: dict[str, Any], spec: str = "random") -> VersusSession:
    scn = scenario_from_data(data, "<test>", db)
    s = VersusSession.from_scenario(scn, db, "<test>", flow=Flow("full"), agents={1: (spec, 5)})
    assert isinstance(s, VersusSession)
    return s


def human_command(g: Any, p: int, plays: bool = False) -> str:
    """The test's human: plays the first card it may (with `plays`), else passes (or declares nothing)
    when it may, else the first legal answer."""
    d = observe(g, p).decision
    assert d is not None
    if d.kind in ("attackers", "blockers"):
        return "attack none" if d.kind == "attackers" else "block none"   # (blocks are not listed)
    texts = [str(a) for a in d.legal]
    if plays and any(t.startswith("play ") for t in texts):
        return next(t for t in texts if t.startswith("play "))
    for t in ("pass", "attack none", "block none", "decline"):
        if t in texts:
            return t
    assert texts, observe(g, p).decision
    return texts[0]


def public_of_ai(g: Any, ai: int) -> set[int]:
    """The AI's card ids the human sees now: in play, on the stack, in the graveyard or the void."""
    ps = g.players[ai]
    ids = {c for c in ps.board + ps.relics if c} | set(ps.graveyard) | set(ps.void)
    return ids | {e.source for e in g.stack if e.kind == "card" and e.controller == ai}


def hidden_of_ai(g: Any, ai: int, seen: set[int] | None = None) -> tuple[set[int], set[str]]:
    """The AI's hidden card ids (hand, Set, library) and the names of those the human can't see anywhere;
    `seen`: ids the human saw in public before (e.g. a unit returned to the AI's hand), which are left out."""
    ids = (set(g.players[ai].hand) | set(g.players[ai].set_cards) | set(g.players[ai].library)) - (seen or set())
    v = observe(g, 1 - ai)
    public = {h.name for h in v.hand}
    for side in (v.me, v.opponent):
        public |= {u.name for u in side.units + side.relics if u is not None}
        public |= {c.name for c in side.graveyard_cards + side.void_cards}
        public |= {side.champion_name, side.seat_name}
    public |= {e.name for e in v.stack}
    public |= {g.card(c).name for c in seen or ()}
    names = {g.card(c).name for c in ids} - public
    return ids, names


def screen_text(app: C1KApp) -> str:
    """Everything the human's screen holds now: the view the widgets render, the recap, the status,
    and the SVG of the whole screen (tags stripped)."""
    ms = app.match_screen
    assert ms is not None
    recap = ms.query_one("#recap")
    svg = app.export_screenshot()
    plain = re.sub(r"<[^>]+>", " ", svg).replace("&#160;", " ")
    return "\n".join([repr(ms.view), str(recap.render()), ms.status, plain])


def assert_nothing_of_the_ai_hand(app: C1KApp, g: Any, ai: int, seen: set[int] | None = None) -> None:
    ids, names = hidden_of_ai(g, ai, seen)
    text = screen_text(app)
    for cid in ids:
        assert re.search(rf"#{cid}\b", text) is None and f"cid={cid}," not in text, cid
    for name in names:
        assert name not in text, name


async def drive(pilot: Any, app: C1KApp, checks: Any = None, limit: int = 400, plays: bool = True) -> int:
    """Play the human's side through the app until the match ends; returns the human decisions made."""
    s = app.session
    assert s is not None and app.versus is not None
    human = app.versus.human
    made = 0
    for _ in range(limit):
        await app.workers.wait_for_complete()
        await pilot.pause()
        g = s.game
        if g.is_terminal():
            return made
        if app.versus.busy():
            continue
        if checks is not None:
            checks()
        assert g.current_player() == human
        cmd = human_command(g, human, plays)
        if isinstance(app.screen, PromptModal | MultiChoiceModal):
            app.screen.dismiss(cmd)
        else:
            app.send(cmd)
        made += 1
    raise AssertionError("the match did not end")


def test_a_whole_short_match_against_the_random_agent_through_the_app(db: CardDB, tmp_path: Path) -> None:
    s = vs_session(db, "random", tmp=tmp_path, max_turns=8)
    app = C1KApp(db=db, session=s)
    app.versus_pace = 0
    seen: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        seen["human"] = await drive(pilot, app)
        seen["ai"] = app.versus.moves if app.versus else 0
        await pilot.pause()
        seen["screen"] = type(app.screen).__name__

    run_app(app, body)
    assert s.game.is_terminal() and seen["human"] >= 4 and seen["ai"] > 5
    assert any(c.startswith("p1: play ") for c in s.game.record)
    assert seen["screen"] == "GameOverScreen"
    # every AI command is in the record under its seat, and the saved record names the AI seat
    data = json.loads((tmp_path / "m.json").read_text())
    assert data["agents"] == {"p2": {"agent": "random", "seed": str(s.agents[1][1])}}
    assert sum(c["do"].startswith("p2: ") for c in data["commands"]) >= seen["ai"]
    assert rec.replay(rec.load(tmp_path / "m.json"), db).state_hash() == s.game.state_hash()


def test_nothing_of_the_ai_hand_in_any_screen_log_line_or_recap(db: CardDB) -> None:
    """rules.md §7a against an AI: at every human decision and after every AI move, the human's screen
    (view, log, recap, status, the whole SVG) holds no id of the AI's hidden cards and no name of one
    the human can't see elsewhere."""
    s = vs_session(db, "greedy", seed=4, max_turns=5)
    app = C1KApp(db=db, session=s)
    app.versus_pace = 0
    checked = {"n": 0}
    seen: set[int] = set()          # the AI's cards the human saw in public (a Duskveil Harrier returns to hand)

    def check() -> None:
        seen.update(public_of_ai(s.game, 1))
        assert_nothing_of_the_ai_hand(app, s.game, 1, seen)
        checked["n"] += 1

    async def body(pilot: Any) -> None:
        await drive(pilot, app, check)
        check()

    run_app(app, body)
    assert checked["n"] > 5
    # the AI's commands never reach the human's log as text that names a hidden card
    assert not any("p2:" in line and "set #" in line for line in app.match_screen.view.log)  # type: ignore[union-attr]


def test_rules_7a_nothing_of_the_ai_hand_in_the_humans_view_recap_or_move_lines(db: CardDB) -> None:
    """rules.md §7a against an AI, through the model (the fast twin of
    test_nothing_of_the_ai_hand_in_any_screen_log_line_or_recap, which also reads the whole screen's SVG):
    the same match against the greedy AI; at every human decision and after every AI move, what the
    screens are built from — the human's `MatchView` (hand, sides, stack, log, window), the recap since the
    human last decided and the AI's move line — holds no id of the AI's hidden cards and no name of one the
    human can't see elsewhere."""
    from c1k_tui.model.flow import MatchFlow
    from c1k_tui.model.recap import recap_entries
    from c1k_tui.model.versus_session import agent_label, move_line

    s = vs_session(db, "greedy", seed=4, max_turns=5)
    mf = MatchFlow()
    mf.start(s)
    g = s.game
    spec, seed = s.agents[1]
    agent, who = make_agent(spec, seed), agent_label(spec)
    seen: set[int] = set()           # the AI's cards the human saw in public (a Duskveil Harrier returns to hand)
    since, checked, said = 0, 0, ""

    def check(what: str) -> None:
        nonlocal checked
        seen.update(public_of_ai(g, 1))
        ids, names = hidden_of_ai(g, 1, seen)
        text = "\n".join([repr(mf.view_for(0)), mf.recap_for(0, since).plain, said])
        for cid in ids:
            assert re.search(rf"#{cid}\b", text) is None and f"cid={cid}," not in text, (what, cid)
        for name in names:
            assert name not in text, (what, name)
        checked += 1

    for _ in range(400):
        if g.is_terminal():
            break
        p = g.current_player()
        if p == 0:
            check("at the human's decision")
            since = len(g.events)
            assert s.send(human_command(g, 0, plays=True), 0).changed
            continue
        before = len(g.events)
        assert s.send(agent.act(InfoSet(g.clone(), 1)), 1).ok
        line = move_line(recap_entries(g, 0, before), 1, (observe(g, 1).me.name, who), who)
        said = str(line) if line is not None else said
        check("after the AI's move")
    assert g.is_terminal() and checked > 10, checked


def test_the_ai_thinks_in_a_worker_and_the_human_waits(db: CardDB) -> None:
    s = scenario_vs(db, snapshot_data(), "greedy")
    app = C1KApp(db=db, session=s)
    app.versus_pace = 0
    out: dict[str, Any] = {}

    gate = threading.Event()

    class Held:
        """The greedy agent, held until the test lets it answer (no timing in the test)."""
        name = "held"

        def __init__(self) -> None:
            self.inner = make_agent("greedy", 5)

        def act(self, info: InfoSet) -> Any:
            gate.wait(30)
            return self.inner.act(info)

    async def body(pilot: Any) -> None:
        await pilot.pause()
        assert s.game.current_player() == 0 and app.versus is not None
        app.versus.agents[1] = Held()
        app.versus.later = lambda seconds, then: app.call_later(then)   # the floor's hold (hands hidden: even
        # at pace 0), without a clock in the test
        await pilot.press("space")                     # p1 passes: the AI (p2) decides
        await pilot.pause()
        out["busy_after_pass"] = app.versus.busy()
        out["thinking"] = app.match_screen.status      # type: ignore[union-attr]
        n = len(s.game.record)
        app.send("pass")                               # a key while the AI decides changes nothing
        app.send("concede")                            # … nor concedes for the AI
        out["unchanged"] = len(s.game.record) == n and len(app.screen_stack) == 2
        out["status"] = app.match_screen.status        # type: ignore[union-attr]
        gate.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        out["moves"] = app.versus.moves if app.versus is not None else -1

    run_app(app, body)
    assert out["busy_after_pass"] and "is thinking" in out["thinking"] and out["unchanged"]
    assert "the AI is deciding" in out["status"]
    assert out["moves"] >= 1
    assert s.game.record[0] == "p1: pass" and s.game.record[1].startswith("p2: ")


#: the AI's (p2's) hidden cards: in its hand a usable Fast card and a Nullify, or nothing it can use outside
#: its own main (the two then in its library: its deck list, public, is the same)
AI_HANDS = (["Emberlash", "Swallowed Word"], ["Test Recruit", "Test Wall"])
AI_CARDS = ["Emberlash", "Swallowed Word", "Test Recruit", "Test Wall", "Test Recruit", "Test Recruit"]


def ai_decisions_shown(db: CardDB, hand: list[str], turns: int = 5) -> tuple[list[Shown], list[int], list[str]]:
    """The same public history against an AI holding `hand` (p1 plays an Action and attacks; the AI never
    uses a card), the AI's decisions paced by a floor of 700 ms on an injected clock: a forced answer
    takes no time, a real choice 0.3 s. Returns the AI decisions the human saw being made, how many
    legal actions the agent had at each, and the record."""
    data = flow_data()
    data["p1"]["hand"] = ["Test Favor", "Test Recruit"]
    data["p2"]["hand"] = hand
    rest = list(AI_CARDS)
    for name in hand:
        rest.remove(name)
    data["p2"]["library"] = rest
    data["p2"]["influence"] = 3
    s = VersusSession.from_scenario(scenario_from_data(data, "<test>", db), db, "<test>", flow=Flow("stops"),
                                    agents={1: ("random", 5)})
    assert isinstance(s, VersusSession)
    app = C1KApp(db=db, session=s)
    app.versus_pace = 700
    clock = [0.0]
    options: list[int] = []

    class Passer:
        """Never uses a card; 'searches' 0.3 s on the clock when it has a real choice."""
        name = "passer"

        def act(self, info: InfoSet) -> Any:
            legal = info.legal_actions()
            options.append(len(legal))
            clock[0] += 0.0 if len(legal) <= 1 else 0.3
            kind = info.view.decision.kind  # type: ignore[union-attr]
            if kind in ("attackers", "blockers"):
                return Attack(()) if kind == "attackers" else Block(())
            return next((a for a in legal if isinstance(a, Pass | Decline)), legal[0])

    def later(seconds: float, then: Any) -> None:
        clock[0] += seconds                      # the held answer shows when the clock reaches the floor
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
        assert v is not None and s.game.current_player() == 0
        v.agents[1], v.clock, v.later = Passer(), lambda: clock[0], later
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
        raise AssertionError(f"the scripted match did not reach turn {turns}: {s.game.record[-5:]} "
                             f"{s.game.decision} {app.screen} {app.match_screen.status if app.match_screen else ''}")

    run_app(app, body)
    assert app.versus is not None
    return app.versus.shown, options, list(s.game.record)


def test_the_ais_decisions_show_on_public_facts_only(db: CardDB) -> None:
    """rules.md §7a for timing: with the same public history, the AI holding a usable card or nothing
    usable is seen deciding at the same points, each answer showing after the same time (the floor) —
    forced or searched. Outside its public decision points the flow passes for it without asking it."""
    shown, options, record = ai_decisions_shown(db, AI_HANDS[0])
    shown_none, options_none, record_none = ai_decisions_shown(db, AI_HANDS[1])
    assert record == record_none                           # the same public history (the AI never plays)
    assert options != options_none                         # … while its hand gave it other choices
    assert any(n > 1 for n in options) and any(n == 1 for n in options_none)
    assert len(shown) >= 4 and shown == shown_none
    assert {x.ms for x in shown} == {700}
    assert {x.window for x in shown} >= {"main.priority"}
    # the flow passed for the AI where a stopped-out human is passed for: fewer questions than decisions
    ai_cmds = [c for c in record if c.startswith("p2: ")]
    assert len(shown) < len(ai_cmds)


def test_undo_goes_back_to_the_humans_last_decision(db: CardDB) -> None:
    """The flow's passes for the AI after the human's command (sent on public facts: outside the AI's
    stops) are undone with it. An answer the AI was asked for is never undone, forced or not: whether it
    had a choice is its hand's business (tests/tui/test_undo_public.py, test_harden_ai_seat.py)."""
    data = snapshot_data()
    scn = scenario_from_data(data, "<test>", db)
    s = VersusSession.from_scenario(scn, db, "<test>", flow=Flow("stops"), agents={1: ("random", 5)})
    assert isinstance(s, VersusSession)
    start = s.game.state_hash()
    s.send("pass")                          # the human (p1); the flow passes for the AI outside its stops
    assert len(s.game.record) >= 2 and s.undo_span() == len(s.game.record)
    assert all(i in s.auto for i in range(1, len(s.game.record)))
    app = C1KApp(db=db, session=s)
    app.versus_pace = 0
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert s.game.current_player() == 0
        out["before"] = len(s.game.record)
        await pilot.press("u")
        await pilot.pause()
        out["status"] = app.match_screen.status        # type: ignore[union-attr]

    run_app(app, body)
    assert out["before"] >= 2
    assert "back to your last decision" in out["status"]
    assert s.game.record == [] and s.game.state_hash() == start


def test_undo_is_refused_when_the_ai_revealed_a_card(db: CardDB) -> None:
    data = snapshot_data()
    s = scenario_vs(db, data)
    s.send("pass")
    g = s.game
    bolt = next(c for c in g.players[1].hand if g.card(c).name == "Test Bolt")
    knight = g.players[0].units()[0]
    s.send(f"play #{bolt} target #{knight}", 1)      # the AI plays a card from its hand: now seen
    ok, why = s.undo_check()
    assert not ok and "a card left a hand" in why


def test_same_seed_and_same_human_commands_give_the_same_match(db: CardDB) -> None:
    def play() -> tuple[str, list[str]]:
        s = vs_session(db, "search:1", seed=21, max_turns=3)
        g = s.game
        agents = {p: make_agent(spec, seed) for p, (spec, seed) in s.agents.items()}
        while not g.is_terminal():
            p = g.current_player()
            if p in agents:
                s.send(agents[p].act(InfoSet(g.clone(), p)), p)
            else:
                s.send(human_command(g, p))
        return g.state_hash(), list(g.record)

    assert play() == play()


def test_a_record_names_the_ai_seats_and_resumes_the_same_match(db: CardDB, tmp_path: Path) -> None:
    s = vs_session(db, "greedy", tmp=tmp_path)
    s.send(human_command(s.game, 0))
    s.save()
    r = rec.load(tmp_path / "m.json")
    assert r.agents == {"p2": ("greedy", s.agents[1][1])}
    back = resume_session(db, tmp_path / "m.json")
    assert isinstance(back, VersusSession) and back.agents == s.agents
    assert back.game.state_hash() == s.game.state_hash()
    # a record of two humans has no "agents" key (its bytes are as before)
    plain = C1KApp  # noqa: F841 - keep the import used
    two = vs_session(db, "greedy", tmp=tmp_path)
    two.agents = {}
    assert "agents" not in json.loads(two.record().to_json())


@pytest.mark.parametrize(("agents", "message"), [
    ({"p2": {"agent": "search:9", "seed": "1"}}, "unknown search level"),
    ({"p2": {"agent": "wizard", "seed": "1"}}, "unknown agent"),
    ({"p3": {"agent": "random", "seed": "1"}}, "agents"),
    ({"p2": {"agent": "random", "seed": "-4"}}, "seed"),
])
def test_a_bad_agent_seat_in_a_record_is_refused_with_a_message(db: CardDB, tmp_path: Path,
                                                               agents: dict[str, Any], message: str) -> None:
    s = vs_session(db, "random", tmp=tmp_path)
    s.save()
    data = json.loads((tmp_path / "m.json").read_text())
    data["agents"] = agents
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(rec.RecordError) as err:
        rec.load(bad)
    assert message in str(err.value)


def test_watching_two_agents_pause_step_and_run_to_the_end(db: CardDB) -> None:
    s = vs_session(db, agents={0: "random", 1: "random"}, max_turns=4)
    app = C1KApp(db=db, session=s)
    app.versus_pace = 0
    app.versus_paused = True                          # start paused: nothing moves until a key says so
    out: dict[str, Any] = {}

    async def settle(pilot: Any) -> None:
        for _ in range(5):
            await app.workers.wait_for_complete()
            await pilot.pause()

    async def body(pilot: Any) -> None:
        v = app.versus
        assert v is not None and v.watch and v.paused
        for _ in range(200):                         # the watch screen is up (its keys are bound there)
            if isinstance(app.screen, WatchScreen):
                break
            await pilot.pause()
        await settle(pilot)
        out["paused_still"] = len(s.game.record) == 0
        out["paused_title"] = v.title()
        await pilot.press("full_stop")               # one decision
        await settle(pilot)
        out["stepped"] = len(s.game.record)
        await pilot.press("p")                       # resume: to the end
        for _ in range(3000):
            if s.game.is_terminal():
                break
            await app.workers.wait_for_complete()
            await pilot.pause()
        out["hand"] = app.match_screen.view.top_hand is not None   # type: ignore[union-attr]
        for _ in range(200):                         # the game-over screen comes up (before the test ends:
            if isinstance(app.screen, GameOverScreen):   # not while the app is closing)
                break
            await pilot.pause()
        out["game_over_shown"] = isinstance(app.screen, GameOverScreen)

    run_app(app, body)
    assert out["paused_still"] and out["stepped"] == 1, out
    assert "BOTH HANDS SHOWN" in out["paused_title"] and "PAUSED" in out["paused_title"]
    assert s.game.is_terminal() and out["hand"], (out, len(s.game.record))
    assert out["game_over_shown"], out


# ---- the command line


def test_opponent_specs() -> None:
    assert agent_spec("human") == "" and agent_spec("ai") == "search"
    assert agent_spec("ai:3") == "search:3" and agent_spec("AI:greedy") == "greedy"
    assert agent_spec("ai:random") == "random" and agent_spec("ai:halving:2") == "halving:2"
    assert ai_pair("greedy,ai:1") == ("greedy", "search:1")
    for bad in ("robot", "ai:9", "ai:wizard"):
        with pytest.raises(VersusError):
            agent_spec(bad)
    with pytest.raises(VersusError):
        ai_pair("greedy")


@pytest.mark.parametrize(("args", "message"), [
    (["--vs", "ai:9"], "unknown search level '9'"),
    (["--vs", "robot"], "unknown opponent 'robot'"),
    (["--vs", "ai"], "needs a terminal"),
    (["--ai-vs-ai", "--agents", "greedy"], "give two agents"),
    (["--vs", "ai", "--text"], "not with --scenario or --text"),
    (["--ai-vs-ai", "--pace", "-5"], "--pace -5"),
])
def test_cli_refuses_bad_versus_options_with_a_message(args: list[str], message: str) -> None:
    res = runner.invoke(cli, ["play", *args])
    assert res.exit_code == 2 and message in res.output and "Traceback" not in res.output


def test_cli_ai_vs_ai_piped_prints_the_match_and_saves_its_record(tmp_path: Path, db: CardDB) -> None:
    out = tmp_path / "r.json"
    res = runner.invoke(cli, ["play", "ironbound", "emberfall", "--ai-vs-ai", "--agents", "ai:random,random",
                              "--seed", "3", "--save", str(out)])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert "both hands open" in lines[0]
    assert re.search(r"(wins|a draw) — .* · seed 3$", lines[-2])
    data = json.loads(out.read_text())
    assert set(data["agents"]) == {"p1", "p2"} and data["agents"]["p1"]["agent"] == "random"
    # the same seed gives the same match
    again = runner.invoke(cli, ["play", "ironbound", "emberfall", "--ai-vs-ai", "--agents", "random,random",
                                "--seed", "3"])
    assert again.output.splitlines()[:-1] == lines[:-2]


def test_transcript_without_terminal_plays_to_the_end(db: CardDB) -> None:
    s = vs_session(db, agents={0: "random", 1: "greedy"}, max_turns=3)
    lines: list[str] = []
    transcript(s, lines.append)
    assert s.game.is_terminal() and "turn" in lines[-1]


def test_the_start_screen_offers_an_ai_opponent(db: CardDB, tmp_path: Path) -> None:
    from textual.widgets import Select

    from c1k_tui.model.builders import StartChoice

    app = C1KApp(db=db, mode="start", start=StartChoice("ironbound", "emberfall", 9, "Mira", "p2", False, False,
                                                         "stops"), autosave=tmp_path / "a.json")
    app.versus_pace = 0
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        await pilot.pause()
        app.screen.query_one("#opponent", Select).value = "ai:greedy"
        await pilot.press("ctrl+s")
        await pilot.pause()
        out["session"] = app.session
        out["title"] = app.versus.title() if app.versus else ""

    run_app(app, body)
    s = out["session"]
    assert isinstance(s, VersusSession) and s.agents[1][0] == "greedy" and not s.open_hands
    assert "its hand is hidden" in out["title"]
    assert observe(s.game, 1).me.name == "AI (greedy)"


def test_resume_in_the_text_loop_refuses_a_match_against_an_ai(db: CardDB, tmp_path: Path) -> None:
    s = vs_session(db, "random", tmp=tmp_path)
    s.send(human_command(s.game, 0))
    res = runner.invoke(cli, ["resume", str(tmp_path / "m.json"), "--text"])
    assert res.exit_code == 2 and "match against an AI" in res.output and "Traceback" not in res.output


def test_a_rematch_swaps_seats_and_the_agent_moves_with_its_deck(db: CardDB) -> None:
    s = vs_session(db, "greedy")
    r = s.rematch(99)
    assert r.agents == {0: ("greedy", r.agents[0][1])} and r.humans == (1,)
    assert observe(r.game, 0).me.name == "AI" and observe(r.game, 1).me.name == "Mira"


def test_when_the_ai_begins_it_moves_at_once_and_the_human_sees_only_their_view(db: CardDB) -> None:
    decks = [load_deck(find_deck("ironbound"), db), load_deck(find_deck("emberfall"), db)]
    decks[0].player, decks[1].player = "Mira", "AI"
    s = VersusSession.new_vs(db, decks, 5, MatchOptions(first="p2", max_turns=3), {1: "random"})
    app = C1KApp(db=db, session=s)
    app.versus_pace = 0
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        for _ in range(200):
            await app.workers.wait_for_complete()
            await pilot.pause()
            if app.versus is not None and not app.versus.busy():
                break
        out["viewer"] = app.match_screen.view.viewer if app.match_screen and app.match_screen.view else -1
        out["moves"] = app.versus.moves if app.versus else 0
        assert_nothing_of_the_ai_hand(app, s.game, 1)

    run_app(app, body)
    assert out["moves"] >= 1 and out["viewer"] == 0
    assert s.game.record[0].startswith("p2: ")


def test_open_hands_against_the_ai_shows_its_hand_and_says_so(db: CardDB) -> None:
    decks = [load_deck(find_deck("ironbound"), db), load_deck(find_deck("emberfall"), db)]
    s = VersusSession.new_vs(db, decks, 5, MatchOptions(max_turns=3), {1: "random"}, open_hands=True)
    app = C1KApp(db=db, session=s)
    app.versus_pace = 0
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        await pilot.pause()
        out["title"] = app.versus.title() if app.versus else ""
        v = app.match_screen.view if app.match_screen else None
        out["top_hand"] = [c.cid for c in v.top_hand] if v is not None and v.top_hand is not None else None

    run_app(app, body)
    assert "its hand is SHOWN" in out["title"]
    assert out["top_hand"] is not None and len(out["top_hand"]) > 0
