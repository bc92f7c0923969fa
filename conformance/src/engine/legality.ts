// Legality: why an action is not legal now, a port of engine/legality.py as far as the ported rules go
// (combat.ts keeps the spine's own short versions of the attack and block checks for its `eligible` lists).
// Every refusal names its rule and gives the true reason (rules.md §3); its text is in a record's
// `refused` and so in the command hash (docs/formats.md §6), so it is ported word for word. A hidden card
// gets the answer of one that exists nowhere (rules.md §7a). Where a check needs a rule the port does
// not have (keywords, statuses, targets, Thread modes, permissions, Interrupts), it stops with NotPorted.

import { CardDef } from "./cards";
import { permitActive } from "./decisions";
import { handInterrupt, usableInterrupts } from "./interrupts";
import { guardRefusal } from "./keywords";
import { Choice, Match, NotPorted, Player } from "./match";
import { Perm, TURN_TABLE } from "./state";
import { effectSlots, playSlots as cardPlaySlots, targetCandidates } from "./targets";
import { playCost } from "./voidcast";

/** An action (engine/actions.py), its card references resolved to numbers. */
export type Action =
  | { kind: "pass" }
  | { kind: "play"; card: number; slot: number | null; targets: number[]; mode: number | null; voidcast: boolean }
  | { kind: "activate"; source: number; n: number; targets: number[] }
  | { kind: "set"; card: number }
  | { kind: "attack"; units: number[] }
  | { kind: "block"; pairs: [number, number][] }
  | { kind: "interrupt"; source: number; targets: number[] }
  | { kind: "decline" }
  | { kind: "choose"; options: number[] }
  | { kind: "concede" };

/** state.py Refusal: the rule and the reason; a record keeps it as "rule: reason". */
export interface Refusal { rule: string; reason: string }

const refuse = (rule: string, reason: string): Refusal => ({ rule, reason });

/** state.py WINDOW_RULE, by window id. */
const WINDOW_RULE: Record<string, string> = Object.fromEntries(TURN_TABLE.map((w) => [w.id, w.rule]));

// ------------------------------------------------------------------ card lookups (engine/core.py MatchState)

export const zoneOf = (g: Match, c: number): string => g.zone(c);
export const ownerOf = (g: Match, c: number): number => g.cards.byNumber.get(c)?.[1] ?? -1;
/** core.py exists: the number of a card object (not one renumbered from hiding). */
export const exists = (g: Match, c: number): boolean => (g.cards.byNumber.get(c)?.[0] ?? "") !== "";
export const defOf = (g: Match, c: number): CardDef => g.defs.get(c) as CardDef;
/** core.py label: "Name #12". */
export const label = (g: Match, c: number): string => `${defOf(g, c).name} #${c}`;
export const playerOf = (g: Match, p: number): Player => g.players[p] as Player;
export const permOf = (g: Match, c: number): Perm => g.perms.get(c) as Perm;

/** core.py visible_to: whether player p may see which card `c` is (libraries, the opponent's hand). */
export function visibleTo(g: Match, c: number, p: number): boolean {
  const z = zoneOf(g, c);
  if (z === "library") return false;
  if (z === "hand" || z === "set") return ownerOf(g, c) === p;
  if (z === "gone") return exists(g, c);
  return true;
}

/** The pending decision's kind, player and rule (state.py Decision; decisions.py ask, give_priority, set_over). */
export function decision(g: Match): { kind: string; player: number; rule: string; canDecline: boolean } {
  const kind = g.pending[0] as string;
  const rule = kind === "none" ? (g.outcome !== null ? "RULES 1" : "C1K 1.1")
    : kind === "choice" ? choiceRule(g) : kind === "interrupt" ? "C1K 7" : (WINDOW_RULE[g.window] as string);
  return { kind, player: g.pending[1] as number, rule, canDecline: g.pending[5] as boolean };
}

/** The rule of a pending choice, by its kind (turn.py step_cleanup, decisions.py offer_permit, paradox.py,
 * stack.py place_triggers: the `ask` that made it). */
const CHOICE_RULE: Record<string, string> = { discard: "C1K 5.2", permit: "OPP Permissions", thread: "KW Thread",
  order: "C1K 8", trigger_target: "C1K 6" };

