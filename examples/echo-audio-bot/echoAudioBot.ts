import { type Clock, systemClock, type TimerHandle } from '@ringflow/client';
import type { AudioBot } from '@ringflow/runtime';

/** slin16, as `setup.media` says: 16 kHz, 16-bit little-endian samples. */
const RATE = 16_000;
/** Mean absolute sample above which a frame is the caller talking (a line is never quite silent). */
const VOICE_LEVEL = 300;

export interface EchoAudioBotOptions {
  /** Timers (the caller's pause); default the system clock. Tests give a virtual one. */
  readonly clock?: Clock;
  /** The caller has stopped once they were quiet this long (ms). Default 700. */
  readonly pauseMs?: number;
  /** After this many echoes heard, the bot hands the caller over. Default 2. */
  readonly echoes?: number;
}

/**
 * The echo bot as a bot module: a scenario file names this file (`bot: ./echoAudioBot.ts`) and
 * gets this export, called with the scenario's virtual clock (the rule of bot modules: `audioBot`
 * is an audio bot, a function given `{ clock }` that returns an `AudioBot`).
 */
export const audioBot = ({ clock }: { readonly clock: Clock }): AudioBot => echoAudioBot({ clock });

/** `ms` of a sine tone, slin16 bytes. */
export function beep(hz: number, ms: number, amplitude = 6000): Uint8Array {
  const n = Math.round((RATE * ms) / 1000);
  const bytes = new Uint8Array(n * 2);
  const view = new DataView(bytes.buffer);
  // A 10 ms fade at both ends: no click.
  const fade = RATE / 100;
  for (let i = 0; i < n; i++) {
    const envelope = Math.min(1, i / fade, (n - 1 - i) / fade);
    view.setInt16(i * 2, Math.round(amplitude * envelope * Math.sin((2 * Math.PI * hz * i) / RATE)), true);
  }
  return bytes;
}

function voiced(frame: Uint8Array): boolean {
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  let sum = 0;
  const n = frame.byteLength >> 1;
  for (let i = 0; i < n; i++) sum += Math.abs(view.getInt16(i * 2, true));
  return n > 0 && sum / n >= VOICE_LEVEL;
}

/** Sends audio in messages the protocol allows (at most 65535 bytes; 1 s of slin16 is 32000). */
function sendInPieces(send: (data: Uint8Array) => void, audio: Uint8Array): void {
  for (let at = 0; at < audio.byteLength; at += 32_000) send(audio.subarray(at, at + 32_000));
}

/**
 * An echo bot of the audio protocol (no speech recognition, no language model): the classic test
 * bot of a voice line. It beeps twice when the call is set up (880 Hz: "ready"), then plays back
 * what the caller said each time they pause, and hands the caller over (`end` with `handoff`)
 * once `echoes` echoes have been heard. The caller talking over an echo stops it (the bot's own
 * barge-in: `clear`). `#` hands over at once, `*` ends with `done`.
 *
 * @example const served = await serveAudioBot(echoAudioBot(), { port: 9200, path: '/echo' });
 */
export function echoAudioBot(options: EchoAudioBotOptions = {}): AudioBot {
  const clock = options.clock ?? systemClock;
  const pauseMs = options.pauseMs ?? 700;
  const echoes = options.echoes ?? 2;
  return (c) => {
    let utterance: Uint8Array[] = [];
    let talking = false;
    let heard = 0;
    let echoing: string | undefined;
    let pause: TimerHandle | undefined;
    let over = false;
    const end = (result: 'handoff' | 'done', data: Record<string, unknown>) => {
      if (over) return;
      over = true;
      clock.clearTimeout(pause);
      c.send({ type: 'end', result, data });
    };
    const echo = () => {
      const audio = new Uint8Array(utterance.reduce((n, f) => n + f.byteLength, 0));
      let at = 0;
      for (const frame of utterance) {
        audio.set(frame, at);
        at += frame.byteLength;
      }
      utterance = [];
      talking = false;
      echoing = `echo-${heard + 1}`;
      sendInPieces((d) => c.sendAudio(d), audio);
      c.send({ type: 'mark', name: echoing });
    };
    c.onMessage((m) => {
      if (over) return;
      switch (m.type) {
        case 'setup':
          c.sendAudio(beep(880, 150));
          c.sendAudio(new Uint8Array(RATE / 10)); // 50 ms of silence
          c.sendAudio(beep(880, 150));
          c.send({ type: 'mark', name: 'ready' });
          return;
        case 'mark':
          if (m.name !== echoing) return;
          echoing = undefined;
          if (m.played && ++heard >= echoes) end('handoff', { reason: 'echoed', echoes: heard });
          return;
        case 'key':
          if (m.digit === '#') end('handoff', { reason: 'asked', echoes: heard });
          if (m.digit === '*') end('done', { echoes: heard });
          return;
        case 'hangup':
          over = true;
          clock.clearTimeout(pause);
          return;
        default:
          return;
      }
    });
    c.onAudio((frame) => {
      if (over) return;
      const voice = voiced(frame);
      if (!voice && !talking) return;
      if (voice && !talking) {
        talking = true;
        if (echoing !== undefined) c.send({ type: 'clear' }); // the caller talks over the echo
      }
      utterance.push(frame);
      if (!voice) return;
      clock.clearTimeout(pause);
      pause = clock.setTimeout(echo, pauseMs);
    });
    c.onClose(() => clock.clearTimeout(pause));
  };
}
