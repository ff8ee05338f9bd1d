import { decodeRawSound } from './decodeSound.ts';
import { DTMF, HOLD_MUSIC, HOLD_NOTE_MS, type Tone, toneOf } from './tones.ts';
import type { CallSound } from './types.ts';

/** What the page plays of one sound: each file (or the tone), and where it stands. */
export interface PlayingPart {
  /** The sound file (`hello-world`), or the tone's media (`tone:ring`). */
  readonly name: string;
  /** The file's format (`wav`, `ulaw`...), or `tone`. */
  format: string;
  /** Fetching and decoding; scheduled on the audio graph; not there (no file, or one not played). */
  state: 'loading' | 'playing' | 'missing';
}

/** How loud the page's tones are (0..1): audible, under the prompts. */
const TONE_LEVEL = 0.12;
/** How far ahead a tone's cadence is scheduled (it is stopped with its sound). */
const CADENCE_AHEAD_MS = 10 * 60_000;
/** How far ahead of the audio clock the line's frames start after a gap: room for their jitter (s). */
const LINE_AHEAD_S = 0.08;
/** What the page lists while the line plays (the call's own audio: a bot of the audio protocol). */
const LINE_PART: PlayingPart = { name: 'bot audio', format: 'live', state: 'playing' };

/**
 * The sounds of the selected call, played in the browser with Web Audio: a prompt's files fetched
 * from `api/sound` (WAV decoded by the browser, the raw formats by decodeRawSound) and scheduled
 * one after the other; tones (`tone:ring`, `tone:busy`...), music on hold (`moh:<class>`) and the
 * keys' DTMF pairs synthesised.
 * The call's line (a bot speaking its own audio, frame by frame as the simulator plays it) is
 * scheduled frame after frame, a little ahead of the audio clock, and stopped at once on a flush.
 * The audio context is made on first use (a click lets it start); `suspend` holds every sound
 * while the simulated time is paused. `changed` is told when what plays changes (the page shows it).
 *
 * @example
 * const audio = new CallAudio(() => render());
 * audio.play(sound); // a CallSound of the feed
 * audio.stop(sound.id);
 */
export class CallAudio {
  private context: AudioContext | undefined;
  private readonly sounds = new Map<
    string,
    { readonly parts: PlayingPart[]; readonly nodes: AudioScheduledSourceNode[] }
  >();

  /** The line's frames scheduled and not yet ended, and where the next one starts. */
  private line: { nextAt: number; readonly nodes: Set<AudioBufferSourceNode> } | undefined;

  constructor(private readonly changed: () => void = () => {}) {}

  /** The audio context (made on first use). */
  audioContext(): AudioContext {
    this.context ??= new AudioContext();
    return this.context;
  }

  /** What plays now, by sound id (`line`: the call's line). */
  playing(): ReadonlyMap<string, readonly PlayingPart[]> {
    const playing = new Map<string, readonly PlayingPart[]>([...this.sounds].map(([id, s]) => [id, s.parts]));
    if (this.line) playing.set('line', [LINE_PART]);
    return playing;
  }

  /**
   * One 20 ms frame of the call's line, played right after the frame before it (after a gap, a
   * little ahead of now: frames come over the network).
   */
  lineFrame(samples: Int16Array, sampleRate: number): void {
    const context = this.audioContext();
    const buffer = context.createBuffer(1, samples.length, sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < samples.length; i++) data[i] = samples[i]! / 32768;
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(context.destination);
    const started = !this.line;
    const line = this.line ?? { nextAt: 0, nodes: new Set<AudioBufferSourceNode>() };
    this.line = line;
    const at = Math.max(line.nextAt, context.currentTime + LINE_AHEAD_S);
    source.start(at);
    line.nextAt = at + buffer.duration;
    line.nodes.add(source);
    source.onended = () => {
      line.nodes.delete(source);
      // The stretch played out.
      if (this.line === line && line.nodes.size === 0) {
        this.line = undefined;
        this.changed();
      }
    };
    if (started) this.changed();
  }

  /** Stops the line's audio at once (the bot cut it short, or the call is no longer heard). */
  lineFlush(): void {
    const line = this.line;
    if (!line) return;
    this.line = undefined;
    for (const node of line.nodes) node.stop();
    this.changed();
  }

  has(id: string): boolean {
    return this.sounds.has(id);
  }

  /** Starts a sound: its files in order, or its tone. */
  play(sound: CallSound): void {
    if (this.sounds.has(sound.id)) return;
    const entry = { parts: [] as PlayingPart[], nodes: [] as AudioScheduledSourceNode[] };
    this.sounds.set(sound.id, entry);
    if (sound.media.startsWith('tone:')) {
      const tone = toneOf(sound.media);
      entry.parts.push({ name: sound.media, format: 'tone', state: tone ? 'playing' : 'missing' });
      if (tone) entry.nodes.push(...this.tone(tone, this.audioContext().currentTime));
    } else if (sound.media.startsWith('moh:')) {
      entry.parts.push({ name: sound.media, format: 'music', state: 'playing' });
      entry.nodes.push(this.holdMusic(this.audioContext().currentTime));
    } else {
      for (const name of sound.files) entry.parts.push({ name, format: '', state: 'loading' });
      void this.schedule(sound, entry);
    }
    this.changed();
  }

