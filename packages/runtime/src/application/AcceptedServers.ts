import {
  type AcceptedServerSocket,
  type Clock,
  ErrorCode,
  listenForServers,
  type RestTransport,
  RingflowError,
  type ServerSocketListener,
} from '@ringflow/client';
import type { Logger } from 'pino';
import type { CallSession } from '../session/CallSession.ts';
import type { SessionRouter } from '../session/SessionRouter.ts';
import type { CallRecord, CallStore } from '../snapshot/CallRecord.ts';
import { AwaitingRedial } from './AwaitingRedial.ts';
import type { ListenOptions } from './ListenOptions.ts';
import { ServerLink, type ServerLinkContext } from './ServerLink.ts';

/** What the servers that dial the application need from it. */
export interface AcceptedServersHost {
  readonly linkContext: ServerLinkContext;
  readonly logger: Logger;
  readonly router: SessionRouter;
  readonly store: CallStore | undefined;
  /** Routes a link's events, gaps and leftovers to the application (and stops doing so). */
  follow(link: ServerLink): void;
  unfollow(link: ServerLink): void;
  /** The application a name given by the server belongs to (`<app>` of `<app>:<channel>`). */
  appOf(name: string): string | undefined;
  sessions(): Iterable<CallSession>;
  call(channelId: string): CallSession | undefined;
  /** A session for a call restored from its record on `link`. */
  restoreOn(link: ServerLink, record: CallRecord): void;
  /** The record to restore a call from once this process owns it (see `CallStore.claim`). */
  claim(store: CallStore, listed: CallRecord, link: ServerLink): Promise<CallRecord | undefined>;
}

/**
 * The servers that dial the application (`listen`, outbound WebSockets): each accepted socket is
 * a link of its own, carrying its events and its REST requests, until it closes. When it closes
 * with calls on it, they wait in the store (or, without one, in this process) for the server to
 * re-dial; a re-dialled connection (`ApplicationRegistered` for a call's `<app>:<channel>` name)
 * takes them over.
 */
export class AcceptedServers {
  readonly #host: AcceptedServersHost;
  readonly #options: ListenOptions;
  readonly #links = new Set<ServerLink>();
  /** The accepted link each session's call is on. */
  readonly #sessionLinks = new WeakMap<CallSession, ServerLink>();
  readonly #awaitingRedial: AwaitingRedial;
  #listener: ServerSocketListener | undefined;

  constructor(host: AcceptedServersHost, options: ListenOptions, clock: Clock) {
    this.#host = host;
    this.#options = options;
    this.#awaitingRedial = new AwaitingRedial(clock, options.redialGraceMs ?? 30_000);
  }

  /** Where servers dial the application, once listening. */
  get listener(): ServerSocketListener | undefined {
    return this.#listener;
  }

  /** The links of the sockets open now. */
  get links(): ReadonlySet<ServerLink> {
    return this.#links;
  }

  has(link: ServerLink): boolean {
    return this.#links.has(link);
  }

  /** The accepted link a session's call is on, if it came over one. */
  linkOf(session: CallSession): ServerLink | undefined {
    return this.#sessionLinks.get(session);
  }

