// The match state and its snapshot (docs/determinism.md §2, §4), a port of engine/core.py MatchState,
// engine/game.py Game.new and the turn manager's walk to the first decision (engine/turn.py goto). Only
// what the first state needs is ported: the port stops with NotPorted where it would have to guess.

import { COIN_CARD, Cards } from "./numbers";
import { CardDB, CardDef } from "./cards";
import { Value, canonicalBytes } from "./canonical";
import { SplitMix64 } from "./rng";
import { createHash } from "node:crypto";
import { placeTriggers, resolveTop, putOnStack, StackItem, itemSnapshot } from "./stack";
import { Trigger, answering, fire, fireWatchers, gameTrigger, triggerSnapshot, whens } from "./triggers";
import { InterruptWindow, interruptSnapshot, nextInterrupt, offerInterrupts } from "./interrupts";
import { Resolving, chooseBranch, chooseOrder, resolvingSnapshot, resumeResolution, runThreads } from "./paradox";
import { playCost, returnsStep } from "./voidcast";
import { permitActive } from "./decisions";

/** A rule the port does not have yet: replay stops (exit 3) naming it and the Python module it is in. */
export class NotPorted extends Error {}

/** The snapshot encoding version (engine/canonical.py ENCODING). */
export const ENCODING = 2;

export const SEAT_MODIFIERS: Record<string, number> = {
  draw_count: 1, hand_size: 8, max_influence: 10, influence_gain: 1, starting_life_bonus: 0, opening_hand: 5,
  starting_influence: 0, unit_slots: 6, relic_slots: 3, extra_combat_phases: 0, skip_draw_post: 0,
  skip_influence_response: 0, skip_combat_exit: 0,
};
/** state.py TURN_TABLE: [window id, kind, turn-based steps] by row. */
const TURN_TABLE: [string, string, string[]][] = [
  ["draw.start", "trigger", ["ready", "phase_trigger"]], ["draw.draw", "turn_based", ["draw"]],
  ["draw.post", "priority", []], ["influence.start", "trigger", ["sba", "phase_trigger"]],
  ["influence.gain", "turn_based", ["influence_gain"]], ["influence.response", "priority", []],
  ["main.priority", "priority", ["phase_trigger"]], ["combat.declare_attackers", "declaration", ["declare_attackers"]],
  ["combat.declare_blockers", "declaration", ["declare_blockers"]], ["combat.damage", "turn_based", ["combat_damage"]],
  ["combat.post", "trigger", ["combat_triggers"]], ["combat.exit", "priority", []],
  ["end.start", "trigger", ["phase_trigger", "voidcast_returns"]], ["end.cleanup", "turn_based", ["cleanup"]],
  ["end.final", "priority", []],
];
const END_START = 12;
const DECLARE_ATTACKERS = 7;
const PHASE_TRIGGERS: Record<string, string> = {
  "draw.start": "start_of_draw", "influence.start": "start_of_influence", "main.priority": "start_of_main",
  "end.start": "start_of_end",
};
const TURN_HOOKS = ["extra_combat_phases", "skip_draw_post", "skip_influence_response", "skip_combat_exit"];

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

interface Player {
  life: number; influence: number; capacity: number; hand: number[]; library: number[]; graveyard: number[];
  void: number[]; set: number[]; board: number[]; relics: number[]; champion: number; seat: number;
  exhaustions: number; permits: [string, string, number][]; draw_count: number; hand_size: number;
  max_influence: number; influence_gain: number;
}

/** continuations.py Continuation: where the game goes once a decision is answered, [then] or [then, actor]
 * (Then: 0 OPEN_PRIORITY, 1 AFTER_ACTION, 2 FINISH_CLEANUP, 3 AFTER_DECLARATION, 4 RESUME_RESOLUTION). */
export type Continuation = number[];
export const OPEN_PRIORITY: Continuation = [0];
export const FINISH_CLEANUP: Continuation = [2];
export const AFTER_DECLARATION: Continuation = [3];

/** state.py Choice: a pending choice, what its numbered options stand for and where the game goes on. */
export interface Choice {
  kind: string; player: number; values: number[]; count: number; resume: Continuation; trigger: Trigger | null;
  source: number; free: boolean;
}

/** A unit or relic that only stands on the board: no effect, ability, keyword, Voidcast cost or evolution. */
export function plain(d: CardDef): boolean {
  return (d.type === "unit" || d.type === "relic") && !d.effect.length && !d.abilities.length
    && !Object.keys(d.keywords).length && d.voidcast === null && d.evolve === null;
}

/** The "when"s whose triggers the port fires (not yet combat.py's on_champion_hit, on_combat_victory,
 * on_combat_loss, on_conquer, which need its bookkeeping of combat damage). */
export const PORTED_WHENS = new Set(["on_play", "on_summon", "on_death", "on_damaged", "on_heal", "on_unit_played",
  "on_action_played", "start_of_draw", "start_of_influence", "start_of_main", "start_of_end", "on_attack", "on_block",
  "start_of_combat", "end_of_attack", "end_of_combat", "on_kill"]);
/** The effect verbs the port carries out (engine/effects.py, engine/paradox.py). */
export const PORTED_VERBS = new Set(["damage", "heal", "draw", "discard", "gain_influence", "buff", "grant", "suppress",
  "destroy", "return_to_hand", "summon", "counter", "permit", "flux", "reroll", "thread"]);

/** The keywords whose rules the port has (Nullify: engine/interrupts.py, legality.py; Flux, Thread:
 * engine/paradox.py; Voidcast: engine/voidcast.py). */
