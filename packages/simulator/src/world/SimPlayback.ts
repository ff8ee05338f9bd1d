import type { Playback as PlaybackJson, TimerHandle } from '@ringflow/client';
import type { EventScope } from '../events/EventScope.ts';
import { reviewAudio } from './audioFlow.ts';
import { finishMedia, isRunning, type MediaJob, type MediaTarget } from './mediaQueue.ts';
import type { MediaTiming } from '../facilities/index.ts';
import type { World } from './World.ts';

export type PlaybackState = PlaybackJson['state'];

/** What a playback plays to: a channel or a bridge, with the scope its events go to. */
export interface PlaybackTarget extends MediaTarget {
  readonly uri: string;
  readonly scope: EventScope;
}

/**
 * Media played to a channel or bridge: one or more URIs played in order, taking the time the
 * sound catalogue says, controllable (pause, restart, skip) and stoppable. A tone plays until
 * stopped; a URI with an unknown scheme starts and then vanishes without finishing, as on the
 * real server.
 */
export class SimPlayback implements MediaJob {
  state: PlaybackState = 'queued';
  private index = 0;
  private plan: MediaTiming | undefined;
  /** Milliseconds left of the current item (while paused: frozen). */
  private remainingMs = 0;
  private startedAt = 0;
  private timer: TimerHandle | undefined;
  private ended = false;

  constructor(
    private readonly world: World,
    readonly id: string,
    readonly target: PlaybackTarget,
    readonly media: readonly string[],
    readonly language: string,
    readonly skipMs: number,
  ) {}

  toJson(): PlaybackJson {
    const json: PlaybackJson = {
      id: this.id,
      media_uri: this.media[this.index] ?? '',
      target_uri: this.target.uri,
      language: this.language,
      // The real server reports `paused`, a state the 1.10 model does not list.
      state: this.state,
    };
    const next = this.media[this.index + 1];
    return next === undefined
      ? json
      : {
          id: json.id,
          media_uri: json.media_uri,
          next_media_uri: next,
          target_uri: json.target_uri,
          language: json.language,
          state: json.state,
        };
  }

  begin(): void {
    this.startItem();
  }

  sounding(): boolean {
    return this.state === 'playing';
  }

  private publish(type: string): void {
    this.world.publish(type, { playback: this.toJson() }, this.target.scope);
  }

  private startItem(): void {
    this.state = 'playing';
    this.plan = this.world.services.sounds.mediaTiming(this.media[this.index]!, this.language);
    this.publish('PlaybackStarted');
    if (this.plan.kind === 'timed' || this.plan.kind === 'endless') reviewAudio(this.world, this.target);
    switch (this.plan.kind) {
      case 'missing':
        this.end('failed');
        return;
      case 'unknownScheme':
        // The real server reports it started, then forgets it: no PlaybackFinished, GET gives 404.
        this.unregister();
        finishMedia(this.target, this);
        return;
      case 'endless':
        return;
      case 'timed':
        this.remainingMs = this.plan.durationMs;
        this.arm();
    }
  }

  private arm(): void {
    this.startedAt = this.world.clock.now();
    this.timer = this.world.clock.setTimeout(() => this.itemDone(), this.remainingMs);
  }

  private disarm(): void {
    if (this.timer === undefined) return;
    this.world.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.remainingMs = Math.max(0, this.remainingMs - (this.world.clock.now() - this.startedAt));
  }

  private itemDone(): void {
    this.timer = undefined;
    if (this.index + 1 < this.media.length) {
      this.state = 'continuing';
      this.publish('PlaybackContinuing');
      this.index++;
      this.startItem();
      return;
    }
    this.end('done');
  }

  private unregister(): void {
    if (this.world.playbacks.get(this.id) === this) this.world.playbacks.delete(this.id);
  }

  /** Ends the playback with PlaybackFinished; the next media job of the target begins. */
  end(state: 'done' | 'failed'): void {
    // Once only: an application told of the end in process may stop the channel (and so this
    // playback) before the end is through.
    if (this.ended) return;
    this.ended = true;
    if (this.timer !== undefined) this.world.clock.clearTimeout(this.timer);
    this.timer = undefined;
    const wasQueued = !isRunning(this.target, this);
    this.unregister();
    if (!wasQueued) {
      this.state = state;
      this.publish('PlaybackFinished');
    }
    finishMedia(this.target, this);
    // The sound stopped (unless the next job of the target plays on, which reviewed it already).
    if (!wasQueued) reviewAudio(this.world, this.target);
  }

  /** `DELETE /playbacks/{id}`. */
  stop(): void {
    this.end('done');
  }

  /** `POST /playbacks/{id}/control`: pause, unpause, restart, reverse, forward. */
  control(operation: string): void {
    const endless = this.plan?.kind === 'endless';
    switch (operation) {
      case 'pause':
        if (this.state !== 'playing') return;
        this.disarm();
        this.state = 'paused';
        reviewAudio(this.world, this.target);
        return;
      case 'unpause':
        if (this.state !== 'paused') return;
        this.state = 'playing';
        this.publish('PlaybackStarted');
        reviewAudio(this.world, this.target);
        if (!endless) this.arm();
        return;
      case 'restart':
        if (endless || this.plan?.kind !== 'timed') return;
        if (this.state === 'playing') this.disarm();
        this.remainingMs = this.plan.durationMs;
        if (this.state === 'playing') this.arm();
        return;
      case 'reverse':
      case 'forward': {
        // Tones cannot be skipped; the real server accepts the request and does nothing.
        if (endless || this.plan?.kind !== 'timed') return;
        const playing = this.state === 'playing';
        if (playing) this.disarm();
        const delta = operation === 'forward' ? -this.skipMs : this.skipMs;
        this.remainingMs = Math.min(this.plan.durationMs, Math.max(0, this.remainingMs + delta));
        if (playing) this.arm();
      }
    }
  }
}
