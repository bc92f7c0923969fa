// The match state and its snapshot (docs/determinism.md §2, §4), a port of engine/core.py MatchState (the
// state and the queries every rule asks), engine/game.py Game.new, engine/decisions.py (ask, priority, the
// end) and the commands of engine/commands.py the spine plays (do_play of a unit or relic with no effect,
// do_attack, do_block, do_choose of the cleanup discard). The rules themselves are in their own modules,
// named after the Python ones: turn.ts, priority.ts, combat.ts, sba.ts, keywords.ts, pipeline.ts, zones.ts,
// and hooks.ts (where the spine hands over to triggers, effects and the stack). The port stops with
// NotPorted where it would have to guess.

import { COIN_CARD, Cards } from "./numbers";
import { CardDB, CardDef } from "./cards";
import { Value, canonicalBytes } from "./canonical";
import { SplitMix64 } from "./rng";
import { createHash } from "node:crypto";
import { NotPorted } from "./errors";
import { DRAW_START, Perm, StackItem, Trigger, WINDOWS, stackItemSnapshot, triggerSnapshot } from "./state";
import { afterAction, afterDeclaration, endPhase, goto } from "./turn";
import { doPass } from "./priority";
import { combatants } from "./combat";
import { attackRefusal, blockRefusal } from "./legality";
import { announcePlay, fire } from "./hooks";
import { draw, toGraveyard } from "./zones";
import { SET_COST, rally } from "./keywords";
import { AFTER_DECLARATION, afterActionOf, resume } from "./decisions";
import { InterruptWindow, interruptSnapshot, nextInterrupt, offerInterrupts } from "./interrupts";
import { Resolving, chooseBranch, chooseOrder, resolvingSnapshot } from "./paradox";
import { putOnStack } from "./stack";
import { playCost } from "./voidcast";
import { Event, LogFields, log } from "./events";

export { NotPorted };

/** The snapshot encoding version (engine/canonical.py ENCODING). */
export const ENCODING = 2;

export const SEAT_MODIFIERS: Record<string, number> = {
  draw_count: 1, hand_size: 8, max_influence: 10, influence_gain: 1, starting_life_bonus: 0, opening_hand: 5,
  starting_influence: 0, unit_slots: 6, relic_slots: 3, extra_combat_phases: 0, skip_draw_post: 0,
  skip_influence_response: 0, skip_combat_exit: 0,
};
export interface Options {
  practice: boolean; max_turns: number; unit_slots: number; relic_slots: number; actor_keeps_priority: boolean;
  first: string; first_player_draws: boolean; compensation: string;
}

/** MatchOptions.from_dict: a record's or snapshot's options; an absent compensation is "card+coin". */
export function optionsOf(d: Record<string, unknown>): Options {
  const o: Options = { practice: false, max_turns: 0, unit_slots: 6, relic_slots: 3, actor_keeps_priority: false,
    first: "p1", first_player_draws: false, compensation: "card+coin" };
  for (const [k, v] of Object.entries(d)) {
    if (!(k in o)) throw new TypeError(`unknown option '${k}'`);
    if (typeof v !== typeof (o as unknown as Record<string, unknown>)[k]) throw new TypeError(`option '${k}' has the wrong type`);
    (o as unknown as Record<string, unknown>)[k] = v;
  }
  if (!["p1", "p2", "random"].includes(o.first)) throw new TypeError(`first = '${o.first}'`);
  return o;
}

/** MatchOptions.to_dict: the defaults `first`, `first_player_draws` and "card+coin" are left out. */
function optionsSnapshot(o: Options): Record<string, unknown> {
  const out: Record<string, unknown> = { practice: o.practice, max_turns: o.max_turns, unit_slots: o.unit_slots,
    relic_slots: o.relic_slots, actor_keeps_priority: o.actor_keeps_priority };
  if (o.first !== "p1") out.first = o.first;
  if (o.first_player_draws) out.first_player_draws = true;
  if (o.compensation !== "card+coin") out.compensation = o.compensation;
  return out;
}

