// Where the spine hands over to triggers, effects and the stack (engine/triggers.py, engine/stack.py,
// engine/interrupts.py: the next layer of the port, conformance/PORT.md). Each function here is the
// spine's own version of the Python function it names, for what the spine has: a card's triggered
// ability, an Interrupt or a Thread stops with NotPorted *where it would be collected*; the rules'
// own triggers (Deck Exhaustion, and the keyword triggers Decay Check, Regeneration, Growth, Pulse) and
// played units and relics go on the stack and resolve. The port of those modules replaces these bodies
// (keeping the names: the spine calls only these).

import type { Match } from "./match";
import { NotPorted } from "./errors";
import { StackItem, Trigger, newTrigger } from "./state";
import { START_TRIGGERS_ALL } from "./keywords";
import { enterPlay } from "./zones";

/** core.py STACK_CAP */
const STACK_CAP = 500;

/** triggers.py fire: queue the `when` abilities of card `cid` (a Suppressed card's abilities don't
 * function). The spine collects none: a card with such an ability stops here. */
export function fire(g: Match, when: string, cid: number, _ctx = 0, _seq: number | null = null): void {
  const d = g.card(cid);
  if (!d.abilities.some((a) => a.when === when)) return;
  const perm = g.perms.get(cid);
  if (perm !== undefined && perm.hasStatus("suppressed")) return;
  throw new NotPorted(`the ${when} ability of ${d.id} triggers (engine/triggers.py fire, engine/stack.py)`);
}

/** triggers.py answering: player p's cards in play with an ability for `when` (but `but`), by entry. */
export function answering(g: Match, p: number, when: string, but = 0): number[] {
  const ps = g.player(p);
  const found = [...ps.board, ...ps.relics, ps.champion, ps.seat]
    .filter((c) => c && c !== but && g.card(c).abilities.some((a) => a.when === when));
  return found.map((c) => [g.perm(c).seq, c] as [number, number]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[1]);
}

/** triggers.py fire_watchers */
export function fireWatchers(g: Match, when: string, p: number, ctx: number): void {
  for (const cid of answering(g, p, when, ctx)) fire(g, when, cid, ctx);
}

/** triggers.py game_trigger: a rule's own trigger (Deck Exhaustion). */
export function gameTrigger(g: Match, p: number, name: string): void {
  g.triggers.push(newTrigger(p, 0, -1, name, 0, 0, "game", name));
}

/** triggers.py trigger_order: push order — NAP's first, AP's on top; within a player, lower rank and
 * earlier entry resolve first, so they are pushed last. A stable sort by the key (controller == AP,
 * -rank, -seq), False < True (docs/determinism.md §8 d). */
export function triggerOrder(g: Match, ts: Trigger[]): Trigger[] {
  const key = (t: Trigger): number[] => [t.controller === g.active ? 1 : 0, -t.rank, -t.seq];
  return [...ts].sort((x, y) => {
    const a = key(x), b = key(y);
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
    return 0;
  });
}

/** stack.py place_triggers: the waiting triggers go on the stack in trigger order. True: no choice is
 * pending (the spine's triggers have no targets, branches or Flux order to choose). */
export function placeTriggers(g: Match): boolean {
  if (!g.triggers.length && !g.triggerQueue.length) return true;
  if (g.triggers.length) {
    g.triggerQueue = [...triggerOrder(g, g.triggers), ...g.triggerQueue];
    g.triggers = [];
  }
  while (g.triggerQueue.length) {
    const t = g.triggerQueue.shift() as Trigger;
    if (t.kind !== "keyword" && t.kind !== "game") throw new NotPorted(`a ${t.kind} trigger (engine/stack.py place_triggers)`);
    push(g, t);
  }
  return true;
}

/** stack.py push */
export function push(g: Match, t: Trigger): void {
  if (g.stack.length >= STACK_CAP) throw new NotPorted(`the stack passed ${STACK_CAP} items: a RulesLoopError (engine/stack.py)`);
  g.stack.push({ uid: g.nextSeq(), kind: t.kind, source: t.source, controller: t.controller, adder: -1, name: t.name,
    ability: t.ability, targets: [...t.targets], mode: t.mode, keyword: t.keyword, ctx: t.ctx, slot: -1,
    tseq: t.tseq.length ? [...t.tseq] : g.targetSeqs(t.targets) });
}

