import { SimError } from '../SimError.ts';
import { addToBridge, destroyBridge, removeFromBridge } from '../world/bridgeMembership.ts';
import { BRIDGE_ATTRIBUTES, SimBridge } from '../world/SimBridge.ts';
import type { SimChannel } from '../world/SimChannel.ts';
import { startPlayback, startRecording } from '../world/startMedia.ts';
import {
  bool,
  containers,
  created,
  type HandlerContext,
  type HandlerTable,
  list,
  NO_CONTENT,
  num,
  ok,
  optStr,
  str,
} from './HandlerContext.ts';

function findBridge({ world, params }: HandlerContext): SimBridge {
  const bridge = world.bridges.get(str(params, 'bridgeId'));
  if (!bridge) throw new SimError(404, 'Bridge not found');
  return bridge;
}

/** Parses `type=mixing,dtmf_events`; unknown or conflicting attributes fail as on the real server (500). */
function parseType(text: string | undefined, id: string | undefined): Set<string> {
  const attributes = new Set(
    (text ?? 'mixing')
      .split(',')
      .map((a) => a.trim())
      .filter((a) => a !== ''),
  );
  const known =
    attributes.size > 0 && [...attributes].every((a) => (BRIDGE_ATTRIBUTES as readonly string[]).includes(a));
  if (!known || (attributes.has('mixing') && attributes.has('holding'))) {
    throw new SimError(500, `Unable to create bridge. Possible duplicate bridge id '${id ?? '(null)'}'`);
  }
  if (!attributes.has('holding')) attributes.add('mixing');
  return attributes;
}

function create(ctx: HandlerContext, bridgeId: string | undefined) {
  const { world, params } = ctx;
  const attributes = parseType(optStr(params, 'type'), bridgeId);
  if (bridgeId !== undefined && world.bridges.has(bridgeId)) {
    throw new SimError(409, `Bridge with id '${bridgeId}' already exists`);
  }
  const id = bridgeId ?? world.newUniqueId().replace('.', '-');
  const bridge = new SimBridge(id, optStr(params, 'name') ?? '', attributes, 'Stasis', world.now());
  for (const [name, value] of Object.entries(containers(params, 'variables'))) {
    bridge.vars ??= new Map();
    bridge.vars.set(name, String(value));
  }
  world.bridges.set(id, bridge);
  world.publish('BridgeCreated', { bridge: bridge.toJson() }, { bridgeId: id });
  return ok(bridge.toJson());
}

/** The channels named by `channel=`, refused as the real server does when one does not exist or is not controllable. */
function channelsOf(ctx: HandlerContext): SimChannel[] {
  return list(ctx.params, 'channel').map((id) => {
    const ch = ctx.world.channel(id);
    if (!ch || ch.hangingUp) throw new SimError(400, 'Channel not found');
    if (ch.app === undefined) throw new SimError(422, 'Channel not in Stasis application');
    return ch;
  });
}

function play(ctx: HandlerContext, playbackId: string | undefined) {
  const bridge = findBridge(ctx);
  return created(
    startPlayback(ctx.world, bridge, {
      media: list(ctx.params, 'media'),
      ...(playbackId ? { playbackId } : {}),
      language: optStr(ctx.params, 'lang') ?? 'en',
      skipMs: num(ctx.params, 'skipms', 3000),
    }),
  );
}

