import type { NatsConnection } from '@nats-io/transport-node';

/**
 * Whether a process's NATS connection is up, followed from the connection's own status
 * (`disconnect`, `reconnect`, closed): for readiness probes. A process in cluster mode that lost
 * NATS writes no call record and cannot take calls over; its `/readyz` says so, with the reason.
 *
 * @example
 * const health = NatsHealth.follow(store.connection);
 * health.problem; // undefined, or 'cluster: the NATS connection is lost (reconnecting)'
 */
export class NatsHealth {
  #state: 'up' | 'reconnecting' | 'closed' = 'up';

  private constructor(connection: NatsConnection) {
    void this.#follow(connection);
    connection.closed().then(
      () => {
        this.#state = 'closed';
      },
      () => {
        this.#state = 'closed';
      },
    );
  }

  /** Starts following `connection` (connected now). */
  static follow(connection: NatsConnection): NatsHealth {
    return new NatsHealth(connection);
  }

  /** Why the connection is not usable now, or undefined when it is. */
  get problem(): string | undefined {
    if (this.#state === 'reconnecting') return 'cluster: the NATS connection is lost (reconnecting)';
    if (this.#state === 'closed') return 'cluster: the NATS connection is closed';
    return undefined;
  }

  async #follow(connection: NatsConnection): Promise<void> {
    for await (const status of connection.status()) {
      if (this.#state === 'closed') return;
      if (status.type === 'disconnect' || status.type === 'reconnecting') this.#state = 'reconnecting';
      else if (status.type === 'reconnect') this.#state = 'up';
    }
  }
}
