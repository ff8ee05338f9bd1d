import type { VirtualClock } from '@ringflow/client';
import { createSimulator } from '@ringflow/simulator';

/** When the simulated world starts: the capture date of the reference traces. */
export const START = Date.UTC(2026, 10, 22, 3, 47, 11, 718);
export const USER = { username: 'demo', password: 'demo' };
/** Virtual time one wait may let pass: longer than any recording or playback in the scenarios. */
export const MAX_VIRTUAL_MS = 120_000;
/** Real time allowed for an event already sent to cross a loopback socket (busy shared machines). */
export const ARRIVAL_TIMEOUT_MS = 10_000;

/** The simulator every simulated target runs, on the target's virtual clock. */
export function simulator(clock: VirtualClock) {
  return createSimulator({
    clock,
    answerOutboundAfterMs: null,
    users: [{ name: USER.username, password: USER.password }],
  });
}
