"""What one player may know, and sampled states consistent with it (rules.md §7a, §2 "AI queries").

`InfoSet(game, player)` is the only thing an agent gets: the player's `view` and `sample(seed)`, a
*determinization* — a complete `Game` in which everything hidden from the player is dealt again:

- the identities of the cards in hidden zones (both libraries, the opponent's hand and Set) are
  shuffled among those zones, owner by owner, from the multiset the player can deduce (each deck's
  cards minus those it has seen); a Set slot gets a card with Ambush;
- the hidden zones hold their card numbers in ascending order (a number says nothing of a card: it is
  drawn at random whenever a card enters a hidden zone, and which card a number is gets dealt again here);
- the match generator (shuffles, Flux outcomes, random targets) gets a fresh state from the seed;
- the events and the record, which name cards the player may not have seen, are dropped (the
  record's length, which the view shows, is kept).

So a sample is a function of the view and the seed only: two matches that look the same to the
player but differ in hidden cards give identical samples (tests/test_ai.py checks the state hashes).
Known limit: a card the player saw go back into a hidden zone (returned to hand) is dealt again like
any other hidden card.

`forecast()` answers "what is the state after this phase?" for a player: it plays the rest of the
current phase on samples under a policy and returns the views the player would then have.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import asdict, is_dataclass, replace
from typing import Any

from engine import legality
from engine.actions import Action, Attack, Block, Choose, Decline, Pass
from engine.chunked import ChunkedList
from engine.events import EventLog
from engine.game import Game
from engine.rng import SplitMix64, derive_seed
from engine.state import phase_of
from engine.view import PlayerView
from engine.view import observe as _observe

MASK64 = (1 << 64) - 1

#: a policy plays for whoever must decide in a (sampled) game
Policy = Callable[[Game], Action]


def observe(game: Game, player: int) -> PlayerView:
    """The player's view (`engine.view.observe`): all an agent reads of the real match."""
    return _observe(game, player)


def _plain(obj: Any) -> Any:
    if is_dataclass(obj) and not isinstance(obj, type):
        return _plain(asdict(obj))
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_plain(v) for v in obj]
    if isinstance(obj, str | int | float | bool) or obj is None:
        return obj
    return str(obj)


def _default(obj: Any) -> Any:
    if is_dataclass(obj) and not isinstance(obj, type):
        return asdict(obj)
    if isinstance(obj, set | frozenset):
        return sorted(obj, key=str)
    return str(obj)


