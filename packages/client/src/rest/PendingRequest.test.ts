import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/VirtualClock.ts';
import { ErrorCode, RingflowError } from '../errors/RingflowError.ts';
import { PendingRequest } from './PendingRequest.ts';
import type { PendingRequestContext } from './PendingRequest.ts';
import type { RequestRecord } from './RestClient.ts';
import type { RestTransport, TransportExchange, TransportRequest } from './RestTransport.ts';

const request: TransportRequest = { method: 'POST', path: '/channels/c1/answer', query: [] };
const statusOf = (_request: TransportRequest, reply: { status: number }) => reply.status;

/** A transport whose dispatch, replies and failures the test drives by hand. */
class ControlledTransport implements RestTransport {
  readonly exchanges: TransportExchange[] = [];
  readonly cancelled: Error[] = [];

  send(): never {
    throw new Error('ControlledTransport is driven through dispatch');
  }

  dispatch(_request: TransportRequest, exchange: TransportExchange) {
    this.exchanges.push(exchange);
    return { cancel: (reason: Error) => this.cancelled.push(reason) };
  }

  get exchange(): TransportExchange {
    const exchange = this.exchanges[0];
    if (!exchange) throw new Error('nothing was dispatched');
    return exchange;
  }
}

function setUp(transport: RestTransport = new ControlledTransport()) {
  const clock = new VirtualClock();
  const records: RequestRecord[] = [];
  const context: PendingRequestContext = { transport, clock, onRequest: (r) => records.push(r) };
  return { clock, records, context };
}

/** Settles `promise` into an inspectable state without awaiting it. */
function watch<T>(promise: Promise<T>) {
  const state: { value?: T; error?: RingflowError; settled: boolean } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { value, settled: true }),
    (error: RingflowError) => Object.assign(state, { error, settled: true }),
  );
  return state;
}