export interface Player {
  life: number; influence: number; capacity: number; hand: number[]; library: number[]; graveyard: number[];
  void: number[]; set: number[]; board: number[]; relics: number[]; champion: number; seat: number;
  exhaustions: number; permits: [string, string, number][]; draw_count: number; hand_size: number;
  max_influence: number; influence_gain: number;
}

/** decisions.py Decision.snapshot: [kind, player, window, min, max, can_decline, eligible]. */
export type Pending = [string, number, string, number, number, boolean, number[]];

/** state.py Choice (the spine's: the cleanup discard; `resume` is a continuation's snapshot). */
export interface Choice { kind: string; player: number; values: number[]; count: number; resume: number[];
  trigger: Trigger | null; source: number; free: boolean }

export interface DeckSpec { champion: string; seat: string; library: string[] }

export class Match {
  readonly rng: SplitMix64;
  readonly cards: Cards;
  /** core.py defs: the card object's definition (an Evolve changes it) */
  readonly defs = new Map<number, CardDef>();
  readonly players: Player[];
  readonly perms = new Map<number, Perm>();
  stack: StackItem[] = [];
  triggers: Trigger[] = [];
  triggerQueue: Trigger[] = [];
  /** combat.py: the declared attackers, and the blocks as [blocker, attacker] (0: left play) */
  attackers: number[] = [];
  blocks: [number, number][] = [];
  lifedrain_due: [number, number] = [0, 0];
  turn = 1;
  active = 0;
  firstPlayer = 0;
  /** the current window (an index into TURN_TABLE) and its position in this turn's structure */
  win = DRAW_START;
  step = 0;
  priority = -1;
  passed = 0;
  seq = 0;
  pending: Pending = ["none", -1, "draw.start", 0, 0, false, []];
  outcome: [string, string] | null = null;
  choice: Choice | null = null;
  /** the players' names (presentation, not in the snapshot: a record's `players`, a scenario's `name`) */
  names = ["p1", "p2"];
  /** a scenario's aliases of cards (lower case; engine/core.py MatchState.aliases) */
  readonly aliases = new Map<string, number>();
  /** interrupts.py: the Interrupt question being asked, if any */
  intr: InterruptWindow | null = null;
  /** paradox.py: Thread branches waiting for the next moment a player would receive priority */
  threads: Trigger[] = [];
  /** paradox.py: a resolution paused at a Flux outcome while Interrupts are asked */
  resolving: Resolving | null = null;
  /** voidcast.py: how each card in the Void was cast */
  readonly voidItems = new Map<number, StackItem>();
  /** bookkeeping, not state (core.py _quiet, _loop_seen): the Endless Loop watch of priority.ts */
  quietCount = 0;
  loopSeen = new Map<string, number>();
  /** bookkeeping, not state (core.py _events): every event of the match, private ones included (events.ts) */
  readonly events: Event[] = [];
  /** whether the pending decision is set_over's (decisions.py: the end is said once per match) */
  private overSaid = false;
  /** core.py len(record): the commands recorded so far (a refused one too, when it cost priority) */
  commandCount = 0;

  constructor(readonly db: CardDB, readonly seed: bigint, readonly options: Options) {
    this.rng = new SplitMix64(seed);
    this.cards = new Cards(this.rng);
    this.players = [0, 1].map(() => ({
      life: 20, influence: 0, capacity: 0, hand: [], library: [], graveyard: [], void: [], set: [],
      board: Array<number>(options.unit_slots).fill(0), relics: Array<number>(options.relic_slots).fill(0),
      champion: 0, seat: 0, exhaustions: 0, permits: [], draw_count: 1, hand_size: 8, max_influence: 10,
      influence_gain: 1,
    }));
  }

  /** core.py log: emit an event (its English text and who may read it: events.ts). */
  log(line: string, f: LogFields = {}): void {
    log(this, line, f);
  }

  /** core.py label: "Name #12". */
  label(cid: number): string {
    return `${this.card(cid).name} #${cid}`;
  }

  /** state.py PlayerState.name: the player's name (a deck's `player`, a record's `players`, else p1/p2). */
  name(p: number): string {
    return this.names[p] as string;
  }

