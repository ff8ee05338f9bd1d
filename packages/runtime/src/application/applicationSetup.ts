import { type Clock, ErrorCode, RingflowError } from '@ringflow/client';
import type { Logger } from 'pino';
import type { RuntimeMetrics } from '../metrics/RuntimeMetrics.ts';
import type { QueueDirectory } from '../queue/QueueDirectory.ts';
import type { SessionRouter } from '../session/SessionRouter.ts';
import { CleanupRetry } from './CleanupRetry.ts';
import type { ApplicationOptions } from './ApplicationOptions.ts';
import { ServerLink, type ServerLinkContext } from './ServerLink.ts';

const DEFAULT_LEFTOVER_SWEEP_MS = 10_000;

/** How many rounds (recoveries, sweeps) try to remove a leftover before it is given up. */
const LEFTOVER_ROUNDS = 5;

/**
 * The application names of `options`, checked along with the rest of what an application cannot
 * start without (a server or `listen`, a name, a usable `leftoverSweepMs`): a CONFIG error names
 * the option and how to fix it.
 */
export function checkApplicationOptions(options: ApplicationOptions): {
  readonly apps: readonly string[];
  readonly leftoverSweepMs: number;
} {
  if ((!options.servers || options.servers.length === 0) && !options.listen) {
    throw new RingflowError(
      ErrorCode.CONFIG,
      "options.servers is empty: give at least one server, e.g. servers: [{ url: 'http://127.0.0.1:8088/ari', username, password }], or listen for servers that dial the application (listen: { port: 8765 }).",
    );
  }
  const apps = typeof options.apps === 'string' ? [options.apps] : [...options.apps];
  if (apps.length === 0) {
    throw new RingflowError(
      ErrorCode.CONFIG,
      "options.apps is empty: give the application name(s), e.g. apps: ['ivr'].",
    );
  }
  const leftoverSweepMs = options.leftoverSweepMs ?? DEFAULT_LEFTOVER_SWEEP_MS;
  if (!(leftoverSweepMs >= 0) || !Number.isFinite(leftoverSweepMs)) {
    throw new RingflowError(
      ErrorCode.CONFIG,
      `options.leftoverSweepMs is ${String(leftoverSweepMs)}: give milliseconds, 0 or more (0: remove leftovers only after gaps).`,
    );
  }
  return { apps, leftoverSweepMs };
}

/** One link per server of `options.servers`, each with a name of its own (else a CONFIG error). */
export function linksOf(options: ApplicationOptions, context: ServerLinkContext): ServerLink[] {
  const names = new Set<string>();
  return options.servers.map((server, index) => {
    const link = new ServerLink(server, context);
    if (names.has(link.name)) {
      throw new RingflowError(
        ErrorCode.CONFIG,
        `options.servers[${index}].name "${link.name}" is used twice: give each server its own name.`,
      );
    }
    names.add(link.name);
    return link;
  });
}

/** What every link of the application shares (see {@link ServerLinkContext}). */
export function linkContextOf(
  options: ApplicationOptions,
  parts: {
    readonly apps: readonly string[];
    readonly router: SessionRouter;
    readonly metrics: RuntimeMetrics;
    readonly logger: Logger;
    readonly queues: QueueDirectory;
    readonly clock: Clock;
  },
  ids: () => string,
): ServerLinkContext {
  return {
    apps: parts.apps,
    subscribeAll: options.subscribeAll ?? false,
    clock: parts.clock,
    router: parts.router,
    metrics: parts.metrics,
    logger: parts.logger,
    pickId: (kind) => `${kind}-${ids()}`,
    cleanupRetry: new CleanupRetry(options.cleanupRetry),
    leftoverRounds: LEFTOVER_ROUNDS,
    queues: parts.queues,
  };
}
