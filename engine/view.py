"""The player's view: `observe(game, player)` is the one function that decides what a player may know
(rules.md §7a). Screens, the text loop, replays, the game-over summary and any AI read a match through
it (and through `engine.events.events_for` for the log), never through `Game`'s insides.

A view holds frozen values only. What it never holds:

- a card in any library (not even its owner's: only the size), the opponent's hand and Set cards
  (only their counts), the PRNG state, and the StateSeed until the match is over (with public deck
  lists the seed reveals every hidden card);
- anything of a decision the viewer is not making. The other player's pending decision shows only as
  "waiting for pN" (`waiting_for`). Its *kind* is hidden too, except for declarations, which the window
  already names: what a player is asked is decided on public facts (`Game.may_interrupt`: an Interrupt
  is asked of whoever *might* hold a usable one, a permission from the hand whenever the hand is not
  empty, rules.md §7a), but what they can answer is theirs. For the same reason a non-deciding viewer
  sees no priority holder (`priority` is -1 for them).
- legal actions and explanations, except for the viewer who is deciding.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine import legality
from engine.actions import Action, Activate, Play
from engine.cards import CHOICE_TARGETS, Effect, mode_words, voidcast_words
from engine.game import Game
from engine.state import (
    MAIN,
    SET,
    TRIGGER_WINDOWS,
    WINDOW_RULE,
    WINDOW_TEXT,
    WINDOWS,
    phase_of,
)

#: keywords a card in play shows as statuses instead (they can be lost: Veiled, Barrier, Rooted)
STATUS_KEYWORDS = ("barrier", "veiled", "rooted")


@dataclass(frozen=True, slots=True)
class CardRef:
    """A card the viewer may see, by id and name."""

    cid: int
    name: str


@dataclass(frozen=True, slots=True)
class UnitView:
    """A unit or relic in play (public)."""

    cid: int
    name: str
    type: str                      # unit | relic
    owner: int
    power: int = 0
    health: int = 0                # what remains (max - damage)
    max_health: int = 0
    damage: int = 0
    keywords: tuple[str, ...] = ()  # "Strike", "Ward 2" (Barrier, Veiled and Rooted show as statuses)
    statuses: tuple[str, ...] = ()
    counters: tuple[tuple[str, int], ...] = ()
    exhausted: bool = False
    deploying: bool = False        # entered play this turn without Charge: can't attack yet
    attacking: bool = False
    blocking: int = 0              # the attacker it blocks
    blocked_by: int = 0            # for an attacker: its blocker
    text: str = ""
    activated: int = 0             # number of activated abilities


@dataclass(frozen=True, slots=True)
class HandCard:
    """A card of the viewer's own hand or Set zone (a Set card's name ends in " [Set]")."""

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


@dataclass(frozen=True, slots=True)
class SideView:
    """One player's public facts."""

    player: int
    name: str
    life: int
    influence: int
    capacity: int
    library: int                   # sizes only: no library's order is ever shown
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
    graveyard_cards: tuple[CardRef, ...] = ()   # bottom first
    void_cards: tuple[CardRef, ...] = ()
    max_influence: int = 0
    hand_limit: int = 0


@dataclass(frozen=True, slots=True)
class StackEntry:
    pos: int                       # 1 = top (resolves next)
    uid: int
    name: str
    kind: str
    source: int
    who: str                       # the player who put it there, or "game"
    controller: str
    targets: tuple[str, ...] = ()
    controller_seat: int = -1      # the controller's seat (0/1): names may be alike
    #: the choices made as it was played, in words (rules.md §7a: public): "mode 2: draw 2 cards",
    #: "Voidcast: paid 1 …"; "" if none
    choice: str = ""


@dataclass(frozen=True, slots=True)
class Explain:
    """For one thing the deciding viewer might try: legal now, or why not (with its rule)."""

    subject: int
    what: str
    legal: bool
    rule: str = ""
    reason: str = ""


