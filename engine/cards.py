"""Card definitions: the TOML schema of docs/formats.md §2, validated with pydantic v2.

pydantic gives us, for free, every error of a file at once with its location (card index and key), type
coercion that refuses nonsense, and `extra="forbid"` for unknown keys; we add the file name, the card's
id and a "did you mean" suggestion. The engine's hot paths never touch pydantic: a validated card becomes
a `CardDef` (a slotted, immutable record) and effects stay frozen models read by attribute.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import json
import pickle
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictBool,
    StrictInt,
    ValidationError,
    field_validator,
    model_validator,
)

from engine.errors import BadInput
from engine.safeio import Kind, ReadRefused, control_refusal, nesting_depth, read_bounded

CardType = Literal["unit", "relic", "action", "champion", "seat"]
Realm = Literal["dominion", "veil", "ruin", "genesis", "paradox", "solace", "null", "neutral"]
Speed = Literal["slow", "fast"]
Verb = Literal[
    "damage", "heal", "draw", "discard", "buff", "grant", "destroy", "counter", "summon",
    "gain_influence", "return_to_hand", "suppress", "flux", "thread", "permit", "reroll",
]
Target = Literal[
    "self", "unit", "friendly_unit", "enemy_unit", "champion", "enemy_champion", "friendly_champion",
    "all_enemy_units", "all_friendly_units", "all_units", "event",
    "random_enemy_unit", "random_friendly_unit", "random_unit", "same",
]
TriggerName = Literal[
    "on_play", "on_summon", "on_attack", "on_block", "start_of_combat", "end_of_attack", "on_kill",
    "on_death", "on_champion_hit", "end_of_combat", "start_of_draw", "start_of_influence", "start_of_end",
    "on_heal", "on_unit_played", "on_action_played", "on_damaged", "on_conquer", "on_bloom",
    "start_of_main", "on_combat_victory", "on_combat_loss",
]
InterruptEvent = Literal[
    "opponent_plays_action", "attacker_declared", "opponent_declares_attackers", "flux_outcome", "thread_resolves",
]
#: each Interrupt event in words, for the log and prompts (the names above are the card format's)
INTERRUPT_EVENT_TEXT: dict[str, str] = {
    "opponent_plays_action": "when the opponent plays an Action",
    "attacker_declared": "when an attacker is declared",
    "opponent_declares_attackers": "when the opponent declares attackers",
    "flux_outcome": "when a Flux outcome is determined",
    "thread_resolves": "when a Thread branch resolves",
}

#: the effect verbs of the card format (docs/cards.md), by name
EFFECT_VERBS: tuple[str, ...] = Verb.__args__  # type: ignore[attr-defined]
TARGETS: tuple[str, ...] = Target.__args__  # type: ignore[attr-defined]
TRIGGERS: tuple[str, ...] = TriggerName.__args__  # type: ignore[attr-defined]

#: targets the player names in the command (one `target <ref>` each, in effect order)
CHOICE_TARGETS = frozenset({"unit", "friendly_unit", "enemy_unit", "champion"})
#: targets that are one card: chosen by the player or drawn at random. `target = "same"` (rules.md CARD TEXT:
#: the card's "it", "that unit") is the target of the first of these in its effect list
ONE_TARGETS = CHOICE_TARGETS | {"random_enemy_unit", "random_friendly_unit", "random_unit"}
#: every keyword of rules.md §6; the ones taking a number are listed in NUMBERED_KEYWORDS
KEYWORDS = (
    "strike", "tough", "barrier", "overwhelm", "regeneration", "guard", "charge", "lifedrain",
    "rally", "conquer", "veiled", "ambush", "veilbind", "decay", "wither", "growth", "evolve", "bloom",
    "rooted", "flux", "thread", "pulse", "ward", "suppress", "nullify", "voidcast",
)
NUMBERED_KEYWORDS = frozenset({"rally", "decay", "growth", "pulse", "ward"})
STATUSES = ("barrier", "veiled", "suppressed", "rooted")
#: the Seat modifiers that change the turn structure (engine/turn.py's hooks; a test checks the two agree)
TURN_HOOK_MODIFIERS = ("extra_combat_phases", "skip_draw_post", "skip_influence_response", "skip_combat_exit")

#: seat modifiers (C1K 1.2, §6: Seats may change the structure) and their defaults; each is an explicit
#: hook of the turn manager (TPS: "modifying phase order requires explicit TurnManager configuration")
SEAT_MODIFIERS: dict[str, int] = {
    "draw_count": 1,           # cards drawn in draw.draw
    "hand_size": 8,            # maximum hand size at end.cleanup
    "max_influence": 10,       # the cap of Influence capacity
    "influence_gain": 1,       # capacity gained in influence.gain
    "starting_life_bonus": 0,  # added to the Champion's life at the start
    "opening_hand": 5,         # cards drawn at the start
    "starting_influence": 0,   # capacity (and pool) at the start
    "unit_slots": 6,           # unit slots on the board
    "relic_slots": 3,          # relic slots
    # turn-structure hooks (rules.md §2: a Seat changes the turn only through named hooks), on its
    # controller's turns
    "extra_combat_phases": 0,  # combat phases after the first (each a full combat.* sequence)
    "skip_draw_post": 0,       # 1: no draw.post window
    "skip_influence_response": 0,  # 1: no influence.response window
    "skip_combat_exit": 0,     # 1: no combat.exit window
}

#: sane bounds (c1k validate): beyond them a number is a typo or an attack on the engine (amount = 1e9 hangs a
#: draw loop; 1e9 unit slots exhaust memory). The bundled set stays far inside them.
MAX_COST = 20
#: a cost no Influence reaches (CardDef.least_fast_cost of a Slow card); below 2**30, so that CPython
#: keeps it a one-digit int and the comparisons with it stay specialized (a larger int de-optimizes
#: every `cost <= influence` it takes part in)
NEVER = (1 << 30) - 1
MAX_AMOUNT = 50            # damage, heal, draw, discard, summon, gain_influence
MAX_STAT = 50              # power, health, buffs
MAX_LIFE = 100
MAX_KEYWORD_NUMBER = 20    # decay 1 … decay 20
MAX_LIST = 20              # effects, abilities, Flux outcomes, Thread branches per list
MAX_TEXT = 2000
SEAT_MODIFIER_BOUNDS: dict[str, tuple[int, int]] = {
    "draw_count": (0, 5), "hand_size": (1, 20), "max_influence": (1, 20), "influence_gain": (0, 5),
    "starting_life_bonus": (-19, 50), "opening_hand": (0, 10), "starting_influence": (0, 20),
    "unit_slots": (1, 12), "relic_slots": (0, 6),
    "extra_combat_phases": (0, 2), "skip_draw_post": (0, 1), "skip_influence_response": (0, 1),
    "skip_combat_exit": (0, 1),
}


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Effect(_Model):
    do: Verb
    amount: StrictInt = Field(default=1, ge=0, le=MAX_AMOUNT)
    target: Target | None = None
    power: StrictInt = Field(default=0, ge=-MAX_STAT, le=MAX_STAT)
    health: StrictInt = Field(default=0, ge=-MAX_STAT, le=MAX_STAT)
    until: Literal["end_of_turn", "permanent"] | None = None
    keyword: str | None = None
    status: Literal["barrier", "veiled", "suppressed", "rooted"] | None = None
    card: str | None = None
    player: Literal["you", "opponent", "each"] = "you"
    outcomes: list[list[Effect]] | None = Field(default=None, max_length=MAX_LIST)
    branches: list[list[Effect]] | None = Field(default=None, max_length=MAX_LIST)
    # permit (OPP special play permissions)
    zone: Literal["hand", "graveyard"] | None = None
    card_type: Literal["unit", "relic", "action", "any"] = "any"
    #: instruction: during this resolution only; end_of_turn: this turn; while_in_play: "as long as" its
    #: source (a unit or relic) stays in play (OPP Permissions)
    duration: Literal["instruction", "end_of_turn", "while_in_play"] = "instruction"
    free: StrictBool = False
    # a Flux's outcomes and a Thread's branches in a learner's words, spelled out once when the effect is
    # made (the log names them at each Flux and Thread)
    _outcome_texts: tuple[str, ...] = PrivateAttr(default=())
    _branch_texts: tuple[str, ...] = PrivateAttr(default=())

    def model_post_init(self, context: Any, /) -> None:
        self.describe_inner("itself")

    def describe_inner(self, self_word: str) -> None:
        """Spell out its Flux outcomes and Thread branches (and theirs) with `self_word` for `self`: its
        card's `self_words` (a unit's "itself", an action's "your Champion")."""
        for inner in (self.outcomes or []) + (self.branches or []):
            for e in inner:
                e.describe_inner(self_word)
        self._outcome_texts = tuple(describe_effects(o, self_word) for o in self.outcomes or ())
        self._branch_texts = tuple(describe_effects(b, self_word) for b in self.branches or ())

    def outcome_text(self, k: int) -> str:
        """Flux outcome `k` (0-based) in words."""
        return self._outcome_texts[k]

    def branch_text(self, m: int) -> str:
        """Thread branch `m` (1-based, as in `mode m`) in words."""
        return self._branch_texts[m - 1]

    @model_validator(mode="after")
    def _check(self) -> Effect:
        needs_target = {"damage", "heal", "buff", "grant", "destroy", "return_to_hand", "suppress", "counter"}
        if self.do in needs_target and self.target is None:
            raise ValueError(f"effect '{self.do}' needs a 'target' (one of {', '.join(TARGETS)})")
        if self.do == "summon" and not self.card:
            raise ValueError("effect 'summon' needs 'card' (the id of the unit to summon)")
        if self.do == "grant" and not (self.keyword or self.status):
            raise ValueError("effect 'grant' needs 'keyword' or 'status'")
        if self.keyword is not None:
            check_keyword(self.keyword)
        if self.do == "flux" and not self.outcomes:
            raise ValueError("effect 'flux' needs 'outcomes' (a list of effect lists)")
        if self.do == "thread" and not self.branches:
            raise ValueError("effect 'thread' needs 'branches' (a list of effect lists)")
        if self.do == "permit" and self.zone is None:
            raise ValueError("effect 'permit' needs 'zone' (hand or graveyard)")
        return self


