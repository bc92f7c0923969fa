// The match state and its snapshot (docs/determinism.md §2, §4), a port of engine/core.py MatchState,
// engine/game.py Game.new and the turn manager's walk to the first decision (engine/turn.py goto). Only
// what the first state needs is ported: the port stops with NotPorted where it would have to guess.

import { COIN_CARD, Cards } from "./numbers";
import { CardDB, CardDef } from "./cards";
import { Value, canonicalBytes } from "./canonical";
import { SplitMix64 } from "./rng";
import { createHash } from "node:crypto";

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
export const TURN_TABLE: [string, string, string[]][] = [
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

export interface Player {
  life: number; influence: number; capacity: number; hand: number[]; library: number[]; graveyard: number[];
  void: number[]; set: number[]; board: number[]; relics: number[]; champion: number; seat: number;
  exhaustions: number; permits: [string, string, number][]; draw_count: number; hand_size: number;
  max_influence: number; influence_gain: number;
}

/** state.py StackItem of a card played with no target, mode or Voidcast payment. */
interface StackItem { uid: number; source: number; controller: number; adder: number; slot: number }

/** A unit or relic that only stands on the board: no effect, ability, keyword, Voidcast cost or evolution. */
export function plain(d: CardDef): boolean {
  return (d.type === "unit" || d.type === "relic") && !d.effect.length && !d.abilities.length
    && !Object.keys(d.keywords).length && d.voidcast === null && d.evolve === null;
}

export interface Perm { seq: number; entered_turn: number; exhausted: boolean; damage: number; killer: number }

export interface DeckSpec { champion: string; seat: string; library: string[] }

export class Match {
  readonly rng: SplitMix64;
  readonly cards: Cards;
  readonly defs = new Map<number, CardDef>();
  readonly players: Player[];
  readonly perms = new Map<number, Perm>();
  /** the stack: cards played (kind "card"), no trigger, no ability */
  readonly stack: StackItem[] = [];
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
  choice: { kind: string; player: number; values: number[]; count: number; resume: number[]; trigger: null;
    source: number; free: boolean } | null = null;
  /** the players' names (presentation, not in the snapshot: a record's `players`, a scenario's `name`) */
  names = ["p1", "p2"];
  /** a scenario's aliases of cards (lower case; engine/core.py MatchState.aliases) */
  readonly aliases = new Map<string, number>();

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

  /** zones.py draw: the top card enters the hand with a fresh number. */
  draw(p: number, n: number): void {
    const ps = this.players[p] as Player;
    for (let i = 0; i < n; i++) {
      const top = ps.library.shift();
      if (top === undefined) throw new NotPorted("Deck Exhaustion (engine/zones.py draw, engine/triggers.py)");
      const c = this.cards.renumber(top, "hand");
      this.defs.set(c, this.defs.get(top) as CardDef);
      ps.hand.push(c);
    }
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
      g.perms.set(ps.champion, { seq: ++g.seq, entered_turn: 0, exhausted: false, damage: 0, killer: 0 });
      ps.seat = g.newCard(g.card(deck.seat), p, "command");
      g.perms.set(ps.seat, { seq: ++g.seq, entered_turn: 0, exhausted: false, damage: 0, killer: 0 });
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
  // Ported for a match in which no card is in play but the Champions and Seats and nothing triggers:
  // what passes and "attack none" lead through. Anything else stops with NotPorted.

  private quiet(what: string): void {
    for (const ps of this.players) {
      if ([...ps.board, ...ps.relics].some((c) => c && !plain(this.defs.get(c) as CardDef))
          || ps.void.length || ps.set.length || ps.life <= 0) {
        throw new NotPorted(`${what} with cards in play that have effects, abilities or keywords, cards in the Void or Set, `
          + "or a Champion at 0 life (engine/turn.py, engine/sba.py)");
      }
    }
  }

  /** The active player's Champion and Seat answering a phase trigger (triggers.py answering). */
  private phaseTrigger(when: string): void {
    const ap = this.players[this.active] as Player;
    for (const c of [ap.champion, ap.seat].filter((x) => x)) {   // (a scenario may have no Seat)
      const d = this.defs.get(c) as CardDef;
      if (d.abilities.some((a) => a.when === when)) throw new NotPorted(`${when} triggers of ${d.id} (engine/turn.py phase_trigger, engine/triggers.py)`);
    }
  }

  goto(w: number | null): void {
    while (w !== null) {
      if (this.outcome !== null) break;
      w = this.enter(w);
    }
    if (this.outcome !== null) this.setOver();
  }

  private setOver(): void {
    this.priority = -1;
    this.pending = ["none", -1, this.window, 0, 0, false, []];
  }

  /** turn.py enter: the row's steps, then what its kind says; the next window to enter, or null. */
  private enter(w: number): number | null {
    const [id, kind, steps] = TURN_TABLE[w] as [string, string, string[]];
    this.step = w;
    this.window = id;
    this.priority = -1;
    this.passed = 0;
    this.quiet(`entering ${id}`);
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
        if (when !== undefined) this.phaseTrigger(when);
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
        // can attack (legality.py can_attack: not exhausted, not deploying; a plain unit has no status)
        const eligible = ap.board.filter((u) => u && !(this.perms.get(u) as Perm).exhausted
          && (this.perms.get(u) as Perm).entered_turn !== this.turn);
        this.pending = ["attackers", this.active, id, 0, 0, false, eligible];
        return null;
      } else if (step === "declare_blockers") {
        // combat.py step_declare_blockers: a plain attacker can't become illegal; the defending player's
        // units that are not exhausted may block (legality.py can_block: no Veiled among plain units)
        if (!this.attackers.length) return this.endPhase();
        const dp = 1 - this.active;
        const eligible = (this.players[dp] as Player).board.filter((u) => u && !(this.perms.get(u) as Perm).exhausted);
        this.pending = ["blockers", dp, id, 0, 0, false, eligible];
        return null;
      } else if (step === "combat_damage") {
        this.combatDamage();
      } else if (step === "combat_triggers") {
        // end_of_attack / end_of_combat: plain units have no triggered ability (checked in attack)
      } else if (step === "cleanup") {
        const excess = ap.hand.length - ap.hand_size;
        if (excess > 0) {   // turn.py step_cleanup: a choice, then finish_cleanup (Then.FINISH_CLEANUP = 2)
          this.choice = { kind: "discard", player: this.active, values: [...ap.hand], count: excess, resume: [2],
            trigger: null, source: 0, free: false };
          this.pending = ["choice", this.active, id, excess, excess, false, [...ap.hand]];
          return null;
        }
        this.finishCleanupEffects();
      } else if (step === "sba") {
        this.sba();
        if (this.outcome !== null) return null;
      } else if (step === "voidcast_returns") {
        // nothing to do: no card in the Void (checked above)
      } else {
        throw new NotPorted(`the turn step ${step} (engine/turn.py, engine/combat.py)`);
      }
    }
    if (kind === "turn_based" || kind === "trigger") return this.nextWindow(w);
    this.priority = this.active;
    this.passed = 0;
    this.pending = ["priority", this.active, id, 0, 0, false, []];
    return null;
  }

  /** turn.py finish_cleanup_effects: "until end of turn" effects end (none in a quiet match), SBA. */
  private finishCleanupEffects(): void {
    for (const ps of this.players) if (ps.permits.length) throw new NotPorted("play permissions ending (engine/turn.py end_turn_effects)");
  }

  /** commands.py do_choose for the cleanup discard: the chosen cards go to the graveyard (a token
   * ceases to exist), then the rest of end.cleanup and the next window. */
  choose(p: number, options: number[]): void {
    const ch = this.choice;
    if (ch === null || this.pending[0] !== "choice" || ch.player !== p) throw new NotPorted("a choice out of turn (engine/legality.py)");
    if (ch.kind !== "discard") throw new NotPorted(`a ${ch.kind} choice (engine/commands.py do_choose)`);
    if (options.length !== ch.count || new Set(options).size !== options.length
        || options.some((k) => k < 1 || k > ch.values.length)) throw new NotPorted("a refused choice (engine/legality.py)");
    this.choice = null;
    const ps = this.players[p] as Player;
    for (const c of options.map((k) => ch.values[k - 1] as number)) {
      ps.hand.splice(ps.hand.indexOf(c), 1);
      if ((this.defs.get(c) as CardDef).token) {
        this.cards.move(c, "gone");
      } else {
        ps.graveyard.push(c);
        this.cards.move(c, "graveyard");
      }
    }
    this.quiet("after the discard");
    this.finishCleanupEffects();
    this.goto(this.nextWindow(this.step));
  }

  /** turn.py next_window on the default structure: the next row, or the next turn after the last. */
  private nextWindow(w: number): number {
    if (w === DECLARE_ATTACKERS && !this.attackers.length) return this.endPhase();
    if (w + 1 === END_START) {   // the combat phase is over
      this.attackers = [];
      this.blocks = [];
    }
    if (w + 1 < TURN_TABLE.length) return w + 1;
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

  // ---------------------------------------------------------------- combat of plain units (engine/combat.py)

  /** Attacks and blocks are ported for matches whose every card is a plain unit or relic, or a Champion
   * or Seat with no ability (no trigger, Interrupt, Rally or other keyword can act in combat). */
  private plainMatch(what: string): void {
    for (const d of this.defs.values()) {
      if ((d.type === "champion" || d.type === "seat") ? d.abilities.length || Object.keys(d.keywords).length : !plain(d)) {
        throw new NotPorted(`${what} in a match with ${d.id}, a card with effects, abilities or keywords (engine/combat.py, engine/triggers.py)`);
      }
    }
  }

  /** turn.py after_declaration → open_priority: SBA (nothing to find after a declaration), then AP has priority. */
  private afterDeclaration(): void {
    this.goto(this.openPriority());
  }

  private openPriority(): number | null {
    this.sba();
    if (this.outcome !== null) return null;
    this.givePriority(this.active, 0);
    return null;
  }

  /** commands.py do_attack with units: they attack and are exhausted. */
  attack(p: number, units: number[]): void {
    const eligible = this.pending[6] as number[];
    if (this.pending[0] !== "attackers" || this.pending[1] !== p || new Set(units).size !== units.length
        || units.some((u) => !eligible.includes(u))) throw new NotPorted("a refused attack (engine/legality.py)");
    this.plainMatch("attacks");
    this.attackers = [...units];
    for (const u of units) (this.perms.get(u) as Perm).exhausted = true;
    this.afterDeclaration();
  }

  /** commands.py do_block: the blocks as declared (none, or [blocker, attacker] pairs). */
  block(p: number, pairs: [number, number][]): void {
    const eligible = this.pending[6] as number[];
    const blockers = pairs.map((x) => x[0]);
    const attacked = pairs.map((x) => x[1]);
    if (this.pending[0] !== "blockers" || this.pending[1] !== p || new Set(blockers).size !== blockers.length
        || new Set(attacked).size !== attacked.length || blockers.some((b) => !eligible.includes(b))
        || attacked.some((a) => !this.attackers.includes(a))) throw new NotPorted("a refused block (engine/legality.py)");
    this.blocks = pairs.map(([b, a]) => [b, a]);
    this.afterDeclaration();
  }

  private onBoard(c: number): boolean {
    return c !== 0 && this.cards.byNumber.get(c)?.[2] === "board";
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
      if (!this.onBoard(a)) continue;
      const b = blockerOf.get(a) ?? 0;
      const bHere = this.onBoard(b);
      if (bHere) assignments.push([a, b, this.power(a)]);
      else if (!blocked.has(a)) assignments.push([a, champion, this.power(a)]);
      if (bHere) assignments.push([b, a, this.power(b)]);
    }
    for (const [src, dst, amount] of assignments) this.damage(src, dst, amount);
    this.sba();
  }

  private power(c: number): number {
    return Math.max(0, (this.defs.get(c) as CardDef).power);
  }

  /** pipeline.py damage with no keyword handler: a Champion loses life, a unit takes damage. */
  private damage(src: number, dst: number, amount: number): void {
    if (amount <= 0) return;
    const ps = this.players.find((q) => q.champion === dst);
    if (ps !== undefined) {
      ps.life -= amount;
      return;
    }
    const perm = this.perms.get(dst);
    if (perm === undefined) return;
    perm.damage += amount;
    perm.killer = src;
  }

  /** sba.py sba for plain units: a Champion at 0 life ends the match; units with damage at least their
   * health are destroyed together (active player's first), until nothing changes. */
  private sba(): void {
    for (;;) {
      if (this.outcome !== null) return;
      const dead = [this.active, 1 - this.active].flatMap((p) => (this.players[p] as Player).board
        .filter((c) => c && (this.perms.get(c) as Perm).damage >= (this.defs.get(c) as CardDef).health));
      const lost = [0, 1].filter((p) => (this.players[p] as Player).life <= 0);
      if (lost.length) {
        this.outcome = lost.length === 2 ? ["both_defeated", "draw"] : ["champion_defeated", lost[0] === 0 ? "p2" : "p1"];
        return;
      }
      if (!dead.length) return;
      for (const c of dead) {
        const d = this.defs.get(c) as CardDef;
        if (!plain(d)) throw new NotPorted(`${d.id} destroyed (engine/sba.py, engine/triggers.py)`);
        this.destroy(c);
      }
    }
  }

  /** pipeline.py destroy → zones.py leave_play, to_graveyard. */
  private destroy(c: number): void {
    const owner = (this.cards.byNumber.get(c) as [string, number, string])[1];
    const ps = this.players[owner] as Player;
    const i = ps.board.indexOf(c);
    if (i >= 0) ps.board[i] = 0;
    const r = ps.relics.indexOf(c);
    if (r >= 0) ps.relics[r] = 0;
    this.perms.delete(c);
    this.attackers = this.attackers.filter((a) => a !== c);
    this.blocks = this.blocks.filter(([b, a]) => !(b === c && a === 0) && !(a === c && b === 0))
      .map(([b, a]) => [b === c ? 0 : b, a === c ? 0 : a]);
    if ((this.defs.get(c) as CardDef).token) {
      this.cards.move(c, "gone");
    } else {
      ps.graveyard.push(c);
      this.cards.move(c, "graveyard");
    }
  }

  /** decisions.py give_priority. */
  givePriority(p: number, passed: number): void {
    this.priority = p;
    this.passed = passed;
    this.pending = ["priority", p, this.window, 0, 0, false, []];
  }

  /** commands.py do_play of a unit or relic with no effect, ability, keyword or Voidcast cost, in the
   * main phase on an empty stack: its cost is paid, it goes on the stack (stack.py put_on_stack), and
   * after the action (turn.py after_action: no SBA or trigger to find) the opponent gets priority. */
  play(p: number, cid: number, slot: number | null, voidcast: boolean, targets: number): void {
    const ps = this.players[p] as Player;
    const d = this.defs.get(cid);
    if (this.pending[0] !== "priority" || this.pending[1] !== p || this.window !== "main.priority" || this.stack.length
        || d === undefined || !ps.hand.includes(cid) || voidcast || targets || ps.influence < d.cost) {
      throw new NotPorted("a play other than from the hand at Slow speed, paid, with no target (engine/legality.py)");
    }
    if (!plain(d)) throw new NotPorted(`${d.id}: a card with effects, abilities, keywords or a Voidcast cost (engine/stack.py, engine/effects.py)`);
    for (const q of this.players) {
      for (const c of [q.champion, q.seat].filter((x) => x)) {
        if ((this.defs.get(c) as CardDef).abilities.some((a) => a.when !== null && !Object.values(PHASE_TRIGGERS).includes(a.when))) {
          throw new NotPorted(`the triggered abilities of ${(this.defs.get(c) as CardDef).id} (engine/triggers.py)`);
        }
      }
    }
    ps.influence -= d.cost;
    ps.hand.splice(ps.hand.indexOf(cid), 1);
    this.cards.move(cid, "stack");
    this.stack.push({ uid: ++this.seq, source: cid, controller: p, adder: p, slot: slot === null ? -1 : slot - 1 });
    if (this.options.actor_keeps_priority) this.givePriority(p, 0);
    else this.givePriority(1 - p, 1 << p);
  }

  /** zones.py enter_play: into the chosen empty slot, else the first empty one, else the graveyard. */
  private enterPlay(cid: number, p: number, slot: number): void {
    const ps = this.players[p] as Player;
    const relic = (this.defs.get(cid) as CardDef).type === "relic";
    const slots = relic ? ps.relics : ps.board;
    if (!(slot >= 0 && slot < slots.length) || slots[slot]) {
      if (!slots.includes(0)) {
        ps.graveyard.push(cid);
        this.cards.move(cid, "graveyard");
        return;
      }
      slot = slots.indexOf(0);
    }
    slots[slot] = cid;
    this.cards.move(cid, relic ? "relics" : "board");
    this.perms.set(cid, { seq: ++this.seq, entered_turn: this.turn, exhausted: false, damage: 0, killer: 0 });
  }

  /** priority.py do_pass: on a stack, the top resolves when the player who didn't add it passes (then
   * turn.py open_priority: the active player gets priority); on an empty stack both passed ends the window. */
  pass(p: number): void {
    if (this.pending[0] !== "priority" || this.pending[1] !== p) throw new NotPorted("a pass out of turn (engine/legality.py)");
    this.passed |= 1 << p;
    const top = this.stack[this.stack.length - 1];
    if (top !== undefined) {
      if (p !== top.adder) {
        this.stack.pop();
        this.priority = -1;
        this.enterPlay(top.source, top.controller, top.slot);
        this.quiet("after a resolution");
        this.goto(this.openPriority());
      } else {
        this.givePriority(1 - p, this.passed);
      }
      return;
    }
    if (this.passed === 3) {
      this.goto(this.nextWindow(this.step));
    } else {
      this.priority = 1 - p;
      this.pending = ["priority", 1 - p, this.window, 0, 0, false, []];
    }
  }

  /** commands.py do_attack with no units: combat ends (turn.py end_phase: end.start is next). */
  attackNone(p: number): void {
    if (this.pending[0] !== "attackers" || this.pending[1] !== p) throw new NotPorted("'attack none' out of turn (engine/legality.py)");
    this.goto(END_START);
  }

  /** core.py snapshot(): plain values (booleans, null for absent, bigint beyond 2^53). */
  snapshot(): Record<string, unknown> {
    const big = (n: bigint): bigint | number => (n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n);
    const perms: Record<string, unknown> = {};
    for (const [id, p] of [...this.perms].sort((a, b) => a[0] - b[0])) {
      perms[String(id)] = { damage: p.damage, counters: {}, statuses: [], temp_statuses: [], power_mod: 0, health_mod: 0,
        temp_power: 0, temp_health: 0, granted: {}, temp_granted: {}, exhausted: p.exhausted,
        entered_turn: p.entered_turn, seq: p.seq, ward: 0, used: {}, killer: p.killer, play_targets: [], lost: [] };
    }
    return {
      encoding: ENCODING, seed: big(this.seed), rng: big(this.rng.state), turn: this.turn, active: this.active,
      first_player: this.firstPlayer, window: this.window, priority: this.priority, passed: this.passed, seq: this.seq,
      options: optionsSnapshot(this.options), cards: this.cards.list(),
      players: this.players.map((p) => ({ ...p, permits: p.permits.map((x) => [...x]) })),
      perms,
      stack: this.stack.map((s) => [s.uid, "card", s.source, s.controller, s.adder, -1, [], 0, "", 0, s.slot, []]), triggers: [], trigger_queue: [], choice: this.choice, interrupt: null,
      attackers: [...this.attackers], blocks: this.blocks.map((b) => [...b]),
      lifedrain_due: [0, 0], void_items: {}, resolving: null, threads: [], outcome: this.outcome, pending: this.pending,
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