@dataclass(frozen=True, slots=True)
class PendingView:
    """The viewer's own pending decision (only the deciding viewer gets one)."""

    kind: str                      # priority | attackers | blockers | interrupt | choice
    rule: str
    prompt: str
    allowed: str                   # what kinds of actions are allowed now, in a learner's words
    options: tuple[str, ...] = ()  # choice: the numbered options' labels
    eligible: tuple[int, ...] = ()  # attackers / blockers / interrupt sources / choice cards
    min_choices: int = 0
    max_choices: int = 0
    can_decline: bool = False
    #: priority, interrupt and choice decisions: every legal action (Concede, always legal, not listed)
    legal: tuple[Action, ...] = ()
    #: blockers: the (blocker, attacker) pairs that are each legal on their own
    block_ok: tuple[tuple[int, int], ...] = ()
    explain: tuple[Explain, ...] = ()
    #: blockers: the other (blocker, attacker) pairs of eligible blockers and attackers, each with the
    #: rule and reason it is refused (C1K 4.2, KW Veiled)
    block_no: tuple[tuple[int, int, str, str], ...] = field(default=(), repr=False)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything `viewer` may know of the match now (see the module docstring for what it hides)."""

    viewer: int
    turn: int
    active: int
    window: str                    # window id ("main.priority")
    window_index: int
    rule: str                      # the window's rule, or the viewer's decision's rule
    window_text: str
    phase: str
    structure: tuple[str, ...]     # the turn's windows, in order
    waiting_for: int               # the player who must decide now (-1: nobody, the match is over)
    waiting_text: str              # "waiting for p2" for a viewer who isn't deciding, else ""
    declaring: bool                # the decision is a declaration (attackers/blockers): the window says so
    priority: int                  # the priority holder, as far as the viewer may know (-1 otherwise)
    decision: PendingView | None   # only when the viewer is the one deciding
    me: SideView
    opponent: SideView
    hand: tuple[HandCard, ...]     # the viewer's hand, then their Set cards
    stack: tuple[StackEntry, ...]  # top first
    stack_hint: str
    attackers: tuple[int, ...]
    blocks: tuple[tuple[int, int], ...]   # (blocker, attacker); blocker 0: its blocker left play
    outcome: str | None
    termination: str | None
    winner: int | None
    seed: int | None               # only once the match is over
    commands: int                  # commands the viewer knows of (the other's private declines left out)
    #: the position of the current window in `structure` (a window id may appear twice: a Seat's extra
    #: combat phase); `window_index` stays the window's row in the turn table
    step: int = 0

    def side(self, player: int) -> SideView:
        return self.me if player == self.viewer else self.opponent

    @property
    def deciding(self) -> bool:
        return self.decision is not None


# ---------------------------------------------------------------- building a view


def _keywords(g: Game, cid: int, in_play: bool) -> tuple[str, ...]:
    d = g.card(cid)
    perm = g.perms.get(cid)
    kws = dict(d.keywords)
    if perm is not None:
        for k in perm.lost or ():
            kws.pop(k, None)
        kws.update(perm.granted)
        kws.update(perm.temp_granted)
        if in_play and "ward" in kws:
            kws["ward"] = perm.ward      # the points left: spent as it prevents (KW Ward); "Ward 0" once used up
    return tuple(k.capitalize() if not n and k != "ward" else f"{k.capitalize()} {n}" for k, n in sorted(kws.items())
                 if not (in_play and k in STATUS_KEYWORDS))


def _unit(g: Game, cid: int) -> UnitView:
    d = g.card(cid)
    perm = g.perms[cid]
    counters = tuple(sorted((k, v) for k, v in perm.counters.items() if v))
    if d.type != "unit":
        return UnitView(cid, d.name, d.type, g.owner[cid], statuses=tuple(perm.all_statuses()), counters=counters,
                        exhausted=perm.exhausted, text=d.text, activated=len(d.act))
    blocking = next((a for b, a in g.blocks if b == cid), 0)
    blocked_by = next((b for b, a in g.blocks if a == cid and b), 0)
    deploying = perm.entered_turn == g.turn and g.keyword(cid, "charge") is None and g.owner[cid] == g.active
    return UnitView(cid, d.name, d.type, g.owner[cid], g.power(cid), g.health(cid), g.max_health(cid), perm.damage,
                    _keywords(g, cid, True), tuple(perm.all_statuses()), counters, perm.exhausted, deploying,
                    cid in g.attackers, blocking, blocked_by, d.text, len(d.act))


def _side(g: Game, p: int, deciding: int) -> SideView:
    ps = g.players[p]
    champ = g.card(ps.champion)
    seat = g.card(ps.seat) if ps.seat else None
    set_count = len(ps.set_cards)
    return SideView(
        p, ps.name, ps.life, ps.influence, ps.capacity, len(ps.library), len(ps.graveyard), len(ps.hand),
        set_count, ps.champion, champ.name, champ.text, ps.seat, seat.name if seat else "",
        seat.text if seat else "",
        tuple(_unit(g, c) if c else None for c in ps.board),
        tuple(_unit(g, c) if c else None for c in ps.relics),
        p == g.active, p == deciding, ps.exhaustions,
        tuple(CardRef(c, g.card(c).name) for c in ps.graveyard),
        tuple(CardRef(c, g.card(c).name) for c in ps.void),
        ps.max_influence, ps.hand_size)


def _hand(g: Game, p: int, explain: dict[int, Explain], waiting: str) -> tuple[HandCard, ...]:
    out = []
    ps = g.players[p]
    for cid in ps.hand + ps.set_cards:
        d = g.card(cid)
        e = explain.get(cid)
        is_set = g.zone[cid] == SET   # Veil: Set face down, played later at Fast speed
        if e is not None:
            legal, rule, reason = e.legal, e.rule, e.reason
        else:
            legal, rule, reason = False, "C1K 10", waiting
        out.append(HandCard(cid, d.name + (" [Set]" if is_set else ""), d.cost, "fast" if is_set else d.speed,
                            d.type, d.text, d.power, d.health, _keywords(g, cid, False), legal, rule, reason))
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


def _stack(g: Game) -> tuple[StackEntry, ...]:
    out = []
    for i, it in enumerate(reversed(g.stack), 1):
        who = "game" if it.adder < 0 else g.players[it.adder].name
        targets = []
        for t in it.targets:
            if g.exists(t):
                targets.append(g.players[g.champion_owner(t)].name if g.is_champion(t) else f"#{t} {g.card(t).name}")
            else:
                targets.append(f"stack item {t}")   # an Interrupt/counter target is a stack item uid
        choice = []
        if it.mode and g.exists(it.source):
            choice.append(mode_words(g.card(it.source), it.mode))
        if it.keyword == "voidcast" and g.exists(it.source):
            choice.append(voidcast_words(g.card(it.source)))
        out.append(StackEntry(i, it.uid, it.name, it.kind, it.source, who, g.players[it.controller].name,
                              tuple(targets), it.controller, "; ".join(choice)))
    return tuple(out)


def _stack_hint(g: Game) -> str:
    """How the top of the stack resolves (RB 1.2), in a learner's words."""
    if not g.stack:
        return ""
    top = g.stack[-1]
    if top.adder < 0:
        return "▶ resolves when both players pass in a row (added by the game, RB 1.2)"
    return f"▶ resolves when {g.players[1 - top.adder].name} passes (added by {g.players[top.adder].name}, RB 1.2)"


