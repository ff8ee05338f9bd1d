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

/** An offer this process saw: enough to claim it later. */
interface Offer {
  readonly client: RestClient;
  readonly channelId: string;
  readonly application: string;
  readonly logger: Logger;
}

/** Offers passed over for lack of room, kept to try when room frees (newest first). */
const MAX_SKIPPED = 64;

/**
 * Claims offered calls (CallBroadcast) while the application has room. A claim won is counted
 * until its call starts (its StasisStart may come after the claim's answer), so a burst of offers
 * never claims more than the room left. Offers passed over for lack of room are tried again,
 * newest first, when room frees (a claim lost to another process, a call ended): the server
 * answers 404 for those no longer on offer.
 */
export class BroadcastClaims {
  /** Channels claimed (or being claimed) whose session has not started yet. */
  private readonly reserved = new Set<string>();
  private readonly skipped: Offer[] = [];
  private readonly maxCalls: number;

  constructor(
    options: BroadcastClaimOptions,
    private readonly activeCalls: () => number,
  ) {
    this.maxCalls = options.maxCalls ?? Number.POSITIVE_INFINITY;
  }

  /** A call was offered to `event.application`: claims it if there is room. */
  offered(client: RestClient, event: CallBroadcast, logger: Logger): void {
    const offer = { client, channelId: event.channel.id, application: event.application, logger };
    if (this.reserved.has(offer.channelId)) return;
    if (!this.hasRoom()) {
      logger.debug({ call: offer.channelId, maxCalls: this.maxCalls }, 'call offered, not claimed: no room');
      this.skipped.push(offer);
      if (this.skipped.length > MAX_SKIPPED) this.skipped.shift();
      return;
    }
    void this.claim(offer);
  }

  /** A call started: it no longer holds a reservation. */
  settled(channelId: string): void {
    this.reserved.delete(channelId);
  }

  /** A call ended: offers passed over may be claimed now. */
  roomFreed(): void {
    while (this.hasRoom() && this.skipped.length > 0) void this.claim(this.skipped.pop()!);
  }

  /** Channels claimed whose call has not started yet. */
  get pending(): number {
    return this.reserved.size;
  }

  private hasRoom(): boolean {
    return this.activeCalls() + this.reserved.size < this.maxCalls;
  }

  private async claim(offer: Offer): Promise<void> {
    const { client, channelId, application, logger } = offer;
    if (this.reserved.has(channelId)) return;
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
      this.roomFreed();
    }
  }
}