class Activation(_Model):
    cost: StrictInt = Field(default=0, ge=0, le=MAX_COST)
    speed: Speed = "fast"
    once_per_turn: StrictBool = False
    exhaust: StrictBool = False
    #: "end_phase" (C1K 5.3): only in the End Phase's priority windows (end.start, end.final), Fast
    timing: Literal["end_phase"] | None = None

    @model_validator(mode="after")
    def _timing(self) -> Activation:
        if self.timing == "end_phase" and self.speed != "fast":
            raise ValueError("an End Phase ability (timing = \"end_phase\") is Fast: leave out 'speed' or say \"fast\"")
        return self


class Ability(_Model):
    when: TriggerName | None = None
    activate: Activation | None = None
    interrupt: InterruptEvent | None = None
    cost: StrictInt = Field(default=0, ge=0, le=MAX_COST)
    once_per_turn: StrictBool = False
    text: str = Field(default="", max_length=MAX_TEXT)
    effect: list[Effect] = Field(max_length=MAX_LIST)

    @model_validator(mode="after")
    def _one_kind(self) -> Ability:
        kinds = [k for k in ("when", "activate", "interrupt") if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError("an ability needs exactly one of 'when', 'activate' or 'interrupt'")
        return self


class EvolveSpec(_Model):
    """Evolve (Genesis): when the condition holds, the unit transforms into `into`, keeping counters and
    damage. Conditions (all given must hold): at least `growth` growth counters, at least `power` power."""

    into: str
    growth: StrictInt | None = Field(default=None, ge=1, le=MAX_STAT)
    power: StrictInt | None = Field(default=None, ge=1, le=MAX_STAT)

    @model_validator(mode="after")
    def _cond(self) -> EvolveSpec:
        if self.growth is None and self.power is None:
            raise ValueError("evolve needs a condition: 'growth' and/or 'power'")
        return self


class CardModel(_Model):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=60)
    name: str = Field(min_length=1, max_length=60)
    type: CardType
    realm: Realm = "neutral"
    cost: StrictInt = Field(default=0, ge=0, le=MAX_COST)
    speed: Speed | None = None
    power: StrictInt | None = Field(default=None, ge=0, le=MAX_STAT)
    health: StrictInt | None = Field(default=None, ge=0, le=MAX_STAT)
    life: StrictInt | None = Field(default=None, ge=1, le=MAX_LIFE)
    voidcast: StrictInt | None = Field(default=None, ge=0, le=MAX_COST)
    keywords: list[str] = Field(default=[], max_length=len(KEYWORDS))
    text: str = Field(default="", max_length=MAX_TEXT)
    effect: list[Effect] = Field(default=[], max_length=MAX_LIST)
    abilities: list[Ability] = Field(default=[], max_length=MAX_LIST)
    modifiers: dict[str, StrictInt] = {}
    token: StrictBool = False
    evolve: EvolveSpec | None = None

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        why = name_refusal(value)
        if why:
            raise ValueError(why)
        return value

    @field_validator("keywords")
    @classmethod
    def _keywords(cls, value: list[str]) -> list[str]:
        for kw in value:
            check_keyword(kw)
        return value

    @field_validator("modifiers")
    @classmethod
    def _modifiers(cls, value: dict[str, int]) -> dict[str, int]:
        for key in value:
            if key not in SEAT_MODIFIERS:
                raise ValueError(f"unknown seat modifier '{key}'{suggest(key, SEAT_MODIFIERS)}")
            lo, hi = SEAT_MODIFIER_BOUNDS.get(key, (-MAX_STAT, MAX_STAT))
            if not lo <= value[key] <= hi:
                raise ValueError(f"seat modifier '{key}' = {value[key]} is out of bounds: from {lo} to {hi}")
        return value

    @model_validator(mode="after")
    def _check(self) -> CardModel:
        if self.type == "unit" and (self.power is None or self.health is None):
            raise ValueError("a unit needs 'power' and 'health'")
        for where, text in [("text", self.text)] + [(f"abilities[{i}].text", a.text)
                                                    for i, a in enumerate(self.abilities)]:
            why = control_refusal(text.replace("\n", " "), f"'{where}'")
            if why:
                raise ValueError(why)
        if self.type == "unit" and self.health is not None and self.health < 1:
            raise ValueError(f"a unit's 'health' is at least 1, not {self.health} (it would die as it arrives)")
        if self.type == "action" and self.speed is None:
            raise ValueError("an action must say its 'speed' (slow or fast)")
        if sum(a.interrupt is not None for a in self.abilities) > 1:
            raise ValueError("a card has at most one Interrupt ability: 'interrupt <card>' can't say which one")
        if self.type == "action" and not self.effect:
            raise ValueError("an action needs an 'effect' list")
        names = {check_keyword(k)[0] for k in self.keywords}
        whens = {a.when for a in self.abilities}
        for kw, trig in (("conquer", "on_conquer"), ("bloom", "on_bloom")):
            if (kw in names) != (trig in whens):
                raise ValueError(f"keyword '{kw}' and an ability with when = \"{trig}\" go together")
        if ("evolve" in names) != (self.evolve is not None):
            raise ValueError("keyword 'evolve' and an 'evolve = { into = ..., growth/power = ... }' table go together")
        # docs/formats.md §2: the 'voidcast' cost alone makes a Voidcast card; the keyword is optional
        if "voidcast" in names and self.voidcast is None:
            raise ValueError("keyword 'voidcast' needs a Voidcast cost: add 'voidcast = N'")
        if self.voidcast is not None and self.type != "action":
            raise ValueError("only actions have Voidcast (a 'voidcast' cost)")
        # Flux Interrupts ("when a Flux outcome is determined", C1K 7) need a moment when players may be
        # asked: Conquer happens inside combat damage and an Interrupt resolves at once — neither has one
        for a in self.abilities:
            if (a.when == "on_conquer" or a.interrupt is not None) and _has_verb(a.effect, "flux"):
                what = "a Conquer effect (it happens inside combat damage, C1K 4.3)" if a.when \
                    else "an Interrupt (it resolves at once, without the stack, C1K 7)"
                raise ValueError(f"Flux can't be used inside {what}: nobody could be asked for a Flux "
                                 "Interrupt there; put the Flux in a triggered ability (e.g. on_champion_hit)")
        if any(e.do == "permit" and e.duration == "while_in_play" for e in self.effect) \
                or (self.type not in ("unit", "relic") and any(
                    e.do == "permit" and e.duration == "while_in_play" for a in self.abilities for e in a.effect)):
            raise ValueError("a permission 'as long as' its source stays in play (duration = \"while_in_play\") "
                             "belongs to an ability of a unit or relic")
        if "nullify" in names and _has_verb(self.effect, "flux"):
            raise ValueError("Flux can't be used inside a Nullify Action (it resolves at once as an Interrupt, "
                             "C1K 7): nobody could be asked for a Flux Interrupt there")
        if "nullify" in names and self.type != "action":
            raise ValueError("Nullify is an action played as an Interrupt from the hand")
        if "ambush" in names and self.realm != "veil":
            raise ValueError("only Veil cards can be Set (ambush)")
        for where, effects in [("effect", self.effect)] + [(f"abilities[{i}].effect", a.effect)
                                                          for i, a in enumerate(self.abilities)]:
            why = same_refusal(effects, where)
            if why:
                raise ValueError(why)
        return self


