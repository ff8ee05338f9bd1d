import type { EventTransport, EventTransportConnection, EventTransportHandlers } from '@ringflow/client';
import type { InProcessServer } from './InProcessServer.ts';

/** An event transport to an in-process server, plus a way for tests to break its connections. */
export interface InProcessEventTransport extends EventTransport {
  /** Ends every open connection as if the network dropped it (close code 1006). */
  dropConnections(): void;
  /** Connections currently open. */
  readonly openConnections: number;
}

/**
 * An event transport that connects the event stream to an in-process server (the simulator)
 * without sockets. Events are handed over in order, each on a later microtask, as a socket
 * would: code reacting to an event never runs inside the server's own processing.
 *
 * @example
 * const stream = createEventStream({
 *   url: 'http://simulator/ari', apps: ['ivr'], transport: inProcessEventTransport(simulator),
 * });
 */
export function inProcessEventTransport(server: InProcessServer): InProcessEventTransport {
  const open = new Set<() => void>();

  function connect(
    request: { readonly apps: readonly string[]; readonly subscribeAll: boolean },
    on: EventTransportHandlers,
  ): EventTransportConnection {
    let state: 'connecting' | 'open' | 'closed' = 'connecting';
    const queue: Record<string, unknown>[] = [];
    let flushing = false;

    const flush = () => {
      flushing = false;
      while (state === 'open' && queue.length > 0) on.message(queue.shift()!);
    };
    const deliver = (event: Record<string, unknown>) => {
      if (state === 'closed') return;
      queue.push(JSON.parse(JSON.stringify(event)) as Record<string, unknown>);
      if (!flushing && state === 'open') {
        flushing = true;
        queueMicrotask(flush);
      }
    };

    const result = server.connectEvents({ apps: request.apps, subscribeAll: request.subscribeAll }, deliver);
    if (!('close' in result)) {
      state = 'closed';
      const body = result.body === undefined ? '' : JSON.stringify(result.body);
      queueMicrotask(() => on.rejected(result.status, body));
      return { ping() {}, close() {}, terminate() {} };
    }

    const end = (code: number, reason: string) => {
      if (state === 'closed') return;
      state = 'closed';
      queue.length = 0;
      open.delete(drop);
      result.close();
      queueMicrotask(() => on.closed(code, reason));
    };
    const drop = () => end(1006, '');
    open.add(drop);
    queueMicrotask(() => {
      if (state !== 'connecting') return;
      state = 'open';
      on.open();
      flush();
    });
    return {
      ping: () => queueMicrotask(() => state === 'open' && on.pong()),
      close: (code = 1000, reason = '') => end(code, reason),
      terminate: () => end(1006, ''),
    };
  }

  return {
    connect,
    dropConnections() {
      for (const drop of [...open]) drop();
    },
    get openConnections() {
      return open.size;
    },
  };
}
