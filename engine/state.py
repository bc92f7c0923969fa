"""The pieces of a game state: windows, zones, in-play card state, stack items, decisions, outcome.

Everything here is plain data with a hand-written `copy()`: `Game.clone()` copies only what can change
(a few lists, and the state of the cards in play) and shares what cannot (card definitions, frozen
stack items and decisions).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from engine.cards import Effect
from engine.continuations import OPEN_PRIORITY, Continuation
from engine.values import fast_init

# ---------------------------------------------------------------- windows (rules.md §2)


@dataclass(frozen=True, slots=True)
class WindowSpec:
    """One row of the turn structure table (TPS "Phase System Extensibility"): the turn manager
    (`engine.turn.goto`) walks these rows and nothing else advances the turn.

    `kind`: `trigger` (priority only while the stack is non-empty), `turn_based` (no priority: its steps
    run, then the next window), `priority` (stops for both players), `declaration` (a player declares,
    then priority). `steps`: the turn-based steps, in order, by name (`engine.turn.TURN_STEPS`);
    "phase_trigger" puts the window's registered phase trigger (`trigger`) on the stack."""

    id: str
    kind: str
    rule: str
    steps: tuple[str, ...]
    trigger: str
    text: str


TURN_TABLE: tuple[WindowSpec, ...] = (
    WindowSpec("draw.start", "trigger", "C1K 1.1", ("ready", "phase_trigger"), "start_of_draw",
               "The active player's units ready; start-of-Draw triggers go on the stack before the draw."),
    WindowSpec("draw.draw", "turn_based", "C1K 1.2", ("draw",), "",
               "The active player draws (an empty library means Deck Exhaustion)."),
    WindowSpec("draw.post", "priority", "C1K 1.3", (), "",
               "Response window after the draw: Fast actions only; no attacks."),
    WindowSpec("influence.start", "trigger", "C1K 2.1", ("sba", "phase_trigger"), "start_of_influence",
               "State-based actions, then start-of-Influence triggers (Regeneration, growth, pulses, decay checks)."),
    WindowSpec("influence.gain", "turn_based", "C1K 2.2", ("influence_gain",), "",
               "Influence capacity +1 (max 10), then the pool refills to capacity."),
    WindowSpec("influence.response", "priority", "C1K 2.3", (), "",
               "Response window: Fast actions only; Units only if they are Fast."),
    WindowSpec("main.priority", "priority", "C1K 3.1", ("phase_trigger",), "start_of_main",
               "Main Phase: the active player may play Units, Relics and Slow actions on an empty stack; anyone Fast."),
    WindowSpec("combat.declare_attackers", "declaration", "C1K 4.1", ("declare_attackers",), "",
               "The active player declares attackers (or none: combat ends)."),
    WindowSpec("combat.declare_blockers", "declaration", "C1K 4.2", ("declare_blockers",), "",
               "The defending player declares blockers; Guard units must block first."),
    WindowSpec("combat.damage", "turn_based", "C1K 4.3", ("combat_damage",), "",
               "Combat damage: Strike first, then simultaneous damage; nobody gets priority inside this step."),
    WindowSpec("combat.post", "trigger", "C1K 4.4", ("combat_triggers",), "",
               "Triggers caused by combat (deaths, kills, champion hits, end of attack/combat) go on the stack."),
    WindowSpec("combat.exit", "priority", "C1K 4.5", (), "",
               "One final priority window before the End Phase."),
    WindowSpec("end.start", "trigger", "C1K 5.1", ("phase_trigger", "voidcast_returns"), "start_of_end",
               "Start-of-End triggers go on the stack first."),
    WindowSpec("end.cleanup", "turn_based", "C1K 5.2", ("cleanup",), "",
               "Discard down to hand size; 'until end of turn' effects end."),
    WindowSpec("end.final", "priority", "C1K 5.3", (), "",
               "Final window: when both players pass, the turn ends."),
)

WINDOWS: tuple[str, ...] = tuple(w.id for w in TURN_TABLE)
(DRAW_START, DRAW_DRAW, DRAW_POST, INFLUENCE_START, INFLUENCE_GAIN, INFLUENCE_RESPONSE, MAIN,
 DECLARE_ATTACKERS, DECLARE_BLOCKERS, COMBAT_DAMAGE, COMBAT_POST, COMBAT_EXIT,
 END_START, END_CLEANUP, END_FINAL) = range(15)

