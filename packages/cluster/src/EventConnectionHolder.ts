import { createHash } from 'node:crypto';
import {
  type Clock,
  createEventStream,
  createRestClient,
  type EventStream,
  eventResources,
  formatTimestamp,
  isEventType,
  parseStasisAppData,
  type RestClient,
  type StasisStart,
  type StreamEvent,
  systemClock,
} from '@ringflow/client';
import type { JetStreamClient, PubAck } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import { headers } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import type { Subscription } from 'rxjs';
import { assignmentKey, EVENT_GAP, eventSubject, HANDOVER_HEADER, WORKER_HEADER } from './EventSubjects.ts';
import type { JetStreamCallStore } from './JetStreamCallStore.ts';
import { HolderElection } from './HolderElection.ts';
import { isWrongRevision } from './KvLease.ts';
import { natsToken } from './natsToken.ts';
import { PublishQueue } from './PublishQueue.ts';
import type { WorkerDirectory } from './WorkerDirectory.ts';
import { WorkerRoutes } from './WorkerRoutes.ts';

/** The server as the holder connects to it. */
export interface HeldServer {
  readonly url: string;
  readonly username: string;
  readonly password: string;
  /** The server's name in subjects and keys; every process must give the same one. */
  readonly name: string;
}

export interface EventConnectionHolderOptions {
  readonly js: JetStreamClient;
  readonly leases: KV;
  readonly assignments: KV;
  readonly store: JetStreamCallStore;
  readonly workers: WorkerDirectory;
  readonly server: HeldServer;
  readonly app: string;
  /** This process's name (the lease's value, the store's owner). */
  readonly me: string;
  /** How often the holder renews its lease (see {@link HolderElection}). */
  readonly renewMs: number;
  /** How long a standby sees the lease unchanged before it takes it (see {@link HolderElection}). */
  readonly takeoverMs: number;
  readonly logger: Logger;
  /** The clock of the election's turns and deadlines (default: the real one). */
  readonly clock?: Clock;
}

/**
 * The event connection holder of one server and application: of all the processes of a cluster,
 * the one holding the KV lease `events.<server>.<app>` opens the application's one event
 * connection to the server and publishes every event into the JetStream stream, under
 * `ringflow.events.<server>.<channel>`, de-duplicated by `Nats-Msg-Id` (a hash of the event).
 * Each new call (StasisStart) is first assigned to the least loaded worker (the holder's own load
 * counting its publishing, `classic/leastLoaded.ts`): the assignment key
 * is written with `create`, so whichever holder writes first decides, and the StasisStart carries
 * the worker's name in a header. On taking the role (and after each gap of its own connection),
 * the holder tells the workers to reconcile (a gap marker on the stream), and assigns the calls in
 * the application that have neither an assignment nor a record (their StasisStart was lost while
 * nobody held the connection). A holder that loses its lease closes its connection at once.
 * The lease is a {@link HolderElection}: a standby takes it from a holder that stopped renewing
 * within `takeoverMs` (under a second by default), without waiting for the bucket's TTL.
 */
export class EventConnectionHolder {
  private readonly election: HolderElection;
  private stream: EventStream | undefined;
  private client: RestClient | undefined;
  private subscriptions: Subscription[] = [];
  /** Publishes in the order events arrived: each waits for the one before (an assignment is async). */
  private chain: Promise<void> = Promise.resolve();
  private readonly serverToken: string;
  private readonly logger: Logger;
  private stopped = false;
  /** An event (or a gap marker) could not be published since the last gap marker. */
  private eventsLost = false;
  /** The time the role was taken (for the log). */
  heldSince: number | undefined;
  /** The stream sequence of the last event published (acknowledged), to notice a reset stream. */
  private lastPublishedSeq = 0;
  private readonly clock: Clock;
  /** Which worker drives each channel (learned from the assignment bucket). */
  private readonly routes: WorkerRoutes;
  /** Every publish of the holder, in order, a turn's in one socket write (see {@link PublishQueue}). */
  private readonly publishing: PublishQueue;

