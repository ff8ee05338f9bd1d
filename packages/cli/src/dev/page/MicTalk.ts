/** The level (RMS, 0..1) above which the caller talks, and how long it must last to count (ms). */
const TALK_LEVEL = 0.02;
const TALK_AFTER_MS = 100;
/** How long the level must stay under it for the caller to fall silent (ms). */
const SILENCE_AFTER_MS = 600;
/** How often the level is read (ms). */
const READ_EVERY_MS = 50;

/**
 * The caller's microphone as talk detection: only its level is read (nothing is recorded or
 * sent); above {@link TALK_LEVEL} for 100 ms the caller talks, under it for 600 ms they are
 * silent. `talk` is told each change, `level` each reading.
 *
 * @example
 * const mic = await MicTalk.open(context, (talking) => post('talk', { call, talking }), setLevel);
 * mic.close();
 */
export class MicTalk {
  private talking = false;
  private since = 0;
  private readonly timer: ReturnType<typeof setInterval>;

  private constructor(
    private readonly stream: MediaStream,
    analyser: AnalyserNode,
    talk: (talking: boolean) => void,
    level: (level: number) => void,
  ) {
    const samples = new Float32Array(analyser.fftSize);
    this.timer = setInterval(() => {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const s of samples) sum += s * s;
      const rms = Math.sqrt(sum / samples.length);
      level(rms);
      const loud = rms >= TALK_LEVEL;
      if (loud === this.talking) {
        this.since = 0;
        return;
      }
      this.since += READ_EVERY_MS;
      if (this.since >= (loud ? TALK_AFTER_MS : SILENCE_AFTER_MS)) {
        this.talking = loud;
        this.since = 0;
        talk(loud);
      }
    }, READ_EVERY_MS);
  }

  /** Asks for the microphone (the browser asks the user) and starts reading its level. */
  static async open(
    context: AudioContext,
    talk: (talking: boolean) => void,
    level: (level: number) => void,
    /** The sounds are held (the simulated time is paused): the context stays suspended. */
    held = false,
  ): Promise<MicTalk> {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    // A context made outside a click may start suspended: its analyser would read nothing.
    if (!held) await context.resume();
    const analyser = context.createAnalyser();
    analyser.fftSize = 1024;
    context.createMediaStreamSource(stream).connect(analyser);
    return new MicTalk(stream, analyser, talk, level);
  }

  /** Stops reading and lets the microphone go (a caller who was talking falls silent). */
  close(talk: (talking: boolean) => void): void {
    clearInterval(this.timer);
    for (const track of this.stream.getTracks()) track.stop();
    if (this.talking) talk(false);
  }
}
