import type { SimChannel } from './SimChannel.ts';
import type { World } from './World.ts';

/** A DTMF digit reaches a channel: ChannelDtmfReceived, and a recording waiting for it ends. */
export function receiveDtmf(world: World, ch: SimChannel, digit: string, durationMs: number): void {
  if (ch.destroyed) return;
  world.publishChannel('ChannelDtmfReceived', ch, { digit, duration_ms: durationMs });
  if (ch.recordingName !== undefined) world.recordings.get(ch.recordingName)?.dtmf(digit);
}

export interface DtmfTiming {
  readonly beforeMs: number;
  readonly betweenMs: number;
  readonly durationMs: number;
}

/**
 * Plays digits over time on the clock: `before`, then each digit lasting `duration`, with
 * `between` between digits. Each digit is delivered when it ends (as a receiver reports it).
 * One timer runs while digits remain; none afterwards.
 */
export function playDigits(
  world: World,
  digits: string,
  timing: DtmfTiming,
  deliver: (digit: string, durationMs: number) => void,
): void {
  const list = [...digits].filter((d) => /[0-9A-Da-d*#]/.test(d));
  let index = 0;
  const next = (delay: number) => {
    world.clock.setTimeout(() => {
      const digit = list[index++];
      if (digit === undefined) return;
      deliver(digit.toUpperCase(), timing.durationMs);
      if (index < list.length) next(timing.betweenMs + timing.durationMs);
    }, delay);
  };
  if (list.length > 0) next(timing.beforeMs + timing.durationMs);
}

/**
 * `POST /channels/{id}/dtmf`: on a Local channel the digits arrive on the other half; on a
 * channel to an endpoint they leave the server (the test driver sees them).
 */
export function sendDtmf(world: World, ch: SimChannel, digits: string, timing: DtmfTiming): void {
  const peer = ch.peer;
  if (peer) {
    playDigits(world, digits, timing, (digit, ms) => receiveDtmf(world, peer, digit, ms));
    return;
  }
  playDigits(world, digits, timing, (digit, ms) =>
    world.services.outbound('dtmf', { channelId: ch.id, digit, durationMs: ms }),
  );
}
