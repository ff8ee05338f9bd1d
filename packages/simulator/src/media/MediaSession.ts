import {
  formatMediaEvent,
  MAX_MEDIA_MESSAGE_BYTES,
  type MediaCommand,
  type MediaEvent,
  type MediaFormat,
  optimalFrameSize,
  PTIME_MS,
  parseMediaCommand,
  QUEUE_LIMIT,
  silentFrame,
  type TimerHandle,
  XOFF_LEVEL,
  XON_LEVEL,
} from '@ringflow/client';
import { hearsSound, reviewAudio } from '../world/audioFlow.ts';
import { answerDialedLeg, hangupChannel } from '../world/channelLifecycle.ts';
import type { SimChannel } from '../world/SimChannel.ts';
import type { World } from '../world/World.ts';
import type { HeardAudio } from './HeardAudio.ts';
import type { MediaPipe } from './MediaPipe.ts';
import { CarriedAudio } from './CarriedAudio.ts';
import { ToneFrames } from './toneFrames.ts';

type QueueItem =
  | { readonly kind: 'frame'; readonly data: Uint8Array }
  | { readonly kind: 'mark'; readonly id: string }
  | { readonly kind: 'buffering-completed'; readonly id: string };

/** What a session needs from the server around it. */
export interface MediaSessionInit {
  readonly world: World;
  readonly channel: SimChannel;
  readonly format: MediaFormat;
  readonly controlFormat: 'plain-text' | 'json';
  readonly connectionId: string;
  /** `n` in transport_data: the channel stays Down until the application sends ANSWER. */
  readonly noAutoAnswer: boolean;
  /** The variables MEDIA_START lists (JSON form), in order. */
  readonly variables: () => Readonly<Record<string, string>>;
  /** Audio the application sent was heard (called when a stretch ends). */
  readonly heard: (audio: HeardAudio) => void;
  /** One frame of the application's audio reaches channel `hearerId` (another media channel carries it on). */
  readonly reached?: (hearerId: string, frame: Uint8Array, format: MediaFormat) => void;
  /** One frame of the application's audio plays, heard by `hearers` (told as it plays). */
  readonly played?: (frame: Uint8Array, hearers: readonly string[]) => void;
}

interface Utterance {
  readonly startedAt: number;
  readonly hearers: Set<string>;
  readonly chunks: Uint8Array[];
  frames: number;
}

/**
 * The server's side of one media connection of an external media channel (chan_websocket): the
 * playout queue of the application's audio (20 ms per frame on the simulator's clock), the
 * control commands and their replies, and the frames of the sound that reaches the channel.
 * Ticks run on the clock only while there is something to do, so an idle call costs nothing
 * and `runUntilIdle` ends.
 */
export class MediaSession {
  private pipe: MediaPipe | undefined;
  private readonly queue: QueueItem[] = [];
  private queuedFrames = 0;
  private paused = false;
  private xoff = false;
  private buffering: Uint8Array[] | undefined;
  private drainReport = false;
  private direction: 'both' | 'in' | 'out' = 'both';
  private connectedAt = 0;
  private tickTimer: TimerHandle | undefined;
  private utterance: Utterance | undefined;
  private readonly tone: ToneFrames | undefined;
  /** What other media channels of the bridge played, waiting for this socket's next tick. */
  private readonly carried: CarriedAudio | undefined;
  private ended = false;

  constructor(private readonly init: MediaSessionInit) {
    this.tone = init.format.kind === 'framed' ? new ToneFrames(init.format) : undefined;
    this.carried = init.format.kind === 'framed' ? new CarriedAudio(init.format) : undefined;
  }

  /** Another media channel of the bridge played this frame: this socket sends it on its next tick. */
  carry(frame: Uint8Array, from: MediaFormat): void {
    if (this.ended || !this.carried) return;
    this.carried.push(frame, from);
    this.scheduleTick();
  }

  get connected(): boolean {
    return this.pipe !== undefined;
  }

