"""The hot-seat model (c1k_tui/model/table.py, issue #18): hand-offs as plain functions, no Textual.

rules.md §7a: with hands hidden, whether and when the keyboard changes hands depends only on public
facts. These tests drive `Table` and `MatchSession` directly (milliseconds, no Pilot): two matches with
the same public history and different hidden hands give the same values — hand-offs, their public
recaps, the tables shown — and a player is handed the keyboard only where they could decide, judged on
public facts (`respond.could_respond`), with their own Main Phase always a stop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from c1k_tui.model.recap import recap_for
from c1k_tui.model.respond import could_respond, unseen
from c1k_tui.model.session import Flow, MatchSession, PublicLists, auto_action
from c1k_tui.model.table import GameOver, HandOff, ShowTable, Table, YourTurn, handoff_due
from engine import Pass, observe
from engine.cards import CardDB
from tests.tui.conftest import flow_data, session_from

#: p2's hidden hand in each match: a usable Fast card and a Nullify; nothing usable; a Fast card; a Nullify
HANDS = (["Emberlash", "Swallowed Word"], ["Test Recruit", "Test Wall"], ["Test Bolt", "Test Recruit"],
         ["Swallowed Word", "Test Recruit"])
#: p2's hidden cards (hand + library) are the same in every match; only which of them are in the hand differs
POOL = ["Emberlash", "Swallowed Word", "Test Bolt", "Test Recruit", "Test Recruit", "Test Wall"]
#: the public deck lists: every card either seat may hold
LIST = ("Test Favor", "Test Recruit", "Test Recruit", "Test Recruit", "Test Recruit", "Test Recruit", "Test Wall",
        "Test Wall", "Emberlash", "Swallowed Word", "Test Bolt")


def _library(hand: list[str]) -> list[str]:
    rest = list(POOL)
    for card in hand:
        rest.remove(card)
    return ["Test Recruit"] * 4 + sorted(rest)


def _session(db: CardDB, hand: list[str], influence: int = 3, flow: str = "stops") -> MatchSession:
    data = flow_data()
    data["p1"]["hand"] = ["Test Favor", "Test Recruit"]
    data["p2"]["hand"] = hand
    data["p2"]["library"] = _library(hand)
    data["p2"]["influence"] = influence
    s = session_from(db, data, flow=flow)
    s.lists = PublicLists((LIST, LIST), db)
    s.run_autos()
    return s


def _command(g: Any, played: list[bool]) -> str:
    """The same public history whatever p2 holds: p1 plays an Action, attacks; p2 never uses a card."""
    d = g.decision
    p = g.current_player()
    if d.kind == "interrupt":
        return "decline"
    if d.kind == "choice":
        return "choose 1"
    if d.kind == "attackers":
        return f"attack #{g.players[0].units()[0]}" if p == 0 else "attack none"
    if d.kind == "blockers":
        return "block none"
    if p == 0 and g.window == "main.priority" and not g.stack and not played[0]:
        played[0] = True
        return 'play "Test Favor"'
    return "pass"


def values(s: MatchSession, turns: int = 6, p1_only: bool = True,
           command: Callable[[Any, list[bool]], str] = _command,
           after: Callable[[MatchSession, int], str | None] | None = None) -> list[str]:
    """Every value the model returns until `turns` that p1 sees, as text: hand-offs (both players read
    them) with their public recap in full, and p1's own tables (p2's tables are p2's alone). `command`:
    what the deciding player sends; `after(session, actor)`: a line to add after each command (or None)."""
    table = Table(s)
    out: list[str] = []
    played = [False]
    for _ in range(400):
        g = s.game
        if g.is_terminal() or g.turn >= turns:
            break
        shown = table.next()
        if isinstance(shown, GameOver):
            break
        if isinstance(shown, HandOff):
            recap = recap_for(g, -1, shown.public_since, title="public").plain
            out.append(f"HAND-OFF p{shown.player + 1} {shown.what} ({shown.rule}) T{shown.turn} {shown.window} "
                       f"{shown.announce}\n{recap}")
            table.took(shown)
            continue
        if isinstance(shown, YourTurn):
            out.append(f"YOUR TURN p{shown.player + 1} T{shown.turn}")
            table.took(shown)
            continue
        assert isinstance(shown, ShowTable)
        if shown.viewer == 0 or not p1_only:
            out.append(f"TABLE p{shown.viewer + 1} T{observe(g, shown.viewer).turn} {g.window} {shown.prompt}")
        actor, seen, before = g.current_player(), len(g.events), len(g.record)
        if s.send(command(g, played)).ok:
            table.accepted(actor, seen, s.game.record[before] if len(s.game.record) > before else "")
        line = after(s, actor) if after is not None else None
        if line is not None:
            out.append(line)
    assert s.game.turn >= turns, f"the scripted match did not reach turn {turns}"
    return out


@pytest.mark.parametrize("flow", ["stops", "full"])
def test_rules_7a_same_public_history_same_handoffs_and_recaps(db: CardDB, flow: str) -> None:
    base = values(_session(db, HANDS[1], flow=flow))
    assert sum(v.startswith("HAND-OFF") for v in base) >= 4
    for hand in HANDS[:1] + HANDS[2:]:
        assert values(_session(db, hand, flow=flow)) == base, hand


def test_rules_7a_no_handoff_to_a_player_who_cannot_respond(db: CardDB) -> None:
    """With no Influence, nothing of p2's public deck list is affordable and their Champion's abilities
    cost Influence: after p1's Action p2 gets no hand-off just to pass — whatever p2 holds."""
    rich = values(_session(db, HANDS[0], influence=3), turns=4)
    poor = [values(_session(db, hand, influence=0), turns=4) for hand in HANDS]
    assert all(p == poor[0] for p in poor)
    handoffs = [sum(v.startswith("HAND-OFF") for v in x) for x in (rich, poor[0])]
    assert handoffs[1] < handoffs[0]
    first_t3 = [v for v in poor[0] if " T3 " in v.split("\n")[0]]
    assert not any(v.startswith("HAND-OFF p2 see what happened") for v in first_t3), "p2 handed the keyboard to pass"
    assert any(v.startswith("HAND-OFF p2 declare blockers") for v in first_t3)      # a decision of theirs


