import type { RestTransport, TransportCancel, TransportExchange, TransportRequest } from './RestTransport.ts';

const settledTurn = <T>(value: T): T => value;

/**
 * Starts a request on a transport that only has `send`: it gets an AbortSignal to stop on
 * (cancel aborts it), and the request counts as dispatched at once, since such a transport
 * cannot say when it is written on a connection: the reply deadline includes any queueing.
 *
 * @example
 * const handle = sendAsDispatch(inProcessTransport, request, pending);
 * handle.cancel(new RingflowError(ErrorCode.ABORTED, 'cancelled by the caller'));
 */
export function sendAsDispatch(
  transport: RestTransport,
  request: TransportRequest,
  exchange: TransportExchange,
): TransportCancel {
  const controller = new AbortController();
  exchange.dispatched();
  transport
    .send({ ...request, signal: controller.signal })
    // One more microtask before the reply is handed over: an in-process server settles its reply
    // before it has finished the work the request set off (a Local channel's other half is
    // destroyed a microtask later). Callers saw that work done under the former promise chain, and
    // the contract suite compares in-process and wire transcripts taken right after a reply.
    .then(settledTurn)
    .then(
      (reply) => exchange.replied(reply),
      (error: unknown) => exchange.failed(error),
    );
  return { cancel: (reason) => controller.abort(reason) };
}
