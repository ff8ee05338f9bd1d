import { addToBridge, removeFromBridge } from './bridgeMembership.ts';
import { createChannel, hangupChannel } from './channelLifecycle.ts';
import type { SimBridge } from './SimBridge.ts';
import type { SimChannel } from './SimChannel.ts';
import { startDialplan } from './startDialplan.ts';
import { enterStasis } from './stasis.ts';
import type { World } from './World.ts';

function otherInBridge(world: World, ch: SimChannel): SimChannel | undefined {
  const bridge = ch.bridgeId === undefined ? undefined : world.bridges.get(ch.bridgeId);
  const id = bridge?.channelIds.find((c) => c !== ch.id);
  return id === undefined ? undefined : world.channel(id);
}

/** A Local pair made by a transfer (`Local/<dialString>-<seq>;1` and `;2`), both up. */
function transferLocalPair(world: World, dialString: string, context: string, exten: string) {
  const seq = world.nextLocalSequence();
  const common = { technology: 'Local', deviceName: `Local/${dialString}`, context, exten };
  const half1 = createChannel(world, { ...common, name: `Local/${dialString}-${seq};1`, state: 'Up' });
  const half2 = createChannel(world, { ...common, name: `Local/${dialString}-${seq};2`, state: 'Up' });
  half1.peer = half2;
  half2.peer = half1;
  half1.half = 1;
  half2.half = 2;
  return { half1, half2 };
}

/**
 * A transfer first takes the transferer's bridged legs off hold, on hold or not: ChannelUnhold
 * every time (main/bridge.c calls ast_bridge_channel_write_unhold, which publishes it).
 */
function takeOffHold(world: World, leg: SimChannel): void {
  leg.held = false;
  world.publishChannel('ChannelUnhold', leg);
}

/**
 * `replacement` takes `replaced`'s place in its bridge, as the real server's impart with a swap
 * channel does: in an application's bridge it enters the application first, with StasisStart
 * carrying `replace_channel`.
 */
function swapInto(world: World, bridge: SimBridge, replaced: SimChannel, replacement: SimChannel): void {
  const app = replaced.app;
  if (app !== undefined) {
    replacement.setApp('Stasis', app);
    world.channelChanged(replacement);
    enterStasis(world, replacement, app, [], replaced);
  }
  removeFromBridge(world, replaced);
  addToBridge(world, bridge, replacement, undefined);
}

/**
 * The caller on `transferer` blind-transfers its bridge to `exten@context`, as a phone's transfer
 * key does. As the real server does with an application's bridge (they only allow transfers of
 * the whole bridge): the transferer is taken off hold (ChannelUnhold) and BLINDTRANSFER is set on
 * the bridge's channels, a Local pair is made, BridgeBlindTransfer is raised, its `;1` half takes
 * the transferer's place in the bridge (StasisStart with `replace_channel`, then the swap), its
 * `;2` half runs the dialplan at the target, and the transferer's phone hangs up.
 */
export function blindTransfer(
  world: World,
  transferer: SimChannel,
  exten: string,
  context: string,
): SimChannel {
  const bridge = transferer.bridgeId === undefined ? undefined : world.bridges.get(transferer.bridgeId);
  if (!bridge)
    throw new Error(
      `blindTransfer: channel ${transferer.id} is not in a bridge; a blind transfer moves a bridged call`,
    );
  const transferee = otherInBridge(world, transferer);
  takeOffHold(world, transferer);
  // BLINDTRANSFER on every channel of the bridge: the transferer's is its BRIDGEPEER (the others'
  // names), the others' the transferer's name (main/bridge.c set_blind_transfer_variables).
  const others = bridge.channelIds
    .filter((id) => id !== transferer.id)
    .map((id) => world.channel(id))
    .filter((ch): ch is SimChannel => ch !== undefined);
  world.setChannelVar(transferer, 'BLINDTRANSFER', others.map((ch) => ch.name).join(','));
  for (const other of others) world.setChannelVar(other, 'BLINDTRANSFER', transferer.name);
  const { half1, half2 } = transferLocalPair(world, `${exten}@${context}`, context, exten);
  const fields: Record<string, unknown> = {
    channel: transferer.snapshot(),
    bridge: bridge.toJson(),
    exten,
    context,
    result: 'Success',
    is_external: true,
    replace_channel: half1.snapshot(),
  };
  if (transferee) fields.transferee = transferee.snapshot();
  world.publish('BridgeBlindTransfer', fields, {
    channels: [transferer, transferee, half1],
    bridgeId: bridge.id,
  });
  swapInto(world, bridge, transferer, half1);
  startDialplan(world, half2, { context, exten, priority: 1 }, true);
  hangupChannel(world, transferer, 16, 'remote');
  return half1;
}

