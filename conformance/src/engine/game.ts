// Commands to actions and their effect, a port of engine/parsing.py (names resolved from what the typist
// may see: rules.md §7a), engine/actions.py command_to_action, and the front of engine/commands.py apply
// (a refused action is refused with its rule and reason, and costs its player priority: C1K 10).
// The actions themselves are carried out by the Match (match.ts) as far as it is ported.

import { Command, MalformedCommand, parseCommand } from "./commands";
import {
  Action, Refusal, decision, defOf, exists, label, outcomeText, playerOf, refusal, turnRefusal, visibleTo,
} from "./legality";
import { doInterrupt } from "./interrupts";
import { suggest } from "./difflib";
import { Match } from "./match";
import type { EventKind } from "./events";

/** actions.py IllegalAction: a well-formed command the rules refuse (its rule and reason). */
export class IllegalAction extends Error {
  constructor(readonly refusal: Refusal) {
    super(`${refusal.rule}: ${refusal.reason}`);
  }
}

const SEATS = ["p1", "p2"];

/** parsing.py player_ref: "p1"/"p2" first, then a player's name (case-insensitive). */
export function playerRef(g: Match, word: string): number | null {
  const w = word.toLowerCase();
  for (const p of [0, 1]) if (w === SEATS[p]) return p;
  for (const p of [0, 1]) if (w === (g.names[p] as string).toLowerCase()) return p;
  return null;
}

const named = (g: Match, c: number, key: string): boolean => {
  const d = defOf(g, c);
  return d.name.toLowerCase() === key || d.id === key;
};

/** core.py permanents: a player's cards in play in the order they entered play (by seq). */
export function permanents(g: Match, p: number): number[] {
  const ps = playerOf(g, p);
  return [...ps.board, ...ps.relics, ps.champion, ps.seat].filter((c) => c)
    .map((c) => [(g.perms.get(c)?.seq ?? 0), c] as [number, number]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[1]);
}

/** parsing.py resolve_ref: the card number `raw` names for `actor`, from what `actor` may see. */
export function resolveRef(g: Match, raw: string, role: string, actor: number): number {
  const a = Math.max(actor, 0);
  if (raw.startsWith("#")) {
    const digits = raw.slice(1);
    if (/^[0-9]+$/.test(digits) && raw.length <= 10 && exists(g, Number(digits)) && visibleTo(g, Number(digits), a)) return Number(digits);
    throw new MalformedCommand(`'${raw}' is not a card you can see`);
  }
  const key = raw.toLowerCase();
  const alias = g.aliases.get(key);
  if (alias !== undefined && visibleTo(g, alias, a)) return alias;
  const p = playerRef(g, key);
  if (p !== null) return playerOf(g, p).champion;
  const ps = playerOf(g, a);
  let pool: number[];
  if (role === "hand") {   // a copy in hand (or Set) first; the graveyard only if none
    pool = [...ps.hand, ...ps.set];
    if (!pool.some((c) => named(g, c, key))) {
      pool = [...ps.graveyard, ...(ps.graveyard.some((c) => named(g, c, key)) ? [] : pool)];
    }
  } else if (role === "attacker") {
    pool = playerOf(g, g.active).board.filter((c) => c);
  } else if (role === "blocker") {
    pool = playerOf(g, 1 - g.active).board.filter((c) => c);
  } else if (role === "source") {
    pool = [...permanents(g, a), ...permanents(g, 1 - a), ...ps.hand];
  } else {
    pool = [...permanents(g, a), ...permanents(g, 1 - a)];
  }
  const matches = pool.filter((c) => named(g, c, key));
  if (!matches.length) {
    // a hint only from what the actor may see
    const everywhere = [...g.defs.keys()].filter((i) => exists(g, i) && defOf(g, i).name.toLowerCase() === key && visibleTo(g, i, a))
      .sort((x, y) => x - y);
    if (everywhere.length) {
      throw new MalformedCommand(`no '${raw}' here (the command needs a card in the ${role} role); use its id, e.g. #${everywhere[0]}`);
    }
    const names = [...new Set(pool.map((c) => defOf(g, c).name))].sort(byCodePoint);
    throw new MalformedCommand(`no card called '${raw}' among ${names.join(", ") || "nothing"}${suggest(raw, names)}`);
  }
  if (matches.length > 1 && role !== "hand") {
    throw new MalformedCommand(`'${raw}' is ambiguous: ${matches.map((c) => label(g, c)).join(", ")}; use the id`);
  }
  return Math.min(...matches);
}