  get window(): string {
    return WINDOWS[this.win] as string;
  }

  /** A card of the card DB by id (setup). */
  cardOf(id: string): CardDef {
    const c = this.db.get(id);
    if (c === undefined) throw new TypeError(`unknown card '${id}'`);
    return c;
  }

  /** core.py card: the definition of card object `cid`. */
  card(cid: number): CardDef {
    const d = this.defs.get(cid);
    if (d === undefined) throw new TypeError(`internal error: #${cid} is no card object with a definition`);
    return d;
  }

  player(p: number): Player {
    return this.players[p] as Player;
  }

  perm(cid: number): Perm {
    const perm = this.perms.get(cid);
    if (perm === undefined) throw new TypeError(`internal error: #${cid} is not in play`);
    return perm;
  }

  newCard(c: CardDef, owner: number, zone: string): number {
    const n = this.cards.add(c.id, owner, zone);
    this.defs.set(n, c);
    return n;
  }

  /** core.py renumber: the card enters a hidden zone with a fresh number. */
  renumber(cid: number, zone: string): number {
    const n = this.cards.renumber(cid, zone);
    this.defs.set(n, this.card(cid));
    // a scenario's name for the card follows it
    for (const [k, v] of this.aliases) if (v === cid) this.aliases.set(k, n);
    return n;
  }

  /** core.py exists: whether `cid` is the number of a card object (not one renumbered from hiding). */
  exists(cid: number): boolean {
    return (this.cards.byNumber.get(cid)?.[0] ?? "") !== "";
  }

  /** state.py PlayerState.units: the occupied unit slots, in order. */
  units(p: number): number[] {
    return this.player(p).board.filter((c) => c);
  }

  zone(cid: number): string {
    return this.cards.byNumber.get(cid)?.[2] ?? "gone";
  }

  setZone(cid: number, zone: string): void {
    this.cards.move(cid, zone);
  }

  owner(cid: number): number {
    return (this.cards.byNumber.get(cid) as [string, number, string])[1];
  }

  /** core.py controller: the owner (nothing changes control yet). */
  controller(cid: number): number {
    return this.owner(cid);
  }

  nextSeq(): number {
    return ++this.seq;
  }

  /** core.py keyword: the number of a keyword the card has now (printed or granted), or null. */
  keyword(cid: number, name: string): number | null {
    const perm = this.perms.get(cid);
    if (perm !== undefined) {
      if (name in perm.temp_granted) return perm.temp_granted[name] as number;
      if (name in perm.granted) return perm.granted[name] as number;
      if (perm.lost.includes(name)) return null;
    }
    return this.card(cid).keywords[name] ?? null;
  }

  power(cid: number): number {
    const perm = this.perm(cid);
    return this.card(cid).power + perm.power_mod + perm.temp_power + (perm.counters.growth ?? 0) - (perm.counters.wither ?? 0);
  }

  maxHealth(cid: number): number {
    const perm = this.perm(cid);
    return this.card(cid).health + perm.health_mod + perm.temp_health + (perm.counters.growth ?? 0) - (perm.counters.wither ?? 0);
  }

  health(cid: number): number {
    return this.maxHealth(cid) - this.perm(cid).damage;
  }

  inPlay(cid: number): boolean {
    const z = this.zone(cid);
    return z === "board" || z === "relics" || z === "command";
  }

  isUnitInPlay(cid: number): boolean {
    return this.zone(cid) === "board";
  }

  isChampion(cid: number): boolean {
    return cid === this.player(0).champion || cid === this.player(1).champion;
  }

  championOwner(cid: number): number {
    return this.player(0).champion === cid ? 0 : 1;
  }

  removeStatus(cid: number, status: string): void {
    const perm = this.perm(cid);
    perm.temp_statuses = perm.temp_statuses.filter((s) => s !== status);
    perm.statuses = perm.statuses.filter((s) => s !== status);
  }

  /** core.py add_status: the list stays sorted (code point order of ASCII names, docs/determinism.md §8 b). */
  addStatus(cid: number, status: string, temporary: boolean): void {
    const perm = this.perm(cid);
    const lst = temporary ? perm.temp_statuses : perm.statuses;
    if (!lst.includes(status)) {
      lst.push(status);
      lst.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    }
  }

