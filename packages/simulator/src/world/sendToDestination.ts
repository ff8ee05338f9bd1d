import type { ResolvedLocation } from '../dialplan/Dialplan.ts';
import type { SimChannel } from './SimChannel.ts';
import type { StasisEntry } from './StasisEntry.ts';
import { startDialplan } from './startDialplan.ts';
import { enterStasis } from './stasis.ts';
import type { World } from './World.ts';

/** Where an originated channel goes once answered: an application (with its `Stasis()` data), or a dialplan location. */
export type Destination = StasisEntry | ResolvedLocation;

/**
 * Sends a channel to its destination. Into an application, the snapshot shows
 * `Stasis(app,args)` at the channel's current location, as the real server's originate does.
 */
export function sendToDestination(world: World, ch: SimChannel, destination: Destination): void {
  if ('app' in destination) {
    ch.setApp('Stasis', destination.appData);
    world.channelChanged(ch);
    enterStasis(world, ch, destination.app, destination.args);
    return;
  }
  startDialplan(world, ch, destination, false);
}
