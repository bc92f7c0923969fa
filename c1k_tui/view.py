"""What one player may see of a match, as immutable values the widgets render.

`match_view(game, viewer, open_hands)` is the single place that decides what is visible: the viewer's
own hand (both hands only with `open_hands`), the opponent's hand as a count, Set cards as backs, never a
library's order. Widgets receive fresh frozen values through reactives, so an unchanged part of the
screen is not repainted, and nothing private can reach a widget that was not given it here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.actions import Action
from engine.game import Game
from engine.state import (
    DECLARE_ATTACKERS,
    DECLARE_BLOCKERS,
    MAIN,
    SET,
    TRIGGER_WINDOWS,
    WINDOW_RULE,
    WINDOW_TEXT,
    WINDOWS,
    player_name,
)

PHASES = ("draw", "influence", "main", "combat", "end")
#: short labels of the 15 windows, as the phase bar shows them
SHORT = {"declare_attackers": "atk", "declare_blockers": "blk", "priority": "main", "response": "resp",
         "start": "start", "draw": "draw", "post": "post", "gain": "gain", "damage": "dmg", "exit": "exit",
         "cleanup": "cleanup", "final": "final"}
HIDDEN_KEYWORDS = ("barrier", "veiled", "rooted")   # shown as statuses instead


@dataclass(frozen=True)
class UnitView:
    cid: int
    name: str
    type: str                      # unit | relic
    owner: int
    power: int = 0
    health: int = 0                # what remains (max - damage)
    max_health: int = 0
    damage: int = 0
    keywords: tuple[str, ...] = ()
    statuses: tuple[str, ...] = ()
    counters: tuple[tuple[str, int], ...] = ()
    exhausted: bool = False
    deploying: bool = False
    attacking: bool = False
    blocking: int = 0              # the attacker it blocks
    blocked_by: int = 0            # for an attacker: its blocker
    text: str = ""
    activated: int = 0             # number of activated abilities


@dataclass(frozen=True)
class HandCard:
    cid: int
    name: str
    cost: int
    speed: str
    type: str
    text: str
    power: int = 0
    health: int = 0
    keywords: tuple[str, ...] = ()
    playable: bool = False
    rule: str = ""
    reason: str = ""


@dataclass(frozen=True)
class SideView:
    player: int
    name: str
    life: int
    influence: int
    capacity: int
    library: int
    graveyard: int
    hand_size: int
    set_count: int
    champion: int
    champion_name: str
    champion_text: str
    seat: int
    seat_name: str
    seat_text: str
    units: tuple[UnitView | None, ...]
    relics: tuple[UnitView | None, ...]
    active: bool
    deciding: bool
    exhaustions: int = 0


@dataclass(frozen=True)
class StackEntry:
    pos: int                       # 1 = top (resolves next)
    uid: int
    name: str
    kind: str
    source: int
    who: str                       # the player who put it there, or "game"
    controller: str
    targets: tuple[str, ...] = ()


@dataclass(frozen=True)
class WindowView:
    index: int
    window: str
    rule: str
    text: str
    turn: int
    active_name: str
    decision: str                  # priority | attackers | blockers | interrupt | choice | none
    decider: int
    decider_name: str
    prompt: str
    allowed: str
    priority_name: str
    stack_size: int
    seed: int
    outcome: str | None
    stops: tuple[int, ...] = ()    # windows where the deciding player stops (flow options)
    eligible: tuple[int, ...] = ()  # attackers / blockers / interrupt sources / choice cards
    options: tuple[str, ...] = ()   # choice: the numbered options' labels
    min_choices: int = 0
    max_choices: int = 0
    can_decline: bool = False


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


def card_keywords(g: Game, cid: int) -> tuple[str, ...]:
    d = g.card(cid)
    perm = g.perms.get(cid)
    kws = dict(d.keywords)
    if perm is not None:
        kws.update(perm.granted)
        kws.update(perm.temp_granted)
    return tuple(k.capitalize() if not n else f"{k.capitalize()} {n}" for k, n in sorted(kws.items())
                 if k not in HIDDEN_KEYWORDS)


def unit_view(g: Game, cid: int) -> UnitView:
    d = g.card(cid)
    perm = g.perms[cid]
    blocking = next((a for b, a in g.blocks if b == cid), 0)
    blocked_by = next((b for b, a in g.blocks if a == cid and b), 0)
    if d.type != "unit":
        return UnitView(cid, d.name, d.type, g.owner[cid], statuses=tuple(perm.all_statuses()),
                        counters=tuple(sorted((k, v) for k, v in perm.counters.items() if v)),
                        exhausted=perm.exhausted, text=d.text, activated=len(d.act))
    deploying = (perm.entered_turn == g.turn and g.keyword(cid, "charge") is None and g.owner[cid] == g.active)
    return UnitView(
        cid, d.name, d.type, g.owner[cid], g.power(cid), g.health(cid), g.max_health(cid), perm.damage,
        card_keywords(g, cid), tuple(perm.all_statuses()),
        tuple(sorted((k, v) for k, v in perm.counters.items() if v)), perm.exhausted, deploying,
        cid in g.attackers, blocking, blocked_by, d.text, len(d.act))


def side_view(g: Game, p: int) -> SideView:
    ps = g.players[p]
    champ = g.card(ps.champion)
    seat = g.card(ps.seat) if ps.seat else None
    set_count = sum(1 for i in range(1, len(g.defs)) if g.zone[i] == SET and g.owner[i] == p)
    return SideView(
        p, ps.name, ps.life, ps.influence, ps.capacity, len(ps.library), len(ps.graveyard), len(ps.hand),
        set_count, ps.champion, champ.name, champ.text, ps.seat, seat.name if seat else "",
        seat.text if seat else "",
        tuple(unit_view(g, c) if c else None for c in ps.board),
        tuple(unit_view(g, c) if c else None for c in ps.relics),
        p == g.active, p == g.current_player(), ps.exhaustions)


def hand_view(g: Game, p: int, explain: dict[int, tuple[bool, str, str]]) -> tuple[HandCard, ...]:
    out = []
    for cid in g.players[p].hand + g.players[p].set_cards:
        d = g.card(cid)
        legal, rule, reason = explain.get(cid, (False, "", ""))
        is_set = cid in g.players[p].set_cards   # Veil: Set face down, played later at Fast speed
        out.append(HandCard(cid, d.name + (" [Set]" if is_set else ""), d.cost, "fast" if is_set else d.speed,
                            d.type, d.text, d.power, d.health, card_keywords(g, cid), legal, rule, reason))
    return tuple(out)


def allowed_now(g: Game) -> str:
    """What kinds of actions the deciding player may take now, in a learner's words."""
    d = g.decision
    if g.is_terminal():
        return "the match is over"
    if d.kind == "attackers":
        return "declare attackers: pick units, or attack none"
    if d.kind == "blockers":
        return "declare blockers: pair blockers with attackers, or block none"
    if d.kind == "interrupt":
        return "use an Interrupt, or decline (no stack, no priority)"
    if d.kind == "choice":
        return "answer the choice"
    if d.player == g.active and g.win == MAIN and not g.stack:
        return "Slow and Fast: Units, Relics, Actions, abilities — or pass"
    if g.win == MAIN and d.player == g.active:
        return "Fast only (the stack is not empty) — or pass"
    return "Fast actions and abilities only — or pass"


