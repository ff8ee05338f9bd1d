import type { RestTransport, VirtualClock } from '@ringflow/client';
import {
  type Application,
  createApplication,
  type InProcessServer,
  inProcessEventTransport,
  inProcessRestTransport,
} from '@ringflow/runtime';
import { expect } from 'vitest';
import { type CapturedLogs, captureLogs } from './captureLogs.ts';
import { ivrCallMachine } from './ivrCallMachine.ts';
import { tapEventTransport } from './tapEventTransport.ts';

export const APP = 'ivr';

/**
 * The dialplan of the reliability tests: every inbound call goes to the application; when the
 * application is not connected (a gap, a restart) Stasis fails and the call is hung up, as on a
 * real server.
 */
export const RELIABILITY_DIALPLAN = {
  file: 'reliability.conf',
  text: ['[from-callers]', `exten => s,1,Stasis(${APP})`, ' same => n,Hangup()', ''].join('\n'),
};

/**
 * The reliability IVR as an application on an in-process server, on a virtual clock, logging
 * into memory, with the event transport's drop at hand and every StasisStart it received noted.
 */
export function appOnServer(
  clock: VirtualClock,
  server: InProcessServer,
  options: { wrapRest?: (inner: RestTransport) => RestTransport; random?: () => number } = {},
) {
  const logs: CapturedLogs = captureLogs('info');
  const events = inProcessEventTransport(server);
  const received = new Set<string>();
  const rest = inProcessRestTransport(server);
  let n = 0;
  const app: Application = createApplication({
    servers: [
      {
        name: 'pbx',
        url: 'http://pbx/ari',
        username: 'ringflow',
        password: 'secret',
        restTransport: options.wrapRest ? options.wrapRest(rest) : rest,
        eventTransport: tapEventTransport(events, (frame) => {
          if (frame.type === 'StasisStart') received.add((frame.channel as { id: string }).id);
        }),
        // Liveness pings are for sockets; jittered backoff from the seeded source.
        eventStream: {
          pingIntervalMs: 0,
          backoff: { initialDelayMs: 100, maxDelayMs: 2000 },
          random: options.random ?? (() => 0.5),
        },
        restTimeoutMs: 3000,
      },
    ],
    apps: [APP],
    call: ivrCallMachine,
    clock,
    logger: logs.logger,
    ids: () => String(++n),
  });
  return { app, logs, events, received };
}

/** Nothing held by the application: sessions, subscriptions, timers, requests, routes. */
export function expectNothingLeft(app: Application): void {
  expect(app.counters()).toEqual({
    activeSessions: 0,
    bridgeSessions: 0,
    subscriptions: 0,
    timers: 0,
    pendingRequests: 0,
    routes: 0,
    digitWaiters: 0,
  });
}
