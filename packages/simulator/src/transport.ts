/**
 * The boundary between the simulated server (the world and its rules) and the ways of reaching it:
 * in process (tests call `handle` directly) or over the wire (node http + ws translate to and from
 * these shapes). Everything a real server decides — routing, parameter checks, status codes, error
 * bodies, events — is decided behind this boundary, so both transports behave the same.
 */

import type { PublishedServerResource } from '@ringflow/client';

/** A REST request as the server sees it, after the transport removed the interface root (`/ari`). */
export interface SimRequest {
  readonly method: string;
  /** Path below the interface root, without query: `/channels/abc/answer`. Not decoded. */
  readonly path: string;
  /** Query parameters, decoded. Repeated keys keep the last value, as the real server does. */
  readonly query: Readonly<Record<string, string>>;
  /** The JSON body, parsed; `undefined` when there was none. */
  readonly body?: unknown;
  /** Set when a body was sent but is not valid JSON (the server answers 400). */
  readonly bodyParseError?: boolean;
}

/** A REST response. `body` is serialised as JSON; `binary` is sent as is (recording files). */
export interface SimResponse {
  readonly status: number;
  readonly body?: unknown;
  readonly binary?: { readonly contentType: string; readonly data: Uint8Array };
  readonly headers?: Readonly<Record<string, string>>;
}

/** What an event-stream connection asks for: one or more applications, optionally all events. */
export interface EventConnectionRequest {
  readonly apps: readonly string[];
  readonly subscribeAll: boolean;
}

/** A live event-stream connection; `close` unregisters its applications (as a socket close does). */
export interface EventConnection {
  close(): void;
}

/**
 * The server behind both transports.
 */
export interface SimulatedServer {
  /**
   * The name its published description gives the server-level resource: `core` (the
   * specification's, and the default) or `asterisk` (a real server's). Both path forms are served.
   */
  readonly serverResource?: PublishedServerResource;
  /** Answers one REST request. */
  handle(request: SimRequest): Promise<SimResponse>;
  /**
   * Opens an event stream for applications. Each event is passed to `deliver` as a plain JSON
   * object, already carrying `type`, `timestamp`, `application` and `asterisk_id`.
   * Returns an error response instead when the request is invalid (no application: 400).
   */
  connectEvents(
    request: EventConnectionRequest,
    deliver: (event: Record<string, unknown>) => void,
  ): EventConnection | SimResponse;
}
