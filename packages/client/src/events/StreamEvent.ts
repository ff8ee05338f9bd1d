import type { AriEvent, AriMessage } from '../generated/types.ts';

/**
 * An event whose `type` this client does not know (a newer server, a module we do not describe).
 * It is delivered unchanged, with every field the server sent.
 */
export interface UnknownEvent {
  type: string;
  asterisk_id?: string;
  application?: string;
  timestamp?: string;
  [field: string]: unknown;
}

/** Anything the event stream delivers: a message of a known type, or an unknown one passed through. */
export type StreamEvent = AriMessage | UnknownEvent;

/** Names of the message types the description knows (`StasisStart`, ..., `MissingParams`). */
export type KnownMessageType = AriMessage['type'];

/** The known message of a given type: `EventOfType<'StasisStart'>` is the `StasisStart` interface. */
export type EventOfType<T extends KnownMessageType> = Extract<AriMessage, { type: T }>;

export type { AriEvent, AriMessage };
