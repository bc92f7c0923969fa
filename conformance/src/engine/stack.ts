// The stack (C1K 6, RB 2.1), a port of engine/stack.py: putting a played card on it, waiting triggers
// onto it (APNAP order, target choices asked one at a time), and resolving its top item (a Unit or
// Relic enters play; an Action's effects; an ability; a keyword's or a rule's trigger; a card back from the
// Void); and commands.py announce_play.

import { runEffects } from "./effects";
import type { Match } from "./match";
import { NotPorted } from "./errors";
import { Continuation } from "./decisions";
import { StackItem, Trigger } from "./state";
import { START_TRIGGERS_ALL } from "./keywords";
import { effectSlots, targetCandidates } from "./targets";
import { fire, fireWatchers, triggerOrder, triggerRule } from "./triggers";
import { modeWords, voidcastWords } from "./cardwords";
import { askFluxOrder, askThreadBranch } from "./paradox";
import { leaveVoid, toVoid } from "./voidcast";
import { offerInterrupts } from "./interrupts";
import { enterPlay } from "./zones";

/** core.py STACK_CAP */
export const STACK_CAP = 500;

/** Put waiting triggers on the stack. False if a target choice is now pending. */
export function placeTriggers(g: Match, resume: Continuation): boolean {
  if (!g.triggers.length && !g.triggerQueue.length) return true;
  if (g.triggers.length) {
    g.triggerQueue = [...triggerOrder(g, g.triggers), ...g.triggerQueue];
    g.triggers = [];
  }
  if (!askFluxOrder(g, resume)) return false;
  while (g.triggerQueue.length) {
    const t = g.triggerQueue.shift() as Trigger;
    if (t.kind === "trigger" && t.ability >= 0) {
      const ab = g.card(t.source).abilities[t.ability];
      if (ab === undefined) throw new TypeError(`no ability ${t.ability} on ${t.source}`);
      if (!t.mode && askThreadBranch(g, t, ab, resume)) return false;   // KW Thread: the branch is chosen now
      const need = effectSlots(ab.effect, t.mode).slice(t.targets.length);
      if (need.length && t.chosen) {
        if (!t.targets.length) {   // a played unit's on-play targets came with the command: none were legal then
          g.log(`  ${t.name}: no legal target was named when it was played — the trigger is removed`, { kind: "trigger",
            actor: t.controller, cards: [t.source], detail: "removed", rule: "C1K 6" });
          continue;
        }
      } else if (need.length) {   // choose the targets now, one at a time (C1K 6)
        const cands = targetCandidates(g, need[0] as string, t.controller, t.source);
        if (!cands.length) {
          if (!t.targets.length) {
            g.log(`  ${t.name}: no legal target — the trigger is removed`, { kind: "trigger", actor: t.controller,
              cards: [t.source], detail: "removed", rule: "C1K 6" });
            continue;
          }
          push(g, t);
          continue;
        }
        if (cands.length > 1) {
          g.ask("choice", t.controller, 1, 1, false, cands, { kind: "trigger_target", player: t.controller, values: cands,
            count: 1, resume, trigger: t, source: 0, free: false });
          return false;
        }
        g.triggerQueue.unshift({ ...t, targets: [...t.targets, cands[0] as number] });
        continue;
      }
    }
    push(g, t);
  }
  return true;
}

export function push(g: Match, t: Trigger): void {
  if (g.stack.length >= STACK_CAP) throw new NotPorted(`a stack of ${STACK_CAP} items (engine/core.py RulesLoopError)`);
  if (t.kind === "voidcast" && !leaveVoid(g, t)) return;
  g.stack.push({ uid: g.nextSeq(), kind: t.kind, source: t.source, controller: t.controller, adder: -1, name: t.name,
    ability: t.ability, targets: [...t.targets], mode: t.mode, keyword: t.keyword, ctx: t.ctx, slot: -1,
    tseq: t.tseq.length ? [...t.tseq] : g.targetSeqs(t.targets) });
  g.log(`  trigger: ${t.name} → stack (p${t.controller + 1})`, { kind: "trigger", actor: t.controller,
    cards: t.source ? [t.source, ...t.targets] : [...t.targets], rule: triggerRule(g, t) });
}

