import type { CallQueue } from '../queue/CallQueue.ts';
import type { QueueSettings } from '../queue/QueueState.ts';
import type { Clock, RestClient } from '@ringflow/client';
import type { Logger } from 'pino';
import type { ServerInfo } from '../call/CallHandle.ts';
import type { RuntimeMetrics } from '../metrics/RuntimeMetrics.ts';
import type { SessionRouter } from './SessionRouter.ts';

/** A channel or bridge a cleanup request removes. */
export interface CleanupResource {
  readonly kind: 'channel' | 'bridge';
  readonly id: string;
}

/** What a session needs from the server link it lives on. */
export interface SessionHost {
  readonly server: ServerInfo;
  readonly client: RestClient;
  readonly clock: Clock;
  readonly router: SessionRouter;
  readonly metrics: RuntimeMetrics;
  readonly logger: Logger;
  /** A fresh id for a resource the session is about to create. */
  pickId(kind: string): string;
  /** The application's call queue `name` on this server (made with `settings` on first use). */
  queue(name: string, settings?: QueueSettings): CallQueue;
  /**
   * Runs a cleanup request after a session ended (hang up a channel, destroy a bridge, stop a
   * live recording), retried with a bounded backoff when no reply or a 5xx came; a 404 means
   * done. Failures are logged, never thrown; the request counts as pending until it settles. A
   * `resource` still on the server after the last attempt is removed again by the next
   * reconciliation.
   */
  cleanup(what: string, run: () => Promise<unknown>, resource?: CleanupResource): void;
  /** True while a cleanup of this process removes the channel or bridge (or will try again). */
  isBeingRemoved(kind: CleanupResource['kind'], id: string): boolean;
}