#: words a command reads as something else than a card name (docs/formats.md §1)
RESERVED_NAMES = ("none", "p1", "p2", "->")


def name_refusal(name: str) -> str:
    """Why a card can't have this name ("" if it can): a command must be able to refer to it by name
    (docs/formats.md §1: quotes keep spaces and commas in a name, but not both kinds of quote; '#12' is an id;
    'none', 'p1', 'p2' and '->' mean something else) and a terminal must be able to show it."""
    why = control_refusal(name, "a card name")
    if why:
        return why
    if name != name.strip():
        return "a card name can't begin or end with a space"
    if name.startswith("#"):
        return f"a card name can't begin with '#': '{name}' would be read as a card id"
    if name.lower() in RESERVED_NAMES:
        return f"'{name}' can't be a card name: a command reads it as the word '{name.lower()}'"
    if '"' in name and "'" in name:
        return "a card name can't hold both kinds of quote: no command could quote it"
    return ""


def same_refusal(effects: Sequence[Effect], where: str) -> str:
    """Why `target = "same"` can't be used where it is in this effect list ("" if it can): it refers back
    to the target of the first effect before it, in the same list, that takes one target (chosen or at
    random) — a Flux outcome or a Thread branch is a list of its own (rules.md CARD TEXT)."""
    first = next((i for i, e in enumerate(effects) if e.target in ONE_TARGETS), None)
    for i, e in enumerate(effects):
        if e.target == "same" and (first is None or i < first):
            kinds = ", ".join(sorted(CHOICE_TARGETS))
            return (f"'{where}[{i}]': target = \"same\" refers back to the target of an earlier effect of the "
                    f"same list that takes one target ({kinds} or random_…), and there is none before it")
        for j, inner in enumerate((e.outcomes or []) + (e.branches or [])):
            kind = "outcomes" if e.outcomes else "branches"
            why = same_refusal(inner, f"{where}[{i}].{kind}[{j}]")
            if why:
                return why
    return ""


def _has_verb(effects: Iterable[Effect], verb: str) -> bool:
    """Whether `verb` occurs in these effects, Flux outcomes and Thread branches included."""
    return any(e.do == verb or any(_has_verb(b, verb) for b in (e.outcomes or []) + (e.branches or []))
               for e in effects)


def suggest(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.5)
    return f" (did you mean '{close[0]}'?)" if close else ""


def check_keyword(text: str) -> tuple[str, int]:
    """Parse 'decay 2' / 'tough' into (name, number); raise ValueError naming the nearest keyword."""
    parts = text.strip().lower().split()
    if not parts:
        raise ValueError("empty keyword")
    name = parts[0]
    if name not in KEYWORDS:
        raise ValueError(f"unknown keyword '{text}'{suggest(name, KEYWORDS)}")
    if name in NUMBERED_KEYWORDS:
        if len(parts) != 2 or not (parts[1].isascii() and parts[1].isdigit()):
            raise ValueError(f"keyword '{name}' takes a number, e.g. '{name} 1'")
        if len(parts[1]) > 3 or not 1 <= int(parts[1]) <= MAX_KEYWORD_NUMBER:
            raise ValueError(f"keyword '{text}': the number is out of bounds: from 1 to {MAX_KEYWORD_NUMBER}")
        return name, int(parts[1])
    if name == "evolve":
        return name, 0
    if len(parts) != 1:
        raise ValueError(f"keyword '{name}' takes no number")
    return name, 0


def effect_slots(effects: Sequence[Effect], mode: int | None = None) -> list[str]:
    """The chosen targets these effects need, in order (a Thread's branch: the one `mode` picks); it
    depends on the effects alone."""
    out: list[str] = []
    for e in effects:
        if e.do == "thread" and e.branches:
            m = (mode or 1) - 1
            if 0 <= m < len(e.branches):
                out += effect_slots(e.branches[m])
        elif e.target in CHOICE_TARGETS:
            out.append(e.target or "")
    return out


