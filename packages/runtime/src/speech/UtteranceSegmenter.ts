/** Settings of {@link UtteranceSegmenter}; the defaults suit a caller on a phone line. */
export interface UtteranceSegmenterOptions {
  /** Mean absolute sample (16-bit) above which a 20 ms frame is voiced. Default 300 (about -40 dBFS). */
  readonly speechLevel?: number;
  /** Voiced frames in a row that start an utterance. Default 2 (40 ms). */
  readonly startFrames?: number;
  /** Unvoiced time that ends an utterance. Default 600 ms (pauses between words are shorter). */
  readonly silenceMs?: number;
  /** Audio kept from before the start, so the first sound is not cut. Default 200 ms. */
  readonly prerollMs?: number;
  /** An utterance is cut after this long even if the caller goes on. Default 15000 ms. */
  readonly maxUtteranceMs?: number;
}

/** What the segmenter tells: an utterance starts (with the audio just before), its audio, its end. */
export interface UtteranceListener {
  start(preroll: Int16Array): void;
  audio(samples: Int16Array): void;
  end(): void;
}

const FRAME_MS = 20;

/**
 * Splits a stream of a caller's samples into utterances by energy, frame by frame (20 ms), for
 * recognisers that take one utterance at a time. Works on sample counts only, so the same audio
 * always gives the same utterances, whatever the clock.
 */
export class UtteranceSegmenter {
  private readonly frameSamples: number;
  private readonly level: number;
  private readonly startFrames: number;
  private readonly endFrames: number;
  private readonly prerollFrames: number;
  private readonly maxFrames: number;
  private pending = new Int16Array(0);
  private readonly recent: Int16Array[] = [];
  private voicedRun = 0;
  private silentRun = 0;
  private inUtterance = false;
  private utteranceFrames = 0;

  constructor(
    sampleRate: number,
    private readonly listener: UtteranceListener,
    options: UtteranceSegmenterOptions = {},
  ) {
    this.frameSamples = Math.round((sampleRate * FRAME_MS) / 1000);
    this.level = options.speechLevel ?? 300;
    this.startFrames = Math.max(1, options.startFrames ?? 2);
    this.endFrames = Math.max(1, Math.round((options.silenceMs ?? 600) / FRAME_MS));
    this.prerollFrames = Math.round((options.prerollMs ?? 200) / FRAME_MS);
    this.maxFrames = Math.round((options.maxUtteranceMs ?? 15_000) / FRAME_MS);
  }

  /** True between an utterance's start and its end. */
  get speaking(): boolean {
    return this.inUtterance;
  }

  write(samples: Int16Array): void {
    let buffer = samples;
    if (this.pending.length > 0) {
      buffer = new Int16Array(this.pending.length + samples.length);
      buffer.set(this.pending);
      buffer.set(samples, this.pending.length);
    }
    let at = 0;
    for (; at + this.frameSamples <= buffer.length; at += this.frameSamples) {
      this.frame(buffer.slice(at, at + this.frameSamples));
    }
    this.pending = buffer.slice(at);
  }

  /** The stream ended: an utterance in progress ends now. */
  finish(): void {
    if (this.pending.length > 0 && this.inUtterance) this.listener.audio(this.pending);
    this.pending = new Int16Array(0);
    if (this.inUtterance) this.endUtterance();
  }

  private frame(frame: Int16Array): void {
    let sum = 0;
    for (const sample of frame) sum += Math.abs(sample);
    const voiced = sum / frame.length >= this.level;
    if (!this.inUtterance) {
      this.recent.push(frame);
      this.voicedRun = voiced ? this.voicedRun + 1 : 0;
      if (this.voicedRun >= this.startFrames) {
        this.inUtterance = true;
        this.silentRun = 0;
        this.utteranceFrames = this.recent.length;
        this.listener.start(concat(this.recent));
        this.recent.length = 0;
      } else {
        // Keep the preroll before the voiced frames that may start an utterance.
        while (this.recent.length > this.prerollFrames + this.voicedRun) this.recent.shift();
      }
      return;
    }
    this.listener.audio(frame);
    this.utteranceFrames++;
    this.silentRun = voiced ? 0 : this.silentRun + 1;
    if (this.silentRun >= this.endFrames || this.utteranceFrames >= this.maxFrames) this.endUtterance();
  }

  private endUtterance(): void {
    this.inUtterance = false;
    this.voicedRun = 0;
    this.silentRun = 0;
    this.listener.end();
  }
}

function concat(chunks: readonly Int16Array[]): Int16Array {
  const out = new Int16Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