/** Handlers of `/bridges`. */
export const bridgesHandlers: HandlerTable = {
  list: ({ world }) => ok([...world.bridges.values()].map((b) => b.toJson())),
  create: (ctx) => create(ctx, optStr(ctx.params, 'bridgeId')),
  createWithId: (ctx) => create(ctx, str(ctx.params, 'bridgeId')),
  get: (ctx) => ok(findBridge(ctx).toJson()),

  destroy: (ctx) => {
    destroyBridge(ctx.world, findBridge(ctx));
    return NO_CONTENT;
  },

  addChannel: (ctx) => {
    const bridge = findBridge(ctx);
    const channels = channelsOf(ctx);
    // Rule checks run before any change: one recording channel refuses the whole request.
    for (const ch of channels) {
      if (ch.recordingName !== undefined) throw new SimError(409, `Channel ${ch.id} currently recording`);
    }
    for (const ch of channels) addToBridge(ctx.world, bridge, ch, optStr(ctx.params, 'role'));
    return NO_CONTENT;
  },

  removeChannel: (ctx) => {
    const bridge = findBridge(ctx);
    const channels = channelsOf(ctx);
    for (const ch of channels)
      if (ch.bridgeId !== bridge.id) throw new SimError(422, 'Channel not in this bridge');
    for (const ch of channels) removeFromBridge(ctx.world, ch);
    return NO_CONTENT;
  },

  setVideoSource: (ctx) => {
    const bridge = findBridge(ctx);
    const ch = ctx.world.channel(str(ctx.params, 'channelId'));
    if (!ch) throw new SimError(400, 'Channel not found');
    if (ch.bridgeId !== bridge.id) throw new SimError(422, 'Channel not in this bridge');
    const old = bridge.videoSourceId;
    bridge.videoMode = 'single';
    bridge.videoSourceId = ch.id;
    const fields: Record<string, unknown> = { bridge: bridge.toJson() };
    if (old !== undefined) fields.old_video_source_id = old;
    ctx.world.publish('BridgeVideoSourceChanged', fields, { bridgeId: bridge.id });
    return NO_CONTENT;
  },

  clearVideoSource: (ctx) => {
    const bridge = findBridge(ctx);
    const old = bridge.videoSourceId;
    bridge.videoMode = 'talker';
    bridge.videoSourceId = undefined;
    const fields: Record<string, unknown> = { bridge: bridge.toJson() };
    if (old !== undefined) fields.old_video_source_id = old;
    ctx.world.publish('BridgeVideoSourceChanged', fields, { bridgeId: bridge.id });
    return NO_CONTENT;
  },

  startMoh: (ctx) => {
    findBridge(ctx).mohClass = optStr(ctx.params, 'mohClass') ?? 'default';
    return NO_CONTENT;
  },

  stopMoh: (ctx) => {
    const bridge = findBridge(ctx);
    if (bridge.mohClass === undefined) throw new SimError(409, "Bridge isn't playing music");
    bridge.mohClass = undefined;
    return NO_CONTENT;
  },

  play: (ctx) => play(ctx, optStr(ctx.params, 'playbackId')),
  playWithId: (ctx) => play(ctx, str(ctx.params, 'playbackId')),

  record: (ctx) => {
    const bridge = findBridge(ctx);
    const { params } = ctx;
    return created(
      startRecording(ctx.world, bridge.recorder, {
        name: str(params, 'name'),
        format: str(params, 'format'),
        maxDurationSeconds: num(params, 'maxDurationSeconds', 0),
        maxSilenceSeconds: num(params, 'maxSilenceSeconds', 0),
        ifExists: str(params, 'ifExists'),
        beep: bool(params, 'beep'),
        terminateOn: str(params, 'terminateOn'),
      }),
    );
  },

  getBridgeVar: (ctx) => {
    const value = findBridge(ctx).vars?.get(str(ctx.params, 'variable'));
    if (value === undefined) throw new SimError(404, 'Provided variable was not found');
    return ok({ value });
  },

  setBridgeVar: (ctx) => {
    const bridge = findBridge(ctx);
    const name = str(ctx.params, 'variable');
    const value = str(ctx.params, 'value');
    bridge.vars ??= new Map();
    if (value === '') bridge.vars.delete(name);
    else bridge.vars.set(name, value);
    return NO_CONTENT;
  },

  getBridgeVars: (ctx) => {
    const bridge = findBridge(ctx);
    const variables: Record<string, string> = {};
    for (const name of list(ctx.params, 'variables')) {
      const value = bridge.vars?.get(name);
      if (value === undefined) throw new SimError(404, 'Provided variable was not found');
      variables[name] = value;
    }
    return ok({ variables });
  },

  setBridgeVars: (ctx) => {
    const bridge = findBridge(ctx);
    bridge.vars ??= new Map();
    for (const [name, value] of Object.entries(containers(ctx.params, 'variables'))) {
      bridge.vars.set(name, typeof value === 'string' ? value : JSON.stringify(value));
    }
    return NO_CONTENT;
  },
};