function choiceRule(g: Match): string {
  const rule = CHOICE_RULE[g.choice?.kind ?? ""];
  if (rule === undefined) throw new NotPorted(`the rule of a ${g.choice?.kind ?? "?"} choice (engine/decisions.py)`);
  return rule;
}

/** state.py Outcome.__str__: "p1 (champion_defeated)". */
export const outcomeText = (g: Match): string => g.outcome === null ? "" : `${g.outcome[1]} (${g.outcome[0]})`;

// ------------------------------------------------------------------ refusal (legality.py)

/** legality.py refusal: the match is over (RULES 1), not the player's turn to decide (C1K 10), then the
 * action's own checks. */
export function refusal(g: Match, a: Action, player: number): Refusal | null {
  if (g.outcome !== null) return refuse("RULES 1", `the match is over (${outcomeText(g)})`);
  if (a.kind === "concede") return null;
  const r = turnRefusal(g, player);
  if (r !== null) return r;
  const d = decision(g);
  switch (a.kind) {
    case "pass":
      return d.kind !== "priority" ? refuse(d.rule, `there is no priority to pass: ${describePending(g)}`) : null;
    case "play":
      if (d.kind === "choice" && g.choice?.kind === "permit") return playRefusal(g, a, player, true, g.choice);
      return notPriority(g) ?? playRefusal(g, a, player);
    case "activate":
      return notPriority(g) ?? activateRefusal(g, a, player);
    case "set":
      return notPriority(g) ?? setRefusal(g, a, player);
    case "attack":
      if (d.kind !== "attackers") {
        return refuse("C1K 4.1", "attackers are declared only at the start of combat (combat.declare_attackers), by the active player");
      }
      return attackRefusal(g, a.units);
    case "block":
      if (d.kind !== "blockers") return refuse("C1K 4.2", "blockers are declared only in combat.declare_blockers, by the defending player");
      return blockRefusal(g, a.pairs);
    case "interrupt":
      if (d.kind !== "interrupt") return refuse("C1K 7", "Interrupts are used only when the game asks (when their event happens)");
      return interruptRefusal(g, a, player);
    case "decline":
      if (d.kind === "choice") return d.canDecline ? null : refuse(d.rule, "this choice can't be declined");
      if (d.kind !== "interrupt") return refuse("C1K 7", "Interrupts are used only when the game asks (when their event happens)");
      return null;
    case "choose":
      return chooseRefusal(g, a.options, player);
  }
}

/** legality.py turn_refusal: only the player the game waits for may act (a neutral reason: §7a). */
export function turnRefusal(g: Match, player: number): Refusal | null {
  const who = g.pending[1] as number;
  if (who === player) return null;
  const whom = who >= 0 ? g.names[who] : "nobody";
  const name = player === 0 || player === 1 ? g.names[player] : "nobody";
  return refuse("C1K 10", `${name} cannot act now: waiting for ${whom} (acting out of priority order)`);
}

export function describePending(g: Match): string {
  const kinds: Record<string, string> = { priority: "act or pass with priority", attackers: "declare attackers",
    blockers: "declare blockers", interrupt: "use or decline an Interrupt", choice: "answer a choice" };
  return kinds[g.pending[0] as string] ?? "nothing (the match is over)";
}

function notPriority(g: Match): Refusal | null {
  const d = decision(g);
  return d.kind !== "priority" ? refuse(d.rule, `you can't do that now: ${describePending(g)}`) : null;
}

function chooseRefusal(g: Match, options: number[], p: number): Refusal | null {
  const d = decision(g);
  if (d.kind !== "choice") return refuse(d.rule, `there is no choice to answer: ${describePending(g)}`);
  const ch = g.choice;
  if (ch === null) throw new Error("a choice is pending without g.choice");
  const n = ch.values.length;
  if (n === 0) return refuse(d.rule, "there is nothing to choose: decline");
  if (options.some((k) => k < 1 || k > n)) return refuse(d.rule, `options are numbered 1 to ${n}`);
  if (new Set(options).size !== options.length) return refuse(d.rule, "each option can be chosen once");
  if (options.length !== ch.count) return refuse(d.rule, `choose exactly ${ch.count} option(s)`);
  if (ch.kind === "permit") {   // `choose n` plays a card that needs no target and no mode
    const c = ch.values[(options[0] as number) - 1] as number;
    const r = playRefusal(g, { kind: "play", card: c, slot: null, targets: [], mode: null, voidcast: false }, p, false, ch);
    const dc = defOf(g, c);
    if (r === null && dc.type === "action" && playSlots(g, c, p, null).length) {
      return refuse("C1K 6", `${dc.name} needs targets: answer with 'play "${dc.name}" target …'`);
    }
    return r;
  }
  return null;
}

