import type { Clock, RestClient } from '@ringflow/client';
import type { Logger } from 'pino';
import type { ServerInfo } from '../call/CallHandle.ts';
import type { RuntimeMetrics } from '../metrics/RuntimeMetrics.ts';
import type { SessionRouter } from './SessionRouter.ts';

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
  /**
   * Runs a best-effort request after a session ended (hang up a leftover channel, destroy a bridge).
   * Failures are logged, never thrown; the request counts as pending until it settles.
   */
  cleanup(what: string, run: () => Promise<unknown>): void;
}
