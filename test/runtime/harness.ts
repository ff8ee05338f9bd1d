import { createRestClient, type RestClient, VirtualClock } from '@ringflow/client';
import {
  type Application,
  type ApplicationOptions,
  type CallHandle,
  type CallInput,
  callActors,
  createApplication,
  type InProcessServer,
  inProcessEventTransport,
  inProcessRestTransport,
} from '@ringflow/runtime';
import { pino } from 'pino';
import { expect } from 'vitest';
import { setup } from 'xstate';

/** One REST request the application sent, as the server received it. */
export interface SeenRequest {
  readonly server: string;
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** One event the server sent to the application. */
export interface SeenEvent {
  readonly server: string;
  readonly type: string;
  readonly application: string;
  /** The channel, bridge, playback or recording the event is about (its first such field). */
  readonly about?: string;
  readonly event: Readonly<Record<string, unknown>>;
}

function aboutOf(event: Readonly<Record<string, unknown>>): string | undefined {
  for (const field of ['channel', 'playback', 'recording', 'bridge']) {
    const value = event[field] as { id?: unknown; name?: unknown } | undefined;
    const id = value?.id ?? value?.name;
    if (typeof id === 'string') return id;
  }
  return undefined;
}

/** Wraps a server so every request reaching it, and every event it sends, is recorded. */
export function recording(
  server: InProcessServer,
  name: string,
  log: SeenRequest[],
  events: SeenEvent[] = [],
): InProcessServer {
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
    connectEvents: (request, deliver) =>
      server.connectEvents(request, (event) => {
        const about = aboutOf(event);
        events.push({
          server: name,
          type: String(event.type),
          application: String(event.application),
          ...(about === undefined ? {} : { about }),
          event,
        });
        deliver(event);
      }),
  };
}

/** An application on in-process servers, on a virtual clock, with deterministic ids. */
export function inProcessApp(
  clock: VirtualClock,
  servers: { name: string; server: InProcessServer }[],
  options: Omit<ApplicationOptions, 'servers' | 'clock'>,
  /** Keep every request and event (default); load tests say false, so memory stays flat. */
  record = true,
) {
  const requests: SeenRequest[] = [];
  const events: SeenEvent[] = [];
  const watch = (server: InProcessServer, name: string, log: SeenRequest[]) =>
    record ? recording(server, name, log, events) : server;
  const transports = servers.map((s) => inProcessEventTransport(watch(s.server, s.name, [])));
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
      restTransport: inProcessRestTransport(watch(s.server, s.name, requests)),
      eventTransport: transports[i]!,
      eventStream: { pingIntervalMs: 0, random: () => 0.5 },
    })),
  });
  return { app, requests, events, transports };
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

/**
 * Holds the events a server sends while `hold()` is in force and hands them over, in order, on
 * `release()`: a test can make a request meet a channel that is gone before the application has
 * heard of it, as happens when a caller hangs up while a request is on its way.
 */
export function eventGate(server: InProcessServer) {
  let holding = false;
  const held: (() => void)[] = [];
  const gated: InProcessServer = {
    handle: (request) => server.handle(request),
    connectEvents: (request, deliver) =>
      server.connectEvents(request, (event) => {
        if (holding) held.push(() => deliver(event));
        else deliver(event);
      }),
  };
  return {
    server: gated,
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const deliver of held.splice(0)) deliver();
    },
  };
}

/**
 * A server whose events matching `lost` never reach the application, with no gap in its stream:
 * an event lost where nothing can tell (what the watchdog is for). `lost` sees every event once.
 */
export function losingEvents(
  server: InProcessServer,
  lost: (event: Readonly<Record<string, unknown>>) => boolean,
): InProcessServer {
  return {
    handle: (request) => server.handle(request),
    connectEvents: (request, deliver) =>
      server.connectEvents(request, (event) => {
        if (!lost(event)) deliver(event);
      }),
  };
}

/** Answers and waits for the caller to hang up (no request of its own after the answer). */
export const waitForHangup = setup({
  types: { input: {} as CallInput, context: {} as { call: CallHandle } },
  actors: callActors,
}).createMachine({
  context: ({ input }) => ({ call: input.call }),
  initial: 'answering',
  states: {
    answering: {
      invoke: { src: 'answer', input: ({ context }) => ({ call: context.call }), onDone: 'talking' },
    },
    talking: {},
  },
});