/** legality.py playable_from: "hand", "set", "graveyard" (under a permission) or null. */
function playableFrom(g: Match, c: number, p: number): string | null {
  if (ownerOf(g, c) !== p) return null;
  const z = zoneOf(g, c);
  if (z === "hand" || z === "set") return z;
  if (z === "graveyard") {
    const t = defOf(g, c).type;
    for (const [zone, ctype, until] of playerOf(g, p).permits) {
      if (zone === "graveyard" && (ctype === "any" || ctype === t) && permitActive(g, until)) return "graveyard";
    }
  }
  return null;
}

/** legality.py speed_refusal: Slow only for the active player, in main.priority, on an empty stack. */
export function speedRefusal(g: Match, speed: string, p: number, what: string): Refusal | null {
  if (speed !== "slow") return null;
  if (p !== g.active) return refuse("OPP Slow", `${what} is Slow: only the active player may do that, in their own Main Phase`);
  if (g.window !== "main.priority") {
    const extra = g.window === "draw.post" ? " (only Fast actions after the draw)" : "";
    return refuse("OPP Slow", `${what} is Slow: only in main.priority, not in ${g.window}${extra}`);
  }
  if (g.stack.length) return refuse("OPP Slow", `${what} is Slow: only with an empty stack (respond with Fast actions)`);
  return null;
}

/** legality.py play_refusal. `permit`: the play answers that play permission (OPP): it overrides speed and
 * zone, and its card must be one the permission allows. */
function playRefusal(g: Match, a: Extract<Action, { kind: "play" }>, p: number, checkTargets = true,
  permit: Choice | null = null): Refusal | null {
  const cid = a.card;
  if (!exists(g, cid) || !visibleTo(g, cid, p)) return refuse("AS Unit play", `#${cid} is not a card you can play (not in your hand)`);
  const d = defOf(g, cid);
  const where = permit !== null ? "permit" : playableFrom(g, cid, p);
  if (permit !== null && !permit.values.includes(cid)) {
    const allowed = permit.values.map((c) => label(g, c)).join(", ") || "nothing";
    return refuse("OPP Permissions", `${d.name} is not a card this permission lets you play (it allows: ${allowed})`);
  }
  if (where === null) {
    const zone = zoneOf(g, cid);
    if (zone === "graveyard" && ownerOf(g, cid) === p) {
      return refuse("OPP Permissions", `${d.name} is in your graveyard: you need a permission to play it`);
    }
    return refuse("AS Unit play", `${d.name} is not in your hand (it is in ${ownerOf(g, cid) === p ? "your" : "the opponent\u2019s"} ${zone})`);
  }
  if (!["unit", "relic", "action"].includes(d.type)) return refuse("AS Unit play", `${d.name} is a ${d.type} and can't be played`);
  if (a.voidcast && d.voidcast === null) return refuse("KW Voidcast", `${d.name} has no Voidcast cost`);
  if (d.nullify) {
    return refuse("KW Nullify", `${d.name} is not played: it is used from your hand as an Interrupt when your opponent plays an Action`);
  }
  const rule = d.type === "action" ? "AS Action play" : "AS Unit play";
  const r = permit !== null ? null : speedRefusal(g, where === "set" ? "fast" : d.speed, p, d.name);
  if (r !== null) {
    if (d.type === "unit" && g.window === "influence.response") {
      return refuse("C1K 2.3", `${d.name} is a Slow Unit: in the Influence Phase only Fast Units may be deployed`);
    }
    return r;
  }
  const ps = playerOf(g, p);
  const cost = permit !== null && permit.free ? 0 : playCost(d, a.voidcast);
  if (cost > ps.influence) {
    return refuse("COST", `${d.name} costs ${cost} Influence${a.voidcast ? " (Voidcast)" : ""}; you have ${ps.influence}`);
  }
  if (d.type === "unit" && !ps.board.includes(0)) return refuse(rule, "all your unit slots are full");
  if (d.type === "relic" && !ps.relics.includes(0)) return refuse(rule, "all your relic slots are full");
  if (a.slot !== null) {
    const slots = d.type === "relic" ? ps.relics : ps.board;
    if (d.type === "action") return refuse(rule, "only Units and Relics take a slot");
    if (a.slot < 1 || a.slot > slots.length) return refuse(rule, `slots are numbered 1 to ${slots.length}`);
    const taken = slots[a.slot - 1] as number;
    if (taken) return refuse(rule, `slot ${a.slot} is taken by ${label(g, taken)}`);
  }
  const n = d.branches;
  if (a.mode !== null) {
    if (a.mode < 1 || a.mode > n) return refuse("KW Thread", `${d.name} has ${n ? `modes 1 to ${n}` : "no modes"}`);
  } else if (n) {
    return refuse("KW Thread", `${d.name} asks you to choose a branch now: add 'mode 1' … 'mode ${n}'`);
  }
  if (checkTargets) {
    const full = cardPlaySlots(d, a.mode);
    if (!full.length) return a.targets.length ? refuse("C1K 6", "this needs no target") : null;
    return targetsRefusal(g, playSlots(g, cid, p, a.mode), a.targets, p, cid, full);
  }
  return null;
}