def def_choice_slots(d: CardDef, mode: int | None) -> list[str]:
    """The targets a command playing a card of this definition must name, in order (an Action's effect;
    a Unit's or Relic's on-play abilities)."""
    if d.type == "action":
        return effect_slots(d.effect, mode)
    out: list[str] = []
    for ab in d.abilities:
        if ab.when == "on_play":
            out += effect_slots(ab.effect, mode)
    return out


@dataclass(frozen=True, slots=True)
class CardDef:
    """An immutable, validated card definition as the engine uses it."""

    id: str
    name: str
    type: str
    realm: str
    cost: int
    speed: str
    power: int
    health: int
    life: int
    voidcast: int | None
    keywords: Mapping[str, int]
    text: str
    effect: tuple[Effect, ...]
    abilities: tuple[Ability, ...]
    modifiers: Mapping[str, int]
    token: bool
    #: (index, ability) of the activated abilities, numbered 1.. in commands (derived, for speed)
    act: tuple[tuple[int, Ability], ...] = ()
    #: number of Thread branches (0: not a Thread card)
    branches: int = 0
    evolve: EvolveSpec | None = None
    #: Nullify (Null): the Interrupt this Action is used as, from the hand (cost: the card's cost)
    hand_interrupt: Ability | None = None
    #: the events its triggered abilities answer (derived, for speed: `triggers.fire` skips at once a
    #: card with no ability for an event — most cards, most events)
    whens: frozenset[str] = field(init=False, default=frozenset())
    #: the events its Interrupt abilities answer (derived, for speed: `legality.may_interrupt`)
    interrupts: frozenset[str] = field(init=False, default=frozenset(), repr=False, compare=False)
    #: state-based actions must look at this unit even when it is undamaged and unmodified: it may
    #: Evolve, or it has no health (derived, for speed: `sba.sba_quiet`)
    sba_watch: bool = field(init=False, default=False)
    #: a Seat that names a turn-structure hook (derived, for speed: `turn.turn_windows` gives any other
    #: the default structure at once)
    turn_hooks: bool = field(init=False, default=False)
    #: the least Influence a play of it costs: its cost, or its Voidcast cost if lower; and the same for a
    #: play at Fast speed (a Slow card: NEVER) (derived, for speed: legal_actions' first filter)
    least_cost: int = field(init=False, default=0, repr=False, compare=False)
    least_fast_cost: int = field(init=False, default=0, repr=False, compare=False)
    # what legal_actions and the refusals need of a definition alone, worked out once when it is made
    # (engine/options.py, engine/legality.py):
    #: it can be played at all: a Unit, Relic or Action that is not a Nullify card (played, not used)
    playable: bool = field(init=False, default=False, repr=False, compare=False)
    #: the row a play needs an empty slot in: 0 the board (a Unit), 1 the relics (a Relic), -1 none
    row: int = field(init=False, default=-1, repr=False, compare=False)
    #: (mode, the targets a play in that mode names) for each mode a play may take, in order
    #: (None: not a Thread card)
    modes: tuple[tuple[int | None, tuple[str, ...]], ...] = field(init=False, default=(), repr=False,
                                                                  compare=False)
    #: (n, ability index, cost, Slow, exhaust, once per turn, End Phase timing, the targets it names) of
    #: each activated ability, numbered 1.. (its Activation's fields as plain values: a pydantic model's
    #: attributes are read through its __getattr__ hook, which CPython can't specialize)
    acts: tuple[tuple[int, int, int, bool, bool, bool, bool, tuple[str, ...]], ...] = field(
        init=False, default=(), repr=False, compare=False)
    #: the least an activation costs, and a Fast one (NEVER: none)
    act_least: int = field(init=False, default=0, repr=False, compare=False)
    act_least_fast: int = field(init=False, default=0, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self_words(self.type) != "itself":       # the log's words for its Flux outcomes and Thread branches
            for e in (*self.effect, *(e for ab in self.abilities for e in ab.effect)):
                if e.outcomes or e.branches:
                    e.describe_inner(self_words(self.type))
        object.__setattr__(self, "whens", frozenset(a.when for a in self.abilities if a.when))
        object.__setattr__(self, "sba_watch", self.evolve is not None or self.health <= 0)
        object.__setattr__(self, "turn_hooks", any(k in self.modifiers for k in TURN_HOOK_MODIFIERS))
        least = self.cost if self.voidcast is None else min(self.cost, self.voidcast)
        object.__setattr__(self, "least_cost", least)
        object.__setattr__(self, "least_fast_cost", NEVER if self.speed == "slow" else least)
        object.__setattr__(self, "playable", self.type in ("unit", "relic", "action") and self.hand_interrupt is None)
        object.__setattr__(self, "row", 0 if self.type == "unit" else (1 if self.type == "relic" else -1))
        object.__setattr__(self, "modes", tuple(
            (m, tuple(def_choice_slots(self, m))) for m in (range(1, self.branches + 1) if self.branches else (None,))))
        acts = tuple((n, idx, a.cost, a.speed == "slow", a.exhaust, a.once_per_turn, a.timing == "end_phase",
                      tuple(effect_slots(ab.effect)))
                     for n, (idx, ab) in enumerate(self.act, 1) if (a := ab.activate) is not None)
        object.__setattr__(self, "acts", acts)
        object.__setattr__(self, "act_least", min((act[2] for act in acts), default=NEVER))
        object.__setattr__(self, "act_least_fast", min((act[2] for act in acts if not act[3]), default=NEVER))
        object.__setattr__(self, "interrupts", frozenset(ab.interrupt for ab in self.abilities if ab.interrupt))

    def describe(self, effects: Iterable[Effect]) -> str:
        """Effects of this card in a learner's words, its `self` as this card's type reads it (`self_words`:
        "itself" for a unit, "your Champion" for an action)."""
        return describe_effects(effects, self_words(self.type))

    def play_slots(self, mode: int | None) -> tuple[str, ...]:
        """The targets a play of this card in `mode` names (`def_choice_slots`, worked out already for
        the modes it has)."""
        for m, slots in self.modes:
            if m == mode:
                return slots
        return tuple(def_choice_slots(self, mode))

    def act_slots(self, n: int) -> tuple[str, ...]:
        """The targets activated ability `n` (1..) names."""
        return self.acts[n - 1][7]

    @staticmethod
    def from_model(m: CardModel) -> CardDef:
        kws = dict(check_keyword(k) for k in m.keywords)
        if m.voidcast is not None:
            kws.setdefault("voidcast", 0)   # the cost alone makes it a Voidcast card (docs/formats.md §2)
        speed = m.speed or "slow"
        return CardDef(
            id=m.id, name=m.name, type=m.type, realm=m.realm, cost=m.cost, speed=speed,
            power=m.power or 0, health=m.health or 0, life=m.life or 20, voidcast=m.voidcast,
            keywords=kws, text=m.text, effect=tuple(m.effect), abilities=tuple(m.abilities),
            modifiers=dict(m.modifiers), token=m.token,
            act=tuple((i, a) for i, a in enumerate(m.abilities) if a.activate is not None),
            branches=next((len(e.branches or []) for e in list(m.effect) + [e for a in m.abilities
                                                                            if a.when == "on_play" for e in a.effect]
                           if e.do == "thread"), 0),
            evolve=m.evolve,
            hand_interrupt=(Ability(interrupt="opponent_plays_action", cost=m.cost, effect=list(m.effect))
                            if "nullify" in kws else None),
        )


class CardFileError(BadInput, ValueError):
    """A broken card (or deck, or scenario) file. `problems` lists every problem found, each a line."""

    def __init__(self, path: str, problems: list[str]) -> None:
        self.path = path
        self.problems = problems
        super().__init__(f"{path}: {len(problems)} problem(s)\n" + "\n".join(problems))


def _field_names(model: type[BaseModel]) -> list[str]:
    return list(model.model_fields)


def _allowed_for(loc: tuple[Any, ...]) -> list[str]:
    keys = [k for k in loc if isinstance(k, str)]
    last = keys[-1] if keys else ""
    if last == "do":
        return list(EFFECT_VERBS)
    if last == "target":
        return list(TARGETS)
    if last == "when":
        return list(TRIGGERS)
    if last == "type":
        return ["unit", "relic", "action", "champion", "seat"]
    if last == "realm":
        return ["dominion", "veil", "ruin", "genesis", "paradox", "solace", "null", "neutral"]
    if last == "speed":
        return ["slow", "fast"]
    if last == "interrupt":
        return list(InterruptEvent.__args__)  # type: ignore[attr-defined]
    for model in (Effect, Ability, Activation, EvolveSpec, CardModel):
        f = model.model_fields.get(last)
        if f is not None:
            return [str(a) for a in _literal_values(f.annotation)]
    return []


def _literal_values(annotation: object) -> list[object]:
    """The allowed words of a Literal (or Optional Literal) field annotation."""
    if getattr(annotation, "__origin__", None) is Literal:
        return list(getattr(annotation, "__args__", ()))
    out: list[object] = []
    for arg in getattr(annotation, "__args__", ()):
        if getattr(arg, "__origin__", None) is Literal:
            out += list(arg.__args__)
    return out


def _model_for(loc: tuple[Any, ...]) -> type[BaseModel]:
    keys = [k for k in loc[:-1] if isinstance(k, str)]
    if not keys:
        return CardModel
    last = keys[-1]
    if last in ("effect", "outcomes", "branches"):
        return Effect
    if last == "abilities":
        return Ability
    if last == "activate":
        return Activation
    if last == "evolve":
        return EvolveSpec
    return CardModel


def describe_validation_error(err: ValidationError) -> list[str]:
    """Turn pydantic's errors into learner-readable lines with a 'did you mean'."""
    out: list[str] = []
    for e in err.errors():
        loc = tuple(e["loc"])
        where = ".".join(str(p) for p in loc if not str(p).startswith("function-after")) or "(card)"
        if e["type"] == "extra_forbidden":
            key = str(loc[-1])
            out.append(f"unknown key '{where}'{suggest(key, _field_names(_model_for(loc)))}")
        elif e["type"] == "literal_error":
            bad = str(e.get("input"))
            out.append(f"'{where}' = '{bad}' is not valid{suggest(bad, _allowed_for(loc))}; "
                       f"expected {e['ctx']['expected'] if 'ctx' in e else 'another value'}")
        elif e["type"] in ("less_than_equal", "greater_than_equal", "too_long", "string_too_long"):
            ctx = e.get("ctx", {})
            bound = (f"at most {ctx['le']}" if "le" in ctx else f"at least {ctx['ge']}" if "ge" in ctx
                     else f"at most {ctx.get('max_length')} {'characters' if 'string' in e['type'] else 'entries'}")
            shown = repr(e.get("input"))
            out.append(f"'{where}' = {shown[:40]}{'…' if len(shown) > 40 else ''} is out of bounds: {bound}")
        elif e["type"] in ("int_type", "bool_type"):   # the fields are strict (docs/determinism.md §8 k)
            got = e.get("input")
            shown = (json.dumps(got) if isinstance(got, str) else str(got).lower() if isinstance(got, bool)
                     else repr(got))[:40]
            out.append(f"'{where}' = {shown} is not a whole number (a TOML integer: 2, not \"2\", 2.0 or true)"
                       if e["type"] == "int_type" else f"'{where}' = {shown}: expected true or false")
        else:
            msg = str(e["msg"]).removeprefix("Value error, ")
            out.append(f"'{where}': {msg}")
    return out


@functools.lru_cache(maxsize=4)
def _card_lines(text: str) -> tuple[list[str], list[int]]:
    """The lines of a card file and the 0-based line of each [[card]] header (computed once per text)."""
    lines = text.splitlines()
    return lines, [i for i, line in enumerate(lines) if line.strip().startswith("[[card]]")]


def _line_of(text: str, card_index: int, key: str | None) -> int:
    """Best-effort 1-based line of the card_index-th [[card]] (and of `key` inside it) in the TOML text."""
    lines, starts = _card_lines(text)
    if card_index >= len(starts):
        return 1
    start = starts[card_index]
    end = starts[card_index + 1] if card_index + 1 < len(starts) else len(lines)
    if key:
        for j in range(start + 1, end):
            s = lines[j].strip()
            if s.startswith(key) and s[len(key):].lstrip().startswith(("=", ".")):
                return j + 1
    return start + 1


def parse_cards(raw: list[Any], path: str, text: str = "") -> tuple[list[CardDef], list[str]]:
    """Validate a list of raw card tables. Returns (cards, problems); problems name file:line and card."""
    located, problems = parse_cards_located(raw, path, text)
    return [c for c, _ in located], problems


def parse_cards_located(raw: list[Any], path: str, text: str = "",
                        tables: list[dict[str, Any]] | None = None) -> tuple[list[tuple[CardDef, str]], list[str]]:
    """`parse_cards`, each card with where it is defined ("file:line"). `tables`, if given, receives each
    valid card's raw table (in the same order as the cards)."""
    cards: list[tuple[CardDef, str]] = []
    problems: list[str] = []
    for i, entry in enumerate(raw):
        ident = entry.get("id", f"card #{i + 1}") if isinstance(entry, dict) else f"card #{i + 1}"
        if not isinstance(ident, str) or len(ident) > 60:
            ident = f"card #{i + 1}"
        line = _line_of(text, i, None) if text else 0
        if not isinstance(entry, dict):
            problems.append(f"{path}:{line}: card #{i + 1}: expected a table ([[card]]), got {type(entry).__name__}")
            continue
        if nesting_depth(entry) > MAX_DEPTH:
            problems.append(f"{path}:{line}: card '{ident}': tables or lists nested more than {MAX_DEPTH} deep")
            continue
        try:
            card = CardDef.from_model(CardModel.model_validate(entry))
        except ValidationError as err:
            for e, line_msg in zip(err.errors(), describe_validation_error(err), strict=True):
                top = next((str(k) for k in e["loc"] if isinstance(k, str)), None)
                line = _line_of(text, i, top) if text else 0
                problems.append(f"{path}:{line}: card '{ident}': {line_msg}")
            continue
        disagree = text_problems(card)
        if disagree:   # rules.md CARD TEXT: the text is the contract
            line = _line_of(text, i, "text") if text else 0
            problems += [f"{path}:{line}: card '{ident}': text and effects disagree: {why}" for why in disagree]
            continue
        cards.append((card, f"{path}:{line}"))
        if tables is not None:
            tables.append(entry)
    return cards, problems


#: a card, deck or scenario file larger than this is refused before parsing (the bundled set: ~60 KB a file)
MAX_FILE_BYTES = 2_000_000
#: tables and lists nested deeper than this are refused (a Flux inside a Thread inside an ability: ~8)
MAX_DEPTH = 32


def read_toml(path: Path, kind: Kind = "cards") -> tuple[dict[str, Any], str]:
    """Read and parse a UTF-8 TOML file; every way it can fail is a CardFileError naming the file (and the
    line where TOML or the decoder says one): missing, a folder, a FIFO or device, too large (checked
    before reading: engine/safeio.py), not UTF-8, not TOML, too deep."""
    return _parse_toml(str(path), _read(path, kind))


def _read(path: Path, kind: Kind) -> bytes:
    try:
        return read_bounded(path, kind)
    except ReadRefused as err:
        raise CardFileError(str(path), [str(err)]) from err


def _parse_toml(where: str, raw: bytes) -> tuple[dict[str, Any], str]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[:err.start].count(b"\n") + 1
        raise CardFileError(where, [f"{where}:{line}: not UTF-8 text (byte {err.start}: "
                                    f"{raw[err.start:err.start + 1]!r}); save the file as UTF-8"]) from err
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise CardFileError(where, [f"{where}: not valid TOML: {err}"]) from err
    except RecursionError as err:
        raise CardFileError(where, [f"{where}: not valid TOML: tables or lists nested too deeply"]) from err
    except ValueError as err:   # an integer of more than 4,300 digits (Python's conversion limit)
        long = re.search(r"\d{4301,}", text)
        line = text.count("\n", 0, long.start()) + 1 if long else 1
        raise CardFileError(where, [f"{where}:{line}: a number with more than 4,300 digits"]) from err
    if nesting_depth(data) > MAX_DEPTH:
        raise CardFileError(where, [f"{where}: tables or lists nested more than {MAX_DEPTH} deep"])
    return data, text


def load_card_file(path: Path) -> list[CardDef]:
    return [c for c, _ in load_card_file_located(path)]


#: the cards of the card files read lately, by the file's path and a digest of its bytes: a file read again
#: unchanged is not parsed and validated again (the bundled set costs ≈0.08 s of CPU to parse, and a match,
#: a command, the start screen and the lab each load it), and one edited since has another digest, so it is
#: (however soon after, whatever its size and time stamp). Each hit gets fresh copies of the raw tables; the
#: cards themselves are immutable. At most CACHED_FILES files, the oldest read first out.
_PARSED: dict[tuple[str, bytes], tuple[list[tuple[CardDef, str]], bytes]] = {}
CACHED_FILES = 64


def load_card_file_located(path: Path, tables: list[dict[str, Any]] | None = None) -> list[tuple[CardDef, str]]:
    """The cards of one file, each with its "file:line"; CardFileError lists every problem of the file.
    `tables`, if given, receives each card's raw TOML table."""
    raw = _read(path, "cards")
    key = (str(path), hashlib.sha256(raw).digest())
    hit = _PARSED.get(key)
    if hit is None:
        found: list[dict[str, Any]] = []
        hit = (_parse_card_file(path, raw, found), pickle.dumps(found))
        while len(_PARSED) >= CACHED_FILES:
            del _PARSED[next(iter(_PARSED))]
        _PARSED[key] = hit
    if tables is not None:
        tables += pickle.loads(hit[1])
    return list(hit[0])


def _parse_card_file(path: Path, raw: bytes, tables: list[dict[str, Any]]) -> list[tuple[CardDef, str]]:
    data, text = _parse_toml(str(path), raw)
    unknown = [k for k in data if k != "card"]
    problems = [f"{path}:1: unknown top-level key '{k}'{suggest(k, ['card'])}" for k in unknown]
    cards_raw = data.get("card", [])
    if not isinstance(cards_raw, list):
        problems.append(f"{path}: 'card' must be an array of tables ([[card]])")
        cards_raw = []
    cards, more = parse_cards_located(cards_raw, str(path), text, tables)
    problems += more
    if problems:
        raise CardFileError(str(path), problems)
    return cards


class CardDB:
    """All known cards, by id and by (case-insensitive) name."""

    def __init__(self, cards: Iterable[CardDef] = ()) -> None:
        self.by_id: dict[str, CardDef] = {}
        self.by_name: dict[str, CardDef] = {}
        #: card id -> "file:line" where it is defined (cards loaded from files)
        self.origin: dict[str, str] = {}
        #: card id -> its TOML table as read (cards loaded from files): what its content digest is of
        self.raw: dict[str, dict[str, Any]] = {}
        for c in cards:
            self.add(c)

    def add(self, card: CardDef, origin: str = "") -> None:
        if card.id in self.by_id and self.by_id[card.id] != card:
            raise ValueError(f"duplicate card id '{card.id}'")
        self.by_id[card.id] = card
        self.by_name[card.name.lower()] = card
        if origin:
            self.origin[card.id] = origin

    def get(self, key: str) -> CardDef | None:
        return self.by_id.get(key) or self.by_name.get(key.lower())

    def lookup(self, key: str) -> CardDef:
        card = self.get(key)
        if card is None:
            raise KeyError(f"unknown card '{key}'{suggest(key, list(self.by_id) + [c.name for c in self.by_id.values()])}")
        return card

    def copy(self) -> CardDB:
        db = CardDB(self.by_id.values())
        db.origin = dict(self.origin)
        db.raw = dict(self.raw)
        return db


def bundled_cards_dir() -> Path:
    return Path(__file__).resolve().parent.parent / "decks" / "cards"


def load_card_db(dirs: Iterable[Path] | None = None) -> CardDB:
    """Load every `*.toml` card file of the given folders (default: the bundled set), sorted by name."""
    files = [f for d in (dirs if dirs is not None else [bundled_cards_dir()]) for f in sorted(d.glob("*.toml"))]
    db, problems = build_card_db(files)
    if problems:
        raise CardFileError("card set", problems)
    return db


def build_card_db(files: Iterable[Path]) -> tuple[CardDB, list[str]]:
    """Load card files as one set (what `c1k validate` and the game both do): every problem of every file,
    duplicate ids and names across the whole set, and cross-references (summon, evolve)."""
    db = CardDB()
    problems: list[str] = []
    for f in files:
        tables: list[dict[str, Any]] = []
        try:
            located = load_card_file_located(f, tables)
        except CardFileError as err:
            problems += err.problems
            continue
        for (card, where), table in zip(located, tables, strict=True):
            if card.id in db.by_id:
                problems.append(f"{where}: duplicate card id '{card.id}' (already defined at "
                                f"{db.origin.get(card.id, '?')})")
                continue
            other = db.by_name.get(card.name.lower())
            if other is not None:
                problems.append(f"{where}: card '{card.id}': duplicate card name '{card.name}' (card '{other.id}' at "
                                f"{db.origin.get(other.id, '?')})")
                continue
            db.add(card, where)
            db.raw[card.id] = table
    problems += check_references(db)
    return db, problems


def evolve_cycles(db: CardDB, only: Iterable[str] | None = None) -> list[str]:
    """Warnings (not problems: the rules say what happens) for cards that evolve round in a circle
    (`a` into `b`, `b` into `a`): if every condition on the way holds at once, the unit transforms
    forever with nobody acting and the match ends in a draw (rules.md §1, Endless Loop). One line per
    circle, at its first card by id; `only`: just the circles through these card ids."""
    wanted = None if only is None else set(only)
    warnings: list[str] = []
    done: set[str] = set()
    for start in sorted(db.by_id):
        path: list[str] = []
        cid: str | None = start
        while cid is not None and cid not in path and cid not in done:
            path.append(cid)
            card = db.get(cid)
            cid = card.evolve.into if card is not None and card.evolve is not None else None
            if cid is not None and db.get(cid) is None:
                cid = None
        done.update(path)
        if cid is None or cid not in path:
            continue
        circle = path[path.index(cid):]
        first = min(circle)
        if wanted is not None and not wanted & set(circle):
            continue
        i = circle.index(first)
        circle = circle[i:] + circle[:i]
        where = f"{db.origin[first]}: " if first in db.origin else ""
        ring = " → ".join(f"'{c}'" for c in circle + [first])
        warnings.append(f"{where}warning: card '{first}': Evolve goes round in a circle ({ring}): when every "
                        "condition on the way holds, the unit transforms forever and the match ends in a draw "
                        "(rules.md §1, Endless Loop)")
    return warnings


def check_references(db: CardDB, only: Iterable[str] | None = None) -> list[str]:
    """Cards that name other cards (summon, evolve) must name cards that exist, of the right type.
    `only`: check just these card ids (the others may still be named)."""
    names = list(db.by_id)
    problems: list[str] = []
    wanted = None if only is None else set(only)

    def at(card: CardDef) -> str:
        return f"{db.origin[card.id]}: " if card.id in db.origin else ""

    def walk(card: CardDef, effects: Iterable[Effect]) -> None:
        for e in effects:
            if e.do == "summon" and e.card:
                target = db.get(e.card)
                if target is None:
                    problems.append(f"{at(card)}card '{card.id}': summons unknown card '{e.card}'"
                                    f"{suggest(e.card, names)}")
                elif target.type != "unit":
                    problems.append(f"{at(card)}card '{card.id}': summons '{e.card}', which is a {target.type}, "
                                    f"not a unit")
            for branch in (e.outcomes or []) + (e.branches or []):
                walk(card, branch)

    for card in sorted(db.by_id.values(), key=lambda c: c.id):
        if wanted is not None and card.id not in wanted:
            continue
        walk(card, card.effect)
        for ab in card.abilities:
            walk(card, ab.effect)
        if card.evolve is not None:
            target = db.get(card.evolve.into)
            if target is None:
                problems.append(f"{at(card)}card '{card.id}': evolves into unknown card '{card.evolve.into}'"
                                f"{suggest(card.evolve.into, names)}")
            elif target.type != "unit":
                problems.append(f"{at(card)}card '{card.id}': evolves into '{card.evolve.into}', which is not a unit")
    return problems


# ---------------------------------------------------------------- card text: effects in words

_WHO = {
    "self": "itself", "unit": "a unit", "friendly_unit": "a friendly unit", "enemy_unit": "an enemy unit",
    "champion": "a Champion", "enemy_champion": "the enemy Champion", "friendly_champion": "your Champion",
    "all_enemy_units": "each enemy unit", "all_friendly_units": "each friendly unit", "all_units": "each unit",
    "event": "that", "same": "it",
    "random_enemy_unit": "a random enemy unit", "random_friendly_unit": "a random friendly unit",
    "random_unit": "a random unit",
}
_PLAYER = {"you": "you", "opponent": "the opponent", "each": "each player"}
#: effects that a player does: (verb, what follows the amount)
_PLAYER_VERBS = {"draw": ("draw", ""), "discard": ("discard", " at random"), "gain_influence": ("gain", " Influence")}


def self_words(card_type: str) -> str:
    """What `target = "self"` is on a card of this type, in words (engine/targets.py): a unit or relic
    itself; for an action, a Champion's ability or a Seat, its controller's Champion (docs/cards.md)."""
    return "itself" if card_type in ("unit", "relic") else "your Champion"


def describe_effect(e: Effect, self_word: str = "itself") -> str:
    """One effect in a learner's words ("deal 2 damage to the enemy Champion"); `self_word`: the card's
    `self_words` ("deal 2 damage to your Champion" on an action)."""
    who = self_word if e.target == "self" else _WHO.get(e.target or "", "")
    v = e.do
    if v == "damage":
        return f"deal {e.amount} damage to {who}"
    if v == "heal":
        return f"heal {e.amount} to {who}"
    if v in _PLAYER_VERBS:
        verb, tail = _PLAYER_VERBS[v]
        if v == "draw":
            tail = " card" if e.amount == 1 else " cards"
        if e.player == "you":         # the card's own words: "draw 2 cards", "gain 2 Influence"
            return f"{verb} {e.amount}{tail}"
        return f"{_PLAYER[e.player]} {verb}s {e.amount}{tail}"
    if v == "buff":
        until = " until end of turn" if (e.until or "permanent") == "end_of_turn" else ""
        return f"{who} gets {e.power:+d}/{e.health:+d}{until}"
    if v == "grant":
        return f"{who} gains {e.status or e.keyword}"
    if v == "summon":
        return f"summon {e.amount} {e.card}"
    if v == "flux":
        return "Flux: one outcome at random"
    if v == "thread":
        return "Thread: a chosen branch"
    if v == "permit":
        return f"you may play {e.card_type} from your {e.zone}"
    if v == "reroll":
        return "draw the Flux outcome again"
    return f"{v.replace('_', ' ')} {who}".strip()


def describe_effects(effects: Iterable[Effect], self_word: str = "itself") -> str:
    return "; ".join(describe_effect(e, self_word) for e in effects) or "nothing"


def mode_words(d: CardDef, mode: int) -> str:
    """A chosen Thread mode in words, from the card's definition: "mode 2: draw 2 cards" (rules.md §7a:
    a choice made on play is public, and shown in words, never as a bare "mode 2")."""
    for effects in (d.effect, *(ab.effect for ab in d.abilities)):
        for e in effects:
            if e.do == "thread" and e.branches and 1 <= mode <= len(e.branches):
                return f"mode {mode}: {describe_effects(e.branches[mode - 1], self_words(d.type))}"
    return f"mode {mode}"


def voidcast_words(d: CardDef) -> str:
    """A Voidcast payment in words (KW Voidcast)."""
    return (f"Voidcast: paid {d.voidcast} instead of {d.cost}, it goes to the Void and resolves at the start "
            "of the next End Phase")


# ---------------------------------------------------------------- card text: the contract

#: numbers a card's text may spell out in words ("summon two Shades", "draw two cards")
_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
                 9: "nine", 10: "ten"}
