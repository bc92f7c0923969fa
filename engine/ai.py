"""Agents that play from one player's information set (rules.md §7a): never the engine's internals,
never the opponent's hidden cards.

Every agent implements `act(info) -> Action`, where `info` is an `engine.sampling.InfoSet`: the
player's view plus `sample(seed)`, a complete game consistent with that view. Whatever an agent
simulates, it simulates on samples, so it can't read a card the player may not see.

Decisions are seeded: the randomness of one decision comes from `mix(agent seed, digest of the view)`,
so the same view and the same agent seed give the same decision, whatever came before.

- `random`: a uniformly random legal action (attacks and blocks sampled pair by pair).
- `greedy`: one-ply lookahead: each candidate action is applied on a sample, the rest of the phase is
  played out by a fixed reply policy, and the result is scored by `evaluate()`.
- `search` (levels 1–4): Information-Set MCTS (Cowling, Powley & Whitehouse 2012, single observer):
  each iteration deals a new determinization, walks a tree of action keys shared by all of them (UCB1
  over the actions available in that sample), then plays a rollout cut at a horizon and scored by
  `evaluate()`. Budget: iterations per level, optionally a time budget with a clock given by the
  caller (the engine itself never reads the clock).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from engine import legality
from engine.actions import Action, Activate, Attack, Block, Decline, Interrupt, Pass, Play, SetCard
from engine.cards import NEVER, Activation, CardDef, Effect
from engine.game import Game
from engine.rng import SplitMix64, derive_seed
from engine.sampling import InfoSet, mix, random_action, random_attack, random_block
from engine.state import DECLARE_ATTACKERS, DECLARE_BLOCKERS, END_FINAL, HAND, INFLUENCE_GAIN, MAIN, phase_of

# ---------------------------------------------------------------- evaluation
#
# Decisions use integers only (no floats, no libm): the same view and agent seed give the same
# decision on any machine and any Python. Scores are in tenths of an evaluation point; the search's
# rewards are fixed-point fractions of REWARD (1.0 = a win for the node's mover).

WIN_SCORE = 10_000     # a won game, in tenths of a point
SQUASH = 120           # evaluation tenths for tanh's unit: a unit on the board is worth 5–15 points
REWARD = 1 << 16       # a reward of 1.0 in the search's fixed point


def _stats_value(power: int, health: int, keywords: int) -> int:
    """A unit's worth in tenths: 1 + 1.4 × power + health + 0.5 per keyword (0 at no health)."""
    if health <= 0:
        return 0
    return 10 + 14 * max(0, power) + 10 * health + 5 * keywords


def unit_value(g: Game, u: int) -> int:
    """A unit's worth in tenths, by its stats now (`_stats_value`)."""
    return _stats_value(g.power(u), g.health(u), len(g.card(u).keywords))


def life_value(life: int) -> int:
    """Life counts more as it runs out (tenths)."""
    return 15 * life + 10 * max(0, 10 - life) + 20 * max(0, 5 - life)


def lasting_unit_value(g: Game, u: int) -> int:
    """`unit_value` by the stats that outlast this turn: a "this turn" buff (a combat trick) is worth
    nothing once its combat is over, and a unit that lives only by one is worth nothing."""
    perm = g.perms[u]
    return _stats_value(g.power(u) - perm.temp_power, g.health(u) - perm.temp_health, len(g.card(u).keywords))


#: what a Fast card kept in hand is worth beyond any card (tenths), while the Influence to use it lasts into
#: the opponent's windows still to come: the option of answering at instant speed (issue #20 item 7)
FAST_HELD = 10


# ---- combat tricks (issue #29 item 6)
#
# A player who holds a combat trick keeps its Influence open when the opponent's likely attack meets a block
# the trick turns into a won fight. `trick_shifts` reads what a Fast card does to a fight from its effects
# (`act_shifts`: a Fast activated ability; `held_tricks`: both, as held); `trick_turns` finds the fights it
# turns on the board; `held_fast_value` (and so `evaluate`) values holding
# it, `heuristic_block` blocks where it wins, and the rollouts keep the Influence for it.

#: (my unit's power, my unit's health, the enemy unit's power, the enemy unit's health) a trick changes
Shift = tuple[int, int, int, int]

_FRIENDLY_ONE = ("friendly_unit", "all_friendly_units")
_ENEMY_ONE = ("enemy_unit", "all_enemy_units")
#: what a Barrier (it prevents the next damage to the unit) adds to my unit's health in one fight: the one
#: hit it takes deals nothing
BARRIER = 1000


def _effects_shift(effects: Sequence[Effect]) -> Shift:
    """What `effects` do to one fight between my unit and an enemy unit (their sum): a buff or a debuff of
    a unit (an "any unit" buff goes to my side if it helps, to theirs if it hurts), damage to an enemy unit
    (not damage to every unit: it hits the blocker too), a Barrier for my unit (`BARRIER`: the fight's one hit
    does nothing). My unit's health counts only from a lasting buff: damage stays, so a unit that lives
    through combat by "+0/+2 this turn" dies when the turn ends."""
    mp = mh = ep = eh = 0
    for e in effects:
        t = e.target
        if e.do == "grant" and e.status == "barrier" and t in (*_FRIENDLY_ONE, "unit"):
            mh += BARRIER
        elif e.do == "buff":
            if t in _FRIENDLY_ONE or (t == "unit" and e.power + e.health > 0):
                mp += e.power
                mh += e.health if e.until != "end_of_turn" else 0
            elif t in _ENEMY_ONE or (t == "unit" and e.power + e.health < 0):
                ep, eh = ep + e.power, eh + e.health
        elif e.do == "damage" and t in ("unit", "enemy_unit", "all_enemy_units"):
            eh -= e.amount
    return mp, mh, ep, eh