def test_rules_7a_own_main_phase_is_a_stop_with_hands_hidden(db: CardDB) -> None:
    """Stops the other player could have unticked never lose your own Main Phase while hands are hidden."""
    s = _session(db, HANDS[1])
    g = s.game
    assert g.window == "main.priority" and g.current_player() == 0 and not g.stack
    none = Flow("stops", {"p1": [], "p2": []})
    assert auto_action(g, none, hidden=True, lists=s.lists) is None
    assert auto_action(g, none, hidden=True, lists=None) is None          # a scenario's match too
    assert isinstance(auto_action(g, none, hidden=False), Pass)           # open hands: the stops decide


def test_could_respond_reads_public_facts(db: CardDB) -> None:
    s = _session(db, HANDS[1])
    g = s.game
    side = observe(g, 0).side(1)
    left = unseen(LIST, side, [observe(g, 0).side(0)])
    assert left["test wall"] == 1                     # of two listed, the one in play has been seen
    assert left["emberlash"] == 1                     # may be in the hand, whatever the hand holds
    assert could_respond(g, 1, LIST, db)
    poor = _session(db, HANDS[0], influence=0)
    assert not could_respond(poor.game, 1, LIST, db)


def test_handoff_due_is_a_function_of_public_facts() -> None:
    assert handoff_due(1, 0, open_hands=False)
    assert not handoff_due(1, 1, open_hands=False)
    assert not handoff_due(1, 0, open_hands=True)
    assert not handoff_due(-1, 0, open_hands=False)


def test_stops_only_your_own_and_announced_to_the_other_player(db: CardDB) -> None:
    """tui.md round 2: the options list only the keyboard holder's own stops; a change is public and
    announced to the other player at their next hand-off, once."""
    from c1k_tui.screens.options_modal import OptionsModal

    s = _session(db, HANDS[1])
    modal = OptionsModal(s.flow, ("Mira", "Tomas"), False, False, hidden=True, holder=0)
    keys = [c.key for c in modal.choices()]
    assert any(k.startswith("p1|") for k in keys) and not any(k.startswith(("p2|", "quick-p2", "pace-p2")) for k in keys)
    table = Table(s)
    before = Flow(s.flow.mode, {k: list(v) for k, v in s.flow.stops.items()})
    after = Flow(s.flow.mode, {"p1": ["own:main.priority", "opp:combat.declare_blockers"], "p2": list(s.flow.stops["p2"])})
    table.options_changed(0, before, after)
    h = table.handoff(1, "see what happened, then act or pass")
    assert h.announce == ("Mira now stops at: own turn — main.priority; opponent's turn — combat.declare_blockers",)
    table.took(h)
    assert table.handoff(1, "again").announce == ()