  private get channel(): SimChannel {
    return this.init.channel;
  }

  private get world(): World {
    return this.init.world;
  }

  /**
   * The connection is up: MEDIA_START goes first (before any audio and before StasisStart), then
   * the channel is answered and enters its application, unless `n` asked to wait for ANSWER.
   */
  attach(pipe: MediaPipe, beforeAnswer: () => void = () => {}): void {
    this.pipe = pipe;
    this.connectedAt = this.world.clock.now();
    pipe.onText((text) => this.onText(text));
    pipe.onBinary((data) => this.onBinary(data));
    pipe.onClose((code) => this.onClosed(code));
    pipe.sendText(this.mediaStart());
    beforeAnswer();
    if (!this.init.noAutoAnswer) this.answer();
    this.soundChanged();
  }

  /** Sound may have started or stopped reaching the channel: make sure the clock ticks. */
  soundChanged(): void {
    this.scheduleTick();
  }

  /** A DTMF digit was played to the channel (POST /channels/{id}/dtmf): DTMF_END (observed). */
  dtmfEnded(digit: string): void {
    this.sendEvent({ event: 'DTMF_END', channel_id: this.channel.id, digit });
  }

  /** The channel is gone: the server closes the connection with 1000 (observed, whatever the cause). */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.world.clock.clearTimeout(this.tickTimer);
    this.tickTimer = undefined;
    this.finishUtterance(false);
    this.pipe?.close(1000);
  }

  private mediaStart(): string {
    const { connectionId, format, controlFormat } = this.init;
    const ch = this.channel;
    return formatMediaEvent(
      {
        event: 'MEDIA_START',
        connection_id: connectionId,
        channel: ch.name,
        channel_id: ch.id,
        format: format.name,
        optimal_frame_size: optimalFrameSize(format),
        ptime: PTIME_MS,
        channel_variables: this.init.variables(),
      },
      controlFormat,
    );
  }

  private answer(): void {
    const ch = this.channel;
    if (ch.state === 'Up' || ch.hangingUp || ch.destroyed) return;
    answerDialedLeg(this.world, ch);
  }

  private sendText(text: string): void {
    if (this.pipe?.open) this.pipe.sendText(text);
  }

  private sendEvent(event: MediaEvent): void {
    this.sendText(formatMediaEvent(event, this.init.controlFormat));
  }

  private sendError(text: string): void {
    this.sendEvent({ event: 'ERROR', channel_id: this.channel.id, error_text: text });
  }

  private onText(text: string): void {
    if (this.ended) return;
    const parsed = parseMediaCommand(text, this.init.controlFormat);
    if (parsed.kind === 'error') this.sendError(parsed.text);
    else if (parsed.kind === 'command') this.run(parsed.command);
  }

  private run(command: MediaCommand): void {
    const passthrough = this.init.format.kind === 'passthrough';
    switch (command.command) {
      case 'ANSWER':
        this.answer();
        return;
      case 'HANGUP':
        this.hangUpFromApplication(16);
        return;
      case 'GET_STATUS':
        this.sendStatus();
        return;
      case 'MARK_MEDIA':
        if (passthrough) {
          this.sendError('MARK_MEDIA not supported in passthrough mode');
          return;
        }
        if (this.direction === 'in') {
          this.sendError("MARK_MEDIA not supported while media direction is 'in'");
          return;
        }
        this.queue.push({ kind: 'mark', id: command.correlation_id });
        this.scheduleTick();
        return;
      case 'FLUSH_MEDIA':
        if (passthrough) {
          this.sendError('FLUSH_MEDIA not supported in passthrough mode');
          return;
        }
        this.queue.length = 0;
        this.queuedFrames = 0;
        this.buffering = undefined;
        this.finishUtterance(true);
        this.scheduleTick();
        return;
      case 'REPORT_QUEUE_DRAINED':
        this.drainReport = true;
        this.scheduleTick();
        return;
      case 'PAUSE_MEDIA':
        this.paused = true;
        return;
      case 'CONTINUE_MEDIA':
        this.paused = false;
        this.scheduleTick();
        return;
      case 'START_MEDIA_BUFFERING':
        this.buffering ??= [];
        return;
      case 'STOP_MEDIA_BUFFERING': {
        const rest = this.buffering;
        this.buffering = undefined;
        if (rest && rest.length > 0 && this.init.format.kind === 'framed') {
          // The partial frame left over is padded with silence and queued.
          const frame = silentFrame(this.init.format);
          frame.set(concat(rest).subarray(0, frame.length));
          this.queue.push({ kind: 'frame', data: frame });
          this.queuedFrames++;
        }
        this.queue.push({ kind: 'buffering-completed', id: command.correlation_id });
        this.scheduleTick();
        return;
      }
      case 'SET_MEDIA_DIRECTION':
        this.direction = command.direction;
        this.scheduleTick();
        return;
    }
  }

  private sendStatus(): void {
    this.sendEvent({
      event: 'STATUS',
      channel_id: this.channel.id,
      queue_length: this.queuedFrames,
      xon_level: XON_LEVEL,
      xoff_level: XOFF_LEVEL,
      queue_full: this.xoff,
      bulk_media: this.buffering !== undefined,
      media_paused: this.paused,
    });
  }

  /**
   * Audio from the application: split into frames and queued. A remainder that is not a whole
   * frame is dropped unless buffering is on; nothing is taken while 1000 frames are queued, but
   * one message may take the queue past that (observed: 1350).
   */
  private onBinary(data: Uint8Array): void {
    if (this.ended) return;
    if (data.byteLength > MAX_MEDIA_MESSAGE_BYTES) {
      this.pipe?.close(1009);
      return;
    }
    if (this.direction === 'in' || this.queuedFrames >= QUEUE_LIMIT) return;
    const format = this.init.format;
    if (format.kind === 'passthrough') {
      this.push(data);
    } else {
      let bytes = data;
      if (this.buffering) {
        this.buffering.push(data);
        bytes = concat(this.buffering);
        const whole = bytes.length - (bytes.length % format.frameBytes);
        this.buffering = whole < bytes.length ? [bytes.slice(whole)] : [];
        bytes = bytes.subarray(0, whole);
      }
      for (let at = 0; at + format.frameBytes <= bytes.length; at += format.frameBytes) {
        this.push(bytes.slice(at, at + format.frameBytes));
      }
    }
    if (!this.xoff && this.queuedFrames >= XOFF_LEVEL) {
      this.xoff = true;
      this.sendEvent({ event: 'MEDIA_XOFF', channel_id: this.channel.id });
    }
    this.scheduleTick();
  }

  private push(data: Uint8Array): void {
    this.queue.push({ kind: 'frame', data });
    this.queuedFrames++;
  }

  /** HANGUP, the application closing, or an oversized message (1009, cause 38), as observed. */
  private hangUpFromApplication(cause: number): void {
    const ch = this.channel;
    if (ch.hangingUp || ch.destroyed) return;
    const bridged = ch.bridgeId !== undefined;
    this.world.publishChannel('ChannelHangupRequest', ch, { cause });
    // Observed: ChannelDestroyed carries the cause only when the channel was bridged, else 0.
    hangupChannel(this.world, ch, bridged ? cause : 0, 'none');
  }

  private onClosed(code: number): void {
    if (this.ended) return;
    this.pipe = undefined;
    this.hangUpFromApplication(code === 1009 ? 38 : 16);
    this.end();
  }

  private needsTick(): boolean {
    if (this.ended || !this.pipe) return false;
    if (this.queue.length > 0 || this.drainReport || this.xoff || this.utterance) return true;
    if ((this.carried?.waiting ?? 0) > 0) return true;
    return this.direction !== 'out' && this.tone !== undefined && hearsSound(this.world, this.channel);
  }

  /** Ticks stay on the 20 ms grid that started when the connection did. */
  private scheduleTick(): void {
    if (this.tickTimer !== undefined || !this.needsTick()) return;
    const now = this.world.clock.now();
    const elapsed = now - this.connectedAt;
    const next = this.connectedAt + (Math.floor(elapsed / PTIME_MS) + 1) * PTIME_MS;
    this.tickTimer = this.world.clock.setTimeout(() => {
      this.tickTimer = undefined;
      this.tick();
      this.scheduleTick();
    }, next - now);
  }

  private tick(): void {
    if (this.ended) return;
    this.processMarkers();
    const head = this.queue[0];
    if (!this.paused && head?.kind === 'frame') {
      this.queue.shift();
      this.queuedFrames--;
      this.play(head.data);
    } else {
      this.finishUtterance(false);
    }
    if (this.xoff && this.queuedFrames < XON_LEVEL) {
      this.xoff = false;
      this.sendEvent({ event: 'MEDIA_XON', channel_id: this.channel.id });
    }
    if (this.drainReport && this.queuedFrames === 0) {
      this.drainReport = false;
      this.sendEvent({ event: 'QUEUE_DRAINED', channel_id: this.channel.id });
    }
    if (this.direction === 'out' || !this.pipe?.open) return;
    // What another media channel said is sent as it was; other sound is the tone.
    const carried = this.carried?.next();
    if (carried) this.pipe.sendBinary(carried);
    else if (this.tone && hearsSound(this.world, this.channel)) this.pipe.sendBinary(this.tone.next());
  }

  /** Marks reached by the playout are acknowledged when the audio before them has played. */
  private processMarkers(): void {
    for (let head = this.queue[0]; head && head.kind !== 'frame'; head = this.queue[0]) {
      this.queue.shift();
      this.sendEvent({
        event: head.kind === 'mark' ? 'MEDIA_MARK_PROCESSED' : 'MEDIA_BUFFERING_COMPLETED',
        channel_id: this.channel.id,
        correlation_id: head.id,
      });
    }
  }

  /** One frame of the application's audio plays into the call: its hearers hear it. */
  private play(frame: Uint8Array): void {
    const ch = this.channel;
    if (!this.utterance) {
      this.utterance = { startedAt: this.world.clock.now(), hearers: new Set(), chunks: [], frames: 0 };
      // The channel talks while its audio plays: talk detection and recordings in the call notice.
      ch.talkingSince = this.world.clock.now();
      reviewAudio(this.world, ch);
    }
    const utterance = this.utterance;
    utterance.frames++;
    utterance.chunks.push(frame);
    const hearers = this.hearers();
    for (const id of hearers) {
      utterance.hearers.add(id);
      this.init.reached?.(id, frame, this.init.format);
    }
    this.init.played?.(frame, hearers);
  }

  private hearers(): string[] {
    const ch = this.channel;
    const bridge = ch.bridgeId === undefined ? undefined : this.world.bridges.get(ch.bridgeId);
    if (!bridge || bridge.holding || ch.muted?.has('in')) return [];
    const ids: string[] = [];
    for (const id of bridge.channelIds) {
      const member = id === ch.id ? undefined : this.world.channel(id);
      if (!member || member.muted?.has('out')) continue;
      ids.push(member.id);
      // What is played to one half of a Local pair comes out of the other.
      if (member.peer && !member.peer.destroyed) ids.push(member.peer.id);
    }
    return ids;
  }

  private finishUtterance(flushed: boolean): void {
    const utterance = this.utterance;
    if (!utterance) return;
    this.utterance = undefined;
    const ch = this.channel;
    ch.talkingSince = undefined;
    if (!ch.destroyed) reviewAudio(this.world, ch);
    this.init.heard({
      mediaChannelId: ch.id,
      hearers: [...utterance.hearers],
      startedAt: utterance.startedAt,
      endedAt: this.world.clock.now(),
      frames: utterance.frames,
      format: this.init.format.name,
      audio: concat(utterance.chunks),
      flushed,
    });
  }
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