  /** core.py permanents: a player's cards in play in the order they entered play (by seq). */
  permanents(p: number): number[] {
    const ps = this.player(p);
    return [...ps.board, ...ps.relics, ps.champion, ps.seat].filter((c) => c)
      .map((c) => [this.perm(c).seq, c] as [number, number]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[1]);
  }

  targetSeqs(targets: number[]): number[] {
    return targets.map((t) => this.perms.get(t)?.seq ?? 0);
  }

  seatMod(p: number, key: string): number {
    const seat = this.defs.get(this.player(p).seat);
    return seat?.modifiers[key] ?? (SEAT_MODIFIERS[key] as number);
  }

  /** core.py apply_seat: the Seat's hooks; the slots (MatchOptions.slots: the Seat's hooks, else the match's
   *  options) change only while they are all empty. */
  applySeat(p: number): void {
    const ps = this.player(p);
    ps.draw_count = this.seatMod(p, "draw_count");
    ps.hand_size = this.seatMod(p, "hand_size");
    ps.max_influence = this.seatMod(p, "max_influence");
    ps.influence_gain = this.seatMod(p, "influence_gain");
    const mods = this.defs.get(ps.seat)?.modifiers ?? {};
    const units = Math.max(1, mods["unit_slots"] ?? this.options.unit_slots);
    const relics = Math.max(0, mods["relic_slots"] ?? this.options.relic_slots);
    if (units !== ps.board.length && !ps.board.some((c) => c)) ps.board = Array<number>(units).fill(0);
    if (relics !== ps.relics.length && !ps.relics.some((c) => c)) ps.relics = Array<number>(relics).fill(0);
  }

  compensates(part: string): boolean {
    return this.options.compensation.split("+").includes(part);
  }

  /** game.py Game.new: who goes first, Champions, Seats, shuffled libraries, opening hands, the Coin;
   * then the turn manager from draw.start to the first decision. */
  static begin(db: CardDB, decks: DeckSpec[], seed: bigint, options: Options, names: readonly string[] = ["", ""]): Match {
    const g = new Match(db, seed, options);
    names.forEach((n, p) => { g.names[p] = n || `p${p + 1}`; });
    g.firstPlayer = g.active = options.first === "random" ? Number(g.rng.below(2n)) : options.first === "p2" ? 1 : 0;
    decks.forEach((deck, p) => {
      const ps = g.player(p);
      ps.champion = g.newCard(g.cardOf(deck.champion), p, "command");
      g.perms.set(ps.champion, new Perm(0, g.nextSeq()));
      ps.seat = g.newCard(g.cardOf(deck.seat), p, "command");
      g.perms.set(ps.seat, new Perm(0, g.nextSeq()));
      g.applySeat(p);
      ps.life = g.cardOf(deck.champion).life + g.seatMod(p, "starting_life_bonus");
      ps.influence = ps.capacity = g.seatMod(p, "starting_influence");
      const order = deck.library.map((_x, i) => i);
      g.rng.shuffle(order);
      for (const i of order) ps.library.push(g.newCard(g.cardOf(deck.library[i] as string), p, "library"));
    });
    const fp = g.firstPlayer;
    g.log(`Match begins: ${g.name(fp)} (p${fp + 1}) goes first${options.first === "random" ? " (drawn at random)" : ""}`,
      { actor: fp, rule: "C1K 1.1" });
    for (const p of [0, 1]) {
      const n = g.seatMod(p, "opening_hand") + (g.compensates("card") && p !== g.firstPlayer ? 1 : 0);
      draw(g, p, n);
    }
    if (g.compensates("coin")) {
      const sp = 1 - g.firstPlayer;
      const coin = g.newCard(g.cardOf(COIN_CARD), sp, "hand");
      g.player(sp).hand.push(coin);
      g.log(`  ${g.name(sp)} goes second and gets ${g.label(coin)}`, { kind: "draw", actor: sp, cards: [coin], amount: 1,
        rule: "RULES Second player", privateTo: sp, publicText: `  ${g.name(sp)} goes second and gets the Coin` });
    }
    goto(g, DRAW_START);
    return g;
  }