#: id(definition) -> (the definition, its shifts): worked out once a definition (`is` guards a reused id)
_SHIFTS: dict[int, tuple[CardDef, tuple[Shift, ...]]] = {}


def trick_shifts(d: CardDef) -> tuple[Shift, ...]:
    """How a play of `d` can change a fight (one shift per Thread branch, else one), leaving out the ones
    that change nothing; () for a card that is no combat trick."""
    hit = _SHIFTS.get(id(d))
    if hit is not None and hit[0] is d:
        return hit[1]
    out: tuple[Shift, ...] = ()
    if d.type == "action" and d.playable and d.least_fast_cost < NEVER:
        options = [list(b) for e in d.effect if e.do == "thread" for b in (e.branches or ())] or [list(d.effect)]
        out = tuple(sh for sh in (_effects_shift(o) for o in options) if sh != (0, 0, 0, 0))
    _SHIFTS[id(d)] = (d, out)
    return out


#: id(definition) -> (the definition, (activation, ability index, its shifts) of each Fast activated ability
#: that is a combat trick)
_ACT_SHIFTS: dict[int, tuple[CardDef, tuple[tuple[Activation, int, tuple[Shift, ...]], ...]]] = {}


def act_shifts(d: CardDef) -> tuple[tuple[Activation, int, tuple[Shift, ...]], ...]:
    """(activation, ability index, shifts) of each Fast activated ability of `d` that can change a fight
    (Aldric Stonevow's Barrier, say): `trick_shifts` of an ability rather than a card."""
    if not d.acts:
        return ()
    hit = _ACT_SHIFTS.get(id(d))
    if hit is not None and hit[0] is d:
        return hit[1]
    out = []
    for _, idx, *_ in d.acts:
        act = d.abilities[idx].activate
        if act is None or act.speed == "slow" or act.timing is not None:
            continue
        sh = _effects_shift(d.abilities[idx].effect)
        if sh != (0, 0, 0, 0):
            out.append((act, idx, (sh,)))
    _ACT_SHIFTS[id(d)] = (d, tuple(out))
    return _ACT_SHIFTS[id(d)][1]


def held_tricks(g: Game, p: int) -> list[tuple[int, tuple[Shift, ...]]]:
    """(cost, shifts) of each combat trick `p` holds for the opponent's combat: a Fast card in hand or Set
    (`trick_shifts`), then a Fast activated ability of its cards in play (`act_shifts`) it may use there —
    not Suppressed, not exhausted for an Exhaust cost, and, in the opponent's turn, not used this turn once
    per turn (in its own turn such a use is counted for this turn, not the opponent's)."""
    ps = g.players[p]
    out: list[tuple[int, tuple[Shift, ...]]] = []
    for c in (*ps.hand, *ps.set_cards):
        d = g.card(c)
        sh = trick_shifts(d)
        if sh:
            out.append((d.least_fast_cost, sh))
    for c in (ps.champion, ps.seat, *ps.relics, *ps.board):
        if not c:
            continue
        d = g.card(c)
        if not d.acts:
            continue
        for act, idx, sh in act_shifts(d):
            perm = g.perms[c]
            if perm.has_status("suppressed") or (act.exhaust and perm.exhausted) \
                    or (act.once_per_turn and g.active != p and perm.used.get(idx) == g.turn):
                continue
            out.append((act.cost, sh))
    return out


def _wins(pb: int, hb: int, pa: int, ha: int) -> bool:
    """A blocker of `pb`/`hb` against an attacker of `pa`/`ha`: the attacker dies and the blocker lives."""
    return ha <= 0 or (pb >= ha and hb > max(0, pa))


def _guards_first(g: Game, ready: list[int]) -> list[int]:
    """Of `ready` (units free to block), the ones that may block one more attacker: the Guard units while
    one is free (KW Guard: no other unit blocks while a Guard unit is ready and not blocking)."""
    guards = [b for b in ready if g.keyword(b, "guard") is not None]
    return guards or ready


def _attack_ahead(g: Game, p: int) -> Sequence[int]:
    """The enemy units that may attack `p` before `p` next declares blockers: all of them in `p`'s turn and
    in the opponent's before its attack; its attackers once declared; none once blockers are declared."""
    if g.active == p or g.win < DECLARE_ATTACKERS or (g.win == DECLARE_ATTACKERS and g.pending.kind == "attackers"):
        return g.players[1 - p].units()
    if g.win == DECLARE_ATTACKERS:
        return [a for a in g.attackers if g.is_unit_in_play(a)]
    return ()


