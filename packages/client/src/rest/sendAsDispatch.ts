import type { RestTransport, TransportCancel, TransportExchange, TransportRequest } from './RestTransport.ts';

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
  transport.send({ ...request, signal: controller.signal }).then(
    (reply) => exchange.replied(reply),
    (error: unknown) => exchange.failed(error),
  );
  return { cancel: (reason) => controller.abort(reason) };
}
