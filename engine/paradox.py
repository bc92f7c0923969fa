"""Paradox (rules.md §6 KW Flux, KW Thread; C1K 8.2, C1K 9): a Flux outcome drawn from the match's
generator, offered to "when a Flux outcome is determined" Interrupts before it happens (and redrawn by a
reroll); a Thread branch chosen in advance that resolves at the next moment a player would receive
priority, after "when a Thread branch would resolve" Interrupts (which may cut it); and the order of a
player's simultaneous Flux triggers.
"""

from __future__ import annotations

from dataclasses import replace

from engine.cards import Ability, Effect
from engine.continuations import RESUME_RESOLUTION, Continuation, Then
from engine.core import MatchState
from engine.decisions import RESUME, ask, resume, set_over
from engine.effects import Run, run_effects, verb
from engine.interrupts import AFTER_USE, offer_interrupts
from engine.state import (
    Choice,
    Resolving,
    Trigger,
)
from engine.targets import choice_slots, thread_effect
from engine.triggers import RANK_OTHER


def run_threads(g: MatchState, then: Continuation) -> bool:
    """Thread (Paradox, rules.md §6): a chosen branch resolves at the earliest legal window after its
    evaluation — the next moment a player would receive priority. False if a decision is pending."""
    while g.threads and g.outcome is None:
        t = g.threads[0]
        if t.ctx == 0:   # C1K 7: "when a Thread branch would resolve" Interrupts, AP first (asked once)
            if offer_interrupts(g, "thread_resolves", (g.active, 1 - g.active), then):
                g.threads[0] = replace(t, ctx=1)
                return False
        g.threads.pop(0)
        e = thread_effect(g, t.source)
        if e is not None and e.branches and 1 <= t.mode <= len(e.branches):
            what = e.branch_text(t.mode)
            g.log(f"  Thread: {t.name}, branch {t.mode} of {len(e.branches)} resolves — {what}", "thread",
                  t.controller, (t.source,), t.mode, f"resolves: {what}", "KW Thread")
            if not run_effects(g, e.branches[t.mode - 1], t.controller, t.source, list(t.targets), None,
                                    mode=t.mode, top=True, then=then):
                return False
    return True


def ask_thread_branch(g: MatchState, t: Trigger, ab: Ability, resume: Continuation) -> bool:
    """A Thread in a triggered ability: its controller chooses the branch as it goes on the stack (True:
    asked; the trigger waits at the head of the queue)."""
    for e in ab.effect:
        if e.do == "thread":
            thread = e
            branches = len(e.branches or [])
            break
    else:
        return False
    if not branches:
        return False
    g.trigger_queue.insert(0, t)
    ask(g, "choice", t.controller, "KW Thread", f"{g.players[t.controller].name}: choose a branch for {t.name}",
        options=tuple(f"branch {n}: {thread.branch_text(n)}" for n in range(1, branches + 1)),
        min_choices=1, max_choices=1,
        choice=Choice("thread", t.controller, tuple(range(1, branches + 1)), 1, resume, t))
    return True


def choose_branch(g: MatchState, ch: Choice, branch: int) -> None:
    """The answer to `ask_thread_branch`: the trigger goes on with its branch."""
    assert ch.trigger is not None
    g.trigger_queue[0] = replace(ch.trigger, mode=branch)
    e = thread_effect(g, ch.trigger.source)
    what = f": {e.branch_text(branch)}" if e is not None and e.branches and 1 <= branch <= len(e.branches) else ""
    g.log(f"  {g.players[ch.player].name} chooses branch {branch} for {ch.trigger.name}{what}", "thread",
          ch.player, (ch.trigger.source,), branch, "chosen", "KW Thread")


def cut_thread(g: MatchState, ab: Ability) -> None:
    """A "when a Thread branch would resolve" Interrupt that counters cuts the waiting branch."""
    if not g.threads or not any(e.do == "counter" for e in ab.effect):
        return
    cut = g.threads.pop(0)
    g.log(f"  the Thread branch of {cut.name} is cut: it doesn't resolve", "thread", cut.controller,
          (cut.source,), cut.mode, "cut", "KW Thread")


def is_flux_trigger(g: MatchState, t: Trigger) -> bool:
    if t.kind != "trigger" or t.ability < 0 or t.ordered:
        return False
    d = g.card(t.source)
    return d.realm == "paradox" and any(e.do == "flux" for e in d.abilities[t.ability].effect)


