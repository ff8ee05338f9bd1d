import type {
  RestTransport,
  TransportCancel,
  TransportExchange,
  TransportRequest,
  TransportResponse,
} from '@ringflow/client';

/** Query parameters of requests that make a channel with an id the caller picked. */
const NEW_CHANNEL_PARAMS = new Set(['channelId', 'otherChannelId', 'snoopId']);

/**
 * A worker's REST transport: before a request that makes a channel with an id this worker picked
 * (a `dial` step's originate, a snoop, `app.originate`), the channel is assigned to this worker
 * (`assign`), so that when it enters the application the holder hands its StasisStart to this
 * worker, whose call is waiting for it, and not to the least loaded one. Every other request goes
 * straight to `inner`, unchanged.
 *
 * @example
 * const rest = new AssigningRestTransport(new UndiciTransport({ url, username, password }), assign);
 */
export class AssigningRestTransport implements RestTransport {
  constructor(
    private readonly inner: RestTransport,
    private readonly assign: (channelIds: readonly string[]) => Promise<void>,
  ) {}

  send(request: TransportRequest): Promise<TransportResponse> {
    const ids = newChannels(request);
    if (ids.length === 0) return this.inner.send(request);
    return this.assign(ids).then(() => this.inner.send(request));
  }

  dispatch(request: TransportRequest, exchange: TransportExchange): TransportCancel {
    const inner = this.inner;
    const ids = newChannels(request);
    if (ids.length === 0 || !inner.dispatch) {
      if (inner.dispatch) return inner.dispatch(request, exchange);
      inner.send(request).then(
        (reply) => exchange.replied(reply),
        (error: unknown) => exchange.failed(error),
      );
      return { cancel() {} };
    }
    let cancelled: Error | undefined;
    let started: TransportCancel | undefined;
    this.assign(ids).then(
      () => {
        if (cancelled) exchange.failed(cancelled);
        else started = inner.dispatch!(request, exchange);
      },
      (error: unknown) => exchange.failed(error),
    );
    return {
      cancel(reason) {
        cancelled ??= reason;
        started?.cancel(reason);
      },
    };
  }

  close(): Promise<void> {
    return this.inner.close?.() ?? Promise.resolve();
  }
}

function newChannels(request: TransportRequest): string[] {
  if (request.method !== 'POST' || !request.path.startsWith('/channels')) return [];
  const ids: string[] = [];
  for (const [key, value] of request.query) if (NEW_CHANNEL_PARAMS.has(key) && value !== '') ids.push(value);
  // originateWithId (POST /channels/{channelId}) and snoopChannelWithId (.../snoop/{snoopId}).
  const inPath = /^\/channels\/([^/]+)(?:\/snoop\/([^/]+))?$/.exec(request.path);
  const id =
    inPath?.[2] ??
    (inPath && inPath[1] !== 'create' && inPath[1] !== 'externalMedia' ? inPath[1] : undefined);
  if (id !== undefined) ids.push(decodeURIComponent(id));
  return ids;
}
