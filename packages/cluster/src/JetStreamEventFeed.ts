import {
  type Clock,
  type EventTransport,
  type EventTransportConnection,
  type EventTransportHandlers,
  type StasisStart,
  systemClock,
  type TimerHandle,
} from '@ringflow/client';
import {
  type Consumer,
  type ConsumerMessages,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type OrderedConsumerOptions,
} from '@nats-io/jetstream';
import type { Logger } from 'pino';
import {
  EVENT_GAP,
  EVENTS_STREAM,
  eventSubject,
  HANDOVER_HEADER,
  subjectParts,
  WORKER_HEADER,
  workerSubjects,
} from './EventSubjects.ts';
import { natsToken } from './natsToken.ts';
import { readTakenOverEvents } from './takenOverReplay.ts';
import { ensureEventsStream, isStreamNotFound } from './EventsStream.ts';

/** Events kept while the runtime's event stream reconnects after a gap marker; older ones are dropped. */
const MAX_BUFFERED = 10_000;
/** How long a replay waits for a message it knows is there before giving up. */
const REPLAY_WAIT_MS = 5_000;
/** How long a taken-over channel's replay waits for the holder to publish its events here. */
const SWITCH_WAIT_MS = 5_000;
/** The most messages a taken-over channel's replay reads (it stops there, logged). */
const MAX_REPLAYED = 1_000;
/** How often the stream's state is compared with what the consumer delivered. */
const CHECK_MS = 1_000;
/** After NATS comes back, the stream is checked this often for a while (a stalled consumer is the rule then). */
const FAST_CHECK_MS = 250;
const FAST_CHECKS_FOR_MS = 15_000;
/** Checks in a row with undelivered messages and none arriving before the consumer counts as stalled. */
const STALLED_CHECKS = 2;

/** Where a (re)created consumer starts. */
type StartAt =
  | { readonly kind: 'new' }
  | { readonly kind: 'sequence'; readonly seq: number }
  | { readonly kind: 'after'; readonly nanos: bigint }
  | { readonly kind: 'all' };

