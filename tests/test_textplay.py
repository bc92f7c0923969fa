"""`c1k play --text` hides too (rules.md §7a, §7): a hand-off between players, no hand in the other's
scrollback, the seed only once the match is over, and engine errors as messages."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app
from c1k_tui.cli.textplay import CLEAR, loop
from engine import observe
from engine import record as rec
from engine.cards import load_card_db
from engine.decks import find_deck, load_deck
from engine.game import Game

DB = load_card_db()
runner = CliRunner()


def _game(seed: int = 8_123_456_789_012_345_678) -> Game:
    decks = [load_deck(find_deck("ironbound"), DB), load_deck(find_deck("emberfall"), DB)]
    decks[0].player, decks[1].player = "Ana", "Tomas"
    return Game.new(DB, decks[0], decks[1], seed)


def _play(g: Game, lines: list[str], **kw: object) -> list[str]:
    script = iter(lines)
    out: list[str] = []

    def read(prompt: str) -> str:
        out.append(prompt)
        return next(script)

    try:
        loop(g, [], read, out.append, **kw)  # type: ignore[arg-type]
    except StopIteration:
        pass
    return out


def _hand_names(g: Game, p: int) -> list[str]:
    return [f"#{c.cid} {c.name}" for c in observe(g, p).hand]


def test_hot_seat_clears_the_screen_and_never_prints_a_hand_to_the_other_player() -> None:
    g = _game()
    hands = {p: set(_hand_names(g, p)) for p in (0, 1)}
    out = _play(g, ["pass", ""] * 40, handoff=True, auto_pass=True)
    text = "\n".join(out)
    assert text.count(CLEAR) >= 4, "each hand-off clears the screen (and the scrollback) twice"
    assert "── pass to Tomas (p2), press Enter ──" in text
    segments = text.split(CLEAR)
    assert "Hand of" not in segments[0] and "pass to Ana (p1), press Enter" in segments[1], \
        "even the first player is asked to take the keyboard (a resumed match may start with either)"
    seen_hands = 0
    for seg in segments:
        shown = {p for p in (0, 1) if f"Hand of {('Ana', 'Tomas')[p]}" in seg}
        assert len(shown) <= 1, "one screen shows one player's hand"
        for p in shown:
            seen_hands += 1
            other = hands[1 - p]
            assert not any(name in seg for name in other), f"{('Ana', 'Tomas')[1 - p]}'s opening hand on {p}'s screen"
    assert seen_hands >= 2
    assert "8123456789012345678" not in text, "no seed on screen while hands are hidden"


def test_open_hands_shows_both_hands_without_a_hand_off() -> None:
    g = _game()
    out = "\n".join(_play(g, ["pass"] * 6, open_hands=True, auto_pass=True))
    assert CLEAR not in out and "pass to" not in out
    assert "Hand of Ana" in out and "Hand of Tomas" in out


def test_piped_input_announces_the_change_of_player_without_waiting_for_enter() -> None:
    g = _game()
    out = "\n".join(_play(g, ["pass"] * 6, auto_pass=True))
    assert CLEAR not in out and "── pass to Tomas (p2) ──" in out


def test_the_seed_is_random_64_bit_hidden_and_shown_at_game_over(tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    res = runner.invoke(app, ["play", "--text", "--save", str(save)], input="concede\n")
    assert res.exit_code == 0, res.output
    seed = rec.load(save).seed
    assert 0 <= seed < 2**64
    before, _, after = res.output.partition("p1: concede")
    assert after and str(seed) not in before and f"wins — conceded · seed {seed}" in after
    seeds = set()
    for _ in range(3):
        runner.invoke(app, ["play", "--text", "--save", str(save)], input="concede\n")
        seeds.add(rec.load(save).seed)
    assert len(seeds) == 3 and max(seeds) > 2**32, "64 bits from the OS, not a small range"


def test_a_given_seed_is_used_and_a_bad_one_is_a_message() -> None:
    res = runner.invoke(app, ["play", "--text", "--seed", str(2**64)], input="")
    assert res.exit_code == 2 and "2^64" in res.output and res.exception is None or isinstance(res.exception,
                                                                                               SystemExit)


def test_an_endless_rules_loop_is_a_message_in_text_mode_and_in_the_app_session(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from c1k_tui.model.session import MatchSession
    from engine import RulesLoopError

    real = Game.apply

    def looping(self: Game, action: object, player: int | None = None) -> None:
        if str(action) == "concede":      # stands in for cards that trigger each other forever
            raise RulesLoopError("the stack passed 1000 items: the cards trigger each other forever")
        real(self, action, player)  # type: ignore[arg-type]

    monkeypatch.setattr(Game, "apply", looping)
    out = "\n".join(_play(_game(), ["concede", "pass"], auto_pass=True))
    assert "!! the stack passed 1000 items: the cards trigger each other forever — nothing changed" in out
    decks = [load_deck(find_deck("ironbound"), DB), load_deck(find_deck("emberfall"), DB)]
    s = MatchSession.new(DB, decks, 4, save_path=tmp_path / "m.json")
    res = s.send("concede")
    assert not res.ok and "nothing changed; a player may concede" in res.message and not res.changed


def test_learning_flow_lists_every_window_entered_with_its_rule_and_hides_the_other_hand() -> None:
    """Issue #11 item 5 in the text loop: with the learning flow, the news before a decision names every
    window entered — the turn-based ones with no decision included — with its rule id; with hidden hands
    each screen holds only what its player may know (rules.md §7a)."""
    g = _game()
    hands = {p: set(_hand_names(g, p)) for p in (0, 1)}
    out = _play(g, ["pass", ""] * 30, handoff=True, auto_pass=True, learning=True)
    text = "\n".join(out)
    for window in ("draw.draw (C1K 1.2)", "influence.gain (C1K 2.2)", "main.priority (C1K 3.1)",
                   "end.cleanup (C1K 5.2)"):
        assert window in text, f"{window} not listed"
    assert "nothing happened" in text
    for seg in text.split(CLEAR):
        for p in (0, 1):
            if f"Hand of {('Ana', 'Tomas')[p]}" in seg:
                assert not any(name in seg for name in hands[1 - p]), "the other player's opening hand shown"


def test_the_cli_text_loop_takes_the_learning_flow() -> None:
    res = runner.invoke(app, ["play", "--text", "--flow", "learning"], input="pass\n" * 8 + "concede\n")
    assert res.exit_code == 0, res.output
    assert "draw.start (C1K 1.1): nothing happened" in res.output
    plain = runner.invoke(app, ["play", "--text", "--flow", "stops"], input="pass\n" * 8 + "concede\n")
    assert "draw.start (C1K 1.1)" not in plain.output


def test_the_hand_off_waits_for_an_enter_typed_after_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # a double Enter after "pass" must not carry through the hand-off: what was typed ahead is dropped
    # just before the hand-off waits (rules.md §7a)
    import c1k_tui.cli.textplay as tp
    events: list[str] = []
    monkeypatch.setattr(tp, "discard_typeahead", lambda: events.append("discard"))
    script = iter(["pass", ""] * 6)

    def read(prompt: str) -> str:
        events.append(f"read:{prompt}")
        return next(script)

    try:
        loop(_game(), [], read, lambda s: None, handoff=True)
    except StopIteration:
        pass
    waits = [i for i, e in enumerate(events) if e == "read:"]
    assert waits and all(events[i - 1] == "discard" for i in waits)


def test_typed_ahead_input_is_dropped_at_a_real_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import sys

    from c1k_tui.cli.textplay import discard_typeahead
    master, slave = os.openpty()
    try:
        with os.fdopen(slave, "r", closefd=False) as tty_in:
            monkeypatch.setattr(sys, "stdin", tty_in)
            os.write(master, b"\n")                  # the outgoing player's second Enter, not read yet
            discard_typeahead()
            os.set_blocking(slave, False)
            with pytest.raises(BlockingIOError):
                os.read(slave, 10)                   # nothing left for the hand-off to take
    finally:
        os.close(master)
        os.close(slave)


# ---- tui.md round 2 (issue 18 item 10): checked before sending, readline with each player's own history


def _poor_game() -> Game:
    """p1 (Mira) to act in main.priority with a card she can't afford (Unmake, 4); p2 holds Emberlash."""
    from engine.scenario import build, scenario_from_data

    data = {
        "scenario": {"title": "poor", "seed": 5, "turn": 3, "active": "p1", "window": "main.priority"},
        "p1": {"name": "Mira", "life": 20, "influence": 1, "hand": ["Unmake"], "library": ["Unmake"] * 4},
        "p2": {"name": "Tomas", "life": 20, "influence": 3, "hand": ["Emberlash"], "library": ["Emberlash"] * 4},
    }
    return build(scenario_from_data(data, "<test>", DB))


