import type { Clock, TimerHandle } from '../clock/Clock.ts';

/** What the sender needs: the clock, the framing, and where frames and marks go. */
export interface MediaSenderInit {
  readonly clock: Clock;
  /** Bytes of one frame; 0 when the format is passed through (sent as given, at once). */
  readonly frameBytes: number;
  readonly ptimeMs: number;
  /** Frames kept queued at the server ahead of real time, against timer jitter. */
  readonly aheadFrames: number;
  /** One frame of silence: pads a last partial frame (the server drops partial frames). */
  readonly silence: Uint8Array;
  readonly sendFrame: (frame: Uint8Array) => void;
  readonly sendMark: (id: string) => void;
}

type Item =
  | { readonly kind: 'frame'; readonly data: Uint8Array }
  | { readonly kind: 'mark'; readonly id: string };

/**
 * Paces an application's audio to the server: whole frames of `optimal_frame_size`, one per
 * ptime on the clock (plus `aheadFrames` of lead), marks sent in order after the frames before
 * them, nothing while the server said MEDIA_XOFF. The schedule counts from the start of each
 * run of audio, so timer lateness does not add up.
 */
export class MediaSender {
  private readonly items: Item[] = [];
  private remainder: Uint8Array | undefined;
  private runStart = 0;
  private sentInRun = 0;
  private running = false;
  private xoff = false;
  private timer: TimerHandle | undefined;
  private stopped = false;

  constructor(private readonly init: MediaSenderInit) {}

  /** Frames waiting to be sent (not yet at the server). */
  get queuedFrames(): number {
    return this.items.filter((item) => item.kind === 'frame').length + (this.remainder ? 1 : 0);
  }

  /** Queues audio: whole frames now, a partial frame's bytes until more audio or a mark comes. */
  play(audio: Uint8Array): void {
    if (this.stopped || audio.length === 0) return;
    const size = this.init.frameBytes;
    if (size === 0) {
      // Passed through: the server neither frames nor queues it; the application paces it.
      this.init.sendFrame(audio);
      return;
    }
    let bytes = audio;
    if (this.remainder) {
      bytes = new Uint8Array(this.remainder.length + audio.length);
      bytes.set(this.remainder);
      bytes.set(audio, this.remainder.length);
      this.remainder = undefined;
    }
    let at = 0;
    for (; at + size <= bytes.length; at += size)
      this.items.push({ kind: 'frame', data: bytes.slice(at, at + size) });
    if (at < bytes.length) this.remainder = bytes.slice(at);
    this.pump();
  }

  /** Queues a mark after the audio queued so far (a partial frame is padded with silence first). */
  mark(id: string): void {
    if (this.stopped) return;
    this.padRemainder();
    this.items.push({ kind: 'mark', id });
    this.pump();
  }

  /** Drops everything not yet sent; returns the ids of the marks dropped. */
  clear(): string[] {
    const dropped = this.items.flatMap((item) => (item.kind === 'mark' ? [item.id] : []));
    this.items.length = 0;
    this.remainder = undefined;
    this.endRun();
    return dropped;
  }

  /** MEDIA_XOFF: stop sending. */
  holdOff(): void {
    this.xoff = true;
    this.endRun();
  }

  /** MEDIA_XON: send again. */
  resume(): void {
    this.xoff = false;
    this.pump();
  }

  /** The connection is gone: nothing more is sent; returns the ids of the marks never sent. */
  stop(): string[] {
    const dropped = this.clear();
    this.stopped = true;
    return dropped;
  }

  private padRemainder(): void {
    const rest = this.remainder;
    if (!rest) return;
    this.remainder = undefined;
    const frame = this.init.silence.slice();
    frame.set(rest);
    this.items.push({ kind: 'frame', data: frame });
  }

  private endRun(): void {
    this.running = false;
    this.init.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Sends what the schedule allows now, then waits for the next frame's time. */
  private pump(): void {
    if (this.stopped || this.xoff || this.timer !== undefined) return;
    const { clock, ptimeMs, aheadFrames } = this.init;
    if (this.items.length === 0 && this.remainder) this.padRemainder();
    if (this.items.length === 0) {
      this.running = false;
      return;
    }
    const now = clock.now();
    if (!this.running) {
      this.running = true;
      this.runStart = now;
      this.sentInRun = 0;
    }
    const due = Math.floor((now - this.runStart) / ptimeMs) + 1 + aheadFrames;
    while (this.items.length > 0 && !this.xoff && !this.stopped) {
      const head = this.items[0]!;
      if (head.kind === 'mark') {
        this.items.shift();
        this.init.sendMark(head.id);
        continue;
      }
      if (this.sentInRun >= due) break;
      this.items.shift();
      this.sentInRun++;
      this.init.sendFrame(head.data);
    }
    if (this.stopped || this.xoff) return;
    if (this.items.length === 0 && !this.remainder) {
      // The run ends once the frames sent have had their time to play.
      const playedAt = this.runStart + this.sentInRun * ptimeMs;
      if (playedAt <= now) this.running = false;
      else this.schedule(playedAt - now);
      return;
    }
    const next = this.runStart + (this.sentInRun - aheadFrames) * ptimeMs;
    this.schedule(Math.max(0, next - now));
  }

  private schedule(delayMs: number): void {
    this.timer = this.init.clock.setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, delayMs);
  }
}
