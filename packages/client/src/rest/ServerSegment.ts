/**
 * The path segment of the server-level resource: `asterisk` on real servers, `core` in the
 * specification. `auto` asks the server once (see {@link detectServerSegment}).
 */
export type ServerSegment = 'asterisk' | 'core';

/** The `segment` option of the REST client. */
export type ServerSegmentOption = ServerSegment | 'auto';
