import { levelOf, toLineFrame } from './lineFrame.ts';

/** The worklet that hands the microphone's samples over in 20 ms frames (at the context's rate). */
const TAP = `
class RingflowMicTap extends AudioWorkletProcessor {
  constructor() {
    super();
    this.size = Math.round(sampleRate / 50);
    this.frame = new Float32Array(this.size);
    this.at = 0;
  }
  process(inputs) {
    const input = inputs[0] && inputs[0][0];
    if (input) {
      for (let i = 0; i < input.length; i++) {
        this.frame[this.at++] = input[i];
        if (this.at === this.size) {
          // Handed over (not copied): a new frame is made for what follows.
          this.port.postMessage(this.frame, [this.frame.buffer]);
          this.frame = new Float32Array(this.size);
          this.at = 0;
        }
      }
    }
    return true;
  }
}
registerProcessor('ringflow-mic-tap', RingflowMicTap);
`;

/** The contexts the worklet was added to (once each). */
const tapped = new WeakMap<AudioContext, Promise<void>>();

function addTap(context: AudioContext): Promise<void> {
  let added = tapped.get(context);
  if (!added) {
    const url = URL.createObjectURL(new Blob([TAP], { type: 'text/javascript' }));
    added = context.audioWorklet.addModule(url).finally(() => URL.revokeObjectURL(url));
    tapped.set(context, added);
  }
  return added;
}

/**
 * The caller's microphone as their voice on the call's line: 20 ms frames at 16 kHz (`send`), as
 * the audio context runs (nothing while the simulated time is paused: the context is held), with
 * each frame's level (`level`). The browser's echo cancellation keeps the bot's own audio, played
 * by the page, out of it; its noise suppression and gain control are off (the bot's business).
 *
 * @example
 * const mic = await MicVoice.open(audio.audioContext(), (frame) => line.send(frame), setLevel);
 * mic.close();
 */
export class MicVoice {
  private constructor(
    private readonly stream: MediaStream,
    private readonly nodes: readonly AudioNode[],
  ) {}

  /** Asks for the microphone (the browser asks the user) and starts sending its frames. */
  static async open(
    context: AudioContext,
    send: (frame: Int16Array) => void,
    level: (level: number) => void,
    /** The sounds are held (the simulated time is paused): the context stays suspended. */
    held = false,
  ): Promise<MicVoice> {
    // Echo cancellation keeps the page's own playback (the bot) out; the bot does the rest (noise
    // suppression would also take a steady sound for noise).
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: { echoCancellation: true, noiseSuppression: false, autoGainControl: false },
    });
    try {
      if (!held) await context.resume();
      await addTap(context);
    } catch (error) {
      for (const track of stream.getTracks()) track.stop();
      throw error;
    }
    const source = context.createMediaStreamSource(stream);
    const tap = new AudioWorkletNode(context, 'ringflow-mic-tap');
    tap.port.onmessage = (m: MessageEvent<Float32Array>) => {
      level(levelOf(m.data));
      send(toLineFrame(m.data, context.sampleRate));
    };
    // The tap's output is silent; it is connected so that the context keeps running it.
    const mute = context.createGain();
    mute.gain.value = 0;
    source.connect(tap).connect(mute).connect(context.destination);
    return new MicVoice(stream, [source, tap, mute]);
  }

  /** Stops sending and lets the microphone go. */
  close(): void {
    for (const node of this.nodes) {
      node.disconnect();
      if (node instanceof AudioWorkletNode) node.port.onmessage = null;
    }
    for (const track of this.stream.getTracks()) track.stop();
  }
}