def stack_entries(g: Game) -> tuple[StackEntry, ...]:
    out = []
    for i, it in enumerate(g.stack_view(), 1):
        who = "game" if it.adder < 0 else g.players[it.adder].name
        targets = []
        for t in it.targets:
            if 0 < t < len(g.defs):
                targets.append(g.players[g.champion_owner(t)].name if g.is_champion(t) else f"#{t} {g.card(t).name}")
            else:
                # an Interrupt/counter target is a stack item uid
                targets.append(f"stack item {t}")
        out.append(StackEntry(i, it.uid, it.name, it.kind, it.source, who, g.players[it.controller].name,
                              tuple(targets)))
    return tuple(out)


_REFUSED = re.compile(r"^(\s*)refused: (p[12]): .*? \(([^()]*)\); priority passes to (.*)$")


_COMMAND = re.compile(r"^p[12]: ")


def public_log(lines: list[str], viewer: int, open_hands: bool, auto: frozenset[int] = frozenset()) -> list[str]:
    """The log as `viewer` may read it. A refused command can name a card in its player's hand, so the
    opponent sees only that something was refused, with the rule. Commands the flow options sent are
    marked "(auto)" (`auto`: their indices in the match record)."""
    out = []
    me = player_name(viewer)
    k = -1
    for line in lines:
        m = _REFUSED.match(line)
        if m or _COMMAND.match(line):
            k += 1
            if k in auto:
                line += "   (auto)"
        if m and m.group(2) != me and not open_hands:
            out.append(f"{m.group(1)}refused: {m.group(2)} tried an action not allowed now ({m.group(3)}); "
                       f"priority passes to {m.group(4)}")
        else:
            out.append(line)
    return out


