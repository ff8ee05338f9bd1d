import type { Application } from './createApplication.ts';

/** Options of {@link installShutdownHandlers}. */
export interface ShutdownOptions {
  /** How long active calls may go on after the signal; then they are hung up. */
  readonly deadlineMs: number;
  /** The signals that start the shutdown. Default `['SIGTERM', 'SIGINT']`. */
  readonly signals?: readonly NodeJS.Signals[];
  /** Ends the process; default `process.exit`. Tests and embedding hosts pass their own. */
  readonly exit?: (code: number) => void;
}

/**
 * Makes the process stop the way an orchestrator expects: on SIGTERM (or SIGINT) the application
 * stops taking calls, lets active calls finish until `deadlineMs`, hangs up the ones left, closes
 * its connections and exits with code 0 (1 if the shutdown itself failed). A second signal while
 * draining exits at once with code 1, for an operator who does not want to wait.
 * Returns a function that removes the handlers.
 *
 * @example
 * const app = createApplication({ servers, apps: ['ivr'], call: ivrMachine });
 * await app.start();
 * installShutdownHandlers(app, { deadlineMs: 30_000 }); // kubectl delete pod: calls get 30 s to end
 */
export function installShutdownHandlers(app: Application, options: ShutdownOptions): () => void {
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let shuttingDown = false;

  const onSignal = (signal: NodeJS.Signals) => {
    if (shuttingDown) {
      app.logger.warn({ signal }, 'second signal while draining: exiting now');
      exit(1);
      return;
    }
    shuttingDown = true;
    app.logger.info(
      { signal, deadlineMs: options.deadlineMs, activeCalls: app.activeCalls().length },
      'shutdown requested: draining calls',
    );
    app
      .drain({ deadlineMs: options.deadlineMs })
      .then(() => app.stop())
      .then(
        () => {
          app.logger.info({ signal }, 'shutdown complete');
          exit(0);
        },
        (error: unknown) => {
          app.logger.error({ err: error }, 'shutdown failed');
          exit(1);
        },
      );
  };

  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}
