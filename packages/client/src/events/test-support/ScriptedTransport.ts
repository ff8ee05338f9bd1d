import type {
  EventTransport,
  EventTransportConnection,
  EventTransportHandlers,
  EventTransportRequest,
} from '../EventTransport.ts';

/** One connection made through a {@link ScriptedTransport}, driven by the test. */
export interface ScriptedConnection {
  readonly request: EventTransportRequest;
  readonly handlers: EventTransportHandlers;
  readonly pings: number;
  /** How the stream ended it, if it did. */
  readonly endedBy: 'close' | 'terminate' | undefined;
}

/**
 * An in-memory transport whose connections the test drives by hand: open them, push frames
 * (text or objects, as an in-process server would), answer pings or not, refuse, fail, close.
 * `onConnect` may act inside `connect` itself, like a transport that answers synchronously.
 */
export class ScriptedTransport implements EventTransport {
  readonly connections: ScriptedConnection[] = [];
  onConnect: ((connection: ScriptedConnection) => void) | undefined;
  /** Answer each ping with a pong at once. */
  autoPong = true;
  /** Throw from `connect` (a transport that cannot even start). */
  failConnect: Error | undefined;

  connect(request: EventTransportRequest, handlers: EventTransportHandlers): EventTransportConnection {
    if (this.failConnect) throw this.failConnect;
    const state = { request, handlers, pings: 0, endedBy: undefined as 'close' | 'terminate' | undefined };
    this.connections.push(state);
    this.onConnect?.(state);
    return {
      ping: () => {
        state.pings += 1;
        if (this.autoPong) queueMicrotask(() => handlers.pong());
      },
      close: () => {
        state.endedBy ??= 'close';
        queueMicrotask(() => handlers.closed(1000, ''));
      },
      terminate: () => {
        state.endedBy ??= 'terminate';
      },
    };
  }

  /** The most recent connection (throws when there is none). */
  get last(): ScriptedConnection {
    const last = this.connections.at(-1);
    if (!last) throw new Error('no connection was made');
    return last;
  }
}
