import { type Clock, systemClock, type TimerHandle } from '@ringflow/client';
import type { Simulator } from '../createSimulator.ts';
import { OUTBOUND_DEFAULTS, type OutboundConnectionConfig } from './OutboundConnectionConfig.ts';
import type { ApplicationDialer } from './ApplicationPipe.ts';
import {
  attachApplications,
  dialWebSocket,
  type OutboundSocket,
  type PersistentApplications,
  registerPersistentApplications,
} from './OutboundSocket.ts';

/** Options of {@link startOutboundWebSockets}. */
export interface OutboundWebSocketsOptions {
  readonly connections: readonly OutboundConnectionConfig[];
  /**
   * Times reconnect waits and closes after `StasisEnd`. Default: the system clock, since these
   * wait for network peers; a test on virtual time may pass the simulator's clock.
   */
  readonly clock?: Clock;
  /** Told what a real server would log (connection failures, calls given up). */
  readonly log?: (level: 'notice' | 'warning' | 'error', message: string) => void;
  /** Told about failures inside the simulated server. */
  readonly onError?: (error: unknown) => void;
  /**
   * How connections are opened. Default: a WebSocket to each connection's `uri`. Tests pass
   * `connectInProcess(...).dial` to reach an application in the same process without sockets,
   * on virtual time.
   */
  readonly dial?: ApplicationDialer;
}

/** Counts of a server's outbound WebSockets. */
export interface OutboundWebSockets {
  /** Connections open now. */
  readonly openConnections: number;
  /** Connections opened since start, by mode. */
  readonly opened: { readonly persistent: number; readonly perCall: number };
  /** Calls whose `Stasis()` failed because no per-call connection could be made. */
  readonly failedCalls: number;
  /** Calls hung up because their per-call connection dropped and could not be re-opened. */
  readonly callsHungUp: number;
  /** Resolves once every persistent connection is open (at once when there is none). */
  whenConnected(): Promise<void>;
  /** Stops dialling and closes every connection (code 1001). */
  close(): Promise<void>;
}

/**
 * Makes a simulator dial the application the way a real server's outbound WebSockets do (see the
 * recorded traces, and the server's res/ari/ari_websockets.c): a `persistent` connection's
 * applications are registered at once and stay registered while it is down (events raised
 * meanwhile are queued and sent when it opens), and it is opened at once and re-opened every
 * `reconnectIntervalMs` while down; a `per_call_config` one is opened when a channel reaches
 * `Stasis(app)` (the application is then `app:<channel name>`), re-opened at once if it drops
 * mid-call (no new StasisStart; the call is hung up after `reconnectAttempts`), and closed a few
 * seconds after the call's `StasisEnd`. When no per-call connection can be made, `Stasis()` fails
 * and the dialplan goes on. REST requests arrive on the sockets as `RESTRequest` frames.
 *
 * @example
 * const sim = createSimulator({ dialplan: { text: '[ow]\nexten => percall,1,Stasis(ow-call,arg1)\n' } });
 * const outbound = startOutboundWebSockets(sim, {
 *   connections: [{ connectionType: 'per_call_config', uri: 'ws://127.0.0.1:8765/ari', apps: ['ow-call'] }],
 * });
 * sim.driver.placeCall({ context: 'ow', extension: 'percall' }); // the application gets a connection
 * await outbound.close();
 */