WINDOW_INDEX = {w: i for i, w in enumerate(WINDOWS)}
WINDOW_RULE: tuple[str, ...] = tuple(w.rule for w in TURN_TABLE)
WINDOW_TEXT: tuple[str, ...] = tuple(w.text for w in TURN_TABLE)

#: windows with priority only while the stack is non-empty (passed through when nothing triggers)
TRIGGER_WINDOWS = frozenset(i for i, w in enumerate(TURN_TABLE) if w.kind == "trigger")
#: windows that stop for both players, and end when both pass on an empty stack
PRIORITY_WINDOWS = frozenset(i for i, w in enumerate(TURN_TABLE) if w.kind == "priority")
#: phase triggers registered by window id (rules.md §2): "start_of_draw" … for the active player's cards
PHASE_TRIGGERS: dict[str, str] = {w.id: w.trigger for w in TURN_TABLE if w.trigger}

#: the phases, in order, each with its windows (a phase is the windows sharing the id's prefix)
PHASES: tuple[tuple[str, tuple[int, ...]], ...] = tuple(
    (ph, tuple(i for i, w in enumerate(WINDOWS) if w.split(".", 1)[0] == ph))
    for ph in dict.fromkeys(w.split(".", 1)[0] for w in WINDOWS))
#: the first window of each phase (where "this phase ends" goes next)
PHASE_STARTS = frozenset(ws[0] for _, ws in PHASES)
#: the default structure of a turn: every window once, in table order
DEFAULT_STRUCTURE: tuple[int, ...] = tuple(range(len(TURN_TABLE)))
#: windows a Seat may skip through a named hook (plain response windows: no turn-based step, no trigger)
SKIP_HOOKS: dict[str, int] = {"skip_draw_post": DRAW_POST, "skip_influence_response": INFLUENCE_RESPONSE,
                              "skip_combat_exit": COMBAT_EXIT}


def phase_of(window: int) -> str:
    return WINDOWS[window].split(".", 1)[0]


#: the Seat modifiers that change the turn structure (named hooks of the turn manager)
TURN_HOOKS = ("extra_combat_phases", *SKIP_HOOKS)


def seat_structure(mods: Mapping[str, int]) -> tuple[int, ...]:
    """The turn structure a Seat's modifiers make (engine.turn.turn_windows): the table, changed only by
    the named hooks (`extra_combat_phases`, `skip_*`)."""
    if not any(k in mods for k in TURN_HOOKS):
        return DEFAULT_STRUCTURE
    skip = {w for k, w in SKIP_HOOKS.items() if mods.get(k, 0)}
    out: list[int] = []
    for phase, windows in PHASES:
        for _ in range(1 + (mods.get("extra_combat_phases", 0) if phase == "combat" else 0)):
            out += [w for w in windows if w not in skip]
    return tuple(out)


# ---------------------------------------------------------------- zones

LIBRARY, HAND, BOARD, RELICS, GRAVEYARD, VOID, STACK, COMMAND, SET, GONE = range(10)
ZONE_NAMES: tuple[str, ...] = (
    "library", "hand", "board", "relics", "graveyard", "void", "stack", "command", "set", "gone",
)


def player_name(p: int) -> str:
    return f"p{p + 1}"


# ---------------------------------------------------------------- cards in play