def window_view(g: Game, stops: tuple[int, ...] = ()) -> WindowView:
    d = g.decision
    w = g.win
    decider = g.current_player()
    text = WINDOW_TEXT[w]
    if w in TRIGGER_WINDOWS:
        text += " (trigger window: priority only while the stack is not empty)"
    rule = d.rule if d.kind in ("interrupt", "choice") else WINDOW_RULE[w]
    if w in (DECLARE_ATTACKERS, DECLARE_BLOCKERS) and d.kind == "priority":
        rule = WINDOW_RULE[w]
    return WindowView(
        w, WINDOWS[w], rule, text, g.turn, g.players[g.active].name, d.kind, decider,
        g.players[decider].name if decider >= 0 else "", d.prompt, allowed_now(g),
        g.players[g.priority].name if g.priority >= 0 else "nobody", len(g.stack), g.seed,
        str(g.outcome) if g.outcome is not None else None, stops,
        d.eligible if decider >= 0 else (), d.options, d.min_choices, d.max_choices, d.can_decline)


def stack_hint(g: Game) -> str:
    """How the top of the stack resolves (RB 1.2), in a learner's words."""
    if not g.stack:
        return ""
    top = g.stack[-1]
    if top.adder < 0:
        return "▶ resolves when both players pass in a row (added by the game, RB 1.2)"
    return f"▶ resolves when {g.players[1 - top.adder].name} passes (added by {g.players[top.adder].name}, RB 1.2)"


def match_view(g: Game, viewer: int, open_hands: bool = False, log_lines: int = 200,
               stops: tuple[int, ...] = (), bottom: int | None = None,
               auto: frozenset[int] = frozenset()) -> MatchView:
    """Everything `viewer` may see now. `open_hands` shows both hands (teaching, solo). `bottom` is the
    player whose side is drawn at the bottom (default: the viewer)."""
    viewer = viewer if viewer in (0, 1) else 0
    bottom = viewer if bottom not in (0, 1) else bottom
    exp = g.explain(viewer)
    by_card: dict[int, tuple[bool, str, str]] = {}
    for e in exp:
        if e.what.startswith("play "):
            by_card[e.subject] = (e.legal, e.rule, e.reason)
    top_hand = None
    if open_hands:
        other = 1 - viewer
        oexp = {e.subject: (e.legal, e.rule, e.reason) for e in g.explain(other) if e.what.startswith("play ")}
        top_hand = hand_view(g, other, oexp)
    d = g.decision
    deciding = g.current_player() == viewer
    legal: tuple[Action, ...] = ()
    block_ok: tuple[tuple[int, int], ...] = ()
    if deciding and d.kind in ("priority", "interrupt", "choice"):
        legal = tuple(g.legal_actions())
    if deciding and d.kind == "blockers":
        block_ok = tuple((b, a) for b in d.eligible for a in g.attackers if g.can_block(b, a) is None)
    lines = g.log_lines
    skipped = 0
    if len(lines) > log_lines:
        skipped = sum(1 for x in lines[:-log_lines] if _COMMAND.match(x) or _REFUSED.match(x))
        lines = lines[-log_lines:]
    shifted = frozenset(i - skipped for i in auto if i >= skipped)
    return MatchView(
        viewer, window_view(g, stops), side_view(g, bottom), side_view(g, 1 - bottom),
        hand_view(g, viewer, by_card), top_hand, stack_entries(g),
        tuple(public_log(lines, viewer, open_hands, shifted)),
        tuple((e.subject, e.what, e.legal, e.rule, e.reason) for e in exp), legal, block_ok, stack_hint(g),
        len(g.record))


def phase_groups(current: int) -> list[tuple[str, list[tuple[int, str]]]]:
    """[(PHASE, [(window index, short label), ...]), ...] for the phase bar."""
    out = []
    for ph in PHASES:
        steps = [(i, SHORT.get(w.split(".")[1], w.split(".")[1])) for i, w in enumerate(WINDOWS)
                 if w.startswith(ph + ".")]
        out.append((ph.upper(), steps))
    return out