export function startOutboundWebSockets(
  server: Simulator,
  options: OutboundWebSocketsOptions,
): OutboundWebSockets {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? (() => {});
  const onError = options.onError ?? (() => {});
  const dialApplication = options.dial ?? dialWebSocket;
  const sockets = new Set<OutboundSocket>();
  const timers = new Set<TimerHandle>();
  const removers: (() => void)[] = [];
  const registrations: PersistentApplications[] = [];
  const opened = { persistent: 0, perCall: 0 };
  let failedCalls = 0;
  let callsHungUp = 0;
  let stopped = false;
  const connectedWaiters: (() => void)[] = [];
  let persistentDown = 0;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = clock.setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const settings = (config: OutboundConnectionConfig) => ({
    protocols: config.protocols ?? OUTBOUND_DEFAULTS.protocols,
    interval: config.reconnectIntervalMs ?? OUTBOUND_DEFAULTS.reconnectIntervalMs,
    attempts: Math.max(1, config.reconnectAttempts ?? OUTBOUND_DEFAULTS.reconnectAttempts),
    closeAfter: config.closeAfterStasisEndMs ?? OUTBOUND_DEFAULTS.closeAfterStasisEndMs,
  });

  const track = (socket: OutboundSocket) => {
    sockets.add(socket);
    return () => sockets.delete(socket);
  };

  /**
   * A persistent connection: its applications are registered at once (calls may enter them before
   * any socket is open; their events wait), then dial until open, serve until closed, dial again.
   */
  const runPersistent = async (config: OutboundConnectionConfig) => {
    const { protocols, interval } = settings(config);
    let up = false;
    persistentDown++;
    let applications: PersistentApplications;
    try {
      applications = registerPersistentApplications(server, config.apps, config, onError);
    } catch (error) {
      log('error', `${config.name ?? config.uri}: ${(error as Error).message}`);
      return;
    }
    registrations.push(applications);
    while (!stopped) {
      let pipe: Awaited<ReturnType<ApplicationDialer>>;
      try {
        pipe = await dialApplication(config, protocols);
      } catch (error) {
        log(
          'warning',
          `${config.name ?? config.uri}: connection failed (${(error as Error).message}); retrying`,
        );
        await wait(interval);
        continue;
      }
      if (stopped) {
        pipe.close(1001);
        return;
      }
      opened.persistent++;
      const closed = new Promise<number>((resolve) => {
        let untrack = () => {};
        const handlers = {
          onClosed: (code: number) => {
            untrack();
            resolve(code);
          },
        };
        untrack = track(applications.attach(pipe, handlers));
      });
      if (!up) {
        up = true;
        persistentDown--;
        if (persistentDown === 0) for (const wake of connectedWaiters.splice(0)) wake();
      }
      const code = await closed;
      if (stopped) return;
      log('warning', `${config.name ?? config.uri}: websocket disconnected (${code}); reconnecting`);
      await wait(interval);
    }
  };

  /** Opens a call's connection: resolves with the application name it registered, or undefined. */
  const openPerCall = async (
    config: OutboundConnectionConfig,
    app: string,
    channel: { readonly id: string; readonly name: string },
  ): Promise<string | undefined> => {
    const { protocols, interval, attempts, closeAfter } = settings(config);
    const registered = `${app}:${channel.name}`;
    let callEnded = false;

    const connect = async (): Promise<boolean> => {
      for (let attempt = 1; attempt <= attempts && !stopped; attempt++) {
        try {
          const pipe = await dialApplication(config, protocols);
          if (stopped) {
            pipe.close(1001);
            return false;
          }
          opened.perCall++;
          let socket: OutboundSocket | undefined;
          let untrack = () => {};
          socket = attachApplications(
            pipe,
            server,
            [registered],
            config,
            {
              onEvent: (event) => {
                // Only the StasisEnd of the call's own channel ends the connection, as on a real
                // server (res/ari/ari_websockets.c compares it with the session's channel id): a
                // channel the application dialled on this connection (an agent, a transfer) leaving
                // Stasis does not close it under the call.
                if (event.type !== 'StasisEnd') return;
                if ((event.channel as { id?: unknown } | undefined)?.id !== channel.id) return;
                callEnded = true;
                const timer = clock.setTimeout(() => {
                  timers.delete(timer);
                  socket?.close(1000);
                }, closeAfter);
                timers.add(timer);
              },
              onClosed: () => {
                untrack();
                if (!callEnded && !stopped) void reconnectMidCall();
                // The call left: its app name goes with its connection, as on a real server.
                else server.forgetApplication(registered);
              },
            },
            onError,
          );
          untrack = track(socket);
          return true;
        } catch (error) {
          log(
            'warning',
            `${config.name ?? config.uri}: per-call connection for ${channel.name} failed (${(error as Error).message})`,
          );
          if (attempt < attempts) await wait(interval);
        }
      }
      return false;
    };

    const reconnectMidCall = async () => {
      log('warning', `${config.name ?? config.uri}: websocket disconnected; reconnecting (${channel.name})`);
      if (await connect()) return;
      if (stopped) return;
      log(
        'warning',
        `${config.name ?? config.uri}: hanging up ${channel.name} after exhausting ${attempts} reconnect attempts`,
      );
      callsHungUp++;
      await server.handle({
        method: 'DELETE',
        path: `/channels/${encodeURIComponent(channel.id)}`,
        query: {},
      });
      server.forgetApplication(registered);
    };

    if (await connect()) return registered;
    failedCalls++;
    log('error', `Failed to create per call websocket thread; Stasis app '${app}' doesn't exist`);
    return undefined;
  };

  for (const config of options.connections) {
    if (config.connectionType === 'persistent') void runPersistent(config);
    else
      for (const app of config.apps)
        removers.push(server.servePerCall(app, (ch) => openPerCall(config, app, ch)));
  }

  return {
    get openConnections() {
      return sockets.size;
    },
    opened,
    get failedCalls() {
      return failedCalls;
    },
    get callsHungUp() {
      return callsHungUp;
    },
    whenConnected() {
      if (persistentDown === 0) return Promise.resolve();
      return new Promise((resolve) => connectedWaiters.push(resolve));
    },
    async close() {
      stopped = true;
      for (const remove of removers.splice(0)) remove();
      for (const registration of registrations.splice(0)) registration.close();
      for (const timer of timers) clock.clearTimeout(timer);
      timers.clear();
      for (const socket of [...sockets]) socket.close(1001);
      sockets.clear();
    },
  };
}
