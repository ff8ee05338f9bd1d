import {
  type AcceptedServerSocket,
  createEventStream,
  type EventStream,
  type RestTransport,
  type StreamEvent,
} from '@ringflow/client';
import { Subject } from 'rxjs';

/** A problem an adapter reports on a log (the log fails the next wait with it). */
export interface AdapterProblem {
  readonly kind: string;
  readonly error: { readonly message: string };
}

/**
 * One connection the server dialled, as the application sees it: the accepted socket read through
 * `createEventStream` (REST over the socket on), its `ApplicationRegistered` frames checked and
 * kept out of the events (they belong to the handshake of a dialled connection; an application
 * that dials the server never gets them, so the transcripts would differ by them alone).
 *
 * `expected` says what must register: the application names of a persistent connection, or the
 * base names of a per-call one (`demo-app` registers as `demo-app:<channel name>`). `onRegistered`
 * is called once they all did, before any other event of the connection is handed over.
 */
export class DialledConnection {
  readonly events$ = new Subject<StreamEvent>();
  readonly problems$ = new Subject<AdapterProblem>();
  /** The names the server registered on this connection, in order. */
  readonly registered: string[] = [];
  private readonly stream: EventStream;
  private readonly whenRegistered: Promise<readonly string[]>;
  private closing = false;

  constructor(
    socket: AcceptedServerSocket,
    url: string,
    private readonly expected: { readonly apps: readonly string[] } | { readonly perCall: readonly string[] },
    fallback: RestTransport,
    onRegistered?: (names: readonly string[]) => void,
  ) {
    const apps = 'apps' in expected ? expected.apps : expected.perCall;
    this.stream = createEventStream({
      url,
      apps,
      transport: socket.transport,
      restOverSocket: true,
      restFallback: fallback,
      // A dialled socket cannot die unnoticed here: the server's close reaches the stream.
      pingIntervalMs: 0,
      // Subscribe before the held frames (ApplicationRegistered) are handed over.
      lazy: true,
    });
    let registeredAll: (names: readonly string[]) => void = () => {};
    this.whenRegistered = new Promise((resolve) => {
      registeredAll = resolve;
    });
    this.stream.events$.subscribe((event) => {
      if (event.type === 'ApplicationRegistered') {
        const name = String((event as { application?: unknown }).application);
        if (!this.expects(name)) this.problem(`the server registered '${name}' on this connection`);
        const before = this.complete();
        this.registered.push(name);
        if (!before && this.complete()) {
          onRegistered?.(this.registered);
          registeredAll(this.registered);
        }
        return;
      }
      if (!this.complete()) {
        this.problem(`${event.type} arrived before the connection's ApplicationRegistered`);
        return;
      }
      this.events$.next(event);
    });
    this.stream.problems$.subscribe((problem) => {
      // A dialled socket is never re-opened from this side: its stream's retry is refused (410).
      if (problem.kind === 'handshake-rejected') return;
      this.problems$.next(problem);
    });
    this.stream.state$.subscribe((state) => {
      // The server closed the socket (a per-call connection after its call, or shutdown).
      if (state.kind === 'reconnecting' && !this.closing) void this.close();
    });
    this.stream.open();
  }

  /** The REST transport over this socket. */
  get rest(): RestTransport {
    return this.stream.restTransport!;
  }

  /** True while the socket is open. */
  get open(): boolean {
    return this.stream.state.kind === 'open';
  }

  /** Resolves with the registered names once every expected application registered. */
  registration(): Promise<readonly string[]> {
    return this.whenRegistered;
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.stream.close();
    this.events$.complete();
    this.problems$.complete();
  }

  private expects(name: string): boolean {
    if ('apps' in this.expected) return this.expected.apps.includes(name);
    return this.expected.perCall.some((app) => name.startsWith(`${app}:`) && name.length > app.length + 1);
  }

  private complete(): boolean {
    if ('apps' in this.expected) return this.expected.apps.every((app) => this.registered.includes(app));
    return this.registered.length > 0;
  }

  private problem(message: string): void {
    this.problems$.next({ kind: 'dialled-connection', error: { message } });
  }
}
