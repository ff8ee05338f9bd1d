/**
 * Formats a time the way ARI servers write timestamps: UTC, milliseconds, and a `+0000` offset
 * without a colon (`2026-11-22T03:47:11.718+0000`), which `Date.toISOString` does not produce.
 *
 * @example
 * formatAriTimestamp(Date.UTC(2026, 10, 22, 3, 47, 11, 718)); // '2026-11-22T03:47:11.718+0000'
 */
export function formatAriTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString().replace('Z', '+0000');
}
