import type {
  EventTransport,
  EventTransportConnection,
  EventTransportHandlers,
  StasisStart,
} from '@ringflow/client';
import { type ConsumerMessages, DeliverPolicy, type JetStreamClient, type JsMsg } from '@nats-io/jetstream';
import type { Logger } from 'pino';
import { EVENT_GAP, EVENTS_STREAM, eventSubject, serverSubjects, WORKER_HEADER } from './EventSubjects.ts';

/** Events kept while the runtime's event stream reconnects after a gap marker; older ones are dropped. */
const MAX_BUFFERED = 10_000;
/** How long a replay waits for a message it knows is there before giving up. */
const REPLAY_WAIT_MS = 5_000;

/**
 * A worker's event feed: an {@link EventTransport} whose "connection" is a JetStream ordered
 * consumer of one server's events (`ringflow.events.<server>.>`) instead of a WebSocket, so the
 * runtime's `ServerLink` and sessions run unchanged on events the holder published. The consumer
 * outlives the connections: a gap marker from the holder (it changed or reconnected) closes the
 * connection as a dropped socket would, the runtime's stream reconnects and reconciles its calls
 * with the server (as after any gap), and the events that arrived meanwhile are handed to the new
 * connection in order. A StasisStart names the worker the call is assigned to: {@link accepts}
 * says whether that is this process (`ApplicationOptions.acceptCall`).
 *
 * @example
 * const feed = await JetStreamEventFeed.start({ js, serverToken, me, logger });
 * createApplication({ servers: [{ url, username, password, eventTransport: feed }], acceptCall: (s) => feed.accepts(s), ... });
 */
export class JetStreamEventFeed implements EventTransport {
  private handlers: EventTransportHandlers | undefined;
  /** Ends the current connection as a dropped socket (the runtime reconnects and reconciles). */
  private dropConnection: (() => void) | undefined;
  private readonly buffered: object[] = [];
  /** Calls assigned to this worker whose StasisStart was delivered and not yet accepted. */
  private readonly assignedHere = new Set<string>();
  private dropped = 0;

  private constructor(
    private readonly messages: ConsumerMessages,
    private readonly js: JetStreamClient,
    private readonly serverToken: string,
    private readonly me: string,
    private readonly logger: Logger,
  ) {}

  /** Starts consuming the server's events from now on (before the application starts). */
  static async start(options: {
    readonly js: JetStreamClient;
    readonly serverToken: string;
    readonly me: string;
    readonly logger: Logger;
  }): Promise<JetStreamEventFeed> {
    const consumer = await options.js.consumers.get(EVENTS_STREAM, {
      filter_subjects: serverSubjects(options.serverToken),
      deliver_policy: DeliverPolicy.New,
    });
    const messages = await consumer.consume();
    const feed = new JetStreamEventFeed(
      messages,
      options.js,
      options.serverToken,
      options.me,
      options.logger,
    );
    void feed.run();
    return feed;
  }

  private async run(): Promise<void> {
    try {
      for await (const msg of this.messages) this.arrived(msg);
    } catch (error) {
      this.logger.error({ err: error }, 'the JetStream event consumer stopped');
    }
  }

  private arrived(msg: JsMsg): void {
    if (msg.subject.endsWith(`.${EVENT_GAP}`)) {
      this.logger.info('the event connection holder changed or reconnected: reconciling the calls');
      this.dropConnection?.();
      return;
    }
    let event: { type?: unknown; channel?: { id?: unknown } };
    try {
      event = msg.json();
    } catch {
      return;
    }
    if (event.type === 'StasisStart' && msg.headers?.get(WORKER_HEADER) === this.me) {
      const id = event.channel?.id;
      if (typeof id === 'string') this.assignedHere.add(id);
    }
    this.deliver(event);
  }

  /** Hands an event to the runtime's connection, or keeps it (bounded) until the stream reconnects. */
  private deliver(event: object): void {
    if (this.handlers) {
      this.handlers.message(event);
      return;
    }
    this.buffered.push(event);
    if (this.buffered.length > MAX_BUFFERED) {
      this.buffered.shift();
      if (this.dropped++ === 0)
        this.logger.error(
          'events dropped while the event stream was not connected (it stayed down too long)',
        );
    }
  }

  /**
   * Hands the application again a StasisStart it refused (this worker was fenced), as assigned
   * to this worker: the application starts the call now.
   */
  offerAgain(start: StasisStart): void {
    this.assignedHere.add(start.channel.id);
    this.deliver(start);
  }

  /** Whether the call of this StasisStart is assigned to this worker (once per call). */
  accepts(start: StasisStart): boolean {
    return this.assignedHere.delete(start.channel.id);
  }

  connect(_request: unknown, handlers: EventTransportHandlers): EventTransportConnection {
    let open = true;
    queueMicrotask(() => {
      if (!open) return;
      handlers.open();
      this.handlers = handlers;
      for (const event of this.buffered.splice(0)) {
        if (this.handlers !== handlers) {
          this.buffered.unshift(event);
          break;
        }
        handlers.message(event);
      }
    });
    const end = (code: number) => {
      if (!open) return;
      open = false;
      if (this.handlers === handlers) this.handlers = undefined;
      if (this.dropConnection === drop) this.dropConnection = undefined;
      handlers.closed(code, code === 1006 ? 'event connection holder changed' : '');
    };
    const drop = () => end(1006);
    this.dropConnection = drop;
    return {
      ping: () => queueMicrotask(() => handlers.pong()),
      close: () => end(1000),
      terminate: () => end(1006),
    };
  }

  /**
   * Hands the application again the keys pressed on a call's channel since `sinceMs` (stream
   * time), read from the stream: a call taken over from a dead worker missed them (the survivors
   * dropped its events until they claimed it), and a server does not keep them. Other events need
   * no replay: a restored call checks its playbacks, recordings and channels on the server.
   * Resolves with how many were replayed.
   */
  async replayDigits(channelId: string, sinceMs: number): Promise<number> {
    const subject = eventSubject(this.serverToken, channelId);
    // The subject's last message now: read up to it, so the read never waits for more.
    let last: { seq: number; time: Date } | undefined;
    try {
      const jsm = await this.js.jetstreamManager();
      last = (await jsm.streams.getMessage(EVENTS_STREAM, { last_by_subj: subject })) ?? undefined;
    } catch {
      return 0; // nothing on that subject
    }
    if (!last || last.time.getTime() < sinceMs) return 0;
    const consumer = await this.js.consumers.get(EVENTS_STREAM, {
      filter_subjects: subject,
      deliver_policy: DeliverPolicy.StartTime,
      opt_start_time: new Date(sinceMs).toISOString(),
    });
    const digits: object[] = [];
    try {
      for (let seq = 0; seq < last.seq; ) {
        const msg = await consumer.next({ expires: REPLAY_WAIT_MS });
        if (!msg) break;
        seq = msg.seq;
        const event = msg.json<{ type?: unknown }>();
        if (event.type === 'ChannelDtmfReceived') digits.push(event);
      }
    } finally {
      await consumer.delete().catch(() => {});
    }
    for (const event of digits) this.deliver(event);
    return digits.length;
  }

  /** Stops consuming. */
  async stop(): Promise<void> {
    await this.messages.close();
  }
}