  constructor(private readonly options: EventConnectionHolderOptions) {
    this.clock = options.clock ?? systemClock;
    this.serverToken = natsToken(options.server.name);
    this.publishing = new PublishQueue(options.js);
    this.logger = options.logger.child({ server: options.server.name, role: 'event connection holder' });
    this.routes = new WorkerRoutes(
      options.assignments,
      this.serverToken,
      (channel, to, from, revision) => this.handOver(channel, to, from, revision),
      this.logger,
    );
    this.election = new HolderElection({
      kv: options.leases,
      key: `events.${this.serverToken}.${natsToken(options.app)}`,
      me: options.me,
      renewMs: options.renewMs,
      takeoverMs: options.takeoverMs,
      held: () => {
        if (this.stopped) void this.election.release();
        // Not awaited: a server slow to answer must not hold the renewals back.
        else void this.connect();
      },
      lost: (why) => this.lost(why),
      logger: this.logger,
      clock: this.clock,
    });
  }

  /** Starts the election: renewing the lease when held, watching it otherwise. */
  start(): void {
    this.election.start();
  }

  private lostLeases = 0;

  /** How many times this process lost the lease while it held the event connection. */
  get leasesLost(): number {
    return this.lostLeases;
  }

  /** True while this process holds the lease and its event connection is open (events flow). */
  get holding(): boolean {
    return this.stream?.state.kind === 'open';
  }

  /**
   * Called every turn (a second): events that could not be published reached no worker, so they
   * reconcile once NATS takes messages again (tried again each turn until the marker itself goes
   * through).
   */
  turn(): void {
    if (this.stopped || !this.election.holding) return;
    if (this.eventsLost && this.stream) {
      this.eventsLost = false;
      this.afterGap('events could not be published');
    }
  }

  private async connect(): Promise<void> {
    const { server, app } = this.options;
    this.heldSince = this.clock.now();
    this.logger.info({ app }, 'connecting to the server for the event connection');
    // Before any route is read: a move written after a channel's route was read is then seen.
    try {
      await this.routes.watch();
    } catch (error) {
      // Channels are then read from the bucket one by one, and moves are not told (a takeover's
      // replay times out and logs it).
      this.logger.warn({ err: error }, 'could not watch the assignment bucket');
    }
    const stream = createEventStream({
      url: server.url,
      apps: [app],
      username: server.username,
      password: server.password,
      lazy: true,
      backoff: { initialDelayMs: 100, maxDelayMs: 2_000 },
    });
    this.stream = stream;
    this.client = createRestClient({ url: server.url, username: server.username, password: server.password });
    this.subscriptions.push(
      stream.events$.subscribe((event) => this.relay(event)),
      stream.gaps$.subscribe((gap) => {
        this.logger.warn({ gapMs: gap.durationMs }, 'event connection came back after a gap');
        this.afterGap('the holder reconnected');
      }),
      stream.problems$.subscribe((problem) =>
        this.logger.warn({ problem: problem.kind, err: problem.error }, 'event connection problem'),
      ),
    );
    stream.open();
    try {
      await stream.whenOpen();
    } catch (error) {
      this.logger.warn({ err: error }, 'event connection did not open');
      return;
    }
    if (this.stream !== stream) return;
    this.logger.info(
      { app, ms: this.clock.now() - this.heldSince },
      'holding the event connection: events go to the JetStream stream',
    );
    this.afterGap('a new holder took the event connection');
  }

  /** Workers reconcile their calls with the server; the calls nobody was told about are assigned. */
  private afterGap(reason: string): void {
    const stream = this.stream;
    this.chain = this.chain
      .then(async () => {
        if (this.stream !== stream) return;
        const marker = JSON.stringify({ type: 'RingflowEventGap', holder: this.options.me, reason });
        // To every worker this process ever listed or routed to: one not listed just now (its
        // lease being renewed after a NATS restart) must reconcile too.
        const workers = new Set([...this.options.workers.known, ...this.routes.workers(), this.options.me]);
        await Promise.all(
          [...workers].map((worker) =>
            this.publishing.publish(eventSubject(this.serverToken, worker, undefined, EVENT_GAP), marker),
          ),
        );
        await this.assignOrphans(stream);
      })
      .catch((error: unknown) => {
        this.eventsLost = true;
        this.logger.error({ err: error }, 'gap handling failed (tried again at the next turn)');
      });
  }

