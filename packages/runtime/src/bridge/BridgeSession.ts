import {
  type AriEvent,
  ErrorCode,
  isEventType,
  isKnownEvent,
  isResourceGone,
  RingflowError,
  type StreamEvent,
} from '@ringflow/client';
import type { Logger } from 'pino';
import { Observable, Subject } from '../rx.ts';
import { type Actor, assign, createActor, setup } from 'xstate';
import type { ServerInfo } from '../call/CallHandle.ts';
import type { SessionHost } from '../session/SessionHost.ts';
import { EventCopyFilter } from '../session/EventCopyFilter.ts';

/** How a multi-party bridge picks the video everyone sees. */
export type VideoSourceMode =
  | { readonly mode: 'talker' }
  | { readonly mode: 'explicit'; readonly channelId: string };

/** A playback on the bridge: queued behind others, or playing. */
export interface QueuedPlayback {
  readonly playbackId: string;
  readonly media: string;
  readonly state: 'queued' | 'playing';
}

/** What a bridge session knows about its bridge. */
export interface BridgeContext {
  readonly bridgeId: string;
  /** Channel ids in the bridge, in the order they entered. */
  readonly participants: readonly string[];
  readonly videoSource: VideoSourceMode;
  /** Playbacks not finished yet, in the order they were asked for. */
  readonly playbacks: readonly QueuedPlayback[];
}

// Only events of known types reach the machine (an unknown one has no transition here), so each
// transition below sees its own event's fields.
type BridgeMachineEvent =
  | AriEvent
  | { type: 'bridge.playRequested'; playbackId: string; media: string }
  /** After a gap: the server no longer has this participant (its ChannelLeftBridge was lost). */
  | { type: 'bridge.participantGone'; channelId: string }
  | { type: 'bridge.playFailed'; playbackId: string }
  | { type: 'bridge.created' };

/**
 * The state of a bridge as an XState machine: `creating`, `active`, `destroyed` (final), with its
 * participants, video source mode and playback queue kept from the bridge's events.
 */
export const bridgeMachine = setup({
  // XState's way of declaring a machine's types (`{} as T` is a type, no value is read).
  types: {
    context: {} as BridgeContext,
    input: {} as { bridgeId: string },
    events: {} as BridgeMachineEvent,
  },
}).createMachine({
  id: 'bridge',
  context: ({ input }) => ({
    bridgeId: input.bridgeId,
    participants: [],
    videoSource: { mode: 'talker' },
    playbacks: [],
  }),
  initial: 'creating',
  on: {
    ChannelEnteredBridge: {
      actions: assign({
        participants: ({ context, event }) => {
          const id = event.channel?.id;
          if (!id || context.participants.includes(id)) return context.participants;
          return [...context.participants, id];
        },
      }),
    },
    ChannelLeftBridge: {
      actions: assign({
        participants: ({ context, event }) => context.participants.filter((p) => p !== event.channel.id),
      }),
    },
    'bridge.participantGone': {
      actions: assign({
        participants: ({ context, event }) => context.participants.filter((p) => p !== event.channelId),
      }),
    },
    BridgeVideoSourceChanged: {
      actions: assign({
        videoSource: ({ event }) => {
          const source = event.bridge.video_source_id;
          return source ? { mode: 'explicit' as const, channelId: source } : { mode: 'talker' as const };
        },
      }),
    },
    'bridge.playRequested': {
      actions: assign({
        playbacks: ({ context, event: e }) => {
          if (context.playbacks.some((p) => p.playbackId === e.playbackId)) return context.playbacks;
          return [
            ...context.playbacks,
            { playbackId: e.playbackId, media: e.media, state: 'queued' as const },
          ];
        },
      }),
    },
    PlaybackStarted: {
      actions: assign({
        playbacks: ({ context, event }) => {
          const pb = event.playback;
          const known = context.playbacks.some((p) => p.playbackId === pb.id);
          if (!known)
            return [
              ...context.playbacks,
              { playbackId: pb.id, media: pb.media_uri, state: 'playing' as const },
            ];
          return context.playbacks.map((p) =>
            p.playbackId === pb.id ? { ...p, state: 'playing' as const } : p,
          );
        },
      }),
    },
    PlaybackFinished: {
      actions: assign({
        playbacks: ({ context, event }) =>
          context.playbacks.filter((p) => p.playbackId !== event.playback.id),
      }),
    },
    'bridge.playFailed': {
      actions: assign({
        playbacks: ({ context, event }) => context.playbacks.filter((p) => p.playbackId !== event.playbackId),
      }),
    },
    BridgeDestroyed: '.destroyed',
  },
  states: {
    creating: { on: { 'bridge.created': 'active' } },
    active: {},
    destroyed: { type: 'final' },
  },
});

