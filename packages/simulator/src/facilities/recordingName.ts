/** Characters no recording name may hold: controls (NUL included), DEL and backslashes. */
function hasForbiddenCharacter(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return false;
}
/** Percent-encoded dot, slash, backslash, percent or NUL: traversal hidden from a single decode. */
const encodedTraversal = /%(2e|2f|5c|25|00)/i;
/** A UTF-16 half without its other half: file systems would store it as U+FFFD. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const maxNameBytes = 1024;
/** File names hold 255 bytes; leave room for the extension. */
const maxSegmentBytes = 240;

/**
 * Whether a stored recording name stays inside the recordings directory: a relative path of
 * non-empty segments (`sub/t2`), none of them `.` or `..`, without backslashes, control
 * characters, broken UTF-16 or percent-encoded dots and slashes, and short enough for any file
 * system.
 *
 * @example
 * isSafeRecordingName('sub/t2'); // true
 * isSafeRecordingName('../escape'); // false
 * isSafeRecordingName('%2e%2e/escape'); // false
 */
export function isSafeRecordingName(name: string | undefined): name is string {
  if (!name || Buffer.byteLength(name) > maxNameBytes || loneSurrogate.test(name)) return false;
  if (name.startsWith('/') || hasForbiddenCharacter(name) || encodedTraversal.test(name)) return false;
  return name
    .split('/')
    .every(
      (segment) =>
        segment !== '' &&
        segment !== '.' &&
        segment !== '..' &&
        Buffer.byteLength(segment) <= maxSegmentBytes,
    );
}
