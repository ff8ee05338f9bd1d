/**
 * One 20 ms frame of the audio an application sent on a media socket, as it plays into the call
 * (live, at its tick on the simulator's clock): what `sim.media.onPlayed` tells. The stretch it
 * belongs to is told by `onHeard` once it ends (`flushed` when the application cut it short).
 */
export interface PlayedFrame {
  /** The external media channel whose socket the audio came from. */
  readonly mediaChannelId: string;
  /** The channels that hear it now: the other members of its bridge (and their Local twins). */
  readonly hearers: readonly string[];
  /** Clock time (ms) the frame starts playing. */
  readonly at: number;
  /** `ulaw`, `slin16`... */
  readonly format: string;
  /** The frame's bytes in the socket's format, as sent. */
  readonly audio: Uint8Array;
}
