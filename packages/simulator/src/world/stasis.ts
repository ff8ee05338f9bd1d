import type { StasisExit } from '../dialplan/DialplanHost.ts';
import { stopChannelMedia } from './channelMedia.ts';
import { removeFromBridge } from './bridgeMembership.ts';
import type { SimChannel } from './SimChannel.ts';
import type { World } from './World.ts';

/**
 * Hands a channel to an application, as `Stasis(app,args)` does: STASISSTATUS is cleared, the
 * app is subscribed to the channel and receives StasisStart. When the app is not registered,
 * STASISSTATUS becomes FAILED and false is returned (the dialplan goes on).
 */
export function enterStasis(
  world: World,
  ch: SimChannel,
  appName: string,
  args: readonly string[],
  replaced?: SimChannel,
): boolean {
  world.setChannelVar(ch, 'STASISSTATUS', '');
  const app = world.bus.app(appName);
  if (!app) {
    world.setChannelVar(ch, 'STASISSTATUS', 'FAILED');
    return false;
  }
  ch.app = appName;
  if (!app.allChannels) app.channelIds.add(ch.id);
  const fields: Record<string, unknown> = { args: [...args], channel: ch.snapshot() };
  if (replaced) fields.replace_channel = replaced.snapshot();
  world.publish('StasisStart', fields, { app: appName });
  return true;
}

/**
 * Takes a channel out of its application: it leaves its bridge, its media stops, the app gets
 * StasisEnd and STASISSTATUS becomes SUCCESS. A dialplan waiting in Stasis() resumes with `exit`.
 */
export function leaveStasis(world: World, ch: SimChannel, exit: StasisExit, setStatus = true): void {
  if (ch.app === undefined) return;
  if (ch.bridgeId !== undefined) removeFromBridge(world, ch);
  stopChannelMedia(ch);
  const app = ch.app;
  ch.app = undefined;
  world.publish('StasisEnd', { channel: ch.snapshot() }, { app });
  if (setStatus) world.setChannelVar(ch, 'STASISSTATUS', 'SUCCESS');
  else ch.stasisStatusPending = true;
  const resume = ch.stasisExit;
  ch.stasisExit = undefined;
  resume?.(exit);
}

/**
 * `POST /channels/{id}/move`: the channel leaves its app and enters another. When the other app
 * is not registered, the current app receives ApplicationMoveFailed and keeps the channel.
 */
export function moveChannel(world: World, ch: SimChannel, appName: string, args: readonly string[]): void {
  const from = ch.app;
  if (from === undefined) return;
  const target = world.bus.app(appName);
  if (!target) {
    world.publish(
      'ApplicationMoveFailed',
      { destination: appName, args: [...args], channel: ch.snapshot() },
      { app: from },
    );
    return;
  }
  world.publish('StasisEnd', { channel: ch.snapshot() }, { app: from });
  // The app the channel leaves stops hearing about it (observed after moving back).
  world.bus.app(from)?.channelIds.delete(ch.id);
  ch.app = appName;
  if (!target.allChannels) target.channelIds.add(ch.id);
  world.publish('StasisStart', { args: [...args], channel: ch.snapshot() }, { app: appName });
}
