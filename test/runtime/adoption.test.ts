import type { StreamEvent } from '@ringflow/client';
import { VirtualClock } from '@ringflow/client';
import { type CallHandle, type CallInput, callActors, type GapReport } from '@ringflow/runtime';
import type { InProcessServer } from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { eventGate, expectNothingLeft, inProcessApp } from './harness.ts';

/** Answers, then waits for the caller to leave; every StasisStart it is given is counted. */
const waiting = setup({
  types: { input: {} as CallInput, context: {} as { call: CallHandle; starts: number } },
  actors: callActors,
}).createMachine({
  context: ({ input }) => ({ call: input.call, starts: 0 }),
  initial: 'answering',
  on: { StasisEnd: '.gone', 'call.gone': '.gone' },
  states: {
    answering: {
      invoke: { src: 'answer', input: ({ context }) => ({ call: context.call }), onDone: 'talking' },
    },
    talking: {},
    gone: { type: 'final' },
  },
});

const DIALPLAN = {
  file: 'adoption.conf',
  text: [
    '[from-callers]',
    'exten => s,1,Stasis(ivr,first,"with,comma",back\\,slash)',
    ' same => n,Hangup()',
    '',
  ].join('\n'),
};

/** Holds the replies to GET /channels while `held` is set, until `release()`. */
function listingGate(server: InProcessServer) {
  let holding = false;
  const waiting: (() => void)[] = [];
  const gated: InProcessServer = {
    handle: async (request) => {
      if (holding && request.method === 'GET' && request.path === '/channels')
        await new Promise<void>((resolve) => waiting.push(resolve));
      return server.handle(request);
    },
    connectEvents: (request, deliver) => server.connectEvents(request, deliver),
  };
  return {
    server: gated,
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const go of waiting.splice(0)) go();
    },
  };
}

function setUp(extra: { whileDraining?: 'hangup' | 'continue' } = {}) {
  const clock = new VirtualClock();
  const sim = createSimulator({ clock, dialplan: DIALPLAN });
  const listing = listingGate(sim);
  const gate = eventGate(listing.server);
  const { app, requests, transports } = inProcessApp(clock, [{ name: 'pbx', server: gate.server }], {
    apps: ['ivr'],
    call: waiting,
    ...extra,
  });
  const gaps: GapReport[] = [];
  app.gaps$.subscribe((g) => gaps.push(g));
  return { clock, sim, gate, listing, app, requests, events: transports[0]!, gaps };
}

