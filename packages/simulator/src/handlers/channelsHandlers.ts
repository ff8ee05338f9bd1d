import { findModel } from '@ringflow/client';
import { resolveContinueTarget } from '../dialplan/resolveContinueTarget.ts';
import { SimError } from '../SimError.ts';
import { announceDial, answerChannel, dialFields, hangupChannel } from '../world/channelLifecycle.ts';
import { parseFunctionName, readChannelFunction, writeChannelFunction } from '../world/channelFunctions.ts';
import { otherMediaStarts } from '../world/channelMedia.ts';
import { mediaSocketsOf } from '../media/MediaSockets.ts';
import { sendDtmf } from '../world/dtmf.ts';
import { hangupReasonCauses } from '../world/hangupCauses.ts';
import { createForDial, dialCreated, type OriginateRequest, originate } from '../world/originate.ts';
import type { AudioDirection, SimChannel } from '../world/SimChannel.ts';
import { moveArgsFromText, stasisEntryFromText } from '../world/StasisEntry.ts';
import { createSnoop } from '../world/snoop.ts';
import { startDialplan } from '../world/startDialplan.ts';
import { startPlayback, startRecording } from '../world/startMedia.ts';
import { leaveStasis, moveChannel } from '../world/stasis.ts';
import type { World } from '../world/World.ts';
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
import { reviewAudio } from '../world/audioFlow.ts';

function findChannel({ world, params }: HandlerContext): SimChannel {
  const ch = world.channel(str(params, 'channelId'));
  if (!ch || ch.hangingUp) throw new SimError(404, 'Channel not found');
  return ch;
}

/** Most operations need the channel to be in an application, as on the real server. */
function controlled(ctx: HandlerContext): SimChannel {
  const ch = findChannel(ctx);
  if (ch.app === undefined) throw new SimError(409, 'Channel not in Stasis application');
  return ch;
}

function originateRequest({ params }: HandlerContext, channelId?: string): OriginateRequest {
  const variables = params.variables;
  const request: Record<string, unknown> = {
    endpoint: str(params, 'endpoint'),
    app: optStr(params, 'app'),
    appArgs: optStr(params, 'appArgs'),
    extension: optStr(params, 'extension'),
    context: optStr(params, 'context'),
    priority: typeof params.priority === 'number' ? params.priority : undefined,
    label: optStr(params, 'label'),
    callerId: optStr(params, 'callerId'),
    timeoutSec: typeof params.timeout === 'number' ? params.timeout : undefined,
    // A `variables` that is not an object is ignored, as observed (200).
    variables:
      typeof variables === 'object' && variables !== null && !Array.isArray(variables)
        ? variables
        : undefined,
    channelId: channelId ?? optStr(params, 'channelId'),
    otherChannelId: optStr(params, 'otherChannelId'),
    originator: optStr(params, 'originator'),
    formats: optStr(params, 'formats'),
  };
  return Object.fromEntries(
    Object.entries(request).filter(([, v]) => v !== undefined),
  ) as unknown as OriginateRequest;
}

function setMute(ch: SimChannel, direction: string, muted: boolean): void {
  const dirs: AudioDirection[] = direction === 'both' ? ['in', 'out'] : [direction as AudioDirection];
  ch.muted ??= new Set();
  for (const d of dirs) {
    if (muted) ch.muted.add(d);
    else ch.muted.delete(d);
  }
  if (ch.muted.size === 0) ch.muted = undefined;
}

function readVariable(world: World, ch: SimChannel, name: string): string | undefined {
  const fn = parseFunctionName(name);
  if (!fn) return ch.getVar(name) || undefined;
  const value = readChannelFunction(world, ch, fn.name, fn.args);
  if (value === undefined) throw new SimError(500, 'Unable to read provided function');
  return value;
}

function writeVariable(world: World, ch: SimChannel, name: string, value: string): void {
  const fn = parseFunctionName(name);
  if (!fn) {
    world.setChannelVar(ch, name, value);
    return;
  }
  if (!writeChannelFunction(world, ch, fn.name, fn.args, value))
    throw new SimError(400, 'Failed to execute function');
}

/** A zeroed statistics record with every field the model requires (simulated channels carry no RTP). */
function zeroRtpStats(ch: SimChannel): Record<string, unknown> {
  const stats: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(findModel('RTPstat')?.properties ?? {})) {
    if (prop.required) stats[name] = prop.type === 'string' ? '' : 0;
  }
  return { ...stats, channel_uniqueid: ch.id };
}

