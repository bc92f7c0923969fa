"""Effects: `run_effects` carries out a card's effects in order. Each effect verb of the card format
(docs/cards.md) is one function in `VERB_FUNCTIONS`, here — damage, heal, draw, discard, gain_influence, buff,
grant, suppress, destroy, return_to_hand, summon, counter, permit — or in its Realm's module, which
registers it (flux, reroll, thread: engine/paradox.py).

A verb gets the game, the effect, its resolved targets (an effect whose target word finds no legal
target does nothing) and the `Run` it belongs to (controller, source, the targets still to be used, the
stack item, the mode …). A verb that asks a player something mid-resolution (a Flux Interrupt) sets
`Run.paused`; an "instruction" permission is offered once the other effects are done.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.cards import ONE_TARGETS, Effect, check_keyword
from engine.continuations import OPEN_PRIORITY, Continuation
from engine.core import MatchState
from engine.decisions import offer_permit
from engine.pipeline import damage, destroy, heal
from engine.state import BOARD, GONE, HAND, RELICS, StackItem
from engine.targets import resolve_targets
from engine.triggers import fire
from engine.zones import counter_item, discard_random, draw, enter_play, finish_item, leave_play


class Run:
    """One `run_effects` call: whose effects, from which source, and what the verbs may use or set."""

    __slots__ = ("controller", "source", "chosen", "item", "event", "mode", "top", "then", "todo", "i",
                 "permit", "paused", "same")

    def __init__(self, controller: int, source: int, chosen: list[int], item: StackItem | None,
                 event: tuple[int, ...], mode: int, top: bool, then: Continuation, todo: list[Effect]) -> None:
        self.controller = controller
        self.source = source
        self.chosen = chosen          # chosen targets not yet used (a verb may take some: Thread)
        self.item = item              # the stack item resolving, if any
        self.event = event            # what an Interrupt answers (target word "event")
        self.mode = mode              # the Thread branch chosen
        self.top = top                # a stack item's resolution (it may pause; the item is finished)
        self.then = then              # how the game goes on after it
        self.todo = todo              # every effect of this run …
        self.i = 0                    # … and the position after the one running
        self.permit: Effect | None = None   # an "instruction" permission, offered at the end
        self.paused = False           # a decision is pending: stop here
        #: what `target = "same"` means (rules.md CARD TEXT): the target the first one-target effect found
        #: (None: no such effect has run yet; empty: it found no legal target)
        self.same: tuple[int, ...] | None = None


VerbFunction = Callable[[MatchState, Effect, list[int], Run], None]

#: effect verb -> its function (Realm modules add theirs with `verb`)
VERB_FUNCTIONS: dict[str, VerbFunction] = {}


def verb(name: str) -> Callable[[VerbFunction], VerbFunction]:
    def deco(fn: VerbFunction) -> VerbFunction:
        VERB_FUNCTIONS[name] = fn
        return fn

    return deco


def run_effects(g: MatchState, effects: Iterable[Effect], controller: int, source: int, chosen: list[int],
                item: StackItem | None, event: tuple[int, ...] = (), mode: int = 0, top: bool = False,
                then: Continuation = OPEN_PRIORITY, same: tuple[int, ...] | None = None) -> bool:
    """Carry out effects in order. `top`: this is a stack item's resolution (it may pause for a Flux
    Interrupt, and the item is finished at the end). `same`: what `target = "same"` refers to, when the
    effects are the rest of a resolution that paused. False if a decision is pending afterwards."""
    todo = list(effects)
    r = Run(controller, source, chosen, item, event, mode, top, then, todo)
    r.same = same
    verbs = VERB_FUNCTIONS
    i = 0
    n = len(todo)
    while i < n:
        e = todo[i]
        i += 1
        target = e.target   # (read once: an Effect's fields are read through pydantic's __getattr__ hook)
        if target is None:
            targets: list[int] = []   # (what resolve_targets gives for no target word)
        elif target == "same":
            # rules.md CARD TEXT: "it" is the first one-target effect's target, while it is still there
            targets = [c for c in r.same or () if g.in_play(c) or g.is_champion(c)]
            if not targets:
                continue
        else:
            targets = resolve_targets(g, e, controller, source, chosen, item, event)
            if r.same is None and target in ONE_TARGETS:
                r.same = tuple(targets)
            if not targets:
                continue
        fn = verbs.get(e.do)
        if fn is None:
            continue
        r.i = i
        fn(g, e, targets, r)
        if r.paused:
            return False
    if top:
        finish_item(g, item)
    if r.permit is not None:
        return offer_permit(g, r.permit, controller, source)
    return True


#: check_keyword's answers for the keywords granted so far (a pure function of the text; a validated card's
#: keywords parse)
_KEYWORDS: dict[str, tuple[str, int]] = {}


def _keyword(text: str) -> tuple[str, int]:
    kw = _KEYWORDS.get(text)
    if kw is None:
        kw = _KEYWORDS[text] = check_keyword(text)
    return kw


def _players(e: Effect, r: Run) -> tuple[int, ...]:
    """The players a player verb concerns: you, your opponent, or each (you first)."""
    c = r.controller
    return (c,) if e.player == "you" else (1 - c,) if e.player == "opponent" else (c, 1 - c)


@verb("damage")
def _damage(g: MatchState, e: Effect, targets: list[int], r: Run) -> None:
    for t in targets:
        if g.in_play(t) or g.is_champion(t):
            damage(g, r.source, t, e.amount)


@verb("heal")
def _heal(g: MatchState, e: Effect, targets: list[int], r: Run) -> None:
    for t in targets:
        heal(g, r.source, t, e.amount)


@verb("draw")
def _draw(g: MatchState, e: Effect, targets: list[int], r: Run) -> None:
    for p in _players(e, r):
        draw(g, p, e.amount)


@verb("discard")
def _discard(g: MatchState, e: Effect, targets: list[int], r: Run) -> None:
    for p in _players(e, r):
        discard_random(g, p, e.amount)


@verb("gain_influence")
def _gain_influence(g: MatchState, e: Effect, targets: list[int], r: Run) -> None:
    for p in _players(e, r):
        g.players[p].influence += e.amount
        g.log(f"  {g.players[p].name} gains {e.amount} Influence", "influence", p, (r.source,),
              g.players[p].influence)


@verb("buff")
def _buff(g: MatchState, e: Effect, targets: list[int], r: Run) -> None:
    for t in targets:
        if t in g.perms and not g.is_champion(t):
            perm = g.perms[t]
            if (e.until or "permanent") == "end_of_turn":
                perm.temp_power += e.power
                perm.temp_health += e.health
            else:
                perm.power_mod += e.power
                perm.health_mod += e.health
            g.log(f"  {g.label(t)} gets {e.power:+d}/{e.health:+d}", actor=r.controller, cards=(r.source, t))


@verb("grant")
def _grant(g: MatchState, e: Effect, targets: list[int], r: Run) -> None:
    temporary = (e.until or "end_of_turn") == "end_of_turn"
    for t in targets:
        if t not in g.perms:
            continue
        if e.status:
            g.add_status(t, e.status, temporary)
        if e.keyword:
            name, n = _keyword(e.keyword)
            perm = g.perms[t]
            if name == "ward":
                # Ward N adds N points to the pool; granted 'until end of turn', the points
                # still unspent at cleanup go (temporary points are spent first)
                perm.ward += n
                if temporary:
                    n += perm.temp_granted.get("ward", 0)
            (perm.temp_granted if temporary else perm.granted)[name] = n
        g.log(f"  {g.label(t)} gains {e.status or e.keyword}", actor=r.controller, cards=(r.source, t))


@verb("suppress")
def _suppress(g: MatchState, e: Effect, targets: list[int], r: Run) -> None:
    for t in targets:
        if t in g.perms:
            g.add_status(t, "suppressed", False)
            g.log(f"  {g.label(t)} is Suppressed: its abilities don't function and it can't attack",
                  actor=r.controller, cards=(r.source, t), rule="KW Suppress")


@verb("destroy")
def _destroy(g: MatchState, e: Effect, targets: list[int], r: Run) -> None:
    for t in targets:
        if g.is_unit_in_play(t) or g.zone[t] == RELICS:
            destroy(g, t, cause=f"by {g.card(r.source).name}")


@verb("return_to_hand")
def _return_to_hand(g: MatchState, e: Effect, targets: list[int], r: Run) -> None:
    for t in targets:
        if g.is_unit_in_play(t) or g.zone[t] == RELICS:
            leave_play(g, t)
            if g.card(t).token:
                g.zone[t] = GONE
                g.log(f"  {g.label(t)} returns to its owner's hand", "move", r.controller, (r.source, t),
                      detail="hand")
                continue
            # a card entering a hand gets a fresh number (rules.md §7a): its owner learns it, the other
            # player only that it went back
            owner = g.owner[t]
            n = g.renumber(t, HAND)
            g.players[owner].hand.append(n)
            g.log(f"  {g.label(t)} returns to its owner's hand (now #{n})", "move", r.controller, (r.source, t, n),
                  detail="hand", private_to=owner, public_text=f"  {g.label(t)} returns to its owner's hand")


@verb("summon")
def _summon(g: MatchState, e: Effect, targets: list[int], r: Run) -> None:
    d = g.db.lookup(e.card or "")
    for _ in range(e.amount):
        cid = g.new_card(d, r.controller, GONE)
        if enter_play(g, cid, r.controller, None, True):
            fire(g, "on_summon", cid)


@verb("counter")
def _counter(g: MatchState, e: Effect, targets: list[int], r: Run) -> None:
    for uid in targets:
        counter_item(g, uid)


@verb("permit")
def _permit(g: MatchState, e: Effect, targets: list[int], r: Run) -> None:
    """OPP Permissions: a duration permission is kept by the player; an "instruction" one is offered once
    the other effects are done (engine.decisions.offer_permit)."""
    controller, source = r.controller, r.source
    if e.duration == "while_in_play":
        # OPP "as long as": the permission lasts while its source stays in play (the same
        # object: a card that leaves and comes back is a new one) — stored as -(its entry seq)
        if source in g.perms and g.zone[source] in (BOARD, RELICS):
            g.players[controller].permits.append((e.zone or "hand", e.card_type, -g.perms[source].seq))
            g.log(f"  {g.players[controller].name} may play {e.card_type} cards from their "
                  f"{e.zone} as long as {g.label(source)} stays in play", rule="OPP Permissions")
    elif e.duration == "end_of_turn":
        g.players[controller].permits.append((e.zone or "hand", e.card_type, g.turn))
        g.log(f"  {g.players[controller].name} may play {e.card_type} cards from their "
              f"{e.zone} this turn", actor=controller, cards=(source,),
              rule="OPP Permissions")
    else:
        r.permit = e


__all__ = [
    "VERB_FUNCTIONS", "Run", "VerbFunction", "run_effects", "verb",
]