def trick_turns(g: Game, p: int, shifts: Sequence[Shift]) -> tuple[int, int, int] | None:
    """The best fight a trick (`shifts`, its options) of `p`'s turns in the opponent's next attack, as
    (the attacker's worth in tenths, blocker, attacker), or None. A fight is an enemy unit that would attack
    (no ready unit of `p` blocks and kills it while living, as `heuristic_attack` reasons) and a ready unit of
    `p` that can block it, which with the trick kills it and lives. Stats as they are now; keywords aside."""
    if not shifts:
        return None
    mine = _guards_first(g, [b for b in g.players[p].units() if not g.perms[b].exhausted])
    if not mine:
        return None
    best: tuple[int, int, int] | None = None
    for a in _attack_ahead(g, p):
        perm = g.perms[a]
        pa, ha = g.power(a), g.health(a)
        if pa <= 0 or perm.has_status("rooted") or perm.has_status("suppressed"):
            continue
        veiled = perm.has_status("veiled")
        blockers = [b for b in mine if not veiled or g.perms[b].has_status("veiled")]
        if not blockers or any(_wins(g.power(b), g.health(b), pa, ha) for b in blockers):
            continue                     # it would not attack into these blockers, or needs no trick
        for b in blockers:
            pb, hb = g.power(b), g.health(b)
            if any(_wins(pb + s[0], hb + s[1], pa + s[2], ha + s[3]) for s in shifts):
                v = unit_value(g, a)
                if best is None or v > best[0]:
                    best = (v, b, a)
                break
    return best


