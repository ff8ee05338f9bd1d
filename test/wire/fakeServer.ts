import {
  type EventConnection,
  type EventConnectionRequest,
  SimError,
  type SimRequest,
  type SimResponse,
  type SimulatedServer,
} from '@ringflow/simulator';

/** An event-stream connection the fake server holds. */
export interface FakeConnection extends EventConnectionRequest {
  deliver(event: Record<string, unknown>): void;
  closed: boolean;
}

/**
 * A small stand-in for the simulator core, so the wire transport can be tested on its own: it
 * records every request and connection and answers a handful of paths in the real server's way.
 */
export class FakeServer implements SimulatedServer {
  readonly requests: SimRequest[] = [];
  readonly connections: FakeConnection[] = [];

  async handle(request: SimRequest): Promise<SimResponse> {
    this.requests.push(request);
    const { method, path } = request;
    if (request.bodyParseError) return { status: 400, body: { message: 'Error parsing request body' } };
    if (path === '/asterisk/ping' || path === '/core/ping') {
      if (method !== 'GET')
        return { status: 405, body: { message: 'Invalid method' }, headers: { Allow: 'OPTIONS,GET' } };
      return {
        status: 200,
        body: { ping: 'pong', timestamp: '2026-11-22T03:47:12.248+0000', asterisk_id: 'fa:ke' },
      };
    }
    if (path === '/channels') {
      if (method === 'GET') return { status: 200, body: [] };
      if (method === 'POST')
        return { status: 200, body: { echo: request.query, body: request.body ?? null } };
      // No Allow header on purpose: the wire fills it from the description.
      return { status: 405, body: { message: 'Invalid method' } };
    }
    if (path === '/channels/abc/play') {
      if (method === 'POST') return { status: 201, body: { id: 'pb-1' } };
      return { status: 405, body: { message: 'Invalid method' }, headers: { Allow: 'OPTIONS,POST' } };
    }
    if (path === '/recordings/stored/t1/file') {
      return {
        status: 200,
        binary: { contentType: 'audio/wave', data: new Uint8Array([82, 73, 70, 70, 0, 1]) },
      };
    }
    if (path === '/channels/abc' && method === 'DELETE') return { status: 204 };
    if (path === '/boom') throw new Error('core exploded');
    if (path === '/refused') throw new SimError(409, 'Refused by rule');
    return { status: 404, body: { message: 'Resource not found' } };
  }

  connectEvents(
    request: EventConnectionRequest,
    deliver: (event: Record<string, unknown>) => void,
  ): EventConnection | SimResponse {
    if (request.apps.includes('refused-app'))
      return { status: 400, body: { message: 'Refused by the fake' } };
    if (request.apps.includes('throwing-app')) throw new Error('connectEvents exploded');
    const connection: FakeConnection = { ...request, deliver, closed: false };
    this.connections.push(connection);
    // Events raised while the handshake is still under way must not be lost.
    deliver({ type: 'ApplicationRegistered', application: request.apps[0], asterisk_id: 'fa:ke' });
    return {
      close: () => {
        connection.closed = true;
      },
    };
  }

  /** Sends an event to every open connection of `app`. */
  emit(app: string, event: Record<string, unknown>): void {
    for (const c of this.connections) {
      if (!c.closed && c.apps.includes(app)) c.deliver({ ...event, application: app, asterisk_id: 'fa:ke' });
    }
  }
}
