import { SimError } from '../SimError.ts';
import { createChannel } from './channelLifecycle.ts';
import type { SimChannel } from './SimChannel.ts';
import type { StasisEntry } from './StasisEntry.ts';
import { enterStasis } from './stasis.ts';
import type { World } from './World.ts';

/**
 * Creates a snoop channel on a channel, straight into an application. It accepts every channel
 * operation; once hung up it lingers until the channel it spies on is destroyed, as observed.
 */
export function createSnoop(
  world: World,
  target: SimChannel,
  request: { entry: StasisEntry; snoopId?: string },
): SimChannel {
  if (request.snoopId !== undefined && world.channels.has(request.snoopId)) {
    throw new SimError(409, 'Channel with given unique ID already exists');
  }
  const snoop = createChannel(world, {
    ...(request.snoopId ? { id: request.snoopId } : {}),
    name: `Snoop/${target.id}-${world.nextSequence('Snoop')}`,
    technology: 'Snoop',
    deviceName: `Snoop/${target.id}`,
    state: 'Up',
    context: 'default',
    exten: 's',
  });
  snoop.snoopTarget = target.id;
  target.snoopers ??= [];
  target.snoopers.push(snoop.id);
  snoop.setApp('Stasis', request.entry.appData);
  world.channelChanged(snoop);
  enterStasis(world, snoop, request.entry.app, request.entry.args);
  return snoop;
}