def test_a_turn_never_starts_silently_under_your_keys(db: CardDB) -> None:
    """tui.md round 2: a player who keeps the keyboard into their own new turn is shown "Turn N — your
    turn" first (a stop in the opponent's End Phase keeps p1 at the keyboard across the turn change)."""
    s = _session(db, HANDS[1])
    s.lists = None                       # every stop asks (a stop p1 can't use would be skipped)
    s.flow.stops["p1"] = sorted({*s.flow.stops["p1"], "opp:end.final"})
    table = Table(s)
    shown_turns: list[tuple[str, int, int]] = []
    for _ in range(200):
        g = s.game
        if g.is_terminal() or g.turn > 5:
            break
        shown = table.next()
        if isinstance(shown, HandOff | YourTurn):
            shown_turns.append((type(shown).__name__, shown.player, shown.turn))
            table.took(shown)
            continue
        d = g.decision.kind
        s.send("attack none" if d == "attackers" else "block none" if d == "blockers" else
               "decline" if d == "interrupt" else "choose 1" if d == "choice" else "pass")
    assert ("HandOff", 0, 4) in shown_turns                # asked in Tomas's End Phase…
    assert ("YourTurn", 0, 5) in shown_turns               # …and kept the keyboard into turn 5
    assert not any(kind == "YourTurn" and p == 1 for kind, p, _ in shown_turns)


def test_a_typed_command_is_checked_as_its_typist_without_sending(db: CardDB) -> None:
    """The model takes a command and returns a value: Checked, or Refused with the rule — nothing sent."""
    from c1k_tui.model.table import Checked, Refused

    s = _session(db, HANDS[0])
    table = Table(s)
    h = table.next()
    assert isinstance(h, HandOff) and h.player == 0
    table.took(h)
    assert isinstance(table.next(), ShowTable)
    records = len(s.game.record)
    assert table.check("pass") == Checked(0, Pass())
    other = table.check("p2: pass")
    assert isinstance(other, Refused) and other.rule == "C1K 10" and other.kind in ("illegal", "not_yours")
    typo = table.check("fly to the moon")
    assert isinstance(typo, Refused) and typo.kind == "malformed" and typo.reason
    hidden = table.check('play "Emberlash"')          # p2's card: to p1 it exists nowhere
    assert isinstance(hidden, Refused) and "Swallowed Word" not in hidden.reason      # names only p1's cards
    assert len(s.game.record) == records


def test_the_second_players_coin_counts_as_a_response_until_it_is_played(db: CardDB) -> None:
    """RULES Second player × #18 item 2: the Coin is in no deck list, but its gift and its play are public.
    While the second player holds it (cost 0, Fast) they could respond, so a stop of theirs is not
    skipped; once it is on the stack it counts no more. Read from public events only."""
    from c1k_tui.model.respond import coins_in_hand
    from engine import Game, find_deck, load_deck

    decks = [load_deck(find_deck("emberfall"), db), load_deck(find_deck("ironbound"), db)]
    g = Game.new(db, decks[0], decks[1], 5)
    assert g.options.compensates("coin")
    second = 1 - observe(g, 0).active
    assert coins_in_hand(g, second, db) == 1 and coins_in_hand(g, 1 - second, db) == 0
    lists = PublicLists.of(decks, db)
    assert lists is not None
    while g.current_player() != second:
        g.apply(Pass(), g.current_player())
    assert observe(g, second).me.influence == 0           # nothing of the deck list is affordable ...
    assert could_respond(g, second, lists.names[second], db)   # ... but the Coin is
    coin = next(h.cid for h in observe(g, second).hand if h.name == "The Coin")
    g.apply_command(f"play #{coin}", second)
    assert coins_in_hand(g, second, db) == 0
