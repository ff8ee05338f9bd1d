import { VirtualClock } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../createSimulator.ts';

/**
 * An application whose event connection closed is deactivated, not forgotten, while channels are
 * in it (res/stasis/app.c: `app_is_finished` needs no handler and no channel): a user event to it
 * and `GET /applications/{name}` find it, as on a real server. A classic cluster's holder change
 * is such a moment: a flow's user event then must not fail with 404.
 */
describe('an application whose connection closed with channels in it', () => {
  it('is found by user events and /applications until its last channel is gone', async () => {
    const clock = new VirtualClock();
    const sim = createSimulator({ clock });
    const connection = sim.connectEvents({ apps: ['ringflow-demo'], subscribeAll: false }, () => {});
    if ('status' in connection) throw new Error('not connected');
    const call = sim.driver.placeCall({ to: '100' });
    await clock.advance(0);
    connection.close();
    const userEvent = () =>
      sim.handle({
        method: 'POST',
        path: '/events/user/VoicemailLeft',
        query: { application: 'ringflow-demo', source: `channel:${call}` },
      });
    const getApp = () => sim.handle({ method: 'GET', path: '/applications/ringflow-demo', query: {} });
    expect((await userEvent()).status).toBe(204);
    expect((await getApp()).status).toBe(200);
    // A new call cannot enter it meanwhile: Stasis() needs an active application.
    const late = sim.driver.placeCall({ to: '100' });
    await clock.advance(0);
    expect(sim.hasChannel(late)).toBe(false);
    sim.driver.hangup(call);
    await clock.advance(0);
    expect((await userEvent()).status).toBe(404);
    expect((await getApp()).status).toBe(404);
    expect((await sim.handle({ method: 'GET', path: '/applications/no-such-app', query: {} })).status).toBe(
      404,
    );
    sim.close();
  });
});
