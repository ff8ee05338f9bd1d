import type { LiveRecording as LiveRecordingJson, TimerHandle } from '@ringflow/client';
import type { EventScope } from '../events/EventScope.ts';
import { recordingHearsTalking } from './audioFlow.ts';
import { finishMedia, type MediaJob, type MediaTarget } from './mediaQueue.ts';
import type { SimBridge } from './SimBridge.ts';
import type { SimChannel } from './SimChannel.ts';
import type { World } from './World.ts';

/** Where the sound a recording captures comes from. */
export type SoundSource =
  | { readonly kind: 'channel'; readonly channel: SimChannel }
  | { readonly kind: 'bridge'; readonly bridge: SimBridge };

/** What is recorded: a channel or a bridge, with the scope its events go to. */
export interface RecordingTarget extends MediaTarget {
  readonly uri: string;
  readonly scope: EventScope;
  /** What the recording captures: a channel's side of the call, or a bridge's mix (see audioFlow). */
  readonly soundSource: SoundSource;
  /** Called when the recording ends, so the target can forget it. */
  recordingEnded(name: string): void;
}

export interface RecordingOptions {
  readonly name: string;
  readonly format: string;
  readonly maxDurationMs: number;
  readonly maxSilenceMs: number;
  readonly beepMs: number;
  readonly append: boolean;
  /** `none`, `any`, `*` or `#`: DTMF that stops the recording. */
  readonly terminateOn: string;
}

/**
 * A live recording of a channel or bridge. It runs in virtual time: it ends after
 * `maxDurationSeconds`, after `maxSilenceSeconds` of continuous silence (talking is what would
 * reach it: the caller's talk, or media played into the call; see audioFlow), on a terminating DTMF digit, on stop or hangup; then it is stored.
 * Cancelling discards it.
 *
 * `queued` only while other media of its target plays before it. When its turn comes it is
 * `recording` at once, with RecordingStarted, beep or not: the real server plays the beep inside
 * the recording (RecordingStarted came 2 ms after a `beep=true` record request in the reference
 * traces, scenario 06). The beep is not recorded: the duration, the silence limit and
 * `maxDurationSeconds` count from its end. Pausing during the beep skips the rest of it.
 */
export class LiveRecording implements MediaJob {
  state: 'queued' | 'recording' | 'paused' | 'done' | 'failed' | 'canceled' = 'queued';
  muted = false;
  private startedAt = 0;
  /** Recorded milliseconds before the current running stretch (pauses excluded). */
  private recordedMs = 0;
  private talkingMs = 0;
  private silenceMs = 0;
  private stretchStart = 0;
  private talking = false;
  /** The beep before the audio is playing (the recording is already `recording`). */
  private beeping = false;
  private timer: TimerHandle | undefined;
  private silenceTimer: TimerHandle | undefined;

  constructor(
    private readonly world: World,
    readonly target: RecordingTarget,
    readonly options: RecordingOptions,
  ) {}

  sounding(): boolean {
    return false;
  }

  get name(): string {
    return this.options.name;
  }

  toJson(): LiveRecordingJson {
    return { name: this.name, format: this.options.format, state: this.state, target_uri: this.target.uri };
  }

  /** Its turn came: it records from now, after the beep if one was asked for. */
  begin(): void {
    this.state = 'recording';
    this.world.publish('RecordingStarted', { recording: this.toJson() }, this.target.scope);
    if (this.options.beepMs > 0) {
      this.beeping = true;
      this.timer = this.world.clock.setTimeout(() => this.startCapture(), this.options.beepMs);
    } else this.startCapture();
  }

  /** Audio is captured from now on: the duration, silence and length limits start counting. */
  private startCapture(): void {
    this.beeping = false;
    this.timer = undefined;
    this.startedAt = this.stretchStart = this.world.clock.now();
    this.talking = recordingHearsTalking(this.world, this.target);
    if (this.options.maxDurationMs > 0) {
      this.timer = this.world.clock.setTimeout(() => this.finish('done'), this.options.maxDurationMs);
    }
    this.armSilence();
  }