describe('a call whose StasisStart was lost in an event stream gap', () => {
  it('is adopted by the reconciliation after the reconnect, with the args the server split', async () => {
    const { clock, sim, app, requests, events, gaps } = setUp();
    await app.start();
    sim.driver.placeCall({ channelId: 'orphan' });
    events.dropConnections(); // the StasisStart was on its way into the dying connection
    await clock.advance(5000);

    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toMatchObject({ adoptedCalls: ['orphan'], endedCalls: [], removedLeftovers: [] });
    const session = app.call('orphan');
    expect(session?.wasAdopted).toBe(true);
    expect(session?.call?.args).toEqual(['first', 'with,comma', 'back,slash']);
    expect(session?.call?.app).toBe('ivr');
    expect(session?.call?.start.channel.id).toBe('orphan');
    // It is served like any call: answered, and it ends when the caller hangs up.
    expect(requests.filter((r) => r.path === '/channels/orphan/answer')).toHaveLength(1);
    expect(app.metrics.summary()).toMatchObject({ callsAdopted: 1, callsStarted: 1 });
    expect(app.metrics.toPrometheus()).toContain('ringflow_calls_adopted_total{server="pbx"} 1');
    sim.driver.hangup('orphan');
    await clock.runUntilIdle();
    expect(session?.result).toMatchObject({ outcome: 'completed', machineStatus: 'done' });
    expectNothingLeft(app);
    await app.stop();
    expect(clock.pendingTimers).toBe(0);
  });

  it('starts once when its StasisStart arrives after the listing adopted it', async () => {
    const { clock, sim, gate, listing, app, requests, events, gaps } = setUp();
    const started: string[] = [];
    app.calls$.subscribe((s) => started.push(s.channelId));
    await app.start();
    // After the reconnect, the reconciliation's listing is held; meanwhile the channel enters
    // Stasis and its StasisStart is held too, so the listing's reply overtakes the event (as
    // a REST reply can overtake an event on a real server).
    listing.hold();
    events.dropConnections();
    await clock.advance(5000);
    gate.hold();
    sim.driver.placeCall({ channelId: 'late' });
    await clock.advance(0);
    listing.release();
    await clock.advance(0);
    expect(gaps[0]?.adoptedCalls).toEqual(['late']);
    const session = app.call('late')!;
    const seen: StreamEvent[] = [];
    session.call!.events$.subscribe((e) => seen.push(e));
    gate.release();
    await clock.advance(100);

    expect(started).toEqual(['late']);
    expect(app.activeCalls()).toEqual([session]);
    expect(seen.filter((e) => e.type === 'StasisStart')).toEqual([]);
    expect(requests.filter((r) => r.path === '/channels/late/answer')).toHaveLength(1);
    sim.driver.hangup('late');
    await clock.runUntilIdle();
    expect(app.metrics.summary()).toMatchObject({ callsAdopted: 1, callsStarted: 1, callsEnded: 1 });
    expectNothingLeft(app);
    await app.stop();
  });

  it('is not adopted twice by two reconciliations, nor taken from a session that owns it', async () => {
    const { clock, sim, app, events, gaps } = setUp();
    await app.start();
    sim.driver.placeCall({ channelId: 'kept' }); // arrives normally
    await clock.advance(100);
    sim.driver.placeCall({ channelId: 'orphan' });
    events.dropConnections();
    await clock.advance(5000);
    events.dropConnections();
    await clock.advance(5000);
    expect(gaps.map((g) => g.adoptedCalls)).toEqual([['orphan'], []]);
    expect(gaps.map((g) => g.keptCalls)).toEqual([['kept'], ['kept', 'orphan']]);
    expect(app.metrics.summary()).toMatchObject({ callsAdopted: 1, callsStarted: 2 });
    sim.driver.hangup('kept');
    sim.driver.hangup('orphan');
    await clock.runUntilIdle();
    expectNothingLeft(app);
    await app.stop();
  });

  it('while draining, an orphan is refused as a new call would be (hung up, congestion)', async () => {
    const { clock, sim, app, requests, events } = setUp();
    await app.start();
    sim.driver.placeCall({ channelId: 'busy' });
    await clock.advance(100);
    sim.driver.placeCall({ channelId: 'orphan' });
    events.dropConnections();
    const drained = app.drain({ deadlineMs: 60_000 });
    await clock.advance(5000);
    expect(app.call('orphan')).toBeUndefined();
    expect(requests).toContainEqual(
      expect.objectContaining({
        method: 'DELETE',
        path: '/channels/orphan',
        query: { reason: 'congestion' },
      }),
    );
    expect(sim.hasChannel('orphan')).toBe(false);
    sim.driver.hangup('busy');
    await clock.advance(100);
    await drained;
    await app.stop();
  });

  it('leaves alone channels in other applications and channels outside Stasis', async () => {
    const clock = new VirtualClock();
    const sim = createSimulator({ clock });
    const { app, transports } = inProcessApp(clock, [{ name: 'pbx', server: sim }], {
      apps: ['ivr'],
      call: waiting,
      logger: pino({ level: 'silent' }),
    });
    const other = sim.connectEvents({ apps: ['other'], subscribeAll: false }, () => {});
    await app.start();
    sim.driver.placeCall({ app: 'other', channelId: 'theirs' });
    transports[0]!.dropConnections();
    await clock.advance(5000);
    expect(app.call('theirs')).toBeUndefined();
    expect(app.metrics.summary().callsAdopted).toBe(0);
    if ('close' in other) other.close();
    await app.stop();
  });
});