class Perm:
    """The changing state of a card in play (unit, relic, champion, seat). Gone when it leaves play."""

    __slots__ = (
        "damage", "counters", "statuses", "temp_statuses", "power_mod", "health_mod", "temp_power",
        "temp_health", "granted", "temp_granted", "exhausted", "entered_turn", "seq", "ward", "used",
        "killer", "play_targets", "lost",
    )

    def __init__(self, entered_turn: int, seq: int) -> None:
        self.damage = 0
        self.counters: dict[str, int] = {}
        self.statuses: list[str] = []          # sorted; printed or permanently granted
        self.temp_statuses: list[str] = []     # sorted; end at cleanup
        self.power_mod = 0
        self.health_mod = 0
        self.temp_power = 0
        self.temp_health = 0
        self.granted: dict[str, int] = {}      # keyword -> number, permanent
        self.temp_granted: dict[str, int] = {}  # until end of turn
        self.exhausted = False
        self.entered_turn = entered_turn
        self.seq = seq
        self.ward = 0
        self.used: dict[int, int] = {}         # ability index -> turn it was last used (once per turn)
        self.killer = 0                        # card id that last damaged it
        self.play_targets: tuple[int, ...] = ()
        self.lost: list[str] = []              # printed keywords it has lost (e.g. Veilbind once used)

    def copy(self) -> Perm:
        p = Perm.__new__(Perm)
        p.damage = self.damage
        p.counters = self.counters.copy()
        p.statuses = self.statuses.copy()
        p.temp_statuses = self.temp_statuses.copy()
        p.power_mod = self.power_mod
        p.health_mod = self.health_mod
        p.temp_power = self.temp_power
        p.temp_health = self.temp_health
        p.granted = self.granted.copy()
        p.temp_granted = self.temp_granted.copy()
        p.exhausted = self.exhausted
        p.entered_turn = self.entered_turn
        p.seq = self.seq
        p.ward = self.ward
        p.used = self.used.copy()
        p.killer = self.killer
        p.play_targets = self.play_targets
        p.lost = self.lost.copy()
        return p

    def has_status(self, s: str) -> bool:
        return s in self.statuses or s in self.temp_statuses

    def all_statuses(self) -> list[str]:
        return sorted(set(self.statuses) | set(self.temp_statuses))

    def snapshot(self) -> dict[str, object]:
        return {
            "damage": self.damage, "counters": dict(sorted(self.counters.items())),
            "statuses": list(self.statuses), "temp_statuses": list(self.temp_statuses),
            "power_mod": self.power_mod, "health_mod": self.health_mod,
            "temp_power": self.temp_power, "temp_health": self.temp_health,
            "granted": dict(sorted(self.granted.items())), "temp_granted": dict(sorted(self.temp_granted.items())),
            "exhausted": self.exhausted, "entered_turn": self.entered_turn, "seq": self.seq, "ward": self.ward,
            "used": {str(k): v for k, v in sorted(self.used.items())}, "killer": self.killer,
            "play_targets": list(self.play_targets), "lost": list(self.lost),
        }


class PlayerState:
    __slots__ = (
        "life", "influence", "capacity", "hand", "library", "graveyard", "void", "board", "relics",
        "champion", "seat", "exhaustions", "permits", "draw_count", "hand_size", "max_influence", "name",
        "set_cards", "influence_gain", "structure",
    )

    def __init__(self, name: str, slots: int = 6, relic_slots: int = 3) -> None:
        self.name = name
        self.life = 20
        self.influence = 0
        self.capacity = 0
        self.hand: list[int] = []
        self.library: list[int] = []       # top first
        self.graveyard: list[int] = []
        self.void: list[int] = []
        self.set_cards: list[int] = []     # Veil: cards Set face down (hidden from the opponent)
        self.board: list[int] = [0] * slots     # card id or 0
        self.relics: list[int] = [0] * relic_slots
        self.champion = 0
        self.seat = 0
        self.exhaustions = 0
        self.permits: list[tuple[str, str, int]] = []   # (zone, card_type, until turn) — OPP duration
        self.draw_count = 1
        self.hand_size = 8
        self.max_influence = 10
        self.influence_gain = 1
        #: this player's turn structure (engine.turn.turn_windows): derived from the Seat's turn hooks when
        #: the Seat is set (MatchState.apply_seat), not state (the snapshot has the Seat)
        self.structure = DEFAULT_STRUCTURE

    def copy(self) -> PlayerState:
        p = PlayerState.__new__(PlayerState)
        p.name = self.name
        p.life = self.life
        p.influence = self.influence
        p.capacity = self.capacity
        p.hand = self.hand.copy()
        p.library = self.library.copy()
        p.graveyard = self.graveyard.copy()
        p.void = self.void.copy()
        p.set_cards = self.set_cards.copy()
        p.board = self.board.copy()
        p.relics = self.relics.copy()
        p.champion = self.champion
        p.seat = self.seat
        p.exhaustions = self.exhaustions
        p.permits = self.permits.copy()
        p.draw_count = self.draw_count
        p.hand_size = self.hand_size
        p.max_influence = self.max_influence
        p.influence_gain = self.influence_gain
        p.structure = self.structure
        return p

    def units(self) -> list[int]:
        return list(filter(None, self.board))   # (the occupied slots, in order; filtered in C)

    def snapshot(self) -> dict[str, object]:
        return {
            # the player's *name* is presentation (seats are p1/p2): not in the hashed state
            "life": self.life, "influence": self.influence, "capacity": self.capacity,
            "hand": list(self.hand), "library": list(self.library), "graveyard": list(self.graveyard),
            "void": list(self.void), "set": list(self.set_cards), "influence_gain": self.influence_gain,
            "board": list(self.board), "relics": list(self.relics), "champion": self.champion, "seat": self.seat,
            "exhaustions": self.exhaustions, "permits": [list(p) for p in self.permits],
            "draw_count": self.draw_count, "hand_size": self.hand_size, "max_influence": self.max_influence,
        }