  /** True while audio is being captured (recording, not paused, past the beep). */
  private get capturing(): boolean {
    return this.state === 'recording' && !this.beeping;
  }

  private elapsedMs(): number {
    return this.recordedMs + (this.capturing ? this.world.clock.now() - this.startedAt : 0);
  }

  /** Closes the current talking or silent stretch into the totals. */
  private closeStretch(): void {
    const now = this.world.clock.now();
    if (this.capturing) {
      if (this.talking) this.talkingMs += now - this.stretchStart;
      else this.silenceMs += now - this.stretchStart;
    }
    this.stretchStart = now;
  }

  private armSilence(): void {
    if (this.silenceTimer !== undefined) this.world.clock.clearTimeout(this.silenceTimer);
    this.silenceTimer = undefined;
    if (this.options.maxSilenceMs <= 0 || this.talking || !this.capturing) return;
    this.silenceTimer = this.world.clock.setTimeout(() => this.finish('done'), this.options.maxSilenceMs);
  }

  /** What the recording captures started or stopped being talking (see audioFlow). */
  talkingChanged(talking: boolean): void {
    if (this.state !== 'recording' && this.state !== 'paused') return;
    if (talking === this.talking) return;
    this.closeStretch();
    this.talking = talking;
    this.armSilence();
  }

  /** A DTMF digit reached the recorded channel. */
  dtmf(digit: string): void {
    if (this.state !== 'recording' && this.state !== 'paused') return;
    const on = this.options.terminateOn;
    if (on === 'any' || on === digit) this.finish('done');
  }

  pause(): void {
    if (this.state !== 'recording') return;
    this.closeStretch();
    this.recordedMs = this.elapsedMs();
    this.state = 'paused';
    this.beeping = false;
    this.stopTimers();
  }

  unpause(): void {
    if (this.state !== 'paused') return;
    this.state = 'recording';
    this.startedAt = this.stretchStart = this.world.clock.now();
    const left = this.options.maxDurationMs - this.recordedMs;
    if (this.options.maxDurationMs > 0)
      this.timer = this.world.clock.setTimeout(() => this.finish('done'), Math.max(0, left));
    this.armSilence();
  }

  private stopTimers(): void {
    this.world.clock.clearTimeout(this.timer);
    this.world.clock.clearTimeout(this.silenceTimer);
    this.timer = this.silenceTimer = undefined;
  }

  /**
   * The target went away before the recording could start (hangup while a playback ran before
   * it): RecordingFailed with the cause. A recording already running is finished instead.
   */
  fail(cause: string): void {
    if (this.state !== 'queued') {
      this.finish('done');
      return;
    }
    this.state = 'failed';
    if (this.world.recordings.get(this.name) === this) this.world.recordings.delete(this.name);
    this.target.recordingEnded(this.name);
    this.world.publish('RecordingFailed', { recording: { ...this.toJson(), cause } }, this.target.scope);
    finishMedia(this.target, this);
  }

  /**
   * Ends the recording. `done` stores it; `canceled` discards it. Both report RecordingFinished,
   * as the real server does, with `duration` in whole seconds (and talking/silence durations when a
   * silence limit was asked).
   */
  finish(how: 'done' | 'canceled'): void {
    if (this.state === 'done' || this.state === 'canceled' || this.state === 'failed') return;
    const wasQueued = this.state === 'queued';
    this.closeStretch();
    const totalMs = this.elapsedMs();
    this.stopTimers();
    this.state = 'done';
    if (this.world.recordings.get(this.name) === this) this.world.recordings.delete(this.name);
    this.target.recordingEnded(this.name);
    if (!wasQueued) {
      if (how === 'done') {
        this.world.services.recordings.write(this.name, this.options.format, totalMs, {
          append: this.options.append,
        });
      }
      const json: LiveRecordingJson = { ...this.toJson(), duration: Math.floor(totalMs / 1000) };
      if (this.options.maxSilenceMs > 0) {
        json.talking_duration = Math.floor(this.talkingMs / 1000);
        json.silence_duration = Math.floor(this.silenceMs / 1000);
      }
      this.world.publish('RecordingFinished', { recording: json }, this.target.scope);
    }
    finishMedia(this.target, this);
  }
}
