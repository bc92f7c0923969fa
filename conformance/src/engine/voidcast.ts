// Voidcast (Null, rules.md §6 KW Voidcast; C1K 9), a port of engine/voidcast.py: an Action cast for its
// Voidcast cost (`play <card> pay voidcast`) goes on the stack as usual; when it would resolve it moves to
// the Void with no effect, remembering how it was cast (`voidItems`). At the next end.start, whoever is
// active, each card in the Void returns to the stack as a game item; when pushed it leaves the Void,
// resolves with the targets and mode it was cast with, then goes to the graveyard.

import type { CardDef } from "./cards";
import type { Match } from "./match";
import { StackItem, Trigger, newTrigger } from "./state";
import { RANK_OTHER } from "./keywords";

/** What playing the card costs: its Voidcast cost when cast for it, else its cost. */
export function playCost(d: CardDef, voidcast: boolean): number {
  return voidcast && d.voidcast !== null ? d.voidcast : d.cost;
}

/** A card cast for its Voidcast cost resolves: it moves to the Void with no effect. */
export function toVoid(g: Match, item: StackItem): void {
  g.player(item.controller).void.push(item.source);
  g.setZone(item.source, "void");
  g.voidItems.set(item.source, item);
  g.log(`  ${g.label(item.source)} (Voidcast) moves to the Void: it returns at the next end.start`, { kind: "move",
    actor: item.controller, cards: [item.source], detail: "void", rule: "KW Voidcast" });
}

/** end.start: cards in the Void return to the stack, whoever is active, as game items (AP's first). */
export function returnsStep(g: Match): void {
  for (const p of [g.active, 1 - g.active]) {
    for (const cid of g.player(p).void) {
      const vi = g.voidItems.get(cid);
      const t = newTrigger(p, cid, -1, g.card(cid).name, 0, RANK_OTHER, "voidcast");
      g.triggers.push({ ...t, targets: vi ? [...vi.targets] : [], chosen: true, mode: vi ? vi.mode : 0,
        tseq: vi ? [...vi.tseq] : [] });
    }
  }
}

/** A returning card goes from the Void to the stack (false: it is no longer in the Void). */
export function leaveVoid(g: Match, t: Trigger): boolean {
  const v = g.player(t.controller).void;
  const i = v.indexOf(t.source);
  if (i < 0) return false;
  v.splice(i, 1);
  g.setZone(t.source, "stack");
  return true;
}