def held_trick(g: Game, p: int, influence: int) -> tuple[int, int]:
    """(worth, cost) of the best combat trick `p` holds (`held_tricks`: in hand or Set, or an activated
    ability) that `influence` pays for and that turns a fight in the opponent's next attack (`trick_turns`):
    half the attacker's worth (the attack may not come); (0, 0) when there is none."""
    best = (0, 0)
    for cost, shifts in held_tricks(g, p):
        if cost > influence:
            continue
        turned = trick_turns(g, p, shifts)
        if turned is not None and (turned[0] // 2, -cost) > (best[0], -best[1]):
            best = (turned[0] // 2, cost)
    return best


def held_fast_value(g: Game, p: int) -> int:
    """FAST_HELD for each Fast card `p` holds (in hand or Set) that its Influence now could still pay for
    in the opponent's windows ahead (the cheapest first, each paid from what is left), else 0; and, until
    the opponent's blockers are declared, what the best combat trick it can pay for would win in the
    opponent's attack (`held_trick`). The pool lasts until `p`'s own next Influence gain: in `p`'s turn after the gain, and in
    the opponent's turn before its final window."""
    if g.active == p:
        if g.win <= INFLUENCE_GAIN:
            return 0
    elif g.win >= END_FINAL:
        return 0
    ps = g.players[p]
    left = ps.influence
    if left <= 0:
        return 0
    costs = sorted(g.card(c).least_fast_cost for c in (*ps.hand, *ps.set_cards))
    if not costs or costs[0] > left:
        return 0
    v = 0
    for c in costs:
        if c > left:
            break
        left -= c
        v += FAST_HELD
    v += held_trick(g, p, ps.influence)[0]
    return v


def evaluate(g: Game, player: int) -> int:
    """A heuristic score (tenths of a point) of a (sampled) game for `player`: life, board (by lasting
    stats), relics, cards (a Fast one with the Influence to answer in the opponent's turn counts more) and
    influence."""
    if g.outcome is not None:
        w = g.outcome.winner
        return 0 if w is None else (WIN_SCORE if w == player else -WIN_SCORE)
    score = 0
    for p, sign in ((player, 1), (1 - player, -1)):
        ps = g.players[p]
        s = life_value(ps.life)
        for u in ps.board:
            if u:
                s += lasting_unit_value(g, u)
        for r in ps.relics:
            if r:
                s += 10 + 10 * g.card(r).cost
        s += 20 * len(ps.hand) + 20 * len(ps.set_cards) + 6 * ps.capacity
        s += min(len(ps.library), 10)
        s += held_fast_value(g, p)
        score += sign * s
    return score


def squash(x: int) -> int:
    """A score mapped to [0, REWARD] for the search's averages: REWARD × (1 + tanh(x / SQUASH)) / 2,
    with tanh(t) taken as its Padé form t(27 + t²) / (27 + 9t²) — exact in integers, increasing, and
    equal to ±1 with a flat tangent at t = ±3, where it is clamped (tanh(3) = 0.995)."""
    if x >= 3 * SQUASH:
        return REWARD
    if x <= -3 * SQUASH:
        return 0
    k2 = 27 * SQUASH * SQUASH
    num = x * (k2 + x * x)
    den = SQUASH * (k2 + 9 * x * x)
    return REWARD * (den + num) // (2 * den)


_LOG2: dict[int, int] = {}
_LN2_Q32 = 2977044472          # round(ln 2 × 2^32)


def log2_q32(n: int) -> int:
    """log2(n) for an integer n ≥ 1 in fixed point (× 2^32, rounded down), by repeated squaring."""
    v = _LOG2.get(n)
    if v is None:
        ip = n.bit_length() - 1
        prec = 64
        x = (n << prec) >> ip                     # n / 2^ip in [1, 2), × 2^prec
        frac = 0
        for _ in range(32):
            x = (x * x) >> prec
            frac <<= 1
            if x >= 2 << prec:
                x >>= 1
                frac |= 1
        v = (ip << 32) | frac
        _LOG2[n] = v
    return v


def ucb_q32(w: int, n: int, avail: int) -> int:
    """UCB1 with availability counts, × 2^32: w/n + UCB_C × sqrt(ln(avail) / n), w in REWARD units."""
    exploit = (w << 32) // (n * REWARD)
    ln_q32 = (log2_q32(max(1, avail)) * _LN2_Q32) >> 32
    explore = math.isqrt((ln_q32 << 32) // n) * UCB_C_NUM // UCB_C_DEN
    return exploit + explore


# ---------------------------------------------------------------- heuristic decisions (used in lookahead)


def heuristic_attack(g: Game) -> Attack:
    """Attack with each eligible unit that no ready enemy unit can block and kill while surviving."""
    p = g.current_player()
    dp = 1 - p
    enemies = [b for b in g.players[dp].units() if not g.perms[b].exhausted]
    out = []
    for u in g.players[p].units():
        if legality.attack_block_reason(g, u) is not None or g.power(u) <= 0:
            continue
        hp, pw = g.health(u), g.power(u)
        if any(g.power(b) >= hp and g.health(b) > pw for b in enemies):
            continue
        out.append(u)
    return Attack(tuple(out))


def heuristic_block(g: Game) -> Block:
    """Block where the blocker survives or trades evenly; chump-block only when the damage would kill."""
    dp = 1 - g.active
    attackers = sorted((a for a in g.attackers if g.is_unit_in_play(a)), key=lambda a: -g.power(a))
    free = [b for b in g.players[dp].units() if not g.perms[b].exhausted]
    pairs: list[tuple[int, int]] = []
    unblocked = 0
    for a in attackers:
        pa, ha = g.power(a), g.health(a)
        opts = [b for b in free if legality.can_block(g, b, a) is None]
        good = [b for b in opts if g.health(b) > pa]                        # survives
        trade = [b for b in opts if g.power(b) >= ha and unit_value(g, b) <= unit_value(g, a) + 10]
        pick = min(good, key=lambda b: unit_value(g, b)) if good else \
            (min(trade, key=lambda b: unit_value(g, b)) if trade else None)
        if pick is None:
            unblocked += pa
            continue
        pairs.append((pick, a))
        free.remove(pick)
    blocked = {a for _, a in pairs}
    if len(blocked) < len(attackers) and free:
        # a block a combat trick it holds turns into a won fight (issue #29 item 6): a block for each trick its
        # Influence pays for (the cheapest first), on the dearest attacker it turns
        left = g.players[dp].influence
        for cost, shifts in sorted(held_tricks(g, dp), key=lambda t: t[0]):
            if cost > left:
                break
            fight = _trick_block(g, shifts, [a for a in attackers if a not in blocked], _guards_first(g, free))
            if fight is not None:
                b, a = fight
                pairs.append((b, a))
                free.remove(b)
                blocked.add(a)
                unblocked -= g.power(a)
                left -= cost
    if unblocked >= g.players[dp].life:
        for a in attackers:
            if any(x == a for _, x in pairs):
                continue
            opts = [b for b in free if legality.can_block(g, b, a) is None]
            if opts:
                b = min(opts, key=lambda b: unit_value(g, b))
                pairs.append((b, a))
                free.remove(b)
    blk = Block(tuple(sorted(pairs)))
    if legality.block_refusal(g, blk, dp) is None:
        return blk
    # Guard: units with Guard must block first — keep only the Guard units' blocks, or none
    guards = Block(tuple(pr for pr in blk.pairs if g.keyword(pr[0], "guard") is not None))
    if legality.block_refusal(g, guards, dp) is None:
        return guards
    return Block(())


def _trick_block(g: Game, shifts: Sequence[Shift], attackers: Sequence[int], free: Sequence[int]) -> tuple[int, int] | None:
    """(blocker, attacker): the dearest of `attackers` that one of `free` can block and, with a trick of
    `shifts`, kill while living (the blocker: the least worth of those), or None."""
    for a in attackers:                  # (dearest first: `heuristic_block` sorts them by power)
        pa, ha = g.power(a), g.health(a)
        opts = [b for b in free if legality.can_block(g, b, a) is None
                and any(_wins(g.power(b) + s[0], g.health(b) + s[1], pa + s[2], ha + s[3]) for s in shifts)]
        if opts:
            return min(opts, key=lambda b: unit_value(g, b)), a
    return None


def reply_policy(rng: SplitMix64) -> Callable[[Game], Action]:
    """The fixed policy of greedy's lookahead: pass, decline, heuristic attacks and blocks, random choices."""
    def pol(g: Game) -> Action:
        kind = g.pending.kind
        if kind == "priority":
            return Pass()
        if kind == "attackers":
            return heuristic_attack(g)
        if kind == "blockers":
            return heuristic_block(g)
        if kind == "interrupt":
            return Decline()
        return random_action(g, rng)
    return pol


def rollout_policy(rng: SplitMix64) -> Callable[[Game], Action]:
    """The search's rollout policy (greedy-lite): in its own Main Phase a player deploys the dearest Unit
    or Relic it can, now and then plays something else; once blockers are declared in a blocked fight,
    either player casts its best combat trick (`_best_trick`, over the Fast plays that name a unit in the
    fight or nothing); a random Fast play one time in eight before its own Main Phase and at the end of the
    opponent's turn, and elsewhere a pass, so a Fast card is kept for combat rather than spent at random
    (issue #29 item 6: holding Influence for a trick is worth what the trick does in the rollouts);
    heuristic attacks and blocks (now and then random ones); random choices."""
    def pol(g: Game) -> Action:
        kind = g.pending.kind
        if kind == "attackers":
            return heuristic_attack(g) if rng.below(8) else random_attack(g, rng)
        if kind == "blockers":
            return heuristic_block(g) if rng.below(8) else random_block(g, rng)
        acts = g.legal_actions()
        if kind == "priority" and len(acts) > 1:
            if g.win == DECLARE_BLOCKERS and g.blocks and not g.stack:    # a combat trick in a blocked fight
                fighting = {u for pair in g.blocks for u in pair}
                tricks = [a for a in acts if isinstance(a, Play | Activate) and (not a.targets or fighting & set(a.targets))]
                return _best_trick(g, g.current_player(), tricks, rng)
            if g.win == MAIN and not g.stack and g.pending.player == g.active:   # its own Main Phase
                deploy = [a for a in acts if isinstance(a, Play) and g.card(a.card).type in ("unit", "relic")]
                if deploy and rng.below(8):
                    deploy = _keeping_trick(g, g.active, deploy)
                    if not deploy:
                        return acts[0]          # the Influence is kept for a combat trick
                    top = max(g.card(a.card).cost for a in deploy)
                    best = [a for a in deploy if g.card(a.card).cost == top]
                    return best[rng.below(len(best))]
                return acts[1 + rng.below(len(acts) - 1)] if rng.below(4) == 0 else acts[0]
            if (g.win < MAIN and g.pending.player == g.active) or (g.win == END_FINAL and g.pending.player != g.active):
                # a random Fast play one time in eight before one's own Main Phase (as good as one in it) and
                # at the end of the opponent's turn (the Influence would refill unused); never elsewhere
                return acts[1 + rng.below(len(acts) - 1)] if rng.below(8) == 0 else acts[0]
            return acts[0]
        if kind == "interrupt" and rng.below(2):
            return acts[0]
        return acts[rng.below(len(acts))]
    return pol


def _keeping_trick(g: Game, p: int, deploy: list[Play]) -> list[Play]:
    """Of `deploy` (plays of units and relics), those that leave `p` the Influence for the combat trick it
    holds for the opponent's next attack (`held_trick`) — or are worth more on the board than the trick
    would win; all of them when it holds none."""
    left = g.players[p].influence
    worth, cost = held_trick(g, p, left)
    if not worth:
        return deploy
    keep: list[Play] = []
    for a in deploy:
        d = g.card(a.card)
        gain = _stats_value(d.power, d.health, len(d.keywords)) if d.type == "unit" else 10 + 10 * d.cost
        if d.least_cost <= left - cost or gain - 20 > worth:
            keep.append(a)
    return keep


def candidates(g: Game, rng: SplitMix64, extra: int = 3) -> list[Action]:
    """The actions a lookahead considers: all legal ones, except attacks and blocks, which are the
    empty declaration, the heuristic one, all-out (attacks) and `extra` sampled ones (deduplicated)."""
    kind = g.pending.kind
    if kind == "attackers":
        p = g.current_player()
        eligible = tuple(u for u in g.players[p].units() if legality.attack_block_reason(g, u) is None)
        pool: list[Action] = [Attack(()), heuristic_attack(g), Attack(eligible)]
        pool += [random_attack(g, rng) for _ in range(extra)]
    elif kind == "blockers":
        pool = [Block(()), heuristic_block(g)]
        pool += [random_block(g, rng) for _ in range(extra)]
    else:
        return g.legal_actions()
    out: list[Action] = []
    for a in pool:
        if a not in out:
            out.append(a)
    return out


# ---------------------------------------------------------------- agents


class Agent(Protocol):
    name: str

    def act(self, info: InfoSet) -> Action: ...


@dataclass
class RandomAgent:
    seed: int = 0
    name: str = "random"

    def act(self, info: InfoSet) -> Action:
        return info.random_action(SplitMix64(mix(self.seed, info.quick_key)))


def _play_out_phase(g: Game, policy: Callable[[Game], Action], limit: int = 400, turn_of: int | None = None) -> None:
    """Play `policy` to the end of the phase `g` is in — or nothing at all when `g` is no longer in turn
    `turn_of` (the turn a decision was made in): a pass that ended the turn is scored where it left the
    game, as the other candidates are at the end of that turn, not after the next turn's first phase."""
    if turn_of is not None and g.turn != turn_of:
        return
    turn, phase = g.turn, phase_of(g.win)
    for _ in range(limit):
        if g.is_terminal() or g.turn != turn or phase_of(g.win) != phase:
            return
        g.apply(policy(g))


def _order_key(a: Action) -> tuple[int, str]:
    # ties go to doing something over passing (a fixed, view-independent order)
    return (0 if isinstance(a, Pass | Decline) else 1, str(a))


def _combat_trick_policy(me: int, rng: SplitMix64) -> Callable[[Game], Action]:
    """Greedy's play-out policy: `reply_policy`, except that once blockers are declared `me` looks one ply
    ahead over its Fast plays (a combat trick: pump a blocker, finish an attacker), as greedy itself would
    there — so a block or an attack is scored with the trick that goes with it."""
    base = reply_policy(rng)

    def pol(g: Game) -> Action:
        if g.win == DECLARE_BLOCKERS and g.pending.kind == "priority" and not g.stack and g.current_player() == me:
            return _best_trick(g, me, g.legal_actions(), rng)
        return base(g)
    return pol


def _best_trick(g: Game, me: int, acts: Sequence[Action], rng: SplitMix64) -> Action:
    """After blockers, on an empty stack: `me`'s best of passing and each of its Fast plays in `acts`, one
    ply deep (each applied, the phase played out by `reply_policy` — combat damage dealt — and scored by
    `evaluate()`; ties keep the earlier, passing first). Greedy's play-out and the search's rollouts use it,
    so a block — or keeping the Influence for one in the opponent's turn — is scored with its trick."""
    plays = [a for a in acts if isinstance(a, Play | Activate)]
    best: Action = Pass()
    if not plays:
        return best
    best_score: int | None = None
    for a in [best, *plays]:
        h = g.clone()
        h.apply(a, me)
        _play_out_phase(h, reply_policy(SplitMix64(rng.next())), turn_of=g.turn)
        score = evaluate(h, me)
        if best_score is None or score > best_score:
            best, best_score = a, score
    return best


@dataclass
class GreedyAgent:
    """One-ply lookahead: each candidate is applied on `samples` determinizations, the phase is played
    out by `reply_policy`, and the action with the best mean `evaluate()` is chosen."""

    seed: int = 0
    samples: int = 1
    name: str = "greedy"

    def act(self, info: InfoSet) -> Action:
        s = mix(self.seed, info.key)
        rng = SplitMix64(s)
        games = [info.sample(derive_seed(s, i)) for i in range(self.samples)]
        acts = candidates(games[0], rng)
        if len(acts) == 1:
            return acts[0]
        me = info.player
        best: Action = acts[0]
        best_score: int | None = None
        for a in sorted(acts, key=_order_key):
            score = 0                     # the sum over the samples (their number is the same for all)
            for g0 in games:
                g = g0.clone()
                g.apply(a, me)
                _play_out_phase(g, _combat_trick_policy(me, SplitMix64(rng.next())), turn_of=g0.turn)
                score += evaluate(g, me)
            if best_score is None or score > best_score or (score == best_score and _prefer(a, best)):
                best, best_score = a, score
        return best


def _prefer(a: Action, b: Action) -> bool:
    """On equal scores: act rather than pass (otherwise the first in the fixed order stays)."""
    return isinstance(b, Pass | Decline) and not isinstance(a, Pass | Decline)


# ---- Information-Set MCTS


@dataclass
class Node:
    mover: int                       # the player whose action led to this node (-1: the root)
    n: int = 0                       # visits
    w: int = 0                       # total reward (REWARD = 1.0), from the mover's point of view
    avail: int = 0                   # times this node's action was available (ISMCTS availability count)
    children: dict[str, Node] = field(default_factory=dict)


#: level -> (iterations, rollout horizon in turns beyond the current one, tree depth)
LEVELS: dict[int, tuple[int, int, int]] = {1: (12, 1, 6), 2: (120, 1, 8), 3: (400, 1, 10), 4: (1200, 1, 12)}
#: level -> the rollouts of sequential halving (`halving:LEVEL`, and what `search:LEVEL` plays since issue
#: #29), each to the end of the next turn. With a dozen rollouts a tree learns little beyond its prior,
#: while halving compares the root actions on the same determinizations and rollouts (66% against greedy
#: where ISMCTS made 54% at level 1's budget; ISMCTS with 120 iterations made 42% against it, 12 deals).
HALVING_LEVELS: dict[int, int] = {1: 12, 2: 48, 3: 160, 4: 480}
DEFAULT_LEVEL = 2
UCB_C_NUM, UCB_C_DEN = 1, 4          # UCB1's exploration constant, 0.25
PRIOR_VISITS = 4


@dataclass
class SearchAgent:
    seed: int = 0
    level: int = DEFAULT_LEVEL
    iterations: int = 0              # 0: the level's number
    time_budget: float = 0.0         # seconds; used only with a clock
    clock: Callable[[], float] | None = None
    name: str = "search"
    mode: str = "ismcts"             # ismcts | halving

    def budget(self) -> tuple[int, int, int]:
        its, horizon, depth = LEVELS[self.level]
        if self.mode == "halving":
            its = HALVING_LEVELS[self.level]
        return (self.iterations or its), horizon, depth

    def act(self, info: InfoSet) -> Action:
        return choose(*self.search(info, decided_stop=not (self.clock and self.time_budget)))

    def search(self, info: InfoSet, decided_stop: bool = False) -> tuple[Node | None, dict[str, Action]]:
        """The search tree's root and the root actions by key; the root is None when there is one
        candidate or in `halving` mode (then the one action returned is the decision).

        `decided_stop` (what `act` uses): stop the iterations once the most visited root action can no
        longer be overtaken by the iterations left (`_decided`); `act` then returns what the full
        budget would have returned, and the root's counts are those of the iterations played."""
        forced = info.forced_action()
        if forced is not None:            # one legal action: no view digest, no sample (the same answer)
            return None, {str(forced): forced}
        # the decision's randomness: from a digest of the view's public counts and the player's own cards
        # (`quick_key`: a function of the view, as `key` is, at a fraction of the cost of hashing it all)
        s = mix(self.seed, info.quick_key)
        rng = SplitMix64(s)
        me = info.player
        g0 = info.sample(derive_seed(s, 0))
        root_acts = candidates(g0, SplitMix64(s ^ 0xA77AC4))
        if len(root_acts) == 1:
            return None, {str(root_acts[0]): root_acts[0]}
        root_keys = {str(a): a for a in root_acts}
        iterations, horizon, depth = self.budget()
        if self.mode == "halving":
            a = self._halving(info, s, me, root_acts, iterations, horizon)
            return None, {str(a): a}
        root = Node(-1)
        # progressive prior: greedy's one-ply score of each root action counts as PRIOR_VISITS visits
        prng = SplitMix64(s ^ 0x9E1)
        for a in root_acts:
            g = g0.clone()
            g.apply(a, me)
            _play_out_phase(g, reply_policy(SplitMix64(prng.next())))
            root.children[str(a)] = Node(me, n=PRIOR_VISITS, w=PRIOR_VISITS * squash(evaluate(g, me)),
                                         avail=PRIOR_VISITS)
        start = self.clock() if self.clock and self.time_budget else 0.0
        for it in range(iterations):
            if self.clock and self.time_budget and it and self.clock() - start > self.time_budget:
                break
            if decided_stop and _decided(root, iterations - it):
                break
            g = info.sample(derive_seed(s, it + 1)) if it else g0.clone()
            self._iterate(g, root, rng, me, horizon, depth, s, root_acts)
        return root, root_keys

    def _iterate(self, g: Game, root: Node, rng: SplitMix64, me: int, horizon: int, depth: int,
                 s: int, root_acts: list[Action]) -> None:
        node = root
        path = [root]
        end_turn = g.turn + horizon
        d = 0
        acts: list[Action] = root_acts
        while not g.is_terminal() and d < depth:
            p = g.current_player()
            if d:
                # (the generator only for sampled declarations: `candidates` lists the rest as they are)
                acts = candidates(g, SplitMix64(mix(s, g.turn * 64 + g.win))) \
                    if g.pending.kind in ("attackers", "blockers") else g.legal_actions()
            if len(acts) == 1:            # forced: no tree node
                g.apply(acts[0])
                continue
            d += 1
            keyed = {str(a): a for a in acts}
            untried = [k for k in keyed if k not in node.children]
            for k in keyed:
                ch = node.children.get(k)
                if ch is not None:
                    ch.avail += 1
            if untried:
                k = untried[rng.below(len(untried))]
                child = Node(p, avail=1)
                node.children[k] = child
                g.apply(keyed[k])
                node = child
                path.append(node)
                break
            best_k, best_v = "", -1
            for k in keyed:
                ch = node.children[k]
                v = ucb_q32(ch.w, ch.n, ch.avail)
                if v > best_v:
                    best_k, best_v = k, v
            g.apply(keyed[best_k])
            node = node.children[best_k]
            path.append(node)
        _rollout(g, rng, end_turn, horizon)
        r = squash(evaluate(g, me))
        for nd in path:
            nd.n += 1
            nd.w += r if nd.mover == me else REWARD - r


    def _halving(self, info: InfoSet, s: int, me: int, acts: list[Action], budget: int, horizon: int) -> Action:
        """Sequential halving over the root actions with common random numbers: in each round every
        surviving action is played on the same determinizations with the same rollout seeds (paired
        comparisons), and the better half survives."""
        survivors = sorted(acts, key=_order_key)
        total = {str(a): 0 for a in acts}
        count = {str(a): 0 for a in acts}
        rounds = max(1, (len(survivors) - 1).bit_length())          # ceil(log2(actions))
        k = 0
        while len(survivors) > 1:
            per = max(1, budget // (len(survivors) * rounds))
            for _ in range(per):
                k += 1
                base = info.sample(derive_seed(s, k))
                rseed = derive_seed(s ^ 0x5A5A, k)
                for a in survivors:
                    g = base.clone()
                    g.apply(a, me)
                    _rollout(g, SplitMix64(rseed), base.turn + horizon, horizon)
                    total[str(a)] += evaluate(g, me)
                    count[str(a)] += 1
            survivors.sort(key=lambda a: (-Fraction(total[str(a)], count[str(a)]), _order_key(a)))
            survivors = survivors[:max(1, (len(survivors) + 1) // 2)] if len(survivors) > 2 else survivors[:1]
        return survivors[0]


def choose(root: Node | None, root_keys: dict[str, Action]) -> Action:
    """The decision from `SearchAgent.search`'s answer: the most visited root action (ties: the best
    mean, then the fixed order); the one action when there is no root."""
    if root is None:                  # one candidate, or sequential halving
        return next(iter(root_keys.values()))
    best = max(root.children.items(),
               key=lambda kv: (kv[1].n, Fraction(kv[1].w, max(1, kv[1].n)), _order_key(root_keys[kv[0]])))
    return root_keys[best[0]]


def _decided(root: Node, left: int) -> bool:
    """Whether `left` more iterations can't change `act`'s choice: the most visited root action leads
    every other by more than `left` visits (an iteration adds one visit to one root action, so none can
    reach it, and a tie — which the mean would break — can't arise either)."""
    first = second = -1
    for ch in root.children.values():
        n = ch.n
        if n > first:
            first, second = n, first
        elif n > second:
            second = n
    return first - second > left


def _rollout(g: Game, rng: SplitMix64, end_turn: int, horizon: int, limit: int = 600) -> None:
    """Play `rollout_policy` until the horizon: the end of turn `end_turn` (horizon 0: its End Phase)."""
    pol = rollout_policy(rng)
    forced, below = g.pass_if_forced, rng.below
    for _ in range(limit):
        if g.is_terminal() or g.turn > end_turn or (horizon == 0 and g.turn == end_turn and phase_of(g.win) == "end"):
            return
        if forced():
            # Pass was all the player could do, and it is done: rollout_policy, given that one-item list,
            # would have drawn once (below(1)) and passed (tests/test_fast_forward.py holds the two equal)
            below(1)
            continue
        g.apply(pol(g))


# ---------------------------------------------------------------- names

AGENT_NAMES = ("random", "greedy", "search")


def make_agent(spec: str, seed: int = 0, clock: Callable[[], float] | None = None,
               time_budget: float = 0.0) -> Agent:
    """`random`, `greedy`, `search` or `search:LEVEL` (levels 1–4, default 2)."""
    name, _, level = spec.partition(":")
    if name == "random":
        return RandomAgent(seed)
    if name == "greedy":
        return GreedyAgent(seed)
    if name in ("search", "ismcts", "halving"):
        lv = DEFAULT_LEVEL
        if level:
            if not (level.isascii() and level.isdigit() and len(level) <= 3) or int(level) not in LEVELS:
                raise ValueError(f"unknown search level '{level}': use 1–{max(LEVELS)}")
            lv = int(level)
        return SearchAgent(seed, lv, clock=clock, time_budget=time_budget, name=f"{name}:{lv}",
                           mode="ismcts" if name == "ismcts" else "halving")
    raise ValueError(f"unknown agent '{spec}': use {', '.join(AGENT_NAMES)} (search:LEVEL for levels)")


def agent_name_ok(spec: str) -> bool:
    try:
        make_agent(spec)
    except ValueError:
        return False
    return True


def agent_policy(first: Agent, second: Agent) -> Callable[[Game], Action]:
    """A `forecast` policy from two agents: whoever decides asks their own agent, from their own
    information set (inside a sample, that is the sample as that player would see it)."""
    agents = (first, second)

    def pol(g: Game) -> Action:
        p = g.current_player()
        return agents[p].act(InfoSet.of_sample(g, p))    # g is a sample already: nothing to hide
    return pol


# ---------------------------------------------------------------- matches between agents


@dataclass
class MatchResult:
    seed: int
    winner: int | None          # 0 / 1 (seat) or None
    termination: str
    turns: int
    actions: int
    drawn: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())    # card ids each seat drew (incl. opening)
    played: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())   # card ids each seat played, Set or used from hand


def forced_action(game: Game) -> Action | None:
    """The only legal action of whoever must decide, if there is one and only one (what
    `InfoSet.forced_action` answers from their information set: legal actions depend only on what the
    deciding player may see), else None."""
    if game.is_terminal() or game.pending.kind in ("attackers", "blockers"):
        return None
    acts = game.legal_actions()
    return acts[0] if len(acts) == 1 else None


#: the agents that, given a single legal action, take it (whatever their seed): `play_match` gives it
#: to them without building their information set
_TAKE_FORCED: tuple[type, ...] = (RandomAgent, GreedyAgent, SearchAgent)


def play_match(game: Game, agents: tuple[Agent, Agent], max_actions: int = 20000,
               on_decision: Callable[[int, Action], None] | None = None) -> MatchResult:
    """Play `game` to the end, each seat's agent deciding from its own information set."""
    seen: list[dict[int, str]] = [{}, {}]
    played: list[list[str]] = [[], []]
    n = 0
    while not game.is_terminal() and n < max_actions:
        for p in (0, 1):
            for c in game.players[p].hand:
                if c not in seen[p]:
                    seen[p][c] = game.card(c).id
        p = game.current_player()
        agent = agents[p]
        a = forced_action(game) if type(agent) in _TAKE_FORCED else None
        if a is None:
            a = agent.act(InfoSet(game, p))
        if isinstance(a, Play | SetCard):
            played[p].append(game.card(a.card).id)
        elif isinstance(a, Interrupt) and game.zone[a.source] == HAND:    # a Nullify, used from the hand
            played[p].append(game.card(a.source).id)
        if on_decision is not None:
            on_decision(p, a)
        game.apply(a, p)
        n += 1
    w = game.outcome.winner if game.outcome else None
    term = game.outcome.termination.value if game.outcome else "action_limit"
    return MatchResult(game.seed, w, term, game.turn, n,
                       (tuple(sorted(seen[0].values())), tuple(sorted(seen[1].values()))),
                       (tuple(played[0]), tuple(played[1])))


__all__ = [
    "AGENT_NAMES", "Agent", "GreedyAgent", "agent_policy", "MatchResult", "RandomAgent", "SearchAgent", "candidates",
    "evaluate", "heuristic_attack", "heuristic_block", "make_agent", "play_match",
]
