/**
 * Numbers of the media socket protocol (chan_websocket), as recorded from a real server and
 * defined in its source.
 */

/** How control messages are written on a connection: chosen per call with `transport_data=f(json)`. */
export type MediaControlFormat = 'plain-text' | 'json';

/** Control text longer than this gets no reply at all (the server only logs). */
export const MAX_CONTROL_TEXT_BYTES = 128;

/** The largest binary message the server takes; a larger one closes the connection with 1009. */
export const MAX_MEDIA_MESSAGE_BYTES = 65535;

/** The server sends MEDIA_XOFF when its playout queue reaches this many frames... */
export const XOFF_LEVEL = 900;
/** ...and MEDIA_XON once it is below this again. */
export const XON_LEVEL = 800;
/** A message arriving while this many frames are queued is dropped without notice. */
export const QUEUE_LIMIT = 1000;
