import type { RestTransport, TransportRequest, TransportResponse } from '@ringflow/client';

/** Where the requests of a per-call target went. */
export interface RouteCounts {
  /** Requests sent over the socket of the call they concern. */
  overCallSockets: number;
  /** Requests about no call (or a call whose socket has closed), sent over the persistent carrier. */
  overCarrier: number;
}

/** A call's socket as the router needs it. */
export interface CallSocket {
  readonly rest: RestTransport;
  readonly open: boolean;
}

/**
 * REST for an application the server dials once per call: a request about a call's channel, or
 * about a playback or recording started over that call's socket, goes back over that socket (as
 * the runtime does in listen mode); anything else (originate, bridges, server-level resources)
 * goes over the carrier, a persistent connection of its own.
 */
export class CallSocketRouter implements RestTransport {
  readonly counts: RouteCounts = { overCallSockets: 0, overCarrier: 0 };
  /** `channels/<id>`, `playbacks/<id>`, `recordings/live/<name>` -> the call socket that owns it. */
  private readonly owners = new Map<string, CallSocket>();

  constructor(private readonly carrier: RestTransport) {}

  /** A channel entered the application on `socket` (its StasisStart arrived there). */
  ownChannel(channelId: string, socket: CallSocket): void {
    this.owners.set(`channels/${channelId}`, socket);
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    const socket = this.ownerOf(request.path);
    if (!socket) {
      this.counts.overCarrier++;
      return this.carrier.send(request);
    }
    this.counts.overCallSockets++;
    const reply = await socket.rest.send(request);
    this.learn(reply, socket);
    return reply;
  }

  private ownerOf(path: string): CallSocket | undefined {
    const [, resource, first, second] = path.split('/');
    const key =
      resource === 'channels' || resource === 'playbacks'
        ? `${resource}/${decodeURIComponent(first ?? '')}`
        : resource === 'recordings' && first === 'live'
          ? `recordings/live/${decodeURIComponent(second ?? '')}`
          : undefined;
    const socket = key === undefined ? undefined : this.owners.get(key);
    return socket?.open ? socket : undefined;
  }

  /** A playback or recording started over a call's socket belongs to that socket. */
  private learn(reply: TransportResponse, socket: CallSocket): void {
    const body = reply.body as
      | { id?: unknown; name?: unknown; media_uri?: unknown; format?: unknown }
      | undefined;
    if (reply.status >= 300 || typeof body !== 'object' || body === null) return;
    if (typeof body.id === 'string' && body.media_uri !== undefined)
      this.owners.set(`playbacks/${body.id}`, socket);
    if (typeof body.name === 'string' && body.format !== undefined)
      this.owners.set(`recordings/live/${body.name}`, socket);
  }

  async close(): Promise<void> {
    await this.carrier.close?.();
  }
}
