import { VirtualClock } from '@ringflow/client';
import {
  type CallEnded,
  type CallHandle,
  type CallInput,
  callActors,
  createApplication,
} from '@ringflow/runtime';
import { createSimulator, startWireServer } from '@ringflow/simulator';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { inProcessApp } from './harness.ts';

/** Answers, then stays until the caller leaves. */
const answerAndStay = setup({
  types: { input: {} as CallInput, context: {} as { call: CallHandle } },
  actors: callActors,
}).createMachine({
  context: ({ input }) => ({ call: input.call }),
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

// Identical processes register distinct names (one app name has one connection on a server) and
// the dialplan offers each call to all of them.
const DIALPLAN = {
  text: `
[bc]
exten => offer,1,StasisBroadcast(1000,^ivr-)
 same => n,UserEvent(Unclaimed,status: \${STASISSTATUS})
 same => n,Hangup()
`,
};

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('claiming broadcast calls', () => {
  it('in process: two applications compete; each claims only while it has room; the first claim wins', async () => {
    const clock = new VirtualClock();
    const sim = createSimulator({ clock, dialplan: DIALPLAN });
    cleanups.push(() => sim.close());
    const unclaimed: string[] = [];
    sim.driver.onEvent((e) => {
      if (e.type === 'ChannelUserevent')
        unclaimed.push(String((e.userevent as Record<string, string>).status));
    });
    const processes = ['ivr-1', 'ivr-2'].map((name) =>
      inProcessApp(clock, [{ name: 'pbx', server: sim }], {
        apps: [name],
        call: answerAndStay,
        claimBroadcasts: { maxCalls: 2 },
      }),
    );
    for (const p of processes) await p.app.start();
    cleanups.push(() => Promise.all(processes.map((p) => p.app.stop())));
    const claims = (i: number) =>
      processes[i]!.requests.filter((r) => r.method === 'POST' && r.path === '/events/claim').length;

    const callers: string[] = [];
    for (let i = 0; i < 5; i++) {
      callers.push(sim.driver.placeCall({ context: 'bc', to: 'offer' }));
      await clock.advance(0);
    }
    await clock.advance(1000);
    const [first, second] = processes.map((p) => p.app.activeCalls().map((s) => s.channelId));
    // Four calls fit (two each), each on exactly one process; the fifth found no room anywhere.
    expect(first).toHaveLength(2);
    expect(second).toHaveLength(2);
    expect(new Set([...first!, ...second!]).size).toBe(4);
    expect(unclaimed).toEqual(['TIMEOUT']);
    // Both claimed while both had room: one of each pair of claims lost with 409, quietly.
    expect(claims(0) + claims(1)).toBeGreaterThan(4);
    expect(
      processes
        .flatMap((p) => p.app.activeCalls())
        .every((s) => s.machine?.getSnapshot().value === 'talking'),
    ).toBe(true);

    // A call ends: its process has room again and takes the next offer.
    sim.driver.hangup(first![0]!);
    await clock.advance(0);
    sim.driver.placeCall({ context: 'bc', to: 'offer' });
    await clock.advance(0);
    expect(processes[0]!.app.activeCalls()).toHaveLength(2);
    expect(unclaimed).toEqual(['TIMEOUT']);
  });

  it('over the wire: offers, claims and 409s travel over HTTP and the event socket', async () => {
    const sim = createSimulator({ dialplan: DIALPLAN });
    cleanups.push(() => sim.close());
    const wire = await startWireServer(sim, { users: [{ username: 'ringflow', password: 'secret' }] });
    cleanups.push(() => wire.close());
    const ended: CallEnded[] = [];
    const processes = ['ivr-1', 'ivr-2'].map((name) =>
      createApplication({
        servers: [{ name: 'pbx', url: wire.url, username: 'ringflow', password: 'secret' }],
        apps: [name],
        call: answerAndStay,
        claimBroadcasts: { maxCalls: 1 },
        logger: pino({ level: 'silent' }),
        onCallEnded: (c) => ended.push(c),
      }),
    );
    for (const p of processes) await p.start();
    cleanups.push(() => Promise.all(processes.map((p) => p.stop())));
    const a = sim.driver.placeCall({ context: 'bc', to: 'offer' });
    const b = sim.driver.placeCall({ context: 'bc', to: 'offer' });
    const deadline = Date.now() + 10_000;
    const placed = () => processes.flatMap((p) => p.activeCalls().map((s) => s.channelId)).sort();
    while (placed().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(placed()).toEqual([a, b].sort());
    expect(processes.map((p) => p.activeCalls().length)).toEqual([1, 1]);
  });
});
