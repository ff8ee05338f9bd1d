import { createRestClient, type RestClient, VirtualClock } from '@ringflow/client';
import {
  type Application,
  type ApplicationOptions,
  createApplication,
  type InProcessServer,
  inProcessEventTransport,
  inProcessRestTransport,
} from '@ringflow/runtime';
import { pino } from 'pino';
import { expect } from 'vitest';

/** One REST request the application sent, as the server received it. */
export interface SeenRequest {
  readonly server: string;
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** Wraps a server so every request reaching it is recorded. */
export function recording(server: InProcessServer, name: string, log: SeenRequest[]): InProcessServer {
  return {
    handle: (request) => {
      log.push({
        server: name,
        method: request.method,
        path: request.path,
        query: { ...request.query },
        body: request.body,
      });
      return server.handle(request);
    },
    connectEvents: (request, deliver) => server.connectEvents(request, deliver),
  };
}

/** An application on in-process servers, on a virtual clock, with deterministic ids. */
export function inProcessApp(
  clock: VirtualClock,
  servers: { name: string; server: InProcessServer }[],
  options: Omit<ApplicationOptions, 'servers' | 'clock'>,
) {
  const requests: SeenRequest[] = [];
  const transports = servers.map((s) => inProcessEventTransport(s.server));
  let n = 0;
  const app: Application = createApplication({
    ids: () => String(++n),
    logger: pino({ level: 'silent' }),
    ...options,
    clock,
    servers: servers.map((s, i) => ({
      name: s.name,
      url: `http://${s.name}/ari`,
      username: 'ringflow',
      password: 'secret',
      restTransport: inProcessRestTransport(recording(s.server, s.name, requests)),
      eventTransport: transports[i]!,
      eventStream: { pingIntervalMs: 0, random: () => 0.5 },
    })),
  });
  return { app, requests, transports };
}

/** A client playing the far end (the caller's side) on a server, outside the application. */
export function farEnd(clock: VirtualClock, server: InProcessServer): RestClient {
  return createRestClient({
    url: 'http://far-end/ari',
    username: 'u',
    password: 'p',
    clock,
    transport: inProcessRestTransport(server),
  });
}

/** Everything the application holds must be released. */
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

export { VirtualClock };
