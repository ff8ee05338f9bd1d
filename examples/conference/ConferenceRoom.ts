import {
  type Clock,
  isResourceGone,
  type LiveRecording,
  type RestClient,
  type StreamEvent,
} from '@ringflow/client';
import type { BridgeSession } from '@ringflow/runtime';
import type { Logger } from 'pino';
import type { Subscription } from 'rxjs';

/** The keys the moderator presses. */
export const MODERATOR_KEYS = {
  /** Starts the bridge recording, or stops the one running. */
  toggleRecording: '*',
  /** Switches between "video follows whoever talks" and the server's own talk-detection mode. */
  toggleVideoMode: '#',
} as const;

/**
 * Who everyone sees: `follow-talker` (the application locks the video to whoever starts talking,
 * with `setVideoSource`) or `talk-detection` (no explicit source: the server shows the loudest).
 */
export type RoomVideoMode = 'follow-talker' | 'talk-detection';

/** Where a room's members, moderator, video mode and recording stand. */
export interface RoomStatus {
  readonly name: string;
  readonly bridgeId: string;
  /** Channel ids of the callers in the room, in the order they came. */
  readonly members: readonly string[];
  readonly moderator: string | undefined;
  readonly videoMode: RoomVideoMode;
  /** The channel the application last locked the video to (follow-talker mode). */
  readonly videoSource: string | undefined;
  /** The live recording's name while the room is recorded. */
  readonly recording: string | undefined;
  readonly closed: boolean;
}

/** What a room needs from the application that owns it. */
export interface ConferenceRoomOptions {
  readonly name: string;
  /** The room's mixing bridge, created by `app.createBridge`. */
  readonly bridge: BridgeSession;
  /** The REST client of the bridge's server (recordings are not part of the bridge session). */
  readonly client: RestClient;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Media played on the bridge when someone joins; default `sound:beep`. */
  readonly entryTone?: string;
  /** Called once the room is empty and closed, so the registry can forget it. */
  readonly onClosed: (room: ConferenceRoom) => void;
}

/**
 * One conference room: a mixing bridge, its members (the first is the moderator), the video
 * source policy and the bridge recording. Every request to the server goes through one queue, so
 * the server sees them in the order callers caused them (a talker switch, then the moderator's
 * key, then the last caller leaving); a failed request is logged and the queue goes on, because
 * one caller's trouble (a talker hanging up mid-switch) must not stall the room.
 *
 * @example
 * const room = new ConferenceRoom({ name: 'standup', bridge, client, clock, logger, onClosed });
 * room.admit('alice', aliceSignal);  // alice is the moderator
 * room.talking('alice');             // everyone now sees alice
 * room.pressed('alice', '*');        // the bridge is recorded
 */
export class ConferenceRoom {
  readonly name: string;
  readonly bridge: BridgeSession;
  private readonly client: RestClient;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly entryTone: string;
  private readonly onClosed: (room: ConferenceRoom) => void;
  private readonly members: string[] = [];
  private readonly recordingEvents: Subscription;
  private videoMode: RoomVideoMode = 'follow-talker';
  private videoSource: string | undefined;
  private recording: string | undefined;
  private recordings = 0;
  private closed = false;
  private queue: Promise<void> = Promise.resolve();
  private queued = 0;

  constructor(options: ConferenceRoomOptions) {
    this.name = options.name;
    this.bridge = options.bridge;
    this.client = options.client;
    this.clock = options.clock;
    this.logger = options.logger.child({ room: options.name, bridge: options.bridge.bridgeId });
    this.entryTone = options.entryTone ?? 'sound:beep';
    this.onClosed = options.onClosed;
    // A recording also ends without us (a limit, the server): follow its events, not our requests.
    this.recordingEvents = this.bridge.events$.subscribe((event) => this.onBridgeEvent(event));
  }