# ---------------------------------------------------------------- stack, triggers, decisions


#: what waits to go on the stack: a card's triggered ability, a keyword's trigger (Decay Check, Growth,
#: Regeneration, Pulse), a rule's own item (Deck Exhaustion), a returning Voidcast card, a Thread branch
TriggerKind = Literal["trigger", "keyword", "game", "voidcast", "thread"]
#: what a stack item is: a card being played, an activated ability, or one of the TriggerKinds
StackKind = Literal["card", "ability", "trigger", "keyword", "game", "voidcast", "thread"]
#: what a pending decision asks: priority, a declaration of attackers or blockers, whether to use an
#: Interrupt, a numbered choice — or nothing (the match is over, or is being set up)
DecisionKind = Literal["priority", "attackers", "blockers", "interrupt", "choice", "none"]
#: what a numbered choice is for
ChoiceKind = Literal["discard", "trigger_target", "permit", "order", "thread"]


@fast_init
@dataclass(frozen=True, slots=True)
class StackItem:
    """One item on the stack. `adder` is the player who added it, or -1 for the game (triggers)."""

    uid: int
    kind: StackKind
    source: int          # card id (0 for a rule's own trigger)
    controller: int
    adder: int
    name: str
    ability: int = -1    # index into the source's abilities (ability / trigger)
    targets: tuple[int, ...] = ()
    mode: int = 0
    keyword: str = ""    # keyword triggers: which keyword; a card cast for its Voidcast cost: "voidcast"
    ctx: int = 0         # the card an event concerned (e.g. the dying unit); for a card played by a
                         # permission, 1: its on-play targets are chosen when the trigger goes on the stack
    slot: int = -1       # a unit or relic: the chosen slot (0-based), -1 for the first empty one
    tseq: tuple[int, ...] = ()   # for each target, which time in play it was targeted (Perm.seq): a unit
                                 # that left play and came back is a new object, no longer the target

    def snapshot(self) -> list[object]:
        # `name` is a label (the card's name, or the keyword for a rule's trigger): not hashed
        return [self.uid, self.kind, self.source, self.controller, self.adder, self.ability,
                list(self.targets), self.mode, self.keyword, self.ctx, self.slot, list(self.tseq)]


@fast_init
@dataclass(frozen=True, slots=True)
class Trigger:
    """A triggered ability waiting to be put on the stack (before anyone next receives priority)."""

    controller: int
    source: int
    ability: int          # -1: keyword or game trigger
    name: str
    seq: int              # when its source entered play (earliest resolves first)
    rank: int = 0         # C1K 8.2 tie-breaks: lower resolves first
    kind: TriggerKind = "trigger"
    keyword: str = ""
    ctx: int = 0
    targets: tuple[int, ...] = ()
    chosen: bool = False   # its targets were decided already (a played unit's on-play: in the command)
    mode: int = 0          # Thread: the branch chosen when the card was played
    ordered: bool = False  # Paradox: its controller already ordered it among simultaneous Flux effects
    tseq: tuple[int, ...] = ()   # targets chosen earlier: which time in play each was (see StackItem)

    def snapshot(self) -> list[object]:
        # `name` is a label (see StackItem.snapshot): not hashed
        return [self.controller, self.source, self.ability, self.seq, self.rank, self.kind,
                self.keyword, self.ctx, list(self.targets), self.chosen, self.mode, self.ordered,
                list(self.tseq)]




@fast_init
@dataclass(frozen=True, slots=True)
class Decision:
    """What the engine is waiting for (its `kind`: see DecisionKind)."""

    kind: DecisionKind
    player: int
    window: str
    rule: str
    prompt: str
    options: tuple[str, ...] = ()   # choice: labels of the numbered options (1-based in commands)
    min_choices: int = 0
    max_choices: int = 0
    can_decline: bool = False
    #: attackers: the units that may attack; blockers: the units that may block; interrupt: the cards
    #: whose Interrupt may be used; choice: the card ids behind the numbered options
    eligible: tuple[int, ...] = ()

    def snapshot(self) -> list[object]:
        # the prompt, rule and option labels are presentation derived from the state: not hashed,
        # so rewording a prompt never changes a state hash
        return [self.kind, self.player, self.window, self.min_choices, self.max_choices, self.can_decline,
                list(self.eligible)]