  /** Stops a sound (the server stopped its playback, or the call is no longer selected). */
  stop(id: string): void {
    const entry = this.sounds.get(id);
    if (!entry) return;
    this.sounds.delete(id);
    for (const node of entry.nodes) node.stop();
    this.changed();
  }

  stopAll(): void {
    for (const id of [...this.sounds.keys()]) this.stop(id);
    this.lineFlush();
  }

  /** A key's DTMF pair, for 120 ms. */
  dtmf(key: string): void {
    const pair = DTMF[key.toUpperCase()];
    if (!pair) return;
    const context = this.audioContext();
    const start = context.currentTime;
    for (const node of this.oscillators(pair, TONE_LEVEL)) {
      node.start(start);
      node.stop(start + 0.12);
    }
  }

  /** A steady tone that stands for the caller's voice (the talk button's tone); returns its stopper. */
  voice(): () => void {
    const nodes = this.oscillators([220, 330], TONE_LEVEL / 2);
    for (const node of nodes) node.start();
    return () => {
      for (const node of nodes) node.stop();
    };
  }

  /** Whether the sounds are held (the simulated time is paused): nothing may start the context then. */
  held = false;

  /** Holds every sound where it is (the simulated time is paused), or lets them go on. */
  hold(held: boolean): void {
    this.held = held;
    if (!this.context) return;
    void (held ? this.context.suspend() : this.context.resume());
  }

  private async schedule(
    sound: CallSound,
    entry: { parts: PlayingPart[]; nodes: AudioScheduledSourceNode[] },
  ) {
    const context = this.audioContext();
    let at = context.currentTime;
    for (const part of entry.parts) {
      const buffer = await this.fetchSound(part, sound.language);
      // Stopped meanwhile: nothing more is scheduled.
      if (this.sounds.get(sound.id) !== entry) return;
      if (!buffer) {
        part.state = 'missing';
        this.changed();
        continue;
      }
      const source = context.createBufferSource();
      source.buffer = buffer;
      source.connect(context.destination);
      at = Math.max(at, context.currentTime);
      source.start(at);
      at += buffer.duration;
      entry.nodes.push(source);
      part.state = 'playing';
      this.changed();
    }
  }

  private async fetchSound(part: PlayingPart, language: string): Promise<AudioBuffer | undefined> {
    const query = new URLSearchParams({ name: part.name, lang: language });
    try {
      const response = await fetch(`api/sound?${query}`);
      if (!response.ok) return undefined;
      part.format = response.headers.get('x-sound-format') ?? '';
      const bytes = await response.arrayBuffer();
      const context = this.audioContext();
      if (part.format === 'wav') return await context.decodeAudioData(bytes);
      const decoded = decodeRawSound(new Uint8Array(bytes), part.format);
      if (!decoded || decoded.samples.length === 0) return undefined;
      const buffer = context.createBuffer(1, decoded.samples.length, decoded.sampleRate);
      buffer.copyToChannel(decoded.samples, 0);
      return buffer;
    } catch {
      return undefined;
    }
  }

  /** Oscillators at `frequencies`, summed at `level` to the speakers (not started). */
  private oscillators(frequencies: readonly number[], level: number, gain?: GainNode): OscillatorNode[] {
    const context = this.audioContext();
    const out = gain ?? context.createGain();
    if (!gain) {
      out.gain.value = level;
      out.connect(context.destination);
    }
    return frequencies.map((frequency) => {
      const oscillator = context.createOscillator();
      oscillator.frequency.value = frequency;
      oscillator.connect(out);
      return oscillator;
    });
  }

  /** Music on hold from `start`: the hold figure's notes, each faded in and out, looped. */
  private holdMusic(start: number): OscillatorNode {
    const context = this.audioContext();
    const gain = context.createGain();
    gain.connect(context.destination);
    gain.gain.setValueAtTime(0, start);
    const oscillator = context.createOscillator();
    oscillator.type = 'triangle';
    oscillator.connect(gain);
    const note = HOLD_NOTE_MS / 1000;
    const notes = Math.ceil(CADENCE_AHEAD_MS / HOLD_NOTE_MS);
    for (let i = 0; i < notes; i++) {
      const at = start + i * note;
      oscillator.frequency.setValueAtTime(HOLD_MUSIC[i % HOLD_MUSIC.length]!, at);
      gain.gain.setValueAtTime(0, at);
      gain.gain.linearRampToValueAtTime(TONE_LEVEL, at + 0.04);
      gain.gain.linearRampToValueAtTime(0, at + note - 0.02);
    }
    oscillator.start(start);
    return oscillator;
  }

  /** A call-progress tone from `start`, its cadence scheduled on its gain. */
  private tone(tone: Tone, start: number): OscillatorNode[] {
    const context = this.audioContext();
    const gain = context.createGain();
    gain.connect(context.destination);
    gain.gain.setValueAtTime(TONE_LEVEL, start);
    if (tone.cadence) {
      const [on, off] = tone.cadence;
      const cycles = Math.ceil(CADENCE_AHEAD_MS / (on + off));
      for (let i = 0; i < cycles; i++) {
        const cycle = start + (i * (on + off)) / 1000;
        gain.gain.setValueAtTime(TONE_LEVEL, cycle);
        gain.gain.setValueAtTime(0, cycle + on / 1000);
      }
    }
    const nodes = this.oscillators(tone.frequencies, TONE_LEVEL, gain);
    for (const node of nodes) node.start(start);
    return nodes;
  }
}
