import { VirtualClock } from '@ringflow/client';
import {
  type CallEnded,
  type CallHandle,
  type CallInput,
  callActors,
  createApplication,
} from '@ringflow/runtime';
import {
  type ApplicationDialer,
  connectInProcess,
  createSimulator,
  type InProcessListener,
  startOutboundWebSockets,
} from '@ringflow/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { setup } from 'xstate';

const DIALPLAN = `
[ow]
exten => persistent,1,Stasis(ow-app,arg1)
 same => n,Hangup()
exten => percall,1,Stasis(ow-call,arg1)
 same => n,Hangup()
`;

/** Answer, a beep, hang up: every action over the connection the call came on. */
const beepAndHangUp = setup({
  types: { input: {} as CallInput, context: {} as { call: CallHandle } },
  actors: callActors,
}).createMachine({
  context: ({ input }) => ({ call: input.call }),
  initial: 'answering',
  states: {
    answering: {
      invoke: { src: 'answer', input: ({ context }) => ({ call: context.call }), onDone: 'beep' },
    },
    beep: {
      invoke: {
        src: 'play',
        input: ({ context }) => ({ call: context.call, media: 'sound:beep' }),
        onDone: 'leaving',
      },
    },
    leaving: {
      invoke: { src: 'hangup', input: ({ context }) => ({ call: context.call }), onDone: 'done' },
    },
    done: { type: 'final' },
  },
});

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A simulator and an application listening in the same process, on one virtual clock. */
async function world(apps: string[]) {
  const clock = new VirtualClock(Date.UTC(2026, 10, 24, 17, 18, 15));
  const sim = createSimulator({ clock, dialplan: { text: DIALPLAN } });
  cleanups.push(() => sim.close());
  let listener: InProcessListener | undefined;
  const ended: CallEnded[] = [];
  const app = createApplication({
    servers: [],
    apps,
    call: beepAndHangUp,
    clock,
    logger: { level: 'silent' },
    listen: {
      port: 0,
      accept: (onConnection) => {
        listener = connectInProcess({}, onConnection);
        return listener;
      },
    },
    onCallEnded: (c) => ended.push(c),
  });
  await app.start();
  cleanups.push(() => app.stop());
  return { clock, sim, app, ended, listener: listener! };
}

describe('listen mode, the server dialling in the same process (listen.accept + connectInProcess)', () => {
  it('per call: each call on its own connection, in virtual time', async () => {
    const { clock, sim, ended, listener } = await world(['ow-call']);
    const outbound = startOutboundWebSockets(sim, {
      clock,
      dial: listener.dial,
      connections: [{ connectionType: 'per_call_config', uri: 'ws://in-process/', apps: ['ow-call'] }],
    });
    cleanups.push(() => outbound.close());
    const ids = [1, 2, 3].map(() => sim.driver.placeCall({ context: 'ow', to: 'percall' }));
    await clock.advance(5_000);
    expect(ended.map((c) => c.outcome)).toEqual(['completed', 'completed', 'completed']);
    expect(new Set(ended.map((c) => c.callId))).toEqual(new Set(ids));
    expect(new Set(ended.map((c) => c.app)).size).toBe(3);
    expect(ended.every((c) => c.app?.startsWith('ow-call:'))).toBe(true);
    expect(listener.acceptedConnections).toBe(3);
    // Each connection closes 3.5 s (virtual) after its call's StasisEnd.
    expect(listener.openConnections).toBe(0);
  });

  it('persistent, the application unreachable when a call arrives: the call waits in the application and runs once the server reaches it', async () => {
    const { clock, sim, ended, listener } = await world(['ow-app']);
    let up = false;
    const dial: ApplicationDialer = (config, protocols) =>
      up ? listener.dial(config, protocols) : Promise.reject(new Error('connect ECONNREFUSED'));
    const outbound = startOutboundWebSockets(sim, {
      clock,
      dial,
      connections: [
        {
          connectionType: 'persistent',
          uri: 'ws://in-process/',
          apps: ['ow-app'],
          reconnectIntervalMs: 1_000,
        },
      ],
    });
    cleanups.push(() => outbound.close());
    const id = sim.driver.placeCall({ context: 'ow', to: 'persistent' });
    await clock.advance(500);
    expect(sim.hasChannel(id)).toBe(true);
    expect(ended).toEqual([]);
    up = true;
    await clock.advance(5_000);
    expect(ended.map((c) => [c.callId, c.outcome])).toEqual([[id, 'completed']]);
    expect(sim.hasChannel(id)).toBe(false);
    expect(outbound.opened.persistent).toBe(1);
  });
});