#: a word of a card's text that refers back to a target already named ("it gets +0/+2", rules.md CARD TEXT)
_BACK_REFERENCE = re.compile(r"\b(?:it|its|itself|that unit|that champion|them|the same unit)\b")


def _every_effect(effects: Iterable[Effect]) -> Iterator[Effect]:
    """These effects and every effect inside their Flux outcomes and Thread branches."""
    for e in effects:
        yield e
        for inner in (e.outcomes or []) + (e.branches or []):
            yield from _every_effect(inner)


def _number(n: int) -> str:
    return f"(?:{n}|{_NUMBER_WORDS[n]})" if n in _NUMBER_WORDS else str(n)


def _said(e: Effect, text: str) -> str:
    """"" if the (lower-case) text says what effect `e` does, else what it should say."""
    n = _number(e.amount)
    more = r"(?:(?:, | or | and )\d+)*"     # "deal 1, 2, 3 or 4 damage" (a Flux's outcomes)
    if e.do == "damage":
        return "" if re.search(rf"\b{n}{more} damage\b", text) else f"{e.amount} damage"
    if e.do == "heal":
        return "" if re.search(rf"\b(?:heals? {n}\b|{n}{more} damage from)", text) else f"heal {e.amount}"
    if e.do == "buff":
        signs = [f"{e.power:+d}".replace("+0", s) + "/" + f"{e.health:+d}".replace("+0", t)
                 for s in ("+0", "-0") for t in ("+0", "-0")]
        return "" if any(x in text.replace("\u2212", "-") for x in signs) else f"{e.power:+d}/{e.health:+d}"
    if e.do in ("draw", "discard"):
        one = rf"\b{e.do}s? (?:a|one|1) card\b" if e.amount == 1 else rf"\b{e.do}s? {n} cards\b"
        return "" if re.search(one, text) else f"{e.do} {e.amount} card{'s' if e.amount != 1 else ''}"
    if e.do == "gain_influence":
        return "" if re.search(rf"\bgains? {n} influence\b", text) else f"gain {e.amount} Influence"
    if e.do == "grant":
        word = (e.status or e.keyword or "").split()[0]
        stem = word[:-2] if word.endswith("ed") else word    # "suppressed": "Suppress"
        if stem in text or (word == "barrier" and "prevent the next damage" in text):
            return ""
        return word.capitalize()
    return ""


