import { VirtualClock } from '@ringflow/client';
import { type CallHandle, type CallInput, callActors } from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { expectNothingLeft, farEnd, inProcessApp } from './harness.ts';

const greetAndHangUp = setup({
  types: { input: {} as CallInput, context: {} as { call: CallHandle } },
  actors: callActors,
}).createMachine({
  context: ({ input }) => ({ call: input.call }),
  initial: 'answering',
  states: {
    answering: {
      invoke: { src: 'answer', input: ({ context }) => ({ call: context.call }), onDone: 'greeting' },
    },
    greeting: {
      invoke: {
        src: 'play',
        input: ({ context }) => ({ call: context.call, media: 'sound:hello-world' }),
        onDone: 'leaving',
      },
    },
    leaving: { invoke: { src: 'hangup', input: ({ context }) => ({ call: context.call }) } },
  },
});

describe('several servers', () => {
  it('routes events by asterisk_id and sends actions to the server the call lives on', async () => {
    const clock = new VirtualClock();
    const east = createSimulator({ clock, asteriskId: '02:00:00:00:00:0e', endpoints: ['PJSIP/alice'] });
    const west = createSimulator({ clock, asteriskId: '02:00:00:00:00:0f', endpoints: ['PJSIP/alice'] });
    const servers = new Map<string, string>();
    const { app, requests } = inProcessApp(
      clock,
      [
        { name: 'east', server: east },
        { name: 'west', server: west },
      ],
      { apps: ['multi'], call: greetAndHangUp },
    );
    app.calls$.subscribe((s) => servers.set(`${s.server.name}/${s.channelId}`, s.server.asteriskId));
    await app.start();
    // The same channel id on both servers: only asterisk_id tells them apart.
    await farEnd(clock, east).channels.originate({
      endpoint: 'PJSIP/alice',
      app: 'multi',
      channelId: 'same-id',
    });
    await farEnd(clock, west).channels.originate({
      endpoint: 'PJSIP/alice',
      app: 'multi',
      channelId: 'same-id',
    });
    await clock.advance(1500);
    expect(app.counters().activeSessions).toBe(2);
    expect(servers).toEqual(
      new Map([
        ['east/same-id', '02:00:00:00:00:0e'],
        ['west/same-id', '02:00:00:00:00:0f'],
      ]),
    );
    await clock.advance(60_000);
    const calls = requests.filter((r) => r.path.startsWith('/channels/'));
    for (const server of ['east', 'west']) {
      expect(calls.filter((r) => r.server === server).map((r) => `${r.method} ${r.path}`)).toEqual([
        'POST /channels/same-id/answer',
        expect.stringMatching(/^POST \/channels\/same-id\/play\/playback-\d+$/),
        'DELETE /channels/same-id',
      ]);
    }
    expect(app.metrics.events.get({ server: 'east' })).toBeGreaterThan(0);
    expect(app.metrics.events.get({ server: 'west' })).toBeGreaterThan(0);
    expectNothingLeft(app);
    await app.stop();
  });
});

describe('drain', () => {
  it('refuses new calls, lets active ones finish until the deadline, then hangs up the rest', async () => {
    const clock = new VirtualClock();
    const server = createSimulator({ clock, sounds: { extraSounds: [{ id: 'long', durationMs: 60_000 }] } });
    const draining: number[] = [];
    const longCall = setup({
      types: { input: {} as CallInput, context: {} as { call: CallHandle } },
      actors: callActors,
    }).createMachine({
      context: ({ input }) => ({ call: input.call }),
      initial: 'talking',
      on: {
        'call.draining': {
          actions: ({ event }) => draining.push((event as unknown as { deadline: number }).deadline),
        },
      },
      states: {
        talking: {
          invoke: {
            src: 'play',
            input: ({ context }) => ({ call: context.call, media: 'sound:long' }),
            onDone: 'done',
          },
        },
        done: { type: 'final' },
      },
    });
    const { app, requests } = inProcessApp(clock, [{ name: 'pbx', server }], {
      apps: ['app'],
      call: longCall,
    });
    await app.start();
    server.driver.placeCall({ app: 'app', channelId: 'short' });
    server.driver.placeCall({ app: 'app', channelId: 'long' });
    await clock.advance(10);
    const drained = app.drain({ deadlineMs: 30_000 });
    const deadline = clock.now() + 30_000;
    await clock.advance(10);
    expect(draining).toEqual([deadline, deadline]);
    // A new call while draining is refused with congestion.
    server.driver.placeCall({ app: 'app', channelId: 'late' });
    await clock.advance(10);
    expect(requests.find((r) => r.path === '/channels/late')).toMatchObject({
      method: 'DELETE',
      query: { reason: 'congestion' },
    });
    expect(app.counters().activeSessions).toBe(2);
    // One caller finishes on their own; the other is still there at the deadline.
    server.driver.hangup('short');
    await clock.advance(30_000);
    await drained;
    expect(app.metrics.callsEnded.sum({ status: 'hungUp', by: 'caller' })).toBe(1);
    expect(app.metrics.callsEnded.sum({ status: 'drained', by: 'application' })).toBe(1);
    expect(server.channelCount).toBe(0);
    await clock.advance(0);
    expectNothingLeft(app);
    await app.stop();
  });
});
