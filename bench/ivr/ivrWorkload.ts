/**
 * The IVR call every application in the benchmark handles, and the knobs the load generator and
 * the applications share: answer, play prompt 1 (a digit pressed while it plays stops it),
 * collect 1 digit, play prompt 2, hang up. Four REST requests and 22 events per call when the
 * caller presses the key after prompt 1 has ended, which is what the load generator does: the
 * real server's recorded bench call (`test/simulator/fixtures/bench-ivr-call.jsonl`).
 *
 * Simulated media is short (a few milliseconds) so the benchmark measures software, not the
 * length of prompts: with real-length prompts every implementation would finish the same number
 * of calls per second.
 */
export const IVR_APP = 'bench-ivr';
export const BENCH_USER = { username: 'bench', password: 'bench' } as const;

export const PROMPT_1_SOUND = 'bench-prompt1';
export const PROMPT_2_SOUND = 'bench-prompt2';
export const PROMPT_1 = `sound:${PROMPT_1_SOUND}`;
export const PROMPT_2 = `sound:${PROMPT_2_SOUND}`;
/** How long each prompt plays on the simulator's clock (`npm run bench -- --prompt-ms` changes it). */
export const PROMPT_MS = 1;
/** The prompts as the simulator's sound catalogue lists them, each `promptMs` long. */
export function promptSounds(promptMs: number): readonly { id: string; durationMs: number }[] {
  return [
    { id: PROMPT_1_SOUND, durationMs: promptMs },
    { id: PROMPT_2_SOUND, durationMs: promptMs },
  ];
}
/** The prompts as the simulator's sound catalogue lists them (`createSimulator({ sounds: { extraSounds } })`). */
export const PROMPT_SOUNDS = promptSounds(PROMPT_MS);

/**
 * The application the ;2 half of each call enters from the dialplan (`stasis-ivr,s`:
 * `Stasis(demo-app)`), where the load generator answers it, as in the real-server recording.
 */
export const CALLED_HALF_APP = 'demo-app';

/**
 * What the caller presses (one key, as in the real-server recording), and how long each key is
 * held (the digit arrives when released).
 */
export const CALLER_DIGITS = '1';
export const DIGIT_MS = 5;
export const MAX_DIGITS = CALLER_DIGITS.length;

/**
 * First-digit and inter-digit timeouts of the applications. Long, because while the bench holds
 * every call at the digit prompt to weigh it (memory per concurrent call), nobody presses keys.
 */
export const DIGIT_TIMEOUT_MS = 120_000;
