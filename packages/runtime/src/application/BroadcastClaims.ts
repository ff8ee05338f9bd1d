import { type CallBroadcast, HttpError, type RestClient } from '@ringflow/client';
import type { Logger } from 'pino';

/**
 * How an application answers calls a server offers with `StasisBroadcast()`: it claims one only
 * while it has room, so identical processes listening for the same applications share calls
 * without a broker (a full process lets the offer go to another; the first claim wins, the others
 * get 409).
 *
 * @example createApplication({ ..., claimBroadcasts: { maxCalls: 50 } })
 */
export interface BroadcastClaimOptions {
  /** Claim only while fewer calls than this are active or being claimed. Default: no limit. */
  readonly maxCalls?: number;
}

/**
 * Claims offered calls (CallBroadcast) while the application has room. A claim won is counted
 * until its call starts (its StasisStart may come after the claim's answer), so a burst of offers
 * never claims more than the room left.
 */
export class BroadcastClaims {
  /** Channels claimed (or being claimed) whose session has not started yet. */
  private readonly reserved = new Set<string>();
  private readonly maxCalls: number;

  constructor(
    options: BroadcastClaimOptions,
    private readonly activeCalls: () => number,
  ) {
    this.maxCalls = options.maxCalls ?? Number.POSITIVE_INFINITY;
  }

  /** A call was offered to `event.application`: claims it if there is room. */
  async offered(client: RestClient, event: CallBroadcast, logger: Logger): Promise<void> {
    const channelId = event.channel.id;
    const application = event.application;
    if (this.reserved.has(channelId)) return;
    if (this.activeCalls() + this.reserved.size >= this.maxCalls) {
      logger.debug({ call: channelId, maxCalls: this.maxCalls }, 'call offered, not claimed: no room');
      return;
    }
    this.reserved.add(channelId);
    try {
      await client.events.claimChannel({ channelId, application });
      logger.debug({ call: channelId, app: application }, 'offered call claimed');
    } catch (error) {
      this.reserved.delete(channelId);
      if (error instanceof HttpError && (error.status === 409 || error.status === 404)) {
        logger.debug({ call: channelId, status: error.status }, 'offered call taken by another application');
      } else {
        logger.warn({ err: error, call: channelId }, 'claiming an offered call failed');
      }
    }
  }

  /** A call started (or ended before starting): it no longer holds a reservation. */
  settled(channelId: string): void {
    this.reserved.delete(channelId);
  }

  /** Channels claimed whose call has not started yet. */
  get pending(): number {
    return this.reserved.size;
  }
}