def test_with_hands_hidden_a_refused_line_is_not_sent_and_the_opponent_learns_nothing() -> None:
    from engine import events_for

    g = _poor_game()
    before = [e.text for e in events_for(g, 1)]
    refusal = g.why_not(g.parse('play "Unmake"', 0)[1], 0)
    assert refusal is not None
    out = _play(g, ['play "Unmake"'])
    text = "\n".join(out)
    assert f"!! not sent: {refusal.reason} ({refusal.rule})" in text and "keep priority" in text
    assert g.record == [] and g.current_player() == 0            # not sent: Mira keeps priority
    assert [e.text for e in events_for(g, 1)] == before          # Tomas's view: nothing happened


def test_with_open_hands_a_refused_line_is_still_sent_c1k_10_is_taught() -> None:
    g = _poor_game()
    out = _play(g, ['play "Unmake"'], open_hands=True)
    assert "!! refused:" in "\n".join(out)
    assert len(g.record) == 1 and g.current_player() == 1        # C1K 10: priority passed


class FakeReadline:
    def __init__(self) -> None:
        self.history: list[str] = []
        self.completer: object = None

    def set_completer(self, f: object) -> None:
        self.completer = f

    def set_completer_delims(self, s: str) -> None:
        pass

    def parse_and_bind(self, s: str) -> None:
        pass

    def get_current_history_length(self) -> int:
        return len(self.history)

    def get_history_item(self, i: int) -> str:
        return self.history[i - 1]

    def clear_history(self) -> None:
        self.history = []

    def add_history(self, line: str) -> None:
        self.history.append(line)