  // ---------------------------------------------------------------- decisions (engine/decisions.py)

  /** decisions.py ask: a decision other than priority; nobody holds priority meanwhile. */
  ask(kind: string, player: number, min = 0, max = 0, canDecline = false, eligible: number[] = [],
    choice: Choice | null = null): void {
    if (choice !== null) this.choice = choice;
    this.overSaid = false;
    this.priority = -1;
    this.pending = [kind, player, this.window, min, max, canDecline, [...eligible]];
  }

  setOver(): void {
    if (!this.overSaid) {   // once per match
      const o = this.outcome as [string, string];
      this.log(`  the match is over: ${o[1]} (${o[0]}); the seed was ${this.seed}`, { kind: "game_over",
        actor: o[1] === "draw" ? -1 : o[1] === "p1" ? 0 : 1, detail: o[0], rule: "RULES 1" });
      this.overSaid = true;
    }
    this.priority = -1;
    this.pending = ["none", -1, this.window, 0, 0, false, []];
  }

  givePriority(p: number, passed: number): void {
    this.overSaid = false;
    this.priority = p;
    this.passed = passed;
    this.pending = ["priority", p, this.window, 0, 0, false, []];
    this.log(`  ${this.name(p)} has priority`, { kind: "priority", actor: p, rule: "C1K 6" });
  }

  // ---------------------------------------------------------------- commands (engine/commands.py)
  // A command the Python engine would refuse is not ported (its refusal and C1K 10's effect: ts5's
  // legality.ts): it stops with NotPorted rather than guess.

  private mustDecide(kind: string, p: number, what: string): void {
    if (this.outcome !== null || this.pending[0] !== kind || this.pending[1] !== p) {
      throw new NotPorted(`${what} out of turn: a refusal (engine/legality.py)`);
    }
  }

  /** commands.py apply: a command other than a pass resets the Endless Loop watch. */
  private acted(): void {
    this.quietCount = 0;
    this.loopSeen.clear();
  }

  /** legality.py speed_refusal's test: Slow only for the active player, in main.priority, on an empty stack. */
  private slowAllowed(p: number): boolean {
    return p === this.active && this.window === "main.priority" && !this.stack.length;
  }

  /** commands.py do_play (or do_permit_play, the answer to a play permission): from the hand at its speed,
   * from the Set zone (KW Ambush: at Fast speed) or from the graveyard (a permission): its cost (or Voidcast
   * cost) is paid, it goes on the stack with its targets, mode and slot (stack.py put_on_stack), "when you
   * play" triggers and the opponent's Interrupts (announce_play), then after the action (turn.py
   * after_action) the opponent gets priority. The legality of the play is only checked as far as
   * replay needs it: anything the Python engine would refuse stops with NotPorted. */
  play(p: number, cid: number, slot: number | null, voidcast: boolean, targets: number[], mode: number | null): void {
    if (this.choice !== null && this.choice.kind === "permit") {
      this.permitPlay(p, cid, slot, voidcast, targets, mode);
      return;
    }
    this.mustDecide("priority", p, "a play");
    const ps = this.player(p);
    const d = this.defs.get(cid);
    const from = ps.hand.includes(cid) ? ps.hand : ps.set.includes(cid) ? ps.set : ps.graveyard.includes(cid) ? ps.graveyard : null;
    if (d === undefined || from === null || (voidcast && d.voidcast === null) || ps.influence < playCost(d, voidcast)
        || this.choice !== null || d.nullify || !["unit", "relic", "action"].includes(d.type)
        || ((from === ps.set ? "fast" : d.speed) === "slow" && !this.slowAllowed(p))) {
      throw new NotPorted("a play other than from the hand or the Set zone at its speed or by a permission, paid (engine/legality.py)");
    }
    this.acted();
    ps.influence -= playCost(d, voidcast);
    if (from === ps.set) {
      this.log(`  ${this.name(p)} reveals the Set card ${this.label(cid)} (Ambush: Fast)`, { kind: "move", actor: p, cards: [cid],
        detail: "revealed", rule: "KW Ambush" });
    }
    putOnStack(this, cid, p, slot === null ? -1 : slot - 1, targets, mode ?? 0, false, voidcast);
    if (announcePlay(this, cid, p, afterActionOf(p))) afterAction(this, p);
  }