export const PORTED_KEYWORDS = new Set(["nullify", "flux", "thread", "voidcast"]);
/** The events whose Interrupts the port asks for (engine/interrupts.py, engine/paradox.py). */
export const PORTED_INTERRUPTS = new Set(["opponent_plays_action", "opponent_declares_attackers", "flux_outcome",
  "thread_resolves"]);

/** What of a card the port can't play yet, with the Python module it is in; null if nothing. */
export function unported(d: CardDef): string | null {
  const kws = Object.keys(d.keywords).filter((k) => !PORTED_KEYWORDS.has(k));
  if (kws.length) return `the keyword${kws.length > 1 ? "s" : ""} ${kws.join(", ")} of ${d.id} (engine/keywords.py)`;
  if (d.evolve !== null) return `the evolution of ${d.id} (engine/keywords.py)`;
  for (const ab of d.abilities) {
    if (ab.interrupt !== null && !PORTED_INTERRUPTS.has(ab.interrupt)) return `the ${ab.interrupt} Interrupt of ${d.id} (engine/paradox.py)`;
    if (ab.when !== null && !PORTED_WHENS.has(ab.when)) return `the ${ab.when} trigger of ${d.id} (engine/combat.py)`;
  }
  for (const e of [...d.effect, ...d.abilities.filter((a) => a.when !== null).flatMap((a) => a.effect)]) {
    if (!PORTED_VERBS.has(e.do)) return `the effect '${e.do}' of ${d.id} (engine/paradox.py)`;
  }
  return null;
}

/** state.py Perm: the changing state of a card in play. */
export interface Perm {
  damage: number; counters: Record<string, number>; statuses: string[]; temp_statuses: string[]; power_mod: number;
  health_mod: number; temp_power: number; temp_health: number; granted: Record<string, number>;
  temp_granted: Record<string, number>; exhausted: boolean; entered_turn: number; seq: number; ward: number;
  used: Record<string, number>; killer: number; play_targets: number[]; lost: string[];
}

function newPerm(entered_turn: number, seq: number): Perm {
  return { damage: 0, counters: {}, statuses: [], temp_statuses: [], power_mod: 0, health_mod: 0, temp_power: 0,
    temp_health: 0, granted: {}, temp_granted: {}, exhausted: false, entered_turn, seq, ward: 0, used: {}, killer: 0,
    play_targets: [], lost: [] };
}