/**
 * A worker's event feed: an {@link EventTransport} whose "connection" is a JetStream ordered
 * consumer of the events the holder published for this worker (`ringflow.events.<server>.<me>.>`:
 * its calls' events, and those every worker gets) instead of a WebSocket, so the
 * runtime's `ServerLink` and sessions run unchanged on events the holder published. The consumer
 * outlives the connections: a gap marker from the holder (it changed or reconnected) closes the
 * connection as a dropped socket would, the runtime's stream reconnects and reconciles its calls
 * with the server (as after any gap), and the events that arrived meanwhile are handed to the new
 * connection in order. A StasisStart names the worker the call is assigned to: {@link accepts}
 * says whether that is this process (`ApplicationOptions.acceptCall`).
 *
 * **A stream that comes back shorter.** NATS killed (SIGKILL) loses the stream's writes not yet
 * flushed: the stream comes back with fewer messages and its sequence goes on from there. The
 * client's ordered consumer would then wait for the sequence it expected next, which the stream
 * reaches only after as many new messages (it stalled every worker ~40 s). So every second the
 * feed compares the stream's state with what it delivered: a last sequence below the last one
 * delivered (or a stream made again) means the stream was reset: the consumer is made again from
 * the time of the last message delivered (the messages published since the restart), and the
 * connection is dropped as after a gap marker, so the calls are checked with the server. A
 * consumer that delivers nothing for two checks while the stream holds messages it has not
 * delivered, or whose iteration ended, is made again from the next sequence.
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
  private messages: ConsumerMessages | undefined;
  private consumer: Consumer | undefined;
  /** The stream sequence and time of the last message delivered. */
  private lastSeq = 0;
  private lastNanos = 0n;
  /** After a reset: messages at or before this time were delivered before it. */
  private skipUntilNanos = 0n;
  /** The stream's creation time, as first seen (a stream made again is a reset too). */
  private streamCreated: string | undefined;
  private arrivedSinceCheck = false;
  /** Until then (this clock), the stream is checked every {@link FAST_CHECK_MS}. */
  private fastChecksUntil = 0;
  private stalledChecks = 0;
  private stopped = false;
  private reopening = false;
  private checkTimer: TimerHandle | undefined;
  /** The last kind of failure of the stream check that was logged (one line per kind). */
  private checkFailing: string | undefined;
  /** Channels taken over whose replay is under way: their own events wait here (by channel token). */
  private readonly held = new Map<string, object[]>();
  /** Gap markers seen (a replay under way stops at the next one). */
  private gaps = 0;
  /** The stream's last sequence when this feed started (calls restored at start replay from it). */
  startSeq = 0;
  private readonly clock: Clock;

  private constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly serverToken: string,
    private readonly me: string,
    private readonly logger: Logger,
    private readonly eventsMaxAgeMs: number,
    private readonly replicas: number,
    clock: Clock,
  ) {
    this.clock = clock;
  }

  /** Starts consuming the server's events from now on (before the application starts). */
  static async start(options: {
    readonly js: JetStreamClient;
    readonly serverToken: string;
    readonly me: string;
    readonly logger: Logger;
    /** The events stream's max age, should the feed have to make it again (NATS lost it). */
    readonly eventsMaxAgeMs?: number;
    /** The events stream's copies in a NATS cluster, should the feed have to make it again. Default 1. */
    readonly replicas?: number;
    readonly clock?: Clock;
  }): Promise<JetStreamEventFeed> {
    const feed = new JetStreamEventFeed(
      options.js,
      await options.js.jetstreamManager(),
      options.serverToken,
      options.me,
      options.logger,
      options.eventsMaxAgeMs ?? 10 * 60 * 1000,
      options.replicas ?? 1,
      options.clock ?? systemClock,
    );
    const info = await feed.jsm.streams.info(EVENTS_STREAM);
    feed.streamCreated = info.created;
    feed.startSeq = info.state.last_seq;
    await feed.open({ kind: 'new' });
    feed.scheduleCheck();
    return feed;
  }

  /** Makes the ordered consumer, from `at`, and delivers its messages. */
  private async open(at: StartAt): Promise<void> {
    const options: Partial<OrderedConsumerOptions> = {
      filter_subjects: workerSubjects(this.serverToken, this.me),
    };
    this.skipUntilNanos = 0n;
    if (at.kind === 'new') options.deliver_policy = DeliverPolicy.New;
    else if (at.kind === 'all') options.deliver_policy = DeliverPolicy.All;
    else if (at.kind === 'sequence') {
      options.deliver_policy = DeliverPolicy.StartSequence;
      options.opt_start_seq = at.seq;
    } else {
      options.deliver_policy = DeliverPolicy.StartTime;
      // Millisecond precision: the messages of that millisecond already delivered are skipped.
      options.opt_start_time = new Date(Number(at.nanos / 1_000_000n)).toISOString();
      this.skipUntilNanos = at.nanos;
    }
    const consumer = await this.js.consumers.get(EVENTS_STREAM, options);
    const messages = await consumer.consume();
    const previous = this.messages;
    this.consumer = consumer;
    this.messages = messages;
    this.stalledChecks = 0;
    // The old iteration is left either way (its consumer may be gone with the restart).
    if (previous) await previous.close().catch(() => {});
    void this.run(messages);
  }

  private async run(messages: ConsumerMessages): Promise<void> {
    let failure: unknown;
    try {
      for await (const msg of messages) if (this.messages === messages) this.arrived(msg);
    } catch (error) {
      failure = error;
    }
    if (this.stopped || this.messages !== messages) return;
    // The client gave up on the consumer (it could not make it again for a while): made again
    // from the next message, at the next check.
    this.logger.error({ err: failure }, 'the JetStream event consumer stopped; making it again');
    this.messages = undefined;
  }

  private arrived(msg: JsMsg): void {
    const nanos = msg.timestampNanos;
    if (this.skipUntilNanos > 0n) {
      if (nanos <= this.skipUntilNanos) return;
      this.skipUntilNanos = 0n;
    }
    // Delivered already (by a consumer this one replaced, just before it was closed).
    if (msg.seq <= this.lastSeq) return;
    this.lastSeq = msg.seq;
    this.lastNanos = nanos;
    this.arrivedSinceCheck = true;
    const { last } = subjectParts(msg.subject);
    if (last === EVENT_GAP) {
      this.gaps++;
      this.logger.info('the event connection holder changed or reconnected: reconciling the calls');
      this.dropConnection?.();
      return;
    }
    // A channel's call moved here: its replay reads the stream up to this marker.
    if (msg.headers?.has(HANDOVER_HEADER)) return;
    let event: { type?: unknown; channel?: { id?: unknown } };
    try {
      event = msg.json();
    } catch (error) {
      this.logger.warn(
        { err: error, subject: msg.subject, seq: msg.seq },
        'an unreadable event in the stream: skipped',
      );
      return;
    }
    if (event.type === 'StasisStart' && msg.headers?.get(WORKER_HEADER) === this.me) {
      const id = event.channel?.id;
      if (typeof id === 'string') this.assignedHere.add(id);
    }
    const held = this.held.get(last);
    if (held) held.push(event);
    else this.deliver(event);
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
    // This worker's own call (taken back after a fence): its events came to this worker all along.
    const subject = eventSubject(this.serverToken, this.me, channelId);
    // The subject's last message now: read up to it, so the read never waits for more.
    let last: { seq: number; time: Date } | undefined;
    try {
      last = (await this.jsm.streams.getMessage(EVENTS_STREAM, { last_by_subj: subject })) ?? undefined;
    } catch (error) {
      if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.NoMessageFound) return 0;
      throw error; // the caller logs it: the keys of that call are not replayed
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
      // An ordered consumer: the server drops it by itself after a while if this delete fails.
      await consumer.delete().catch(() => {});
    }
    for (const event of digits) this.deliver(event);
    return digits.length;
  }

  /**
   * A channel whose call this worker just took over from a gone worker: its assignment is moved
   * here (`move`: the holder learns it and publishes the channel's events here from then on), and
   * the events the holder published for the worker before since the call was claimed (and the
   * keys pressed since `sinceMs`) are read from the stream and handed to the application, then
   * the channel's own events that reached this feed meanwhile (see `takenOverReplay.ts`).
   * Resolves with how many events were replayed.
   */
  async replayTakenOver(
    channelId: string,
    sinceMs: number,
    fromSeq: number,
    move: () => Promise<void>,
  ): Promise<{ readonly digits: number; readonly events: number }> {
    const token = natsToken(channelId);
    if (this.held.has(token)) return { digits: 0, events: 0 };
    this.held.set(token, []);
    const gaps = this.gaps;
    let replayed: object[] = [];
    try {
      await move();
      const read = await readTakenOverEvents({
        js: this.js,
        serverToken: this.serverToken,
        me: this.me,
        channelId,
        sinceMs,
        fromSeq,
        cancelled: () => this.stopped || this.gaps !== gaps,
        timeoutMs: SWITCH_WAIT_MS,
        maxReads: MAX_REPLAYED,
      });
      replayed = read.events;
      if (!read.switched && !this.stopped && this.gaps === gaps)
        this.logger.warn(
          { call: channelId, replayed: replayed.length },
          'a channel taken over: the holder did not publish its events here in time (events after the replay may be lost until the next gap)',
        );
    } finally {
      const held = this.held.get(token) ?? [];
      this.held.delete(token);
      for (const event of [...replayed, ...held]) this.deliver(event);
    }
    const digits = replayed.filter((e) => (e as { type?: unknown }).type === 'ChannelDtmfReceived').length;
    return { digits, events: replayed.length - digits };
  }

  /** The stream's last sequence now (a takeover replays every event of its calls after it). */
  async streamLastSeq(): Promise<number> {
    return (await this.jsm.streams.info(EVENTS_STREAM)).state.last_seq;
  }

  private scheduleCheck(): void {
    if (this.stopped) return;
    this.checkTimer = this.clock.setTimeout(
      () => {
        this.checkTimer = undefined;
        void this.check()
          .then(
            () => {
              this.checkFailing = undefined;
            },
            (error: unknown) => {
              const kind = (error as Error | null)?.message ?? String(error);
              if (this.checkFailing !== kind)
                this.logger.warn(
                  { err: error },
                  'could not check the JetStream events stream (tried again every second)',
                );
              this.checkFailing = kind;
            },
          )
          .finally(() => this.scheduleCheck());
      },
      this.clock.now() < this.fastChecksUntil ? FAST_CHECK_MS : CHECK_MS,
    );
    (this.checkTimer as { unref?: () => void }).unref?.();
  }

  /**
   * This process's NATS connection came back (NATS restarted, or was out of reach): the stream is
   * checked every 250 ms for 15 s, so that a consumer the client does not resume is made again
   * soon after JetStream answers.
   */
  natsReconnected(): void {
    this.fastChecksUntil = this.clock.now() + FAST_CHECKS_FOR_MS;
    // A check under way schedules the next one itself (at the fast pace now).
    if (this.stopped || this.checkTimer === undefined) return;
    this.clock.clearTimeout(this.checkTimer);
    this.scheduleCheck();
  }

  /**
   * Compares the stream's state with what this consumer delivered: a reset stream, a stalled or
   * ended consumer are recovered (see the class comment).
   */
  async check(): Promise<void> {
    if (this.stopped || this.reopening) return;
    this.reopening = true;
    try {
      let info: Awaited<ReturnType<JetStreamManager['streams']['info']>>;
      // What was delivered before the stream was asked: a message delivered while the answer is
      // on its way is no sign that the stream went back.
      const delivered = this.lastSeq;
      try {
        info = await this.jsm.streams.info(EVENTS_STREAM);
      } catch (error) {
        if (!isStreamNotFound(error)) throw error;
        // NATS lost the stream itself: made again, and read from its start.
        await ensureEventsStream(this.jsm, this.eventsMaxAgeMs, this.replicas, (message) =>
          this.logger.warn(message),
        );
        this.logger.error('the JetStream events stream was gone (NATS lost it): made again');
        this.streamCreated = (await this.jsm.streams.info(EVENTS_STREAM)).created;
        await this.reset({ kind: 'all' }, 'the events stream was made again');
        return;
      }
      const arrived = this.arrivedSinceCheck;
      this.arrivedSinceCheck = false;
      const remade = this.streamCreated !== undefined && info.created !== this.streamCreated;
      this.streamCreated = info.created;
      if (remade || info.state.last_seq < delivered) {
        await this.reset(
          this.lastNanos > 0n ? { kind: 'after', nanos: this.lastNanos } : { kind: 'all' },
          remade
            ? 'the events stream was made again'
            : `the events stream came back shorter (last sequence ${info.state.last_seq}, ${delivered} delivered): NATS lost messages`,
        );
        return;
      }
      if (!this.messages) {
        await this.open(this.resumeAt());
        this.dropConnection?.();
        return;
      }
      if (arrived || info.state.last_seq <= this.lastSeq) {
        this.stalledChecks = 0;
        return;
      }
      // Messages after the last one delivered, and none arriving: are any of them this server's?
      // A consumer whose info cannot be read (gone with the restart) counts as stalled.
      const pending = (await this.consumer?.info().catch(() => undefined))?.num_pending ?? 1;
      if (pending === 0) {
        this.stalledChecks = 0;
        return;
      }
      if (++this.stalledChecks < STALLED_CHECKS) return;
      this.logger.warn(
        { lastDelivered: this.lastSeq, streamLast: info.state.last_seq },
        'the JetStream event consumer stalled: made again from the next message',
      );
      await this.open(this.resumeAt());
    } finally {
      this.reopening = false;
    }
  }

  /** Where a consumer made again goes on: after the last message delivered. */
  private resumeAt(): StartAt {
    if (this.lastSeq > 0) return { kind: 'sequence', seq: this.lastSeq + 1 };
    if (this.lastNanos > 0n) return { kind: 'after', nanos: this.lastNanos };
    return { kind: 'new' };
  }

  /** The stream lost messages or was made again: a consumer from `at`, and the calls resync. */
  private async reset(at: StartAt, why: string): Promise<void> {
    this.logger.warn({ why }, 'JetStream events stream reset: consumer made again; reconciling the calls');
    // Nothing more from the old consumer (its sequences are those of the stream before).
    const old = this.messages;
    this.messages = undefined;
    await old?.close().catch(() => {});
    // The sequence went back: counted again from the next message delivered.
    this.lastSeq = 0;
    await this.open(at);
    this.dropConnection?.();
  }

  /** Stops consuming. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clock.clearTimeout(this.checkTimer);
    await this.messages?.close();
  }
}
