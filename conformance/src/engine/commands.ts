// Command text (docs/formats.md §1): parsing a line into a Command with raw references, and printing an
// action back, a port of engine/actions.py (parse_command, str(action)). Parsing what is printed gives
// the same action back.

import { suggest } from "./difflib";

export class MalformedCommand extends Error {}

export const VERBS = ["pass", "play", "activate", "attack", "block", "interrupt", "decline", "choose", "set", "concede"];
const USAGE: Record<string, string> = {
  pass: "pass", play: "play <card> [slot <n>] [target <ref> ...] [mode <n>] [pay voidcast]",
  activate: "activate <ref> [<n>] [target <ref> ...]", attack: "attack <ref> [<ref> ...]  or  attack none",
  block: "block <blocker> -> <attacker> [, <blocker> -> <attacker> ...]  or  block none",
  interrupt: "interrupt <ref> [target <ref> ...]", decline: "decline", choose: "choose <n> [<n> ...]",
  set: "set <card>", concede: "concede",
};
export const MAX_COMMAND_CHARS = 1000;
const MAX_DIGITS = 6;

/** A syntactically valid command whose references are still raw text (names, aliases, '#12'). */
export interface Command {
  verb: string; refs: string[]; pairs: [string, string][]; targets: string[]; numbers: number[];
  slot: number | null; mode: number | null; voidcast: boolean; player: string | null;
}

/** Python's str.isspace(): Unicode White_Space plus the separators U+001C..U+001F (docs/determinism.md §8). */
function isSpace(c: string): boolean {
  return /^[\s\x1c-\x1f\x85]$/u.test(c) && c !== "\ufeff";
}

function bad(verb: string, what: string): MalformedCommand {
  return new MalformedCommand(`${what}; expected: ${USAGE[verb] ?? verb}`);
}

function show(tok: string, width = 40): string {
  const cps = [...tok];
  return cps.length <= width ? tok : cps.slice(0, width).join("") + "…";
}

const isNumber = (tok: string): boolean => /^[0-9]{1,6}$/.test(tok);

function toInt(verb: string, tok: string, what: string): number {
  if (!isNumber(tok)) {
    if (/^[0-9]+$/.test(tok)) throw bad(verb, `'${show(tok)}' is too large (${what}: at most ${MAX_DIGITS} digits)`);
    throw bad(verb, `'${show(tok)}' is not a number (${what}: digits 0-9)`);
  }
  return Number(tok);
}

function checkRef(verb: string, tok: string): string {
  if (tok.startsWith("#") && !isNumber(tok.slice(1))) throw bad(verb, `'${show(tok)}' is not a card id like #12`);
  return tok;
}

function splitPrefix(text: string): [string | null, string] {
  const at = text.indexOf(":");
  if (at >= 0) {
    const head = pyStrip(text.slice(0, at));
    if (head && !head.includes(" ") && !text.slice(0, at).includes('"')) {
      return [head.toLowerCase(), pyStrip(text.slice(at + 1))];
    }
  }
  return [null, pyStrip(text)];
}

/** Python's str.strip(): removes leading and trailing str.isspace() characters. */
function pyStrip(s: string): string {
  const cs = [...s];
  let a = 0;
  let b = cs.length;
  while (a < b && isSpace(cs[a] as string)) a++;
  while (b > a && isSpace(cs[b - 1] as string)) b--;
  return cs.slice(a, b).join("");
}

/** Words: whitespace separates, "double" or 'single' quotes keep spaces, ',' is a word of its own. */
export function tokens(body: string): string[] {
  const out: string[] = [];
  let cur = "";
  let word = false;
  const cs = [...body];
  for (let i = 0; i < cs.length;) {
    const c = cs[i] as string;
    if (isSpace(c) || c === ",") {
      if (word) {
        out.push(cur);
        cur = "";
        word = false;
      }
      if (c === ",") out.push(",");
      i++;
    } else if (c === '"' || c === "'") {
      const j = cs.indexOf(c, i + 1);
      if (j < 0) throw new MalformedCommand(`cannot read '${show(cs.join(""))}': no closing quotation (close the quotes around a name)`);
      cur += cs.slice(i + 1, j).join("");
      word = true;
      i = j + 1;
    } else {
      cur += c;
      word = true;
      i++;
    }
  }
  if (word) out.push(cur);
  return out;
}

function command(verb: string, player: string | null, parts: Partial<Command> = {}): Command {
  return { verb, refs: [], pairs: [], targets: [], numbers: [], slot: null, mode: null, voidcast: false, player, ...parts };
}

/** Python's str.lower() for the words a command compares (ASCII keywords; names keep their case). */
const lower = (s: string): string => s.toLowerCase();

