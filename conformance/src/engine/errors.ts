// The port's own errors (no Python counterpart but engine/errors.py's RulesLoopError).

/** A rule the port does not have yet: replay stops (exit 3) naming it and the Python module it is in. */
export class NotPorted extends Error {}
