import type { RingflowError } from '../errors/index.ts';
import type { HandshakeRejectedError } from './HandshakeRejectedError.ts';
import type { MalformedFrameError } from './MalformedFrameError.ts';

/**
 * A time when no connection was open after one had been: events the server raised in between
 * were not received. Times come from the stream's Clock. The runtime re-lists channels and
 * bridges after a gap to catch up.
 */
export interface EventGap {
  /** When the previous connection was found lost. */
  readonly from: number;
  /** When the new connection opened. */
  readonly to: number;
  readonly durationMs: number;
  /** Connection attempts it took to come back. */
  readonly attempts: number;
}

/** Why a connection ended, when the stream did not end it on purpose. */
export type DisconnectReason =
  | { readonly kind: 'closed'; readonly code: number; readonly reason: string }
  | { readonly kind: 'rejected'; readonly status: number; readonly error: HandshakeRejectedError }
  | { readonly kind: 'error'; readonly error: RingflowError }
  | { readonly kind: 'pong-timeout'; readonly error: RingflowError }
  | { readonly kind: 'connect-timeout'; readonly error: RingflowError };

/**
 * Where the event stream stands. It starts `connecting`, is `open` while events flow, goes
 * `reconnecting` (waiting `delayMs` before attempt `attempt`) when a connection fails or drops,
 * back to `connecting`, and ends `closed` only when `close()` is called (or, with
 * `stopOnRejection`, when the server refuses the handshake).
 */
export type ConnectionState =
  | {
      readonly kind: 'connecting';
      /** 0 for the first connection, then the number of the retry. */
      readonly attempt: number;
      /** The URL, password hidden. */
      readonly url: string;
    }
  | {
      readonly kind: 'open';
      /** When this connection opened (Clock time). */
      readonly since: number;
      readonly url: string;
      /** How many times the stream came back after losing a connection. */
      readonly reconnects: number;
      /** Set on every open after the first: what was missed. */
      readonly gap?: EventGap;
    }
  | {
      readonly kind: 'reconnecting';
      /** The number of the coming retry: 1, 2, 3, ... */
      readonly attempt: number;
      readonly delayMs: number;
      /** When the retry will start (Clock time). */
      readonly retryAt: number;
      /** When the last open connection was lost; absent when none has opened yet. */
      readonly lostAt?: number;
      readonly reason: DisconnectReason;
    }
  | {
      readonly kind: 'closed';
      readonly at: number;
      /** `'user'`: close() was called. `'rejected'`: refused with `stopOnRejection` set. */
      readonly by: 'user' | 'rejected';
      readonly error?: HandshakeRejectedError;
    };

/**
 * Something went wrong that the stream handled by itself, reported so it can be logged or alerted
 * on. Every problem carries a RingflowError with a stable `code` and a message saying what to do.
 */
export type EventStreamProblem =
  | { readonly kind: 'malformed-frame'; readonly at: number; readonly error: MalformedFrameError }
  | { readonly kind: 'handshake-rejected'; readonly at: number; readonly error: HandshakeRejectedError }
  | { readonly kind: 'transport-error'; readonly at: number; readonly error: RingflowError }
  | { readonly kind: 'pong-timeout'; readonly at: number; readonly error: RingflowError }
  | { readonly kind: 'connect-timeout'; readonly at: number; readonly error: RingflowError };
