// Moving cards between zones (a port of engine/zones.py): drawing (C1K 1.2, Deck Exhaustion), entering
// play into a slot (AS Unit play), leaving play, the graveyard (tokens cease to exist), discarding at random,
// countering a stack item (C1K 7), and an Action's trip to the graveyard after it resolves.

import type { Match } from "./match";
import { Perm, StackItem } from "./state";
import { gameTrigger } from "./hooks";

/** zones.py draw: the top card enters the hand with a fresh number (rules.md §7a); an empty library
 * puts Deck Exhaustion, a rule's own trigger, in waiting. */
export function draw(g: Match, p: number, n: number): void {
  const ps = g.player(p);
  for (let i = 0; i < n; i++) {
    const top = ps.library.shift();
    if (top === undefined) {
      g.log(`  ${g.name(p)} must draw from an empty library: Deck Exhaustion`, { kind: "draw", actor: p, rule: "C1K 1.2" });
      gameTrigger(g, p, "Deck Exhaustion");
      continue;
    }
    const c = g.renumber(top, "hand");
    ps.hand.push(c);
    g.log(`  ${g.name(p)} draws ${g.label(c)}`, { kind: "draw", actor: p, cards: [c], amount: 1, rule: "C1K 1.2",
      privateTo: p, publicText: `  ${g.name(p)} draws a card` });
  }
}

/** zones.py leave_play: out of its slot and out of combat; an attacker it was blocking stays blocked
 * (by nothing: 0), and a blocker whose attacker left stays a combatant. */
export function leavePlay(g: Match, cid: number): void {
  const ps = g.player(g.owner(cid));
  const i = ps.board.indexOf(cid);
  if (i >= 0) ps.board[i] = 0;
  const r = ps.relics.indexOf(cid);
  if (r >= 0) ps.relics[r] = 0;
  g.perms.delete(cid);
  if (g.attackers.includes(cid)) g.attackers = g.attackers.filter((a) => a !== cid);
  if (g.blocks.length) {
    g.blocks = g.blocks.filter(([b, a]) => !(b === cid && a === 0) && !(a === cid && b === 0))
      .map(([b, a]) => [b === cid ? 0 : b, a === cid ? 0 : a]);
  }
}

/** zones.py to_graveyard: a token ceases to exist. */
export function toGraveyard(g: Match, cid: number): void {
  if (g.card(cid).token) {
    g.setZone(cid, "gone");
    return;
  }
  g.player(g.owner(cid)).graveyard.push(cid);
  g.setZone(cid, "graveyard");
}

/** zones.py enter_play: into the chosen empty slot, else the first empty one, else the graveyard; its
 * printed statuses (sorted) and Ward points. */
export function enterPlay(g: Match, cid: number, p: number, slot: number | null, summoned: boolean): boolean {
  const d = g.card(cid);
  const ps = g.player(p);
  const relic = d.type === "relic";
  const slots = relic ? ps.relics : ps.board;
  if (slot === null || !(slot >= 0 && slot < slots.length) || slots[slot]) {
    if (!slots.includes(0)) {
      g.log(`  ${g.label(cid)} has no empty slot and goes to the graveyard`, { kind: "move", actor: p, cards: [cid],
        detail: "graveyard", rule: "AS Unit play" });
      toGraveyard(g, cid);
      return false;
    }
    slot = slots.indexOf(0);
  }
  slots[slot] = cid;
  g.setZone(cid, relic ? "relics" : "board");
  const perm = new Perm(g.turn, g.nextSeq());
  g.perms.set(cid, perm);
  for (const s of ["barrier", "rooted", "veiled"]) if (s in d.keywords) perm.statuses.push(s);
  const ward = d.keywords.ward;
  if (ward) perm.ward = ward;
  g.log(`  ${g.label(cid)} enters play in slot ${slot + 1}${summoned ? " (summoned)" : ""}`, { kind: "move", actor: p,
    cards: [cid], amount: slot + 1, detail: summoned ? "summoned" : "play", rule: "AS Unit play" });
  return true;
}

/** zones.py has_room */
export function hasRoom(g: Match, cid: number, p: number): boolean {
  const d = g.card(cid);
  if (d.type === "unit") return g.player(p).board.includes(0);
  if (d.type === "relic") return g.player(p).relics.includes(0);
  return true;
}

/** zones.py finish_item: an Action (or a returning Voidcast card) that has resolved goes to the graveyard. */
export function finishItem(g: Match, item: StackItem | null): void {
  if (item !== null && (item.kind === "card" || item.kind === "voidcast") && g.zone(item.source) === "stack") {
    toGraveyard(g, item.source);
  }
}

/** zones.py discard_random: cards from the hand at random (the match's generator). */
export function discardRandom(g: Match, p: number, n: number): void {
  const ps = g.player(p);
  for (let i = 0; i < n; i++) {
    if (!ps.hand.length) return;
    const [c] = ps.hand.splice(Number(g.rng.below(BigInt(ps.hand.length))), 1);
    toGraveyard(g, c as number);
    g.log(`  ${g.name(p)} discards ${g.label(c as number)} at random`, { kind: "discard", actor: p, cards: [c as number],
      detail: "random" });
  }
}

/** zones.py counter_item: the stack item leaves the stack; a countered card goes to the graveyard. */
export function counterItem(g: Match, uid: number): void {
  const i = g.stack.findIndex((it) => it.uid === uid);
  if (i < 0) return;
  const it = g.stack.splice(i, 1)[0] as StackItem;
  if (it.kind === "card" && g.zone(it.source) === "stack") toGraveyard(g, it.source);
  g.log(`  ${it.name} is countered`, { kind: "counter", actor: it.controller, cards: [it.source], rule: "C1K 7" });
}
