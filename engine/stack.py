"""The stack (C1K 6, RB 2.1): putting a played card on it, waiting triggers onto it (APNAP order, with
target and Thread-branch choices asked one at a time), and resolving its top item (a Unit or Relic enters
play; an Action's effects; an ability; a keyword's or a rule's trigger).
"""

from __future__ import annotations

from dataclasses import replace

from engine.cards import effect_slots, mode_words, voidcast_words
from engine.continuations import Continuation
from engine.core import STACK_CAP, MatchState, RulesLoopError
from engine.decisions import ask
from engine.effects import run_effects
from engine.keywords import START_TRIGGERS_ALL
from engine.paradox import ask_flux_order, ask_thread_branch
from engine.state import (
    STACK,
    Choice,
    StackItem,
    Trigger,
    player_name,
)
from engine.targets import target_candidates
from engine.triggers import fire, trigger_order, trigger_rule
from engine.voidcast import leave_void, to_void
from engine.zones import enter_play

#: the seats' names in a log line (state.player_name)
_NAMES = (player_name(0), player_name(1))


def place_triggers(g: MatchState, resume: Continuation) -> bool:
    """Put waiting triggers on the stack. False if a target choice is now pending."""
    if not g.triggers and not g.trigger_queue:
        return True   # (nothing waits: the usual case)
    if g.triggers:
        g.trigger_queue = trigger_order(g, g.triggers) + g.trigger_queue
        g.triggers = []
    if not ask_flux_order(g, resume):
        return False
    while g.trigger_queue:
        t = g.trigger_queue.pop(0)
        if t.kind == "trigger" and t.ability >= 0:
            ab = g.card(t.source).abilities[t.ability]
            if not t.mode and ask_thread_branch(g, t, ab, resume):   # KW Thread: the branch is chosen now
                return False
            need = effect_slots(ab.effect, t.mode)[len(t.targets):]   # (choice_slots, without the state)
            if need and t.chosen:
                if not t.targets:
                    # a played unit's on-play targets came with the command: none were legal then
                    g.log(f"  {t.name}: no legal target was named when it was played — the trigger is removed",
                          "trigger", t.controller, (t.source,), detail="removed", rule="C1K 6")
                    continue
            elif need:   # choose the targets now, one at a time (C1K 6)
                cands = target_candidates(g, need[0], t.controller, t.source)
                if not cands:
                    if not t.targets:
                        g.log(f"  {t.name}: no legal target — the trigger is removed", "trigger",
                              t.controller, (t.source,), detail="removed", rule="C1K 6")
                        continue
                    push(g, t)
                    continue
                if len(cands) > 1:
                    ask(g, "choice", t.controller, "C1K 6",
                        f"{g.players[t.controller].name}: choose a target for {t.name}",
                        options=tuple(g.label(c) for c in cands), min_choices=1, max_choices=1,
                        eligible=tuple(cands),
                        choice=Choice("trigger_target", t.controller, tuple(cands), 1, resume, t))
                    return False
                g.trigger_queue.insert(0, replace(t, targets=t.targets + (cands[0],)))
                continue
        push(g, t)
    return True


def push(g: MatchState, t: Trigger) -> None:
    if len(g.stack) >= STACK_CAP:
        raise RulesLoopError(f"the stack passed {STACK_CAP} items: the cards trigger each other forever")
    if t.kind == "voidcast" and not leave_void(g, t):
        return
    g.stack.append(StackItem(g.next_seq(), t.kind, t.source, t.controller, -1, t.name, t.ability, t.targets,
                             t.mode, t.keyword, t.ctx, -1, t.tseq if t.tseq else g.target_seqs(t.targets)))
    g.log(f"  trigger: {t.name} → stack ({_NAMES[t.controller]})", "trigger", t.controller,
          (t.source,) + t.targets if t.source else t.targets, 0, "", trigger_rule(g, t))


