import { VirtualClock } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../createSimulator.ts';

/**
 * The dialplan recipe for a clustered application while nobody holds its event connection (a
 * holder change), as the shipped dialplan's `from-callers-cluster` context writes it: a real
 * server's `Stasis()` fails at once for an application no connection registered (res_stasis:
 * "Stasis app 'x' not registered" or "not active"; app_stasis sets STASISSTATUS=FAILED and the
 * dialplan goes on), so the dialplan retries it every 0.2 s, 20 times.
 */
function environment() {
  const clock = new VirtualClock();
  const sim = createSimulator({ clock });
  const events: Record<string, unknown>[] = [];
  sim.driver.onEvent((e) => events.push(e as Record<string, unknown>));
  // A channel outside any application has no readable variables through the interface (as on a
  // real server): the dialplan's variables are seen in its ChannelVarset events.
  const variable = (channelId: string, name: string) =>
    events
      .filter(
        (e) =>
          e.type === 'ChannelVarset' &&
          e.variable === name &&
          (e.channel as { id?: string } | undefined)?.id === channelId,
      )
      .at(-1)?.value;
  const place = () => sim.driver.placeCall({ context: 'from-callers-cluster', to: '100' });
  return { clock, sim, events, variable, place };
}

describe('Stasis() of an application nobody registered (the retry recipe of from-callers-cluster)', () => {
  it('fails at once with STASISSTATUS=FAILED and the dialplan goes on; the call enters once a connection registers the application', async () => {
    const { clock, sim, variable, place } = environment();
    const call = place();
    await clock.advance(0);
    expect(variable(call, 'STASISSTATUS')).toBe('FAILED');
    expect(variable(call, 'TRIES')).toBe('1');
    // Retried every 0.2 s (Wait with a fraction, Set with arithmetic, GotoIf on a variable).
    await clock.advance(1_000);
    expect(variable(call, 'TRIES')).toBe('6');
    const received: Record<string, unknown>[] = [];
    const connection = sim.connectEvents({ apps: ['ringflow-demo'], subscribeAll: false }, (e) =>
      received.push(e),
    );
    expect('status' in connection).toBe(false);
    await clock.advance(200);
    const started = received.filter((e) => e.type === 'StasisStart');
    expect(started.map((e) => (e.channel as { id: string }).id)).toEqual([call]);
    expect(started[0]?.args).toEqual(['100']);
    expect(variable(call, 'STASISSTATUS')).toBe('');
    sim.close();
  });

  it('gives up after 20 retries (4 s) when nobody registers the application', async () => {
    const { clock, sim, variable, place } = environment();
    const call = place();
    await clock.advance(3_000);
    expect(sim.hasChannel(call)).toBe(true);
    await clock.advance(2_000);
    expect(variable(call, 'TRIES')).toBe('20');
    expect(variable(call, 'STASISSTATUS')).toBe('FAILED');
    expect(sim.hasChannel(call)).toBe(false);
    sim.close();
  });
});
