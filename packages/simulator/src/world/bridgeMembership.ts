import { reviewAudio } from './audioFlow.ts';
import { LiveRecording } from './LiveRecording.ts';
import type { SimBridge } from './SimBridge.ts';
import type { SimChannel } from './SimChannel.ts';
import { SimPlayback } from './SimPlayback.ts';
import type { World } from './World.ts';

function membershipScope(bridge: SimBridge, ch: SimChannel) {
  return { bridgeId: bridge.id, channels: [ch] };
}

/**
 * Puts a channel into a bridge (ChannelEnteredBridge). A channel already in a bridge leaves it
 * first, even when it is the same bridge, as the real server does. The channel's application
 * is subscribed to the bridge.
 */
export function addToBridge(world: World, bridge: SimBridge, ch: SimChannel, role: string | undefined): void {
  if (ch.bridgeId !== undefined) removeFromBridge(world, ch);
  bridge.channelIds.push(ch.id);
  ch.bridgeId = bridge.id;
  ch.bridgeRole = role;
  const app = ch.app === undefined ? undefined : world.bus.app(ch.app);
  if (app && !app.allBridges) app.bridgeIds.add(bridge.id);
  world.publish(
    'ChannelEnteredBridge',
    { bridge: bridge.toJson(), channel: ch.snapshot() },
    membershipScope(bridge, ch),
  );
  reviewAudio(world, ch, bridge);
}

/** Takes a channel out of its bridge (ChannelLeftBridge). */
export function removeFromBridge(world: World, ch: SimChannel): void {
  const bridge = ch.bridgeId === undefined ? undefined : world.bridges.get(ch.bridgeId);
  ch.bridgeId = undefined;
  ch.bridgeRole = undefined;
  if (!bridge) return;
  const index = bridge.channelIds.indexOf(ch.id);
  if (index >= 0) bridge.channelIds.splice(index, 1);
  world.publish(
    'ChannelLeftBridge',
    { bridge: bridge.toJson(), channel: ch.snapshot() },
    membershipScope(bridge, ch),
  );
  reviewAudio(world, ch, bridge);
}

/** Destroys a bridge: its channels leave, its media ends, BridgeDestroyed is raised. */
export function destroyBridge(world: World, bridge: SimBridge): void {
  for (const id of [...bridge.channelIds]) {
    const ch = world.channel(id);
    if (ch) removeFromBridge(world, ch);
  }
  for (const job of [...(bridge.mediaQueue ?? []), ...(bridge.recorder.mediaQueue ?? [])].reverse()) {
    if (job instanceof SimPlayback) job.stop();
    else if (job instanceof LiveRecording) job.fail('Bridge destroyed');
  }
  world.bridges.delete(bridge.id);
  world.publish('BridgeDestroyed', { bridge: bridge.toJson() }, { bridgeId: bridge.id });
  for (const app of world.bus.activeApps()) app.bridgeIds.delete(bridge.id);
}