def _target_said(e: Effect, text: str, self_word: str) -> str:
    """"" if the (lower-case) text names the Champion an effect hits without a choice — `self` on an action
    or a Champion ability, `friendly_champion`, `enemy_champion` — else the words it should say."""
    t = "friendly_champion" if e.target == "self" and self_word != "itself" else e.target
    if t == "friendly_champion":
        return "" if re.search(r"\byour champion\b", text) else "your Champion"
    if t == "enemy_champion":
        return "" if re.search(r"\b(?:enemy|opponent's|opposing) champion\b", text) else "the enemy Champion"
    return ""


def text_problems(card: CardDef) -> list[str]:
    """Where a card's text and its effects disagree (rules.md CARD TEXT: the text is the contract; docs/cards.md
    "Card text"), each a sentence; [] when they agree or the card has no text. The checks:

    - every effect's numbers and words are in the text: "2 damage", "heal 3", "+0/+2", "draw 2 cards",
      "gain 1 Influence", a granted keyword or status, each keyword of the card, an ability's cost;
    - the Champion an effect hits without a choice is the one the text names: "your Champion" for
      `friendly_champion` and for `self` on an action or a Champion ability (`self_words`), "the enemy
      Champion" for `enemy_champion`;
    - each kind of target the player chooses ("a friendly unit") is named in the text at least as often as
      the effects choose one: a text that names one unit and then says "it" has one chosen target, and its
      later effects say `target = "same"`;
    - an effect with `target = "same"` is matched by a word that refers back ("it", "that unit").
    """
    text = card.text.lower()
    if not text.strip():
        return []
    out: list[str] = []
    lists = [card.effect, *(a.effect for a in card.abilities)]
    effects = [e for effs in lists for e in _every_effect(effs)]
    word = self_words(card.type)
    for e in effects:
        missing = _said(e, text) or _target_said(e, text, word)
        if missing:
            out.append(f"its effect '{e.do}' does {describe_effect(e, word)!r}, but its text never says '{missing}'")
    for kw, n in card.keywords.items():
        word = f"{kw} {n}" if n else kw
        if word not in text and not (kw == "voidcast" and card.voidcast is not None
                                     and f"voidcast {card.voidcast}" in text):
            out.append(f"it has the keyword '{word}', but its text never says '{word.title()}'")
    for a in card.abilities:
        if a.activate is not None and a.activate.cost and f"{a.activate.cost} influence" not in text:
            out.append(f"an activated ability costs {a.activate.cost} Influence, but its text never says "
                       f"'{a.activate.cost} Influence'")
    chosen: dict[str, int] = {}
    for e in effects:
        if e.target in CHOICE_TARGETS:
            chosen[e.target] = chosen.get(e.target, 0) + 1
    for word, n in sorted(chosen.items()):
        phrase = _WHO[word]
        noun = phrase.lower().split(" ", 1)[1]   # "a friendly unit" or "target friendly unit"
        named = len(re.findall(rf"\b(?:an?|target) {re.escape(noun)}\b", text))
        if n > named:
            out.append(f"its effects choose {n} targets that are {phrase} (one `target` each in the command) "
                       f"but its text names {phrase} {'once' if named == 1 else f'{named} times'}: where the "
                       "text means the same unit again ('it', 'that unit'), the later effect says "
                       "target = \"same\" (rules.md CARD TEXT)")
    if any(e.target == "same" for e in effects) and not _BACK_REFERENCE.search(text):
        out.append("an effect applies to the same target again (target = \"same\"), but its text never refers "
                   "back to it ('it', 'that unit')")
    return out


