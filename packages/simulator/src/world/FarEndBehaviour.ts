import { type FarEndVoice, farEndVoiceProblem, isFarEndVoice, parseFarEndVoice } from './farEndVoice.ts';

/**
 * How the far end of a configured endpoint behaves when it is dialled:
 * - `'answer'`: answers after the simulator's answer delay (`answerOutboundAfterMs`);
 * - `{ answerAfterMs }`: answers after that many milliseconds of ringing;
 * - `'noAnswer'`: rings until the dial times out (or the driver answers or rejects it);
 * - `'busy'`, `'reject'`, `'unreachable'`: refuses as soon as it rings, with hangup cause 17
 *   (user busy), 21 (call rejected) or 27 (destination out of order);
 * - `{ machine: { greetingMs, beep } }`, `{ human: { saysMs } }`: answers, then talks as an
 *   answering machine or a person does (see {@link FarEndVoice}).
 */
export type FarEndBehaviour =
  | 'answer'
  | { readonly answerAfterMs: number }
  | FarEndVoice
  | 'noAnswer'
  | 'busy'
  | 'reject'
  | 'unreachable';

/** One behaviour, or one per successive call to the endpoint (the last one repeating). */
export type FarEndConfig = FarEndBehaviour | readonly FarEndBehaviour[];

/** The hangup cause of each refusal. */
export const REFUSAL_CAUSES = { busy: 17, reject: 21, unreachable: 27 } as const;

const NAMED = new Set(['answer', 'noAnswer', 'busy', 'reject', 'unreachable']);

/**
 * The behaviour of the `attempt`-th call (from 0) to an endpoint configured with `config`.
 *
 * @example
 * farEndForAttempt(['busy', 'answer'], 0); // 'busy'
 * farEndForAttempt(['busy', 'answer'], 5); // 'answer'
 */
export function farEndForAttempt(config: FarEndConfig, attempt: number): FarEndBehaviour {
  if (!Array.isArray(config)) return config as FarEndBehaviour;
  const list = config as readonly FarEndBehaviour[];
  return list[Math.min(attempt, list.length - 1)] ?? 'answer';
}

/**
 * Reads a behaviour written as text (command lines, scenario files): `answer`, `answer:<seconds>`
 * (`answer:2.5`), `noAnswer`, `busy`, `reject`, `unreachable`; several, comma separated, for
 * successive calls. Throws a TypeError saying what is accepted.
 *
 * @example
 * parseFarEndConfig('busy,answer:3'); // ['busy', { answerAfterMs: 3000 }]
 */
export function parseFarEndConfig(text: string): FarEndConfig {
  const list = text.split(',').map((part) => parseOne(part.trim()));
  return list.length === 1 ? list[0]! : list;
}

function parseOne(text: string): FarEndBehaviour {
  const timed = /^answer:(\d+(?:\.\d+)?)$/.exec(text);
  if (timed) return { answerAfterMs: Math.round(Number(timed[1]) * 1000) };
  const voice = parseFarEndVoice(text);
  if (voice) return voice;
  if (NAMED.has(text)) return text as FarEndBehaviour;
  throw new TypeError(
    `'${text}' is not a far-end behaviour: expected answer, answer:<seconds>, noAnswer, busy, reject, unreachable, machine:<greeting seconds>[:beep] or human:<seconds>`,
  );
}

/** Checks a behaviour given as a value (options of createSimulator); throws a TypeError if wrong. */
export function checkFarEndConfig(config: unknown, where: string): FarEndConfig {
  const one = (value: unknown): FarEndBehaviour => {
    if (typeof value === 'string' && NAMED.has(value)) return value as FarEndBehaviour;
    if (
      value !== null &&
      typeof value === 'object' &&
      'answerAfterMs' in value &&
      typeof value.answerAfterMs === 'number' &&
      value.answerAfterMs >= 0
    )
      return { answerAfterMs: value.answerAfterMs };
    if (isFarEndVoice(value)) {
      const problem = farEndVoiceProblem(value);
      if (problem === undefined) return value;
      throw new TypeError(`${where}: ${JSON.stringify(value)}: ${problem}`);
    }
    throw new TypeError(
      `${where}: ${JSON.stringify(value)} is not a far-end behaviour: expected 'answer', { answerAfterMs }, 'noAnswer', 'busy', 'reject', 'unreachable', { machine: { greetingMs, beep } } or { human: { saysMs } }`,
    );
  };
  if (Array.isArray(config)) {
    if (config.length === 0) throw new TypeError(`${where}: expected at least one behaviour`);
    return config.map(one);
  }
  return one(config);
}
