/** The level (RMS of full scale) above which a frame is the caller talking, as the page's MicTalk reads it. */
const TALK_LEVEL = 0.02;
/** Frames (20 ms) over the level before the caller talks (100 ms), and under it before they are silent (600 ms). */
const TALK_AFTER = 5;
const SILENCE_AFTER = 30;

/**
 * When the caller talks, from the frames of their voice on the call's line (slin16): as the
 * page's microphone talk detection decides it (over the level 100 ms: talking; under it 600 ms:
 * silent). `changed` is told each change, so that the call's record has the caller's talk (a call
 * saved as a test replays it as `talk:`).
 *
 * @example
 * const voice = new CallerVoice((talking) => recorder.callerDid(call, { kind: 'talk', talking }));
 * voice.frame(bytes);
 */
export class CallerVoice {
  private talking = false;
  private run = 0;

  constructor(private readonly changed: (talking: boolean) => void) {}

  frame(bytes: Uint8Array): void {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const samples = bytes.byteLength >> 1;
    let sum = 0;
    for (let i = 0; i < samples; i++) {
      const s = view.getInt16(i * 2, true) / 32768;
      sum += s * s;
    }
    const loud = samples > 0 && Math.sqrt(sum / samples) >= TALK_LEVEL;
    if (loud === this.talking) {
      this.run = 0;
      return;
    }
    if (++this.run < (loud ? TALK_AFTER : SILENCE_AFTER)) return;
    this.talking = loud;
    this.run = 0;
    this.changed(loud);
  }

  /** The line closed: a caller who was talking falls silent. */
  end(): void {
    if (this.talking) this.changed(false);
    this.talking = false;
    this.run = 0;
  }
}
