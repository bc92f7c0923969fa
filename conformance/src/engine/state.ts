// The pieces of a game state (a port of engine/state.py): the turn structure table and what is derived
// from it, the changing state of a card in play (Perm), triggers waiting for the stack, stack items.
// TURN_TABLE is checked row by row against the Python engine's (fixtures/turn-table.json, layers.ts).

/** One row of the turn structure table: `kind` trigger | turn_based | priority | declaration; `steps`
 * the turn-based steps by name (engine/turn.py TURN_STEPS); `trigger` the window's phase trigger. */
export interface WindowSpec { id: string; kind: string; rule: string; steps: string[]; trigger: string }

export const TURN_TABLE: readonly WindowSpec[] = [
  { id: "draw.start", kind: "trigger", rule: "C1K 1.1", steps: ["ready", "phase_trigger"], trigger: "start_of_draw" },
  { id: "draw.draw", kind: "turn_based", rule: "C1K 1.2", steps: ["draw"], trigger: "" },
  { id: "draw.post", kind: "priority", rule: "C1K 1.3", steps: [], trigger: "" },
  { id: "influence.start", kind: "trigger", rule: "C1K 2.1", steps: ["sba", "phase_trigger"], trigger: "start_of_influence" },
  { id: "influence.gain", kind: "turn_based", rule: "C1K 2.2", steps: ["influence_gain"], trigger: "" },
  { id: "influence.response", kind: "priority", rule: "C1K 2.3", steps: [], trigger: "" },
  { id: "main.priority", kind: "priority", rule: "C1K 3.1", steps: ["phase_trigger"], trigger: "start_of_main" },
  { id: "combat.declare_attackers", kind: "declaration", rule: "C1K 4.1", steps: ["declare_attackers"], trigger: "" },
  { id: "combat.declare_blockers", kind: "declaration", rule: "C1K 4.2", steps: ["declare_blockers"], trigger: "" },
  { id: "combat.damage", kind: "turn_based", rule: "C1K 4.3", steps: ["combat_damage"], trigger: "" },
  { id: "combat.post", kind: "trigger", rule: "C1K 4.4", steps: ["combat_triggers"], trigger: "" },
  { id: "combat.exit", kind: "priority", rule: "C1K 4.5", steps: [], trigger: "" },
  { id: "end.start", kind: "trigger", rule: "C1K 5.1", steps: ["phase_trigger", "voidcast_returns"], trigger: "start_of_end" },
  { id: "end.cleanup", kind: "turn_based", rule: "C1K 5.2", steps: ["cleanup"], trigger: "" },
  { id: "end.final", kind: "priority", rule: "C1K 5.3", steps: [], trigger: "" },
];

export const WINDOWS: readonly string[] = TURN_TABLE.map((w) => w.id);
export const DRAW_START = 0, DRAW_DRAW = 1, DRAW_POST = 2, INFLUENCE_START = 3, INFLUENCE_GAIN = 4,
  INFLUENCE_RESPONSE = 5, MAIN = 6, DECLARE_ATTACKERS = 7, DECLARE_BLOCKERS = 8, COMBAT_DAMAGE = 9,
  COMBAT_POST = 10, COMBAT_EXIT = 11, END_START = 12, END_CLEANUP = 13, END_FINAL = 14;

/** windows with priority only while the stack is non-empty */
export const TRIGGER_WINDOWS: ReadonlySet<number> = new Set(TURN_TABLE.flatMap((w, i) => (w.kind === "trigger" ? [i] : [])));
/** phase triggers by window id (start_of_draw …) */
export const PHASE_TRIGGERS: Readonly<Record<string, string>> = Object.fromEntries(
  TURN_TABLE.filter((w) => w.trigger).map((w) => [w.id, w.trigger]));

export function phaseOf(w: number): string {
  return (WINDOWS[w] as string).split(".", 1)[0] as string;
}

/** the phases in order, each with its windows (the windows sharing the id's prefix) */
export const PHASES: readonly [string, number[]][] = [...new Set(WINDOWS.map((_w, i) => phaseOf(i)))]
  .map((ph) => [ph, WINDOWS.flatMap((_w, i) => (phaseOf(i) === ph ? [i] : []))]);
