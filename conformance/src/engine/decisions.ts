// How the game goes on once a player has answered a decision (engine/continuations.py, decisions.py
// `resume`), and a play permission offered during a resolution (OPP Permissions, decisions.py
// `offer_permit`) with the checks it needs from engine/options.py (`permit_options`) and
// engine/legality.py (`play_refusal` for a permission, `permit_active`). (`ask`, `give_priority` and
// `set_over` are Match methods.)

import type { Effect } from "./cards";
import type { Choice, Match } from "./match";
import { afterAction, afterDeclaration, finishCleanup, goto, openPriority } from "./turn";
import { resumeResolution } from "./paradox";
import { playSlots, targetCandidates } from "./targets";
import { playCost } from "./voidcast";

/** continuations.py Continuation as its snapshot, [then] or [then, actor]: where the game goes once a
 * decision is answered (Then: 0 OPEN_PRIORITY, 1 AFTER_ACTION, 2 FINISH_CLEANUP, 3 AFTER_DECLARATION,
 * 4 RESUME_RESOLUTION). */
export type Continuation = number[];
export const OPEN_PRIORITY: Continuation = [0];
export const FINISH_CLEANUP: Continuation = [2];
export const AFTER_DECLARATION: Continuation = [3];
export const RESUME_RESOLUTION: Continuation = [4];
export const afterActionOf = (actor: number): Continuation => [1, actor];

/** decisions.py resume with the continuations registered by turn.py and paradox.py. */
export function resume(g: Match, how: Continuation): void {
  const then = how[0];
  if (then === 0) goto(g, openPriority(g));
  else if (then === 1) afterAction(g, how[1] as number);
  else if (then === 2) goto(g, finishCleanup(g));
  else if (then === 3) afterDeclaration(g);
  else resumeResolution(g);
}

/** legality.py permit_active: a duration permission's `until` — a turn number (it lasts through that turn),
 * or -seq: as long as the card that entered play with that seq stays in play (OPP "as long as"). */
export function permitActive(g: Match, until: number, nextTurn = false): boolean {
  if (until < 0) return [...g.perms.values()].some((perm) => perm.seq === -until);
  return nextTurn ? until > g.turn : until >= g.turn;
}

/** options.py permit_options, as far as the offer needs it: whether card `cid` can answer the permission
 * with at least one play command (legality.py play_refusal with a permission: speed and zone don't matter;
 * the type, Nullify, the cost unless free, a free slot; then at least one combination of targets —
 * an Action needs a legal target for each slot, a Unit's or Relic's on-play slots without one are dropped). */
export function permitPlayable(g: Match, cid: number, p: number, permit: Choice): boolean {
  const d = g.card(cid);
  const ps = g.player(p);
  if (!g.exists(cid) || !permit.values.includes(cid)) return false;
  if (!["unit", "relic", "action"].includes(d.type) || d.nullify) return false;
  if ((permit.free ? 0 : playCost(d, false)) > ps.influence) return false;
  if (d.type === "unit" && !ps.board.includes(0)) return false;
  if (d.type === "relic" && !ps.relics.includes(0)) return false;
  const modes = d.branches ? Array.from({ length: d.branches }, (_x, i) => i + 1) : [null];
  return modes.some((m) => {
    let slots = playSlots(d, m);
    if (slots.length && d.type !== "action") slots = slots.filter((s) => targetCandidates(g, s, p, cid).length);
    return slots.every((s) => targetCandidates(g, s, p, cid).length > 0);
  });
}

/** decisions.py offer_permit: OPP "instruction" permission — during this resolution the player may play
 * one card now, ignoring speed (and paying nothing if `free`). False if the offer is pending. Whether a
 * hand holds a playable card is private (rules.md §7a): a permission to play from the hand is asked
 * whenever the hand is not empty. */
export function offerPermit(g: Match, e: Effect, controller: number, source: number): boolean {
  const ps = g.player(controller);
  const zone = e.zone === "hand" ? ps.hand : ps.graveyard;
  const allowed = zone.filter((c) => e.card_type === "any" || g.card(c).type === e.card_type);
  const offer: Choice = { kind: "permit", player: controller, values: allowed, count: 1, resume: OPEN_PRIORITY,
    trigger: null, source, free: e.free };
  const cands = allowed.filter((c) => permitPlayable(g, c, controller, offer));
  if (!cands.length && !(e.zone === "hand" && zone.length)) {
    g.log("  permission: nothing can be played", { actor: controller, cards: [source], rule: "OPP Permissions",
      privateTo: controller, publicText: `  permission: ${g.name(controller)} plays nothing` });
    return true;
  }
  g.ask("choice", controller, 0, 1, true, cands, { ...offer, values: cands });
  return false;
}