function play(ctx: HandlerContext, playbackId: string | undefined) {
  const ch = controlled(ctx);
  otherMediaStarts(ch);
  return created(
    startPlayback(ctx.world, ch, {
      media: list(ctx.params, 'media'),
      ...(playbackId ? { playbackId } : {}),
      language: optStr(ctx.params, 'lang') ?? ch.language,
      skipMs: num(ctx.params, 'skipms', 3000),
    }),
  );
}

function snoop(ctx: HandlerContext, snoopId: string | undefined) {
  const target = controlled(ctx);
  return ok(
    createSnoop(ctx.world, target, {
      entry: stasisEntryFromText(str(ctx.params, 'app'), optStr(ctx.params, 'appArgs')),
      ...(snoopId ? { snoopId } : {}),
    }).snapshot(),
  );
}

/** Handlers of `/channels`. */
export const channelsHandlers: HandlerTable = {
  list: ({ world }) => ok([...world.channels.values()].filter((c) => !c.destroyed).map((c) => c.snapshot())),

  originate: (ctx) => ok(originate(ctx.world, originateRequest(ctx)).snapshot()),
  originateWithId: (ctx) =>
    ok(originate(ctx.world, originateRequest(ctx, str(ctx.params, 'channelId'))).snapshot()),
  create: (ctx) => ok(createForDial(ctx.world, originateRequest(ctx)).snapshot()),

  get: (ctx) => {
    const ch = ctx.world.channel(str(ctx.params, 'channelId'));
    if (!ch) throw new SimError(404, 'Channel not found');
    return ok(ch.snapshot());
  },

  hangup: (ctx) => {
    const ch = findChannel(ctx);
    const reason = optStr(ctx.params, 'reason');
    const code = optStr(ctx.params, 'reason_code');
    if (reason !== undefined && code !== undefined) {
      throw new SimError(400, "The reason and reason_code can't both be specified");
    }
    const cause =
      code !== undefined ? Number.parseInt(code, 10) || 16 : reason ? (hangupReasonCauses[reason] ?? 16) : 16;
    // The real server replies at once and the channel's own thread hangs it up afterwards:
    // the 204 comes before ChannelHangupRequest (recorded: bench-ivr-call.jsonl, 23-cleanup).
    ctx.world.clock.setTimeout(() => hangupChannel(ctx.world, ch, cause, 'ari'), 0);
    return NO_CONTENT;
  },

  continueInDialplan: (ctx) => {
    const ch = controlled(ctx);
    const { params, world } = ctx;
    const resolved = resolveContinueTarget(
      world.services.dialplan,
      { context: ch.context, exten: ch.exten, priority: ch.priority },
      {
        ...(optStr(params, 'context') ? { context: str(params, 'context') } : {}),
        ...(optStr(params, 'extension') ? { extension: str(params, 'extension') } : {}),
        ...(typeof params.priority === 'number' ? { priority: params.priority } : {}),
        ...(optStr(params, 'label') ? { label: str(params, 'label') } : {}),
      },
    );
    if (resolved.kind === 'label-not-found') throw new SimError(404, 'Requested label can not be found');
    if (resolved.kind === 'illegal-priority') throw new SimError(400, 'Requested priority is illegal');
    const hasDialplan = ch.stasisExit !== undefined;
    // Without a dialplan Stasis() to return from, STASISSTATUS is only set when the channel ends (observed).
    leaveStasis(world, ch, { kind: 'continue', target: resolved.target }, hasDialplan);
    // A channel originated straight into an application has no dialplan yet: it starts one there.
    if (!hasDialplan) startDialplan(world, ch, resolved.target, false);
    return NO_CONTENT;
  },

  move: (ctx) => {
    const ch = controlled(ctx);
    moveChannel(ctx.world, ch, str(ctx.params, 'app'), moveArgsFromText(optStr(ctx.params, 'appArgs')));
    return NO_CONTENT;
  },

  redirect: (ctx) => {
    const ch = controlled(ctx);
    const endpoint = str(ctx.params, 'endpoint');
    const slash = endpoint.indexOf('/');
    if (slash <= 0)
      throw new SimError(422, `Endpoint parameter '${endpoint}' does not contain tech/resource`);
    const tech = endpoint.slice(0, slash);
    if (tech.toLowerCase() !== ch.technology.toLowerCase()) {
      throw new SimError(
        422,
        `Endpoint technology '${tech}' does not match channel technology '${ch.technology}'`,
      );
    }
    // Local channels accept the request and stay where they are (observed); a far end leaves for the new target.
    if (ch.technology !== 'Local') {
      ctx.world.services.outbound('redirect', { channelId: ch.id, endpoint });
      hangupChannel(ctx.world, ch, 16, 'remote');
    }
    return NO_CONTENT;
  },

  answer: (ctx) => {
    answerChannel(ctx.world, controlled(ctx));
    return NO_CONTENT;
  },

  ring: (ctx) => {
    const ch = controlled(ctx);
    const leg = ch.half === 2 ? ch.peer : undefined;
    if (leg?.dialing) {
      announceDial(ctx.world, leg);
      if (leg.state !== 'Ringing' && leg.state !== 'Up') {
        leg.state = 'Ringing';
        ctx.world.channelChanged(leg);
      }
      ctx.world.publish('Dial', dialFields(leg, 'RINGING'), { channels: [leg] });
    } else ch.ringing = true;
    return NO_CONTENT;
  },

  ringStop: (ctx) => {
    controlled(ctx).ringing = false;
    return NO_CONTENT;
  },

  progress: (ctx) => {
    const ch = controlled(ctx);
    const leg = ch.half === 2 ? ch.peer : undefined;
    if (leg?.dialing) {
      announceDial(ctx.world, leg);
      ctx.world.publish('Dial', dialFields(leg, 'PROGRESS'), { channels: [leg] });
    }
    return NO_CONTENT;
  },

  sendDTMF: (ctx) => {
    const ch = controlled(ctx);
    const dtmf = optStr(ctx.params, 'dtmf');
    if (!dtmf) throw new SimError(400, 'DTMF is required');
    sendDtmf(ctx.world, ch, dtmf, {
      beforeMs: num(ctx.params, 'before', 0),
      betweenMs: num(ctx.params, 'between', 100),
      durationMs: num(ctx.params, 'duration', 100),
    });
    return NO_CONTENT;
  },

  mute: (ctx) => {
    const ch = controlled(ctx);
    setMute(ch, str(ctx.params, 'direction'), true);
    reviewAudio(ctx.world, ch);
    return NO_CONTENT;
  },
  unmute: (ctx) => {
    const ch = controlled(ctx);
    setMute(ch, str(ctx.params, 'direction'), false);
    reviewAudio(ctx.world, ch);
    return NO_CONTENT;
  },

  hold: (ctx) => {
    const ch = controlled(ctx);
    // With HOLD_INTERCEPT(set) the hold only raises the event; otherwise the far end is held quietly (observed).
    if (ch.holdIntercept) ctx.world.publishChannel('ChannelHold', ch);
    else ch.held = true;
    return NO_CONTENT;
  },
  unhold: (ctx) => {
    const ch = controlled(ctx);
    if (ch.holdIntercept) ctx.world.publishChannel('ChannelUnhold', ch);
    else ch.held = false;
    return NO_CONTENT;
  },

  startMoh: (ctx) => {
    const ch = controlled(ctx);
    otherMediaStarts(ch);
    // An unknown class is accepted (observed): the default music plays.
    ch.mohClass = optStr(ctx.params, 'mohClass') ?? 'default';
    return NO_CONTENT;
  },
  stopMoh: (ctx) => {
    controlled(ctx).mohClass = undefined;
    return NO_CONTENT;
  },

  startSilence: (ctx) => {
    controlled(ctx).silence = true;
    return NO_CONTENT;
  },
  stopSilence: (ctx) => {
    controlled(ctx).silence = false;
    return NO_CONTENT;
  },

  play: (ctx) => play(ctx, optStr(ctx.params, 'playbackId')),
  playWithId: (ctx) => play(ctx, str(ctx.params, 'playbackId')),

  record: (ctx) => {
    const ch = controlled(ctx);
    const { params } = ctx;
    return created(
      startRecording(ctx.world, ch, {
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

  getChannelVar: (ctx) => {
    const ch = ctx.world.channel(str(ctx.params, 'channelId'));
    if (!ch) throw new SimError(404, 'Provided channel was not found');
    // Observed: a channel outside any application has no readable variables through the interface,
    // except an external media channel waiting for its socket (MEDIA_WEBSOCKET_CONNECTION_ID read).
    const readable = ch.app !== undefined || ch.technology === 'WebSocket';
    const value = readable ? readVariable(ctx.world, ch, str(ctx.params, 'variable')) : undefined;
    if (value === undefined) throw new SimError(404, 'Provided variable was not found');
    return ok({ value });
  },

  setChannelVar: (ctx) => {
    const ch = ctx.world.channel(str(ctx.params, 'channelId'));
    // Not the getter's message: resource_channels.c finds the control first here.
    if (!ch) throw new SimError(404, 'Channel not found');
    if (ch.app === undefined) throw new SimError(409, 'Channel not in Stasis application');
    writeVariable(ctx.world, ch, str(ctx.params, 'variable'), str(ctx.params, 'value'));
    return NO_CONTENT;
  },

  getChannelVars: (ctx) => {
    const ch = ctx.world.channel(str(ctx.params, 'channelId'));
    if (!ch) throw new SimError(404, 'Provided channel was not found');
    const variables: Record<string, string> = {};
    for (const name of list(ctx.params, 'variables')) {
      const value = ch.app === undefined ? undefined : readVariable(ctx.world, ch, name);
      if (value === undefined) throw new SimError(404, 'Provided variable was not found');
      variables[name] = value;
    }
    return ok({ variables });
  },

  setChannelVars: (ctx) => {
    const ch = ctx.world.channel(str(ctx.params, 'channelId'));
    if (!ch) throw new SimError(404, 'Provided channel was not found');
    if (ch.app === undefined) throw new SimError(409, 'Channel not in Stasis application');
    for (const [name, value] of Object.entries(containers(ctx.params, 'variables'))) {
      writeVariable(ctx.world, ch, name, typeof value === 'string' ? value : JSON.stringify(value));
    }
    return NO_CONTENT;
  },

  snoopChannel: (ctx) => snoop(ctx, optStr(ctx.params, 'snoopId')),
  snoopChannelWithId: (ctx) => snoop(ctx, str(ctx.params, 'snoopId')),

  dial: (ctx) => {
    const ch = controlled(ctx);
    dialCreated(ctx.world, ch, typeof ctx.params.timeout === 'number' ? ctx.params.timeout : undefined);
    return NO_CONTENT;
  },

  rtpstatistics: (ctx) => {
    const ch = findChannel(ctx);
    if (ch.endpointKey === undefined) throw new SimError(403, 'Unsupported channel type');
    return ok(zeroRtpStats(ch));
  },

  externalMedia: (ctx) => {
    const { world, params } = ctx;
    if (optStr(params, 'transport') === 'websocket') {
      return ok(
        mediaSocketsOf(world).createChannel({
          app: str(params, 'app'),
          channelId: optStr(params, 'channelId'),
          externalHost: optStr(params, 'external_host'),
          encapsulation: str(params, 'encapsulation'),
          connectionType: optStr(params, 'connection_type'),
          format: optStr(params, 'format'),
          direction: optStr(params, 'direction'),
          transportData: optStr(params, 'transport_data'),
          variables: containers(params, 'variables'),
        }),
      );
    }
    const encapsulation = str(params, 'encapsulation');
    if (!optStr(params, 'format')) throw new SimError(400, 'format cannot be empty');
    if (!['both', 'in', 'out'].includes(optStr(params, 'direction') ?? 'both'))
      throw new SimError(400, 'Invalid direction specified');
    const host = optStr(params, 'external_host');
    if (!host && encapsulation !== 'none' && str(params, 'connection_type') !== 'server') {
      throw new SimError(400, 'external_host is required');
    }
    if (!world.services.formats.has(str(params, 'format')))
      throw new SimError(422, 'specified format is unknown on this system');
    const channelId = optStr(params, 'channelId');
    const ch = createForDial(world, {
      endpoint: `UnicastRTP/${host ?? '127.0.0.1:0'}`,
      app: str(params, 'app'),
      ...(channelId ? { channelId } : {}),
      variables: containers(params, 'variables'),
    });
    return ok(ch.snapshot());
  },

  transfer_progress: (ctx) => {
    findChannel(ctx);
    return NO_CONTENT;
  },
};
