import type { DialplanLocation } from '../dialplan/Dialplan.ts';
import { runDialplan } from '../dialplan/runDialplan.ts';
import { ChannelDialplanHost } from './ChannelDialplanHost.ts';
import { finishIfIdle, hangupChannel } from './channelLifecycle.ts';
import type { SimChannel } from './SimChannel.ts';
import type { World } from './World.ts';

/**
 * Runs the dialplan for a channel from a location (a new call, an answered originate, a
 * continue from Stasis). When the dialplan ends the channel hangs up and is destroyed.
 */
export function startDialplan(
  world: World,
  ch: SimChannel,
  location: DialplanLocation,
  newChannel: boolean,
): void {
  ch.inDialplan = true;
  void runDialplan(new ChannelDialplanHost(world, ch), location, { newChannel }).then(
    (end) => {
      ch.inDialplan = false;
      if (!ch.hangingUp) hangupChannel(world, ch, end.cause ?? 16, 'dialplan');
      else finishIfIdle(world, ch);
    },
    (error: unknown) => {
      ch.inDialplan = false;
      world.log(
        'error',
        `Dialplan of ${ch.name} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      if (!ch.hangingUp) hangupChannel(world, ch, 0, 'dialplan');
      else finishIfIdle(world, ch);
    },
  );
}
