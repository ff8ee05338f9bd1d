import type { EventConnection, SimResponse, SimulatedServer } from '@ringflow/simulator';

/** How many events the server handed to one event connection. */
export interface DeliveryCount {
  /** The applications of the connection, comma separated (`demo-app,plain-app`). */
  readonly apps: string;
  sent: number;
  /** Set once an event log took this count as its own. */
  claimed: boolean;
}

/**
 * Wraps a simulated server and counts the events it hands to each event connection. A test that
 * knows how many events were sent and how many arrived knows when nothing is in flight, which is
 * the moment it may let virtual time move on: no sleeping, and no event overtaken by a timer.
 *
 * @example
 * const counting = new CountingServer(createSimulator({ clock }));
 * const wire = await startWireServer(counting, { users, clock });
 */
export class CountingServer implements SimulatedServer {
  private readonly counts: DeliveryCount[] = [];

  constructor(private readonly inner: SimulatedServer) {}

  handle(request: Parameters<SimulatedServer['handle']>[0]): Promise<SimResponse> {
    return this.inner.handle(request);
  }

  connectEvents(
    request: Parameters<SimulatedServer['connectEvents']>[0],
    deliver: (event: Record<string, unknown>) => void,
  ): EventConnection | SimResponse {
    const count: DeliveryCount = { apps: request.apps.join(','), sent: 0, claimed: false };
    const result = this.inner.connectEvents(request, (event) => {
      count.sent += 1;
      deliver(event);
    });
    if ('close' in result) this.counts.push(count);
    return result;
  }

  /**
   * The count of the oldest connection for these applications that no log has taken yet. Both
   * transports connect to the server before the stream reports itself open, so an open stream
   * always finds its count here.
   */
  claim(apps: readonly string[]): DeliveryCount {
    const key = apps.join(',');
    const count = this.counts.find((c) => c.apps === key && !c.claimed);
    if (!count) throw new Error(`no event connection for '${key}' reached the server`);
    count.claimed = true;
    return count;
  }
}
