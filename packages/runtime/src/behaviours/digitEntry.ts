/**
 * The rules of collecting DTMF digits, in one place for the runtime's `collectDigits` call actor
 * and the flow language's `gather` step (each feeds it keys its own way: the call's type-ahead
 * buffer, or the machine's `ChannelDtmfReceived` events). Plain functions over plain data: what
 * a step has collected so far is a string it keeps where it keeps its state (a promise's local, a
 * flow's step scratch), so both persist with the call.
 */

/** How an entry is collected. */
export interface DigitEntryRules {
  /** The entry is complete with this many digits (at least 1). */
  readonly maxDigits: number;
  /** Keys that end the entry early; not part of the digits. Empty: none. */
  readonly terminators: string;
  /** Keys accepted as digits; any other (not a terminator) ends the entry as invalid. Default: all. */
  readonly validDigits?: string;
  /** How long to wait for the first digit, then for each next one (ms). */
  readonly firstDigitTimeoutMs: number;
  readonly interDigitTimeoutMs: number;
}

/**
 * What a key does to an entry holding `digits`:
 * - `more`: added; wait for the next (`digits` is the entry with it);
 * - `complete`: added, and the entry has `maxDigits`;
 * - `terminator`: the entry ends as it was;
 * - `invalid`: a key outside `validDigits` ends it (`digits` includes the key, to say what was pressed).
 */
export interface KeyVerdict {
  readonly kind: 'more' | 'complete' | 'terminator' | 'invalid';
  readonly digits: string;
}

/** Applies one key to the entry so far. Terminators are checked first, then validity, then length. */
export function pressKey(rules: DigitEntryRules, digits: string, key: string): KeyVerdict {
  if (rules.terminators.includes(key)) return { kind: 'terminator', digits };
  const next = digits + key;
  if (rules.validDigits !== undefined && !rules.validDigits.includes(key))
    return { kind: 'invalid', digits: next };
  return { kind: next.length >= rules.maxDigits ? 'complete' : 'more', digits: next };
}

/** How long to wait for the next key of an entry holding `digits`. */
export function nextKeyWithinMs(rules: DigitEntryRules, digits: string): number {
  return digits.length === 0 ? rules.firstDigitTimeoutMs : rules.interDigitTimeoutMs;
}