/** legality.py play_slots: the targets a `play` command must name. A Unit or Relic whose on-play target has
 * no legal choice may still be played: that trigger is then removed (it has nothing to do). */
export function playSlots(g: Match, cid: number, p: number, mode: number | null): string[] {
  const d = defOf(g, cid);
  const slots = cardPlaySlots(d, mode);
  if (slots.length && d.type !== "action") return slots.filter((s) => targetCandidates(g, s, p, cid).length);
  return slots;
}

/** legality.py targets_refusal. `full`: the slots before those without any legal choice were dropped (a
 * Unit's on-play target): a target named for a dropped slot is refused for its own true reason. */
export function targetsRefusal(g: Match, slots: string[], targets: number[], p: number, source: number,
  full: string[] | null = null): Refusal | null {
  if (targets.length !== slots.length) {
    if (full !== null && targets.length === full.length && full.join() !== slots.join()) {
      for (const [i, slot] of full.entries()) {
        const r = targetRefusal(g, slot, targets[i] as number, p, source);
        if (r !== null) return r;
      }
    }
    if (!slots.length) return refuse("C1K 6", "this needs no target");
    return refuse("C1K 6", `name ${slots.length} target(s): ${slots.map((s) => s.replaceAll("_", " ")).join(", ")}`);
  }
  for (const [i, slot] of slots.entries()) {
    const r = targetRefusal(g, slot, targets[i] as number, p, source);
    if (r !== null) return r;
  }
  return null;
}

/** legality.py target_refusal: why `t` is not a legal choice for a `slot` target of player p (the true reason). */
export function targetRefusal(g: Match, slot: string, t: number, p: number, source: number): Refusal | null {
  if (targetCandidates(g, slot, p, source).includes(t)) return null;
  const known = exists(g, t) && visibleTo(g, t, p);
  const what = known ? label(g, t) : `#${t}`;
  const want = slot.replaceAll("_", " ");
  if (!known) return refuse("C1K 6", `${what} is not a legal target: it needs a ${want}${slot !== "champion" ? " in play" : ""}`);
  if (slot === "champion") return refuse("C1K 6", `${what} is not a legal target: it needs a Champion`);
  if (zoneOf(g, t) !== "board") {
    const where = g.isChampion(t) ? "a Champion" : `in the ${zoneOf(g, t)}`;
    return refuse("C1K 6", `${what} is not a legal target: it needs a ${want} in play, and it is ${where}`);
  }
  if (slot === "friendly_unit" && ownerOf(g, t) !== p) return refuse("C1K 6", `${what} is not a legal target: it needs a friendly unit (one of yours)`);
  if (slot === "enemy_unit" && ownerOf(g, t) === p) {
    return refuse("C1K 6", `${what} is not a legal target: it needs an enemy unit (one of your opponent's)`);
  }
  const perm = g.perms.get(t);
  if (!(perm === undefined || ownerOf(g, t) === p || !perm.hasStatus("veiled"))) {   // keywords.py targetable
    return refuse("KW Veiled", `${what} is Veiled: your opponent's Veiled units can't be targeted (C1K 9, Veil)`);
  }
  return refuse("C1K 6", `${what} is not a legal target for this ${want}`);
}