def resolve_top(g: MatchState) -> bool:
    """Resolve the top item. False if a decision (a permission, a Flux Interrupt) is now pending."""
    item = g.stack.pop()
    source = item.source
    controller = item.controller
    g.log(f"  resolve: {item.name}", "resolve", controller, (source,) + item.targets if source else item.targets,
          0, "", "C1K 6")
    kind = item.kind
    if kind == "trigger" or kind == "ability":
        if source:
            abilities = g.card(source).abilities
            if abilities:
                return run_effects(g, abilities[item.ability].effect, controller, source, list(item.targets),
                                   item, (), item.mode, True)
        return True
    if kind == "card":
        d = g.card(source)
        if g.zone[source] != STACK:
            return True
        if d.type == "unit" or d.type == "relic":
            if enter_play(g, source, controller, None if item.slot < 0 else item.slot, False):
                g.perms[source].play_targets = item.targets
                whens = d.whens   # (fire's own first check, without the call: most units have neither)
                if "on_play" in whens:
                    fire(g, "on_play", source, targets=item.targets, chosen=item.ctx == 0, mode=item.mode,
                         tseq=item.tseq)
                if "on_summon" in whens:
                    fire(g, "on_summon", source)
            return True
        if item.keyword == "voidcast":   # KW Voidcast: to the Void, with no effect (engine/voidcast.py)
            to_void(g, item)
            return True
        return run_effects(g, d.effect, controller, source, list(item.targets), item, (), item.mode, True)
    if kind == "voidcast":   # KW Voidcast: a card back from the Void, as it was cast
        g.void_items.pop(source, None)
        return run_effects(g, g.card(source).effect, controller, source, list(item.targets), item, (), item.mode,
                           True)
    if kind == "keyword":
        for spec in START_TRIGGERS_ALL:
            if spec.name == item.keyword:
                if item.ctx == 0 and not g.in_play(source):
                    break
                spec.resolve(g, item)
                break
        return True
    if kind == "game":
        if item.keyword == "Deck Exhaustion":
            ps = g.players[controller]
            ps.exhaustions += 1
            ps.life -= ps.exhaustions
            g.log(f"  Deck Exhaustion: {ps.name} loses {ps.exhaustions} life (life {ps.life})", "damage",
                  controller, amount=ps.exhaustions, detail="Deck Exhaustion", rule="C1K 1.2")
        return True
    return True


def put_on_stack(g: MatchState, cid: int, p: int, slot: int, targets: tuple[int, ...], mode: int,
                 targets_later: bool = False, voidcast: bool = False) -> StackItem:
    ps = g.players[p]
    for zone in (ps.hand, ps.graveyard, ps.set_cards):
        if cid in zone:
            zone.remove(cid)
            break
    g.zone[cid] = STACK
    item = StackItem(g.next_seq(), "card", cid, p, p, g.card(cid).name, -1, targets, mode,
                     "voidcast" if voidcast else "", 1 if targets_later else 0, slot, g.target_seqs(targets))
    g.stack.append(item)
    g.log(f"  {g.label(cid)} → stack ({_NAMES[p]}){play_words(g, cid, targets, mode, voidcast)}", "stack", p,
          (cid,) + targets, mode, "voidcast" if voidcast else "", "C1K 6")
    return item


def target_words(g: MatchState, t: int) -> str:
    """A chosen target as the log names it: a card "Test Wall #15", a Champion "p2's Champion", a stack
    item "stack item 7" (an Interrupt's or a counter's target)."""
    if g.exists(t):
        return f"{_NAMES[g.champion_owner(t)]}'s Champion" if g.is_champion(t) else g.label(t)
    return f"stack item {t}"


def play_words(g: MatchState, cid: int, targets: tuple[int, ...], mode: int, voidcast: bool) -> str:
    """The choices made as a card is played, in words, for its "→ stack" line: its Thread mode, its
    targets, a Voidcast payment (rules.md §7a: public as soon as the card is played). "" if none."""
    if not (mode or targets or voidcast):
        return ""
    d = g.card(cid)
    parts = [mode_words(d, mode)] if mode else []
    if targets:
        parts.append("targeting " + ", ".join(target_words(g, t) for t in targets))
    if voidcast:
        parts.append(voidcast_words(d))
    return " — " + "; ".join(parts)


__all__ = [
    "place_triggers", "play_words", "push", "put_on_stack", "resolve_top", "target_words",
]