/** Python's sorted() of strings: by code point (docs/determinism.md §8 b). */
export function byCodePoint(x: string, y: string): number {
  const a = [...x].map((c) => c.codePointAt(0) as number);
  const b = [...y].map((c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return a.length - b.length;
}

/** actions.py command_to_action with a resolver (the roles of parsing.py). */
export function toAction(cmd: Command, resolve: (raw: string, role: string) => number): Action {
  const targets = (): number[] => cmd.targets.map((t) => resolve(t, "target"));
  switch (cmd.verb) {
    case "pass": return { kind: "pass" };
    case "decline": return { kind: "decline" };
    case "concede": return { kind: "concede" };
    case "choose": return { kind: "choose", options: [...cmd.numbers] };
    case "set": return { kind: "set", card: resolve(cmd.refs[0] as string, "hand") };
    case "attack": return { kind: "attack", units: cmd.refs.map((r) => resolve(r, "attacker")) };
    case "block": return { kind: "block", pairs: cmd.pairs.map(([b, a]) => [resolve(b, "blocker"), resolve(a, "attacker")]) };
    case "play": {
      const card = resolve(cmd.refs[0] as string, "hand");
      return { kind: "play", card, slot: cmd.slot, targets: targets(), mode: cmd.mode, voidcast: cmd.voidcast };
    }
    case "activate": {
      const source = resolve(cmd.refs[0] as string, "source");
      return { kind: "activate", source, n: cmd.numbers[0] ?? 1, targets: targets() };
    }
    default: {
      const source = resolve(cmd.refs[0] as string, "source");
      return { kind: "interrupt", source, targets: targets() };
    }
  }
}

/** A record's '#12' only (record.py play_line: names are never looked up in a record). */
export function idOf(raw: string): number {
  if (!/^#[0-9]+$/.test(raw)) throw new MalformedCommand(`'${raw}' is not a card number (#n): a record names cards by number`);
  return Number(raw.slice(1));
}

/** parsing.py parse: the acting player (the prefix's, else the one deciding) and the action, names
 * resolved from what that player may see. A command for a player who is not deciding is refused before
 * any name is looked up. */
export function parse(g: Match, text: string): [number | null, Action] {
  const cmd = parseCommand(text);
  let player: number | null = null;
  if (cmd.player !== null) {
    player = playerRef(g, cmd.player);
    if (player === null) throw new MalformedCommand(`unknown player prefix '${cmd.player}:'; expected p1: or p2:`);
  }
  const actor = player ?? (g.outcome === null ? (g.pending[1] as number) : -1);
  if (g.outcome !== null) throw new IllegalAction({ rule: "RULES 1", reason: `the match is over (${outcomeText(g)})` });
  if (cmd.verb !== "concede") {
    const r = turnRefusal(g, actor);
    if (r !== null) throw new IllegalAction(r);
  }
  return [player, toAction(cmd, (raw, role) => resolveRef(g, raw, role, actor))];
}

/** commands.py apply: a refused action raises IllegalAction after changing exactly what C1K §10 says
 * (if the player held priority, priority passes to the opponent, unless in practice mode); a legal one
 * is carried out by the Match. */
export function apply(g: Match, a: Action, player: number | null): void {
  const actor = player ?? (g.outcome === null ? (g.pending[1] as number) : -1);
  if (actor !== 0 && actor !== 1) throw new IllegalAction({ rule: "RULES 1", reason: `the match is over (${outcomeText(g)})` });
  const r = refusal(g, a, actor);
  const seat = SEATS[actor] as string;
  if (r !== null) {
    if (!g.options.practice && g.pending[0] === "priority" && g.priority === actor && a.kind !== "concede") {
      g.commandCount += 1;
      g.givePriority(1 - actor, g.passed);
      // the attempt may name a card in the typist's hand: the other player sees only the rule
      const nxt = g.name(1 - actor);
      g.log(`  refused: ${seat}: ${actionText(a)} — ${r.reason} (${r.rule}); priority passes to ${nxt}`, { kind: "refusal",
        actor, cards: actionCards(a), detail: r.reason, rule: r.rule, privateTo: actor,
        publicText: `  refused: ${seat} tried an action not allowed now (${r.rule}); priority passes to ${nxt}`,
        command: g.commandCount - 1 });
    } else if (a.kind !== "concede") {
      // nothing changed (practice mode, or out of turn): the typist's own note, which the other never sees
      g.log(`  refused: ${seat}: ${actionText(a)} — ${r.reason} (${r.rule})`, { kind: "refusal", actor,
        cards: actionCards(a), detail: r.reason, rule: r.rule, privateTo: actor });
    }
    throw new IllegalAction(r);
  }
  g.commandCount += 1;
  logCommand(g, `${seat}: ${actionText(a)}`, a, actor);
  execute(g, a, actor);
}

/** actions.py str(action): the command as the record keeps it (card numbers as #n). */
export function actionText(a: Action): string {
  const targets = (ts: number[]): string => ts.map((t) => ` target #${t}`).join("");
  switch (a.kind) {
    case "pass": case "decline": case "concede": return a.kind;
    case "choose": return "choose " + a.options.join(" ");
    case "set": return `set #${a.card}`;
    case "attack": return a.units.length ? "attack " + a.units.map((u) => `#${u}`).join(" ") : "attack none";
    case "block": return a.pairs.length ? "block " + a.pairs.map(([b, x]) => `#${b} -> #${x}`).join(", ") : "block none";
    case "play": {
      let s = `play #${a.card}`;
      if (a.slot !== null) s += ` slot ${a.slot}`;
      s += targets(a.targets);
      if (a.mode !== null) s += ` mode ${a.mode}`;
      return a.voidcast ? s + " pay voidcast" : s;
    }
    case "activate": return `activate #${a.source}` + (a.n !== 1 ? ` ${a.n}` : "") + targets(a.targets);
    case "interrupt": return `interrupt #${a.source}` + targets(a.targets);
  }
}

/** commands.py action_cards: the cards a command names, its source first, then its targets. */
export function actionCards(a: Action): number[] {
  switch (a.kind) {
    case "play": return [a.card, ...a.targets];
    case "activate": case "interrupt": return [a.source, ...a.targets];
    case "set": return [a.card];
    case "attack": return [...a.units];
    case "block": return a.pairs.flatMap(([b, x]) => [b, x]);
    default: return [];
  }
}

/** commands.py _COMMAND_KIND: the event kind of each command (a Decline of an Interrupt is "interrupt") */
const COMMAND_KIND: Readonly<Record<Action["kind"], EventKind>> = { pass: "pass", play: "play", activate: "activate",
  attack: "attack", block: "block", interrupt: "interrupt", decline: "choice", choose: "choice", set: "set", concede: "concede" };

/** commands.py log_command: the event of a command about to be carried out. Declining an Interrupt is
 * private to the asked player (what they could have answered with is theirs: rules.md §7a); declining a
 * permission shows the other player the words of "nothing could be played"; a Set card is hidden. */
function logCommand(g: Match, line: string, a: Action, actor: number): void {
  const n = g.commandCount - 1;
  const rule = decision(g).rule;
  if (a.kind === "decline" && g.pending[0] === "interrupt") {
    g.log(line, { kind: "interrupt", actor, detail: "declined", rule: "C1K 7", privateTo: actor, command: n });
    return;
  }
  if (a.kind === "decline" && g.choice !== null && g.choice.kind === "permit") {
    g.log(line, { kind: "choice", actor, detail: "declined", rule, privateTo: actor, command: n,
      publicText: `  permission: ${g.name(actor)} plays nothing` });
    return;
  }
  if (a.kind === "set") {
    g.log(line, { kind: "set", actor, cards: [a.card], rule, command: n, privateTo: actor,
      publicText: `${SEATS[actor] as string}: set a card face down` });
    return;
  }
  g.log(line, { kind: COMMAND_KIND[a.kind], actor, cards: actionCards(a), rule, command: n });
}

/** commands.py execute, as far as the Match has the rules. */
function execute(g: Match, a: Action, p: number): void {
  switch (a.kind) {
    case "pass": g.pass(p); return;
    case "attack": g.attack(p, a.units); return;
    case "block": g.block(p, a.pairs); return;
    case "choose": g.choose(p, a.options); return;
    case "set": g.setCard(p, a.card); return;
    case "concede": g.concede(p); return;
    case "play": g.play(p, a.card, a.slot, a.voidcast, a.targets, a.mode); return;
    case "activate": g.activate(p, a.source, a.n, a.targets); return;
    case "decline": g.decline(p); return;
    case "interrupt": doInterrupt(g, a.source, a.targets, p); return;
  }
}

/** record.py play_line: a recorded command for the seat it names; "" if accepted, else "rule: reason". */
export function playLine(g: Match, seat: number, cmd: Command): string {
  const a = toAction(cmd, (raw) => idOf(raw));
  try {
    apply(g, a, seat);
  } catch (err) {
    if (err instanceof IllegalAction) return err.message;
    throw err;
  }
  return "";
}