@fast_init
@dataclass(frozen=True, slots=True)
class Choice:
    """A pending choice: what it is for and which card ids (or values) its numbered options stand for."""

    kind: ChoiceKind
    player: int
    values: tuple[int, ...]
    count: int                   # exactly this many (0..count with can_decline)
    resume: Continuation         # where the game goes once the choice is made
    trigger: Trigger | None = None
    source: int = 0
    free: bool = False

    def snapshot(self) -> dict[str, object]:
        return {"kind": self.kind, "player": self.player, "values": list(self.values), "count": self.count,
                "resume": self.resume.snapshot(), "trigger": self.trigger.snapshot() if self.trigger else None,
                "source": self.source, "free": self.free}


@fast_init
@dataclass(frozen=True, slots=True)
class InterruptWindow:
    """C1K §7: an event that Interrupts may answer; `queue` are the players still to be asked (AP first)."""

    event: str                   # opponent_plays_action | attacker_declared
    queue: tuple[int, ...]
    item: int                    # the stack item uid (played action), or 0
    attackers: tuple[int, ...]
    resume: Continuation         # where the game goes once nobody else is asked

    def snapshot(self) -> list[object]:
        return [self.event, list(self.queue), self.item, list(self.attackers), self.resume.snapshot()]


@fast_init
@dataclass(frozen=True, slots=True)
class Resolving:
    """A resolution paused at a Flux outcome while players are asked for `flux_outcome` Interrupts."""

    item: StackItem | None
    controller: int
    source: int
    effects: tuple[Effect, ...]      # the effects still to run after the Flux
    chosen: tuple[int, ...]          # chosen targets not yet used
    event: tuple[int, ...]
    mode: int
    flux: Effect
    k: int                           # the outcome drawn (0-based); a reroll draws it again
    then: Continuation = OPEN_PRIORITY   # how the game continues afterwards (engine.decisions.resume)
    #: what `target = "same"` refers to in the effects still to run (None: nothing yet, rules.md §10)
    same: tuple[int, ...] | None = None

    def snapshot(self) -> dict[str, object]:
        # effects as the card file's tables (docs/cards.md) with fields at their default left out
        out: dict[str, object] = {"item": self.item.snapshot() if self.item else None, "controller": self.controller,
               "source": self.source, "effects": [e.model_dump(exclude_defaults=True) for e in self.effects],
               "chosen": list(self.chosen), "event": list(self.event), "mode": self.mode,
               "flux": self.flux.model_dump(exclude_defaults=True), "k": self.k, "then": self.then.snapshot()}
        if self.same is not None:   # (only a card with target = "same" has it: older hashes stay as they were)
            out["same"] = list(self.same)
        return out


class Termination(enum.Enum):
    CHAMPION_DEFEATED = "champion_defeated"
    BOTH_DEFEATED = "both_defeated"
    CONCEDED = "conceded"
    TURN_LIMIT = "turn_limit"
    ENDLESS_LOOP = "endless_loop"   # rules.md §1: a state repeats with only passes in between — a draw


@fast_init
@dataclass(frozen=True, slots=True)
class Outcome:
    termination: Termination
    winner: int | None      # 0, 1 or None (draw)

    def result(self) -> str:
        return "draw" if self.winner is None else player_name(self.winner)

    def __str__(self) -> str:
        return f"{self.result()} ({self.termination.value})"