describe('PendingRequest', () => {
  it('starts the reply deadline when the transport dispatches the request, not before', async () => {
    const transport = new ControlledTransport();
    const { clock, records, context } = setUp(transport);
    const outcome = watch(PendingRequest.start(context, 'channels.answer', request, 50, undefined, statusOf));
    // Waiting for a pooled connection: no deadline runs, however long it takes.
    await clock.advance(10_000);
    expect(outcome.settled).toBe(false);
    expect(clock.pendingTimers).toBe(0);
    transport.exchange.dispatched();
    await clock.advance(49);
    expect(outcome.settled).toBe(false);
    await clock.advance(1);
    expect(outcome.error?.code).toBe(ErrorCode.TIMEOUT);
    expect(outcome.error?.message).toContain('channels.answer (POST /channels/c1/answer)');
    expect(outcome.error?.message).toContain('50 ms');
    expect(transport.cancelled).toEqual([outcome.error]);
    expect(clock.pendingTimers).toBe(0);
    expect(records).toEqual([expect.objectContaining({ operation: 'channels.answer', durationMs: 10_050 })]);
  });

  it('keeps the first deadline when a retried request is dispatched again', async () => {
    const transport = new ControlledTransport();
    const { clock, context } = setUp(transport);
    const outcome = watch(PendingRequest.start(context, 'channels.answer', request, 50, undefined, statusOf));
    transport.exchange.dispatched();
    await clock.advance(30);
    transport.exchange.dispatched();
    expect(clock.pendingTimers).toBe(1);
    await clock.advance(20);
    expect(outcome.error?.code).toBe(ErrorCode.TIMEOUT);
  });

  it('lets the caller cancel a request still waiting for a connection, and ignores what comes after', async () => {
    const transport = new ControlledTransport();
    const { clock, records, context } = setUp(transport);
    const controller = new AbortController();
    const outcome = watch(
      PendingRequest.start(context, 'channels.answer', request, 50, controller.signal, statusOf),
    );
    controller.abort();
    await clock.advance(0);
    expect(outcome.error?.code).toBe(ErrorCode.ABORTED);
    expect(transport.cancelled).toEqual([outcome.error]);
    // The transport reports the cancelled request's end, or a reply that crossed the cancel.
    transport.exchange.dispatched();
    transport.exchange.failed(new Error('aborted'));
    transport.exchange.replied({ status: 204, headers: {} });
    await clock.advance(100);
    expect(records).toHaveLength(1);
    expect(clock.pendingTimers).toBe(0);
  });

  it('resolves with the interpreted reply, clears the deadline and stops listening to the signal', async () => {
    const transport = new ControlledTransport();
    const { clock, records, context } = setUp(transport);
    const controller = new AbortController();
    const result = PendingRequest.start(context, 'channels.answer', request, 50, controller.signal, statusOf);
    transport.exchange.dispatched();
    await clock.advance(20);
    transport.exchange.replied({ status: 204, headers: {} });
    expect(await result).toBe(204);
    expect(clock.pendingTimers).toBe(0);
    controller.abort();
    expect(transport.cancelled).toEqual([]);
    expect(records).toEqual([
      {
        operation: 'channels.answer',
        method: 'POST',
        path: '/channels/c1/answer',
        status: 204,
        durationMs: 20,
      },
    ]);
  });

  it('turns a reply the interpreter rejects into its error, with the status reported', async () => {
    const transport = new ControlledTransport();
    const { records, context } = setUp(transport);
    const refused = new RingflowError(ErrorCode.HTTP_ERROR, 'channels.answer: 404');
    const result = PendingRequest.start(context, 'channels.answer', request, 0, undefined, () => {
      throw refused;
    });
    transport.exchange.replied({ status: 404, headers: {} });
    await expect(result).rejects.toBe(refused);
    expect(records[0]).toMatchObject({ status: 404, error: refused });
  });

  it('reports a transport failure as NETWORK without credentials, and keeps its own codes', async () => {
    const transport = new ControlledTransport();
    const { context } = setUp(transport);
    const network = PendingRequest.start(context, 'channels.answer', request, 0, undefined, statusOf);
    transport.exchanges[0]?.failed(new Error('socket hang up ?api_key=demo:s3cret'));
    const error = await network.then(
      () => expect.unreachable(),
      (e: RingflowError) => e,
    );
    expect(error).toMatchObject({ code: ErrorCode.NETWORK });
    expect(error.message).not.toContain('s3cret');
    const closed = new RingflowError(ErrorCode.CLOSED, 'closed');
    const own = PendingRequest.start(context, 'channels.answer', request, 0, undefined, statusOf);
    transport.exchanges[1]?.failed(closed);
    await expect(own).rejects.toBe(closed);
  });

  it('cancels a request whose caller gave up while the transport was still dispatching it', async () => {
    const controller = new AbortController();
    const cancelled: Error[] = [];
    const transport: RestTransport = {
      send: () => Promise.reject(new Error('unused')),
      dispatch() {
        controller.abort();
        return { cancel: (reason) => cancelled.push(reason) };
      },
    };
    const { context } = setUp(transport);
    const result = PendingRequest.start(context, 'channels.answer', request, 0, controller.signal, statusOf);
    await expect(result).rejects.toMatchObject({ code: ErrorCode.ABORTED });
    expect(cancelled).toHaveLength(1);
  });

  it('turns a dispatch that throws into a rejection', async () => {
    const transport: RestTransport = {
      send: () => Promise.reject(new Error('unused')),
      dispatch() {
        throw new TypeError('bad request object');
      },
    };
    const { clock, context } = setUp(transport);
    const result = PendingRequest.start(context, 'channels.answer', request, 50, undefined, statusOf);
    await expect(result).rejects.toMatchObject({ code: ErrorCode.NETWORK });
    expect(clock.pendingTimers).toBe(0);
  });

  it('counts the deadline from the call to send for a transport that cannot report dispatch', async () => {
    let signal: AbortSignal | undefined;
    const transport: RestTransport = {
      send(sent) {
        signal = sent.signal;
        return new Promise(() => {});
      },
    };
    const { clock, context } = setUp(transport);
    const outcome = watch(PendingRequest.start(context, 'channels.answer', request, 50, undefined, statusOf));
    await clock.advance(50);
    expect(outcome.error?.code).toBe(ErrorCode.TIMEOUT);
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBe(outcome.error);
  });
});
