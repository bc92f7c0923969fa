"""The Council of 1000 rules engine: one `Game` is one match state (OpenSpiel's State shape).

Public API: `legal_actions()`, `apply(action, player=None)`, `apply_command(text)`, `parse(text)`,
`current_player()`, `is_terminal()`, `outcome`, `decision`, `clone()`, `snapshot()`, `state_hash()`,
`why_not(action, player)`, `explain(player)`, `window`, `stack_view()`, `events`, `log_lines`.
What a player may know of it: `engine.view.observe(game, player)` and `engine.events.events_for`.

Only this module advances windows and phases, and only when the rules say so (TPS "Controlled
transitions"): a window ends when both players pass on an empty stack, or — for trigger windows and
turn-based windows — when its work is done.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace

from engine import pipeline
from engine.actions import (
    Action,
    Activate,
    Attack,
    Block,
    Choose,
    Command,
    Concede,
    Decline,
    IllegalAction,
    Interrupt,
    MalformedCommand,
    Pass,
    Play,
    SetCard,
    command_to_action,
    parse_command,
)
from engine.canonical import ENCODING, canonical_bytes
from engine.cards import CHOICE_TARGETS, SEAT_MODIFIERS, Ability, CardDB, CardDef, Effect
from engine.chunked import ChunkedList
from engine.events import Event, EventLog, describe_effects, log_lines_for
from engine.rng import SplitMix64
from engine.state import (
    BOARD,
    COMBAT_DAMAGE,
    COMMAND,
    DECLARE_ATTACKERS,
    DEFAULT_STRUCTURE,
    DRAW_POST,
    DRAW_START,
    END_CLEANUP,
    END_FINAL,
    END_START,
    GONE,
    GRAVEYARD,
    HAND,
    INFLUENCE_RESPONSE,
    LIBRARY,
    MAIN,
    PHASE_STARTS,
    PHASE_TRIGGERS,
    PHASES,
    RELICS,
    SET,
    SKIP_HOOKS,
    STACK,
    TRIGGER_WINDOWS,
    TURN_TABLE,
    VOID,
    WINDOW_RULE,
    WINDOW_TEXT,
    WINDOWS,
    ZONE_NAMES,
    Choice,
    Decision,
    Explanation,
    InterruptWindow,
    MatchOptions,
    Outcome,
    Perm,
    PlayerState,
    Refusal,
    Resolving,
    StackItem,
    Termination,
    Trigger,
    phase_of,
    player_name,
)

SBA_LOOP_CAP = 200
SET_COST = 1   # Veil: Influence to Set a card face down
#: the priority decisions are immutable values; share them instead of building one per pass
_PRIORITY_DECISIONS: dict[tuple[str, int], Decision] = {}
_PRIORITY_LINES: dict[str, str] = {}
#: turn_windows' cache: id(Seat card definition) -> (the definition, the turn structure it makes)
_SEAT_STRUCTURES: dict[int, tuple[CardDef, tuple[int, ...]]] = {}
STACK_CAP = 500
#: Endless Loop (rules.md §1): after this many resolutions in one window with only passes between them,
#: the state is hashed after each resolution; a repeat ends the match in a draw
LOOP_WATCH = 16
#: ... and after this many, a loop that never repeats (it grows the state) is an engine error
LOOP_CAP = 2000


#: legal_actions() lists at most this many candidate block declarations (see Game.block_assignments)
BLOCK_LEAF_CAP = 512


class RulesLoopError(RuntimeError):
    """State-based actions or triggers kept causing each other past the cap: an infinite loop in the cards."""


#: the event kind of each command (Decline of an Interrupt is "interrupt", of a choice "choice")
_COMMAND_KIND = {"Pass": "pass", "Play": "play", "Activate": "activate", "Attack": "attack", "Block": "block",
                 "Interrupt": "interrupt", "Decline": "choice", "Choose": "choice", "SetCard": "set",
                 "Concede": "concede"}


_new_tuple = tuple.__new__
#: the record line of a pass, by player
_PASS_LINES = (f"{player_name(0)}: {Pass()}", f"{player_name(1)}: {Pass()}")


def _bit(p: int) -> int:
    return 1 << p


class Game:
    """A match state. Create with `Game.new(...)` (a fresh match) or `engine.scenario.build(...)`."""

    # ------------------------------------------------------------------ construction

    def __init__(self, db: CardDB, options: MatchOptions | None = None, seed: int = 0) -> None:
        self.db = db
        self.options = options or MatchOptions()
        self.seed = seed
        self.rng = SplitMix64(seed)
        self.defs: list[CardDef | None] = [None]     # index = card id; id 0 is never a card
        self.owner: list[int] = [-1]
        self.zone: list[int] = [GONE]
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

    @classmethod
    def new(cls, db: CardDB, deck1: object, deck2: object, seed: int,
            options: MatchOptions | None = None) -> Game:
        """A fresh match: who goes first (match option), decks shuffled with the StateSeed, 5 cards each; the
        first player skips their first draw."""
        from engine.decks import Deck

        assert isinstance(deck1, Deck) and isinstance(deck2, Deck)
        g = cls(db, options, seed)
        g.first_player = g.active = g.draw_first_player()   # before the shuffle (rules.md §1)
        for p, deck in enumerate((deck1, deck2)):
            ps = g.players[p]
            ps.name = deck.player or player_name(p)
            champ = g.new_card(deck.champion, p, COMMAND)
            ps.champion = champ
            g.perms[champ] = Perm(0, g.next_seq())
            seat = g.new_card(deck.seat, p, COMMAND)
            ps.seat = seat
            g.perms[seat] = Perm(0, g.next_seq())
            g.apply_seat(p)
            ps.life = g.card(champ).life + g.seat_mod(p, "starting_life_bonus")
            ps.influence = ps.capacity = g.seat_mod(p, "starting_influence")
            # shuffle first, then number the cards in library order: an id says nothing of a card's
            # identity (an opponent who knows the deck list can't read a hidden card from its id)
            order = list(range(len(deck.library)))
            g.rng.shuffle(order)
            for i in order:
                ps.library.append(g.new_card(deck.library[i], p, LIBRARY))
        fp = g.first_player
        # (the seed is not in the log: it would reveal every hidden card; the view shows it at game over)
        g.log(f"Match begins: {g.players[fp].name} ({player_name(fp)}) goes first"
              + (" (drawn at random)" if g.options.first == "random" else ""), actor=fp, rule="C1K 1.1")
        for p in (0, 1):
            g.draw(p, g.seat_mod(p, "opening_hand"))
        g.goto(DRAW_START)
        return g

    def draw_first_player(self) -> int:
        """Who goes first, by the match option `first` (p1, p2, or random from the StateSeed's generator)."""
        if self.options.first == "random":
            return self.rng.below(2)
        return 1 if self.options.first == "p2" else 0

    def new_card(self, card: CardDef, owner: int, zone: int) -> int:
        self.defs.append(card)
        self.owner.append(owner)
        self.zone.append(zone)
        return len(self.defs) - 1

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
        units, relics = self.seat_mod(p, "unit_slots"), self.seat_mod(p, "relic_slots")
        if units != len(ps.board) and not any(ps.board):
            ps.board = [0] * max(1, units)
        if relics != len(ps.relics) and not any(ps.relics):
            ps.relics = [0] * max(0, relics)

    # ------------------------------------------------------------------ copying, snapshot, hash

    def clone(self) -> Game:
        g = Game.__new__(Game)
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
        g.void_items = self.void_items.copy()
        g.resolving = self.resolving
        g.threads = self.threads.copy()
        g._quiet = self._quiet
        g._loop_seen = self._loop_seen.copy() if self._loop_seen else {}
        g._private_commands = self._private_commands.copy()
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
                      for i, d in enumerate(self.defs) if i],
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

    # ------------------------------------------------------------------ small queries

    def card(self, cid: int) -> CardDef:
        d = self.defs[cid]
        assert d is not None
        return d

    def label(self, cid: int) -> str:
        return f"{self.card(cid).name} #{cid}"

    @property
    def events(self) -> EventLog:
        """Every event of the match, private ones included (filter with `engine.events.events_for`)."""
        return self._events

    @property
    def log_lines(self) -> list[str]:
        """The English log as a spectator may read it (private events by their public face): a
        compatibility view derived from the events."""
        return log_lines_for(self, -1)

    def log(self, line: str, kind: str = "note", actor: int = -1, cards: tuple[int, ...] = (), amount: int = 0,
            detail: str = "", rule: str = "", private_to: int = -1, public_text: str = "",
            command: int = -1) -> None:
        """Emit an event (`line`: its English text). `rule` defaults to the current window's rule."""
        ev = self._events
        tail = ev._tail
        w = self.win
        # (tuple.__new__: a NamedTuple built without its keyword-handling __new__, ~2× faster; hot)
        tail.append(_new_tuple(Event, (ev._done + len(tail), kind, self.turn, WINDOWS[w], rule or WINDOW_RULE[w],
                                       actor, private_to, line, public_text, cards, amount, detail, command)))

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
        return self.card(cid).keywords.get(name)

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
        ids = [c for c in ps.board if c] + [c for c in ps.relics if c] + [ps.champion, ps.seat]
        return sorted((c for c in ids if c), key=lambda c: self.perms[c].seq)

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

    # ------------------------------------------------------------------ flow: windows

    def goto(self, w: int | None) -> None:
        """Enter window `w` and keep going until a decision is needed or the match ends."""
        while w is not None:
            if self.outcome is not None:
                self.set_over()
                return
            w = self.enter(w)
        if self.outcome is not None:
            self.set_over()

    def set_over(self) -> None:
        assert self.outcome is not None
        if not (self.pending.kind == "none" and self.pending.rule == "RULES 1"):   # once per match
            o = self.outcome
            self.log(f"  the match is over: {o}; the seed was {self.seed}", "game_over",
                     -1 if o.winner is None else o.winner, detail=o.termination.value, rule="RULES 1")
        self.priority = -1
        self.pending = Decision("none", -1, self.window, "RULES 1", f"the match is over: {self.outcome}")

    # ------------------------------------------------------------------ the turn structure (rules.md §2)

    def turn_windows(self, active: int | None = None) -> tuple[int, ...]:
        """This turn's windows in order (indexes into TURN_TABLE): the table, changed only by the active
        player's Seat through the named hooks (`extra_combat_phases`, `skip_*`)."""
        p = self.active if active is None else active
        seat = self.players[p].seat
        if not seat:
            return DEFAULT_STRUCTURE
        d = self.defs[seat]
        hit = _SEAT_STRUCTURES.get(id(d))
        if hit is not None and hit[0] is d:
            return hit[1]
        assert d is not None
        structure = self.seat_structure(d.modifiers)
        _SEAT_STRUCTURES[id(d)] = (d, structure)   # (keeps d alive: its id can't be reused)
        return structure

    @staticmethod
    def seat_structure(mods: Mapping[str, int]) -> tuple[int, ...]:
        """The turn structure a Seat's modifiers make (see turn_windows)."""
        if not any(k in mods for k in TURN_HOOKS):
            return DEFAULT_STRUCTURE
        skip = {w for k, w in SKIP_HOOKS.items() if mods.get(k, 0)}
        out: list[int] = []
        for phase, windows in PHASES:
            for _ in range(1 + (mods.get("extra_combat_phases", 0) if phase == "combat" else 0)):
                out += [w for w in windows if w not in skip]
        return tuple(out)

    def turn_structure(self) -> tuple[str, ...]:
        """The window ids of this turn, in order, as the turn manager will walk them (read-only: for the
        phase bar). A window id may appear twice (a Seat's extra combat phase); `step` is the position
        of the current window in this tuple."""
        return tuple(WINDOWS[w] for w in self.turn_windows())

    def enter(self, w: int) -> int | None:
        """Enter window `w` (the turn manager: the table row's steps, then what its kind says). Returns
        the next window to enter at once, or None when a decision is pending or the match is over."""
        if self.stack:   # an engine invariant: a window only ever changes on an empty stack
            raise RulesLoopError(f"internal error: entering {WINDOWS[w]} with {len(self.stack)} item(s) on the stack")
        structure = self.turn_windows()
        if not (self.step < len(structure) and structure[self.step] == w):
            # entered by id (a scenario's start, the first window): its first place at or after here
            later = [i for i in range(self.step, len(structure)) if structure[i] == w]
            self.step = later[0] if later else (structure.index(w) if w in structure else self.step)
        self.win = w
        self.priority = -1
        self.passed = 0
        self._quiet = 0   # an endless loop lives in one window (a window changes only on an empty stack)
        if self._loop_seen:
            self._loop_seen = {}
        self.log(f"T{self.turn} {WINDOWS[w]}", "window", self.active)
        spec = TURN_TABLE[w]
        for name in spec.steps:
            r = TURN_STEPS[name](self)
            if r == STEP_WAIT or self.outcome is not None:
                return None
            if r == STEP_END_PHASE:
                return self.end_phase()
        if spec.kind == "turn_based":
            return self.next_window(w)
        if spec.kind == "declaration":
            return None
        return self.open_priority()

    def phase_trigger(self) -> int:
        """The phase trigger registered for this window's id (start_of_draw …): the active player's cards."""
        when = PHASE_TRIGGERS.get(WINDOWS[self.win], "")
        if when:
            self.fire_start(when, self.active)
        return STEP_GO_ON

    def step_ready(self) -> int:
        """draw.start: the turn limit, then the ready step (units, and relics used with "exhaust")."""
        if self.options.max_turns and self.turn > self.options.max_turns:
            self.outcome = Outcome(Termination.TURN_LIMIT, None)
            return STEP_WAIT
        for cid in self.permanents(self.active):
            self.perms[cid].exhausted = False
        return STEP_GO_ON

    def step_draw(self) -> int:
        ap = self.active
        if not (self.turn == 1 and ap == self.first_player) or self.options.first_player_draws:
            ps = self.players[ap]
            if ps.draw_count != SEAT_MODIFIERS["draw_count"] and ps.seat:   # the Seat's hook, said out loud
                self.log(f"  {self.card(ps.seat).name}: {ps.name} draws {ps.draw_count} (draw_count)", actor=ap,
                         cards=(ps.seat,), amount=ps.draw_count, rule="SEAT")
            self.draw(ap, ps.draw_count)
        else:
            self.log("  the first player skips the draw of their first turn", actor=ap, rule="C1K 1.2")
        return STEP_GO_ON

    def step_sba(self) -> int:
        self.sba()
        return STEP_GO_ON

    def step_influence_gain(self) -> int:
        ap = self.active
        ps = self.players[ap]
        if ps.capacity < ps.max_influence:
            ps.capacity = min(ps.max_influence, ps.capacity + ps.influence_gain)
        ps.influence = ps.capacity
        self.log(f"  {ps.name}: Influence {ps.influence}/{ps.capacity}", "influence", ap, amount=ps.influence)
        return STEP_GO_ON

    def step_declare_attackers(self) -> int:
        ap = self.active
        w = self.win
        self.attackers = ()
        self.blocks = ()
        self.pending = Decision("attackers", ap, WINDOWS[w], WINDOW_RULE[w],
                                f"{self.players[ap].name}: declare attackers (or attack none)",
                                eligible=tuple(u for u in self.players[ap].units()
                                               if self.attack_block_reason(u) is None))
        return STEP_WAIT

    def step_declare_blockers(self) -> int:
        ap = self.active
        w = self.win
        self.drop_illegal_attackers()
        if not self.attackers:
            self.log("  no attacker remains: combat ends", actor=ap)
            return STEP_END_PHASE
        dp = 1 - ap
        self.pending = Decision("blockers", dp, WINDOWS[w], WINDOW_RULE[w],
                                f"{self.players[dp].name}: declare blockers (or block none)",
                                eligible=tuple(u for u in self.players[dp].units()
                                               if any(self.can_block(u, a) is None for a in self.attackers)))
        return STEP_WAIT

    def step_combat_damage(self) -> int:
        self.drop_illegal_attackers()
        self.combat_damage()
        return STEP_GO_ON

    def step_combat_triggers(self) -> int:
        for a in self.attackers:
            if self.is_unit_in_play(a):
                self.fire("end_of_attack", a)
        for u in self.combatants():
            self.fire("end_of_combat", u)
        return STEP_GO_ON

    def step_voidcast_returns(self) -> int:
        """Voidcast (Null): cards in the Void return to the stack, whoever is active, as game items."""
        ap = self.active
        for p in (ap, 1 - ap):
            for cid in self.players[p].void:
                vi = self.void_items.get(cid)
                self.triggers.append(Trigger(p, cid, -1, self.card(cid).name, 0, 2, "voidcast", "", 0,
                                             vi.targets if vi else (), True, vi.mode if vi else 0, False,
                                             vi.tseq if vi else ()))
        return STEP_GO_ON

    def step_cleanup(self) -> int:
        ap = self.active
        ps = self.players[ap]
        excess = len(ps.hand) - ps.hand_size
        if excess > 0:
            self.choice = Choice("discard", ap, tuple(ps.hand), excess, (2,))
            self.pending = Decision(
                "choice", ap, WINDOWS[self.win], "C1K 5.2",
                f"{ps.name}: discard {excess} card(s) down to hand size {ps.hand_size}",
                tuple(self.card(c).name for c in ps.hand), excess, excess, eligible=tuple(ps.hand))
            return STEP_WAIT
        self.finish_cleanup_effects()
        return STEP_GO_ON

    def drop_illegal_attackers(self) -> None:
        """C1K 4.1 step 4: an effect may make a declared attack illegal (a Suppressed or Rooted unit can't
        attack): such a unit leaves combat."""
        for a in self.attackers:
            perm = self.perms.get(a)
            if perm is not None and (perm.has_status("suppressed") or perm.has_status("rooted")):
                self.log(f"  {self.label(a)} can't attack now ({'Suppressed' if perm.has_status('suppressed') else 'Rooted'}): "
                         "it leaves combat (C1K 4.1)", actor=self.owner[a], cards=(a,), rule="C1K 4.1")
                self.attackers = tuple(x for x in self.attackers if x != a)
                self.blocks = tuple((b, 0 if x == a else x) for b, x in self.blocks if b or x != a)

    def combatants(self) -> list[int]:
        ids = list(self.attackers) + [b for b, _ in self.blocks]
        return [u for u in ids if self.is_unit_in_play(u)]

    def end_turn_effects(self) -> None:
        for perm in self.perms.values():
            if perm.temp_granted.get("ward"):   # unspent Ward points granted until end of turn
                perm.ward = max(0, perm.ward - perm.temp_granted["ward"])
            perm.temp_power = perm.temp_health = 0
            perm.temp_statuses = []
            perm.temp_granted = {}
        for ps in self.players:
            ps.permits = [pm for pm in ps.permits if self.permit_active(pm[2], next_turn=True)]

    def finish_cleanup_effects(self) -> None:
        self.end_turn_effects()
        self.log("  'until end of turn' effects end", rule="C1K 5.2")
        self.sba()

    def finish_cleanup(self) -> int | None:
        """After the cleanup discard was chosen: the rest of end.cleanup, then the next window."""
        self.finish_cleanup_effects()
        if self.outcome is not None:
            return None
        return self.next_window(END_CLEANUP)

    def next_window(self, w: int) -> int:
        """The window after `w` in this turn's structure (and the step moves there); after the last one,
        the next turn begins."""
        structure = self.turn_windows()
        if w == DECLARE_ATTACKERS and not self.attackers:
            return self.end_phase()
        if phase_of(w) == "combat" and (self.step + 1 >= len(structure) or structure[self.step + 1] in PHASE_STARTS):
            self.attackers = ()   # the combat phase is over
            self.blocks = ()
        if self.step + 1 < len(structure):
            self.step += 1
            return structure[self.step]
        # a "this turn" effect made after cleanup (in end.final) ends with the turn as well
        self.end_turn_effects()
        self.turn += 1
        self.active = 1 - self.active
        self.attackers = ()
        self.blocks = ()
        self.step = 0
        return self.turn_windows()[0]

    def end_phase(self) -> int:
        """This phase ends now (e.g. no attackers: combat ends): the first window of the next phase."""
        structure = self.turn_windows()
        self.attackers = ()
        self.blocks = ()
        nxt = next((i for i in range(self.step + 1, len(structure)) if structure[i] in PHASE_STARTS), None)
        if nxt is None:
            self.step = len(structure) - 1
            return self.next_window(structure[-1])
        self.step = nxt
        return structure[nxt]

    def run_threads(self, then: tuple[int, ...]) -> bool:
        """Thread (Paradox, rules.md §6): a chosen branch resolves at the earliest legal window after its
        evaluation — the next moment a player would receive priority. False if a decision is pending."""
        while self.threads and self.outcome is None:
            t = self.threads[0]
            if t.ctx == 0:   # C1K 7: "when a Thread branch would resolve" Interrupts, AP first (asked once)
                asked = tuple(q for q in (self.active, 1 - self.active) if self.may_interrupt(q, "thread_resolves"))
                if asked:
                    self.threads[0] = replace(t, ctx=1)
                    self.ask_interrupts(InterruptWindow("thread_resolves", asked, 0, (), then))
                    return False
            self.threads.pop(0)
            e = self.thread_effect(t.source)
            if e is not None and e.branches and 1 <= t.mode <= len(e.branches):
                self.log(f"  Thread: {t.name}, branch {t.mode} of {len(e.branches)} resolves", "thread", t.controller,
                         (t.source,), t.mode, f"resolves: {describe_effects(e.branches[t.mode - 1])}", "KW Thread")
                if not self.run_effects(e.branches[t.mode - 1], t.controller, t.source, list(t.targets), None,
                                        mode=t.mode, top=True, then=then):
                    return False
        return True

    def open_priority(self) -> int | None:
        """Before anyone receives priority: Thread branches, SBA, then triggers to the stack; then AP gets
        priority (or a trigger window with an empty stack ends at once). Returns the next window, if any."""
        if not self.run_threads((0,)):
            return None
        self.sba()
        if self.outcome is not None:
            return None
        if not self.place_triggers((0,)):
            return None
        if self.win in TRIGGER_WINDOWS and not self.stack:
            return self.next_window(self.win)
        self.give_priority(self.active, 0)
        return None

    def give_priority(self, p: int, passed: int) -> None:
        self.priority = p
        self.passed = passed
        w = self.win
        name = self.players[p].name
        key = (name, w)
        d = _PRIORITY_DECISIONS.get(key)
        if d is None:
            d = _PRIORITY_DECISIONS[key] = Decision("priority", p, WINDOWS[w], WINDOW_RULE[w],
                                                    f"{name} has priority — {WINDOW_TEXT[w]}")
        if d.player != p:
            d = replace(d, player=p)
        self.pending = d
        line = _PRIORITY_LINES.get(name)
        if line is None:
            line = _PRIORITY_LINES[name] = f"  {name} has priority"
        self.log(line, "priority", p, rule="C1K 6")

    def resume(self, how: tuple[int, ...]) -> None:
        """Continue after a choice or an interrupt decision."""
        if how[0] == 0:
            self.goto(self.open_priority())
        elif how[0] == 1:
            self.after_action(how[1])
        elif how[0] == 2:
            self.goto(self.finish_cleanup())
        elif how[0] == 3:
            self.after_declaration()
        elif how[0] == 4:
            self.resume_resolution()

    def after_action(self, actor: int) -> None:
        """C1K §6 step 3: after a player's action, SBA and triggers, then priority to the opponent."""
        if not self.run_threads((1, actor)):
            return
        self.sba()
        if self.outcome is not None:
            self.set_over()
            return
        if not self.place_triggers((1, actor)):
            return
        if self.options.actor_keeps_priority:   # OPP 8.1 (match option): the actor may act again
            self.give_priority(actor, 0)
            return
        top_is_own = bool(self.stack) and self.stack[-1].adder == actor
        self.give_priority(1 - actor, _bit(actor) if top_is_own else 0)

    def after_declaration(self) -> None:
        """C1K 4.1/4.2: after a declaration and its triggers, AP receives priority as in any window."""
        self.goto(self.open_priority())

    # ------------------------------------------------------------------ triggers

    def fire(self, when: str, cid: int, ctx: int = 0, targets: tuple[int, ...] = (), chosen: bool = False,
             mode: int = 0, tseq: tuple[int, ...] = (), seq: int | None = None) -> None:
        """Queue the `when` abilities of card `cid` (a Suppressed card's abilities don't function).
        `seq`: when the card entered play, for a card that has just left it (last known information)."""
        d = self.card(cid)
        if not d.abilities:
            return
        perm = self.perms.get(cid)
        if perm is not None and perm.has_status("suppressed"):
            return
        if seq is None:
            seq = perm.seq if perm is not None else 0
        for i, ab in enumerate(d.abilities):
            if ab.when == when:
                self.triggers.append(Trigger(self.controller(cid), cid, i, d.name, seq, trigger_rank(d, ab),
                                             "trigger", "", ctx, targets, chosen, mode, False, tseq))

    def fire_watchers(self, when: str, p: int, ctx: int) -> None:
        for cid in self.permanents(p):
            if cid != ctx:
                self.fire(when, cid, ctx)

    def fire_start(self, when: str, p: int) -> None:
        """Start-of-phase triggers concern only the active player's cards (rules.md §2)."""
        mine = self.permanents(p)   # (firing changes no permanent: one list for every pass below)
        for cid in mine:
            self.fire(when, cid)
        for spec in START_TRIGGERS.get(when, ()):
            for cid in mine:
                if self.zone[cid] not in (BOARD, RELICS) or not spec.applies(self, cid):
                    continue
                perm = self.perms[cid]
                if spec.keyword and perm.has_status("suppressed"):
                    continue   # Suppress (Null): its triggered abilities don't function
                name = self.card(cid).name if spec.keyword else spec.name
                # a rule's own trigger (Decay Check) concerns the unit (ctx) and still resolves if it moved
                self.triggers.append(Trigger(p, cid, -1, name, perm.seq, spec.rank, "keyword", spec.name,
                                             0 if spec.keyword else cid))

    def game_trigger(self, p: int, name: str) -> None:
        self.triggers.append(Trigger(p, 0, -1, name, 0, 0, "game", name))

    def trigger_order(self, ts: list[Trigger]) -> list[Trigger]:
        """Push order (C1K §8): NAP's first, AP's on top; within a player, lower rank and earlier entry
        resolve first, so they are pushed last."""
        ap = self.active
        return sorted(ts, key=lambda t: (t.controller == ap, -t.rank, -t.seq))

    def place_triggers(self, resume: tuple[int, ...]) -> bool:
        """Put waiting triggers on the stack. False if a target choice is now pending."""
        if self.triggers:
            self.trigger_queue = self.trigger_order(self.triggers) + self.trigger_queue
            self.triggers = []
        if not self.ask_flux_order(resume):
            return False
        while self.trigger_queue:
            t = self.trigger_queue.pop(0)
            if t.kind == "trigger" and t.ability >= 0:
                ab = self.card(t.source).abilities[t.ability]
                branches = next((len(e.branches or []) for e in ab.effect if e.do == "thread"), 0)
                if branches and not t.mode:   # Thread in a triggered ability: the branch is chosen now
                    self.trigger_queue.insert(0, t)
                    self.choice = Choice("thread", t.controller, tuple(range(1, branches + 1)), 1, resume, t)
                    self.priority = -1
                    self.pending = Decision("choice", t.controller, self.window, "KW Thread",
                                            f"{self.players[t.controller].name}: choose a branch for {t.name}",
                                            tuple(f"branch {n}" for n in range(1, branches + 1)), 1, 1)
                    return False
                need = self.choice_slots(ab.effect, t.mode)[len(t.targets):]
                if need and t.chosen:
                    if not t.targets:
                        # a played unit's on-play targets came with the command: none were legal then
                        self.log(f"  {t.name}: no legal target was named when it was played — the trigger is removed",
                                 "trigger", t.controller, (t.source,), detail="removed", rule="C1K 6")
                        continue
                elif need:   # choose the targets now, one at a time (C1K 6)
                    cands = self.target_candidates(need[0], t.controller, t.source)
                    if not cands:
                        if not t.targets:
                            self.log(f"  {t.name}: no legal target — the trigger is removed", "trigger",
                                     t.controller, (t.source,), detail="removed", rule="C1K 6")
                            continue
                        self.push(t)
                        continue
                    if len(cands) > 1:
                        self.choice = Choice("trigger_target", t.controller, tuple(cands), 1, resume, t)
                        self.priority = -1
                        self.pending = Decision(
                            "choice", t.controller, self.window, "C1K 6",
                            f"{self.players[t.controller].name}: choose a target for {t.name}",
                            tuple(self.label(c) for c in cands), 1, 1, eligible=tuple(cands))
                        return False
                    self.trigger_queue.insert(0, replace(t, targets=t.targets + (cands[0],)))
                    continue
            self.push(t)
        return True

    def is_flux_trigger(self, t: Trigger) -> bool:
        if t.kind != "trigger" or t.ability < 0 or t.ordered:
            return False
        d = self.card(t.source)
        return d.realm == "paradox" and any(e.do == "flux" for e in d.abilities[t.ability].effect)

    def ask_flux_order(self, resume: tuple[int, ...]) -> bool:
        """C1K 8.2: a Paradox player may reorder their own simultaneous Flux effects. False if asked."""
        if len(self.trigger_queue) < 2:
            return True
        for p in (self.active, 1 - self.active):
            # options in the default resolution order (the queue is in push order: last pushed resolves first)
            pos = tuple(reversed([i for i, t in enumerate(self.trigger_queue)
                                  if t.controller == p and self.is_flux_trigger(t)]))
            if len(pos) < 2:
                continue
            labels = tuple(f"{self.trigger_queue[i].name} (#{self.trigger_queue[i].source})" for i in pos)
            self.choice = Choice("order", p, pos, len(pos), resume)
            self.priority = -1
            self.pending = Decision("choice", p, self.window, "C1K 8",
                                    f"{self.players[p].name}: order your Flux effects — choose them in the order "
                                    "they should resolve (first resolves first)", labels, len(pos), len(pos),
                                    eligible=tuple(self.trigger_queue[i].source for i in pos))
            return False
        return True

    def push(self, t: Trigger) -> None:
        if len(self.stack) >= STACK_CAP:
            raise RulesLoopError(f"the stack passed {STACK_CAP} items: the cards trigger each other forever")
        if t.kind == "voidcast":
            if t.source not in self.players[t.controller].void:
                return
            self.players[t.controller].void.remove(t.source)
            self.zone[t.source] = STACK
        item = StackItem(self.next_seq(), t.kind, t.source, t.controller, -1, t.name, t.ability, t.targets,
                         t.mode, t.keyword, t.ctx, -1, t.tseq if t.tseq else self.target_seqs(t.targets))
        self.stack.append(item)
        self.log(f"  trigger: {t.name} → stack ({player_name(t.controller)})", "trigger", t.controller,
                 (t.source,) + t.targets if t.source else t.targets, rule=self.trigger_rule(t))

    def trigger_rule(self, t: Trigger) -> str:
        """The rule a trigger is shown with: its keyword's (Growth, Pulse, Regeneration, Bloom), else C1K 8."""
        if t.keyword:
            return f"KW {t.keyword.capitalize()}"
        if t.kind == "trigger" and t.ability >= 0 and self.card(t.source).abilities[t.ability].when == "on_bloom":
            return "KW Bloom"
        return "C1K 8"

    # ------------------------------------------------------------------ state-based actions

    def sba(self, fights: dict[int, int] | None = None, losers: list[int] | None = None) -> None:
        """State-based actions. In combat damage, `fights` maps each combatant of a blocked pair to the
        unit it fought: one destroyed here lost that combat (its `on_combat_loss` fires with its
        `on_death`, rules.md §5) and is added to `losers`."""
        if self.outcome is None and self.sba_quiet():
            return
        for _ in range(SBA_LOOP_CAP):
            if self.outcome is not None:
                return
            evolved = self.evolve_check()
            dead = [c for p in (self.active, 1 - self.active) for c in self.players[p].board
                    if c and self.lethal(c)]
            lost = [p for p in (0, 1) if self.players[p].life <= 0]
            if lost:
                self.outcome = (Outcome(Termination.BOTH_DEFEATED, None) if len(lost) == 2
                                else Outcome(Termination.CHAMPION_DEFEATED, 1 - lost[0]))
                self.log(f"  {', '.join(self.players[p].name for p in lost)} at 0 life: {self.outcome}", "sba",
                         lost[0] if len(lost) == 1 else -1, detail=self.outcome.termination.value, rule="RULES 1")
                return
            if not dead:
                if evolved:
                    continue
                return
            # destroyed simultaneously: "on kill" only for a killer that stays in play (AS Combat steps 6)
            killers = {c: self.perms[c].killer for c in dead}
            seqs = {c: self.perms[c].seq for c in dead}
            destroyed = [c for c in dead if self.destroy(c, cause="state-based action")]
            for c in destroyed:
                killer = killers[c]
                if self.win == COMBAT_DAMAGE and killer and killer not in dead and self.is_unit_in_play(killer):
                    self.fire("on_kill", killer, c)   # AS Combat steps 6: a combat death only
                if fights is not None and losers is not None and c in fights:
                    self.fire("on_combat_loss", c, fights[c], seq=seqs[c])   # AS Combat steps 3-5
                    losers.append(c)
        raise RulesLoopError(f"state-based actions ran {SBA_LOOP_CAP} times without settling")

    def sba_quiet(self) -> bool:
        """True when state-based actions have nothing to do: both players above 0 life, no unit with
        lethal damage and none that may Evolve (the common case, checked in one pass: sba runs after
        every action and in every window)."""
        players = self.players
        if players[0].life <= 0 or players[1].life <= 0:
            return False
        perms = self.perms
        defs = self.defs
        for ps in players:
            for c in ps.board:
                if not c:
                    continue
                d = defs[c]
                assert d is not None
                if d.evolve is not None:
                    return False
                perm = perms[c]
                if perm.damage == 0 and perm.health_mod >= 0 and perm.temp_health >= 0 and not perm.counters:
                    if d.health <= 0:
                        return False
                elif self.lethal(c):
                    return False
        return True

    def lethal(self, c: int) -> bool:
        """Damage ≥ health (health may also have dropped to 0 or less by −/− effects)."""
        perm = self.perms[c]
        if perm.damage == 0 and perm.health_mod >= 0 and perm.temp_health >= 0 and not perm.counters:
            return self.card(c).health <= 0
        return perm.damage >= self.max_health(c)

    def evolve_check(self) -> bool:
        """Evolve (Genesis): checked whenever state-based actions are, even mid-phase, before stat buffs
        (which are triggers, and wait for the stack). The unit keeps its counters and damage."""
        changed = False
        defs = self.defs
        for p in (self.active, 1 - self.active):
            for c in self.players[p].board:
                d = defs[c] if c else None
                spec = d.evolve if d is not None else None
                if spec is None or (spec.growth and self.perms[c].counters.get("growth", 0) < spec.growth) \
                        or (spec.power and self.power(c) < spec.power):
                    continue
                into = self.db.get(spec.into)
                if into is None or into.type != "unit":
                    continue
                old = self.label(c)
                self.defs[c] = into
                self.log(f"  Evolve: {old} transforms into {into.name}", "sba", p, (c,), detail=into.id,
                         rule="KW Evolve")
                changed = True
        return changed

    # ------------------------------------------------------------------ primitive game changes

    def draw(self, p: int, n: int) -> None:
        ps = self.players[p]
        for _ in range(n):
            if not ps.library:
                self.log(f"  {ps.name} must draw from an empty library: Deck Exhaustion", "draw", p,
                         rule="C1K 1.2")
                self.game_trigger(p, "Deck Exhaustion")
                continue
            c = ps.library.pop(0)
            ps.hand.append(c)
            self.zone[c] = HAND
            self.log(f"  {ps.name} draws {self.label(c)}", "draw", p, (c,), 1, rule="C1K 1.2", private_to=p,
                     public_text=f"  {ps.name} draws a card")

    def leave_play(self, cid: int) -> None:
        p = self.owner[cid]
        ps = self.players[p]
        if cid in ps.board:
            ps.board[ps.board.index(cid)] = 0
        if cid in ps.relics:
            ps.relics[ps.relics.index(cid)] = 0
        self.perms.pop(cid, None)
        # it is no longer in combat; an attacker it was blocking stays blocked (by nothing: 0), and a
        # blocker whose attacker left stays a combatant (its end-of-combat triggers, rules.md §5)
        self.attackers = tuple(a for a in self.attackers if a != cid)
        self.blocks = tuple((0 if b == cid else b, 0 if a == cid else a) for b, a in self.blocks
                            if not (b == cid and a == 0) and not (a == cid and b == 0))

    def to_graveyard(self, cid: int) -> None:
        if self.card(cid).token:
            self.zone[cid] = GONE
            return
        self.players[self.owner[cid]].graveyard.append(cid)
        self.zone[cid] = GRAVEYARD

    def destroy(self, cid: int, cause: str) -> bool:
        ev = pipeline.Event("destroy", 0, cid)
        if not pipeline.run(self, ev):
            return False
        # last known information: its abilities still trigger as it dies (AS Combat steps 6)
        self.fire("on_death", cid, cid)
        self.leave_play(cid)
        self.to_graveyard(cid)
        self.log(f"  {self.label(cid)} is destroyed ({cause})", "destroy", self.owner[cid], (cid,), detail=cause)
        pipeline.after(self, ev)
        return True

    def damage(self, source: int, target: int, amount: int, combat: bool = False) -> int:
        if amount <= 0:
            return 0
        ev = pipeline.Event("damage", source, target, amount, combat)
        if not pipeline.run(self, ev):
            return 0
        amount = max(0, ev.amount)
        if amount == 0:
            if ev.converted:
                pipeline.after(self, ev)   # e.g. Decay counters still come with Wither-converted damage
            return 0
        if self.is_champion(target):
            ps = self.players[self.champion_owner(target)]
            ps.life -= amount
            self.log(f"  {self.label(source) if source else 'the rules'} deals {amount} to {ps.name} (life {ps.life})",
                     "damage", self.owner[source] if source else -1, (source, target), amount,
                     "combat" if combat else "")
        elif target in self.perms:
            perm = self.perms[target]
            perm.damage += amount
            perm.killer = source
            self.log(f"  {self.label(source) if source else 'the rules'} deals {amount} to {self.label(target)}",
                     "damage", self.owner[source] if source else -1, (source, target), amount,
                     "combat" if combat else "")
            self.fire("on_damaged", target, source)
        else:
            return 0
        ev.dealt = amount
        pipeline.after(self, ev)
        return amount

    def heal(self, source: int, target: int, amount: int) -> int:
        if amount <= 0:
            return 0
        ev = pipeline.Event("heal", source, target, amount)
        if not pipeline.run(self, ev):
            return 0
        if self.is_champion(target):
            ps = self.players[self.champion_owner(target)]
            ps.life += ev.amount
            healed = ev.amount
        elif target in self.perms:
            perm = self.perms[target]
            healed = min(perm.damage, ev.amount)
            perm.damage -= healed
        else:
            return 0
        if healed > 0:
            self.log(f"  {self.label(target)} heals {healed}", "heal", self.owner[source] if source else -1,
                     (source, target), healed)
            self.fire("on_heal", target, source)
        ev.dealt = healed
        pipeline.after(self, ev)
        return healed

    def enter_play(self, cid: int, p: int, slot: int | None, summoned: bool) -> bool:
        """Put a unit or relic into an empty slot of `p`'s (the chosen one, or the first empty one)."""
        d = self.card(cid)
        ps = self.players[p]
        slots = ps.relics if d.type == "relic" else ps.board
        if slot is None or not (0 <= slot < len(slots)) or slots[slot]:
            empty = [i for i, c in enumerate(slots) if not c]
            if not empty:
                self.log(f"  {self.label(cid)} has no empty slot and goes to the graveyard", "move", p, (cid,),
                         detail="graveyard", rule="AS Unit play")
                self.to_graveyard(cid)
                return False
            slot = empty[0]
        slots[slot] = cid
        self.zone[cid] = RELICS if d.type == "relic" else BOARD
        perm = Perm(self.turn, self.next_seq())
        self.perms[cid] = perm
        for s in ("barrier", "veiled", "rooted"):
            if s in d.keywords:
                perm.statuses.append(s)
        perm.statuses.sort()
        ward = d.keywords.get("ward")
        if ward:
            perm.ward = ward
        self.log(f"  {self.label(cid)} enters play in slot {slot + 1}" + (" (summoned)" if summoned else ""), "move", p,
                 (cid,), slot + 1, "summoned" if summoned else "play", "AS Unit play")
        return True

    # ------------------------------------------------------------------ targets

    def target_candidates(self, target: str, controller: int, source: int) -> list[int]:
        opp = 1 - controller
        if target == "unit":
            ids = self.players[self.active].units() + self.players[1 - self.active].units()
        elif target == "friendly_unit":
            ids = self.players[controller].units()
        elif target == "enemy_unit":
            ids = self.players[opp].units()
        elif target == "champion":
            return [self.players[self.active].champion, self.players[1 - self.active].champion]
        else:
            return []
        return [c for c in ids if self.targetable(c, controller)]

    def target_seqs(self, targets: tuple[int, ...]) -> tuple[int, ...]:
        perms = self.perms
        return tuple(perms[t].seq if t in perms else 0 for t in targets)

    def targetable(self, cid: int, by: int) -> bool:
        """Veiled (rules.md §6): opponents can't target it."""
        perm = self.perms.get(cid)
        return perm is None or self.owner[cid] == by or not perm.has_status("veiled")

    def choice_slots(self, effects: Sequence[Effect], mode: int | None = None) -> list[str]:
        """The chosen targets these effects need, in order (a Thread's branch: the one `mode` picks)."""
        out: list[str] = []
        for e in effects:
            if e.do == "thread" and e.branches:
                m = (mode or 1) - 1
                if 0 <= m < len(e.branches):
                    out += self.choice_slots(e.branches[m])
            elif e.target in CHOICE_TARGETS:
                out.append(e.target or "")
        return out

    def card_choice_slots(self, cid: int, mode: int | None) -> list[str]:
        """The choice targets the command playing this card must name, in order."""
        d = self.card(cid)
        if d.type == "action":
            return self.choice_slots(d.effect, mode)
        out: list[str] = []
        for ab in d.abilities:
            if ab.when == "on_play":
                out += self.choice_slots(ab.effect, mode)
        return out

    def thread_effect(self, cid: int) -> Effect | None:
        d = self.card(cid)
        for e in d.effect:
            if e.do == "thread":
                return e
        for ab in d.abilities:
            for e in ab.effect:
                if e.do == "thread":
                    return e
        return None

    # ------------------------------------------------------------------ resolution

    def resolve_top(self) -> bool:
        """Resolve the top item. False if a decision (a permission, a Flux Interrupt) is now pending."""
        item = self.stack.pop()
        self.log(f"  resolve: {item.name}", "resolve", item.controller, (item.source,) + item.targets if item.source
                 else item.targets, rule="C1K 6")
        if item.kind == "card":
            d = self.card(item.source)
            if self.zone[item.source] != STACK:
                return True
            if d.type in ("unit", "relic"):
                if self.enter_play(item.source, item.controller, None if item.slot < 0 else item.slot, False):
                    self.perms[item.source].play_targets = item.targets
                    self.fire("on_play", item.source, targets=item.targets, chosen=item.ctx == 0, mode=item.mode,
                              tseq=item.tseq)
                    self.fire("on_summon", item.source)
                return True
            if item.keyword == "voidcast":
                # Voidcast (rules.md §6): it moves to the Void with no effect, and returns at the next end.start
                ps = self.players[item.controller]
                ps.void.append(item.source)
                self.zone[item.source] = VOID
                self.void_items[item.source] = item
                self.log(f"  {self.label(item.source)} (Voidcast) moves to the Void: it returns at the next end.start",
                         "move", item.controller, (item.source,), detail="void", rule="KW Voidcast")
                return True
            return self.run_effects(d.effect, item.controller, item.source, list(item.targets), item,
                                    mode=item.mode, top=True)
        if item.kind == "voidcast":
            self.void_items.pop(item.source, None)
            return self.run_effects(self.card(item.source).effect, item.controller, item.source,
                                    list(item.targets), item, mode=item.mode, top=True)
        if item.kind in ("ability", "trigger"):
            if item.source and self.card(item.source).abilities:
                ab = self.card(item.source).abilities[item.ability]
                return self.run_effects(ab.effect, item.controller, item.source, list(item.targets), item,
                                        mode=item.mode, top=True)
            return True
        if item.kind == "keyword":
            for spec in START_TRIGGERS_ALL:
                if spec.name == item.keyword:
                    if item.ctx == 0 and not self.in_play(item.source):
                        break
                    spec.resolve(self, item)
                    break
            return True
        if item.kind == "game":
            if item.keyword == "Deck Exhaustion":
                ps = self.players[item.controller]
                ps.exhaustions += 1
                ps.life -= ps.exhaustions
                self.log(f"  Deck Exhaustion: {ps.name} loses {ps.exhaustions} life (life {ps.life})", "damage",
                         item.controller, amount=ps.exhaustions, detail="Deck Exhaustion", rule="C1K 1.2")
            return True
        return True

    def finish_item(self, item: StackItem | None) -> None:
        """An Action (or a returning Voidcast card) that has resolved goes to the graveyard (AS Action play)."""
        if item is not None and item.kind in ("card", "voidcast") and self.zone[item.source] == STACK:
            self.to_graveyard(item.source)

    def resolve_targets(self, e: Effect, controller: int, source: int, chosen: list[int],
                        item: StackItem | None, event: tuple[int, ...] = ()) -> list[int]:
        t = e.target
        opp = 1 - controller
        if t is None:
            return []
        if t in CHOICE_TARGETS:
            if not chosen:
                return []
            c = chosen.pop(0)
            legal = c in self.target_candidates(t, controller, source)
            if legal and item is not None and c in item.targets and item.tseq:
                then = item.tseq[item.targets.index(c)]
                legal = not then or (c in self.perms and self.perms[c].seq == then)
            if not legal:
                self.log(f"  target {self.label(c) if 0 < c < len(self.defs) else c} is no longer legal",
                         actor=controller, cards=(source, c), rule="C1K 6")
                return []
            return [c]
        if t == "self":
            if source and self.card(source).type in ("unit", "relic"):
                return [source] if self.in_play(source) else []   # "this unit" is gone: nothing happens
            return [self.players[controller].champion]
        if t == "enemy_champion":
            return [self.players[opp].champion]
        if t == "friendly_champion":
            return [self.players[controller].champion]
        if t == "all_enemy_units":
            return self.players[opp].units()
        if t == "all_friendly_units":
            return self.players[controller].units()
        if t == "all_units":
            return self.players[self.active].units() + self.players[1 - self.active].units()
        if t == "event":
            return list(event)
        if t.startswith("random_"):
            # a random target (rules.md §7): drawn from the match's generator among the legal ones now
            # (an opponent's Veiled unit can't be targeted, so it is never drawn)
            pool = self.target_candidates(t.removeprefix("random_"), controller, source)
            if not pool:
                return []
            c = pool[self.rng.below(len(pool))]
            self.log(f"  random target: {self.label(c)} (of {len(pool)})")
            return [c]
        return []

    def run_effects(self, effects: Iterable[Effect], controller: int, source: int, chosen: list[int],
                    item: StackItem | None, event: tuple[int, ...] = (), mode: int = 0, top: bool = False,
                    then: tuple[int, ...] = (0,)) -> bool:
        """Carry out effects in order. `top`: this is a stack item's resolution (it may pause for a Flux
        Interrupt, and the item is finished at the end). False if a decision is pending afterwards."""
        permit: Effect | None = None
        todo = list(effects)
        i = 0
        while i < len(todo):
            e = todo[i]
            i += 1
            targets = self.resolve_targets(e, controller, source, chosen, item, event)
            if e.target is not None and not targets:
                continue
            v = e.do
            if v == "damage":
                for t in targets:
                    if self.in_play(t) or self.is_champion(t):
                        self.damage(source, t, e.amount)
            elif v == "heal":
                for t in targets:
                    self.heal(source, t, e.amount)
            elif v in ("draw", "discard", "gain_influence"):
                players = {"you": [controller], "opponent": [1 - controller], "each": [controller, 1 - controller]}
                for p in players[e.player]:
                    if v == "draw":
                        self.draw(p, e.amount)
                    elif v == "discard":
                        self.discard_random(p, e.amount)
                    else:
                        self.players[p].influence += e.amount
                        self.log(f"  {self.players[p].name} gains {e.amount} Influence", "influence", p, (source,),
                                 self.players[p].influence)
            elif v == "buff":
                for t in targets:
                    if t in self.perms and not self.is_champion(t):
                        perm = self.perms[t]
                        if (e.until or "permanent") == "end_of_turn":
                            perm.temp_power += e.power
                            perm.temp_health += e.health
                        else:
                            perm.power_mod += e.power
                            perm.health_mod += e.health
                        self.log(f"  {self.label(t)} gets {e.power:+d}/{e.health:+d}", actor=controller,
                                 cards=(source, t))
            elif v == "grant":
                temporary = (e.until or "end_of_turn") == "end_of_turn"
                for t in targets:
                    if t not in self.perms:
                        continue
                    if e.status:
                        self.add_status(t, e.status, temporary)
                    if e.keyword:
                        from engine.cards import check_keyword

                        name, n = check_keyword(e.keyword)
                        perm = self.perms[t]
                        if name == "ward":
                            # Ward N adds N points to the pool; granted 'until end of turn', the points
                            # still unspent at cleanup go (temporary points are spent first)
                            perm.ward += n
                            if temporary:
                                n += perm.temp_granted.get("ward", 0)
                        (perm.temp_granted if temporary else perm.granted)[name] = n
                    self.log(f"  {self.label(t)} gains {e.status or e.keyword}", actor=controller, cards=(source, t))
            elif v == "suppress":
                for t in targets:
                    if t in self.perms:
                        self.add_status(t, "suppressed", False)
                        self.log(f"  {self.label(t)} is Suppressed: its abilities don't function and it can't attack",
                                 actor=controller, cards=(source, t), rule="KW Suppress")
            elif v == "destroy":
                for t in targets:
                    if self.is_unit_in_play(t) or self.zone[t] == RELICS:
                        self.destroy(t, cause=f"by {self.card(source).name}")
            elif v == "return_to_hand":
                for t in targets:
                    if self.is_unit_in_play(t) or self.zone[t] == RELICS:
                        self.leave_play(t)
                        if self.card(t).token:
                            self.zone[t] = GONE
                        else:
                            self.players[self.owner[t]].hand.append(t)
                            self.zone[t] = HAND
                        self.log(f"  {self.label(t)} returns to its owner's hand", "move", controller, (source, t),
                                 detail="hand")
            elif v == "summon":
                d = self.db.lookup(e.card or "")
                for _ in range(e.amount):
                    cid = self.new_card(d, controller, GONE)
                    if self.enter_play(cid, controller, None, True):
                        self.fire("on_summon", cid)
            elif v == "counter":
                for uid in targets:
                    self.counter_item(uid)
            elif v == "flux" and e.outcomes:
                # Paradox (C1K §9): one outcome from the StateSeed PRNG, resolved as one atomic event
                k = self.rng.below(len(e.outcomes))
                what = describe_effects(e.outcomes[k])
                self.log(f"  Flux: outcome {k + 1} of {len(e.outcomes)} — {what}", "flux", controller, (source,), k + 1,
                         what, "KW Flux")
                asked = tuple(q for q in (self.active, 1 - self.active) if self.may_interrupt(q, "flux_outcome"))
                if top and asked:
                    self.resolving = Resolving(item, controller, source, tuple(todo[i:]), tuple(chosen), event,
                                               mode, e, k, then)
                    self.ask_interrupts(InterruptWindow("flux_outcome", asked, 0, (), (4,)))
                    return False
                self.run_effects(e.outcomes[k], controller, source, [], None, event, mode)
            elif v == "reroll":
                r = self.resolving
                if r is not None and r.flux.outcomes:
                    k = self.rng.below(len(r.flux.outcomes))
                    self.resolving = replace(r, k=k)
                    what = describe_effects(r.flux.outcomes[k])
                    self.log(f"  the Flux outcome is drawn again: outcome {k + 1} of {len(r.flux.outcomes)} — {what}",
                             "flux", controller, (r.source,), k + 1, what, "KW Flux")
            elif v == "thread" and e.branches:
                # Paradox: the branch was chosen when played; it resolves at the earliest legal window
                m = max(mode, 1)
                if m <= len(e.branches):
                    n = len(self.choice_slots(e.branches[m - 1]))
                    branch_targets = tuple(chosen[:n])
                    del chosen[:n]
                    self.threads.append(Trigger(controller, source, -1, self.card(source).name, 0, RANK_OTHER,
                                                "thread", "", 0, branch_targets, True, m))
                    self.log(f"  Thread: branch {m} waits for the next moment a player would receive priority",
                             "thread", controller, (source,), m, f"waits: {describe_effects(e.branches[m - 1])}",
                             "KW Thread")
            elif v == "permit":
                if e.duration == "while_in_play":
                    # OPP "as long as": the permission lasts while its source stays in play (the same
                    # object: a card that leaves and comes back is a new one) — stored as -(its entry seq)
                    if source in self.perms and self.zone[source] in (BOARD, RELICS):
                        self.players[controller].permits.append((e.zone or "hand", e.card_type,
                                                                 -self.perms[source].seq))
                        self.log(f"  {self.players[controller].name} may play {e.card_type} cards from their "
                                 f"{e.zone} as long as {self.label(source)} stays in play (OPP Permissions)")
                elif e.duration == "end_of_turn":
                    self.players[controller].permits.append((e.zone or "hand", e.card_type, self.turn))
                    self.log(f"  {self.players[controller].name} may play {e.card_type} cards from their "
                             f"{e.zone} this turn (OPP Permissions)", actor=controller, cards=(source,),
                             rule="OPP Permissions")
                else:
                    permit = e
        if top:
            self.finish_item(item)
        if permit is not None:
            return self.offer_permit(permit, controller, source)
        return True

    def resume_resolution(self) -> None:
        """After the Flux Interrupts: the (possibly redrawn) outcome happens, then the rest of the effects."""
        r = self.resolving
        assert r is not None and r.flux.outcomes is not None
        self.resolving = None
        self.log(f"  Flux outcome {r.k + 1} happens", "flux", r.controller, (r.source,), r.k + 1,
                 describe_effects(r.flux.outcomes[r.k]), "KW Flux")
        self.run_effects(r.flux.outcomes[r.k], r.controller, r.source, [], None, r.event, r.mode)
        if self.run_effects(r.effects, r.controller, r.source, list(r.chosen), r.item, r.event, r.mode, top=True,
                            then=r.then):
            self.resume(r.then)
        elif self.outcome is not None:
            self.set_over()

    def discard_random(self, p: int, n: int) -> None:
        ps = self.players[p]
        for _ in range(n):
            if not ps.hand:
                return
            c = ps.hand.pop(self.rng.below(len(ps.hand)))
            self.to_graveyard(c)
            self.log(f"  {ps.name} discards {self.label(c)} at random", "discard", p, (c,), detail="random")

    def counter_item(self, uid: int) -> None:
        for i, it in enumerate(self.stack):
            if it.uid == uid:
                del self.stack[i]
                if it.kind == "card" and self.zone[it.source] == STACK:
                    self.to_graveyard(it.source)
                self.log(f"  {it.name} is countered", "counter", it.controller, (it.source,), rule="C1K 7")
                return

    def offer_permit(self, e: Effect, controller: int, source: int) -> bool:
        """OPP 'instruction' permission: during this resolution the player may play one card now,
        ignoring speed (and paying nothing if `free`)."""
        ps = self.players[controller]
        zone = ps.hand if e.zone == "hand" else ps.graveyard
        allowed = tuple(c for c in zone if e.card_type == "any" or self.card(c).type == e.card_type)
        offer = Choice("permit", controller, allowed, 1, (0,), None, source, e.free)
        # formats.md §1: answered with the ordinary play command (targets, mode, slot) — so every card
        # with at least one legal way to play it is offered, targeted and Thread cards included
        cands = tuple(c for c in allowed if self.permit_options(c, controller, offer))
        # rules.md §7a: whether a hand holds a card that can be played is private, so a permission to
        # play from the hand is asked whenever the hand is not empty (the graveyard is public)
        if not cands and not (e.zone == "hand" and zone):
            self.log("  permission: nothing can be played", actor=controller, cards=(source,), rule="OPP Permissions",
                     private_to=controller, public_text=f"  permission: {ps.name} plays nothing")
            return True
        self.choice = replace(offer, values=cands)
        self.priority = -1
        self.pending = Decision("choice", controller, self.window, "OPP Permissions",
                                f"{ps.name}: you may play one of these now — play <card> [slot n] [target …] "
                                "[mode n] — or decline" if cands else
                                f"{ps.name}: you may play a card from your hand now, but none can be played "
                                "— decline",
                                tuple(self.label(c) for c in cands), 0, 1, True, eligible=cands)
        return False

    def permit_options(self, cid: int, p: int, permit: Choice) -> list[Action]:
        """The play commands that answer permission `permit` with card `cid` (speed ignored, OPP)."""
        d = self.card(cid)
        out: list[Action] = []
        for m in (list(range(1, d.branches + 1)) if d.branches else [None]):
            if self.play_refusal(Play(cid, None, (), m), p, check_targets=False, permit=permit) is not None:
                return []
            for ts in self.target_combos(self.play_slots(cid, p, m), p, cid):
                out.append(Play(cid, None, ts, m))
        return out

    def has_room(self, cid: int, p: int) -> bool:
        d = self.card(cid)
        if d.type == "unit":
            return 0 in self.players[p].board
        if d.type == "relic":
            return 0 in self.players[p].relics
        return True

    # ------------------------------------------------------------------ combat damage (C1K 4.3)

    def combat_damage(self) -> None:
        ap = self.active
        dp = 1 - ap
        blocked = {a for _, a in self.blocks}
        blocker_of = {a: b for b, a in self.blocks if b}
        champion = self.players[dp].champion
        self.lifedrain_due = [0, 0]
        hit: list[int] = []
        conquerors: list[int] = []
        # Combat Victory / Loss (rules.md §5): the blocked pairs that fight, and who is destroyed by it
        pairs = [(b, a) for b, a in self.blocks if b and a and self.is_unit_in_play(b) and self.is_unit_in_play(a)]
        fights = {u: foe for b, a in pairs for u, foe in ((a, b), (b, a))}
        lost: list[int] = []
        # step 1: Strike units deal their damage; step 2: all other combatants, simultaneously
        for step, strikers in (("Strike", True), ("damage", False)):
            assignments: list[tuple[int, int, int]] = []
            for a in self.attackers:
                if not self.is_unit_in_play(a):
                    continue   # destroyed (e.g. in the Strike step): it deals no damage, and takes none
                b = blocker_of.get(a, 0)
                b_here = bool(b) and self.is_unit_in_play(b)
                if (self.keyword(a, "strike") is not None) == strikers:
                    power = max(0, self.power(a))
                    overwhelm = self.keyword(a, "overwhelm") is not None
                    if b_here:
                        assignments.append((a, b, power))
                        if overwhelm:   # RB 3.1: Excess from the blocker's remaining health, now
                            assignments.append((a, champion, max(0, power - self.health(b))))
                    elif a in blocked:
                        if overwhelm:   # its blocker left play: Overwhelm deals all to the Champion
                            assignments.append((a, champion, power))
                    else:
                        assignments.append((a, champion, power))
                if b_here and (self.keyword(b, "strike") is not None) == strikers:
                    assignments.append((b, a, max(0, self.power(b))))
            if not assignments:
                continue
            self.log(f"  combat {step} step", actor=ap, rule="C1K 4.3")
            for src, dst, amount in assignments:
                dealt = self.damage(src, dst, amount, combat=True)
                if dealt > 0 and dst == champion:
                    if src not in blocked and src not in hit:
                        hit.append(src)
                    if src not in conquerors:
                        conquerors.append(src)
            if strikers:
                self.sba(fights, lost)   # a unit destroyed by Strike deals no damage (RB §3.2)
                if self.outcome is not None:
                    return
        for a in hit:
            if self.is_unit_in_play(a):
                self.fire("on_champion_hit", a)
        for p in (ap, dp):   # step 5: Lifedrain …
            if self.lifedrain_due[p]:
                self.heal(0, self.players[p].champion, self.lifedrain_due[p])
                self.lifedrain_due[p] = 0
        for a in conquerors:   # … and Dominion: Conquer happens at once, without the stack (C1K 4.3 step 5)
            perm = self.perms.get(a)
            if self.keyword(a, "conquer") is None or (perm is not None and perm.has_status("suppressed")):
                continue
            for ab in self.card(a).abilities:
                if ab.when == "on_conquer":
                    self.log(f"  Conquer: {self.label(a)} damaged the Champion", actor=ap, cards=(a,), rule="KW Conquer")
                    self.run_effects(ab.effect, self.owner[a], a, [], None)
        self.sba(fights, lost)
        for b, a in pairs:   # a combatant still in play whose combat opponent was destroyed won
            for me, foe in ((a, b), (b, a)):
                if foe in lost and me not in lost and self.is_unit_in_play(me):
                    self.fire("on_combat_victory", me, foe)

    # ------------------------------------------------------------------ commands: parsing

    def parse(self, text: str, typist: int | None = None) -> tuple[int | None, Action]:
        """Parse command text, resolving names, aliases and p1/p2 from what the typing player may see
        (rules.md §7a). Returns (the acting player: the prefix, else `typist`; None if neither, action).

        `typist` (0 / 1) is the player at the keyboard; None: the prefix's player, else the one deciding
        (scenarios, records — a record replays with the acting seat's view). Before any name is looked
        up, a command is refused (IllegalAction) if it is typed for the other player, or for a player who
        is not the one to decide (Concede excepted), so a name's answer never depends on hidden cards of
        a seat that isn't acting."""
        cmd = parse_command(text)
        player = None
        if cmd.player is not None:
            player = self.player_ref(cmd.player)
            if player is None:
                raise MalformedCommand(f"unknown player prefix '{cmd.player}:'; expected p1: or p2:")
        if typist is not None and player is not None and player != typist:
            raise IllegalAction("C1K 10", f"{self.players[typist].name} can't give {self.players[player].name}'s "
                                          "commands (type your own, without a prefix)")
        if typist is not None and player is None:
            player = typist
        actor = player if player is not None else self.current_player()
        if self.outcome is not None:
            raise IllegalAction("RULES 1", f"the match is over ({self.outcome})")
        if cmd.verb != "concede":
            r = self.turn_refusal(actor)
            if r is not None:
                raise IllegalAction(r.rule, r.reason)
        return player, self.to_action(cmd, actor)

    def player_ref(self, word: str) -> int | None:
        w = word.lower()
        for p in (0, 1):          # the seats first: a player named "p2" in seat 1 doesn't capture "p2"
            if w == player_name(p):
                return p
        for p in (0, 1):
            if w == self.players[p].name.lower():
                return p
        return None

    def to_action(self, cmd: Command, actor: int) -> Action:
        def resolve(raw: str, role: str) -> int:
            return self.resolve_ref(raw, role, actor)

        return command_to_action(cmd, resolve)

    def resolve_ref(self, raw: str, role: str, actor: int) -> int:
        """The card id `raw` names for `actor`, from what `actor` may see: an id or name of a card hidden
        from them gets exactly the answer of one that exists nowhere (rules.md §7a)."""
        a = max(actor, 0)
        if raw.startswith("#"):
            if raw[1:].isascii() and raw[1:].isdigit() and len(raw) <= 10 and 0 < int(raw[1:]) < len(self.defs) \
                    and self.visible_to(int(raw[1:]), a):
                return int(raw[1:])
            raise MalformedCommand(f"'{raw}' is not a card you can see")
        key = raw.lower()
        if key in self.aliases and self.visible_to(self.aliases[key], a):
            return self.aliases[key]
        p = self.player_ref(key)
        if p is not None:
            return self.players[p].champion
        if role == "hand":   # a copy in hand (or Set) first; the graveyard only if none (OPP permissions)
            pool = self.players[a].hand + self.players[a].set_cards
            if not any(self.card(c).name.lower() == key or self.card(c).id == key for c in pool):
                pool = self.players[a].graveyard + (pool if not any(
                    self.card(c).name.lower() == key or self.card(c).id == key for c in self.players[a].graveyard)
                    else [])
        elif role == "attacker":
            pool = self.players[self.active].units()
        elif role == "blocker":
            pool = self.players[1 - self.active].units()
        elif role == "source":   # (a Nullify Action is used from the hand)
            pool = self.permanents(a) + self.permanents(1 - a) + self.players[a].hand
        else:
            pool = [c for q in (a, 1 - a) for c in self.permanents(q)]
        matches = [c for c in pool if self.card(c).name.lower() == key or self.card(c).id == key]
        if not matches:
            # a hint only from what the actor may see: never a card in a library or the opponent's hand/Set
            everywhere = [i for i in range(1, len(self.defs)) if self.card(i).name.lower() == key
                          and self.visible_to(i, a)]
            if everywhere:
                raise MalformedCommand(f"no '{raw}' here (the command needs a card in the {role} role); "
                                       f"use its id, e.g. #{everywhere[0]}")
            from engine.cards import suggest

            names = sorted({self.card(c).name for c in pool})
            raise MalformedCommand(f"no card called '{raw}' among {', '.join(names) or 'nothing'}"
                                   f"{suggest(raw, names)}")
        if len(matches) > 1 and role != "hand":
            raise MalformedCommand(f"'{raw}' is ambiguous: {', '.join(self.label(c) for c in matches)}; use the id")
        return min(matches)

    def visible_to(self, cid: int, p: int) -> bool:
        """Whether player p may see which card `cid` is (hidden: libraries, the opponent's hand and Set)."""
        z = self.zone[cid]
        if z == LIBRARY:
            return False
        if z in (HAND, SET):
            return self.owner[cid] == p
        return True

    def apply_command(self, text: str, typist: int | None = None) -> Action:
        """Parse `text` as `typist` types it (see `parse`) and apply it. Raises MalformedCommand (nothing
        changed) or IllegalAction (C1K 10: a refused action costs its player priority if they held it)."""
        player, action = self.parse(text, typist)
        self.apply(action, player)
        return action

    # ------------------------------------------------------------------ commands: legality

    def refusal(self, action: Action, player: int) -> Refusal | None:
        """Why `player` may not take `action` now (None if legal). Every refusal names its rule."""
        if self.outcome is not None:
            return Refusal("RULES 1", f"the match is over ({self.outcome})")
        if isinstance(action, Concede):
            return None
        d = self.pending
        r = self.turn_refusal(player)
        if r is not None:
            return r
        if isinstance(action, Pass):
            if d.kind != "priority":
                return Refusal(d.rule, f"there is no priority to pass: {self.describe_pending()}")
            return None
        if isinstance(action, Play) and d.kind == "choice" and self.choice is not None \
                and self.choice.kind == "permit":
            return self.play_refusal(action, player, permit=self.choice)
        if isinstance(action, (Play, Activate, SetCard)):
            if d.kind != "priority":
                return Refusal(d.rule, f"you can't do that now: {self.describe_pending()}")
            if isinstance(action, Play):
                return self.play_refusal(action, player)
            if isinstance(action, Activate):
                return self.activate_refusal(action, player)
            return self.set_refusal(action, player)
        if isinstance(action, Attack):
            if d.kind != "attackers":
                return Refusal("C1K 4.1", "attackers are declared only at the start of combat "
                                          "(combat.declare_attackers), by the active player")
            return self.attack_refusal(action, player)
        if isinstance(action, Block):
            if d.kind != "blockers":
                return Refusal("C1K 4.2", "blockers are declared only in combat.declare_blockers, "
                                          "by the defending player")
            return self.block_refusal(action, player)
        if isinstance(action, (Interrupt, Decline)):
            if d.kind == "choice" and isinstance(action, Decline):
                return None if d.can_decline else Refusal(d.rule, "this choice can't be declined")
            if d.kind != "interrupt":
                return Refusal("C1K 7", "Interrupts are used only when the game asks (when their event happens)")
            if isinstance(action, Decline):
                return None
            return self.interrupt_refusal(action, player)
        if isinstance(action, Choose):
            if d.kind != "choice":
                return Refusal(d.rule, f"there is no choice to answer: {self.describe_pending()}")
            ch = self.choice
            assert ch is not None
            n = len(ch.values)
            if n == 0:
                return Refusal(d.rule, "there is nothing to choose: decline")
            if any(not 1 <= k <= n for k in action.options):
                return Refusal(d.rule, f"options are numbered 1 to {n}")
            if len(set(action.options)) != len(action.options):
                return Refusal(d.rule, "each option can be chosen once")
            if len(action.options) != ch.count:
                return Refusal(d.rule, f"choose exactly {ch.count} option(s)")
            if ch.kind == "permit":   # `choose n` plays a card that needs no target and no mode
                c = ch.values[action.options[0] - 1]
                r = self.play_refusal(Play(c), player, check_targets=False, permit=ch)
                if r is None and self.card(c).type == "action" and self.play_slots(c, player, None):
                    r = Refusal("C1K 6", f"{self.card(c).name} needs targets: answer with "
                                         f"'play \"{self.card(c).name}\" target …'")
                return r
            return None
        return Refusal("C1K 10", "unknown action")

    def turn_refusal(self, player: int) -> Refusal | None:
        """C1K 10: only the player the game waits for may act. The reason is neutral: what the other
        player is deciding is theirs to know (rules.md §7a)."""
        d = self.pending
        if d.player == player:
            return None
        who = self.players[d.player].name if d.player >= 0 else "nobody"
        name = self.players[player].name if player in (0, 1) else "nobody"
        return Refusal("C1K 10", f"{name} cannot act now: waiting for {who} (acting out of priority order)")

    def describe_pending(self) -> str:
        d = self.pending
        return {
            "priority": "act or pass with priority",
            "attackers": "declare attackers",
            "blockers": "declare blockers",
            "interrupt": "use or decline an Interrupt",
            "choice": "answer a choice",
        }.get(d.kind, "nothing (the match is over)")

    def playable_from(self, cid: int, p: int) -> str | None:
        z = self.zone[cid]
        if self.owner[cid] != p:
            return None
        if z == HAND:
            return "hand"
        if z == SET:
            return "set"
        if z == GRAVEYARD:
            t = self.card(cid).type
            for zone, ctype, until in self.players[p].permits:
                if zone == "graveyard" and ctype in ("any", t) and self.permit_active(until):
                    return "graveyard"
        return None

    def permit_active(self, until: int, next_turn: bool = False) -> bool:
        """A duration permission's `until`: a turn number (it lasts through that turn), or -seq: as long as
        the card that entered play with that seq stays in play (OPP "as long as")."""
        if until < 0:
            return any(perm.seq == -until for perm in self.perms.values())
        return until > self.turn if next_turn else until >= self.turn

    def speed_refusal(self, speed: str, p: int, what: str) -> Refusal | None:
        """OPP Slow / Fast: Slow only for AP, in main.priority, on an empty stack."""
        if speed == "slow":
            if p != self.active:
                return Refusal("OPP Slow", f"{what} is Slow: only the active player may do that, in their own "
                                           "Main Phase")
            if self.win != MAIN:
                extra = " (only Fast actions after the draw)" if self.win == DRAW_POST else ""
                return Refusal("OPP Slow", f"{what} is Slow: only in main.priority, not in {self.window}{extra}")
            if self.stack:
                return Refusal("OPP Slow", f"{what} is Slow: only with an empty stack (respond with Fast actions)")
        return None

    def play_refusal(self, a: Play, p: int, check_targets: bool = True,
                     permit: Choice | None = None) -> Refusal | None:
        """Why playing `a` is illegal for p now. `permit`: the play answers that special play permission
        (OPP): it overrides speed and zone, and its card must be one the permission allows."""
        cid = a.card
        if not 0 < cid < len(self.defs) or not self.visible_to(cid, p):   # (hidden = nonexistent: §7a)
            return Refusal("AS Unit play", f"#{cid} is not a card you can play (not in your hand)")
        d = self.card(cid)
        where = "permit" if permit is not None else self.playable_from(cid, p)
        if permit is not None and cid not in permit.values:
            allowed = ", ".join(self.label(c) for c in permit.values) or "nothing"
            return Refusal("OPP Permissions", f"{d.name} is not a card this permission lets you play "
                                              f"(it allows: {allowed})")
        if where is None:
            zone = ZONE_NAMES[self.zone[cid]]
            if self.zone[cid] == GRAVEYARD and self.owner[cid] == p:
                return Refusal("OPP Permissions", f"{d.name} is in your graveyard: you need a permission to play it")
            return Refusal("AS Unit play", f"{d.name} is not in your hand (it is in {'your' if self.owner[cid] == p else 'the opponent’s'} {zone})")
        if d.type not in ("unit", "relic", "action"):
            return Refusal("AS Unit play", f"{d.name} is a {d.type} and can't be played")
        if a.voidcast and d.voidcast is None:
            return Refusal("KW Voidcast", f"{d.name} has no Voidcast cost")
        if d.hand_interrupt is not None:
            return Refusal("KW Nullify", f"{d.name} is not played: it is used from your hand as an Interrupt "
                                         "when your opponent plays an Action")
        rule = "AS Unit play" if d.type == "unit" else ("AS Action play" if d.type == "action" else "AS Unit play")
        # Set/Ambush (Veil, C1K §9 "visibility affects timing legality"): a Set card is played at Fast speed
        r = None if permit is not None else self.speed_refusal("fast" if where == "set" else d.speed, p, d.name)
        if r:
            if d.type == "unit" and self.win == INFLUENCE_RESPONSE:
                return Refusal("C1K 2.3", f"{d.name} is a Slow Unit: in the Influence Phase only Fast Units may be "
                                          "deployed")
            return r
        ps = self.players[p]
        cost = 0 if permit is not None and permit.free else play_cost(d, a.voidcast)
        if cost > ps.influence:
            return Refusal("C1K 2.2", f"{d.name} costs {cost} Influence{' (Voidcast)' if a.voidcast else ''}; "
                                      f"you have {ps.influence}")
        if d.type == "unit" and 0 not in ps.board:
            return Refusal(rule, "all your unit slots are full")
        if d.type == "relic" and 0 not in ps.relics:
            return Refusal(rule, "all your relic slots are full")
        if a.slot is not None:
            slots = ps.relics if d.type == "relic" else ps.board
            if d.type == "action":
                return Refusal(rule, "only Units and Relics take a slot")
            if not 1 <= a.slot <= len(slots):
                return Refusal(rule, f"slots are numbered 1 to {len(slots)}")
            if slots[a.slot - 1]:
                return Refusal(rule, f"slot {a.slot} is taken by {self.label(slots[a.slot - 1])}")
        n = d.branches
        if a.mode is not None:
            if not 1 <= a.mode <= n:
                return Refusal("KW Thread", f"{d.name} has {'no modes' if not n else f'modes 1 to {n}'}")
        elif n:
            return Refusal("KW Thread", f"{d.name} asks you to choose a branch now: add 'mode 1' … 'mode {n}'")
        if check_targets:
            return self.targets_refusal(self.play_slots(cid, p, a.mode), a.targets, p, cid,
                                        self.card_choice_slots(cid, a.mode))
        return None

    def play_slots(self, cid: int, p: int, mode: int | None) -> list[str]:
        """The targets a `play` command must name. A Unit or Relic whose on-play target has no legal
        choice may still be played: that trigger is then removed (it has nothing to do)."""
        slots = self.card_choice_slots(cid, mode)
        if slots and self.card(cid).type != "action":
            slots = [s for s in slots if self.target_candidates(s, p, cid)]
        return slots

    def targets_refusal(self, slots: list[str], targets: tuple[int, ...], p: int, source: int,
                        full: list[str] | None = None) -> Refusal | None:
        """`full`: the slots before those without any legal choice were dropped (a Unit's on-play target):
        a target named for a dropped slot is refused for its own true reason (e.g. it is Veiled)."""
        if len(targets) != len(slots):
            if full is not None and len(targets) == len(full) and full != slots:
                for slot, t in zip(full, targets, strict=True):
                    r = self.target_refusal(slot, t, p, source)
                    if r is not None:
                        return r
            if not slots:
                return Refusal("C1K 6", "this needs no target")
            return Refusal("C1K 6", f"name {len(slots)} target(s): {', '.join(s.replace('_', ' ') for s in slots)}")
        for slot, t in zip(slots, targets, strict=True):
            r = self.target_refusal(slot, t, p, source)
            if r is not None:
                return r
        return None

    def target_refusal(self, slot: str, t: int, p: int, source: int) -> Refusal | None:
        """Why `t` is not a legal choice for a `slot` target of player p — the true reason (rules.md §3):
        every check that fails is the reason, not the first one in the code."""
        if t in self.target_candidates(slot, p, source):
            return None
        known = 0 < t < len(self.defs) and self.visible_to(t, p)
        what = self.label(t) if known else f"#{t}"
        want = slot.replace("_", " ")
        if not known:
            return Refusal("C1K 6", f"{what} is not a legal target: it needs a {want}"
                                    f"{' in play' if slot != 'champion' else ''}")
        if slot == "champion":
            return Refusal("C1K 6", f"{what} is not a legal target: it needs a Champion")
        if not self.is_unit_in_play(t):
            where = "a Champion" if self.is_champion(t) else f"in the {ZONE_NAMES[self.zone[t]]}"
            return Refusal("C1K 6", f"{what} is not a legal target: it needs a {want} in play, and it is {where}")
        if slot == "friendly_unit" and self.owner[t] != p:
            return Refusal("C1K 6", f"{what} is not a legal target: it needs a friendly unit (one of yours)")
        if slot == "enemy_unit" and self.owner[t] == p:
            return Refusal("C1K 6", f"{what} is not a legal target: it needs an enemy unit (one of your opponent's)")
        if not self.targetable(t, p):
            return Refusal("KW Veiled", f"{what} is Veiled: your opponent's Veiled units can't be targeted "
                                        "(C1K 9, Veil)")
        return Refusal("C1K 6", f"{what} is not a legal target for this {want}")

    def activated(self, cid: int) -> tuple[tuple[int, Ability], ...]:
        return self.card(cid).act

    def activate_refusal(self, a: Activate, p: int, check_targets: bool = True) -> Refusal | None:
        cid = a.source
        if not 0 < cid < len(self.defs) or not self.in_play(cid):
            return Refusal("C1K 3.1", f"#{cid} is not a card in play")
        d = self.card(cid)
        if self.owner[cid] != p:
            return Refusal("C1K 3.1", f"{d.name} is not yours")
        abilities = self.activated(cid)
        if not abilities:
            return Refusal("C1K 3.1", f"{d.name} has no activated ability")
        if not 1 <= a.n <= len(abilities):
            return Refusal("C1K 3.1", f"{d.name} has abilities 1 to {len(abilities)}")
        idx, ab = abilities[a.n - 1]
        act = ab.activate
        assert act is not None
        perm = self.perms[cid]
        if perm.has_status("suppressed"):
            return Refusal("KW Suppress", f"{d.name} is Suppressed: its abilities don't function")
        if act.timing == "end_phase" and self.win not in (END_START, END_FINAL):
            return Refusal("C1K 5.3", f"{d.name}'s ability has End Phase timing: only in the End Phase's priority "
                                      f"windows (end.start, end.final), not in {self.window}")
        r = self.speed_refusal(act.speed, p, f"{d.name}'s ability")
        if r:
            return r
        if act.once_per_turn and perm.used.get(idx) == self.turn:
            return Refusal("C1K 3.1", f"{d.name}'s ability can be used once per turn and was used this turn")
        if act.exhaust and perm.exhausted:
            return Refusal("C1K 3.1", f"{d.name} is exhausted")
        if act.cost > self.players[p].influence:
            return Refusal("C1K 2.2", f"the ability costs {act.cost} Influence; you have {self.players[p].influence}")
        if check_targets:
            return self.targets_refusal(self.choice_slots(ab.effect), a.targets, p, cid)
        return None

    def set_refusal(self, a: SetCard, p: int) -> Refusal | None:
        """Set (Veil): a card with Ambush may be set face down for 1 Influence, at Slow timing."""
        cid = a.card
        if not 0 < cid < len(self.defs) or self.zone[cid] != HAND or self.owner[cid] != p:
            return Refusal("KW Set", f"#{cid} is not in your hand")
        d = self.card(cid)
        if "ambush" not in d.keywords:
            return Refusal("KW Set", f"{d.name} can't be Set: only Veil cards with Ambush can")
        r = self.speed_refusal("slow", p, f"Setting {d.name}")
        if r:
            return Refusal("KW Set", r.reason)
        if self.players[p].influence < SET_COST:
            return Refusal("KW Set", f"Setting a card costs {SET_COST} Influence; you have {self.players[p].influence}")
        return None

    def attack_block_reason(self, cid: int) -> Refusal | None:
        """Why this unit of the active player can't attack (None if it can)."""
        if self.is_unit_in_play(cid) and self.owner[cid] != self.active:
            return Refusal("C1K 4.1", f"{self.label(cid)} is not yours: only the active player's units attack")
        if not self.is_unit_in_play(cid):
            return Refusal("C1K 4.1", f"#{cid} is not a unit of the attacking player in play")
        perm = self.perms[cid]
        d = self.card(cid)
        if perm.exhausted:
            return Refusal("C1K 4.1", f"{d.name} is exhausted (it attacked or was used): units ready at the start "
                                      "of their controller's turn")
        if perm.entered_turn == self.turn and self.keyword(cid, "charge") is None:
            return Refusal("KW Charge", f"{d.name} entered play this turn and is deploying: only Charge units "
                                        "attack at once")
        if perm.has_status("rooted"):
            return Refusal("KW Rooted", f"{d.name} is Rooted and can't attack")
        if perm.has_status("suppressed"):
            return Refusal("KW Suppress", f"{d.name} is Suppressed and can't attack")
        return None

    def attack_refusal(self, a: Attack, p: int) -> Refusal | None:
        if len(set(a.units)) != len(a.units):
            return Refusal("C1K 4.1", "each unit attacks once")
        for u in a.units:
            if not 0 < u < len(self.defs):   # (the same answer as a card hidden from the player: §7a)
                return Refusal("C1K 4.1", f"#{u} is not a unit of the attacking player in play")
            r = self.attack_block_reason(u)
            if r:
                return r
        return None

    def can_block(self, b: int, a: int) -> Refusal | None:
        dp = 1 - self.active
        if not 0 < b < len(self.defs) or not self.is_unit_in_play(b) or self.owner[b] != dp:
            return Refusal("C1K 4.2", f"#{b} is not a unit of the defending player in play")
        if a not in self.attackers or not self.is_unit_in_play(a):
            return Refusal("C1K 4.2", f"#{a} is not attacking")
        if self.perms[b].exhausted:
            return Refusal("C1K 4.2", f"{self.card(b).name} is exhausted and can't block")
        if self.perms[a].has_status("veiled") and not self.perms[b].has_status("veiled"):
            return Refusal("KW Veiled", f"{self.card(a).name} is Veiled: only Veiled units can block it")
        return None

    def block_refusal(self, a: Block, p: int) -> Refusal | None:
        blockers = [b for b, _ in a.pairs]
        attacked = [x for _, x in a.pairs]
        if len(set(blockers)) != len(blockers):
            return Refusal("C1K 4.2", "a unit blocks one attacker")
        if len(set(attacked)) != len(attacked):
            return Refusal("C1K 4.2", "each attacker can be blocked by at most one unit")
        for b, x in a.pairs:
            r = self.can_block(b, x)
            if r:
                return r
        return self.guard_refusal(blockers)

    def guard_refusal(self, blockers: list[int]) -> Refusal | None:
        """C1K 4.2 step 3: while the defender has a ready Guard unit that isn't blocking, non-Guard units
        can't block."""
        dp = 1 - self.active
        idle_guards = [u for u in self.players[dp].units()
                       if self.keyword(u, "guard") is not None and not self.perms[u].exhausted and u not in blockers]
        if not idle_guards:
            return None
        for b in blockers:
            if self.keyword(b, "guard") is None:
                return Refusal("KW Guard", f"{self.card(b).name} can't block while {self.label(idle_guards[0])} "
                                           "(Guard) is ready and not blocking")
        return None

    def usable_interrupts(self, p: int, event: str) -> list[tuple[int, int, Ability]]:
        """(card, ability index, ability) of p's usable Interrupts for `event`: abilities of p's cards in
        play, and Nullify Actions in p's hand (index -1)."""
        out: list[tuple[int, int, Ability]] = []
        for cid in self.players[p].hand:
            hi = self.card(cid).hand_interrupt
            if hi is not None and hi.interrupt == event and hi.cost <= self.players[p].influence:
                out.append((cid, -1, hi))
        out += self.usable_in_play_interrupts(p, event)
        return out

    def usable_in_play_interrupts(self, p: int, event: str) -> list[tuple[int, int, Ability]]:
        """The usable Interrupt abilities of p's cards in play (public: the board, Influence, Suppress)."""
        out: list[tuple[int, int, Ability]] = []
        events = (event, "opponent_declares_attackers") if event == "attacker_declared" and p != self.active \
            else (event,)
        for cid in self.permanents(p):
            perm = self.perms[cid]
            if perm.has_status("suppressed"):
                continue
            for i, ab in enumerate(self.card(cid).abilities):
                if ab.interrupt in events and ab.cost <= self.players[p].influence \
                        and not (ab.once_per_turn and perm.used.get(i) == self.turn):
                    out.append((cid, i, ab))
        return out

    def may_interrupt(self, p: int, event: str) -> bool:
        """Whether p is asked about `event`'s Interrupts (C1K 7), decided from public facts only (rules.md
        §7a: whether a player *could* respond is private). p is asked when they have a usable Interrupt
        on a card in play (the board is public), or — a Nullify, used from the hand — when their hand is
        not empty and one of their Nullify cards for the event that their Influence pays for is in a zone
        hidden from the opponent (hand, library or Set: the public deck list minus the public zones). So
        p is asked whether or not that card is in their hand, and an opponent learns nothing from it."""
        ps = self.players[p]
        if ps.hand:
            defs = self.defs
            for zone in (ps.hand, ps.library, ps.set_cards):
                for cid in zone:
                    hi = defs[cid].hand_interrupt  # type: ignore[union-attr]
                    if hi is not None and hi.interrupt == event and hi.cost <= ps.influence:
                        return True
        return bool(self.usable_in_play_interrupts(p, event))

    def interrupt_refusal(self, a: Interrupt, p: int) -> Refusal | None:
        w = self.intr
        assert w is not None
        for cid, _, ab in self.usable_interrupts(p, w.event):
            if cid == a.source:
                return self.targets_refusal(self.choice_slots(ab.effect), a.targets, p, cid)
        # the true reason it isn't usable (rules.md §3): cost, once per turn, Suppress — or no such Interrupt
        src = a.source
        if 0 < src < len(self.defs) and self.visible_to(src, p) and self.owner[src] == p:
            d = self.card(src)
            abilities = [(-1, d.hand_interrupt)] if d.hand_interrupt is not None and self.zone[src] == HAND \
                else ([(i, ab) for i, ab in enumerate(d.abilities) if ab.interrupt is not None]
                      if self.in_play(src) else [])
            events = (w.event, "opponent_declares_attackers") if w.event == "attacker_declared" else (w.event,)
            for i, ab in abilities:
                if ab.interrupt not in events:
                    continue
                perm = self.perms.get(src)
                if perm is not None and perm.has_status("suppressed"):
                    return Refusal("KW Suppress", f"{d.name} is Suppressed: its abilities don't function")
                if ab.cost > self.players[p].influence:
                    return Refusal("C1K 2.2", f"{d.name}'s Interrupt costs {ab.cost} Influence; "
                                              f"you have {self.players[p].influence}")
                if perm is not None and ab.once_per_turn and perm.used.get(i) == self.turn:
                    return Refusal("C1K 7", f"{d.name}'s Interrupt can be used once per turn and was used this turn")
        return Refusal("C1K 7", f"#{a.source} has no usable Interrupt for this event")

    # ------------------------------------------------------------------ commands: carrying out

    def apply(self, action: Action, player: int | None = None) -> None:
        """Carry out `action` for `player` (default: the player who must act).

        An illegal action raises IllegalAction after changing exactly what C1K §10 says: if the player
        held priority, priority passes to the opponent (unless the match is in practice mode)."""
        actor = self.current_player() if player is None else player
        if type(action) is Pass and self.outcome is None:
            d = self.pending
            if d.player == actor and d.kind == "priority":
                # the fast path for the most common action (4 in 5 in random play): a legal pass, exactly
                # as below (refusal None; log_command's "pass" event; execute's do_pass)
                line = _PASS_LINES[actor]
                rec = self.record
                rec.append(line)
                self.log(line, "pass", actor, rule=d.rule, command=len(rec) - 1)
                self.do_pass(actor)
                return
        if actor not in (0, 1):
            raise IllegalAction("RULES 1", f"the match is over ({self.outcome})")
        r = self.refusal(action, actor)
        if r is not None:
            if (not self.options.practice and self.pending.kind == "priority" and self.priority == actor
                    and not isinstance(action, Concede)):
                self.record.append(f"{player_name(actor)}: {action}")
                self.give_priority(1 - actor, self.passed)
                # the attempt may name a card in the typist's hand: the other player sees only the rule
                nxt = self.players[1 - actor].name
                self.log(f"  refused: {player_name(actor)}: {action} — {r.reason} ({r.rule}); priority passes to {nxt}",
                         "refusal", actor, detail=r.reason, rule=r.rule, private_to=actor,
                         public_text=f"  refused: {player_name(actor)} tried an action not allowed now ({r.rule}); "
                                     f"priority passes to {nxt}", command=len(self.record) - 1)
            raise IllegalAction(r.rule, r.reason)
        line = f"{player_name(actor)}: {action}"
        self.record.append(line)
        if not isinstance(action, Pass) and self._quiet:
            self._quiet = 0   # somebody did something: no endless loop (rules.md §1)
            self._loop_seen = {}
        self.log_command(line, action, actor)
        self.execute(action, actor)

    def commands_known_to(self, viewer: int) -> int:
        """How many commands `viewer` (-1: a spectator) knows were given: the record's length less the
        other player's private ones (a declined Interrupt or permission says what their hand held)."""
        return len(self.record) - sum(self._private_commands[p] for p in (0, 1) if p != viewer)

    def log_command(self, line: str, action: Action, actor: int) -> None:
        """The event of a command about to be carried out. Declining an Interrupt is private to the asked
        player (that they were asked at all says they held a usable Interrupt: rules.md §7a)."""
        n = len(self.record) - 1
        d = self.pending
        if isinstance(action, Decline) and d.kind == "interrupt":
            self.log(line, "interrupt", actor, detail="declined", rule="C1K 7", private_to=actor, command=n)
            self._private_commands[actor] += 1
            return
        if isinstance(action, Decline) and self.choice is not None and self.choice.kind == "permit":
            # the same public words as "nothing could be played": the offer says what the hand held
            self.log(line, "choice", actor, detail="declined", rule=d.rule, private_to=actor, command=n,
                     public_text=f"  permission: {self.players[actor].name} plays nothing")
            self._private_commands[actor] += 1
            return
        kind = _COMMAND_KIND.get(type(action).__name__, "note")
        cards: tuple[int, ...] = ()
        if isinstance(action, Play):
            cards = (action.card,) + action.targets
        elif isinstance(action, (Activate, Interrupt)):
            cards = (action.source,) + action.targets
        elif isinstance(action, SetCard):
            cards = (action.card,)
        elif isinstance(action, Attack):
            cards = action.units
        elif isinstance(action, Block):
            cards = tuple(c for pair in action.pairs for c in pair)
        self.log(line, kind, actor, cards, rule=d.rule, command=n)

    def execute(self, action: Action, p: int) -> None:
        if isinstance(action, Concede):
            self.outcome = Outcome(Termination.CONCEDED, 1 - p)
            self.set_over()
        elif isinstance(action, Pass):
            self.do_pass(p)
        elif isinstance(action, Play):
            if self.choice is not None and self.choice.kind == "permit":
                self.do_permit_play(action, p)
            else:
                self.do_play(action, p)
        elif isinstance(action, Activate):
            self.do_activate(action, p)
        elif isinstance(action, Attack):
            self.do_attack(action)
        elif isinstance(action, Block):
            self.do_block(action)
        elif isinstance(action, Interrupt):
            self.do_interrupt(action, p)
        elif isinstance(action, Decline):
            if self.choice is not None:
                ch = self.choice
                self.choice = None
                self.resume(ch.resume)
            else:
                self.next_interrupt()
        elif isinstance(action, Choose):
            self.do_choose(action)
        elif isinstance(action, SetCard):
            self.do_set(action, p)

    def do_pass(self, p: int) -> None:
        self.passed |= _bit(p)
        if self.stack:
            top = self.stack[-1]
            if (top.adder >= 0 and p != top.adder) or (top.adder < 0 and self.passed == 3):
                self.priority = -1
                win = self.win
                if self.resolve_top():
                    self.goto(self.open_priority())
                elif self.outcome is not None:
                    self.set_over()
                if self.win == win and self.outcome is None:
                    self.watch_loop()
                return
            self.give_priority(1 - p, self.passed)
            return
        if self.passed == 3:
            self.goto(self.next_window(self.win))
        else:
            self.give_priority(1 - p, self.passed)

    def watch_loop(self) -> None:
        """Endless Loop (rules.md §1): called after a resolution that only passes led to. Past LOOP_WATCH
        such resolutions in one window, a state seen before (same loop key) ends the match in a draw; past
        LOOP_CAP, a loop that keeps growing the state is a RulesLoopError."""
        self._quiet += 1
        if self._quiet < LOOP_WATCH:
            return
        if self._quiet > LOOP_CAP:
            raise RulesLoopError(f"{LOOP_CAP} resolutions in {self.window} with only passes between them, and the "
                                 "state never repeats: the cards cause each other forever and the loop keeps "
                                 "growing (rules.md §1, Endless Loop)")
        key = self.loop_key()
        if key in self._loop_seen:
            self.outcome = Outcome(Termination.ENDLESS_LOOP, None)
            self.log(f"  the state of {self._quiet - self._loop_seen[key]} resolution(s) ago repeats with only passes "
                     "in between: an endless loop nobody can stop — the match is a draw (Endless Loop)", "sba",
                     detail=Termination.ENDLESS_LOOP.value, rule="RULES 1")
            self.set_over()
            return
        self._loop_seen[key] = self._quiet

    def loop_key(self) -> str:
        """The state hash with the sequence numbers (stack item uids, the order cards entered play) replaced
        by their rank: the rules use them only to order and to compare, so two states that differ only in
        how many numbers were handed out before behave the same from now on."""
        g = self.clone()
        vals: set[int] = set()
        for perm in g.perms.values():
            vals.add(perm.seq)

        def item_vals(it: StackItem | None) -> None:
            if it is not None:
                vals.add(it.uid)
                vals.update(it.tseq)

        def trig_vals(t: Trigger | None) -> None:
            if t is not None:
                vals.add(t.seq)
                vals.update(t.tseq)

        for it in g.stack:
            item_vals(it)
        for it in g.void_items.values():
            item_vals(it)
        for t in g.triggers + g.trigger_queue + g.threads:
            trig_vals(t)
        if g.choice is not None:
            trig_vals(g.choice.trigger)
        if g.intr is not None:
            vals.add(g.intr.item)
        if g.resolving is not None:
            item_vals(g.resolving.item)
        vals.discard(0)
        rank = {v: i for i, v in enumerate(sorted(vals), 1)}

        def rn(v: int) -> int:
            return rank.get(v, v)

        def ritem(it: StackItem) -> StackItem:
            return replace(it, uid=rn(it.uid), tseq=tuple(rn(v) for v in it.tseq))

        def rtrig(t: Trigger) -> Trigger:
            return replace(t, seq=rn(t.seq), tseq=tuple(rn(v) for v in t.tseq))

        for perm in g.perms.values():
            perm.seq = rn(perm.seq)
        g.stack = [ritem(it) for it in g.stack]
        g.void_items = {k: ritem(v) for k, v in g.void_items.items()}
        g.triggers = [rtrig(t) for t in g.triggers]
        g.trigger_queue = [rtrig(t) for t in g.trigger_queue]
        g.threads = [rtrig(t) for t in g.threads]
        if g.choice is not None and g.choice.trigger is not None:
            g.choice = replace(g.choice, trigger=rtrig(g.choice.trigger))
        if g.intr is not None:
            g.intr = replace(g.intr, item=rn(g.intr.item))
        if g.resolving is not None and g.resolving.item is not None:
            g.resolving = replace(g.resolving, item=ritem(g.resolving.item))
        g.seq = len(rank) + 1
        return g.state_hash()

    def do_play(self, a: Play, p: int) -> None:
        cid = a.card
        d = self.card(cid)
        ps = self.players[p]
        from_set = self.zone[cid] == SET
        ps.influence -= play_cost(d, a.voidcast)
        if from_set:
            self.log(f"  {ps.name} reveals the Set card {self.label(cid)} (Ambush: Fast)", "move", p, (cid,),
                     detail="revealed", rule="KW Ambush")
        self.put_on_stack(cid, p, a.slot - 1 if a.slot is not None else -1, a.targets, a.mode or 0,
                          voidcast=a.voidcast)
        self.after_play(cid, p)

    def put_on_stack(self, cid: int, p: int, slot: int, targets: tuple[int, ...], mode: int,
                     targets_later: bool = False, voidcast: bool = False) -> StackItem:
        ps = self.players[p]
        for zone in (ps.hand, ps.graveyard, ps.set_cards):
            if cid in zone:
                zone.remove(cid)
                break
        self.zone[cid] = STACK
        d = self.card(cid)
        item = StackItem(self.next_seq(), "card", cid, p, p, d.name, -1, targets, mode,
                         "voidcast" if voidcast else "", 1 if targets_later else 0, slot, self.target_seqs(targets))
        self.stack.append(item)
        self.log(f"  {self.label(cid)} → stack ({player_name(p)})", "stack", p, (cid,) + targets, mode,
                 "voidcast" if voidcast else "", "C1K 6")
        return item

    def after_play(self, cid: int, p: int) -> None:
        if self.announce_play(cid, p, (1, p)):
            self.after_action(p)

    def announce_play(self, cid: int, p: int, resume: tuple[int, ...]) -> bool:
        """A card was played (it is on top of the stack): "when you play a Unit / an Action" triggers
        (C1K 3.2), then the opponent's Interrupts for an Action (C1K 7). False if an Interrupt is asked."""
        d = self.card(cid)
        if d.type in ("unit", "action"):
            self.fire_watchers("on_unit_played" if d.type == "unit" else "on_action_played", p, cid)
        if d.type == "action":
            opp = 1 - p
            if self.may_interrupt(opp, "opponent_plays_action"):
                self.ask_interrupts(InterruptWindow("opponent_plays_action", (opp,), self.stack[-1].uid, (), resume))
                return False
        return True

    def do_permit_play(self, a: Play, p: int) -> None:
        """OPP Permissions: the play command that answers a permission (targets, mode and slot in it)."""
        ch = self.choice
        assert ch is not None
        self.choice = None
        cid = a.card
        d = self.card(cid)
        if not ch.free:
            self.players[p].influence -= play_cost(d, a.voidcast)
        self.log(f"  {self.players[p].name} plays {self.label(cid)} by permission (OPP Permissions)")
        self.put_on_stack(cid, p, a.slot - 1 if a.slot is not None else -1, a.targets, a.mode or 0,
                          voidcast=a.voidcast)
        if not self.announce_play(cid, p, ch.resume):
            return
        self.resume(ch.resume)

    def do_set(self, a: SetCard, p: int) -> None:
        """Set is a special action: it doesn't use the stack, and the player keeps priority."""
        ps = self.players[p]
        ps.influence -= SET_COST
        ps.hand.remove(a.card)
        ps.set_cards.append(a.card)
        self.zone[a.card] = SET
        self.log(f"  {ps.name} Sets a card face down (#{a.card})", "set", p, (a.card,), SET_COST, rule="KW Set")
        self.give_priority(p, 0)

    def do_activate(self, a: Activate, p: int) -> None:
        idx, ab = self.activated(a.source)[a.n - 1]
        act = ab.activate
        assert act is not None
        perm = self.perms[a.source]
        self.players[p].influence -= act.cost
        if act.exhaust:
            perm.exhausted = True
        if act.once_per_turn:
            perm.used[idx] = self.turn
        self.stack.append(StackItem(self.next_seq(), "ability", a.source, p, p, self.card(a.source).name, idx,
                                    a.targets, tseq=self.target_seqs(a.targets)))
        self.log(f"  {self.card(a.source).name}'s ability → stack ({player_name(p)})", "stack", p,
                 (a.source,) + a.targets, a.n, rule="C1K 3.1")
        self.after_action(p)

    def do_attack(self, a: Attack) -> None:
        if not a.units:
            self.log(f"  {self.players[self.active].name} declares no attack: combat ends", "attack", self.active,
                     rule="C1K 4.1")
            self.goto(self.end_phase())
            return
        self.attackers = a.units
        for u in a.units:
            self.perms[u].exhausted = True
        self.log(f"  attackers: {', '.join(self.label(u) for u in a.units)}", "attack", self.active, a.units,
                 len(a.units), rule="C1K 4.1")
        for u in a.units:
            self.fire("on_attack", u)
        for fn in ATTACK_DECLARED_HOOKS:   # Realm hooks (Rally) apply at once, no stack
            fn(self)
        dp = 1 - self.active
        # C1K 7: each player who might use an Interrupt for the event is asked, AP first (rules.md §7a)
        asked = tuple(q for q in (self.active, dp) if self.may_interrupt(q, "attacker_declared"))
        if asked:
            self.ask_interrupts(InterruptWindow("attacker_declared", asked, 0, a.units, (3,)))
            return
        self.after_declaration()

    def do_block(self, a: Block) -> None:
        self.blocks = a.pairs
        if a.pairs:
            self.log("  blocks: " + ", ".join(f"{self.label(b)} blocks {self.label(x)}" for b, x in a.pairs), "block",
                     1 - self.active, tuple(c for pair in a.pairs for c in pair), len(a.pairs), rule="C1K 4.2")
        else:
            self.log(f"  {self.players[1 - self.active].name} declares no blockers", "block", 1 - self.active,
                     rule="C1K 4.2")
        for b, _ in a.pairs:
            self.fire("on_block", b)
        for u in self.combatants():
            self.fire("start_of_combat", u)
        self.after_declaration()

    def ask_interrupts(self, w: InterruptWindow) -> None:
        self.intr = w
        p = w.queue[0]
        self.priority = -1
        usable = [c for c, _, _ in self.usable_interrupts(p, w.event)]
        names = ", ".join(self.label(c) for c in usable) or "you hold none usable now"
        self.pending = Decision("interrupt", p, self.window, "C1K 7",
                                f"{self.players[p].name}: use an Interrupt ({names}) or decline", (), 0, 0, True,
                                eligible=tuple(usable))
        # the question is asked on public facts (may_interrupt); what the player holds stays theirs
        self.log(f"  {self.players[p].name} is asked: use an Interrupt ({names}) or decline ({w.event})", "interrupt",
                 p, tuple(usable), detail="asked", rule="C1K 7", private_to=p)

    def next_interrupt(self) -> None:
        w = self.intr
        assert w is not None
        rest = tuple(q for q in w.queue[1:] if self.may_interrupt(q, w.event))
        if rest:
            self.ask_interrupts(replace(w, queue=rest))
            return
        self.intr = None
        self.resume(w.resume)

    def do_interrupt(self, a: Interrupt, p: int) -> None:
        w = self.intr
        assert w is not None
        for cid, idx, ab in self.usable_interrupts(p, w.event):
            if cid == a.source:
                self.players[p].influence -= ab.cost
                from_hand = idx < 0
                if from_hand:   # Nullify: the Action is revealed from the hand and used as an Interrupt
                    self.players[p].hand.remove(cid)
                    self.zone[cid] = STACK
                elif ab.once_per_turn:
                    self.perms[cid].used[idx] = self.turn
                self.log(f"  Interrupt: {self.label(cid)} (resolves at once, no stack)", "interrupt", p,
                         (cid,) + a.targets, detail="used", rule="KW Nullify" if from_hand else "C1K 7")
                event = (w.item,) if w.event == "opponent_plays_action" else w.attackers
                self.run_effects(ab.effect, p, cid, list(a.targets), None, event)
                if w.event == "thread_resolves" and self.threads and any(e.do == "counter" for e in ab.effect):
                    cut = self.threads.pop(0)
                    self.log(f"  the Thread branch of {cut.name} is cut: it doesn't resolve", "thread", cut.controller,
                             (cut.source,), cut.mode, "cut", "KW Thread")
                if from_hand:
                    self.to_graveyard(cid)
                break
        self.sba()
        if self.outcome is not None:
            self.set_over()
            return
        self.next_interrupt()

    def do_choose(self, a: Choose) -> None:
        ch = self.choice
        assert ch is not None
        self.choice = None
        picked = [ch.values[k - 1] for k in a.options]
        if ch.kind == "discard":
            ps = self.players[ch.player]
            for c in picked:
                ps.hand.remove(c)
                self.to_graveyard(c)
                self.log(f"  {ps.name} discards {self.label(c)}", "discard", ch.player, (c,), rule="C1K 5.2")
        elif ch.kind == "thread":
            assert ch.trigger is not None
            self.trigger_queue[0] = replace(ch.trigger, mode=picked[0])
            self.log(f"  {self.players[ch.player].name} chooses branch {picked[0]} for {ch.trigger.name}", "thread",
                     ch.player, (ch.trigger.source,), picked[0], "chosen", "KW Thread")
        elif ch.kind == "order":
            resolution = [self.trigger_queue[ch.values[k - 1]] for k in a.options]
            for pos, t in zip(sorted(ch.values), reversed(resolution), strict=True):
                self.trigger_queue[pos] = replace(t, ordered=True)
            self.log(f"  {self.players[ch.player].name} orders the Flux effects: "
                     + ", ".join(t.name for t in resolution), "choice", ch.player, tuple(t.source for t in resolution),
                     rule="C1K 8")
        elif ch.kind == "trigger_target":
            assert ch.trigger is not None
            self.trigger_queue.insert(0, replace(ch.trigger, targets=ch.trigger.targets + (picked[0],)))
        elif ch.kind == "permit":
            c = picked[0]
            if not ch.free:
                self.players[ch.player].influence -= self.card(c).cost
            self.log(f"  {self.players[ch.player].name} plays {self.label(c)} by permission (OPP Permissions)", "play",
                     ch.player, (c,), self.card(c).cost if not ch.free else 0, "permission", "OPP Permissions")
            self.put_on_stack(c, ch.player, -1, (), 0, targets_later=True)
            if not self.announce_play(c, ch.player, ch.resume):
                return
        self.resume(ch.resume)

    # ------------------------------------------------------------------ legal actions & explanations

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player who must act (Concede, always legal, is not listed)."""
        d = self.pending
        p = d.player
        if self.outcome is not None or p < 0:
            return []
        if d.kind == "priority":
            out: list[Action] = [Pass()]
            ps = self.players[p]
            slow_ok = p == self.active and self.win == MAIN and not self.stack
            influence = ps.influence
            defs = self.defs
            cands = ps.hand + ps.graveyard if ps.permits else ps.hand
            for cid in cands:
                cd = defs[cid]
                assert cd is not None
                # cheap filters first; play_options re-checks everything through play_refusal
                if cd.voidcast is not None and cd.voidcast <= influence and (cd.speed == "fast" or slow_ok):
                    out += self.play_options(cid, p, voidcast=True)
                if cd.cost > influence or (cd.speed == "slow" and not slow_ok):
                    continue
                out += self.play_options(cid, p)
            for cid in ps.set_cards:
                out += self.play_options(cid, p)
            if slow_ok and influence >= SET_COST:
                for cid in ps.hand:
                    if "ambush" in defs[cid].keywords:  # type: ignore[union-attr]
                        out.append(SetCard(cid))
            for cid in [c for c in ps.board if c] + [c for c in ps.relics if c] + [ps.champion, ps.seat]:
                if not cid:
                    continue
                act = defs[cid].act  # type: ignore[union-attr]
                for n in range(1, len(act) + 1):
                    spec = act[n - 1][1].activate
                    assert spec is not None
                    if spec.cost > influence or (spec.speed == "slow" and not slow_ok):
                        continue
                    base = Activate(cid, n)
                    if self.activate_refusal(base, p, check_targets=False) is None:
                        ab = act[n - 1][1]
                        for ts in self.target_combos(self.choice_slots(ab.effect), p, cid):
                            out.append(Activate(cid, n, ts))
            return out
        if d.kind == "attackers":
            eligible = [u for u in self.players[p].units() if self.attack_block_reason(u) is None]
            return [Attack(tuple(c)) for k in range(len(eligible) + 1) for c in itertools.combinations(eligible, k)]
        if d.kind == "blockers":
            return [Block(pairs) for pairs in self.block_assignments()]
        if d.kind == "interrupt":
            assert self.intr is not None
            acts: list[Action] = [Decline()]
            for cid, _, ab in self.usable_interrupts(p, self.intr.event):
                for ts in self.target_combos(self.choice_slots(ab.effect), p, cid):
                    acts.append(Interrupt(cid, ts))
            return acts
        if d.kind == "choice":
            ch = self.choice
            assert ch is not None
            n = len(ch.values)
            if ch.kind == "permit":   # formats.md §1: the ordinary play command, or decline
                return [Decline()] + [o for c in ch.values for o in self.permit_options(c, p, ch)]
            pick = itertools.permutations if ch.kind == "order" else itertools.combinations
            opts: list[Action] = [Choose(tuple(c)) for c in pick(range(1, n + 1), ch.count)]
            if d.can_decline:
                opts.insert(0, Decline())
            return opts
        return []

    def play_options(self, cid: int, p: int, voidcast: bool = False) -> list[Action]:
        if self.playable_from(cid, p) is None:
            return []
        d = self.card(cid)
        modes: list[int | None] = list(range(1, d.branches + 1)) if d.branches else [None]
        out: list[Action] = []
        for m in modes:
            if self.play_refusal(Play(cid, None, (), m, voidcast), p, check_targets=False) is not None:
                return []
            for ts in self.target_combos(self.play_slots(cid, p, m), p, cid):
                out.append(Play(cid, None, ts, m, voidcast))
        return out

    def target_combos(self, slots: list[str], p: int, source: int) -> list[tuple[int, ...]]:
        if not slots:
            return [()]
        pools = [self.target_candidates(s, p, source) for s in slots]
        return [tuple(c) for c in itertools.product(*pools)]

    def block_assignments(self) -> list[tuple[tuple[int, int], ...]]:
        """Legal block declarations in a fixed order (`block none` first), at most BLOCK_LEAF_CAP
        candidates examined: past six a side there are hundreds of thousands (7×7: 131k), and
        listing them all would freeze the game. Agents sample blocks instead (engine.sampling)."""
        dp = 1 - self.active
        perms = self.perms
        blockers = [u for u in self.players[dp].units() if not perms[u].exhausted]
        attackers = [a for a in self.attackers if self.is_unit_in_play(a)]
        # what each blocker may block (can_block looks at the pair only), worked out once, not per leaf
        options = [[a for a in attackers if self.can_block(b, a) is None] for b in blockers]
        # C1K 4.2 step 3 (guard_refusal, per leaf in O(1)): a declaration with a non-Guard blocker is legal
        # only if every ready Guard unit blocks (the ready Guard units are the Guard units among `blockers`)
        guard = [self.keyword(b, "guard") is not None for b in blockers]
        ready_guards = sum(guard)
        out: list[tuple[tuple[int, int], ...]] = []
        n = len(blockers)
        used: set[int] = set()
        leaves = 0

        def rec(i: int, acc: tuple[tuple[int, int], ...], guards: int, others: int) -> None:
            nonlocal leaves
            if leaves >= BLOCK_LEAF_CAP:
                return
            if i == n:
                leaves += 1
                if not others or guards == ready_guards:
                    out.append(acc)
                return
            rec(i + 1, acc, guards, others)
            b = blockers[i]
            g = guard[i]
            for a in options[i]:
                if a not in used:
                    used.add(a)
                    rec(i + 1, acc + ((b, a),), guards + g, others + (not g))
                    used.discard(a)

        rec(0, (), 0, 0)
        return out

    def why_not(self, action: Action, player: int | None = None) -> Refusal | None:
        """The rule and reason `action` is illegal now for `player` (None if legal). Changes nothing."""
        return self.refusal(action, self.current_player() if player is None else player)

    def explain(self, player: int) -> list[Explanation]:
        """For each card in hand, each activated ability and each unit (attack/block): legal now, or why not."""
        out: list[Explanation] = []
        ps = self.players[player]
        for cid in ps.hand + ps.set_cards:   # (a Set card is played from the Set zone)
            d = self.card(cid)
            r = self.refusal(Play(cid), player) if self.pending.player != player or self.pending.kind != "priority" \
                else None
            if r is not None and r.rule == "KW Thread":
                r = None   # a Thread card is refused only for lacking its mode: look at its options
            if r is None:
                opts = self.play_options(cid, player)
                if not opts:
                    thread = [e for e in d.effect if e.do == "thread"]
                    mode = 1 if thread else None
                    r = self.play_refusal(Play(cid, None, (), mode), player, check_targets=False)
                    if r is None:
                        r = Refusal("C1K 6", f"{d.name} has no legal target now")
                if r is None:
                    out.append(Explanation(cid, f'play "{d.name}"', True, examples=tuple(str(o) for o in opts[:3])))
                    continue
            out.append(Explanation(cid, f'play "{d.name}"', False, r.rule, r.reason))
        for cid in self.permanents(player):
            for n in range(1, len(self.activated(cid)) + 1):
                a = Activate(cid, n)
                r = self.refusal(a, player) if self.pending.player != player else None
                if r is None:
                    r = (Refusal(self.pending.rule, f"you can't do that now: {self.describe_pending()}")
                         if self.pending.kind != "priority" else self.activate_refusal(a, player, check_targets=False))
                label = f"activate {self.card(cid).name}" + (f" {n}" if n > 1 else "")
                out.append(Explanation(cid, label, r is None, r.rule if r else "", r.reason if r else ""))
        for cid in ps.units():
            if player == self.active:
                r = self.attack_block_reason(cid)
                if r is None and self.pending.kind != "attackers":
                    r = Refusal("C1K 4.1", "attackers are declared in combat.declare_attackers")
                out.append(Explanation(cid, f"attack with {self.card(cid).name}", r is None,
                                       r.rule if r else "", r.reason if r else ""))
            else:
                if self.pending.kind != "blockers":
                    r = Refusal("C1K 4.2", "blockers are declared in combat.declare_blockers, after attackers")
                else:
                    rs = [self.can_block(cid, a) for a in self.attackers]
                    r = None if any(x is None for x in rs) else (rs[0] if rs else
                                                                  Refusal("C1K 4.2", "nothing is attacking"))
                out.append(Explanation(cid, f"block with {self.card(cid).name}", r is None,
                                       r.rule if r else "", r.reason if r else ""))
        return out


# ---------------------------------------------------------------- the turn manager's steps

#: what a turn-based step asks of the turn manager: go on, wait for a decision, or end this phase now
STEP_GO_ON, STEP_WAIT, STEP_END_PHASE = 0, 1, 2
#: the turn-based steps a TURN_TABLE row names (rules.md §2: the table drives the turn manager)
TURN_STEPS: dict[str, Callable[[Game], int]] = {
    "ready": Game.step_ready,
    "draw": Game.step_draw,
    "sba": Game.step_sba,
    "phase_trigger": Game.phase_trigger,
    "influence_gain": Game.step_influence_gain,
    "declare_attackers": Game.step_declare_attackers,
    "declare_blockers": Game.step_declare_blockers,
    "combat_damage": Game.step_combat_damage,
    "combat_triggers": Game.step_combat_triggers,
    "voidcast_returns": Game.step_voidcast_returns,
    "cleanup": Game.step_cleanup,
}
#: the Seat modifiers that change the turn structure (named hooks of the turn manager)
TURN_HOOKS = ("extra_combat_phases", *SKIP_HOOKS)


# ---------------------------------------------------------------- Realm and keyword hooks

# (Genesis transformations — Evolve — happen with state-based actions, before any buff trigger resolves)
RANK_DESTRUCTION, RANK_OTHER = 0, 2


def play_cost(d: CardDef, voidcast: bool) -> int:
    """What playing the card costs: its Voidcast cost when cast for it (Null), else its cost."""
    return d.voidcast if voidcast and d.voidcast is not None else d.cost


def trigger_rank(d: CardDef, ab: Ability) -> int:
    """C1K 8.2 tie-breaks among one player's simultaneous triggers: Ruin destruction effects first,
    Genesis transformations before stat buffs, then the rest (by the order their sources entered play)."""
    verbs = {e.do for e in ab.effect}
    if d.realm == "ruin" and verbs & {"destroy", "damage"}:
        return RANK_DESTRUCTION
    return RANK_OTHER


class StartTrigger:
    """A trigger the rules create at the start of a phase for the active player's units (rules.md §2, §6)."""

    def __init__(self, name: str, keyword: str, applies: Callable[[Game, int], bool],
                 resolve: Callable[[Game, StackItem], None], rank: int = RANK_OTHER) -> None:
        self.name = name          # the item's keyword tag (and, for a rule's trigger, its stack name)
        self.keyword = keyword    # "" for a rule's own trigger (Decay Check): named after the rule
        self.applies = applies
        self.resolve = resolve
        self.rank = rank


