// Interrupts (C1K 7, KW Nullify), a port of engine/interrupts.py and of the Interrupt checks of
// engine/legality.py (may_interrupt, usable_interrupts): when an event that Interrupts answer happens (an
// Action is played, attackers are declared), each player who may have a usable Interrupt for it is asked,
// AP first, on public facts only (rules.md §7a). A used Interrupt resolves at once, without the stack.

import type { Ability } from "./cards";
import { runEffects } from "./effects";
import type { Match } from "./match";
import { NotPorted } from "./errors";
import { Continuation, resume } from "./decisions";
import { cutThread } from "./paradox";
import { sba } from "./sba";
import { toGraveyard } from "./zones";

/** state.py InterruptWindow: the event, the players still to be asked (AP first), the played item's uid,
 * the declared attackers, and where the game goes once nobody else is asked. */
export interface InterruptWindow { event: string; queue: number[]; item: number; attackers: number[]; resume: Continuation }

export function interruptSnapshot(w: InterruptWindow): unknown[] {
  return [w.event, [...w.queue], w.item, [...w.attackers], [...w.resume]];
}

/** cards.py hand_interrupt: a Nullify Action is an Interrupt for an opponent's Action, used from the hand. */
export function handInterrupt(g: Match, cid: number): Ability | null {
  const d = g.card(cid);
  if (!d.nullify) return null;
  return { when: null, activate: null, interrupt: "opponent_plays_action", cost: d.cost, once_per_turn: false, text: "",
    effect: d.effect };
}

/** legality.py usable_in_play_interrupts: the usable Interrupt abilities of p's cards in play. */
export function usableInPlayInterrupts(g: Match, p: number, event: string): [number, number, Ability][] {
  const out: [number, number, Ability][] = [];
  const events = event === "attacker_declared" && p !== g.active ? [event, "opponent_declares_attackers"] : [event];
  for (const cid of g.permanents(p)) {
    const perm = g.perm(cid);
    if (perm.hasStatus("suppressed")) continue;
    g.card(cid).abilities.forEach((ab, i) => {
      if (ab.interrupt !== null && events.includes(ab.interrupt) && ab.cost <= g.player(p).influence
          && !(ab.once_per_turn && perm.used.get(i) === g.turn)) out.push([cid, i, ab]);
    });
  }
  return out;
}

/** legality.py usable_interrupts: abilities of p's cards in play, and Nullify Actions in p's hand (index -1). */
export function usableInterrupts(g: Match, p: number, event: string): [number, number, Ability][] {
  const out: [number, number, Ability][] = [];
  for (const cid of g.player(p).hand) {
    const hi = handInterrupt(g, cid);
    if (hi !== null && hi.interrupt === event && hi.cost <= g.player(p).influence) out.push([cid, -1, hi]);
  }
  return [...out, ...usableInPlayInterrupts(g, p, event)];
}

/** legality.py may_interrupt: whether p is asked, from public facts only — a usable Interrupt on a card in
 * play, or a hand that is not empty while one of p's Nullify cards for the event that p's Influence pays
 * for is in a hidden zone (hand, library, Set). */
export function mayInterrupt(g: Match, p: number, event: string): boolean {
  const ps = g.player(p);
  if (ps.hand.length) {
    for (const cid of [...ps.hand, ...ps.library, ...ps.set]) {
      const hi = handInterrupt(g, cid);
      if (hi !== null && hi.interrupt === event && hi.cost <= ps.influence) return true;
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

/** Ask, in order, each of `players` who may have a usable Interrupt for `event` (true: a question is pending). */
export function offerInterrupts(g: Match, event: string, players: number[], then: Continuation, item = 0,
  attackers: number[] = []): boolean {
  const asked = players.filter((q) => mayInterrupt(g, q, event));
  if (!asked.length) return false;
  askInterrupts(g, { event, queue: asked, item, attackers: [...attackers], resume: then });
  return true;
}

export function askInterrupts(g: Match, w: InterruptWindow): void {
  g.intr = w;
  const p = w.queue[0] as number;
  const usable = usableInterrupts(g, p, w.event).map((x) => x[0]);
  g.ask("interrupt", p, 0, 0, true, usable);
  // the question is asked on public facts (mayInterrupt); what the player holds stays theirs
  const names = usable.map((c) => g.label(c)).join(", ") || "you hold none usable now";
  g.log(`  ${g.name(p)} is asked: use an Interrupt (${names}) or decline (${INTERRUPT_EVENT_TEXT[w.event] as string})`,
    { kind: "interrupt", actor: p, cards: usable, detail: "asked", rule: "C1K 7", privateTo: p });
}

/** cards.py INTERRUPT_EVENT_TEXT: each Interrupt event in words */
export const INTERRUPT_EVENT_TEXT: Readonly<Record<string, string>> = {
  opponent_plays_action: "when the opponent plays an Action",
  attacker_declared: "when an attacker is declared",
  opponent_declares_attackers: "when the opponent declares attackers",
  flux_outcome: "when a Flux outcome is determined",
  thread_resolves: "when a Thread branch resolves",
};

/** The next player still to be asked, or (nobody left) the game goes on where the event left it. */
export function nextInterrupt(g: Match): void {
  const w = g.intr as InterruptWindow;
  const rest = w.queue.slice(1).filter((q) => mayInterrupt(g, q, w.event));
  if (rest.length) {
    askInterrupts(g, { ...w, queue: rest });
    return;
  }
  g.intr = null;
  resume(g, w.resume);
}

/** `interrupt <card> [target …]`: pay, resolve its effects at once (no stack), then ask the next player. */
export function doInterrupt(g: Match, source: number, targets: number[], p: number): void {
  const w = g.intr;
  if (w === null || g.pending[0] !== "interrupt" || g.pending[1] !== p) throw new NotPorted("an Interrupt out of turn (engine/legality.py)");
  const use = usableInterrupts(g, p, w.event).find((x) => x[0] === source);
  if (use === undefined) throw new NotPorted("a refused Interrupt (engine/legality.py interrupt_refusal)");
  const [cid, idx, ab] = use;
  g.player(p).influence -= ab.cost;
  const fromHand = idx < 0;
  if (fromHand) {   // Nullify: the Action is revealed from the hand and used as an Interrupt
    const hand = g.player(p).hand;
    hand.splice(hand.indexOf(cid), 1);
    g.setZone(cid, "stack");
  } else if (ab.once_per_turn) {
    g.perm(cid).used.set(idx, g.turn);
  }
  g.log(`  Interrupt: ${g.label(cid)} (resolves at once, no stack)`, { kind: "interrupt", actor: p, cards: [cid, ...targets],
    detail: "used", rule: fromHand ? "KW Nullify" : "C1K 7" });
  const event = w.event === "opponent_plays_action" ? [w.item] : w.attackers;
  runEffects(g, ab.effect, p, cid, [...targets], null, event);
  if (w.event === "thread_resolves") cutThread(g, ab);   // paradox.py AFTER_USE: a counter cuts the branch
  if (fromHand) toGraveyard(g, cid);
  sba(g);
  if (g.outcome !== null) {
    g.setOver();
    return;
  }
  nextInterrupt(g);
}
