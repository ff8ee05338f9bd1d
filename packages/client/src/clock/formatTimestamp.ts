/** The last time formatted and its text: many events share a millisecond (one per event otherwise). */
let lastMs = Number.NaN;
let lastText = '';

/**
 * Formats a time the way ARI servers write timestamps in events and replies: UTC, milliseconds,
 * and a `+0000` offset without a colon, which `Date.toISOString` does not produce.
 *
 * @example
 * formatTimestamp(Date.UTC(2026, 10, 22, 3, 47, 11, 718)) // '2026-11-22T03:47:11.718+0000'
 */
export function formatTimestamp(ms: number): string {
  // Events come in bursts within one millisecond (a hangup raises ~5): format each millisecond once.
  if (ms !== lastMs) {
    lastText = `${new Date(ms).toISOString().slice(0, 23)}+0000`;
    lastMs = ms;
  }
  return lastText;
}
