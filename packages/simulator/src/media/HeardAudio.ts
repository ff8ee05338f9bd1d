/**
 * Audio an application sent on a media socket, as the channels it reached heard it: one entry
 * per stretch of frames played without a gap (a bot's utterance). `audio` holds the bytes in the
 * socket's format, as sent (silence and all).
 */
export interface HeardAudio {
  /** The external media channel whose socket the audio came from. */
  readonly mediaChannelId: string;
  /** The channels that heard it: the other members of its bridge (and their Local twins). */
  readonly hearers: readonly string[];
  /** Clock time (ms) the first frame started playing. */
  readonly startedAt: number;
  /** Clock time (ms) the last frame ended (or the application flushed the rest). */
  readonly endedAt: number;
  /** Frames played (20 ms each). */
  readonly frames: number;
  /** `ulaw`, `slin16`... */
  readonly format: string;
  readonly audio: Uint8Array;
  /** True when the application cut it short (FLUSH_MEDIA), the way a bot stops on barge-in. */
  readonly flushed: boolean;
}