@dataclass(frozen=True, slots=True)
class MatchOptions:
    """Options recorded in the match record. `practice`: a refusal never moves priority (C1K §10)."""

    practice: bool = False
    max_turns: int = 0          # 0: no limit; otherwise a draw (turn_limit) after this many turns
    unit_slots: int = 6
    relic_slots: int = 3
    #: OPP 8.1's rule (not C1K's): after an action the actor keeps priority. Off by default (rules.md §3).
    actor_keeps_priority: bool = False
    #: who goes first (rules.md §1, TPS "turn order is deterministic and configurable"): p1, p2, or
    #: random — drawn from the StateSeed's generator before the shuffle, so it is part of the replay
    first: str = "p1"
    #: the first player's first draw (rules.md §1): skipped unless this is set
    first_player_draws: bool = False
    #: what the second player gets for going second (rules.md `RULES Second player`): none, or parts joined by
    #: "+" in the order of COMPENSATION_PARTS: card (one more card in the opening hand); coin (the Coin, a
    #: token action in the opening hand: Fast, gain 1 Influence); influence (+1 Influence on their first
    #: turn); capacity (+1 Influence capacity from their first turn on). card+coin is Hearthstone's.
    compensation: str = "card+coin+influence"   # measured: docs/rules.md `RULES Second player`

    def __post_init__(self) -> None:
        if self.first not in FIRST_PLAYER_CHOICES:
            raise ValueError(f"first = '{self.first}': expected one of {', '.join(FIRST_PLAYER_CHOICES)}")
        if self.compensation not in COMPENSATION_CHOICES:
            raise ValueError(f"compensation = '{self.compensation}': expected none, or one or more of "
                             f"{', '.join(COMPENSATION_PARTS)} joined by '+' in that order (e.g. card+coin)")

    def slots(self, seat_modifiers: Mapping[str, int]) -> tuple[int, int]:
        """A player's unit and relic slots (rules.md `SEAT`): their Seat's `unit_slots` / `relic_slots`
        hooks where it has them, else these options (the format's; 6 and 3 by default)."""
        return (max(1, seat_modifiers.get("unit_slots", self.unit_slots)),
                max(0, seat_modifiers.get("relic_slots", self.relic_slots)))

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "practice": self.practice, "max_turns": self.max_turns, "unit_slots": self.unit_slots,
            "relic_slots": self.relic_slots, "actor_keeps_priority": self.actor_keeps_priority}
        if self.first != "p1":   # the default is left out (records and hashes of p1-first matches unchanged)
            out["first"] = self.first
        if self.first_player_draws:
            out["first_player_draws"] = True
        if self.compensation != COMPENSATION_IF_ABSENT:   # left out (records and hashes of such matches unchanged)
            out["compensation"] = self.compensation
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, object]) -> MatchOptions:
        """The options `to_dict` wrote (a record's or a snapshot's): an absent `compensation` is
        COMPENSATION_IF_ABSENT, whatever today's default."""
        given: dict[str, Any] = {f.name: d[f.name] for f in fields(cls) if f.name in d}
        return cls(**{"compensation": COMPENSATION_IF_ABSENT, **given})

    def compensates(self, part: str) -> bool:
        """Whether the second player's compensation includes `part` (one of COMPENSATION_PARTS)."""
        return part in self.compensation.split("+")


FIRST_PLAYER_CHOICES = ("p1", "p2", "random")
#: the parts a second player's compensation is made of (MatchOptions.compensation), in their written order
COMPENSATION_PARTS = ("card", "coin", "influence", "capacity")
#: what an absent `compensation` means in a record or snapshot: card+coin, the default when the option was
#: made (2026-11-27); writing the default of 2026-11-28 (card+coin+influence) out keeps every older record valid
COMPENSATION_IF_ABSENT = "card+coin"
#: every value of MatchOptions.compensation: none, or parts joined by "+" in COMPENSATION_PARTS's order
COMPENSATION_CHOICES = ("none", *("+".join(p for i, p in enumerate(COMPENSATION_PARTS) if mask >> i & 1)
                                  for mask in range(1, 1 << len(COMPENSATION_PARTS))))
#: the Coin's card id (decks/cards/core.toml: a token, never in a deck)
COIN_CARD = "the-coin"


@dataclass
class Refusal:
    rule: str
    reason: str


@dataclass(frozen=True)
class Explanation:
    """For one thing a player might try now: whether it is legal and, if not, why (with its rule)."""

    subject: int          # card id
    what: str             # e.g. 'play "Cinder Bolt"', 'attack with Ash Warden'
    legal: bool
    rule: str = ""
    reason: str = ""
    examples: tuple[str, ...] = field(default=())


__all__ = [
    "COIN_CARD", "COMPENSATION_CHOICES", "COMPENSATION_IF_ABSENT", "COMPENSATION_PARTS",
    "DEFAULT_STRUCTURE", "FIRST_PLAYER_CHOICES", "PHASES", "PHASE_STARTS", "PHASE_TRIGGERS",
    "PRIORITY_WINDOWS", "SKIP_HOOKS", "TRIGGER_WINDOWS", "TURN_TABLE", "WINDOWS", "WINDOW_INDEX",
    "WINDOW_RULE", "WINDOW_TEXT", "ZONE_NAMES", "Choice", "ChoiceKind", "Decision", "DecisionKind",
    "Explanation", "InterruptWindow", "MatchOptions", "Outcome", "Perm", "PlayerState", "Refusal",
    "Resolving", "StackItem", "StackKind", "Termination", "Trigger", "TriggerKind", "WindowSpec",
    "phase_of", "player_name",
]