/** Compare strings by code point (docs/determinism.md §8 b). */
function codePointCompare(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0) as number);
  const y = [...b].map((c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
}

export interface DeckSpec { champion: string; seat: string; library: string[] }

export class Match {
  readonly rng: SplitMix64;
  readonly cards: Cards;
  readonly defs = new Map<number, CardDef>();
  readonly players: Player[];
  readonly perms = new Map<number, Perm>();
  readonly stack: StackItem[] = [];
  /** triggered abilities waiting for the stack, and those being put on it (engine/stack.py) */
  triggers: Trigger[] = [];
  triggerQueue: Trigger[] = [];
  /** priority.py: resolutions in this window with only passes between them (the Endless Loop watch) */
  quietCount = 0;
  /** combat.py: the declared attackers, and the blocks as [blocker, attacker] (0: left play) */
  attackers: number[] = [];
  blocks: [number, number][] = [];
  turn = 1;
  active = 0;
  firstPlayer = 0;
  window = "draw.start";
  priority = -1;
  passed = 0;
  seq = 0;
  pending: unknown[] = ["none", -1, "draw.start", 0, 0, false, []];
  step = 0;
  outcome: [string, string] | null = null;
  choice: Choice | null = null;
  /** interrupts.py: the Interrupt question being asked, if any */
  intr: InterruptWindow | null = null;
  /** paradox.py: Thread branches waiting for the next moment a player would receive priority */
  threads: Trigger[] = [];
  /** paradox.py: a resolution paused at a Flux outcome while Interrupts are asked */
  resolving: Resolving | null = null;
  /** voidcast.py: how each card in the Void was cast */
  readonly voidItems = new Map<number, StackItem>();

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

  card(id: string): CardDef {
    const c = this.db.get(id);
    if (c === undefined) throw new TypeError(`unknown card '${id}'`);
    return c;
  }

  newCard(c: CardDef, owner: number, zone: string): number {
    const n = this.cards.add(c.id, owner, zone);
    this.defs.set(n, c);
    return n;
  }

  seatMod(p: number, key: string): number {
    const seat = this.defs.get((this.players[p] as Player).seat);
    return seat?.modifiers[key] ?? (SEAT_MODIFIERS[key] as number);
  }

  /** core.py apply_seat: the Seat's hooks; the slots change only while they are all empty. */
  applySeat(p: number): void {
    const ps = this.players[p] as Player;
    ps.draw_count = this.seatMod(p, "draw_count");
    ps.hand_size = this.seatMod(p, "hand_size");
    ps.max_influence = this.seatMod(p, "max_influence");
    ps.influence_gain = this.seatMod(p, "influence_gain");
    const units = this.seatMod(p, "unit_slots");
    const relics = this.seatMod(p, "relic_slots");
    if (units !== ps.board.length && !ps.board.some((c) => c)) ps.board = Array<number>(Math.max(1, units)).fill(0);
    if (relics !== ps.relics.length && !ps.relics.some((c) => c)) ps.relics = Array<number>(Math.max(0, relics)).fill(0);
  }

  /** zones.py draw: the top card enters the hand with a fresh number; from an empty library, Deck
   * Exhaustion (a rule's trigger, engine/triggers.py game_trigger). */
  draw(p: number, n: number): void {
    const ps = this.players[p] as Player;
    for (let i = 0; i < n; i++) {
      const top = ps.library.shift();
      if (top === undefined) {
        gameTrigger(this, p, "Deck Exhaustion");
        continue;
      }
      ps.hand.push(this.renumber(top, "hand"));
    }
  }

  /** core.py renumber: the card enters a hidden zone with a fresh number (rules.md §7a). */
  renumber(cid: number, zone: string): number {
    const c = this.cards.renumber(cid, zone);
    this.defs.set(c, this.defs.get(cid) as CardDef);
    return c;
  }

  // ---------------------------------------------------------------- core.py lookups

  player(p: number): Player {
    return this.players[p] as Player;
  }

  /** The definition of card object `cid` (core.py card). */
  def(cid: number): CardDef {
    const d = this.defs.get(cid);
    if (d === undefined) throw new TypeError(`no card #${cid}`);
    return d;
  }

  perm(cid: number): Perm {
    const p = this.perms.get(cid);
    if (p === undefined) throw new TypeError(`#${cid} is not in play`);
    return p;
  }

  zone(cid: number): string {
    return this.cards.byNumber.get(cid)?.[2] ?? "";
  }

  owner(cid: number): number {
    return this.cards.byNumber.get(cid)?.[1] ?? -1;
  }

  controller(cid: number): number {
    return this.owner(cid);
  }

  /** Whether `cid` is the number of a card object (not one renumbered from hiding). */
  exists(cid: number): boolean {
    return (this.cards.byNumber.get(cid)?.[0] ?? "") !== "";
  }

  inPlay(cid: number): boolean {
    return ["board", "relics", "command"].includes(this.zone(cid));
  }

  isUnitInPlay(cid: number): boolean {
    return this.zone(cid) === "board";
  }

  isChampion(cid: number): boolean {
    return this.players.some((ps) => ps.champion === cid);
  }

  /** core.py permanents: a player's cards in play, in the order they entered play. */
  permanents(p: number): number[] {
    const ps = this.player(p);
    return [...ps.board, ...ps.relics, ps.champion, ps.seat].filter((c) => c)
      .map((c) => [this.perm(c).seq, c]).sort((a, b) => (a[0] as number) - (b[0] as number)).map((x) => x[1] as number);
  }

  units(p: number): number[] {
    return this.player(p).board.filter((c) => c);
  }

  nextSeq(): number {
    this.seq += 1;
    return this.seq;
  }

  targetSeqs(targets: number[]): number[] {
    return targets.map((t) => this.perms.get(t)?.seq ?? 0);
  }

  addStatus(cid: number, status: string, temporary: boolean): void {
    const perm = this.perm(cid);
    const lst = temporary ? perm.temp_statuses : perm.statuses;
    if (!lst.includes(status)) {
      lst.push(status);
      lst.sort(codePointCompare);
    }
  }

  power(cid: number): number {
    const perm = this.perm(cid);
    return this.def(cid).power + perm.power_mod + perm.temp_power + (perm.counters.growth ?? 0) - (perm.counters.wither ?? 0);
  }

  maxHealth(cid: number): number {
    const perm = this.perm(cid);
    return this.def(cid).health + perm.health_mod + perm.temp_health + (perm.counters.growth ?? 0)
      - (perm.counters.wither ?? 0);
  }

  compensates(part: string): boolean {
    return this.options.compensation.split("+").includes(part);
  }

  /** game.py Game.new: who goes first, Champions, Seats, shuffled libraries, opening hands, the Coin;
   * then the turn manager from draw.start to the first decision. */
  static begin(db: CardDB, decks: DeckSpec[], seed: bigint, options: Options): Match {
    const g = new Match(db, seed, options);
    g.firstPlayer = g.active = options.first === "random" ? Number(g.rng.below(2n)) : options.first === "p2" ? 1 : 0;
    decks.forEach((deck, p) => {
      const ps = g.players[p] as Player;
      ps.champion = g.newCard(g.card(deck.champion), p, "command");
      g.perms.set(ps.champion, newPerm(0, ++g.seq));
      ps.seat = g.newCard(g.card(deck.seat), p, "command");
      g.perms.set(ps.seat, newPerm(0, ++g.seq));
      g.applySeat(p);
      ps.life = g.card(deck.champion).life + g.seatMod(p, "starting_life_bonus");
      ps.influence = ps.capacity = g.seatMod(p, "starting_influence");
      const order = deck.library.map((_x, i) => i);
      g.rng.shuffle(order);
      for (const i of order) ps.library.push(g.newCard(g.card(deck.library[i] as string), p, "library"));
    });
    for (const p of [0, 1]) {
      g.draw(p, g.seatMod(p, "opening_hand") + (g.compensates("card") && p !== g.firstPlayer ? 1 : 0));
    }
    if (g.compensates("coin")) {
      const sp = 1 - g.firstPlayer;
      (g.players[sp] as Player).hand.push(g.newCard(g.card(COIN_CARD), sp, "hand"));
    }
    g.toFirstDecision();
    return g;
  }

  /** turn.py goto(draw.start): the turn manager walks to the first decision. */
  private toFirstDecision(): void {
    for (const p of [0, 1]) {
      const seat = this.defs.get((this.players[p] as Player).seat) as CardDef;
      const hook = TURN_HOOKS.find((k) => k in seat.modifiers);
      if (hook !== undefined) throw new NotPorted(`the Seat's turn hook '${hook}' (engine/turn.py seat_structure)`);
    }
    this.goto(0);
  }

  // ---------------------------------------------------------------- the turn manager (engine/turn.py)
  // Ported for the default turn structure (no Seat hook) and cards with no keyword (unported(): stops
  // with NotPorted where a card would need a rule that isn't here).

  /** turn.py fire_start: start-of-phase triggers of the active player's cards (the rules' own keyword
   * triggers, Growth, Pulse …, are engine/keywords.py's: cards with keywords are refused). */
  private fireStart(when: string, p: number): void {
    for (const cid of answering(this, p, when)) fire(this, when, cid);
  }

  private goto(w: number | null): void {
    while (w !== null) {
      if (this.outcome !== null) break;
      w = this.enter(w);
    }
    if (this.outcome !== null) this.setOver();
  }

  setOver(): void {
    this.priority = -1;
    this.pending = ["none", -1, this.window, 0, 0, false, []];
  }

  /** turn.py enter: the row's steps, then what its kind says; the next window to enter, or null. */
  private enter(w: number): number | null {
    const [id, kind, steps] = TURN_TABLE[w] as [string, string, string[]];
    if (this.stack.length) throw new TypeError(`internal error: entering ${id} with a non-empty stack`);
    this.step = w;
    this.window = id;
    this.priority = -1;
    this.passed = 0;
    this.quietCount = 0;
    for (const step of steps) {
      const ap = this.players[this.active] as Player;
      if (step === "ready") {
        if (this.options.max_turns && this.turn > this.options.max_turns) {
          this.outcome = ["turn_limit", "draw"];
          return null;
        }
        for (const c of [...ap.board, ...ap.relics, ap.champion, ap.seat]) if (c) (this.perms.get(c) as Perm).exhausted = false;
      } else if (step === "phase_trigger") {
        const when = PHASE_TRIGGERS[id];
        if (when !== undefined) this.fireStart(when, this.active);
      } else if (step === "draw") {
        if (!(this.turn === 1 && this.active === this.firstPlayer) || this.options.first_player_draws) this.draw(this.active, ap.draw_count);
      } else if (step === "influence_gain") {
        const secondFirst = this.turn === 2 && this.active !== this.firstPlayer;
        const capacity = secondFirst && this.compensates("capacity");
        if (ap.capacity < ap.max_influence) ap.capacity = Math.min(ap.max_influence, ap.capacity + ap.influence_gain + (capacity ? 1 : 0));
        ap.influence = ap.capacity;
        if (secondFirst && this.compensates("influence")) ap.influence += 1;
      } else if (step === "declare_attackers") {
        // combat.py step_declare_attackers: eligible, the units of the active player (in slot order) that
        // can attack (legality.py can_attack: not exhausted, not deploying; no keyword or status here)
        this.attackers = [];
        this.blocks = [];
        const eligible = ap.board.filter((u) => u && !(this.perms.get(u) as Perm).exhausted
          && (this.perms.get(u) as Perm).entered_turn !== this.turn);
        this.pending = ["attackers", this.active, id, 0, 0, false, eligible];
        return null;
      } else if (step === "declare_blockers") {
        // combat.py step_declare_blockers: an attacker with no keyword or status can't become illegal; the
        // defending player's units that are not exhausted may block (legality.py can_block: no Veiled)
        if (!this.attackers.length) return this.endPhase();
        const dp = 1 - this.active;
        const eligible = (this.players[dp] as Player).board.filter((u) => u && !(this.perms.get(u) as Perm).exhausted);
        this.pending = ["blockers", dp, id, 0, 0, false, eligible];
        return null;
      } else if (step === "combat_damage") {
        this.combatDamage();
        if (this.outcome !== null) return null;
      } else if (step === "combat_triggers") {   // combat.py step_combat_triggers
        for (const a of this.attackers) if (this.isUnitInPlay(a)) fire(this, "end_of_attack", a);
        for (const u of this.combatants()) fire(this, "end_of_combat", u);
      } else if (step === "cleanup") {
        const excess = ap.hand.length - ap.hand_size;
        if (excess > 0) {   // turn.py step_cleanup: a choice, then finish_cleanup
          this.ask("choice", this.active, { min: excess, max: excess, eligible: [...ap.hand],
            choice: { kind: "discard", player: this.active, values: [...ap.hand], count: excess, resume: FINISH_CLEANUP,
              trigger: null, source: 0, free: false } });
          return null;
        }
        this.finishCleanupEffects();
        if (this.outcome !== null) return null;
      } else if (step === "sba") {
        this.sba();
        if (this.outcome !== null) return null;
      } else if (step === "voidcast_returns") {
        returnsStep(this);
      } else {
        throw new NotPorted(`the turn step ${step} (engine/turn.py, engine/combat.py)`);
      }
    }
    if (kind === "turn_based") return this.nextWindow(w);
    if (kind === "declaration") return null;
    return this.openPriority();
  }

  /** turn.py end_turn_effects: "until end of turn" effects end. */
  private endTurnEffects(): void {
    for (const perm of this.perms.values()) {
      if (!(perm.temp_power || perm.temp_health || perm.temp_statuses.length || Object.keys(perm.temp_granted).length)) continue;
      const ward = perm.temp_granted.ward;
      if (ward) perm.ward = Math.max(0, perm.ward - ward);
      perm.temp_power = perm.temp_health = 0;
      perm.temp_statuses = [];
      perm.temp_granted = {};
    }
    for (const ps of this.players) if (ps.permits.length) ps.permits = ps.permits.filter((pm) => permitActive(this, pm[2], true));
  }

  /** turn.py finish_cleanup_effects: "until end of turn" effects end, then state-based actions. */
  private finishCleanupEffects(): void {
    this.endTurnEffects();
    this.sba();
  }

  /** decisions.py ask: a decision other than priority (nobody holds priority while it is pending). */
  ask(kind: string, player: number, o: { min?: number; max?: number; decline?: boolean; eligible?: number[];
    choice?: Choice }): void {
    if (o.choice !== undefined) this.choice = o.choice;
    this.priority = -1;
    this.pending = [kind, player, this.window, o.min ?? 0, o.max ?? 0, o.decline ?? false, [...(o.eligible ?? [])]];
  }

  /** decisions.py resume: where a continuation says the game goes on. */
  resume(how: Continuation): void {
    const then = how[0];
    if (then === 0) this.goto(this.openPriority());
    else if (then === 1) this.afterAction(how[1] as number);
    else if (then === 2) {
      this.finishCleanupEffects();
      this.goto(this.outcome !== null ? null : this.nextWindow(this.step));
    } else if (then === 3) this.goto(this.openPriority());
    else resumeResolution(this);
  }

  /** commands.py do_choose: the cleanup discard, or a trigger's target; then where the choice resumes. */
  choose(p: number, options: number[]): void {
    const ch = this.choice;
    if (ch === null || this.pending[0] !== "choice" || ch.player !== p) throw new NotPorted("a choice out of turn (engine/legality.py)");
    if (options.length !== ch.count || new Set(options).size !== options.length
        || options.some((k) => k < 1 || k > ch.values.length)) throw new NotPorted("a refused choice (engine/legality.py)");
    this.choice = null;
    const picked = options.map((k) => ch.values[k - 1] as number);
    if (ch.kind === "discard") {
      const ps = this.players[p] as Player;
      for (const c of picked) {
        ps.hand.splice(ps.hand.indexOf(c), 1);
        this.toGraveyard(c);
      }
    } else if (ch.kind === "thread") {
      chooseBranch(this, ch, picked[0] as number);
    } else if (ch.kind === "order") {
      chooseOrder(this, ch, options);
    } else if (ch.kind === "permit") {
      const c = picked[0] as number;
      if (!ch.free) this.player(ch.player).influence -= this.def(c).cost;
      putOnStack(this, c, ch.player, -1, [], 0, true);
      if (!this.announcePlay(c, ch.player, ch.resume)) return;
    } else if (ch.kind === "trigger_target") {
      const t = ch.trigger as Trigger;
      this.triggerQueue.unshift({ ...t, targets: [...t.targets, picked[0] as number] });
    } else {
      throw new NotPorted(`a ${ch.kind} choice (engine/commands.py do_choose, engine/paradox.py)`);
    }
    this.resume(ch.resume);
  }

  /** turn.py next_window on the default structure: the next row, or the next turn after the last. */
  private nextWindow(w: number): number {
    if (w === DECLARE_ATTACKERS && !this.attackers.length) return this.endPhase();
    if (w + 1 === END_START) {   // the combat phase is over
      this.attackers = [];
      this.blocks = [];
    }
    if (w + 1 < TURN_TABLE.length) return w + 1;
    this.endTurnEffects();   // a "this turn" effect made after cleanup ends with the turn as well
    this.turn += 1;
    this.active = 1 - this.active;
    this.attackers = [];
    this.blocks = [];
    return 0;
  }

  /** turn.py end_phase from a combat window: combat ends, end.start is next. */
  private endPhase(): number {
    this.attackers = [];
    this.blocks = [];
    return END_START;
  }

  /** turn.py open_priority: state-based actions, then triggers to the stack; then AP gets priority (or a
   * trigger window with an empty stack ends at once). Returns the next window, if any. */
  private openPriority(): number | null {
    if (this.threads.length && !runThreads(this, OPEN_PRIORITY)) return null;
    this.sba();
    if (this.outcome !== null) return null;
    if ((this.triggers.length || this.triggerQueue.length) && !placeTriggers(this, OPEN_PRIORITY)) return null;
    if ((TURN_TABLE[this.step] as [string, string, string[]])[1] === "trigger" && !this.stack.length) return this.nextWindow(this.step);
    this.givePriority(this.active, 0);
    return null;
  }

  /** turn.py after_action: SBA and triggers, then priority to the opponent (C1K §6 step 3). */
  private afterAction(actor: number): void {
    if (this.threads.length && !runThreads(this, [1, actor])) return;
    this.sba();
    if (this.outcome !== null) {
      this.setOver();
      return;
    }
    if ((this.triggers.length || this.triggerQueue.length) && !placeTriggers(this, [1, actor])) return;
    if (this.options.actor_keeps_priority) {
      this.givePriority(actor, 0);
      return;
    }
    const top = this.stack[this.stack.length - 1];
    this.givePriority(1 - actor, top !== undefined && top.adder === actor ? 1 << actor : 0);
  }

  // ---------------------------------------------------------------- combat (engine/combat.py)

  /** Attacks and blocks are ported for matches whose cards in play have no keyword and no combat trigger
   * (no Strike, Overwhelm, Lifedrain, Conquer, Rally, Interrupt or on-attack ability can act). */
  private combatReady(what: string): void {
    for (const ps of this.players) {
      for (const c of [...ps.board, ...ps.relics, ps.champion, ps.seat]) {
        const d = c ? this.def(c) : null;
        const why = d === null ? null : unported(d);
        if (why !== null) throw new NotPorted(`${what} with ${why}`);
      }
    }
  }

  /** commands.py do_attack with units: they attack and are exhausted; then AP gets priority. */
  attack(p: number, units: number[]): void {
    const eligible = this.pending[6] as number[];
    if (this.pending[0] !== "attackers" || this.pending[1] !== p || new Set(units).size !== units.length
        || units.some((u) => !eligible.includes(u))) throw new NotPorted("a refused attack (engine/legality.py)");
    this.combatReady("attacks");
    this.attackers = [...units];
    for (const u of units) (this.perms.get(u) as Perm).exhausted = true;
    for (const u of units) fire(this, "on_attack", u);
    // C1K 7: each player who might use an Interrupt for the event is asked, AP first (rules.md §7a)
    if (offerInterrupts(this, "attacker_declared", [this.active, 1 - this.active], AFTER_DECLARATION, 0, units)) return;
    this.goto(this.openPriority());
  }

  /** commands.py do_block: the blocks as declared (none, or [blocker, attacker] pairs). */
  block(p: number, pairs: [number, number][]): void {
    const eligible = this.pending[6] as number[];
    const blockers = pairs.map((x) => x[0]);
    const attacked = pairs.map((x) => x[1]);
    if (this.pending[0] !== "blockers" || this.pending[1] !== p || new Set(blockers).size !== blockers.length
        || new Set(attacked).size !== attacked.length || blockers.some((b) => !eligible.includes(b))
        || attacked.some((a) => !this.attackers.includes(a))) throw new NotPorted("a refused block (engine/legality.py)");
    this.combatReady("blocks");
    this.blocks = pairs.map(([b, a]) => [b, a]);
    for (const [b] of pairs) fire(this, "on_block", b);
    for (const u of this.combatants()) fire(this, "start_of_combat", u);
    this.goto(this.openPriority());
  }

  /** combat.py combatants: the attackers and blockers still on the board. */
  private combatants(): number[] {
    return [...this.attackers.filter((u) => this.isUnitInPlay(u)), ...this.blocks.map((x) => x[0]).filter((b) => this.isUnitInPlay(b))];
  }

  /** combat.py combat_damage without Strike, Overwhelm, Lifedrain or Conquer: every attacker deals its
   * power to its blocker (none if its blocker left play) or to the defending Champion, every blocker its
   * power to its attacker, in that order and all at once; then state-based actions. */
  private combatDamage(): void {
    const champion = (this.players[1 - this.active] as Player).champion;
    const blocked = new Set(this.blocks.map((x) => x[1]));
    const blockerOf = new Map(this.blocks.filter((x) => x[0]).map(([b, a]) => [a, b]));
    const assignments: [number, number, number][] = [];
    for (const a of this.attackers) {
      if (!this.isUnitInPlay(a)) continue;
      const b = blockerOf.get(a) ?? 0;
      const bHere = b !== 0 && this.isUnitInPlay(b);
      if (bHere) assignments.push([a, b, Math.max(0, this.power(a))]);
      else if (!blocked.has(a)) assignments.push([a, champion, Math.max(0, this.power(a))]);
      if (bHere) assignments.push([b, a, Math.max(0, this.power(b))]);
    }
    for (const [src, dst, amount] of assignments) this.damage(src, dst, amount, true);
    this.sba();
  }

  // ---------------------------------------------------------------- pipeline.py, zones.py

  /** pipeline.py damage with no keyword handler: a Champion loses life, a unit takes damage (on_damaged). */
  damage(src: number, dst: number, amount: number, combat = false): number {
    void combat;
    if (amount <= 0) return 0;
    const ps = this.players.find((q) => q.champion === dst);
    if (ps !== undefined) {
      ps.life -= amount;
      return amount;
    }
    const perm = this.perms.get(dst);
    if (perm === undefined) return 0;
    perm.damage += amount;
    perm.killer = src;
    fire(this, "on_damaged", dst, src);
    return amount;
  }

  /** pipeline.py heal: a Champion gains life; a unit loses damage, at most what it has (on_heal). */
  heal(src: number, dst: number, amount: number): number {
    if (amount <= 0) return 0;
    const ps = this.players.find((q) => q.champion === dst);
    let healed: number;
    if (ps !== undefined) {
      ps.life += amount;
      healed = amount;
    } else {
      const perm = this.perms.get(dst);
      if (perm === undefined) return 0;
      healed = Math.min(perm.damage, amount);
      perm.damage -= healed;
    }
    if (healed > 0) fire(this, "on_heal", dst, src);
    return healed;
  }

  /** sba.py lethal: damage ≥ health (health may also have dropped to 0 or less). */
  private lethal(c: number): boolean {
    const perm = this.perm(c);
    if (perm.damage === 0 && perm.health_mod >= 0 && perm.temp_health >= 0 && !Object.keys(perm.counters).length) {
      return this.def(c).health <= 0;
    }
    return perm.damage >= this.maxHealth(c);
  }

  /** sba.py sba_run without Evolve or combat victories: a Champion at 0 life ends the match; units with
   * lethal damage are destroyed together (active player's first), until nothing changes. */
  sba(): void {
    for (let n = 0; n < 200; n++) {
      if (this.outcome !== null) return;
      const dead = [this.active, 1 - this.active].flatMap((p) => (this.players[p] as Player).board
        .filter((c) => c && this.lethal(c)));
      const lost = [0, 1].filter((p) => (this.players[p] as Player).life <= 0);
      if (lost.length) {
        this.outcome = lost.length === 2 ? ["both_defeated", "draw"] : ["champion_defeated", lost[0] === 0 ? "p2" : "p1"];
        return;
      }
      if (!dead.length) return;
      const killers = new Map(dead.map((c) => [c, this.perm(c).killer]));
      const destroyed = dead.filter((c) => this.destroy(c));
      for (const c of destroyed) {
        const killer = killers.get(c) as number;
        if (this.window === "combat.damage" && killer && !dead.includes(killer) && this.isUnitInPlay(killer)) {
          fire(this, "on_kill", killer, c);
        }
      }
    }
    throw new NotPorted("state-based actions that never settle (engine/sba.py RulesLoopError)");
  }

  /** pipeline.py destroy: its abilities still trigger as it dies (on_death), it leaves play, to the graveyard. */
  destroy(c: number): boolean {
    fire(this, "on_death", c, c);
    this.leavePlay(c);
    this.toGraveyard(c);
    return true;
  }

  /** zones.py leave_play: out of its slot, no longer in combat. */
  leavePlay(c: number): void {
    const ps = this.player(this.owner(c));
    const i = ps.board.indexOf(c);
    if (i >= 0) ps.board[i] = 0;
    const r = ps.relics.indexOf(c);
    if (r >= 0) ps.relics[r] = 0;
    this.perms.delete(c);
    this.attackers = this.attackers.filter((a) => a !== c);
    this.blocks = this.blocks.filter(([b, a]) => !(b === c && a === 0) && !(a === c && b === 0))
      .map(([b, a]) => [b === c ? 0 : b, a === c ? 0 : a]);
  }

  /** zones.py to_graveyard: a token ceases to exist. */
  toGraveyard(c: number): void {
    if (this.def(c).token) {
      this.cards.move(c, "gone");
      return;
    }
    this.player(this.owner(c)).graveyard.push(c);
    this.cards.move(c, "graveyard");
  }

  /** zones.py discard_random. */
  discardRandom(p: number, n: number): void {
    const ps = this.player(p);
    for (let i = 0; i < n; i++) {
      if (!ps.hand.length) return;
      const [c] = ps.hand.splice(Number(this.rng.below(BigInt(ps.hand.length))), 1);
      this.toGraveyard(c as number);
    }
  }

  /** zones.py counter_item. */
  counterItem(uid: number): void {
    const i = this.stack.findIndex((it) => it.uid === uid);
    if (i < 0) return;
    const [it] = this.stack.splice(i, 1);
    if ((it as StackItem).kind === "card" && this.zone((it as StackItem).source) === "stack") this.toGraveyard((it as StackItem).source);
  }

  /** zones.py finish_item: an Action that has resolved goes to the graveyard. */
  finishItem(item: StackItem | null): void {
    if (item !== null && (item.kind === "card" || item.kind === "voidcast") && this.zone(item.source) === "stack") {
      this.toGraveyard(item.source);
    }
  }

  /** decisions.py give_priority. */
  private givePriority(p: number, passed: number): void {
    this.priority = p;
    this.passed = passed;
    this.pending = ["priority", p, this.window, 0, 0, false, []];
  }

  // ---------------------------------------------------------------- commands.py play, priority.py pass

  /** commands.py do_play: the cost paid, the card on the stack (stack.py put_on_stack), "when you play"
   * triggers (C1K 3.2), then after the action (turn.py after_action) the opponent gets priority. The
   * record says the play was legal: only its effect is ported (a refusal stops replay before this). */
  play(p: number, cid: number, slot: number | null, voidcast: boolean, targets: number[], mode: number | null): void {
    if (this.choice !== null && this.choice.kind === "permit") {
      this.permitPlay(p, cid, slot, voidcast, targets, mode);
      return;
    }
    const ps = this.players[p] as Player;
    const d = this.defs.get(cid);
    if (this.pending[0] !== "priority" || this.pending[1] !== p || d === undefined
        || !(ps.hand.includes(cid) || ps.graveyard.includes(cid))
        || (voidcast && d.voidcast === null) || ps.influence < playCost(d, voidcast)) {
      throw new NotPorted("a play other than from the hand or graveyard, paid (engine/legality.py; Ambush from the Set: engine/keywords.py)");
    }
    const why = unported(d);
    if (why !== null) throw new NotPorted(why);
    ps.influence -= playCost(d, voidcast);
    putOnStack(this, cid, p, slot === null ? -1 : slot - 1, targets, mode ?? 0, false, voidcast);
    if (this.announcePlay(cid, p, [1, p])) this.afterAction(p);
  }

  /** commands.py do_permit_play: the play command that answers a permission (targets, mode and slot in it). */
  private permitPlay(p: number, cid: number, slot: number | null, voidcast: boolean, targets: number[], mode: number | null): void {
    const ch = this.choice as Choice;
    const d = this.defs.get(cid);
    if (this.pending[0] !== "choice" || ch.player !== p || d === undefined || !ch.values.includes(cid)) {
      throw new NotPorted("a refused play by permission (engine/legality.py)");
    }
    const why = unported(d);
    if (why !== null) throw new NotPorted(why);
    this.choice = null;
    if (!ch.free) this.player(p).influence -= playCost(d, voidcast);
    putOnStack(this, cid, p, slot === null ? -1 : slot - 1, targets, mode ?? 0, false, voidcast);
    if (!this.announcePlay(cid, p, ch.resume)) return;
    this.resume(ch.resume);
  }

  /** commands.py announce_play: "when you play a Unit / an Action" triggers, then the opponent's
   * Interrupts for an Action (C1K 7: asked on public facts, legality.py may_interrupt; not ported). */
  private announcePlay(cid: number, p: number, then: Continuation): boolean {
    const d = this.def(cid);
    if (d.type === "unit" || d.type === "action") fireWatchers(this, d.type === "unit" ? "on_unit_played" : "on_action_played", p, cid);
    if (d.type === "action") {
      const top = this.stack[this.stack.length - 1] as StackItem;
      if (offerInterrupts(this, "opponent_plays_action", [1 - p], then, top.uid)) return false;
    }
    return true;
  }

  /** zones.py enter_play: into the chosen empty slot, else the first empty one, else the graveyard. */
  enterPlay(cid: number, p: number, slot: number | null, summoned: boolean): boolean {
    void summoned;
    const ps = this.players[p] as Player;
    const d = this.def(cid);
    const why = unported(d);
    if (why !== null) throw new NotPorted(why);
    const relic = d.type === "relic";
    const slots = relic ? ps.relics : ps.board;
    if (slot === null || !(slot >= 0 && slot < slots.length) || slots[slot]) {
      if (!slots.includes(0)) {
        this.toGraveyard(cid);
        return false;
      }
      slot = slots.indexOf(0);
    }
    slots[slot] = cid;
    this.cards.move(cid, relic ? "relics" : "board");
    this.perms.set(cid, newPerm(this.turn, this.nextSeq()));
    return true;
  }

  /** priority.py do_pass: a player-added top item resolves when the other player passes, a game-added one
   * when both have; then turn.py open_priority. On an empty stack both passed ends the window. */
  pass(p: number): void {
    if (this.pending[0] !== "priority" || this.pending[1] !== p) throw new NotPorted("a pass out of turn (engine/legality.py)");
    this.passed |= 1 << p;
    const top = this.stack[this.stack.length - 1];
    if (top !== undefined) {
      if ((top.adder >= 0 && p !== top.adder) || (top.adder < 0 && this.passed === 3)) {
        this.priority = -1;
        const win = this.step;
        if (resolveTop(this)) this.goto(this.openPriority());
        else if (this.outcome !== null) this.setOver();
        if (this.step === win && this.outcome === null) {
          // priority.py watch_loop: past LOOP_WATCH resolutions in one window, the loop key is compared
          this.quietCount += 1;
          if (this.quietCount >= 16) throw new NotPorted("the Endless Loop watch (engine/priority.py watch_loop, loop_key)");
        }
        return;
      }
      this.givePriority(1 - p, this.passed);
      return;
    }
    if (this.passed === 3) {
      this.goto(this.nextWindow(this.step));
    } else {
      this.givePriority(1 - p, this.passed);
    }
  }

  /** commands.py do_activate: ability `n` (1..) of a card in play: its cost paid (exhausting it, once per
   * turn if it says so), the ability on the stack, then after the action the opponent gets priority. */
  activate(p: number, source: number, n: number, targets: number[]): void {
    const perm = this.perms.get(source);
    const d = this.defs.get(source);
    const idx = d?.act[n - 1];
    const ab = idx === undefined ? undefined : d?.abilities[idx];
    if (this.pending[0] !== "priority" || this.pending[1] !== p || perm === undefined || d === undefined
        || this.controller(source) !== p || idx === undefined || ab === undefined || ab.activate === null) {
      throw new NotPorted("a refused activation (engine/legality.py)");
    }
    for (const e of ab.effect) if (!PORTED_VERBS.has(e.do)) throw new NotPorted(`the effect '${e.do}' of ${d.id} (engine/paradox.py)`);
    const act = ab.activate;
    this.player(p).influence -= act.cost;
    if (act.exhaust) perm.exhausted = true;
    if (act.once_per_turn) perm.used[String(idx)] = this.turn;
    this.stack.push({ uid: this.nextSeq(), kind: "ability", source, controller: p, adder: p, name: d.name, ability: idx,
      targets: [...targets], mode: 0, keyword: "", ctx: 0, slot: -1, tseq: this.targetSeqs(targets) });
    this.afterAction(p);
  }

  /** commands.py do_decline: a choice that may be declined (a permission), or an Interrupt question. */
  decline(p: number): void {
    if (this.pending[1] !== p || this.pending[5] !== true) throw new NotPorted("a refused decline (engine/legality.py)");
    if (this.choice !== null) {
      const ch = this.choice;
      this.choice = null;
      this.resume(ch.resume);
    } else {
      nextInterrupt(this);
    }
  }

  /** commands.py do_attack with no units: combat ends (turn.py end_phase: end.start is next). */
  attackNone(p: number): void {
    if (this.pending[0] !== "attackers" || this.pending[1] !== p) throw new NotPorted("'attack none' out of turn (engine/legality.py)");
    this.goto(this.endPhase());
  }

  /** core.py snapshot(): plain values (booleans, null for absent, bigint beyond 2^53). */
  snapshot(): Record<string, unknown> {
    const big = (n: bigint): bigint | number => (n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n);
    const perms: Record<string, unknown> = {};
    for (const [id, p] of [...this.perms].sort((a, b) => a[0] - b[0])) {
      perms[String(id)] = { ...p, counters: { ...p.counters }, statuses: [...p.statuses], temp_statuses: [...p.temp_statuses],
        granted: { ...p.granted }, temp_granted: { ...p.temp_granted }, used: { ...p.used }, play_targets: [...p.play_targets],
        lost: [...p.lost] };
    }
    const ch = this.choice;
    return {
      encoding: ENCODING, seed: big(this.seed), rng: big(this.rng.state), turn: this.turn, active: this.active,
      first_player: this.firstPlayer, window: this.window, priority: this.priority, passed: this.passed, seq: this.seq,
      options: optionsSnapshot(this.options), cards: this.cards.list(),
      players: this.players.map((p) => ({ ...p, permits: p.permits.map((x) => [...x]) })),
      perms,
      stack: this.stack.map(itemSnapshot), triggers: this.triggers.map(triggerSnapshot),
      trigger_queue: this.triggerQueue.map(triggerSnapshot),
      choice: ch === null ? null : { kind: ch.kind, player: ch.player, values: [...ch.values], count: ch.count,
        resume: [...ch.resume], trigger: ch.trigger === null ? null : triggerSnapshot(ch.trigger), source: ch.source, free: ch.free },
      interrupt: this.intr === null ? null : interruptSnapshot(this.intr),
      attackers: [...this.attackers], blocks: this.blocks.map((b) => [...b]),
      lifedrain_due: [0, 0],
      void_items: Object.fromEntries([...this.voidItems].sort((a, b) => a[0] - b[0]).map(([k, v]) => [String(k), itemSnapshot(v)])),
      resolving: this.resolving === null ? null : resolvingSnapshot(this.resolving), threads: this.threads.map(triggerSnapshot),
      outcome: this.outcome, pending: this.pending,
    };
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
