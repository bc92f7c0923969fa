"""The hot-seat table: who has the keyboard, hand-offs, stops and undo consent — values, no Textual.

The Textual app (c1k_tui/screens/app.py) is a thin shell around this model: it asks `Table.next()` what
the players see next and renders the value it gets back; when a player takes the keyboard it tells the
model (`Table.took`), when a command was accepted it says so (`Table.accepted`). The model never reads a
hand: whether a hand-off happens is one function of the public facts (`handoff_due`: who must decide,
who has the keyboard, whether hands are open), and who must decide is itself decided on public facts
(`session.auto_action` with hands hidden; rules.md §7a). So two matches that differ only in a hidden
hand give the same sequence of values here, which the fair-hiding tests check as plain functions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from c1k_tui.model.paths import FLOW_SHORT
from c1k_tui.model.session import Flow, MatchSession
from c1k_tui.model.yields import may_choose, until_of
from c1k_tui.model.yields import words as until_words
from engine import (
    WINDOW_INDEX,
    WINDOW_RULE,
    Action,
    Game,
    IllegalAction,
    MalformedCommand,
    Pass,
    PlayerView,
    observe,
    player_name,
)

#: what a hand-off screen says the incoming player will do. The outgoing player reads it too, so it says
#: nothing the hands decide: a declaration is public, but whether the engine asks an Interrupt question,
#: or the player just looks and continues, is not told apart (rules.md §7a).
KIND_WORDS = {"attackers": "declare attackers", "blockers": "declare blockers"}
TAKE_TABLE = "see what happened, then act or pass"


# -------------------------------------------------------------------- what the model returns


@dataclass(frozen=True)
class ShowTable:
    """The deciding player has the keyboard: show them the table (and a prompt, if `prompt`)."""

    viewer: int
    since: int                 # their recap starts at this event
    changed: bool              # a different player than the last screen's (open hands)
    prompt: str = ""           # "interrupt" / "choice": the engine asks a question the screen opens


@dataclass(frozen=True)
class HandOff:
    """Hide the table: `player` takes the keyboard. `public_since`: the public recap starts there;
    `announce`: public news for them (the other player's changed stops)."""

    player: int
    name: str
    what: str
    rule: str
    turn: int
    window: str
    public_since: int
    announce: tuple[str, ...] = ()
    #: the incoming player's own turn begins with this hand-off: it reads as a turn banner ("Turn 6 —
    #: Tomas's turn", tui.md round 3), not as one more hand-off
    turn_start: bool = False


@dataclass(frozen=True)
class YourTurn:
    """The player at the keyboard keeps it into their own new turn: a one-line "Turn N — your turn"
    before their table (tui.md round 2), so a turn never starts silently under their keys."""

    player: int
    name: str
    turn: int


@dataclass(frozen=True)
class Refused:
    """A command not sent: `kind` is "malformed" (a typing mistake), "illegal" (refused while parsing, as
    the typist may see it), "not_yours" (typed for the other seat) or "why_not" (the engine would refuse
    it now: the player keeps priority)."""

    rule: str
    reason: str
    kind: str = "why_not"


@dataclass(frozen=True)
class Checked:
    """A command the engine would accept now, parsed as the typist sees the match."""

    actor: int
    action: Action


@dataclass(frozen=True)
class GameOver:
    winner: int | None


Shown = ShowTable | HandOff | YourTurn | GameOver


def stops_words(stops: list[str]) -> str:
    """A player's stops in words: "own turn — main.priority; opponent's turn — combat.declare_blockers"."""
    own = [k[4:] for k in sorted(stops) if k.startswith("own:")]
    opp = [k[4:] for k in sorted(stops) if k.startswith("opp:")]
    parts = ([f"own turn — {', '.join(own)}"] if own else []) + ([f"opponent's turn — {', '.join(opp)}"] if opp else [])
    return "; ".join(parts) or "nowhere (own Main Phase only)"


def handoff_due(decider: int, keyboard: int, open_hands: bool) -> bool:
    """Whether the keyboard must change hands: the player who must decide is not the one holding it, at a
    table with hidden hands. Both facts are public (who decides follows the public flow)."""
    return not open_hands and decider in (0, 1) and decider != keyboard


def last_decision(g: Game, p: int, auto: frozenset[int] = frozenset()) -> int:
    """The event index just after player p's last own command (0 if none; commands the flow options sent,
    `auto`, don't count): where p's recap starts."""
    ev = g.events
    for i in range(len(ev) - 1, -1, -1):
        e = ev[i]
        if e.command >= 0 and e.actor == p and e.private_to < 0 and e.command not in auto:
            return i + 1
    return 0


@dataclass
class Table:
    """The keyboard and what each player has seen, for one match session."""

    session: MatchSession
    viewer: int = -2                      # the player at the keyboard (-2: nobody yet)
    seen_upto: list[int] = field(default_factory=lambda: [0, 0])
    handoffs: int = 0                     # hand-off screens taken (the bench's measure)
    looks: int = 0                        # looks owed after a public event: none since round 2 (the bench prints it)
    news: dict[int, list[str]] = field(default_factory=lambda: {0: [], 1: []})
    turn_seen: list[int] = field(default_factory=lambda: [-1, -1])   # the turn of each one's last table

    def __post_init__(self) -> None:
        self.restart(self.session)

    def restart(self, session: MatchSession) -> None:
        self.session = session
        self.viewer = -2
        g = session.game
        self.seen_upto = [last_decision(g, p, frozenset(session.auto)) for p in (0, 1)]
        self.news = {0: [], 1: []}
        self.turn_seen = [-1, -1]

    @property
    def open_hands(self) -> bool:
        return self.session.open_hands

    def name(self, p: int) -> str:
        return observe(self.session.game, p).me.name if p in (0, 1) else "nobody"

    # ---------------------------------------------------------------- what comes next

    def next(self) -> Shown:
        """What the players see next: the end, a hand-off, or the table for the deciding player."""
        s = self.session
        g = s.game
        if g.is_terminal():
            return GameOver(observe(g, 0).winner)
        decider = g.current_player()
        if handoff_due(decider, self.viewer, s.open_hands):
            return self.handoff(decider, KIND_WORDS.get(g.decision.kind, TAKE_TABLE))
        v = observe(g, decider)
        if not s.open_hands and self.turn_seen[decider] >= 0 and self.turn_start(decider, v):
            self.turn_seen[decider] = v.turn
            return YourTurn(decider, v.me.name, v.turn)
        self.turn_seen[decider] = v.turn
        previous = self.viewer
        self.viewer = decider
        kind = g.decision.kind
        return ShowTable(decider, self.seen_upto[decider], previous != decider,
                         kind if kind in ("interrupt", "choice") else "")

    def turn_start(self, player: int, v: PlayerView) -> bool:
        """`player`'s own turn begins for them: they have seen no table of it yet (`turn_seen`). A hand-off
        then reads as the turn banner (`HandOff.turn_start`); without one, `YourTurn` says it."""
        return v.active == player and self.turn_seen[player] < v.turn

    def handoff(self, player: int, what: str, rule: str = "") -> HandOff:
        """A hand-off to `player`; the keyboard is theirs once they take it (`took`). The table is hidden
        from now on: the model's viewer is already the incoming player."""
        g = self.session.game
        v = observe(g, player)
        self.viewer = player
        return HandOff(player, v.me.name, what, rule or WINDOW_RULE[WINDOW_INDEX[v.window]], v.turn, v.window,
                       self.seen_upto[player], tuple(self.news[player]),
                       turn_start=self.turn_start(player, v))

    def took(self, h: HandOff | YourTurn) -> None:
        """The incoming player has the keyboard (they dismissed the hand-off screen)."""
        if isinstance(h, YourTurn):
            return
        self.turn_seen[h.player] = h.turn
        self.handoffs += 1
        self.news[h.player] = []

    # ---------------------------------------------------------------- after a command

    def accepted(self, actor: int, seen: int, line: str) -> None:
        """`actor`'s command was accepted (`seen`: the event count before it, `line`: its record line):
        their recap starts after it. No look is owed to the other player: what happened waits in their
        recap at their next decision (the engine asks Interrupt questions on public facts, so a look
        hid nothing; tui.md round 2: no empty looks)."""
        if actor in (0, 1):
            self.seen_upto[actor] = seen + 1
            y = self.session.chosen_until.get(player_name(actor))
            if y is not None and y.since == seen:      # "pass until…" chosen: public, said to the other
                self.news[1 - actor].append(until_words(self.name(actor), y))

    def check(self, command: str) -> Checked | Refused:
        """A typed command is checked like a picked one: parsed as the keyboard holder (names resolved
        from what they may see; with open hands, as the deciding player), then `why_not`. Nothing is sent."""
        s = self.session
        g = s.game
        typist = self.viewer if self.viewer in (0, 1) and not s.open_hands else None
        kind = until_of(command)
        if kind is not None:                   # "pass until …": a pass, and the player's own choice
            return self.check_until(kind)
        try:
            player, action = g.parse(command, typist)
        except MalformedCommand as err:
            return Refused("", str(err), "malformed")
        except IllegalAction as err:
            return Refused(err.rule, err.reason, "illegal")
        actor = g.current_player() if player is None else player
        if actor != self.viewer and not s.open_hands and self.viewer in (0, 1):
            return Refused("C1K 10", f"you type for yourself ({self.name(self.viewer)})", "not_yours")
        r = g.why_not(action, actor)
        if r is not None:
            return Refused(r.rule, r.reason)
        return Checked(actor, action)

    def check_until(self, kind: str) -> Checked | Refused:
        """`pass until <kind>` typed or chosen by the keyboard holder: where they may pass, a kind they
        may choose now. Sent as the text (`MatchSession.send` keeps the yield), never as the bare pass."""
        g = self.session.game
        actor = g.current_player()
        if kind.startswith("?"):
            return Refused("", may_choose(kind, ""), "malformed")
        if self.viewer in (0, 1) and not self.open_hands and actor != self.viewer:
            return Refused("C1K 10", f"you type for yourself ({self.name(self.viewer)})", "not_yours")
        if g.is_terminal() or g.decision.kind != "priority":
            return Refused("C1K 10", "pass until… is chosen where you may pass (your priority)", "illegal")
        why = may_choose(kind, observe(g, actor).window)
        if why:
            return Refused("C1K 10", why, "illegal")
        return Checked(actor, Pass())

    def options_changed(self, holder: int, before: Flow, after: Flow) -> None:
        """The keyboard holder changed their options: the other player hears of it at their next hand-off
        (their own stops can't be changed here; the flow mode and one's stops are public)."""
        other = 1 - holder
        name = self.name(holder)
        seat = f"p{holder + 1}"
        if sorted(before.stops[seat]) != sorted(after.stops[seat]):
            self.news[other].append(f"{name} now stops at: {stops_words(after.stops[seat])}")
        if before.mode_for(seat) != after.mode_for(seat) and seat in (*before.full, *after.full):
            self.news[other].append(f"{name} now has full control: asked at every decision of theirs"
                                    if seat in after.full else f"{name} left full control")
        if before.mode != after.mode:
            self.news[other].append(f"{name} changed the flow to: {FLOW_SHORT.get(after.mode, after.mode)}")

    def undo_request(self, asker: int) -> HandOff | None:
        """The requester's hand is hidden at once; the other player takes the keyboard to answer (None:
        open hands, the other player answers at the same screen)."""
        if self.open_hands:
            return None
        other = 1 - asker
        return self.handoff(other, f"answer {self.name(asker)}'s undo request", "undo")

    def undone(self, player: int) -> None:
        self.seen_upto[player] = min(self.seen_upto[player], len(self.session.game.events))


__all__ = ["Checked", "YourTurn", "GameOver", "HandOff", "KIND_WORDS", "Refused", "ShowTable", "Shown", "TAKE_TABLE", "Table",
           "handoff_due", "last_decision"]