/** Options of a bridge session. */
export interface BridgeSessionOptions {
  readonly bridgeId: string;
  /** Bridge attributes: `mixing` (default), `holding`, `dtmf_events`, `proxy_media`, `video_sfu`... */
  readonly type?: string;
  readonly name?: string;
  /**
   * The event stream carries several applications: the server may send one copy of each bridge
   * event per application with a channel in the bridge; the session takes each event once.
   */
  readonly sharedStream?: boolean;
}

/**
 * A bridge owned by the application, such as a conference room: an XState actor tracking its
 * participants, video source mode and playback queue, plus the commands to change them. Calls
 * join it with the `joinBridge` actor (or `add`); it ends when the bridge is destroyed.
 *
 * @example
 * const room = await app.createBridge({ name: 'standup' });
 * room.state$.subscribe((s) => console.log(s.participants));
 * await room.play('sound:conf-onlyperson');
 */
export class BridgeSession {
  readonly bridgeId: string;
  readonly server: ServerInfo;
  readonly actor: Actor<typeof bridgeMachine>;
  /** Resolves when the bridge session has ended. */
  readonly done: Promise<void>;
  private readonly host: SessionHost;
  private readonly options: BridgeSessionOptions;
  private readonly onEnded: (session: BridgeSession) => void;
  private readonly events = new Subject<StreamEvent>();
  private readonly ownedPlaybacks = new Set<string>();
  private readonly logger: Logger;
  private readonly abort = new AbortController();
  private readonly copies: EventCopyFilter | undefined;
  private subscriptions = 0;
  private pending = 0;
  private ended = false;
  private resolveDone!: () => void;

  constructor(host: SessionHost, options: BridgeSessionOptions, onEnded: (session: BridgeSession) => void) {
    this.host = host;
    this.options = options;
    this.onEnded = onEnded;
    this.bridgeId = options.bridgeId;
    this.copies = options.sharedStream ? new EventCopyFilter() : undefined;
    this.server = host.server;
    this.logger = host.logger.child({ bridge: options.bridgeId });
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
    this.actor = createActor(bridgeMachine, { input: { bridgeId: options.bridgeId }, clock: host.clock });
    this.actor.start();
    host.router.add(this.server.asteriskId, 'bridge', this.bridgeId, this);
  }

  /** The bridge's participants, video source and playback queue now. */
  get state(): BridgeContext {
    return this.actor.getSnapshot().context;
  }

  /** The state after every change; completes when the bridge session ends. */
  get state$(): Observable<BridgeContext> {
    return new Observable<BridgeContext>((subscriber) => {
      this.subscriptions++;
      subscriber.next(this.state);
      const sub = this.actor.subscribe({
        next: (snapshot) => subscriber.next(snapshot.context),
        complete: () => subscriber.complete(),
      });
      const done = this.events.subscribe({ complete: () => subscriber.complete() });
      return () => {
        this.subscriptions--;
        sub.unsubscribe();
        done.unsubscribe();
      };
    });
  }

  /** Every event about the bridge and its playbacks. */
  get events$(): Observable<StreamEvent> {
    return new Observable<StreamEvent>((subscriber) => {
      this.subscriptions++;
      const sub = this.events.subscribe(subscriber);
      return () => {
        this.subscriptions--;
        sub.unsubscribe();
      };
    });
  }

  counters(): { subscriptions: number; pendingRequests: number } {
    return { subscriptions: this.subscriptions, pendingRequests: this.pending };
  }

  deliver(event: StreamEvent): void {
    if (this.ended) return;
    if (this.copies && !this.copies.accept(event)) return;
    this.events.next(event);
    if (isKnownEvent(event)) this.actor.send(event);
    if (isEventType(event, 'PlaybackFinished')) {
      const id = event.playback.id;
      if (this.ownedPlaybacks.delete(id))
        this.host.router.remove(this.server.asteriskId, 'playback', id, this);
    }
    if (event.type === 'BridgeDestroyed') this.end();
  }

