import type { VirtualClock } from '@ringflow/client';
import type { Application } from '@ringflow/runtime';
import { expect } from 'vitest';

const realTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 2));

/**
 * Virtual time for an application talking to the simulator over real sockets: before each step of
 * virtual time, everything in flight must have landed (every event the server sent has been
 * received, no request waits for its reply), so virtual time never runs ahead of the sockets.
 *
 * @example
 * const { run } = virtualTimeOverWire(clock, app, () => eventsSent);
 * simulator.driver.placeCall({ to: '100' });
 * await run(3500);
 */
export function virtualTimeOverWire(clock: VirtualClock, app: Application, eventsSent: () => number) {
  /** Waits (real time) until the sockets are quiet twice in a row. */
  const landed = async () => {
    let quiet = 0;
    for (let i = 0; i < 2000 && quiet < 2; i++) {
      await realTurn();
      quiet =
        app.metrics.summary().events === eventsSent() && app.counters().pendingRequests === 0 ? quiet + 1 : 0;
    }
    expect(quiet).toBe(2);
  };
  /** Moves virtual time forward in steps of `stepMs`, letting the sockets land between them. */
  const run = async (ms: number, stepMs = 50) => {
    for (let t = 0; t < ms; t += stepMs) {
      await landed();
      await clock.advance(stepMs);
    }
    await landed();
  };
  return { landed, run };
}
