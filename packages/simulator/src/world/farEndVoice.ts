import { reviewAudio } from './audioFlow.ts';
import type { SimChannel } from './SimChannel.ts';
import type { World } from './World.ts';

/**
 * What the far end of an outbound call says once it answered, for answering-machine detection:
 * - `{ machine: { greetingMs, beep } }`: an answering machine plays a greeting of that length,
 *   then (with `beep`) a short beep, then records in silence;
 * - `{ human: { saysMs } }`: a person says something that long ("hello?") and waits.
 * Either may answer after `answerAfterMs` of ringing (default: the simulator's answer delay).
 */
export type FarEndVoice =
  | {
      readonly machine: {
        readonly greetingMs: number;
        readonly beep?: boolean;
        readonly answerAfterMs?: number;
      };
    }
  | { readonly human: { readonly saysMs: number; readonly answerAfterMs?: number } };

/**
 * When sound starts after the answer, how long the gap between a greeting and its beep is, and how
 * long the beep lasts (a typical answering machine's figures).
 */
export const VOICE_TIMING = {
  humanPickupMs: 300,
  machinePickupMs: 500,
  beepGapMs: 600,
  beepMs: 400,
} as const;

/** True for a far-end behaviour that talks after answering. */
export function isFarEndVoice(value: unknown): value is FarEndVoice {
  return typeof value === 'object' && value !== null && ('machine' in value || 'human' in value);
}

/** How long a talking far end rings before it answers (undefined: the simulator's default). */
export function voiceAnswerAfterMs(voice: FarEndVoice): number | undefined {
  return 'machine' in voice ? voice.machine.answerAfterMs : voice.human.answerAfterMs;
}

/** The stretches of sound the far end makes after the answer: [start, end) in ms from the answer. */
export function voiceTimeline(voice: FarEndVoice): readonly (readonly [number, number])[] {
  if ('human' in voice) {
    const start = VOICE_TIMING.humanPickupMs;
    return [[start, start + voice.human.saysMs]];
  }
  const start = VOICE_TIMING.machinePickupMs;
  const greetingEnd = start + voice.machine.greetingMs;
  if (!voice.machine.beep) return [[start, greetingEnd]];
  const beep = greetingEnd + VOICE_TIMING.beepGapMs;
  return [
    [start, greetingEnd],
    [beep, beep + VOICE_TIMING.beepMs],
  ];
}

/**
 * The answered far end `leg` talks as `voice` says, on the simulator's clock: its sound starts
 * and stops as the driver's `startTalking`/`stopTalking` would (talk detection, recordings, AMD()
 * and whoever hears the channel follow it). Nothing more happens once the channel is gone.
 */
export function speakAfterAnswer(world: World, leg: SimChannel, voice: FarEndVoice): void {
  for (const [start, end] of voiceTimeline(voice)) {
    world.clock.setTimeout(() => setTalking(world, leg, true), start);
    world.clock.setTimeout(() => setTalking(world, leg, false), end);
  }
}

function setTalking(world: World, ch: SimChannel, talking: boolean): void {
  if (ch.hangingUp || ch.destroyed) return;
  if (talking === (ch.talkingSince !== undefined)) return;
  ch.talkingSince = talking ? world.clock.now() : undefined;
  reviewAudio(world, ch);
}

/**
 * Reads a talking far end written as text: `machine:<greeting seconds>` with `:beep` for a beep
 * (`machine:4:beep`), `human:<seconds>` (`human:1`). Undefined when the text is not one.
 *
 * @example parseFarEndVoice('machine:4:beep'); // { machine: { greetingMs: 4000, beep: true } }
 */
export function parseFarEndVoice(text: string): FarEndVoice | undefined {
  const machine = /^machine:(\d+(?:\.\d+)?)(:beep)?$/.exec(text);
  if (machine) return { machine: { greetingMs: Math.round(Number(machine[1]) * 1000), beep: !!machine[2] } };
  const human = /^human:(\d+(?:\.\d+)?)$/.exec(text);
  if (human) return { human: { saysMs: Math.round(Number(human[1]) * 1000) } };
  return undefined;
}

/** Checks a talking far end given as a value; a message saying what is wrong, or undefined when right. */
export function farEndVoiceProblem(value: FarEndVoice): string | undefined {
  const ms = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  const optionalMs = (n: unknown) => n === undefined || ms(n);
  if ('machine' in value) {
    const m = value.machine as Record<string, unknown> | null;
    if (!m || !ms(m.greetingMs)) return 'machine needs greetingMs, a number of milliseconds';
    if (m.beep !== undefined && typeof m.beep !== 'boolean') return 'machine.beep must be true or false';
    if (!optionalMs(m.answerAfterMs)) return 'machine.answerAfterMs must be a number of milliseconds';
    return undefined;
  }
  const h = value.human as Record<string, unknown> | null;
  if (!h || !ms(h.saysMs)) return 'human needs saysMs, a number of milliseconds';
  if (!optionalMs(h.answerAfterMs)) return 'human.answerAfterMs must be a number of milliseconds';
  return undefined;
}