  /** commands.py do_permit_play: the play command that answers a permission (targets, mode and slot in it). */
  private permitPlay(p: number, cid: number, slot: number | null, voidcast: boolean, targets: number[], mode: number | null): void {
    this.mustDecide("choice", p, "a play by permission");
    const ch = this.choice as Choice;
    const d = this.defs.get(cid);
    if (d === undefined || !ch.values.includes(cid)) throw new NotPorted("a refused play by permission (engine/legality.py)");
    this.acted();
    this.choice = null;
    if (!ch.free) this.player(p).influence -= playCost(d, voidcast);
    this.log(`  ${this.name(p)} plays ${this.label(cid)} by permission`, { rule: "OPP Permissions" });
    putOnStack(this, cid, p, slot === null ? -1 : slot - 1, targets, mode ?? 0, false, voidcast);
    if (!announcePlay(this, cid, p, ch.resume)) return;
    resume(this, ch.resume);
  }

  /** commands.py do_activate: ability `n` (1..) of a card in play: its cost paid (exhausting it, once per
   * turn if it says so), the ability on the stack, then after the action the opponent gets priority. */
  activate(p: number, source: number, n: number, targets: number[]): void {
    this.mustDecide("priority", p, "an activation");
    const perm = this.perms.get(source);
    const d = this.defs.get(source);
    const idx = d?.act[n - 1];
    const ab = idx === undefined ? undefined : d?.abilities[idx];
    if (perm === undefined || d === undefined || this.controller(source) !== p || idx === undefined || ab === undefined
        || ab.activate === null || ab.activate.cost > this.player(p).influence) {
      throw new NotPorted("a refused activation (engine/legality.py)");
    }
    this.acted();
    const act = ab.activate;
    this.player(p).influence -= act.cost;
    if (act.exhaust) perm.exhausted = true;
    if (act.once_per_turn) perm.used.set(idx, this.turn);
    this.stack.push({ uid: this.nextSeq(), kind: "ability", source, controller: p, adder: p, name: d.name, ability: idx,
      targets: [...targets], mode: 0, keyword: "", ctx: 0, slot: -1, tseq: this.targetSeqs(targets) });
    this.log(`  ${d.name}'s ability → stack (p${p + 1})`, { kind: "stack", actor: p, cards: [source, ...targets], amount: n,
      rule: "ACT 1" });
    afterAction(this, p);
  }

  /** commands.py do_decline: a choice that may be declined (a permission), or an Interrupt question. */
  decline(p: number): void {
    if (this.outcome !== null || this.pending[1] !== p || this.pending[5] !== true) {
      throw new NotPorted("a refused decline (engine/legality.py)");
    }
    this.acted();
    if (this.choice !== null) {
      const ch = this.choice;
      this.choice = null;
      resume(this, ch.resume);
    } else {
      nextInterrupt(this);
    }
  }

  /** commands.py do_set (KW Set, Veil): a card with Ambush is Set face down for SET_COST Influence, at
   * Slow timing; it gets a fresh number in the Set zone (rules.md §7a) and the player keeps priority. */
  setCard(p: number, cid: number): void {
    this.mustDecide("priority", p, "a Set");
    const ps = this.player(p);
    const d = this.defs.get(cid);
    if (d === undefined || !ps.hand.includes(cid) || !("ambush" in d.keywords) || !this.slowAllowed(p) || ps.influence < SET_COST) {
      throw new NotPorted("a refused Set (engine/legality.py set_refusal)");
    }
    this.acted();
    ps.influence -= SET_COST;
    ps.hand.splice(ps.hand.indexOf(cid), 1);
    const n = this.renumber(cid, "set");   // a fresh number in the Set zone, shown to its owner only (rules.md §7a)
    ps.set.push(n);
    this.log(`  ${this.name(p)} Sets ${this.label(n)} face down`, { kind: "set", actor: p, cards: [n], amount: SET_COST,
      rule: "KW Set", privateTo: p, publicText: `  ${this.name(p)} Sets a card face down` });
    this.givePriority(p, 0);
  }