/**
 * The caller holding two calls joins them, as an attended transfer does. Both bridged (the
 * application's bridges, which forbid merging and swapping on a real server): a Local pair links
 * the two bridges, its `;1` half taking the first leg's place and its `;2` half the second leg's
 * (each a StasisStart with `replace_channel` in an application's bridge), BridgeAttendedTransfer
 * is raised with `destination_type` link, and both of the transferer's legs hang up. With the
 * second leg not bridged, the party of its call (its Local peer) moves into the first bridge.
 * Returns the channels that took the legs' places (none when the target was moved).
 */
export function attendedTransfer(
  world: World,
  firstLeg: SimChannel,
  secondLeg: SimChannel,
): { readonly firstLink?: SimChannel; readonly secondLink?: SimChannel } {
  const firstBridge = firstLeg.bridgeId === undefined ? undefined : world.bridges.get(firstLeg.bridgeId);
  if (!firstBridge) throw new Error(`attendedTransfer: channel ${firstLeg.id} is not in a bridge`);
  const secondBridge = secondLeg.bridgeId === undefined ? undefined : world.bridges.get(secondLeg.bridgeId);
  const transferee = otherInBridge(world, firstLeg);
  const target = otherInBridge(world, secondLeg) ?? secondLeg.peer;
  takeOffHold(world, firstLeg);
  if (secondBridge) takeOffHold(world, secondLeg);
  const fields: Record<string, unknown> = {
    transferer_first_leg: firstLeg.snapshot(),
    transferer_second_leg: secondLeg.snapshot(),
    transferer_first_leg_bridge: firstBridge.toJson(),
    result: 'Success',
    is_external: true,
  };
  if (secondBridge) fields.transferer_second_leg_bridge = secondBridge.toJson();
  if (transferee) fields.transferee = transferee.snapshot();
  if (target) fields.transfer_target = target.snapshot();
  if (secondBridge) {
    const { half1, half2 } = transferLocalPair(world, '_attended@transfer/m', 'transfer', '_attended');
    swapInto(world, secondBridge, secondLeg, half2);
    swapInto(world, firstBridge, firstLeg, half1);
    world.publish(
      'BridgeAttendedTransfer',
      {
        ...fields,
        destination_type: 'link',
        destination_link_first_leg: half1.snapshot(),
        destination_link_second_leg: half2.snapshot(),
      },
      { channels: [firstLeg, secondLeg, transferee, target, half1, half2], bridgeId: firstBridge.id },
    );
    hangupChannel(world, secondLeg, 16, 'remote');
    hangupChannel(world, firstLeg, 16, 'remote');
    return { firstLink: half1, secondLink: half2 };
  }
  world.publish(
    'BridgeAttendedTransfer',
    { ...fields, destination_type: 'bridge', destination_bridge: firstBridge.id },
    { channels: [firstLeg, secondLeg, transferee, target], bridgeId: firstBridge.id },
  );
  if (target && target.app !== undefined) addToBridge(world, firstBridge, target, undefined);
  hangupChannel(world, secondLeg, 16, 'remote');
  hangupChannel(world, firstLeg, 16, 'remote');
  return {};
}
