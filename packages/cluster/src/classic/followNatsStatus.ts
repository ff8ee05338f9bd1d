import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';

/**
 * Says when NATS goes and comes back, and calls `reconnected` each time it is back (the holder
 * tells the workers to reconcile, the feed checks its consumer). Ends when `stopped()` says so
 * at the next status, or when the connection closes.
 */
export async function followNatsStatus(
  connection: NatsConnection,
  reconnected: () => void,
  stopped: () => boolean,
  logger: Logger,
): Promise<void> {
  for await (const status of connection.status()) {
    if (stopped()) return;
    if (status.type === 'disconnect') logger.warn('NATS connection lost; reconnecting');
    else if (status.type === 'reconnect') {
      logger.info('NATS connection back');
      reconnected();
    }
  }
}