/** Resolve the top item. False if a decision is now pending. */
export function resolveTop(g: Match): boolean {
  const item = g.stack.pop() as StackItem;
  const { source, controller, kind } = item;
  g.log(`  resolve: ${item.name}`, { kind: "resolve", actor: controller, cards: source ? [source, ...item.targets] : [...item.targets],
    rule: "C1K 6" });
  if (kind === "trigger" || kind === "ability") {
    if (source) {
      const abilities = g.card(source).abilities;
      const ab = abilities[item.ability];
      if (abilities.length && ab !== undefined) {
        return runEffects(g, ab.effect, controller, source, [...item.targets], item, [], item.mode, true);
      }
    }
    return true;
  }
  if (kind === "card") {
    const d = g.card(source);
    if (g.zone(source) !== "stack") return true;
    if (d.type === "unit" || d.type === "relic") {
      if (enterPlay(g, source, controller, item.slot < 0 ? null : item.slot, false)) {
        g.perm(source).play_targets = [...item.targets];
        fire(g, "on_play", source, 0, null, { targets: item.targets, chosen: item.ctx === 0, mode: item.mode, tseq: item.tseq });
        fire(g, "on_summon", source);
      }
      return true;
    }
    if (item.keyword === "voidcast") {   // KW Voidcast: to the Void, with no effect
      toVoid(g, item);
      return true;
    }
    return runEffects(g, d.effect, controller, source, [...item.targets], item, [], item.mode, true);
  }
  if (kind === "voidcast") {   // KW Voidcast: a card back from the Void, as it was cast
    g.voidItems.delete(source);
    return runEffects(g, g.card(source).effect, controller, source, [...item.targets], item, [], item.mode, true);
  }
  if (kind === "keyword") {
    for (const spec of START_TRIGGERS_ALL) {
      if (spec.name === item.keyword) {
        if (item.ctx === 0 && !g.inPlay(source)) break;
        spec.resolve(g, item);
        break;
      }
    }
    return true;
  }
  if (kind === "game") {
    if (item.keyword === "Deck Exhaustion") {
      const ps = g.player(controller);
      ps.exhaustions += 1;
      ps.life -= ps.exhaustions;
      g.log(`  Deck Exhaustion: ${g.name(controller)} loses ${ps.exhaustions} life (life ${ps.life})`, { kind: "damage",
        actor: controller, amount: ps.exhaustions, detail: "Deck Exhaustion", rule: "C1K 1.2" });
    }
    return true;
  }
  return true;
}

/** A card played: from the hand (or graveyard, Set) onto the stack. */
export function putOnStack(g: Match, cid: number, p: number, slot: number, targets: number[], mode: number,
  targetsLater = false, voidcast = false): StackItem {
  const ps = g.player(p);
  for (const zone of [ps.hand, ps.graveyard, ps.set]) {
    const i = zone.indexOf(cid);
    if (i >= 0) {
      zone.splice(i, 1);
      break;
    }
  }
  g.setZone(cid, "stack");
  const item: StackItem = { uid: g.nextSeq(), kind: "card", source: cid, controller: p, adder: p, name: g.card(cid).name,
    ability: -1, targets: [...targets], mode, keyword: voidcast ? "voidcast" : "", ctx: targetsLater ? 1 : 0, slot,
    tseq: g.targetSeqs(targets) };
  g.stack.push(item);
  g.log(`  ${g.label(cid)} → stack (p${p + 1})${playWords(g, cid, targets, mode, voidcast)}`, { kind: "stack", actor: p,
    cards: [cid, ...targets], amount: mode, detail: voidcast ? "voidcast" : "", rule: "C1K 6" });
  return item;
}

/** stack.py target_words: a chosen target as the log names it: a card "Test Wall #15", a Champion "p2's
 * Champion", a stack item "stack item 7" (an Interrupt's or a counter's target). */
export function targetWords(g: Match, t: number): string {
  if (g.exists(t)) return g.isChampion(t) ? `p${g.championOwner(t) + 1}'s Champion` : g.label(t);
  return `stack item ${t}`;
}

/** stack.py play_words: the choices made as a card is played, in words, for its "→ stack" line: its Thread
 * mode, its targets, a Voidcast payment (rules.md §7a: public as soon as the card is played). "" if none. */
export function playWords(g: Match, cid: number, targets: readonly number[], mode: number, voidcast: boolean): string {
  if (!(mode || targets.length || voidcast)) return "";
  const d = g.card(cid);
  const parts = mode ? [modeWords(d, mode)] : [];
  if (targets.length) parts.push("targeting " + targets.map((t) => targetWords(g, t)).join(", "));
  if (voidcast) parts.push(voidcastWords(d));
  return " — " + parts.join("; ");
}

/** commands.py announce_play: a card was played (it is on top of the stack): "when you play a Unit / an
 * Action" triggers (C1K 3.2), then the opponent's Interrupts for an Action (C1K 7). False if an Interrupt
 * is asked; `then` is where the game goes once nobody else is asked. */
export function announcePlay(g: Match, cid: number, p: number, then: Continuation): boolean {
  const d = g.card(cid);
  if (d.type === "unit" || d.type === "action") fireWatchers(g, d.type === "unit" ? "on_unit_played" : "on_action_played", p, cid);
  if (d.type === "action") {
    const top = g.stack[g.stack.length - 1] as StackItem;
    if (offerInterrupts(g, "opponent_plays_action", [1 - p], then, top.uid)) return false;
  }
  return true;
}