function activateRefusal(g: Match, a: Extract<Action, { kind: "activate" }>, p: number): Refusal | null {
  const cid = a.source;
  const z = zoneOf(g, cid);
  if (!exists(g, cid) || !["board", "relics", "command"].includes(z)) return refuse("ACT 1", `#${cid} is not a card in play`);
  const d = defOf(g, cid);
  if (ownerOf(g, cid) !== p) return refuse("ACT 2", `${d.name} is not yours: only its controller activates it`);
  if (!d.act.length) return refuse("ACT 1", `${d.name} has no activated ability`);
  if (a.n < 1 || a.n > d.act.length) return refuse("ACT 1", `${d.name} has abilities 1 to ${d.act.length}`);
  const idx = d.act[a.n - 1] as number;
  const ab = d.abilities[idx];
  const act = ab?.activate;
  if (ab === undefined || act === undefined || act === null) throw new Error(`internal error: ${d.id} ability ${a.n}`);
  const perm = permOf(g, cid);
  if (perm.hasStatus("suppressed")) return refuse("KW Suppress", `${d.name} is Suppressed: its abilities don't function`);
  if (act.timing === "end_phase" && g.window !== "end.start" && g.window !== "end.final") {
    return refuse("C1K 5.3", `${d.name}'s ability has End Phase timing: only in the End Phase's priority windows `
      + `(end.start, end.final), not in ${g.window}`);
  }
  const r = speedRefusal(g, act.speed, p, `${d.name}'s ability`);
  if (r !== null) return r;
  if (act.once_per_turn && perm.used.get(idx) === g.turn) {
    return refuse("ACT 3", `${d.name}'s ability can be used once per turn and was used this turn`);
  }
  if (act.exhaust && perm.exhausted) return refuse("COST", `${d.name} is exhausted: its ability's Exhaust cost can't be paid`);
  const influence = playerOf(g, p).influence;
  if (act.cost > influence) return refuse("COST", `the ability costs ${act.cost} Influence; you have ${influence}`);
  const slots = effectSlots(ab.effect);
  if (!slots.length) return a.targets.length ? refuse("C1K 6", "this needs no target") : null;
  return targetsRefusal(g, slots, a.targets, p, cid);
}

/** legality.py interrupt_refusal: a usable Interrupt of p's for the event asked, with legal targets; else the
 * true reason it isn't usable (Suppress, cost, once per turn), or that there is none. */
function interruptRefusal(g: Match, a: Extract<Action, { kind: "interrupt" }>, p: number): Refusal | null {
  const w = g.intr;
  if (w === null) throw new Error("internal error: an Interrupt is pending with no question");
  for (const [cid, , ab] of usableInterrupts(g, p, w.event)) {
    if (cid === a.source) return targetsRefusal(g, effectSlots(ab.effect), a.targets, p, cid);
  }
  const src = a.source;
  if (exists(g, src) && visibleTo(g, src, p) && ownerOf(g, src) === p) {
    const d = defOf(g, src);
    const hi = handInterrupt(g, src);
    const abilities: [number, { interrupt: string | null; cost: number; once_per_turn: boolean }][] =
      hi !== null && zoneOf(g, src) === "hand" ? [[-1, hi]]
        : g.inPlay(src) ? d.abilities.flatMap((ab, i) => (ab.interrupt !== null ? [[i, ab] as [number, typeof ab]] : [])) : [];
    const events = w.event === "attacker_declared" ? [w.event, "opponent_declares_attackers"] : [w.event];
    for (const [i, ab] of abilities) {
      if (!events.includes(ab.interrupt ?? "")) continue;
      const perm = g.perms.get(src);
      if (perm !== undefined && perm.hasStatus("suppressed")) return refuse("KW Suppress", `${d.name} is Suppressed: its abilities don't function`);
      const influence = playerOf(g, p).influence;
      if (ab.cost > influence) return refuse("COST", `${d.name}'s Interrupt costs ${ab.cost} Influence; you have ${influence}`);
      if (perm !== undefined && ab.once_per_turn && perm.used.get(i) === g.turn) {
        return refuse("ACT 3", `${d.name}'s Interrupt can be used once per turn and was used this turn`);
      }
    }
  }
  return refuse("C1K 7", `#${a.source} has no usable Interrupt for this event`);
}

