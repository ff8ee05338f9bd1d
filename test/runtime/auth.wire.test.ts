import { systemClock } from '@ringflow/client';
import { type CallHandle, type CallInput, callActors, createApplication } from '@ringflow/runtime';
import { createSimulator, startWireServer } from '@ringflow/simulator';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { EventSocketProxy } from './EventSocketProxy.ts';
import { until } from '@ringflow/testing';

const answerAndHangUp = setup({
  types: { input: {} as CallInput, context: {} as { call: CallHandle } },
  actors: callActors,
}).createMachine({
  context: ({ input }) => ({ call: input.call }),
  initial: 'answering',
  states: {
    answering: {
      invoke: { src: 'answer', input: ({ context }) => ({ call: context.call }), onDone: 'leaving' },
    },
    leaving: { invoke: { src: 'hangup', input: ({ context }) => ({ call: context.call }) } },
  },
});

describe('over the wire: how credentials travel', () => {
  for (const auth of ['basic', 'api_key'] as const) {
    it(`auth '${auth}' is used by the event socket as by REST requests`, async () => {
      const simulator = createSimulator({ clock: systemClock });
      const wire = await startWireServer(simulator, {
        users: [{ username: 'ringflow', password: 'secret' }],
        clock: systemClock,
      });
      const proxy = await EventSocketProxy.start(wire.port);
      const app = createApplication({
        servers: [{ url: proxy.url, username: 'ringflow', password: 'secret', auth }],
        apps: ['auth-test'],
        call: answerAndHangUp,
        logger: pino({ level: 'silent' }),
      });
      try {
        await app.start();
        expect(proxy.handshakes).toHaveLength(1);
        const handshake = proxy.handshakes[0] ?? '';
        const basic =
          `authorization: basic ${Buffer.from('ringflow:secret').toString('base64')}`.toLowerCase();
        if (auth === 'api_key') {
          expect(handshake.split('\r\n')[0]).toContain('api_key=ringflow:secret');
          expect(handshake.toLowerCase()).not.toContain('authorization:');
        } else {
          expect(handshake.split('\r\n')[0]).not.toContain('api_key');
          expect(handshake.toLowerCase()).toContain(basic);
        }
        // The application works: a call comes in, is answered and hung up.
        simulator.driver.placeCall({ app: 'auth-test', channelId: 'c1' });
        await until('the call to end', () => app.metrics.summary().callsEnded === 1);
        expect(app.metrics.callsEnded.sum({ status: 'completed', by: 'flow' })).toBe(1);
      } finally {
        await app.stop();
        await proxy.close();
        await wire.close();
        simulator.close();
      }
    });
  }
});
