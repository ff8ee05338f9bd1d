/** Where a signal records the call it is scoped to (off its visible keys). */
const CALL_SCOPED = Symbol('ringflow.callScoped');

type Marked = AbortSignal & { [CALL_SCOPED]?: object };

/**
 * Records that `signal` aborts when `call` ends: the signal of a step of the call's machine (the
 * session stops the machine when the call ends, which aborts every step's signal), or one linked
 * to such a signal. The session then sends a request with that signal as it is, instead of a
 * controller of its own listening to it (an AbortController and two listeners per request were
 * a visible share of the CPU per call with the action library).
 *
 * @example
 * markCallScoped(stepSignal, call); // in a step of call's machine
 * isCallScoped(stepSignal, call);   // true
 */
export function markCallScoped(signal: AbortSignal, call: object): void {
  (signal as Marked)[CALL_SCOPED] = call;
}

/** True when `signal` was marked as aborting when `call` ends (see {@link markCallScoped}). */
export function isCallScoped(signal: AbortSignal, call: object | undefined): boolean {
  return call !== undefined && (signal as Marked)[CALL_SCOPED] === call;
}

/** The call a signal is scoped to, if any (a signal linked to it inherits it). */
export function callScopeOf(signal: AbortSignal): object | undefined {
  return (signal as Marked)[CALL_SCOPED];
}
