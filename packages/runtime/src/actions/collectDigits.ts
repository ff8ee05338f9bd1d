import type { CallHandle } from '../call/CallHandle.ts';
import { linkSignals } from '../call/linkSignals.ts';
import { type DigitEntryRules, nextKeyWithinMs, pressKey } from '../behaviours/digitEntry.ts';
import { callActor, type WithCall } from './callActor.ts';

/** Input of {@link collectDigits}. */
export interface CollectDigitsInput extends WithCall {
  /** Stop after this many digits. Default 1. */
  readonly maxDigits?: number;
  /** Digits that end the entry early (not included in the result). Default `#`. */
  readonly terminators?: string;
  /** How long to wait for the first digit. Default 5000 ms. */
  readonly firstDigitTimeoutMs?: number;
  /** How long to wait for each next digit. Default 3000 ms. */
  readonly interDigitTimeoutMs?: number;
  /** Forget digits pressed before this step started. Default false (type-ahead is kept). */
  readonly discardTypeAhead?: boolean;
}

/** Output of {@link collectDigits}. */
export interface CollectDigitsOutput {
  readonly digits: string;
  /** `complete`: maxDigits reached; `terminator`: a terminator was pressed; `timeout`: the caller stopped typing (or never started). */
  readonly reason: 'complete' | 'terminator' | 'timeout';
}

/** Waits for a digit in the buffer; false when `timeoutMs` passed first (on the call's clock). */
async function digitWithin(call: CallHandle, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
  const wait = linkSignals(signal);
  let timedOut = false;
  const timer = call.setTimer(() => {
    timedOut = true;
    wait.abort();
  }, timeoutMs);
  try {
    await call.digits.whenDigit(wait.signal);
    return true;
  } catch (error) {
    if (timedOut && !signal.aborted) return false;
    throw error;
  } finally {
    call.clearTimer(timer);
    wait.dispose();
  }
}

/**
 * Collects DTMF digits from the call's type-ahead buffer (so digits that stopped a prompt count),
 * with first-digit and inter-digit timeouts on the call's clock.
 *
 * @example
 * menu: {
 *   invoke: {
 *     src: 'collectDigits',
 *     input: ({ context }) => ({ call: context.call, maxDigits: 4, terminators: '#' }),
 *     onDone: { target: 'route', actions: assign({ pin: ({ event }) => event.output.digits }) },
 *   },
 * }
 */
export const collectDigits = callActor(
  // No scope of its own: each wait for a digit releases its waiter and its timer itself.
  async (input: CollectDigitsInput, signal): Promise<CollectDigitsOutput> => {
    const { call } = input;
    const rules: DigitEntryRules = {
      maxDigits: input.maxDigits ?? 1,
      terminators: input.terminators ?? '#',
      firstDigitTimeoutMs: input.firstDigitTimeoutMs ?? 5000,
      interDigitTimeoutMs: input.interDigitTimeoutMs ?? 3000,
    };
    if (input.discardTypeAhead) call.digits.clear();
    let digits = '';
    for (;;) {
      for (let key = call.digits.take(); key !== undefined; key = call.digits.take()) {
        const verdict = pressKey(rules, digits, key);
        if (verdict.kind === 'terminator') return { digits, reason: 'terminator' };
        digits = verdict.digits;
        if (verdict.kind === 'complete') return { digits, reason: 'complete' };
      }
      if (!(await digitWithin(call, nextKeyWithinMs(rules, digits), signal)))
        return { digits, reason: 'timeout' };
    }
  },
);