def test_readline_history_is_each_players_own_and_completion_hides_hidden_cards() -> None:
    from c1k_tui.cli.textplay import LineEditor

    g = _poor_game()
    rl = FakeReadline()
    ed = LineEditor(rl)
    ed.take(0, observe(g, 0))
    rl.add_history('play "Unmake"')              # what readline keeps of Mira's typing
    assert ed.candidates('play "Em') == []        # Emberlash is hidden in Tomas's hand
    assert ed.candidates('play "Un') == ['play "Unmake"']
    ed.take(1, observe(g, 1))
    assert rl.history == []                      # Tomas never recalls what Mira typed
    assert ed.candidates('play "Em') == ['play "Emberlash"']
    rl.add_history("pass")
    ed.take(0, observe(g, 0))
    assert rl.history == ['play "Unmake"']


def test_the_loop_hands_the_editor_the_player_at_the_keyboard() -> None:
    from c1k_tui.cli.textplay import LineEditor

    g = _poor_game()
    ed = LineEditor(FakeReadline())
    _play(g, ["pass"], editor=ed)
    assert ed.player == 1 and ed.candidates('play "Em') == ['play "Emberlash"']


def _ana_screens(lines: list[str]) -> tuple[list[str], list[str]]:
    """What the loop wrote, and the tables Ana was shown before each of her prompts."""
    out = _play(_game(), lines)
    return out, [out[i - 1] for i, o in enumerate(out) if o == "Ana (p1)> " and out[i - 1].startswith("── Turn")]


def test_pass_until_in_the_text_loop_passes_for_its_player_and_tells_the_other() -> None:
    """Issue 27 item 2: `pass until me` passes now and at Ana's next priorities (public facts only) until
    her own Main Phase, which always asks; Tomas is told at his next hand-off."""
    _, plain = _ana_screens(["pass"] * 6)
    assert "[MAIN]" not in plain[1]                   # without it, Ana is asked again before her Main Phase
    out, screens = _ana_screens(["pass until me"] + ["pass"] * 6)
    assert "Ana passes until something happens to them, or their next turn" in out
    assert "[MAIN]" in screens[1]
    bad = _play(_game(), ["pass until lunch", "quit"])
    assert any("not sent: pass until what? pass until combat | turn | me" in o for o in bad)
