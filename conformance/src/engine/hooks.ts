// Where the spine hands over to triggers, effects and the stack: the names the spine (turn.ts,
// priority.ts, combat.ts, sba.ts, pipeline.ts, zones.ts, keywords.ts, match.ts) calls, each the port of
// the Python function it names, in its own module (triggers.ts, stack.ts, interrupts.ts).

export { answering, fire, fireWatchers, gameTrigger, triggerOrder } from "./triggers";
export { announcePlay, placeTriggers, push, resolveTop } from "./stack";
export { mayInterrupt, usableInPlayInterrupts } from "./interrupts";