def ask_flux_order(g: MatchState, resume: Continuation) -> bool:
    """C1K 8.2: a Paradox player may reorder their own simultaneous Flux effects. False if asked."""
    if len(g.trigger_queue) < 2:
        return True
    flux = [i for i, t in enumerate(g.trigger_queue) if is_flux_trigger(g, t)]
    if len(flux) < 2:
        return True   # (nobody has two to order)
    for p in (g.active, 1 - g.active):
        # options in the default resolution order (the queue is in push order: last pushed resolves first)
        pos = tuple(reversed([i for i in flux if g.trigger_queue[i].controller == p]))
        if len(pos) < 2:
            continue
        labels = tuple(f"{g.trigger_queue[i].name} (#{g.trigger_queue[i].source})" for i in pos)
        ask(g, "choice", p, "C1K 8", f"{g.players[p].name}: order your Flux effects — choose them in the "
            "order they should resolve (first resolves first)", options=labels, min_choices=len(pos),
            max_choices=len(pos), eligible=tuple(g.trigger_queue[i].source for i in pos),
            choice=Choice("order", p, pos, len(pos), resume))
        return False
    return True


def resume_resolution(g: MatchState, how: Continuation) -> None:
    """After the Flux Interrupts: the (possibly redrawn) outcome happens, then the rest of the effects."""
    r = g.resolving
    assert r is not None and r.flux.outcomes is not None
    g.resolving = None
    g.log(f"  Flux outcome {r.k + 1} happens", "flux", r.controller, (r.source,), r.k + 1,
          r.flux.outcome_text(r.k), "KW Flux")
    run_effects(g, r.flux.outcomes[r.k], r.controller, r.source, [], None, r.event, r.mode)
    if run_effects(g, r.effects, r.controller, r.source, list(r.chosen), r.item, r.event, r.mode, top=True,
                        then=r.then, same=r.same):
        resume(g, r.then)
    elif g.outcome is not None:
        set_over(g)


RESUME[Then.RESUME_RESOLUTION] = resume_resolution


# ---------------------------------------------------------------- the Paradox effect verbs


@verb("flux")
def _flux(g: MatchState, e: Effect, targets: list[int], r: Run) -> None:
    """Paradox (C1K §9): one outcome from the StateSeed PRNG, resolved as one atomic event; in a stack
    item's resolution, "when a Flux outcome is determined" Interrupts are asked first (C1K 7)."""
    if not e.outcomes:
        return
    k = g.rng.below(len(e.outcomes))
    what = e.outcome_text(k)
    g.log(f"  Flux: outcome {k + 1} of {len(e.outcomes)} — {what}", "flux", r.controller, (r.source,), k + 1,
          what, "KW Flux")
    if r.top and offer_interrupts(g, "flux_outcome", (g.active, 1 - g.active), RESUME_RESOLUTION):
        g.resolving = Resolving(r.item, r.controller, r.source, tuple(r.todo[r.i:]), tuple(r.chosen), r.event,
                                r.mode, e, k, r.then, r.same)
        r.paused = True
        return
    run_effects(g, e.outcomes[k], r.controller, r.source, [], None, r.event, r.mode)


@verb("reroll")
def _reroll(g: MatchState, e: Effect, targets: list[int], r: Run) -> None:
    """An Interrupt's "draw the Flux outcome again" (the resolution paused at the Flux)."""
    res = g.resolving
    if res is not None and res.flux.outcomes:
        k = g.rng.below(len(res.flux.outcomes))
        g.resolving = replace(res, k=k)
        what = res.flux.outcome_text(k)
        g.log(f"  the Flux outcome is drawn again: outcome {k + 1} of {len(res.flux.outcomes)} — {what}",
              "flux", r.controller, (res.source,), k + 1, what, "KW Flux")


@verb("thread")
def _thread(g: MatchState, e: Effect, targets: list[int], r: Run) -> None:
    """Thread: the branch was chosen when played; it waits (with its targets) for the earliest legal
    window, `run_threads`."""
    if not e.branches:
        return
    m = max(r.mode, 1)
    if m <= len(e.branches):
        n = len(choice_slots(g, e.branches[m - 1]))
        branch_targets = tuple(r.chosen[:n])
        del r.chosen[:n]
        g.threads.append(Trigger(r.controller, r.source, -1, g.card(r.source).name, 0, RANK_OTHER,
                                 "thread", "", 0, branch_targets, True, m))
        what = e.branch_text(m)
        g.log(f"  Thread: branch {m} ({what}) waits for the next moment a player would receive priority",
              "thread", r.controller, (r.source,), m, f"waits: {what}", "KW Thread")
AFTER_USE["thread_resolves"] = cut_thread


__all__ = [
    "ask_flux_order", "ask_thread_branch", "choose_branch", "cut_thread", "is_flux_trigger",
    "resume_resolution", "run_threads",
]
