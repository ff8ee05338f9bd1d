import { inspect } from 'node:util';
import { createEventStream, systemClock, VirtualClock } from '@ringflow/client';
import { createApplication } from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { describe, expect, it } from 'vitest';
import { startWireServer } from '@ringflow/simulator';
import { RELIABILITY_DIALPLAN } from './appOnServer.ts';
import { captureLogs } from './captureLogs.ts';
import { ivrCallMachine } from './ivrCallMachine.ts';
import { settle, watchUnhandledRejections } from './watchUnhandledRejections.ts';

const unhandled = watchUnhandledRejections();

const BASIC_USER = { username: 'svc-basic', password: 'Pa55word-basic-7Q' };
const KEY_USER = { username: 'svc-key', password: 'Pa55word-apikey-9Z' };

/** Every form in which a credential could leak: as is, in a Basic header, percent-encoded. */
function secretForms(user: { username: string; password: string }): string[] {
  const pair = `${user.username}:${user.password}`;
  return [
    user.password,
    pair,
    Buffer.from(pair).toString('base64'),
    encodeURIComponent(pair),
    encodeURIComponent(user.password),
  ];
}

/** Everything an error shows when logged or printed: message, stack, own fields, causes. */
function errorText(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && depth < 5; depth++) {
    parts.push(inspect(e, { depth: 5, showHidden: true }));
    if (e instanceof Error) {
      parts.push(e.message, String(e.stack));
      try {
        parts.push(JSON.stringify(e));
      } catch {
        // Circular fields: inspect above already shows them.
      }
      e = e.cause;
    } else break;
  }
  return parts.join('\n');
}

describe('credentials never appear in logs or error messages', () => {
  it('runtime over the wire with a Basic password and an api_key, through calls, failures and refusals (trace level)', async () => {
    const clock = new VirtualClock();
    // Two servers, one reached with a Basic header, one with an api_key in the query.
    const sim = createSimulator({ clock, dialplan: RELIABILITY_DIALPLAN, asteriskId: '02:00:00:00:00:01' });
    const sim2 = createSimulator({ clock, dialplan: RELIABILITY_DIALPLAN, asteriskId: '02:00:00:00:00:02' });
    const wire = await startWireServer(sim, { users: [BASIC_USER, KEY_USER], clock });
    const wire2 = await startWireServer(sim2, { users: [BASIC_USER, KEY_USER], clock });
    const logs = captureLogs('trace');
    const errors: unknown[] = [];
    const secrets = [...secretForms(BASIC_USER), ...secretForms(KEY_USER)];
    const ioTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

    const app = createApplication({
      servers: [
        {
          name: 'basic',
          url: wire.url,
          ...BASIC_USER,
          eventStream: { pingIntervalMs: 0 },
          restTimeoutMs: 30_000,
        },
        {
          name: 'key',
          url: wire2.url,
          ...KEY_USER,
          auth: 'api_key',
          eventStream: { pingIntervalMs: 0 },
          restTimeoutMs: 30_000,
        },
      ],
      apps: ['ivr'],
      call: ivrCallMachine,
      clock,
      logger: logs.logger,
    });
    try {
      await app.start();
      // Calls: one runs to the end, one hangs up during the prompt (404s, call.gone).
      sim.driver.placeCall({ channelId: 'cred-1' });
      sim.driver.placeCall({ channelId: 'cred-2' });
      sim2.driver.placeCall({ channelId: 'cred-3' });
      sim2.driver.placeCall({ channelId: 'cred-4' });
      for (let i = 0; i < 400; i++) {
        if (i === 50) {
          sim.driver.hangup('cred-2');
          sim2.driver.hangup('cred-4');
        }
        await clock.advance(25);
        await ioTurn();
      }
      // Failed requests through both servers' clients.
      for (const server of ['basic', 'key']) {
        await app
          .client(server)
          .channels.get({ channelId: 'no-such-channel' })
          .catch((e: unknown) => errors.push(e));
        await app
          .client(server)
          .request('deviceStates.update', { deviceName: 'Stasis:x', deviceState: 'BOGUS' })
          .catch((e: unknown) => errors.push(e));
      }
    } finally {
      await app.stop();
    }

    // A wrong password (the password itself must not be echoed), and a server that is not there.
    for (const auth of ['basic', 'api_key'] as const) {
      const wrong = createApplication({
        servers: [
          {
            url: wire.url,
            username: 'svc-basic',
            password: 'Wrong-Pa55word-3X',
            auth,
            eventStream: { pingIntervalMs: 0 },
          },
        ],
        apps: ['ivr'],
        call: ivrCallMachine,
        clock: systemClock,
        logger: logs.logger,
      });
      await wrong.start().catch((e: unknown) => errors.push(e));
      await wrong.stop();
      const down = createApplication({
        servers: [{ url: 'http://127.0.0.1:9/ari', ...KEY_USER, auth, eventStream: { pingIntervalMs: 0 } }],
        apps: ['ivr'],
        call: ivrCallMachine,
        clock: systemClock,
        logger: logs.logger,
      });
      await down.start().catch((e: unknown) => errors.push(e));
      await down.stop();
    }
    secrets.push(
      ...secretForms({ username: 'svc-basic', password: 'Wrong-Pa55word-3X' }),
      ...secretForms({ username: 'svc-key', password: 'Wrong-Pa55word-3X' }),
    );
    // The event stream refusing a wrong api_key and a wrong Basic password.
    for (const auth of ['basic', 'api_key'] as const) {
      const stream = createEventStream({
        url: wire.url,
        apps: ['ivr'],
        username: 'svc-key',
        password: 'Wrong-Pa55word-3X',
        auth,
        stopOnRejection: true,
      });
      await stream.whenOpen().catch((e: unknown) => errors.push(e));
      await stream.close();
    }
    await wire.close();
    await wire2.close();
    sim.close();
    sim2.close();

    expect(logs.records().filter((r) => r.msg === 'call ended')).toHaveLength(4);
    expect(errors.length).toBe(10);
    expect(errors.map((e) => (e as { code?: string }).code).sort()).toEqual([
      'HTTP_ERROR',
      'HTTP_ERROR',
      'HTTP_ERROR',
      'HTTP_ERROR',
      'HTTP_ERROR',
      'HTTP_ERROR',
      'INVALID_PARAMS',
      'INVALID_PARAMS',
      'NETWORK',
      'NETWORK',
    ]);
    for (const secret of secrets) {
      for (const line of logs.lines) expect(line, `a log line contains ${secret}`).not.toContain(secret);
      for (const error of errors)
        expect(errorText(error), `an error contains ${secret}`).not.toContain(secret);
    }
    await settle();
    expect(unhandled).toEqual([]);
  }, 30_000);
});