  /**
   * Assigns the calls in the application that no live worker drives: channels with no record
   * (neither a call's own channel nor one a call owns, such as a dial leg) and no assignment
   * (their StasisStart was lost while nobody held the connection), or assigned to a worker that
   * is `gone` (it died before writing the call's first record). Each gets a StasisStart
   * made from the listing, sent to the worker it is assigned to now.
   */
  private async assignOrphans(
    stream: EventStream | undefined,
    gone?: (worker: string) => boolean,
  ): Promise<void> {
    const client = this.client;
    if (!client || this.stream !== stream) return;
    const channels = await client.channels.list();
    let recorded: Set<string> | undefined;
    for (const channel of channels) {
      const stasis = parseStasisAppData(channel.dialplan ?? {});
      if (stasis?.app !== this.options.app) continue;
      const assigned = await this.options.assignments.get(this.assignmentKey(channel.id));
      const worker = assigned?.operation === 'PUT' ? assigned.string() : undefined;
      if (worker !== undefined && !gone?.(worker)) continue;
      recorded ??= await this.recordedChannels();
      if (recorded.has(channel.id) || this.stream !== stream) continue;
      const start: StasisStart = {
        type: 'StasisStart',
        application: stasis.app,
        args: [...stasis.args],
        channel,
        timestamp: formatTimestamp(this.clock.now()),
      };
      const to =
        worker === undefined
          ? await this.assign(channel.id)
          : await this.reassign(channel.id, assigned!.revision);
      if (to === undefined) continue;
      this.logger.warn(
        { call: channel.id, worker: to, ...(worker === undefined ? {} : { from: worker }) },
        worker === undefined
          ? 'a call in the application that no worker was told about (its StasisStart was lost while nobody held the connection): assigned'
          : 'a call assigned to a worker that is gone, before it wrote any record of it: assigned again',
      );
      const h = headers();
      h.set(WORKER_HEADER, to);
      await this.publishing.publish(eventSubject(this.serverToken, to, channel.id), JSON.stringify(start), {
        msgID: `adopt:${this.serverToken}:${natsToken(channel.id)}:${assigned?.revision ?? 0}`,
        headers: h,
      });
    }
  }

  /** The channels the store's records hold: the calls' own, and the ones they own (dial legs). */
  private async recordedChannels(): Promise<Set<string>> {
    const channels = new Set<string>();
    for (const { record } of await this.options.store.listOwners()) {
      channels.add(record.channelId);
      for (const owned of record.owned) if (owned.kind === 'channel') channels.add(owned.id);
    }
    return channels;
  }

  /** Moves a call's assignment from a gone worker to the least loaded one (undefined: another holder did). */
  private async reassign(channelId: string, revision: number): Promise<string | undefined> {
    const worker = this.options.workers.leastLoaded(this.options.me);
    try {
      const written = await this.options.assignments.update(this.assignmentKey(channelId), worker, revision);
      this.routes.assigned(channelId, worker, written);
    } catch (error) {
      if (isWrongRevision(error)) return undefined;
      throw error; // NATS did not answer: logged by the caller, tried again at the next lapse
    }
    this.options.workers.assigned(worker);
    return worker;
  }

  /**
   * This process's NATS connection came back: the events published while it was away were lost,
   * so the workers reconcile as after a gap of the event connection.
   */
  natsReconnected(): void {
    if (this.stream) this.afterGap('the holder lost NATS for a while');
  }

  /** Some workers' leases lapsed: the calls assigned to them that have no record are assigned again. */
  workersLeft(gone: (worker: string) => boolean): void {
    const stream = this.stream;
    if (!stream) return;
    this.chain = this.chain
      .then(() => this.assignOrphans(stream, gone))
      .catch((error: unknown) =>
        this.logger.error({ err: error }, 'assigning the calls of gone workers failed'),
      );
  }

  /** Publishes one event, in order; a StasisStart is assigned to a worker first. */
  private relay(event: StreamEvent): void {
    if (isEventType(event, 'ApplicationReplaced') && event.application === this.options.app) {
      this.logger.error(
        'another connection registered the application on the server: closing this one (another holder, or a process outside the cluster)',
      );
      void this.giveUp();
      return;
    }
    const stream = this.stream;
    const text = JSON.stringify(event);
    const channelId = callOf(event);
    const hash = createHash('sha256').update(text).digest('base64url').slice(0, 24);
    const isStart = event.type === 'StasisStart' && channelId !== undefined;
    this.chain = this.chain
      .then(async () => {
        if (this.stream !== stream) return;
        const h = headers();
        if (isStart) {
          // A channel that takes another's place (a transfer) goes to that channel's worker.
          const replaced = (event as StasisStart).replace_channel?.id;
          const preferred = replaced === undefined ? undefined : await this.routes.workerOf(replaced);
          h.set(WORKER_HEADER, await this.assign(channelId, preferred));
          if (this.stream !== stream) return;
        }
        const targets = await this.routes.targets(event, () => this.liveWorkers());
        if (event.type === 'ChannelDestroyed' && channelId !== undefined) this.routes.forget(channelId);
        if (this.stream !== stream) return;
        for (const worker of targets)
          this.publishing
            .publish(eventSubject(this.serverToken, worker, channelId), text, {
              msgID: `${this.serverToken}:${natsToken(worker)}:${hash}`,
              ...(isStart ? { headers: h } : {}),
            })
            .then(
              (ack) => this.published(ack),
              (error: unknown) => this.publishFailed(error),
            );
      })
      .catch((error: unknown) => {
        this.logger.error({ err: error, event: event.type }, 'event not published');
        this.eventsLost = true;
      });
  }

