// What a turn-based step asks of the turn manager (engine/core.py STEP_GO_ON, STEP_WAIT, STEP_END_PHASE).
export const STEP_GO_ON = 0, STEP_WAIT = 1, STEP_END_PHASE = 2;