export function parseCommand(text: string): Command {
  const length = [...text].length; // code points, as Python's len()
  if (length > MAX_COMMAND_CHARS) {
    throw new MalformedCommand(`a command is at most ${MAX_COMMAND_CHARS} characters; this one has ${length}`);
  }
  const [player, body] = splitPrefix(text);
  const toks = tokens(body.replaceAll("->", " -> "));
  if (toks.length === 0) throw new MalformedCommand("empty command; expected one of: " + VERBS.join(", "));
  const verb = lower(toks[0] as string);
  const args = toks.slice(1);
  if (!VERBS.includes(verb)) {
    throw new MalformedCommand(`unknown command '${show(toks[0] as string)}'${suggest([...verb].slice(0, 40).join(""), VERBS)}; `
      + `expected one of: ${VERBS.join(", ")}`);
  }
  if (verb === "pass" || verb === "decline" || verb === "concede") {
    if (args.length) throw bad(verb, `'${verb}' takes nothing after it`);
    return command(verb, player);
  }
  if (verb === "choose") {
    if (!args.length) throw bad(verb, "choose needs at least one number");
    return command(verb, player, { numbers: args.map((a) => toInt(verb, a, "an option number")) });
  }
  if (verb === "set") {
    if (args.length !== 1) throw bad(verb, "set needs exactly one card");
    return command(verb, player, { refs: [checkRef(verb, args[0] as string)] });
  }
  if (verb === "attack" || verb === "block") {
    if (!args.length) throw bad(verb, verb === "attack" ? "attack needs units or 'none'" : "block needs pairs or 'none'");
    if (args.length === 1 && lower(args[0] as string) === "none") return command(verb, player);
    if (verb === "attack") return command(verb, player, { refs: args.map((a) => checkRef(verb, a)) });
    const groups: string[][] = [[]];
    for (const a of args) {
      if (a === ",") groups.push([]);
      else (groups[groups.length - 1] as string[]).push(a);
    }
    const pairs = groups.map((g): [string, string] => {
      if (g.length !== 3 || g[1] !== "->") throw bad(verb, `'${show(g.join(" "))}' is not '<blocker> -> <attacker>'`);
      return [checkRef(verb, g[0] as string), checkRef(verb, g[2] as string)];
    });
    return command(verb, player, { pairs });
  }
  if (!args.length) throw bad(verb, `${verb} needs a card`);
  const ref = checkRef(verb, args[0] as string);
  const rest = args.slice(1);
  const c = command(verb, player, { refs: [ref] });
  for (let i = 0; i < rest.length;) {
    const word = lower(rest[i] as string);
    const next = rest[i + 1];
    if (word === "target" && next !== undefined) {
      c.targets.push(checkRef(verb, next));
      i += 2;
    } else if (word === "slot" && next !== undefined && verb === "play") {
      c.slot = toInt(verb, next, "the slot");
      i += 2;
    } else if (word === "mode" && next !== undefined && verb === "play") {
      c.mode = toInt(verb, next, "the mode");
      i += 2;
    } else if (word === "pay" && next !== undefined && lower(next) === "voidcast" && verb === "play") {
      c.voidcast = true;
      i += 2;
    } else if (verb === "activate" && i === 0 && /^[0-9]+$/.test(word)) {
      c.numbers.push(toInt(verb, word, "the ability number"));
      i += 1;
    } else {
      throw bad(verb, `unexpected '${show(rest[i] as string)}'`);
    }
  }
  return c;
}

function id(tok: string): number {
  if (tok.startsWith("#") && isNumber(tok.slice(1))) return Number(tok.slice(1));
  throw new MalformedCommand(`'${show(tok)}' is not a card id like #12 (names need a game)`);
}

const targets = (ts: string[]): string => ts.map((t) => ` target #${id(t)}`).join("");

/** The command as str(action) prints it (ids as #n); names and aliases need a game: MalformedCommand. */
export function printCommand(c: Command): string {
  switch (c.verb) {
    case "pass": case "decline": case "concede": return c.verb;
    case "choose": return "choose " + c.numbers.join(" ");
    case "set": return `set #${id(c.refs[0] as string)}`;
    case "attack": return c.refs.length ? "attack " + c.refs.map((r) => `#${id(r)}`).join(" ") : "attack none";
    case "block": return c.pairs.length ? "block " + c.pairs.map(([b, a]) => `#${id(b)} -> #${id(a)}`).join(", ") : "block none";
    case "play": {
      let s = `play #${id(c.refs[0] as string)}`;
      if (c.slot !== null) s += ` slot ${c.slot}`;
      s += targets(c.targets);
      if (c.mode !== null) s += ` mode ${c.mode}`;
      return c.voidcast ? s + " pay voidcast" : s;
    }
    case "activate": {
      const n = c.numbers[0] ?? 1;
      return `activate #${id(c.refs[0] as string)}` + (n !== 1 ? ` ${n}` : "") + targets(c.targets);
    }
    default: return `interrupt #${id(c.refs[0] as string)}` + targets(c.targets);
  }
}