  private async send<T>(what: () => Promise<T>): Promise<T> {
    if (this.ended)
      throw new RingflowError(ErrorCode.CLOSED, `bridge ${this.bridgeId} is gone; nothing was sent`);
    this.pending++;
    try {
      return await what();
    } finally {
      this.pending--;
    }
  }

  /** Creates the bridge on the server (done by `app.createBridge`). */
  async create(): Promise<void> {
    await this.send(() =>
      this.host.client.bridges.create(
        {
          bridgeId: this.bridgeId,
          type: this.options.type ?? 'mixing',
          ...(this.options.name === undefined ? {} : { name: this.options.name }),
        },
        { signal: this.abort.signal },
      ),
    );
    this.actor.send({ type: 'bridge.created' });
  }

  /** Adds channels to the bridge. */
  add(channelIds: string | readonly string[], role?: string): Promise<void> {
    return this.send(() =>
      this.host.client
        .bridge(this.bridgeId)
        .addChannel(
          { channel: channelIds, ...(role === undefined ? {} : { role }) },
          { signal: this.abort.signal },
        ),
    );
  }

  /** Removes channels from the bridge. */
  remove(channelIds: string | readonly string[]): Promise<void> {
    return this.send(() =>
      this.host.client
        .bridge(this.bridgeId)
        .removeChannel({ channel: channelIds }, { signal: this.abort.signal }),
    );
  }

  /**
   * Plays media into the bridge; queued behind what is already playing. The playback id is
   * picked and routed before the request. Resolves with the playback id once accepted.
   */
  async play(media: string): Promise<string> {
    const playbackId = this.host.pickId('playback');
    this.ownedPlaybacks.add(playbackId);
    this.host.router.add(this.server.asteriskId, 'playback', playbackId, this);
    this.actor.send({ type: 'bridge.playRequested', playbackId, media });
    try {
      await this.send(() =>
        this.host.client
          .bridge(this.bridgeId)
          .playWithId({ playbackId, media }, { signal: this.abort.signal }),
      );
    } catch (error) {
      this.ownedPlaybacks.delete(playbackId);
      this.host.router.remove(this.server.asteriskId, 'playback', playbackId, this);
      if (!this.ended) this.actor.send({ type: 'bridge.playFailed', playbackId });
      throw error;
    }
    return playbackId;
  }

  /** Locks everyone's video to one participant. */
  setVideoSource(channelId: string): Promise<void> {
    return this.send(() =>
      this.host.client.bridge(this.bridgeId).setVideoSource({ channelId }, { signal: this.abort.signal }),
    );
  }

  /** Back to talk detection: the loudest speaker is shown. */
  clearVideoSource(): Promise<void> {
    return this.send(() =>
      this.host.client.bridge(this.bridgeId).clearVideoSource({}, { signal: this.abort.signal }),
    );
  }

  /** Destroys the bridge on the server (participants stay in the application) and ends the session. */
  destroy(): void {
    if (this.ended) return;
    const client = this.host.client;
    const id = this.bridgeId;
    this.host.cleanup(
      `destroy bridge ${id}`,
      () =>
        client
          .bridge(id)
          .destroy()
          .catch((error: unknown) => {
            if (!isResourceGone(error)) throw error;
          }),
      { kind: 'bridge', id },
    );
    this.end();
  }

  /** After a gap: forget participants the server no longer has. */
  reconcile(liveChannels: ReadonlySet<string>): void {
    for (const p of this.state.participants) {
      if (!liveChannels.has(p)) this.actor.send({ type: 'bridge.participantGone', channelId: p });
    }
  }

  /** Releases routes, subscriptions and requests; the bridge itself is left as it is. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.abort.abort(new RingflowError(ErrorCode.ABORTED, `bridge session ${this.bridgeId} ended`));
    this.host.router.remove(this.server.asteriskId, 'bridge', this.bridgeId, this);
    for (const id of this.ownedPlaybacks)
      this.host.router.remove(this.server.asteriskId, 'playback', id, this);
    this.ownedPlaybacks.clear();
    this.actor.stop();
    this.events.complete();
    this.logger.info('bridge session ended');
    this.onEnded(this);
    this.resolveDone();
  }
}