  /** The workers that get the events every worker may need: those listed at the last turn. */
  private liveWorkers(): Iterable<string> {
    return new Set([...this.options.workers.live, this.options.me]);
  }

  /**
   * A channel's call moved to another worker (a takeover wrote its assignment): a marker under the
   * new worker, in order with the events, says that the channel's events go to it from here on
   * (the events before went to the worker before, and the new one replays them up to here).
   */
  private handOver(channelToken: string, to: string, from: string, revision: number): void {
    const stream = this.stream;
    this.chain = this.chain.then(() => {
      if (this.stream !== stream || !stream) return;
      const h = headers();
      h.set(HANDOVER_HEADER, from);
      this.publishing
        .publish(
          eventSubject(this.serverToken, to, undefined, channelToken),
          JSON.stringify({ type: 'RingflowHandover', from, to }),
          { msgID: `handover:${this.serverToken}:${channelToken}:${revision}`, headers: h },
        )
        .then(
          (ack) => this.published(ack),
          (error: unknown) => this.publishFailed(error),
        );
    });
  }

  /**
   * An event is in the stream. A sequence below the last one acknowledged (not a duplicate, which
   * names the original's) means the stream came back shorter (NATS killed: its last writes lost):
   * the workers' consumers may have missed events, so they reconcile.
   */
  private published(ack: PubAck): void {
    if (ack.duplicate) return;
    const reset = ack.seq <= this.lastPublishedSeq;
    this.lastPublishedSeq = ack.seq;
    if (!reset) return;
    this.logger.warn(
      { seq: ack.seq },
      'the JetStream events stream came back shorter (NATS lost messages): the workers reconcile',
    );
    this.afterGap('the events stream came back shorter');
  }

  private publishFailed(error: unknown): void {
    if (!this.eventsLost)
      this.logger.error(
        { err: error },
        'event not published to JetStream (its call misses it; the workers reconcile once NATS takes messages again)',
      );
    this.eventsLost = true;
  }

  /**
   * The worker a call is assigned to: `preferred` or the least loaded one, unless another holder
   * (or the worker that made the channel) assigned it first.
   */
  private async assign(channelId: string, preferred?: string): Promise<string> {
    const key = this.assignmentKey(channelId);
    const worker = preferred ?? this.options.workers.leastLoaded(this.options.me);
    try {
      const revision = await this.options.assignments.create(key, worker);
      this.routes.assigned(channelId, worker, revision);
      this.options.workers.assigned(worker);
      return worker;
    } catch (error) {
      const existing = await this.options.assignments.get(key);
      if (existing?.operation !== 'PUT') throw error;
      this.routes.learn(existing);
      return existing.string();
    }
  }

  private assignmentKey(channelId: string): string {
    return assignmentKey(this.serverToken, channelId);
  }

  private lost(why: string): void {
    this.lostLeases++;
    this.logger.error({ why }, 'lost the event connection lease: closing the event connection now');
    this.disconnect();
  }

  private disconnect(): void {
    const stream = this.stream;
    const client = this.client;
    this.stream = undefined;
    this.client = undefined;
    for (const s of this.subscriptions) s.unsubscribe();
    this.subscriptions = [];
    void stream?.close();
    void client?.close();
  }

  private async giveUp(): Promise<void> {
    this.disconnect();
    await this.election.release();
  }

  /** Closes the connection and releases the lease (another process takes it at its next read). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.disconnect();
    this.routes.stop();
    await this.election.stop();
    await this.chain.catch(() => {});
  }
}

/** The channel an event is about: the first channel it names (`target_uri` included). */
function callOf(event: StreamEvent): string | undefined {
  for (const ref of eventResources(event)) if (ref.kind === 'channel') return ref.id;
  return undefined;
}
