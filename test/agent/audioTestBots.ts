import type { Clock } from '@ringflow/client';
import type { AudioBot, AudioRelayMessage } from '@ringflow/runtime';

/** slin16: 16 kHz, 640-byte frames of 20 ms. */
export const RATE = 16_000;
export const FRAME_BYTES = 640;

/** `ms` of a sine tone at `hz`, slin16 bytes. */
export function tone(hz: number, ms: number, amplitude = 8000): Uint8Array {
  const samples = Math.round((RATE * ms) / 1000);
  const bytes = new Uint8Array(samples * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples; i++)
    view.setInt16(i * 2, Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / RATE)), true);
  return bytes;
}

/** The main frequency of slin16 audio, from its zero crossings (0 for silence). */
export function pitchOf(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = bytes.byteLength >> 1;
  let crossings = 0;
  let previous = 0;
  for (let i = 0; i < n; i++) {
    const s = view.getInt16(i * 2, true);
    if (s !== 0 && previous !== 0 && Math.sign(s) !== Math.sign(previous)) crossings++;
    if (s !== 0) previous = s;
  }
  return n === 0 ? 0 : Math.round(crossings / 2 / (n / RATE) / 10) * 10;
}

/** What a test bot saw of ringflow. */
export interface BotLog {
  readonly told: AudioRelayMessage[];
  /** The byte length of every audio message ringflow sent. */
  readonly frames: number[];
  /** The pitch of the caller's audio (all of it). */
  callerPitch(): number;
}

function logOf(): BotLog & { audio: Uint8Array[] } {
  const told: AudioRelayMessage[] = [];
  const frames: number[] = [];
  const audio: Uint8Array[] = [];
  return {
    told,
    frames,
    audio,
    callerPitch: () => pitchOf(concat(audio)),
  };
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/**
 * An echo bot in virtual time: greets with a second of a 1000 Hz tone (mark `greeting`), then
 * plays back what the caller said once they paused for 300 ms (mark `echo`), and ends with
 * `handoff` when the echo has been heard.
 */
export function echoBot(clock: Clock): { bot: AudioBot; log: BotLog } {
  const log = logOf();
  const bot: AudioBot = (c) => {
    let utterance: Uint8Array[] = [];
    let gap: ReturnType<Clock['setTimeout']> | undefined;
    c.onMessage((m) => {
      log.told.push(m);
      if (m.type === 'setup') {
        c.sendAudio(tone(1000, 1000));
        c.send({ type: 'mark', name: 'greeting' });
      }
      if (m.type === 'mark' && m.name === 'echo' && m.played)
        c.send({ type: 'end', result: 'handoff', data: { reason: 'echoed', frames: log.frames.length } });
      if (m.type === 'key') c.send({ type: 'end', result: 'done', data: { key: m.digit } });
    });
    c.onAudio((frame) => {
      log.frames.push(frame.byteLength);
      log.audio.push(frame);
      utterance.push(frame);
      clock.clearTimeout(gap);
      gap = clock.setTimeout(() => {
        const echo = concat(utterance);
        utterance = [];
        for (let at = 0; at < echo.byteLength; at += 32_000) c.sendAudio(echo.subarray(at, at + 32_000));
        c.send({ type: 'mark', name: 'echo' });
      }, 300);
    });
  };
  return { bot, log };
}

/**
 * A bot that talks for 5 s (a 700 Hz tone) and clears its audio when it hears the caller (its own
 * barge-in); a key ends it with `done`.
 */
export function politeBot(): { bot: AudioBot; log: BotLog } {
  const log = logOf();
  const bot: AudioBot = (c) => {
    let cleared = false;
    c.onMessage((m) => {
      log.told.push(m);
      if (m.type === 'setup') {
        for (let i = 0; i < 5; i++) c.sendAudio(tone(700, 1000));
        c.send({ type: 'mark', name: 'speech' });
      }
      if (m.type === 'key') c.send({ type: 'end', result: 'done', data: { key: m.digit } });
    });
    c.onAudio((frame) => {
      log.frames.push(frame.byteLength);
      log.audio.push(frame);
      if (!cleared) {
        cleared = true;
        c.send({ type: 'clear' });
      }
    });
  };
  return { bot, log };
}

/** A bot that talks for 5 s (a 700 Hz tone) whatever happens, and sends nothing else. */
export function talkerBot(): { bot: AudioBot; log: BotLog } {
  const log = logOf();
  const bot: AudioBot = (c) => {
    c.onMessage((m) => {
      log.told.push(m);
      if (m.type === 'setup') for (let i = 0; i < 5; i++) c.sendAudio(tone(700, 1000));
    });
    c.onAudio((frame) => {
      log.frames.push(frame.byteLength);
      log.audio.push(frame);
    });
  };
  return { bot, log };
}
