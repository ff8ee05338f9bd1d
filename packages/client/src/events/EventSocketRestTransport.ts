import { ErrorCode, RingflowError } from '../errors/RingflowError.ts';
import type {
  RestTransport,
  TransportCancel,
  TransportExchange,
  TransportRequest,
  TransportResponse,
} from '../rest/RestTransport.ts';
import { SocketRestTransport } from '../rest/SocketRestTransport.ts';

/**
 * The REST transport of an event stream opened with `restOverSocket: true`: requests travel on
 * whichever connection the stream has open at the time, as `RESTRequest` frames. While the stream
 * is reconnecting there is no socket: requests fail at once with `NETWORK` (as an HTTP request to
 * an unreachable server does), and those waiting on a connection that drops fail the same way.
 */
export class EventSocketRestTransport implements RestTransport {
  private current: SocketRestTransport | undefined;
  private closed = false;

  /** @param fallback where requests the socket cannot carry (binary downloads) go. */
  constructor(private readonly fallback?: RestTransport) {}

  /** A connection opened: requests go over it from now on. */
  attach(sendFrame: (frame: string) => void): void {
    this.current?.connectionLost('the event socket was replaced');
    this.current = new SocketRestTransport({
      sendFrame,
      ...(this.fallback ? { fallback: this.fallback } : {}),
    });
  }

  /** The connection ended: its waiting requests fail. */
  detach(reason: string): void {
    const current = this.current;
    this.current = undefined;
    current?.connectionLost(reason);
  }

  /** Settles the request a `RESTResponse` frame answers; false for any other frame. */
  receive(frame: object): boolean {
    if ((frame as { type?: unknown }).type !== 'RESTResponse') return false;
    this.current?.receive(frame);
    return true;
  }

  dispatch(request: TransportRequest, exchange: TransportExchange): TransportCancel {
    if (!this.current) {
      exchange.failed(
        new RingflowError(
          ErrorCode.NETWORK,
          this.closed
            ? 'REST over the event socket: the event stream is closed.'
            : 'REST over the event socket: the socket is not open (the stream is connecting); try again once it is.',
        ),
      );
      return { cancel() {} };
    }
    return this.current.dispatch(request, exchange);
  }

  send(request: TransportRequest): Promise<TransportResponse> {
    if (!this.current) {
      return new Promise((resolve, reject) =>
        this.dispatch(request, { dispatched() {}, replied: resolve, failed: reject }),
      );
    }
    return this.current.send(request);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.detach('the event stream was closed');
    await this.fallback?.close?.();
  }
}