def _regeneration(g: Game, item: StackItem) -> None:
    """Regeneration: heals fully (at influence.start, rules.md §6)."""
    g.heal(item.source, item.source, g.perms[item.source].damage)


def _growth(g: Game, item: StackItem) -> None:
    """Growth N (Genesis): N growth counters, each +1/+1."""
    n = g.keyword(item.source, "growth") or 0
    perm = g.perms[item.source]
    perm.counters["growth"] = perm.counters.get("growth", 0) + n
    g.log(f"  {g.label(item.source)} grows: +{n} growth counter(s)", cards=(item.source,), amount=n, rule="KW Growth")


def _pulse(g: Game, item: StackItem) -> None:
    """Pulse N (Solace): heal N to its Champion and to each damaged friendly unit."""
    n = g.keyword(item.source, "pulse") or 0
    p = g.controller(item.source)
    g.heal(item.source, g.players[p].champion, n)
    for u in g.players[p].units():
        if g.perms[u].damage > 0:
            g.heal(item.source, u, n)


def _decay_check(g: Game, item: StackItem) -> None:
    """Decay Check (Ruin): 1 damage per Decay counter; the counters stay."""
    unit = item.ctx
    if g.is_unit_in_play(unit):
        g.damage(0, unit, g.perms[unit].counters.get("decay", 0))