  /** The room as it is now. */
  get status(): RoomStatus {
    return {
      name: this.name,
      bridgeId: this.bridge.bridgeId,
      members: [...this.members],
      moderator: this.members[0],
      videoMode: this.videoMode,
      videoSource: this.videoSource,
      recording: this.recording,
      closed: this.closed,
    };
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Requests queued or on their way to the server. */
  get pendingRequests(): number {
    return this.queued;
  }

  /** Resolves once every request asked for so far has been answered. */
  settled(): Promise<void> {
    return this.queue;
  }

  /**
   * Takes a caller in; `gone` aborts when the call ends, which makes the caller leave the room.
   * The first member is the moderator.
   */
  admit(channelId: string, gone: AbortSignal): { moderator: boolean } {
    if (this.closed) throw new Error(`room ${this.name} is closed; ask the registry for the room again`);
    if (!this.members.includes(channelId)) this.members.push(channelId);
    const moderator = this.members[0] === channelId;
    this.logger.info({ call: channelId, members: this.members.length }, 'caller admitted');
    // Hung up while the bridge was being created: leave at once (closing the room if it is empty).
    if (gone.aborted) this.leave(channelId);
    else gone.addEventListener('abort', () => this.leave(channelId), { once: true });
    return { moderator };
  }

  /** A member is now in the bridge: everyone hears the entry tone (queued behind other sounds). */
  joined(channelId: string): void {
    this.enqueue(`entry tone for ${channelId}`, async () => {
      await this.bridge.play(this.entryTone);
    });
  }

  /** A member started talking: in follow-talker mode everyone is shown that member. */
  talking(channelId: string): void {
    if (this.closed || this.videoMode !== 'follow-talker') return;
    if (this.videoSource === channelId || !this.members.includes(channelId)) return;
    this.videoSource = channelId;
    this.enqueue(`video source ${channelId}`, () => this.bridge.setVideoSource(channelId));
  }

  /** A member pressed a key; only the moderator's keys do something. */
  pressed(channelId: string, digit: string): void {
    if (this.closed) return;
    if (channelId !== this.members[0]) {
      this.logger.debug({ call: channelId, digit }, 'key ignored: not the moderator');
      return;
    }
    if (digit === MODERATOR_KEYS.toggleVideoMode) this.toggleVideoMode();
    else if (digit === MODERATOR_KEYS.toggleRecording) this.toggleRecording();
  }

  private toggleVideoMode(): void {
    if (this.videoMode === 'follow-talker') {
      this.videoMode = 'talk-detection';
      this.videoSource = undefined;
      this.enqueue('talk-detection mode', () => this.bridge.clearVideoSource());
    } else {
      // The next member to start talking takes the video.
      this.videoMode = 'follow-talker';
    }
    this.logger.info({ videoMode: this.videoMode }, 'video mode changed by the moderator');
  }

  private toggleRecording(): void {
    const running = this.recording;
    if (running !== undefined) {
      this.recording = undefined;
      this.enqueue(`stop recording ${running}`, () => this.stopRecording(running));
      return;
    }
    const name = this.nextRecordingName();
    this.recording = name;
    this.enqueue(`record ${name}`, async () => {
      await this.client
        .bridge(this.bridge.bridgeId)
        .record({ name, format: 'wav', ifExists: 'fail', maxDurationSeconds: 0 });
    });
  }

  /** `conference-<room>-<UTC time>-<n>`: one room may be recorded several times, even in one second. */
  private nextRecordingName(): string {
    const time = new Date(this.clock.now()).toISOString().replace(/[-:]|\.\d+/g, '');
    return `conference-${this.name}-${time}-${++this.recordings}`;
  }

  private async stopRecording(name: string): Promise<void> {
    try {
      await this.client.recordings.stop({ recordingName: name });
    } catch (error) {
      // It ended on its own while the stop was on its way: what we wanted.
      if (!isResourceGone(error)) throw error;
    }
  }

  private onBridgeEvent(event: StreamEvent): void {
    if (event.type !== 'RecordingFinished' && event.type !== 'RecordingFailed') return;
    const name = (event as { recording?: LiveRecording }).recording?.name;
    if (name !== undefined && name === this.recording) this.recording = undefined;
  }

  private leave(channelId: string): void {
    const index = this.members.indexOf(channelId);
    if (index < 0) return;
    this.members.splice(index, 1);
    if (this.videoSource === channelId) this.videoSource = undefined;
    this.logger.info({ call: channelId, members: this.members.length }, 'caller left');
    if (index === 0 && this.members.length > 0) {
      this.logger.info({ moderator: this.members[0] }, 'the moderator left; the longest present takes over');
    }
    if (this.members.length === 0) this.close();
  }

  /** The last member left: stop the recording, destroy the bridge, forget the room. */
  private close(): void {
    if (this.closed) return;
    this.closed = true;
    // Callers arriving from now on get a new room and bridge.
    this.onClosed(this);
    const running = this.recording;
    this.recording = undefined;
    if (running !== undefined) this.enqueue(`stop recording ${running}`, () => this.stopRecording(running));
    this.enqueue('destroy bridge', async () => {
      this.recordingEvents.unsubscribe();
      this.bridge.destroy();
    });
    this.logger.info('room closed');
  }

  private enqueue(what: string, request: () => Promise<void>): void {
    this.queued++;
    this.queue = this.queue
      .then(request)
      .catch((error: unknown) => this.logger.warn({ err: error, request: what }, 'room request failed'))
      .finally(() => {
        this.queued--;
      });
  }
}