__all__ = [
    "CHOICE_TARGETS", "EFFECT_VERBS", "INTERRUPT_EVENT_TEXT", "KEYWORDS", "MAX_AMOUNT", "MAX_COST",
    "MAX_DEPTH", "MAX_FILE_BYTES", "MAX_KEYWORD_NUMBER", "MAX_LIFE", "MAX_LIST", "MAX_STAT", "MAX_TEXT",
    "NEVER", "NUMBERED_KEYWORDS", "RESERVED_NAMES", "SEAT_MODIFIERS", "SEAT_MODIFIER_BOUNDS",
    "STATUSES", "TARGETS", "TRIGGERS", "TURN_HOOK_MODIFIERS", "Ability", "Activation", "CardDB",
    "CardDef", "CardFileError", "CardModel", "CardType", "Effect", "EvolveSpec", "InterruptEvent",
    "Realm", "Speed", "Target", "TriggerName", "Verb", "build_card_db", "bundled_cards_dir",
    "check_keyword", "check_references", "def_choice_slots", "describe_validation_error",
    "effect_slots", "evolve_cycles", "load_card_db", "load_card_file", "load_card_file_located",
    "name_refusal", "parse_cards", "parse_cards_located", "read_toml", "suggest",
    "same_refusal", "describe_effect", "describe_effects", "mode_words", "self_words", "voidcast_words",
    "text_problems",
]
