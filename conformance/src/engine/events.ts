// The match's events and its English log (a port of engine/events.py and core.py MatchState.log): every
// line the Python engine writes, word for word, with who may read it. An event is public (privateTo -1)
// or private to one player, who reads `text`; the other player reads `publicText` instead, or nothing
// when it is "" (rules.md §7a: a draw is "p2 draws Ember Sprite #31" for p2, "p2 draws a card" for p1).
// Events are bookkeeping, not state: no hash depends on them (docs/determinism.md §4).

import { TURN_TABLE, WINDOWS } from "./state";

/** events.py EventKind */
export type EventKind = "window" | "priority" | "pass" | "play" | "set" | "activate" | "attack" | "block"
  | "interrupt" | "choice" | "concede" | "refusal" | "note" | "draw" | "discard" | "influence" | "stack" | "trigger"
  | "resolve" | "counter" | "damage" | "heal" | "destroy" | "move" | "sba" | "flux" | "thread" | "game_over";

/** events.py QUIET_KINDS: kinds a text log leaves out (they would repeat on every pass) */
export const QUIET_KINDS: ReadonlySet<EventKind> = new Set<EventKind>(["priority"]);

/** events.py Event (its `n` is its place in the list). */
export interface Event {
  readonly kind: EventKind;
  readonly turn: number;
  readonly window: string;
  readonly rule: string;
  readonly actor: number;
  readonly privateTo: number;
  readonly text: string;
  readonly publicText: string;
  readonly cards: readonly number[];
  readonly amount: number;
  readonly detail: string;
  readonly command: number;
}

/** The optional fields of core.py MatchState.log, by name (Python passes some of them by position). */
export interface LogFields {
  kind?: EventKind; actor?: number; cards?: readonly number[]; amount?: number; detail?: string; rule?: string;
  privateTo?: number; publicText?: string; command?: number;
}

/** What `log` reads and writes of a match (a Match: its turn, window and event list). */
export interface HasEvents { readonly events: Event[]; readonly turn: number; readonly win: number }

/** core.py MatchState.log: emit an event; `rule` defaults to the current window's rule. */
export function log(g: HasEvents, line: string, f: LogFields = {}): void {
  g.events.push({
    kind: f.kind ?? "note", turn: g.turn, window: WINDOWS[g.win] as string,
    rule: f.rule || (TURN_TABLE[g.win] as { rule: string }).rule, actor: f.actor ?? -1, privateTo: f.privateTo ?? -1,
    text: line, publicText: f.publicText ?? "", cards: f.cards ?? [], amount: f.amount ?? 0, detail: f.detail ?? "",
    command: f.command ?? -1,
  });
}

/** events.py Event.seen_by: the event as `player` may know it — itself, its public face, or null. */
export function seenBy(e: Event, player: number): Event | null {
  if (e.privateTo < 0 || e.privateTo === player) return e;
  if (!e.publicText) return null;
  return { ...e, text: e.publicText, publicText: "", cards: [], detail: "", privateTo: -1 };
}

/** An event as a player may know it, numbered in what that player may know (events.py events_for). */
export interface SeenEvent extends Event { readonly n: number }

/** events.py events_for: the events from index `since` of the match's list on, as `player` may know them
 * (-1: a spectator): another player's private events by their public face, or not at all. With `renumber`
 * (the default) each one's `n` and `command` count only the events (and typed commands) this player may
 * know of, from the start of the match — numbers with gaps would show where something hidden happened
 * (rules.md §7a); without it they are the match-wide numbers. */
export function eventsFor(g: HasEvents, player: number, since = 0, renumber = true): SeenEvent[] {
  const out: SeenEvent[] = [];
  if (!renumber) {
    for (let i = since; i < g.events.length; i++) {
      const seen = seenBy(g.events[i] as Event, player);
      if (seen !== null) out.push({ ...seen, n: i });
    }
    return out;
  }
  let n = 0, c = 0;
  g.events.forEach((e, i) => {
    const seen = seenBy(e, player);
    if (seen === null) return;
    if (i >= since) out.push({ ...seen, n, command: seen.command >= 0 ? c : -1 });
    n += 1;
    if (seen.command >= 0) c += 1;
  });
  return out;
}

/** events.py log_lines_for: the English log `player` may read (-1: a spectator), quiet kinds left out. */
export function logLinesFor(g: HasEvents, player: number, since = 0): string[] {
  return eventsFor(g, player, since).filter((e) => !QUIET_KINDS.has(e.kind)).map((e) => e.text);
}