/** the first window of each phase */
export const PHASE_STARTS: ReadonlySet<number> = new Set(PHASES.map(([, ws]) => ws[0] as number));
/** the default structure of a turn: every window once, in table order */
export const DEFAULT_STRUCTURE: readonly number[] = TURN_TABLE.map((_w, i) => i);
/** the windows a Seat may skip through a named hook, in the order of state.py SKIP_HOOKS */
export const SKIP_HOOKS: readonly [string, number][] = [["skip_draw_post", DRAW_POST],
  ["skip_influence_response", INFLUENCE_RESPONSE], ["skip_combat_exit", COMBAT_EXIT]];

/** The changing state of a card in play (state.py Perm). Gone when it leaves play. */
export class Perm {
  damage = 0;
  counters: Record<string, number> = {};
  statuses: string[] = [];        // sorted; printed or permanently granted
  temp_statuses: string[] = [];   // sorted; end at cleanup
  power_mod = 0;
  health_mod = 0;
  temp_power = 0;
  temp_health = 0;
  granted: Record<string, number> = {};
  temp_granted: Record<string, number> = {};
  exhausted = false;
  ward = 0;
  used = new Map<number, number>();
  killer = 0;
  play_targets: number[] = [];
  lost: string[] = [];

  constructor(public entered_turn: number, public seq: number) {}

  hasStatus(s: string): boolean {
    return this.statuses.includes(s) || this.temp_statuses.includes(s);
  }

  snapshot(): Record<string, unknown> {
    return {
      damage: this.damage, counters: { ...this.counters }, statuses: [...this.statuses],
      temp_statuses: [...this.temp_statuses], power_mod: this.power_mod, health_mod: this.health_mod,
      temp_power: this.temp_power, temp_health: this.temp_health, granted: { ...this.granted },
      temp_granted: { ...this.temp_granted }, exhausted: this.exhausted, entered_turn: this.entered_turn,
      seq: this.seq, ward: this.ward,
      used: Object.fromEntries([...this.used].sort((a, b) => a[0] - b[0]).map(([k, v]) => [String(k), v])),
      killer: this.killer, play_targets: [...this.play_targets], lost: [...this.lost],
    };
  }
}

export type TriggerKind = "trigger" | "keyword" | "game" | "voidcast" | "thread";
export type StackKind = "card" | "ability" | TriggerKind;

/** A triggered ability waiting to be put on the stack (state.py Trigger; `name` is a label, not hashed). */
export interface Trigger {
  controller: number; source: number; ability: number; name: string; seq: number; rank: number;
  kind: TriggerKind; keyword: string; ctx: number; targets: number[]; chosen: boolean; mode: number;
  ordered: boolean; tseq: number[];
}

export function newTrigger(controller: number, source: number, ability: number, name: string, seq: number,
  rank = 0, kind: TriggerKind = "trigger", keyword = "", ctx = 0): Trigger {
  return { controller, source, ability, name, seq, rank, kind, keyword, ctx, targets: [], chosen: false, mode: 0,
    ordered: false, tseq: [] };
}

export function triggerSnapshot(t: Trigger): unknown[] {
  return [t.controller, t.source, t.ability, t.seq, t.rank, t.kind, t.keyword, t.ctx, [...t.targets], t.chosen,
    t.mode, t.ordered, [...t.tseq]];
}

/** One item on the stack (state.py StackItem); `adder` -1: the game (a trigger). */
export interface StackItem {
  uid: number; kind: StackKind; source: number; controller: number; adder: number; name: string;
  ability: number; targets: number[]; mode: number; keyword: string; ctx: number; slot: number; tseq: number[];
}

export function stackItemSnapshot(s: StackItem): unknown[] {
  return [s.uid, s.kind, s.source, s.controller, s.adder, s.ability, [...s.targets], s.mode, s.keyword, s.ctx,
    s.slot, [...s.tseq]];
}