def _pending(g: Game, viewer: int) -> tuple[PendingView, dict[int, Explain]]:
    d = g.decision
    exp = tuple(Explain(e.subject, e.what, e.legal, e.rule, e.reason) for e in g.explain(viewer))
    legal: tuple[Action, ...] = ()
    block_ok: tuple[tuple[int, int], ...] = ()
    if d.kind in ("priority", "interrupt", "choice"):
        legal = tuple(g.legal_actions())
    block_no: list[tuple[int, int, str, str]] = []
    if d.kind == "blockers":
        ok: list[tuple[int, int]] = []
        for b in d.eligible:
            for a in g.attackers:
                r = legality.can_block(g, b, a)
                if r is None:
                    ok.append((b, a))
                else:
                    block_no.append((b, a, r.rule, r.reason))
        block_ok = tuple(ok)
    by_card = {e.subject: e for e in exp if e.what.startswith("play ")}
    return PendingView(d.kind, d.rule, d.prompt, allowed_now(g), d.options, d.eligible, d.min_choices,
                       d.max_choices, d.can_decline, legal, block_ok, exp, tuple(block_no)), by_card


def observe(game: Game, player: int) -> PlayerView:
    """What `player` (0 or 1) may know of `game` now, as frozen values."""
    if player not in (0, 1):
        raise ValueError(f"a view is for player 0 or 1, not {player!r}")
    g = game
    d = g.decision
    w = g.win
    decider = g.current_player()
    deciding = decider == player
    decider_name = g.players[decider].name if decider >= 0 else ""
    waiting = f"waiting for {decider_name}" if decider >= 0 and not deciding else ""
    pending: PendingView | None = None
    by_card: dict[int, Explain] = {}
    if deciding:
        pending, by_card = _pending(g, player)
    declaring = d.kind in ("attackers", "blockers") and decider >= 0
    rule = WINDOW_RULE[w]
    if deciding and d.kind in ("interrupt", "choice"):
        rule = d.rule
    text = WINDOW_TEXT[w]
    if w in TRIGGER_WINDOWS:
        text += " (trigger window: priority only while the stack is not empty)"
    priority = g.priority if deciding else -1   # (module docstring: the other's decision kind stays hidden)
    o = g.outcome
    return PlayerView(
        player, g.turn, g.active, WINDOWS[w], w, rule, text, phase_of(w), g.turn_structure(), decider, waiting,
        declaring, priority, pending, _side(g, player, decider), _side(g, 1 - player, decider),
        _hand(g, player, by_card, waiting if decider >= 0 else "the match is over"),
        _stack(g), _stack_hint(g), g.attackers, g.blocks,
        str(o) if o is not None else None, o.termination.value if o is not None else None,
        o.winner if o is not None else None, g.seed if o is not None else None, g.commands_known_to(player), g.step)


