"""tui.md round 3, "One guard, in the model" (issue #27 item 1), as a property over the model — no Textual.

Two people play hot-seat matches through the model (`Table` decides what is shown, `KeyGuard` which keys
act) and press keys at random gaps (0.02–0.6 s) that the app reads after a random delay, while screens
take a random time to paint. Over every flow (stops, learning, auto, full), hidden and open hands, and
every path that shows a table (hand-offs, the turn banner, the first table, an undo, a prompt closing),
no key acts on a screen its player has not seen for 0.5 s, and none pressed while the engine advanced.
The oracle is computed here from the simulated times alone, not from the guard's own state.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from c1k_tui.model.builders import StartChoice, new_session
from c1k_tui.model.keys import KEY_GUARD_S, KeyGuard, screen_of
from c1k_tui.model.table import GameOver, HandOff, ShowTable, Table, YourTurn
from engine.cards import CardDB, load_card_db
from tests.tier import examples

DB: CardDB | None = None


def _db() -> CardDB:
    global DB
    if DB is None:
        DB = load_card_db()
    return DB


@dataclass
class Screen:
    kind: str
    viewer: int
    shown_at: float
    painted_at: float | None = None
    sitting_seen: float | None = None   # the oracle: when this player first saw this sitting's screen
    own: bool = False                   # the same player's table after their own command
    breach: bool = False                # (the guard as it was: this table's keys open at its paint)


@dataclass
class Run:
    acted: list[tuple[float, Screen]] = field(default_factory=list)    # (pressed at, the screen it acted on)
    screens: int = 0


def play(flow: str, open_hands: bool, gaps: list[float], delays: list[float], paints: list[float],
         undo_every: int, tmp: Path, breach: str = "") -> Run:
    """Drive a match through the model as the App does; return every key that acted and its screen."""
    session = new_session(_db(), StartChoice("ironbound", "emberfall", 11, "Ana", "Tomas", open_hands, False,
                                             flow), tmp / "m.json")
    session.run_autos()
    table = Table(session)
    keys = KeyGuard(KEY_GUARD_S, painted_at=0.0)
    keys.dismissed()                    # the match starts: the key that started it acts on nothing
    run = Run()
    clock: list[tuple[float, int, int, Screen | None, float]] = []   # (time, order, epoch, painted, pressed)
    order = 0
    cur: Screen | None = None
    prompt_open = False
    last: Screen | None = None

    def at(t: float, epoch: int = 0, painted: Screen | None = None, pressed: float = 0.0) -> None:
        nonlocal order
        order += 1
        heapq.heappush(clock, (t, order, epoch, painted, pressed))

    def show(t: float, kind: str, viewer: int, own: bool = False) -> None:
        nonlocal cur
        epoch = keys.show(kind, viewer)
        scr = Screen(kind, viewer, t, own=own and last is not None and last.kind == "table"
                     and last.viewer == viewer)
        scr.breach = breach == "banner-unguarded" and kind == "table" and last is not None and last.kind == "turn"
        if scr.own and last is not None:
            scr.sitting_seen = last.sitting_seen
        cur = scr
        run.screens += 1
        at(t + paints[run.screens % len(paints)], epoch, painted=scr)

    def present(t: float, own: bool = False) -> None:
        nonlocal prompt_open
        shown = table.next()
        if isinstance(shown, GameOver):
            show(t, "gameover", -2)
            return
        viewer = shown.viewer if isinstance(shown, ShowTable) else shown.player
        show(t, screen_of(shown), viewer, own)
        if isinstance(shown, ShowTable) and shown.prompt:
            show(t, "prompt", viewer)          # the question opens over the table
            prompt_open = True

    present(0.0)
    t = 0.0
    for i, gap in enumerate(gaps):
        t += gap
        at(t + delays[i % len(delays)], pressed=t)
    n_keys = 0
    while clock:
        now, _, epoch, painted, pressed = heapq.heappop(clock)
        if painted is not None:
            scr = painted
            keys.painted(epoch, now)
            if scr.breach and keys.epoch == epoch:
                keys.painted_at = now - KEY_GUARD_S      # today's `open_keys(guard=False)` after the banner
            if scr.painted_at is None:
                scr.painted_at = now
                if scr.sitting_seen is None:
                    scr.sitting_seen = now
            continue
        if cur is None or not keys.admits(pressed):
            continue
        scr = cur
        run.acted.append((pressed, scr))
        last = scr
        n_keys += 1
        if scr.kind == "gameover":
            break
        if scr.kind in ("handoff", "turn"):
            keys.dismissed()
            if scr.kind == "handoff":
                table.took(HandOff(scr.viewer, "", "", "", 0, "", 0))
            else:
                table.took(YourTurn(scr.viewer, "", 0))
            present(now + 0.01)
            continue
        if scr.kind == "prompt":
            keys.dismissed()
            prompt_open = False
            keys.command_sent()
            g = session.game
            session.send("decline" if g.decision.kind == "interrupt" or g.decision.can_decline else "choose 1")
            present(now + 0.02)
            continue
        # the table: every `undo_every`-th key asks for an undo (answered yes at once), else a command
        g = session.game
        if undo_every and n_keys % undo_every == 0 and session.undo_check()[0] and session.undo():
            keys.interrupt()
            for p in (0, 1):
                table.undone(p)
            present(now + 0.02)
            continue
        actor = g.current_player()
        seen = len(g.events)
        keys.command_sent()
        cmd = {"attackers": "attack none", "blockers": "block none"}.get(g.decision.kind, "pass")
        out = session.send(cmd)
        if out.ok:
            table.accepted(actor, seen, "")
        present(now + 0.02, own=True)
    return run


def check(run: Run) -> None:
    for pressed, scr in run.acted:
        assert scr.painted_at is not None and pressed >= scr.painted_at, \
            f"a key pressed at {pressed:.3f} acted on a {scr.kind} painted at {scr.painted_at}"
        assert scr.sitting_seen is not None and pressed >= scr.sitting_seen + KEY_GUARD_S - 1e-9, \
            (f"a key pressed at {pressed:.3f} acted on a {scr.kind} for p{scr.viewer + 1} first seen at "
             f"{scr.sitting_seen:.3f}: before the guard had passed")


SETTINGS = settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
GAPS = st.lists(st.floats(0.02, 0.6), min_size=40, max_size=90)
DELAYS = st.lists(st.floats(0.0, 0.3), min_size=1, max_size=8)
PAINTS = st.lists(st.floats(0.005, 0.25), min_size=1, max_size=8)


@pytest.mark.parametrize("flow", ["stops", "learning", "auto", "full"])
@SETTINGS
@given(open_hands=st.booleans(), gaps=GAPS, delays=DELAYS, paints=PAINTS, undo_every=st.sampled_from([0, 7]))
def test_tui_round3_no_key_acts_on_a_screen_unseen(flow: str, open_hands: bool, gaps: list[float],
                                                   delays: list[float], paints: list[float], undo_every: int,
                                                   tmp_path: Path) -> None:
    if flow == "auto":
        open_hands = True         # auto-pass reads a hand: open hands only (session.auto_action)
    run = play(flow, open_hands, gaps, delays, paints, undo_every, tmp_path)
    check(run)


def test_tui_round3_the_property_sees_todays_banner() -> None:
    """The guard as it was (the table after "Turn N — your turn" opened without the guard) breaks the
    property: a double Enter on the banner acts on the table 0.15 s later."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        gaps = [0.8, 0.15] * 60           # read each screen 0.8 s, then the bounce
        run = play("full", False, gaps, [0.0], [0.02], 0, Path(d), breach="banner-unguarded")
        with pytest.raises(AssertionError, match="before the guard had passed"):
            check(run)
        run = play("full", False, [0.8, 0.15] * 60, [0.0], [0.02], 0, Path(d))
        check(run)
        assert any(scr.kind == "turn" for _, scr in run.acted), "no turn banner was reached"


def test_tui_round3_leaving_says_how_to_come_back(tmp_path: Path) -> None:
    """ctrl+q on a match in progress says where it is autosaved and the command that continues it."""
    from c1k_tui.model.builders import come_back_hint
    from c1k_tui.model.paths import default_autosave

    assert come_back_hint(default_autosave()).endswith("To come back to it: c1k resume")
    other = tmp_path / "my match.json"
    hint = come_back_hint(other)
    assert str(other) in hint and hint.endswith(f"c1k resume '{other}'")
    assert "NOT saved" in come_back_hint(other, "autosave to x failed: disk full")
    assert "NOT saved" in come_back_hint(None)


def test_tui_round3_default_names_read_as_players() -> None:
    from c1k_tui.model.names import possessive, seat_name

    assert seat_name("p1", 0) == "Player 1" and seat_name("p2", 1) == "Player 2"
    assert seat_name("Tomas", 1) == "Tomas" and seat_name("p2", 0) == "p2"
    assert possessive(seat_name("p2", 1)) == "Player 2's"