  /** commands.py do_attack: no units ends combat; else they attack and are exhausted, "on attack"
   * triggers, the Rally hook, Interrupts, then priority (turn.py after_declaration). */
  attack(p: number, units: number[]): void {
    this.mustDecide("attackers", p, "an attack");
    const r = attackRefusal(this, units);
    if (r !== null) throw new NotPorted(`a refused attack: ${r.reason} (engine/legality.py)`);
    this.acted();
    if (!units.length) {
      this.log(`  ${this.name(this.active)} declares no attack: combat ends`, { kind: "attack", actor: this.active, rule: "C1K 4.1" });
      goto(this, endPhase(this));
      return;
    }
    this.attackers = [...units];
    for (const u of units) this.perm(u).exhausted = true;
    this.log(`  attackers: ${units.map((u) => this.label(u)).join(", ")}`, { kind: "attack", actor: this.active, cards: units,
      amount: units.length, rule: "C1K 4.1" });
    for (const u of units) fire(this, "on_attack", u);
    rally(this);
    // C1K 7: each player who might use an Interrupt for the event is asked, AP first (rules.md §7a)
    if (offerInterrupts(this, "attacker_declared", [this.active, 1 - this.active], AFTER_DECLARATION, 0, units)) return;
    afterDeclaration(this);
  }

  /** commands.py do_block: the blocks as declared (none, or [blocker, attacker] pairs), "on block" and
   * "start of combat" triggers, then priority. */
  block(p: number, pairs: [number, number][]): void {
    this.mustDecide("blockers", p, "a block");
    const r = blockRefusal(this, pairs);
    if (r !== null) throw new NotPorted(`a refused block: ${r.reason} (engine/legality.py)`);
    this.acted();
    this.blocks = pairs.map(([b, a]) => [b, a]);
    if (pairs.length) {
      this.log("  blocks: " + pairs.map(([b, x]) => `${this.label(b)} blocks ${this.label(x)}`).join(", "), { kind: "block",
        actor: 1 - this.active, cards: pairs.flatMap(([b, x]) => [b, x]), amount: pairs.length, rule: "C1K 4.2" });
    } else {
      this.log(`  ${this.name(1 - this.active)} declares no blockers`, { kind: "block", actor: 1 - this.active, rule: "C1K 4.2" });
    }
    for (const [b] of pairs) fire(this, "on_block", b);
    for (const u of combatants(this)) fire(this, "start_of_combat", u);
    afterDeclaration(this);
  }

  /** commands.py do_choose: the cleanup discard, a Thread branch, an order of Flux effects, a trigger's
   * target or the card a permission plays; then where the choice's continuation says. */
  choose(p: number, options: number[]): void {
    this.mustDecide("choice", p, "a choice");
    const ch = this.choice;
    if (ch === null) throw new NotPorted("a choice with no choice pending (engine/legality.py)");
    const many = ch.kind === "discard" || ch.kind === "order";
    if ((many ? options.length !== ch.count : options.length !== 1) || new Set(options).size !== options.length
        || options.some((k) => k < 1 || k > ch.values.length)) throw new NotPorted("a refused choice (engine/legality.py)");
    this.acted();
    this.choice = null;
    const picked = options.map((k) => ch.values[k - 1] as number);
    if (ch.kind === "discard") {
      const ps = this.player(ch.player);
      for (const c of picked) {
        ps.hand.splice(ps.hand.indexOf(c), 1);
        toGraveyard(this, c);
        this.log(`  ${this.name(ch.player)} discards ${this.label(c)}`, { kind: "discard", actor: ch.player, cards: [c], rule: "C1K 5.2" });
      }
    } else if (ch.kind === "thread") {
      chooseBranch(this, ch, picked[0] as number);
    } else if (ch.kind === "order") {
      chooseOrder(this, ch, options);
    } else if (ch.kind === "trigger_target") {
      const t = ch.trigger as Trigger;
      this.triggerQueue.unshift({ ...t, targets: [...t.targets, picked[0] as number] });
    } else if (ch.kind === "permit") {
      const c = picked[0] as number;
      if (!ch.free) this.player(ch.player).influence -= this.card(c).cost;
      this.log(`  ${this.name(ch.player)} plays ${this.label(c)} by permission`, { kind: "play", actor: ch.player, cards: [c],
        amount: ch.free ? 0 : this.card(c).cost, detail: "permission", rule: "OPP Permissions" });
      putOnStack(this, c, ch.player, -1, [], 0, true);
      if (!announcePlay(this, c, ch.player, ch.resume)) return;
    }
    resume(this, ch.resume);
  }