#: effect verbs that help what they target (anything else chosen as a target is harmed by it)
HELP_VERBS = frozenset({"heal", "grant", "buff"})


def _targeted(effects: Sequence[Effect], mode: int | None) -> list[Effect]:
    """The effects that name a chosen target (as engine.targets.effect_slots walks them)."""
    out: list[Effect] = []
    for e in effects:
        if e.do == "thread" and e.branches:
            m = (mode or 1) - 1
            if 0 <= m < len(e.branches):
                out += _targeted(e.branches[m], None)
        elif e.target in CHOICE_TARGETS or (e.target == "same" and out):
            out.append(e)
    return out


def helps_targets(game: Game, action: Action) -> bool:
    """Whether a play or activation helps the targets it chooses (heal, a buff, a granted status) rather
    than harming them, from the definition of the card it comes from (the deciding player's own, or a
    public one). An interface starts its target cursor on the player's own side for help, on the
    opponent's for harm (tui.md round 2)."""
    if isinstance(action, Play) and action.targets:
        d = game.card(action.card)
        effects = list(d.effect) if d.type == "action" else [
            e for ab in d.abilities if ab.when == "on_play" for e in ab.effect]
        chosen = _targeted(effects, action.mode)
    elif isinstance(action, Activate) and action.targets:
        acts = game.activated(action.source)
        if not 1 <= action.n <= len(acts):
            return False
        chosen = _targeted(acts[action.n - 1][1].effect, None)
    else:
        return False
    return bool(chosen) and all(e.do in HELP_VERBS and (e.do != "buff" or (e.power >= 0 and e.health >= 0))
                                for e in chosen)


def mode_label(game: Game, card: int, mode: int) -> str:
    """A Thread card's mode in words ("mode 2: draw 2 cards"), for the player choosing it."""
    return mode_words(game.card(card), mode)


def public_windows() -> tuple[tuple[str, str, str], ...]:
    """The turn structure: (window id, rule, text) for each of the 15 windows, in order."""
    return tuple(zip(WINDOWS, WINDOW_RULE, WINDOW_TEXT, strict=True))


__all__ = ["CardRef", "Explain", "HandCard", "PendingView", "PlayerView", "SideView", "StackEntry", "UnitView",
           "helps_targets", "mode_label",
           "allowed_now", "observe", "public_windows"]
