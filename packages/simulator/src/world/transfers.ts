import { addToBridge, removeFromBridge } from './bridgeMembership.ts';
import { createChannel, hangupChannel } from './channelLifecycle.ts';
import type { SimChannel } from './SimChannel.ts';
import { startDialplan } from './startDialplan.ts';
import { enterStasis } from './stasis.ts';
import type { World } from './World.ts';

function otherInBridge(world: World, ch: SimChannel): SimChannel | undefined {
  const bridge = ch.bridgeId === undefined ? undefined : world.bridges.get(ch.bridgeId);
  const id = bridge?.channelIds.find((c) => c !== ch.id);
  return id === undefined ? undefined : world.channel(id);
}

/**
 * The caller on `transferer` blind-transfers its bridge to `exten@context`, as a phone's transfer
 * key does. Like the real server with an application's bridge: a Local pair is made, its `;1`
 * half takes the transferer's place in the bridge (StasisStart with `replace_channel`), its `;2`
 * half runs the dialplan at the target, BridgeBlindTransfer is raised and the transferer hangs up.
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
  const dialString = `${exten}@${context}`;
  const seq = world.nextLocalSequence();
  const common = { technology: 'Local', deviceName: `Local/${dialString}`, context, exten };
  const half1 = createChannel(world, { ...common, name: `Local/${dialString}-${seq};1`, state: 'Up' });
  const half2 = createChannel(world, { ...common, name: `Local/${dialString}-${seq};2`, state: 'Up' });
  half1.peer = half2;
  half2.peer = half1;
  half1.half = 1;
  half2.half = 2;
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
  const app = transferer.app;
  if (app !== undefined) {
    half1.setApp('Stasis', app);
    world.channelChanged(half1);
    enterStasis(world, half1, app, [], transferer);
  }
  removeFromBridge(world, transferer);
  addToBridge(world, bridge, half1, undefined);
  startDialplan(world, half2, { context, exten, priority: 1 }, true);
  hangupChannel(world, transferer, 16, 'remote');
  return half1;
}

/**
 * The caller holding two calls joins them, as an attended transfer does: the party of the second
 * call (`secondLeg`'s bridge peer) moves into the first call's bridge, BridgeAttendedTransfer is
 * raised, and both of the transferer's legs hang up.
 */
export function attendedTransfer(world: World, firstLeg: SimChannel, secondLeg: SimChannel): void {
  const firstBridge = firstLeg.bridgeId === undefined ? undefined : world.bridges.get(firstLeg.bridgeId);
  if (!firstBridge) throw new Error(`attendedTransfer: channel ${firstLeg.id} is not in a bridge`);
  const secondBridge = secondLeg.bridgeId === undefined ? undefined : world.bridges.get(secondLeg.bridgeId);
  const transferee = otherInBridge(world, firstLeg);
  const target = otherInBridge(world, secondLeg) ?? secondLeg.peer;
  const fields: Record<string, unknown> = {
    transferer_first_leg: firstLeg.snapshot(),
    transferer_second_leg: secondLeg.snapshot(),
    transferer_first_leg_bridge: firstBridge.toJson(),
    destination_type: 'bridge',
    destination_bridge: firstBridge.id,
    result: 'Success',
    is_external: true,
  };
  if (secondBridge) fields.transferer_second_leg_bridge = secondBridge.toJson();
  if (transferee) fields.transferee = transferee.snapshot();
  if (target) fields.transfer_target = target.snapshot();
  world.publish('BridgeAttendedTransfer', fields, {
    channels: [firstLeg, secondLeg, transferee, target],
    bridgeId: firstBridge.id,
  });
  if (target && target.app !== undefined) addToBridge(world, firstBridge, target, undefined);
  hangupChannel(world, secondLeg, 16, 'remote');
  hangupChannel(world, firstLeg, 16, 'remote');
}
