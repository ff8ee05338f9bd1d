import type { SimChannel } from './SimChannel.ts';
import type { World } from './World.ts';

/** A channel offered to applications by `StasisBroadcast()`, until its Stasis session ends. */
interface BroadcastOffer {
  winner: string | undefined;
  /** Applications told of the claim (CallClaimed); empty unless `notify_claimed`. */
  readonly notify: readonly string[];
  /** Wakes the waiting dialplan once claimed. */
  claimed?: (app: string) => void;
}

/** The offers of each simulator (kept beside the world, which knows nothing of broadcasts). */
const offersOf = new WeakMap<World, Map<string, BroadcastOffer>>();

function offers(world: World): Map<string, BroadcastOffer> {
  let map = offersOf.get(world);
  if (!map) {
    map = new Map();
    offersOf.set(world, map);
  }
  return map;
}

export interface BroadcastRequest {
  readonly timeoutMs: number;
  /** Regular expression on application names; undefined: every application. */
  readonly filter: string | undefined;
  /** Send CallClaimed to the offered applications once claimed. */
  readonly notifyClaimed: boolean;
}

/**
 * Offers a channel to every registered application (or those the filter matches) with a
 * `CallBroadcast` event and waits up to `timeoutMs` (the simulator's clock) for the first
 * `POST /events/claim`. Resolves with the winning application, undefined when nobody claimed it
 * in time, or `hungup`. The offer stays (claimed) until {@link endBroadcast}, so later claimants
 * get 409 while the winner has the call, and 404 after, as on a real server.
 */
export function broadcastChannel(
  world: World,
  ch: SimChannel,
  request: BroadcastRequest,
): Promise<string | undefined | 'hungup'> {
  let pattern: RegExp | undefined;
  if (request.filter) {
    try {
      pattern = new RegExp(request.filter);
    } catch {
      world.log(
        'warning',
        `StasisBroadcast: invalid app_filter '${request.filter}'; offering to every application`,
      );
    }
  }
  const apps = world.bus
    .activeApps()
    .map((a) => a.name)
    .filter((name) => !pattern || pattern.test(name));
  const offer: BroadcastOffer = { winner: undefined, notify: request.notifyClaimed ? apps : [] };
  offers(world).set(ch.id, offer);
  const variables: Record<string, string> = {};
  for (const [name, value] of ch.vars ?? []) {
    if (!name.startsWith('_') && name !== 'BROADCAST_WINNER') variables[name] = value;
  }
  const fields = { channel: ch.snapshot(), caller: ch.callerNumber, called: ch.exten, variables };
  for (const app of apps) world.publish('CallBroadcast', fields, { app });
  return new Promise((resolve) => {
    const timer = world.clock.setTimeout(() => {
      offer.claimed = undefined;
      ch.wake = undefined;
      resolve(undefined);
    }, request.timeoutMs);
    offer.claimed = (app) => {
      world.clock.clearTimeout(timer);
      ch.wake = undefined;
      resolve(app);
    };
    ch.wake = () => {
      world.clock.clearTimeout(timer);
      offer.claimed = undefined;
      resolve('hungup');
    };
  });
}

/**
 * `POST /events/claim`: the first application to claim an offered channel wins (BROADCAST_WINNER
 * is set, CallClaimed sent when asked for); later claims are `taken` (409); a channel not on
 * offer is `not-found` (404).
 */
export function claimBroadcast(
  world: World,
  channelId: string,
  app: string,
): 'claimed' | 'taken' | 'not-found' {
  const offer = offers(world).get(channelId);
  if (!offer) return 'not-found';
  if (offer.winner !== undefined) return 'taken';
  offer.winner = app;
  const ch = world.channel(channelId);
  if (ch) {
    world.setChannelVar(ch, 'BROADCAST_WINNER', app);
    for (const to of offer.notify)
      world.publish('CallClaimed', { channel: ch.snapshot(), winner_app: app }, { app: to });
  }
  offer.claimed?.(app);
  return 'claimed';
}

/** Withdraws a channel's offer (no winner in time, or the winner's Stasis session ended). */
export function endBroadcast(world: World, channelId: string): void {
  offers(world).delete(channelId);
}
