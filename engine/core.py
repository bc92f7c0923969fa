"""The match state and its small queries: `MatchState` (engine-internal API).

`Game` (engine/game.py) is a `MatchState` with the public verbs on top. The rule modules operate on a
`MatchState`: its fields are the rules state (the snapshot lists every one, docs/determinism.md §4) plus
bookkeeping (events, the Endless Loop watch); its methods are the queries every rule asks (a card's
definition, power, health, keywords now, who controls it, what is in play) and `log()`, the one emitter of
events. Nothing here changes the match by a rule: that is the rule modules' work.

Code outside `engine/` reads none of this (tests/test_boundary.py); engine service modules (view, AI,
sampling, scenarios, records) may, as documented engine-internal API.
"""

from __future__ import annotations

import hashlib
import itertools
from typing import Any, Self

from engine.canonical import ENCODING, canonical_bytes
from engine.cards import SEAT_MODIFIERS, Ability, CardDB, CardDef
from engine.chunked import ChunkedList
from engine.errors import RulesError
from engine.events import EventKind, EventLog, log_lines_for
from engine.rng import SplitMix64
from engine.state import (
    BOARD,
    COMMAND,
    DEFAULT_STRUCTURE,
    DRAW_START,
    GONE,
    HAND,
    LIBRARY,
    RELICS,
    SET,
    WINDOW_RULE,
    WINDOWS,
    ZONE_NAMES,
    Choice,
    Decision,
    InterruptWindow,
    MatchOptions,
    Outcome,
    Perm,
    PlayerState,
    Resolving,
    StackItem,
    Trigger,
    seat_structure,
)

#: state-based actions repeat until nothing changes, at most this many times (then RulesLoopError)
SBA_LOOP_CAP = 200
#: the stack never holds more items than this (then RulesLoopError)
STACK_CAP = 500
#: Endless Loop (rules.md §1): after this many resolutions in one window with only passes between them,
#: the state is hashed after each resolution; a repeat ends the match in a draw
LOOP_WATCH = 16
#: ... and after this many, a loop that never repeats (it grows the state) is an engine error
LOOP_CAP = 2000
#: a command given this close to a loop cap (LOOP_CAP resolutions, STACK_CAP minus this many items) is
#: carried out on a copy kept aside, so that a RulesLoopError leaves the match as it was
LOOP_MARGIN = 100
#: what a turn-based step asks of the turn manager: go on, wait for a decision, or end this phase now
STEP_GO_ON, STEP_WAIT, STEP_END_PHASE = 0, 1, 2


class RulesLoopError(RulesError, RuntimeError):
    """State-based actions or triggers kept causing each other past the cap: an infinite loop in the cards."""


def _bit(p: int) -> int:
    return 1 << p


