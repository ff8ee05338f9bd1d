import {
  ErrorCode,
  type RestTransport,
  RingflowError,
  type TransportRequest,
  type TransportResponse,
} from '@ringflow/client';

/** The faults a {@link FaultyRestTransport} can inject, each with its probability per request. */
export interface RestFaultRates {
  /** The request never reaches the server and no reply comes (the client's timeout ends it). */
  readonly swallow?: number;
  /** The server does the work but the reply is lost (the client times out on a done request). */
  readonly loseReply?: number;
  /** The server answers 500 without doing anything. */
  readonly status500?: number;
  /** The server answers 503 (overloaded, restarting) without doing anything. */
  readonly status503?: number;
}

export type RestFault = keyof RestFaultRates;

/**
 * Wraps a REST transport and injects faults with a seeded random source: requests swallowed,
 * replies lost after the work was done, 500 and 503 answers. Injection starts when `enabled`
 * is set, so an application can connect first. Counts what it injected.
 *
 * @example
 * const faulty = new FaultyRestTransport(inProcessRestTransport(sim), seededRandom(1), { status503: 0.05 });
 * createApplication({ servers: [{ ..., restTransport: faulty }], ... });
 * await app.start();
 * faulty.enabled = true;
 */
export class FaultyRestTransport implements RestTransport {
  enabled = false;
  readonly injected: Record<RestFault, number> = { swallow: 0, loseReply: 0, status500: 0, status503: 0 };
  /** Requests that reached the inner transport. */
  forwarded = 0;

  /**
   * @param only limits the faults to the requests it accepts (e.g. the hang-ups:
   *   `(r) => r.method === 'DELETE' && r.path.startsWith('/channels/')`); others always pass.
   */
  constructor(
    private readonly inner: RestTransport,
    private readonly random: () => number,
    private readonly rates: RestFaultRates,
    private readonly only: (request: TransportRequest) => boolean = () => true,
  ) {}

  get injectedTotal(): number {
    return Object.values(this.injected).reduce((a, b) => a + b, 0);
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    const fault = this.enabled && this.only(request) ? this.pick() : undefined;
    if (fault) this.injected[fault]++;
    switch (fault) {
      case 'swallow':
        return hangUntilAborted(request);
      case 'loseReply':
        this.forwarded++;
        await this.inner.send(request).catch(() => undefined);
        return hangUntilAborted(request);
      case 'status500':
        return { status: 500, headers: JSON_HEADERS, body: { message: 'Internal Server Error (injected)' } };
      case 'status503':
        return { status: 503, headers: JSON_HEADERS, body: { message: 'Service Unavailable (injected)' } };
      default:
        this.forwarded++;
        return this.inner.send(request);
    }
  }

  async close(): Promise<void> {
    await this.inner.close?.();
  }

  private pick(): RestFault | undefined {
    let roll = this.random();
    for (const fault of ['swallow', 'loseReply', 'status500', 'status503'] as const) {
      const rate = this.rates[fault] ?? 0;
      if (roll < rate) return fault;
      roll -= rate;
    }
    return undefined;
  }
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/** A reply that never comes: settles only when the client aborts (timeout, call ended). */
function hangUntilAborted(request: TransportRequest): Promise<never> {
  return new Promise((_resolve, reject) => {
    const abort = () =>
      reject(new RingflowError(ErrorCode.ABORTED, `${request.method} ${request.path}: no reply (injected)`));
    if (!request.signal) return; // Without a signal the client set no deadline: it hangs, as a real lost reply does.
    if (request.signal.aborted) abort();
    else request.signal.addEventListener('abort', abort, { once: true });
  });
}