function setRefusal(g: Match, a: Extract<Action, { kind: "set" }>, p: number): Refusal | null {
  const cid = a.card;
  if (!exists(g, cid) || zoneOf(g, cid) !== "hand" || ownerOf(g, cid) !== p) return refuse("KW Set", `#${cid} is not in your hand`);
  const d = defOf(g, cid);
  if (!("ambush" in d.keywords)) return refuse("KW Set", `${d.name} can't be Set: only Veil cards with Ambush can`);
  const r = speedRefusal(g, "slow", p, `Setting ${d.name}`);
  if (r !== null) return refuse("KW Set", r.reason);
  const influence = playerOf(g, p).influence;
  if (influence < SET_COST) return refuse("KW Set", `Setting a card costs ${SET_COST} Influence; you have ${influence}`);
  return null;
}

/** keywords.py SET_COST: Influence to Set a card face down (Veil). */
const SET_COST = 1;

/** legality.py attack_block_reason: why this unit can't attack. */
export function attackBlockReason(g: Match, cid: number): Refusal | null {
  const inPlay = zoneOf(g, cid) === "board";
  if (inPlay && ownerOf(g, cid) !== g.active) {
    return refuse("C1K 4.1", `${label(g, cid)} is not yours: only the active player's units attack`);
  }
  if (!inPlay) return refuse("C1K 4.1", `#${cid} is not a unit of the attacking player in play`);
  const perm = permOf(g, cid);
  const d = defOf(g, cid);
  if (perm.exhausted) {
    return refuse("C1K 4.1", `${d.name} is exhausted (it attacked or was used): units ready at the start of their controller's turn`);
  }
  if (perm.entered_turn === g.turn && g.keyword(cid, "charge") === null) {
    return refuse("KW Charge", `${d.name} entered play this turn and is deploying: only Charge units attack at once`);
  }
  if (perm.hasStatus("rooted")) return refuse("KW Rooted", `${d.name} is Rooted and can't attack`);
  if (perm.hasStatus("suppressed")) return refuse("KW Suppress", `${d.name} is Suppressed and can't attack`);
  return null;
}

/** legality.py can_attack (combat.py's attackers' `eligible` units). */
export function canAttack(g: Match, cid: number): boolean {
  return attackBlockReason(g, cid) === null;
}

/** legality.py attack_refusal */
export function attackRefusal(g: Match, units: number[]): Refusal | null {
  if (new Set(units).size !== units.length) return refuse("C1K 4.1", "each unit attacks once");
  for (const u of units) {
    if (!exists(g, u)) return refuse("C1K 4.1", `#${u} is not a unit of the attacking player in play`);
    const r = attackBlockReason(g, u);
    if (r !== null) return r;
  }
  return null;
}

/** legality.py can_block: why `b` can't block `a`, or null. */
export function canBlock(g: Match, b: number, a: number): Refusal | null {
  const dp = 1 - g.active;
  if (!exists(g, b) || zoneOf(g, b) !== "board" || ownerOf(g, b) !== dp) {
    return refuse("C1K 4.2", `#${b} is not a unit of the defending player in play`);
  }
  if (!g.attackers.includes(a) || zoneOf(g, a) !== "board") return refuse("C1K 4.2", `#${a} is not attacking`);
  if (permOf(g, b).exhausted) return refuse("C1K 4.2", `${defOf(g, b).name} is exhausted and can't block`);
  if (permOf(g, a).hasStatus("veiled") && !permOf(g, b).hasStatus("veiled")) {
    return refuse("KW Veiled", `${defOf(g, a).name} is Veiled: only Veiled units can block it`);
  }
  return null;
}

/** legality.py block_refusal */
export function blockRefusal(g: Match, pairs: [number, number][]): Refusal | null {
  const blockers = pairs.map((x) => x[0]);
  const attacked = pairs.map((x) => x[1]);
  if (new Set(blockers).size !== blockers.length) return refuse("C1K 4.2", "a unit blocks one attacker");
  if (new Set(attacked).size !== attacked.length) return refuse("C1K 4.2", "each attacker can be blocked by at most one unit");
  for (const [b, x] of pairs) {
    const r = canBlock(g, b, x);
    if (r !== null) return r;
  }
  const guard = guardRefusal(g, blockers);   // keywords.py guard_refusal
  return guard === null ? null : refuse("KW Guard", guard);
}
