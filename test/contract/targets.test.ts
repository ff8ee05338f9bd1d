import { describe, expect, it } from 'vitest';
import { twoCallsScenario } from './scenarios/callFromDialplanScenario.ts';
import { errorBodiesScenario } from './scenarios/errorBodiesScenario.ts';
import { bridgeScenario } from './scenarios/bridgeScenario.ts';
import { describeEvent } from './describeEvent.ts';
import { dialledTarget } from './dialledTargets.ts';
import type { EventLog } from './EventLog.ts';
import { dialledPerCallTarget, realServerTarget } from './targets.ts';

describe('contract targets', () => {
  it('adds a real server only when its url, user and password are all given', () => {
    expect(realServerTarget({})).toBeUndefined();
    expect(
      realServerTarget({ RINGFLOW_ARI_URL: 'http://127.0.0.1:8088/ari', RINGFLOW_ARI_USER: 'demo' }),
    ).toBeUndefined();
    const target = realServerTarget({
      RINGFLOW_ARI_URL: 'http://127.0.0.1:8088/ari',
      RINGFLOW_ARI_USER: 'demo',
      RINGFLOW_ARI_PASSWORD: 'demo',
    });
    expect(target).toMatchObject({ name: 'real-server', simulated: false });
  });

  it('skips on per-call targets exactly the scenarios that state why they have no per-call form', () => {
    expect(dialledPerCallTarget.skips?.(bridgeScenario)).toMatch(/subscribeAll/);
    expect(dialledPerCallTarget.skips?.(errorBodiesScenario)).toBeUndefined();
    expect(dialledPerCallTarget.skips?.(twoCallsScenario)).toBeUndefined();
  });

  for (const via of ['wire', 'in-process'] as const) {
    it(`per call (${via}): each call gets its own connection and its requests travel on it`, async () => {
      const target = dialledTarget('per-call', via);
      const session = await target.start();
      try {
        await twoCallsScenario.run(session);
      } finally {
        await session.close();
      }
      expect(target.last).toEqual({
        // The carrier, and one connection per call.
        opened: { persistent: 1, perCall: 2 },
        // Per call: answer, play, hangup; the second also get, ring, ring stop.
        routes: { overCallSockets: 9, overCarrier: 2 },
        stray: [],
      });
    });

    it(`persistent (${via}): listening with subscribeAll asks the server for subscribe_all`, async () => {
      const target = dialledTarget('persistent', via);
      const session = await target.start();
      let all: EventLog | undefined;
      let plain: EventLog | undefined;
      try {
        all = await session.listen('demo-app', { subscribeAll: true });
        plain = await session.listen('plain-app');
        await session.rest.deviceState('Stasis:dialled').update({ deviceState: 'BUSY' });
        await session.until('the change heard with subscribe_all', () => all?.events.length === 1);
      } finally {
        // Waits for every event the server sent.
        await session.close();
      }
      // Only the subscribe_all connection hears a device nobody subscribed to.
      expect(all?.events.map(describeEvent)).toEqual(['DeviceStateChanged Stasis:dialled BUSY']);
      expect(plain?.events).toEqual([]);
      expect(target.last?.opened).toEqual({ persistent: 3, perCall: 0 });
    });
  }

  it('per call: a listen with subscribeAll is refused, since no per-call form has the same events', async () => {
    const session = await dialledTarget('per-call', 'in-process').start();
    try {
      await expect(session.listen('demo-app', { subscribeAll: true })).rejects.toThrow(/no per-call form/);
    } finally {
      await session.close();
    }
  });
});