/** stack.py resolve_top for what the spine puts on the stack: a played unit or relic enters play; a
 * keyword's start trigger; Deck Exhaustion (the player loses life: 1, then 2, … C1K 1.2). True: no
 * decision is pending. */
export function resolveTop(g: Match): boolean {
  const item = g.stack.pop() as StackItem;
  const source = item.source;
  if (item.kind === "card") {
    const d = g.card(source);
    if (g.zone(source) !== "stack") return true;
    if (d.type !== "unit" && d.type !== "relic") throw new NotPorted(`resolving ${d.id}, an ${d.type} (engine/stack.py, engine/effects.py)`);
    if (enterPlay(g, source, item.controller, item.slot < 0 ? null : item.slot)) {
      g.perm(source).play_targets = [...item.targets];
      fire(g, "on_play", source);
      fire(g, "on_summon", source);
    }
    return true;
  }
  if (item.kind === "keyword") {
    for (const spec of START_TRIGGERS_ALL) {
      if (spec.name === item.keyword) {
        if (item.ctx === 0 && !g.inPlay(source)) break;
        spec.resolve(g, item);
        break;
      }
    }
    return true;
  }
  if (item.kind === "game") {
    if (item.keyword === "Deck Exhaustion") {
      const ps = g.player(item.controller);
      ps.exhaustions += 1;
      ps.life -= ps.exhaustions;
    }
    return true;
  }
  throw new NotPorted(`resolving a ${item.kind} item (engine/stack.py resolve_top)`);
}

/** commands.py announce_play: "when you play a Unit" triggers (an Action's Interrupts: not the spine's).
 * True: the game goes on after the action. */
export function announcePlay(g: Match, cid: number, p: number): boolean {
  const d = g.card(cid);
  if (d.type === "unit") fireWatchers(g, "on_unit_played", p, cid);
  if (d.type === "action") throw new NotPorted("playing an Action (engine/commands.py announce_play, engine/interrupts.py)");
  return true;
}

/** legality.py usable_in_play_interrupts: the usable Interrupt abilities of p's cards in play, as
 * [card, ability index] (public: the board, Influence, Suppress). */
export function usableInPlayInterrupts(g: Match, p: number, event: string): [number, number][] {
  const events = event === "attacker_declared" && p !== g.active ? [event, "opponent_declares_attackers"] : [event];
  const out: [number, number][] = [];
  for (const cid of g.permanents(p)) {
    const perm = g.perm(cid);
    if (perm.hasStatus("suppressed")) continue;
    g.card(cid).abilities.forEach((ab, i) => {
      if (ab.interrupt !== null && events.includes(ab.interrupt) && ab.cost <= g.player(p).influence
          && !(ab.once_per_turn && perm.used.get(i) === g.turn)) out.push([cid, i]);
    });
  }
  return out;
}

/** legality.py may_interrupt: whether p is asked about `event`'s Interrupts, decided on public facts
 * (rules.md §7a): a usable Interrupt on a card in play, or a Nullify (cards.py hand_interrupt: for
 * "opponent_plays_action", at the card's cost) their Influence pays for in a zone hidden from the
 * opponent while their hand is not empty. The spine asks nobody (interrupts.py is the next layer): its
 * callers stop where someone would be asked. */
export function mayInterrupt(g: Match, p: number, event: string): boolean {
  const ps = g.player(p);
  if (ps.hand.length && event === "opponent_plays_action") {
    for (const cid of [...ps.hand, ...ps.library, ...ps.set]) {
      const d = g.card(cid);
      if (d.nullify && d.cost <= ps.influence) return true;
    }
  }
  const events = event === "attacker_declared" && p !== g.active ? [event, "opponent_declares_attackers"] : [event];
  for (const c of [...ps.board, ...ps.relics, ps.champion, ps.seat]) {
    if (c && g.card(c).abilities.some((ab) => ab.interrupt !== null && events.includes(ab.interrupt))) {
      return usableInPlayInterrupts(g, p, event).length > 0;
    }
  }
  return false;
}
