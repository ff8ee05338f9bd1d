import type { Clock, TimerHandle } from '@ringflow/client';

/** Mean absolute sample above which a frame counts as speech (about -40 dBFS). */
const SPEECH_LEVEL = 300;
/** How long without a voiced frame ends an utterance (phones send silence; the simulator sends nothing). */
const HANGOVER_MS = 250;

/**
 * Tells when the caller starts and stops talking, from the level of their audio frames: the
 * relay's barge-in (the caller talks over the bot) and the start of turn latency (the caller
 * stopped) come from here, not from the recogniser, whose timing differs per provider.
 */
export class VoiceActivity {
  readonly #clock: Clock;
  readonly #onStart: () => void;
  readonly #onEnd: (() => void) | undefined;
  #talking = false;
  #lastVoicedAt: number | undefined;
  #timer: TimerHandle | undefined;

  /** `onStart` when the caller starts talking; `onEnd` (optional) when they stopped (after the hangover). */
  constructor(clock: Clock, onStart: () => void, onEnd?: () => void) {
    this.#clock = clock;
    this.#onStart = onStart;
    this.#onEnd = onEnd;
  }

  /** True while the caller talks. */
  get talking(): boolean {
    return this.#talking;
  }

  /** Clock time the caller's last voiced frame ended (undefined before they said anything). */
  get lastVoicedAt(): number | undefined {
    return this.#lastVoicedAt;
  }

  /** One frame of the caller's audio, `durationMs` long. */
  frame(samples: Int16Array, durationMs: number): void {
    let sum = 0;
    for (const s of samples) sum += Math.abs(s);
    if (samples.length === 0 || sum / samples.length < SPEECH_LEVEL) return;
    this.#lastVoicedAt = this.#clock.now() + durationMs;
    this.#clock.clearTimeout(this.#timer);
    this.#timer = this.#clock.setTimeout(() => {
      this.#talking = false;
      this.#onEnd?.();
    }, durationMs + HANGOVER_MS);
    if (this.#talking) return;
    this.#talking = true;
    this.#onStart();
  }

  stop(): void {
    this.#clock.clearTimeout(this.#timer);
  }
}
