"""What one player may see of a match, as immutable values the widgets render — a thin adapter over
the engine's `engine.view.observe` (the one place that decides what a player may know) and
`engine.events.events_for` (the log).

`match_view(game, viewer, open_hands)` adds only presentation: the phase bar, the flow options' stops,
which side is drawn at the bottom, the opponent's hand with `open_hands` (teaching, solo: it is that
player's own `observe`), and "(auto)" marks on commands the flow options sent.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from c1k_tui.model.matchnames import view_result
from engine import (
    QUIET_KINDS,
    WINDOW_INDEX,
    WINDOWS,
    Action,
    Game,
    HandCard,
    PlayerView,
    SideView,
    StackEntry,
    UnitView,
    events_for,
    helps_targets,
    observe,
)

__all__ = ["HandCard", "MatchView", "SideView", "StackEntry", "UnitView", "WindowView", "log_for", "match_view",
           "phase_groups"]

PHASES = ("draw", "influence", "main", "combat", "end")
#: short labels of the 15 windows, as the phase bar shows them
SHORT = {"declare_attackers": "atk", "declare_blockers": "blk", "priority": "main", "response": "resp",
         "start": "start", "draw": "draw", "post": "post", "gain": "gain", "damage": "dmg", "exit": "exit",
         "cleanup": "cleanup", "final": "final"}


@dataclass(frozen=True)
class WindowView:
    index: int
    window: str
    rule: str
    text: str
    turn: int
    active_name: str
    decision: str                  # the viewer's own: priority | attackers | blockers | interrupt | choice;
                                   # "waiting" when the other player decides; none when over
    decider: int
    decider_name: str
    prompt: str
    allowed: str
    priority_name: str
    stack_size: int
    seed: int | None               # only once the match is over (rules.md §7)
    outcome: str | None
    stops: tuple[int, ...] = ()    # windows where the deciding player stops (flow options)
    eligible: tuple[int, ...] = ()  # attackers / blockers / interrupt sources / choice cards
    options: tuple[str, ...] = ()   # choice: the numbered options' labels
    min_choices: int = 0
    max_choices: int = 0
    can_decline: bool = False
    #: this turn's windows in order, as the engine's turn structure says (a Seat may add a combat phase
    #: or skip a window: rules.md §2), and the position of the current window in it
    structure: tuple[str, ...] = WINDOWS
    step: int = -1
    #: once the match is over, who won and how, in the replay's words ("Ana wins — Champion defeated")
    result: str = ""


@dataclass(frozen=True)
class MatchView:
    viewer: int
    window: WindowView
    bottom: SideView               # the viewer's side
    top: SideView
    hand: tuple[HandCard, ...]     # the viewer's hand
    top_hand: tuple[HandCard, ...] | None   # the opponent's hand, only with open hands
    stack: tuple[StackEntry, ...]
    log: tuple[str, ...]
    explain: tuple[tuple[int, str, bool, str, str], ...] = field(default=())  # (cid, what, legal, rule, reason)
    #: the deciding player's legal actions (priority, interrupt and choice decisions; not blocks)
    legal: tuple[Action, ...] = ()
    #: blockers decision: the (blocker, attacker) pairs that are each legal on their own
    block_ok: tuple[tuple[int, int], ...] = ()
    stack_hint: str = ""
    commands: int = 0               # length of the match record
    #: blockers decision: the other pairs, each with the rule and reason it is refused
    block_no: tuple[tuple[int, int, str, str], ...] = ()
    #: the viewer's legal plays and activations whose chosen targets are helped, not harmed (heal, a
    #: buff, a granted status): their target cursor starts on the viewer's own side, every other one
    #: on the opponent's (tui.md round 2: "the opponent's first for harm")
    helpful: frozenset[Action] = frozenset()


def _window(v: PlayerView, stops: tuple[int, ...]) -> WindowView:
    d = v.decision
    name = v.side(v.waiting_for).name if v.waiting_for >= 0 else ""
    return WindowView(
        v.window_index, v.window, v.rule, v.window_text, v.turn, v.side(v.active).name,
        d.kind if d is not None else ("none" if v.waiting_for < 0 else "waiting"), v.waiting_for, name,
        d.prompt if d is not None else (v.waiting_text or (f"the match is over: {v.outcome}" if v.outcome else "")),
        d.allowed if d is not None else (v.waiting_text or "the match is over"),
        v.side(v.priority).name if v.priority >= 0 else ("nobody" if v.waiting_for < 0 else name),
        len(v.stack), v.seed, v.outcome, stops, d.eligible if d is not None else (),
        d.options if d is not None else (), d.min_choices if d is not None else 0,
        d.max_choices if d is not None else 0, d.can_decline if d is not None else False,
        v.structure, v.step,
        view_result(v))


def log_for(g: Game, viewer: int, open_hands: bool, last: int = 200,
            auto: frozenset[int] = frozenset()) -> tuple[str, ...]:
    """The last `last` lines of the log as `viewer` may read them (every line with `open_hands`); `last`
    0: every line of the match (the full log, `L`).
    Commands the flow options sent (`auto`: their indices in the match record) are marked "(auto)" — for
    their own player only, unless hands are open."""
    evs = tuple(g.events) if open_hands else events_for(g, viewer, renumber=False)   # text only
    # "(auto)" only to the player the flow options passed for: with hidden hands the other player never
    # sees it (issue 8: fair hiding)
    lines = [e.text + ("   (auto)" if e.command >= 0 and e.command in auto and (open_hands or e.actor == viewer)
                       else "") for e in evs if e.kind not in QUIET_KINDS]
    return tuple(lines[-last:]) if last > 0 else tuple(lines)


def match_view(g: Game, viewer: int, open_hands: bool = False, log_lines: int = 200,
               stops: tuple[int, ...] = (), bottom: int | None = None,
               auto: frozenset[int] = frozenset()) -> MatchView:
    """Everything `viewer` may see now. `open_hands` shows both hands (teaching, solo). `bottom` is the
    player whose side is drawn at the bottom (default: the viewer)."""
    viewer = viewer if viewer in (0, 1) else 0
    bottom = viewer if bottom not in (0, 1) else bottom
    v = observe(g, viewer)
    top_hand = observe(g, 1 - viewer).hand if open_hands else None
    d = v.decision
    return MatchView(
        viewer, _window(v, stops), v.side(bottom), v.side(1 - bottom), v.hand, top_hand, v.stack,
        log_for(g, viewer, open_hands, log_lines, auto),
        tuple((e.subject, e.what, e.legal, e.rule, e.reason) for e in d.explain) if d is not None else (),
        d.legal if d is not None else (), d.block_ok if d is not None else (), v.stack_hint, v.commands,
        block_no=d.block_no if d is not None else (),
        helpful=frozenset(a for a in d.legal if helps_targets(g, a)) if d is not None else frozenset())


def phase_groups(structure: tuple[str, ...] = WINDOWS) -> list[tuple[str, list[tuple[int, str, int]]]]:
    """[(PHASE, [(window index, short label, position in the turn), ...]), ...] for the phase bar: the
    turn's windows in the order the engine's turn structure gives them, a group each time the phase
    changes — so a Seat's second combat phase is a second COMBAT group, and a skipped window is absent."""
    out: list[tuple[str, list[tuple[int, str, int]]]] = []
    for pos, w in enumerate(structure):
        ph, rest = w.split(".", 1)
        # a new group when the phase changes or starts again (its windows run anew: a second combat)
        if not out or out[-1][0] != ph.upper() or WINDOW_INDEX[w] <= out[-1][1][-1][0]:
            out.append((ph.upper(), []))
        out[-1][1].append((WINDOW_INDEX[w], SHORT.get(rest, rest), pos))
    return out