START_TRIGGERS: dict[str, list[StartTrigger]] = {
    "start_of_influence": [
        StartTrigger("Decay Check", "", lambda g, c: g.perms[c].counters.get("decay", 0) > 0, _decay_check,
                     RANK_DESTRUCTION),
        StartTrigger("regeneration", "regeneration",
                     lambda g, c: g.keyword(c, "regeneration") is not None and g.perms[c].damage > 0, _regeneration),
        StartTrigger("growth", "growth", lambda g, c: g.keyword(c, "growth") is not None, _growth),
        StartTrigger("pulse", "pulse", lambda g, c: g.keyword(c, "pulse") is not None, _pulse),
    ],
}
START_TRIGGERS_ALL = [t for ts in START_TRIGGERS.values() for t in ts]


def _rally(g: Game) -> None:
    """Rally N (Dominion): on attack declaration, each other attacking unit gets +N power this turn —
    at once, without the stack (C1K §9)."""
    for a in g.attackers:
        n = g.keyword(a, "rally")
        if n:
            for other in g.attackers:
                if other != a:
                    g.perms[other].temp_power += n
            g.log(f"  Rally {n}: {g.label(a)} gives each other attacker +{n} power this turn", cards=(a,), amount=n,
                  rule="KW Rally")


#: called right after attackers are declared, before "on attack" triggers reach the stack
ATTACK_DECLARED_HOOKS: list[Callable[[Game], None]] = [_rally]