  /** A session started on `link`: remembered when the link is an accepted socket. */
  sessionStarted(session: CallSession, link: ServerLink): void {
    if (this.#links.has(link)) this.#sessionLinks.set(session, link);
  }

  async listen(): Promise<void> {
    const accept = (socket: AcceptedServerSocket) => this.#accept(socket);
    const options = this.#options;
    this.#listener = options.accept ? await options.accept(accept) : await listenForServers(options, accept);
    this.#host.logger.info({ url: this.#listener.url }, 'listening for servers');
  }

  /** Stops listening and closes every accepted socket. */
  async close(): Promise<void> {
    this.#awaitingRedial.clear();
    await this.#listener?.close();
    await Promise.all([...this.#links].map((l) => l.close()));
    this.#links.clear();
  }

  /**
   * A server dialled in: its socket becomes a link of its own (events and REST over the socket)
   * until it closes. The server re-dials on a new socket; nothing reconnects from here.
   */
  #accept(socket: AcceptedServerSocket): void {
    const options = this.#options;
    const http = options.http;
    const link = new ServerLink(
      {
        url: http?.url ?? 'http://outbound-websocket.invalid/ari',
        username: http?.username ?? '',
        password: http?.password ?? '',
        name: options.name ?? 'listen',
        ...(http?.tls ? { tls: http.tls } : {}),
        eventTransport: socket.transport,
        restOverSocket: true,
        ...(http ? {} : { restTransport: noHttpTransport }),
      },
      this.#host.linkContext,
    );
    this.#links.add(link);
    this.#host.follow(link);
    link.logger.debug({ path: socket.path, from: socket.remoteAddress }, 'server connected');
    const ended = link.stream.state$.subscribe((state) => {
      if (state.kind !== 'reconnecting' && state.kind !== 'closed') return;
      queueMicrotask(() => ended.unsubscribe());
      void this.#release(link);
    });
    link.startAccepted().catch((error: unknown) => {
      link.logger.warn({ err: error }, 'server connection could not start');
    });
  }

  /** A server's socket closed: calls still on it cannot be reached any more and end. */
  async #release(link: ServerLink): Promise<void> {
    if (!this.#links.delete(link)) return;
    this.#host.unfollow(link);
    const stranded = [...this.#host.sessions()].filter((s) => this.#sessionLinks.get(s) === link);
    if (stranded.length > 0 && this.#host.store) {
      // The server re-dials a call's connection while the call lasts: whichever process it
      // reaches takes the call over from its record (see takeOver).
      link.logger.info(
        { calls: stranded.map((s) => s.channelId) },
        'the socket closed with calls still on it; they wait in the store for the server to re-dial',
      );
      for (const s of stranded) s.end('detached');
    } else if (stranded.length > 0) {
      // Without a store only this process can go on with them: held until the server re-dials.
      link.logger.info(
        { calls: stranded.map((s) => s.channelId) },
        'the socket closed with calls still on it; they wait for the server to re-dial this process (give the application a store to take them over in another one)',
      );
      for (const s of stranded)
        this.#awaitingRedial.hold(s, () => {
          link.logger.warn(
            { call: s.channelId },
            'the server did not re-dial the call in time; its session ends',
          );
          s.end('failed');
        });
    }
    await link.close();
  }

  /**
   * A server dialled in for an application (`ApplicationRegistered`): if the store has calls of
   * that application name (a per-call connection is named after its call, `<app>:<channel
   * name>`), their connection was lost and the server re-dialled; the calls are taken over on this
   * socket from their records. A session of this process still holding one (its old socket's
   * close not seen yet) lets it go first.
   */
  async takeOver(link: ServerLink, application: string): Promise<void> {
    const host = this.#host;
    if (host.appOf(application) === undefined) return;
    for (const held of this.#awaitingRedial.take(application)) this.#continueOn(link, held);
    const store = host.store;
    if (!store) return;
    const records = store.listApplication
      ? await store.listApplication(application)
      : (await store.list()).filter((r) => r.app === application);
    for (const listed of records) {
      const existing = host.call(listed.channelId);
      if (existing && this.#sessionLinks.get(existing) === link) continue;
      // A store shared by processes makes this one the call's only owner first (or says another
      // process was first); a session of this process already owns it.
      const record = existing?.record() ?? (await host.claim(store, listed, link));
      if (!record) continue;
      existing?.end('detached');
      if (host.router.ownersOf(link.server.asteriskId, 'channel', record.channelId).length > 0) continue;
      link.logger.info(
        { call: record.channelId, app: application },
        'the server re-dialled: call taken over',
      );
      host.restoreOn(link, record);
    }
  }

  /** A held call goes on over the socket the server re-dialled, from its machine's snapshot. */
  #continueOn(link: ServerLink, held: CallSession): void {
    const record = held.record();
    held.end('detached');
    if (!record) return;
    link.logger.info({ call: record.channelId, app: record.app }, 'the server re-dialled: call continues');
    this.#host.restoreOn(link, record);
  }
}

/** For links without the server's HTTP address: what the socket cannot carry cannot be had. */
const noHttpTransport: RestTransport = {
  send: async (request) => {
    throw new RingflowError(
      ErrorCode.CONFIG,
      `${request.method} ${request.path} needs the server's HTTP interface (binary data cannot travel over the WebSocket): set listen.http (with the CLI: --server <url> beside --listen).`,
    );
  },
};