class MatchState:
    """One match's state (engine-internal: the rule modules' view of a `Game`). Fields: the cards (`defs`,
    `owner`, `zone`, indexed by card id), the two `players`, the `perms` of cards in play, the turn and
    window (`turn`, `active`, `win`, `step`), priority (`priority`, `passed`), the `stack`, waiting
    `triggers`, the pending `choice` / `intr` / `pending` decision, combat (`attackers`, `blocks`), the
    generator `rng`, and the bookkeeping that is not state (events, the record, the loop watch)."""

    # slots, not an instance dict: with more than 30 attributes CPython 3.11 gives every instance a dict
    # of its own, and then can't specialize a method call on it (g.log, g.keyword, g.card …: ~7 an
    # action); a slot is read, written and called through as fast as it gets
    __slots__ = _FIELDS = (
        "db", "options", "seed", "rng", "defs", "owner", "zone", "players", "perms", "turn", "active",
        "first_player", "win", "step", "priority", "passed", "stack", "triggers", "trigger_queue", "choice",
        "intr", "attackers", "blocks", "lifedrain_due", "seq", "outcome", "pending", "_events", "record",
        "aliases", "earlier_numbers", "void_items", "resolving", "threads", "_quiet", "_loop_seen",
        "_private_commands", "_sba_settled", "_listed", "_probed", "_undo_kept", "_may_memo",
    )

    def __init__(self, db: CardDB, options: MatchOptions | None = None, seed: int = 0) -> None:
        self.db = db
        self.options = options or MatchOptions()
        self.seed = seed
        self.rng = SplitMix64(seed)
        # card number → its card, owner and zone; numbers are drawn from the generator (`new_card`); 0 is
        # never a card (its entry stands for "no card": a blocker that left play, a rule's own trigger); a
        # number whose card went from one hidden zone into another keeps its entry with no card (None:
        # nobody may learn what it was), so that it is never drawn again
        self.defs: dict[int, CardDef | None] = {0: None}
        self.owner: dict[int, int] = {0: -1}
        self.zone: dict[int, int] = {0: GONE}
        self.players = [PlayerState("p1", self.options.unit_slots, self.options.relic_slots),
                        PlayerState("p2", self.options.unit_slots, self.options.relic_slots)]
        self.perms: dict[int, Perm] = {}
        self.turn = 1
        self.active = 0
        self.first_player = 0
        self.win = DRAW_START
        self.step = 0          # the position of the current window in this turn's structure
        self.priority = -1
        self.passed = 0
        self.stack: list[StackItem] = []
        self.triggers: list[Trigger] = []
        self.trigger_queue: list[Trigger] = []
        self.choice: Choice | None = None
        self.intr: InterruptWindow | None = None
        self.attackers: tuple[int, ...] = ()
        self.blocks: tuple[tuple[int, int], ...] = ()    # (blocker, attacker)
        self.lifedrain_due = [0, 0]
        self.seq = 0
        self.outcome: Outcome | None = None
        self.pending = Decision("none", -1, WINDOWS[DRAW_START], "C1K 1.1", "setting up")
        self._events = EventLog()   # bookkeeping, not state: not in the snapshot, shared by clones
        self.record: ChunkedList[str] = ChunkedList()   # the commands; clones fork it (O(log n))
        self.aliases: dict[str, int] = {}
        # an aliased card's earlier numbers (new → old; bookkeeping, not state): a lesson's goal about "the
        # Acolyte" still matches the events from before it was renumbered (shared by clones, copied on write)
        self.earlier_numbers: dict[int, int] = {}
        self.void_items: dict[int, StackItem] = {}   # Voidcast: how a card in the Void was cast (targets)
        self.resolving: Resolving | None = None   # a resolution paused for an Interrupt (Flux outcome)
        self.threads: list[Trigger] = []          # Thread branches waiting for the next priority moment
        # Endless Loop watch (bookkeeping, not state): resolutions in this window with only passes between
        # them, and the loop keys seen since the watch began
        self._quiet = 0
        self._loop_seen: dict[str, int] = {}
        # commands whose every trace is private to their player (bookkeeping, not state): declining an
        # Interrupt or a permission; the other player's view doesn't count them (rules.md §7a)
        self._private_commands = [0, 0]
        # state-based actions were found to have nothing to do, and nothing that could change that has
        # happened since (bookkeeping, derived from the state; engine.turn keeps it, see `open_priority`)
        self._sba_settled = False
        # the last legal_actions() list, with when it was made (bookkeeping, not state: engine.commands'
        # `listed`; a clone starts without it)
        self._listed: tuple[int, Decision, tuple[object, ...]] | None = None
        # the legal actions `pass_if_forced` listed and found were not forced, with when: the next `listed`
        # call takes them if nothing has happened since (bookkeeping, not state; a clone starts without)
        self._probed: tuple[int, Decision, list[Any]] | None = None
        # a command is being carried out with a copy kept aside, near a loop cap (engine.commands)
        self._undo_kept = False
        # per player, options._may_act's last answer and what it was worked out from (bookkeeping, not
        # state: a clone starts without it; code that changes a card's definition in place forgets it)
        self._may_memo: list[tuple[int, bool, list[int], list[int], list[int], int, int, bool] | None] = [None, None]

    def draw_first_player(self) -> int:
        """Who goes first, by the match option `first` (p1, p2, or random from the StateSeed's generator)."""
        if self.options.first == "random":
            return self.rng.below(2)
        return 1 if self.options.first == "p2" else 0

    def fresh_number(self) -> int:
        """A card number no card object of this match ever had, drawn from the generator (rules.md §7a:
        a number says nothing): uniform in 1 … span − 1, drawing again while it is taken, where span is
        1000, times 10 for as long as at least half of the span is taken (docs/determinism.md §2)."""
        defs = self.defs
        span = 1000
        while 2 * (len(defs) - 1) >= span:   # (numbers taken: every entry but 0's)
            span *= 10
        rng = self.rng   # (rng.below called as a method: a bound one read first is not specialized)
        n = 1 + rng.below(span - 1)
        while n in defs:
            n = 1 + rng.below(span - 1)
        return n

    def new_card(self, card: CardDef, owner: int, zone: int) -> int:
        """A new card object (a card put in a library at setup, a token, a card of a scenario): its number
        is drawn from the generator."""
        n = self.fresh_number()
        self.defs[n] = card
        self.owner[n] = owner
        self.zone[n] = zone
        return n

    def renumber(self, cid: int, zone: int) -> int:
        """Card `cid` enters the hidden zone `zone` (a hand, the Set zone): it becomes a new card object
        with a fresh number (rules.md §7a), which the caller puts in the zone's list. The old number
        stays taken; if the card was hidden there too (a draw, a Set) the old number also forgets which
        card it was, so naming it says nothing."""
        d = self.defs[cid]
        n = self.fresh_number()
        self.defs[n] = d
        self.owner[n] = self.owner[cid]
        self.zone[n] = zone
        if self.zone[cid] in (LIBRARY, HAND, SET):
            self.defs[cid] = None
        self.zone[cid] = GONE
        if self.aliases and cid in self.aliases.values():
            # a scenario's or lesson's name for the card follows it (a new dict: clones share the old one)
            self.aliases = {k: n if v == cid else v for k, v in self.aliases.items()}
            self.earlier_numbers = {**self.earlier_numbers, n: cid}
        return n

    def exists(self, cid: int) -> bool:
        """Whether `cid` is the number of a card object (one that hasn't been renumbered from hiding)."""
        return self.defs.get(cid) is not None

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def seat_mod(self, p: int, key: str) -> int:
        seat = self.players[p].seat
        if seat:
            return self.card(seat).modifiers.get(key, SEAT_MODIFIERS[key])
        return SEAT_MODIFIERS[key]

    def apply_seat(self, p: int) -> None:
        """Seats modify the turn structure through these explicit hooks (TPS: explicit configuration)."""
        ps = self.players[p]
        ps.draw_count = self.seat_mod(p, "draw_count")
        ps.hand_size = self.seat_mod(p, "hand_size")
        ps.max_influence = self.seat_mod(p, "max_influence")
        ps.influence_gain = self.seat_mod(p, "influence_gain")
        ps.structure = seat_structure(self.card(ps.seat).modifiers) if ps.seat else DEFAULT_STRUCTURE
        # the slots: the Seat's hooks, or the match's options where it has none (the slots change only while
        # they are all empty)
        units, relics = self.options.slots(self.card(ps.seat).modifiers if ps.seat else {})
        if units != len(ps.board) and not any(ps.board):
            ps.board = [0] * units
        if relics != len(ps.relics) and not any(ps.relics):
            ps.relics = [0] * relics

    def restore(self, saved: MatchState) -> None:
        """Become `saved` again (a `clone()` of this match taken earlier): every field, the bookkeeping
        included. A command that raised RulesLoopError is undone this way (engine.commands)."""
        for name in MatchState._FIELDS:
            setattr(self, name, getattr(saved, name))
        self._may_memo = saved._may_memo.copy()   # (a list: not shared with `saved`)

    def clone(self) -> Self:
        cls = self.__class__
        g = cls.__new__(cls)
        g.db = self.db
        g.options = self.options
        g.seed = self.seed
        g.rng = SplitMix64(0)
        g.rng.state = self.rng.state
        g.defs = self.defs.copy()
        g.owner = self.owner.copy()
        g.zone = self.zone.copy()
        g.players = [self.players[0].copy(), self.players[1].copy()]
        g.perms = {k: v.copy() for k, v in self.perms.items()}
        g.turn = self.turn
        g.active = self.active
        g.first_player = self.first_player
        g.win = self.win
        g.step = self.step
        g.priority = self.priority
        g.passed = self.passed
        g.stack = self.stack.copy()
        g.triggers = self.triggers.copy()
        g.trigger_queue = self.trigger_queue.copy()
        g.choice = self.choice
        g.intr = self.intr
        g.attackers = self.attackers
        g.blocks = self.blocks
        g.lifedrain_due = self.lifedrain_due.copy()
        g.seq = self.seq
        g.outcome = self.outcome
        g.pending = self.pending
        g._events = self._events.fork()
        g.record = self.record.fork()
        g.aliases = self.aliases
        g.earlier_numbers = self.earlier_numbers
        g.void_items = self.void_items.copy()
        g.resolving = self.resolving
        g.threads = self.threads.copy()
        g._quiet = self._quiet
        g._loop_seen = self._loop_seen.copy() if self._loop_seen else {}
        g._private_commands = self._private_commands.copy()
        g._sba_settled = self._sba_settled
        g._listed = None
        g._probed = None
        g._undo_kept = False
        g._may_memo = [None, None]
        return g

    def snapshot(self) -> dict[str, object]:
        """The rules state as plain values (docs/determinism.md §4 lists every field).

        Booleans, None (absent: left out) and integers beyond 2^53 are allowed here; the canonical
        encoding (`engine.canonical`, used by `snapshot_bytes`) turns them into integers and strings.
        Presentation (player names, prompts, option labels, stack item names) and the log are not in it.
        """
        snap: dict[str, object] = {
            "encoding": ENCODING,
            "seed": self.seed, "rng": self.rng.state, "turn": self.turn, "active": self.active,
            "first_player": self.first_player, "window": WINDOWS[self.win], "priority": self.priority,
            "passed": self.passed, "seq": self.seq, "options": self.options.to_dict(),
            "cards": [[i, d.id if d else "", self.owner[i], ZONE_NAMES[self.zone[i]]]
                      for i, d in sorted(self.defs.items()) if i],
            "players": [p.snapshot() for p in self.players],
            "perms": {str(k): v.snapshot() for k, v in sorted(self.perms.items())},
            "stack": [s.snapshot() for s in self.stack],
            "triggers": [t.snapshot() for t in self.triggers],
            "trigger_queue": [t.snapshot() for t in self.trigger_queue],
            "choice": self.choice.snapshot() if self.choice else None,
            "interrupt": self.intr.snapshot() if self.intr else None,
            "attackers": list(self.attackers), "blocks": [list(b) for b in self.blocks],
            "lifedrain_due": list(self.lifedrain_due),
            "void_items": {str(k): v.snapshot() for k, v in sorted(self.void_items.items())},
            "resolving": self.resolving.snapshot() if self.resolving else None,
            "threads": [t.snapshot() for t in self.threads],
            "outcome": [self.outcome.termination.value, self.outcome.result()] if self.outcome else None,
            "pending": self.pending.snapshot(),
        }
        if self.step != self.win:
            # the position in this turn's structure, only when it differs from the window's own row (a
            # Seat's turn hook: an extra combat phase, a skipped window), so default snapshots don't move
            snap["step"] = self.step
        return snap

    def snapshot_bytes(self) -> bytes:
        """The canonical encoding of `snapshot()` (engine/canonical.py; docs/determinism.md)."""
        return canonical_bytes(self.snapshot())

    def state_hash(self) -> str:
        """SHA-256 of `snapshot_bytes()`, 64 lowercase hex digits."""
        return hashlib.sha256(self.snapshot_bytes()).hexdigest()

    def card(self, cid: int) -> CardDef:
        d = self.defs[cid]
        assert d is not None
        return d

    def label(self, cid: int) -> str:
        return f"{self.defs[cid].name} #{cid}"  # type: ignore[union-attr]  # (self.card(cid), inlined)

    @property
    def events(self) -> EventLog:
        """Every event of the match, private ones included (filter with `engine.events.events_for`)."""
        return self._events

    @property
    def log_lines(self) -> list[str]:
        """The English log as a spectator may read it (private events by their public face): a
        compatibility view derived from the events."""
        return log_lines_for(self, -1)

    def log(self, line: str, kind: EventKind = "note", actor: int = -1, cards: tuple[int, ...] = (), amount: int = 0,
            detail: str = "", rule: str = "", private_to: int = -1, public_text: str = "",
            command: int = -1) -> None:
        """Emit an event (`line`: its English text). `rule` defaults to the current window's rule."""
        w = self.win
        # the fields but n as a plain tuple: EventLog makes it an Event when it is first read (hot)
        self._events.tail.append((kind, self.turn, WINDOWS[w], rule or WINDOW_RULE[w],  # type: ignore[arg-type]
                                   actor, private_to, line, public_text, cards, amount, detail, command))

    def controller(self, cid: int) -> int:
        return self.owner[cid]

    def keyword(self, cid: int, name: str) -> int | None:
        """The number of a keyword the card has now (printed or granted), or None."""
        perm = self.perms.get(cid)
        if perm is not None:
            if name in perm.temp_granted:
                return perm.temp_granted[name]
            if name in perm.granted:
                return perm.granted[name]
            if perm.lost and name in perm.lost:
                return None
        return self.defs[cid].keywords.get(name)  # type: ignore[union-attr]  # (self.card(cid), inlined)

    def power(self, cid: int) -> int:
        perm = self.perms[cid]
        return self.card(cid).power + perm.power_mod + perm.temp_power + perm.counters.get("growth", 0) \
            - perm.counters.get("wither", 0)

    def max_health(self, cid: int) -> int:
        perm = self.perms[cid]
        return self.card(cid).health + perm.health_mod + perm.temp_health + perm.counters.get("growth", 0) \
            - perm.counters.get("wither", 0)

    def health(self, cid: int) -> int:
        return self.max_health(cid) - self.perms[cid].damage

    def in_play(self, cid: int) -> bool:
        return self.zone[cid] in (BOARD, RELICS, COMMAND)

    def is_unit_in_play(self, cid: int) -> bool:
        return self.zone[cid] == BOARD

    def is_champion(self, cid: int) -> bool:
        return cid in (self.players[0].champion, self.players[1].champion)

    def champion_owner(self, cid: int) -> int:
        return 0 if self.players[0].champion == cid else 1

    def remove_status(self, cid: int, status: str) -> None:
        perm = self.perms[cid]
        if status in perm.temp_statuses:
            perm.temp_statuses.remove(status)
        if status in perm.statuses:
            perm.statuses.remove(status)

    def add_status(self, cid: int, status: str, temporary: bool) -> None:
        perm = self.perms[cid]
        lst = perm.temp_statuses if temporary else perm.statuses
        if status not in lst:
            lst.append(status)
            lst.sort()

    def permanents(self, p: int) -> list[int]:
        """A player's cards in play, in the order they entered play."""
        ps = self.players[p]
        perms = self.perms
        # (seq, id) pairs sort in C, without a key function (seqs are unique)
        return [c for _, c in sorted([(perms[c].seq, c) for c in
                                      itertools.chain(ps.board, ps.relics, (ps.champion, ps.seat)) if c])]

    @property
    def window(self) -> str:
        return WINDOWS[self.win]

    @property
    def phase(self) -> str:
        return WINDOWS[self.win].split(".", 1)[0]

    @property
    def decision(self) -> Decision:
        return self.pending

    def current_player(self) -> int:
        """The player who must act now, or -1 when the match is over."""
        return self.pending.player if self.outcome is None else -1

    def is_terminal(self) -> bool:
        return self.outcome is not None

    def stack_view(self) -> list[StackItem]:
        """The stack, top first."""
        return list(reversed(self.stack))

    def target_seqs(self, targets: tuple[int, ...]) -> tuple[int, ...]:
        if not targets:
            return ()
        perms = self.perms
        seqs: list[int] = []   # (a loop, not a generator: whose names would be cells, made every call)
        for t in targets:
            perm = perms.get(t)
            seqs.append(0 if perm is None else perm.seq)
        return tuple(seqs)

    def visible_to(self, cid: int, p: int) -> bool:
        """Whether player p may see which card `cid` is (hidden: libraries, the opponent's hand and Set)."""
        z = self.zone[cid]
        if z == LIBRARY:
            return False
        if z in (HAND, SET):
            return self.owner[cid] == p
        if z == GONE:    # a number renumbered from hiding says nothing (rules.md §7a)
            return self.defs[cid] is not None
        return True

    def activated(self, cid: int) -> tuple[tuple[int, Ability], ...]:
        return self.card(cid).act

    def commands_known_to(self, viewer: int) -> int:
        """How many commands `viewer` (-1: a spectator) knows were given: the record's length less the
        other player's private ones (a declined Interrupt or permission says what their hand held)."""
        return len(self.record) - sum(self._private_commands[p] for p in (0, 1) if p != viewer)


__all__ = [
    "LOOP_CAP", "LOOP_MARGIN", "LOOP_WATCH", "SBA_LOOP_CAP", "STACK_CAP", "MatchState", "RulesLoopError",
]