  /** commands.py do_concede: legal at any time, for either player, until the match is over. */
  concede(p: number): void {
    if (this.outcome !== null) throw new NotPorted("a command after the match is over: a refusal (engine/legality.py)");
    this.acted();
    this.outcome = ["conceded", p === 0 ? "p2" : "p1"];
    this.setOver();
  }

  /** priority.py do_pass. */
  pass(p: number): void {
    this.mustDecide("priority", p, "a pass");
    doPass(this, p);
  }

  /** core.py snapshot(): plain values (booleans, null for absent, bigint beyond 2^53). */
  snapshot(): Record<string, unknown> {
    const big = (n: bigint): bigint | number => (n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n);
    const perms: Record<string, unknown> = {};
    for (const [id, p] of [...this.perms].sort((a, b) => a[0] - b[0])) perms[String(id)] = p.snapshot();
    const snap: Record<string, unknown> = {
      encoding: ENCODING, seed: big(this.seed), rng: big(this.rng.state), turn: this.turn, active: this.active,
      first_player: this.firstPlayer, window: this.window, priority: this.priority, passed: this.passed, seq: this.seq,
      options: optionsSnapshot(this.options), cards: this.cards.list(),
      players: this.players.map((p) => ({ ...p, hand: [...p.hand], library: [...p.library], graveyard: [...p.graveyard],
        void: [...p.void], set: [...p.set], board: [...p.board], relics: [...p.relics], permits: p.permits.map((x) => [...x]) })),
      perms,
      stack: this.stack.map(stackItemSnapshot), triggers: this.triggers.map(triggerSnapshot),
      trigger_queue: this.triggerQueue.map(triggerSnapshot),
      choice: this.choice === null ? null : { ...this.choice, values: [...this.choice.values], resume: [...this.choice.resume],
        trigger: this.choice.trigger === null ? null : triggerSnapshot(this.choice.trigger) },
      interrupt: this.intr === null ? null : interruptSnapshot(this.intr),
      attackers: [...this.attackers], blocks: this.blocks.map((b) => [...b]),
      lifedrain_due: [...this.lifedrain_due],
      void_items: Object.fromEntries([...this.voidItems].sort((a, b) => a[0] - b[0]).map(([k, v]) => [String(k), stackItemSnapshot(v)])),
      resolving: this.resolving === null ? null : resolvingSnapshot(this.resolving), threads: this.threads.map(triggerSnapshot),
      outcome: this.outcome,
      pending: [...this.pending.slice(0, 6), [...this.pending[6]]],
    };
    if (this.step !== this.win) snap.step = this.step;
    return snap;
  }
}

/** A plain snapshot value as a canonical Value (numbers and bigints as BigInt, objects as Maps). */
export function toValue(x: unknown): Value {
  if (typeof x === "number") return BigInt(x);
  if (typeof x === "bigint" || typeof x === "string" || typeof x === "boolean" || x === null) return x;
  if (Array.isArray(x)) return x.map(toValue);
  return new Map(Object.entries(x as Record<string, unknown>).map(([k, v]) => [k, toValue(v)]));
}

/** SHA-256 of the canonical bytes (docs/determinism.md §5). */
export function stateHash(snapshot: Record<string, unknown>): string {
  return createHash("sha256").update(canonicalBytes(toValue(snapshot))).digest("hex");
}
