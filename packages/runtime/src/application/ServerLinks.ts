import {
  type Clock,
  type ConnectionState,
  ErrorCode,
  type EventGap,
  RingflowError,
  type ServerSocketListener,
  type StreamEvent,
} from '@ringflow/client';
import type { Subscription } from 'rxjs';
import type { CallSession } from '../session/CallSession.ts';
import { AcceptedServers, type AcceptedServersHost } from './AcceptedServers.ts';
import type { ApplicationOptions } from './ApplicationOptions.ts';
import { linksOf } from './applicationSetup.ts';
import type { ServerLink, ServerLinkContext } from './ServerLink.ts';

/** What the application does with what its links bring. */
export interface ServerLinksHost
  extends Omit<AcceptedServersHost, 'follow' | 'unfollow' | 'linkContext' | 'logger' | 'router'> {
  event(link: ServerLink, event: StreamEvent): void;
  gap(link: ServerLink, gap: EventGap): void;
  /** A cleanup left a channel or bridge behind on the link's server. */
  leftover(link: ServerLink): void;
}

/**
 * The application's connections: one link per server it dials (`servers`), and, with `listen`,
 * one per socket a server dialled (see {@link AcceptedServers}). Each link's events, gaps and
 * leftovers go to the application while it is followed.
 */
export class ServerLinks {
  /** The servers the application dials, in the order given. */
  readonly dialled: readonly ServerLink[];
  /** The servers that dial the application (with `listen`). */
  readonly accepted: AcceptedServers | undefined;
  private readonly followed = new Map<ServerLink, Subscription>();

  constructor(
    options: ApplicationOptions,
    context: ServerLinkContext,
    private readonly host: ServerLinksHost,
    clock: Clock,
  ) {
    this.dialled = linksOf(options, context);
    this.accepted = options.listen
      ? new AcceptedServers(
          {
            ...host,
            linkContext: context,
            logger: context.logger,
            router: context.router,
            follow: (link) => this.follow(link),
            unfollow: (link) => this.unfollow(link),
          },
          options.listen,
          clock,
        )
      : undefined;
  }

  /** Where servers dial the application (with `listen`), once listening. */
  get listener(): ServerSocketListener | undefined {
    return this.accepted?.listener;
  }

  /** Every link now: the dialled servers', then the accepted sockets'. */
  all(): ServerLink[] {
    return this.accepted ? [...this.dialled, ...this.accepted.links] : [...this.dialled];
  }

  /** Whether `link` is a socket a server dialled. */
  isAccepted(link: ServerLink): boolean {
    return this.accepted?.has(link) === true;
  }

  /** The link a call lives on: the accepted socket it came over, or its server's. */
  linkOf(session: CallSession): ServerLink | undefined {
    return this.accepted?.linkOf(session) ?? this.dialled.find((l) => l.name === session.server.name);
  }

  /** The dialled server named `name` (default the first); a CONFIG error names the servers. */
  byName(name?: string): ServerLink {
    if (name === undefined) {
      const first = this.dialled[0];
      if (first) return first;
      throw new RingflowError(
        ErrorCode.CONFIG,
        'no server to dial: this application only listens; work outside calls needs a server in options.servers',
      );
    }
    const link = this.dialled.find((l) => l.name === name);
    if (!link) {
      throw new RingflowError(
        ErrorCode.CONFIG,
        `no server named "${name}"; the servers are: ${this.dialled.map((l) => l.name).join(', ')}`,
      );
    }
    return link;
  }

  /**
   * Each link's event stream and where it stands (`open` while events flow), with the
   * applications another connection took over there (`ApplicationReplaced`).
   */
  connections(): {
    readonly server: string;
    readonly state: ConnectionState;
    readonly replaced: readonly string[];
  }[] {
    return this.all().map((link) => ({
      server: link.name,
      state: link.stream.state,
      replaced: link.replacedApps,
    }));
  }

  /** Follows and connects every dialled server; resolves when every event stream is open. */
  async connect(): Promise<void> {
    for (const link of this.dialled) this.follow(link);
    await Promise.all(this.dialled.map((link) => link.start()));
  }

  /** Listens for servers that dial the application (with `listen`). */
  async listen(): Promise<void> {
    await this.accepted?.listen();
  }

  /** Closes every link and stops following them. */
  async close(): Promise<void> {
    await this.accepted?.close();
    await Promise.all(this.dialled.map((l) => l.close()));
    for (const link of [...this.followed.keys()]) this.unfollow(link);
  }

  /**
   * Follows a link before it starts: its events are routed, a gap in its stream is recovered,
   * a leftover cleanup is swept again later.
   */
  private follow(link: ServerLink): void {
    const { host } = this;
    const followed = link.followEvents((event) => host.event(link, event));
    followed.add(link.gaps$.subscribe((gap) => host.gap(link, gap)));
    followed.add(link.leftovers$.subscribe(() => host.leftover(link)));
    this.followed.set(link, followed);
  }

  private unfollow(link: ServerLink): void {
    this.followed.get(link)?.unsubscribe();
    this.followed.delete(link);
  }
}
