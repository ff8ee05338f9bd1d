import { VirtualClock } from '@ringflow/client';
import { createSimulator } from '@ringflow/simulator';
import { describe, expect, it } from 'vitest';

const COUNT = 10_000;

describe('10,000 concurrent channels in one process', () => {
  it('exist together, keep no timers while idle, and are all torn down', async () => {
    const clock = new VirtualClock();
    const sim = createSimulator({ clock });
    let stasisStarts = 0;
    let destroyed = 0;
    sim.connectEvents({ apps: ['load'], subscribeAll: false }, (e) => {
      if (e.type === 'StasisStart') stasisStarts++;
      if (e.type === 'ChannelDestroyed') destroyed++;
    });
    const ids: string[] = [];
    for (let i = 0; i < COUNT; i++) {
      ids.push(
        sim.driver.placeCall({ from: String(100000 + i), endpoint: `PJSIP/caller${i % 50}`, app: 'load' }),
      );
    }
    expect(stasisStarts).toBe(COUNT);
    expect(sim.channelCount).toBe(COUNT);
    // Idle channels hold no timers: memory and CPU stay flat while calls just sit there.
    expect(clock.pendingTimers).toBe(0);

    const listed = await sim.handle({ method: 'GET', path: '/channels', query: {} });
    expect((listed.body as unknown[]).length).toBe(COUNT);

    for (const id of ids) {
      const reply = await sim.handle({ method: 'DELETE', path: `/channels/${id}`, query: {} });
      expect(reply.status).toBe(204);
    }
    await clock.runUntilIdle();
    expect(destroyed).toBe(COUNT);
    expect(sim.channelCount).toBe(0);
    const after = await sim.handle({ method: 'GET', path: '/channels', query: {} });
    expect(after.body).toEqual([]);
    const endpoints = await sim.handle({ method: 'GET', path: '/endpoints/PJSIP', query: {} });
    expect((endpoints.body as { channel_ids: string[] }[]).every((ep) => ep.channel_ids.length === 0)).toBe(
      true,
    );
    sim.close();
  });
});