def view_digest(view: Any) -> int:
    """A 64-bit digest of a view (equal views, equal digests): the repr of a `PlayerView` (frozen
    dataclasses of ints, strings and tuples: deterministic), else canonical JSON."""
    if isinstance(view, PlayerView):
        return int.from_bytes(hashlib.sha256(repr(view).encode()).digest()[:8], "big")
    try:
        data = json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_default)
    except TypeError:    # keys that can't be sorted together
        data = json.dumps(_plain(view), sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return int.from_bytes(hashlib.sha256(data.encode()).digest()[:8], "big")


def mix(a: int, b: int) -> int:
    """Combine two seeds into one (SplitMix64 finaliser)."""
    return derive_seed(a & MASK64, b & MASK64)


#: the seed of the sample an InfoSet keeps in place of the real game (any fixed value: a sample depends
#: only on the view and its seed)
REDACT_SEED = 0x1AF0_5E7


class InfoSet:
    """What `player` may know about `game`: the view, and samples consistent with it.

    It holds nothing the player may not know (rules.md §7a): the game it keeps (`_game`) is not the real
    one but a sample of it (`determinize`, whose view is the real view), in which every hidden card
    was dealt again — an agent that reads it anyway learns nothing of the opponent's hand. Since a
    sample is a function of the view and its seed, everything an agent asks (`legal_actions`,
    `quick_key`, `sample(seed)`) answers exactly as it would from the real game.
    `InfoSet.of_sample` skips that step for a game that is a sample already (inside a search)."""

    __slots__ = ("_game", "player", "_view", "_key", "_plan")

    def __init__(self, game: Game, player: int) -> None:
        self.player = player
        self._view: PlayerView | None = None     # observe(sample) == observe(game) (tests/test_ai.py)
        self._key: int | None = None
        self._plan: Deal | None = None
        self._game = determinize(game, player, REDACT_SEED)

    @classmethod
    def of_sample(cls, game: Game, player: int) -> InfoSet:
        """An information set on a game that is itself a sample (`InfoSet.sample`, as in an agent's own
        search): nothing in it is a hidden card of a real match, so it is used as it is."""
        info = cls.__new__(cls)
        info._game = game
        info.player = player
        info._view = None
        info._key = None
        info._plan = None
        return info

    @property
    def view(self) -> PlayerView:
        if self._view is None:
            self._view = observe(self._game, self.player)
        return self._view

    @property
    def key(self) -> int:
        """A digest of the view: the same view always gives the same key."""
        if self._key is None:
            self._key = view_digest(self.view)
        return self._key

    @property
    def quick_key(self) -> int:
        """A cheaper digest of some public fields of the view (turn, window, priority, sizes, life,
        influence, the stack, the own hand): for agents that don't need the whole view."""
        g = self._game
        ps = g.players
        deciding = not g.is_terminal() and g.current_player() == self.player
        # only fields PlayerView carries: `commands` is the record's length, `priority` is -1 for a
        # viewer who isn't deciding
        nums = [g.turn, g.win, g.priority if deciding else -1, len(g.record), self.player, len(g.stack)]
        for q in ps:
            nums += [q.life, q.influence, q.capacity, len(q.hand), len(q.library), len(q.graveyard),
                     len(q.set_cards)]
        nums += ps[self.player].hand + [0] + ps[self.player].set_cards
        h = 0
        for x in nums:
            h = mix(h, x)
        return h

    def legal_actions(self) -> list[Action]:
        """The player's legal actions when it is their decision (they depend only on what the player
        may see: their own cards and public ones), else []. Block declarations are not listed (they
        explode combinatorially): sample them with `random_block` on `sample()`, or `random_action()`."""
        g = self._game
        if not self.to_move or g.pending.kind == "blockers":
            return []
        return g.legal_actions()

    def forced_action(self) -> Action | None:
        """The player's only legal action, when there is just one and it is their decision (a priority
        window with nothing to do but pass, a single choice), else None. Attack and block declarations
        are never forced here (they are sampled, not listed). Like `legal_actions`, it depends only on
        what the player may see."""
        g = self._game
        if not self.to_move or g.pending.kind in ("attackers", "blockers"):
            return None
        acts = g.legal_actions()
        return acts[0] if len(acts) == 1 else None

    def random_action(self, rng: SplitMix64) -> Action:
        """A uniformly random legal action of the player (attacks and blocks sampled pair by pair)."""
        if not self.to_move:
            raise ValueError(f"p{self.player + 1} has no decision to make")
        return random_action(self._game, rng)

    @property
    def to_move(self) -> bool:
        g = self._game
        return not g.is_terminal() and g.current_player() == self.player

    def sample(self, seed: int) -> Game:
        """A complete game consistent with the view, its hidden cards dealt from `seed`."""
        if self._plan is None:
            self._plan = deal_plan(self._game, self.player)
        return determinize(self._game, self.player, seed, self._plan)


#: a deal (`deal_plan`): for each owner whose cards hide something from the player, (owner, the hidden
#: cards' definitions sorted by id, the opponent's Set card numbers, the other hidden numbers (ascending),
#: the library's numbers (ascending), the opponent's hand's numbers (ascending; None for the player's own))
Deal = tuple[tuple[int, tuple[Any, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...] | None], ...]


def deal_plan(game: Game, player: int) -> Deal:
    """What every determinization of `game` for `player` deals (the part that doesn't depend on the
    seed): which numbers are hidden from the player, and the definitions to deal among them."""
    plan = []
    own, defs = game.owner, game.defs
    for owner in (player, 1 - player):
        ps = game.players[owner]
        # the zones hidden from `player` (Game.visible_to): libraries, and the opponent's hand and Set
        zones = ps.library + ps.hand + ps.set_cards if owner != player else list(ps.library)
        vis = game.visible_to
        hidden = sorted(c for c in zones if own[c] == owner and not vis(c, player))
        if not hidden:
            continue
        pool = [defs[c] for c in hidden]
        pool.sort(key=_def_id)
        set_ids = sorted(ps.set_cards) if owner != player else []
        rest = tuple(c for c in hidden if c not in set_ids)
        plan.append((owner, tuple(pool), tuple(set_ids), rest, tuple(sorted(ps.library)),
                     tuple(sorted(ps.hand)) if owner != player else None))
    return tuple(plan)


def _def_id(d: Any) -> str:
    return d.id if d else ""


def determinize(game: Game, player: int, seed: int, plan: Deal | None = None) -> Game:
    """See the module docstring. Reads the game only where the player may look, plus the ids and
    sizes of hidden zones; hidden identities are pooled and dealt again, so they can't leak. `plan`:
    `deal_plan(game, player)`, when the caller keeps it (an InfoSet deals many samples of one game)."""
    if plan is None:
        plan = deal_plan(game, player)
    g = game.clone()
    rng = SplitMix64(seed)
    defs = g.defs
    for owner, pool0, set_ids, rest, library, hand in plan:
        ps = g.players[owner]
        pool = list(pool0)
        rng.shuffle(pool)
        for cid in set_ids:   # a Set card has Ambush: deal one from the pool if there is one
            k = next((i for i, cd in enumerate(pool) if cd is not None and "ambush" in cd.keywords), 0)
            defs[cid] = pool.pop(k)
        for cid, cd in zip(rest, pool, strict=True):
            defs[cid] = cd
        ps.library = list(library)
        if hand is not None:
            ps.hand = list(hand)
            ps.set_cards = list(set_ids)
    g.rng = SplitMix64(rng.next())
    g.seed = rng.next()
    g._events = EventLog()                 # the events name cards the player never saw
    g.record = ChunkedList([""] * len(game.record))    # the view shows how many commands were played, not which
    g.aliases = {}
    g.earlier_numbers = {}
    d = g.pending
    if d.player >= 0 and d.player != player:
        # the opponent's own prompt may name its hidden cards: keep the decision, not the words; and of
        # the cards it may use (a Nullify in the hand, a card a permission lets it play from the hand)
        # only those the player can see — which hidden ones could be used is the opponent's to know
        # (rules.md §7a), so in the sample a hidden one can't be
        ch = g.choice
        if ch is not None and ch.player == d.player and ch.kind == "permit":
            g.choice = replace(ch, values=tuple(c for c in ch.values if g.visible_to(c, player)))
            shown = len(g.choice.values)
        else:
            shown = len(d.options)
        g.pending = replace(d, prompt=f"waiting for p{d.player + 1}", options=tuple("?" for _ in range(shown)),
                            eligible=tuple(c for c in d.eligible if g.visible_to(c, player)))
    # (who is asked about an Interrupt is decided on public facts, so the sample keeps the real queue)
    return g


# ---------------------------------------------------------------- cheap, sampled decisions


def random_attack(game: Game, rng: SplitMix64) -> Attack:
    """A uniformly random legal attack declaration (each eligible unit attacks with probability 1/2)."""
    p = game.current_player()
    eligible = [u for u in game.players[p].units() if legality.attack_block_reason(game, u) is None]
    return Attack(tuple(u for u in eligible if rng.below(2)))


def random_block(game: Game, rng: SplitMix64) -> Block:
    """A random legal block declaration built one pair at a time (never enumerates all assignments).

    Guard units choose first (an attacker each, or none); the other units may block only when every
    ready Guard blocks (C1K 4.2 step 3)."""
    dp = 1 - game.active
    ready = [u for u in game.players[dp].units() if not game.perms[u].exhausted]
    guards = [u for u in ready if game.keyword(u, "guard") is not None]
    others = [u for u in ready if game.keyword(u, "guard") is None]
    attackers = [a for a in game.attackers if game.is_unit_in_play(a)]
    used: set[int] = set()
    pairs: list[tuple[int, int]] = []

    def pick(b: int, allow_none: bool) -> None:
        opts = [a for a in attackers if a not in used and legality.can_block(game, b, a) is None]
        n = len(opts) + (1 if allow_none else 0)
        if n == 0:
            return
        k = rng.below(n)
        if k < len(opts):
            used.add(opts[k])
            pairs.append((b, opts[k]))

    for b in guards:
        pick(b, True)
    if len([b for b, _ in pairs]) == len(guards):
        for b in others:
            pick(b, True)
    return Block(tuple(sorted(pairs)))


def random_action(game: Game, rng: SplitMix64) -> Action:
    """A random legal action for whoever decides; attacks and blocks are sampled, not enumerated."""
    kind = game.pending.kind
    if kind == "attackers":
        return random_attack(game, rng)
    if kind == "blockers":
        return random_block(game, rng)
    acts = game.legal_actions()
    return acts[rng.below(len(acts))]


def passive_policy(game: Game) -> Action:
    """Both players pass: pass priority, decline, attack with nothing, block nothing, first choice."""
    kind = game.pending.kind
    if kind == "priority":
        return Pass()
    if kind == "attackers":
        return Attack(())
    if kind == "blockers":
        return Block(())
    if kind == "interrupt" or game.pending.can_decline:
        return Decline()
    acts = game.legal_actions()
    return acts[0] if acts else Choose((1,))


# ---------------------------------------------------------------- "what is the state after this phase?"


def play_to_phase_end(game: Game, policy: Policy, max_actions: int = 2000) -> None:
    """Apply `policy` for whoever decides until the phase (or turn) changes or the match ends."""
    turn, phase = game.turn, phase_of(game.win)
    for _ in range(max_actions):
        if game.is_terminal() or game.turn != turn or phase_of(game.win) != phase:
            return
        game.apply(policy(game))


def forecast(game: Game, player: int, policy: Policy = passive_policy, samples: int = 8,
             seed: int = 0) -> list[PlayerView]:
    """rules.md §2 "AI queries": from `player`'s view, the views that player would have at the end of
    the current phase, played forward on `samples` determinizations under `policy` (for both players).

    Depends only on the player's view and `seed`, never on hidden cards (tests/test_ai.py)."""
    info = InfoSet(game, player)
    out = []
    for i in range(samples):
        g = info.sample(derive_seed(seed, i))
        play_to_phase_end(g, policy)
        out.append(observe(g, player))
    return out


__all__ = [
    "Deal", "InfoSet", "Policy", "deal_plan", "determinize", "forecast", "mix", "observe", "passive_policy", "play_to_phase_end",
    "random_action", "random_attack", "random_block", "view_digest",
]
