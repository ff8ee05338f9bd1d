/**
 * The shape of a server that can be reached without sockets: the simulator's `SimulatedServer`
 * boundary, restated here structurally so the runtime does not depend on the simulator package.
 */

export interface InProcessRequest {
  readonly method: string;
  /** Path below the interface root (`/channels/c1/answer`), percent-encoded as on the wire. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

export interface InProcessResponse {
  readonly status: number;
  readonly body?: unknown;
  readonly binary?: { readonly contentType: string; readonly data: Uint8Array };
  readonly headers?: Readonly<Record<string, string>>;
}

export interface InProcessEventConnection {
  close(): void;
}

/** A server reachable in process, such as `createSimulator(...)`. */
export interface InProcessServer {
  handle(request: InProcessRequest): Promise<InProcessResponse>;
  connectEvents(
    request: { readonly apps: readonly string[]; readonly subscribeAll: boolean },
    deliver: (event: Record<string, unknown>) => void,
  ): InProcessEventConnection | InProcessResponse;
}
