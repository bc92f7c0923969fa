"""A player's view as a fixed-size vector, and the numbering of the legal actions (docs/rl.md).

Both are built from what the player may know and nothing else (rules.md §7a):

- `Encoder.encode(view)` reads only a `PlayerView` (`engine.view.observe(game, player)`), never the
  game: two matches that look the same to the player encode the same (tests/test_rl_twins.py);
- `legal_actions(game)` is the deciding player's legal list (`Game.legal_actions()`, in its fixed order,
  which depends only on their own cards and public ones), cut at `MAX_ACTIONS`: action `i` is the list's
  `i`-th entry. The engine caps each kind of candidate list at 512 (attack and block declarations,
  answers to a choice, target combinations); a priority list longer than 512 in all keeps its first 512.

Every entry is an integer (a count, a flag 0/1, a number from the view, or a card index: 1 + the card's
position in the card set's ids sorted, 0 for none). `Encoder.layout` names every segment (offset, size)
and docs/rl.md lists them. Pure Python: the `rl` extra's NumPy turns the list into an array.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from engine.actions import Action
from engine.cards import KEYWORDS, STATUSES, CardDB
from engine.game import Game
from engine.state import WINDOWS, MatchOptions
from engine.view import HandCard, PlayerView, SideView, StackEntry, UnitView

_T = TypeVar("_T")

#: the action space: actions are numbered 0 .. MAX_ACTIONS - 1 (the engine's candidate-list cap)
MAX_ACTIONS = 512
#: a match that reaches this many actions ends as a draw (a truncation): OpenSpiel's `max_game_length`
MAX_GAME_ACTIONS = 20_000
#: the default turn limit of the environments (a draw after it, `MatchOptions.max_turns`)
DEFAULT_MAX_TURNS = 200

#: the viewer's hand (then Set cards) slots encoded; a card beyond them is left out (the counts stay)
HAND_SLOTS = 12
#: the stack entries encoded, top first
STACK_SLOTS = 8

DECISION_KINDS = ("priority", "attackers", "blockers", "interrupt", "choice")
STACK_KINDS = ("card", "ability", "trigger", "keyword", "game", "voidcast", "thread")
CARD_TYPES = ("unit", "action", "relic")

GLOBAL_FIELDS = ("viewer", "turn", "i_am_active", "i_am_deciding", "declaring", "i_hold_priority", "stack_size",
                 "commands", "over", "won", "lost", "drawn", "step")
DECISION_FIELDS = ("min_choices", "max_choices", "can_decline", "options", "eligible", "legal_count")
SIDE_FIELDS = ("life", "influence", "capacity", "max_influence", "library", "graveyard", "hand_size", "set_count",
               "exhaustions", "hand_limit", "champion", "seat", "units", "relics")
UNIT_FIELDS = (("present", "card", "power", "health", "max_health", "damage", "exhausted", "deploying",
                "attacking", "blocking", "blocked", "activated", "counters")
               + tuple(f"status_{s}" for s in STATUSES) + tuple(f"kw_{k}" for k in KEYWORDS))
RELIC_FIELDS = ("present", "card", "exhausted", "activated", "counters")
HAND_FIELDS = ("present", "card", "cost", "power", "health") + tuple(f"type_{t}" for t in CARD_TYPES) + (
    "fast", "playable", "set")
STACK_FIELDS = ("present", "card", "mine", "kind", "targets")


@dataclass(frozen=True, slots=True)
class Segment:
    """A named run of the vector: `size` entries from `offset`, `count` records of `fields` each."""

    name: str
    offset: int
    count: int
    fields: tuple[str, ...]

    @property
    def size(self) -> int:
        return self.count * len(self.fields)


class Encoder:
    """Encodes views of matches played with `db`'s cards and `options`' slot counts."""

    def __init__(self, db: CardDB, options: MatchOptions | None = None) -> None:
        opts = options or MatchOptions()
        self.unit_slots = opts.unit_slots
        self.relic_slots = opts.relic_slots
        self.card_ids: tuple[str, ...] = tuple(sorted(db.by_id))
        index = {cid: i + 1 for i, cid in enumerate(self.card_ids)}
        self._by_name = {d.name.lower(): index[d.id] for d in db.by_id.values()}
        n = len(self.card_ids)
        parts: list[tuple[str, int, tuple[str, ...]]] = [
            ("global", 1, GLOBAL_FIELDS),
            ("window", 1, tuple(WINDOWS)),
            ("decision", 1, DECISION_KINDS + DECISION_FIELDS),
            ("me", 1, SIDE_FIELDS),
            ("opponent", 1, SIDE_FIELDS),
            ("my_units", self.unit_slots, UNIT_FIELDS),
            ("opponent_units", self.unit_slots, UNIT_FIELDS),
            ("my_relics", self.relic_slots, RELIC_FIELDS),
            ("opponent_relics", self.relic_slots, RELIC_FIELDS),
            ("hand", HAND_SLOTS, HAND_FIELDS),
            ("stack", STACK_SLOTS, STACK_FIELDS),
            ("my_graveyard", 1, self.card_ids),
            ("opponent_graveyard", 1, self.card_ids),
            ("my_void", 1, self.card_ids),
            ("opponent_void", 1, self.card_ids),
        ]
        layout = []
        at = 0
        for name, count, fields in parts:
            seg = Segment(name, at, count, fields)
            layout.append(seg)
            at += seg.size
        self.layout: tuple[Segment, ...] = tuple(layout)
        self.size = at
        self.cards = n

    def segment(self, name: str) -> Segment:
        return next(s for s in self.layout if s.name == name)

    def card(self, name: str) -> int:
        """A card's index (1-based, by sorted id) from the name a view shows; 0 for none or unknown."""
        if name.endswith(" [Set]"):
            name = name[:-6]
        return self._by_name.get(name.lower(), 0)

    def encode(self, view: PlayerView) -> list[int]:
        """The vector of `view` (length `self.size`): reads the view only."""
        out: list[int] = []
        me = view.viewer
        dec = view.decision
        over = view.outcome is not None
        out += [me, view.turn, int(view.active == me), int(dec is not None), int(view.declaring),
                int(view.priority == me), len(view.stack), view.commands, int(over),
                int(over and view.winner == me), int(over and view.winner == 1 - me),
                int(over and view.winner is None), view.step]
        out += [int(i == view.window_index) for i in range(len(WINDOWS))]
        kind = dec.kind if dec is not None else ""
        out += [int(kind == k) for k in DECISION_KINDS]
        if dec is not None:
            n_legal = len(dec.legal) if dec.legal else len(dec.block_ok)
            out += [dec.min_choices, dec.max_choices, int(dec.can_decline), len(dec.options), len(dec.eligible),
                    min(n_legal, MAX_ACTIONS)]
        else:
            out += [0] * len(DECISION_FIELDS)
        for side in (view.me, view.opponent):
            out += self._side(side)
        for side in (view.me, view.opponent):
            out += self._slots(side.units, self.unit_slots, self._unit, len(UNIT_FIELDS))
        for side in (view.me, view.opponent):
            out += self._slots(side.relics, self.relic_slots, self._relic, len(RELIC_FIELDS))
        out += self._slots(view.hand, HAND_SLOTS, self._hand_card, len(HAND_FIELDS))
        out += self._slots(view.stack, STACK_SLOTS, lambda e: self._stack_entry(e, me), len(STACK_FIELDS))
        for side in (view.me, view.opponent):
            out += self._counts(c.name for c in side.graveyard_cards)
        for side in (view.me, view.opponent):
            out += self._counts(c.name for c in side.void_cards)
        assert len(out) == self.size
        return out

    # ------------------------------------------------------------ parts

    def _side(self, s: SideView) -> list[int]:
        return [s.life, s.influence, s.capacity, s.max_influence, s.library, s.graveyard, s.hand_size, s.set_count,
                s.exhaustions, s.hand_limit, self.card(s.champion_name), self.card(s.seat_name) if s.seat_name else 0,
                sum(1 for u in s.units if u is not None), sum(1 for r in s.relics if r is not None)]

    @staticmethod
    def _slots(items: Sequence[_T | None], slots: int, enc: Callable[[_T], list[int]], width: int) -> list[int]:
        out: list[int] = []
        for it in items[:slots]:
            out += enc(it) if it is not None else [0] * width
        out += [0] * (width * (slots - min(slots, len(items))))
        return out

    def _unit(self, u: UnitView) -> list[int]:
        kws = dict.fromkeys(KEYWORDS, 0)
        for k in u.keywords + u.statuses:
            word, _, num = k.partition(" ")
            key = word.lower()
            if key in kws:
                kws[key] = int(num) if num.isdigit() else 1
        statuses = {s.lower() for s in u.statuses}
        return ([1, self.card(u.name), u.power, u.health, u.max_health, u.damage, int(u.exhausted), int(u.deploying),
                 int(u.attacking), int(u.blocking != 0), int(u.blocked_by != 0), u.activated,
                 sum(v for _, v in u.counters)]
                + [int(s in statuses) for s in STATUSES] + [kws[k] for k in KEYWORDS])

    def _relic(self, r: UnitView) -> list[int]:
        return [1, self.card(r.name), int(r.exhausted), r.activated, sum(v for _, v in r.counters)]

    def _hand_card(self, c: HandCard) -> list[int]:
        return ([1, self.card(c.name), c.cost, c.power, c.health] + [int(c.type == t) for t in CARD_TYPES]
                + [int(c.speed == "fast"), int(c.playable), int(c.name.endswith(" [Set]"))])

    def _stack_entry(self, e: StackEntry, me: int) -> list[int]:
        kind = STACK_KINDS.index(e.kind) + 1 if e.kind in STACK_KINDS else 0
        return [1, self.card(e.name), int(e.controller_seat == me), kind, len(e.targets)]

    def _counts(self, names: Iterable[str]) -> list[int]:
        out = [0] * self.cards
        for name in names:
            i = self.card(name)
            if i:
                out[i - 1] += 1
        return out


def legal_actions(game: Game) -> list[Action]:
    """The deciding player's actions, numbered by position (module docstring); [] when nobody decides."""
    if game.is_terminal() or game.current_player() < 0:
        return []
    return game.legal_actions()[:MAX_ACTIONS]


def action_mask(game: Game, player: int) -> list[int]:
    """1 for each number that is a legal action of `player` now (all 0 unless `player` decides)."""
    mask = [0] * MAX_ACTIONS
    if not game.is_terminal() and game.current_player() == player:
        for i in range(len(legal_actions(game))):
            mask[i] = 1
    return mask


__all__ = ["DEFAULT_MAX_TURNS", "Encoder", "MAX_ACTIONS", "MAX_GAME_ACTIONS", "Segment", "action_mask",
           "legal_actions"]
