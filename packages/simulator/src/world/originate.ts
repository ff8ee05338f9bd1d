import { resolveContinueTarget } from '../dialplan/resolveContinueTarget.ts';
import { SimError } from '../SimError.ts';
import {
  announceDial,
  answerDialedLeg,
  createChannel,
  dialFields,
  hangupChannel,
  setChannelState,
} from './channelLifecycle.ts';
import { parseCallerId, parseFunctionName, writeChannelFunction } from './channelFunctions.ts';
import { farEndForAttempt, REFUSAL_CAUSES } from './FarEndBehaviour.ts';
import { isFarEndVoice, speakAfterAnswer, voiceAnswerAfterMs } from './farEndVoice.ts';
import type { SimChannel } from './SimChannel.ts';
import type { Destination } from './sendToDestination.ts';
import { stasisEntryFromText } from './StasisEntry.ts';
import { startDialplan } from './startDialplan.ts';
import { enterStasis } from './stasis.ts';
import type { World } from './World.ts';

/**
 * Technologies whose resource is an address, not a configured endpoint (`UnicastRTP/host:port`):
 * any can be dialled, and the endpoint appears with its channel. Every other technology dials
 * only endpoints that exist (configured, or seen calling in).
 */
const ADDRESS_TECHNOLOGIES = new Set(['UnicastRTP', 'AudioSocket']);

export interface OriginateRequest {
  readonly endpoint: string;
  readonly app?: string;
  readonly appArgs?: string;
  readonly extension?: string;
  readonly context?: string;
  readonly priority?: number;
  readonly label?: string;
  readonly callerId?: string;
  readonly timeoutSec?: number;
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly channelId?: string;
  readonly otherChannelId?: string;
  readonly originator?: string;
  readonly formats?: string;
}

interface ParsedEndpoint {
  readonly technology: string;
  readonly resource: string;
}

function parseEndpoint(endpoint: string): ParsedEndpoint {
  const slash = endpoint.indexOf('/');
  if (slash <= 0 || slash === endpoint.length - 1) throw new SimError(400, 'Invalid endpoint specified');
  return { technology: endpoint.slice(0, slash), resource: endpoint.slice(slash + 1) };
}

interface LocalTarget {
  readonly dialString: string;
  readonly exten: string;
  readonly context: string;
}

/** `Local/100@default/n` -> `100@default` and its parts (context `default` when none is written). */
function localTarget(resource: string): LocalTarget {
  const dialString = resource.split('/')[0]!;
  const at = dialString.indexOf('@');
  return at < 0
    ? { dialString, exten: dialString, context: 'default' }
    : { dialString, exten: dialString.slice(0, at), context: dialString.slice(at + 1) };
}

/**
 * A Local channel pair for `Local/<exten>@<context>`: the `;1` half (Down) that the request
 * dials or that enters the application, and the `;2` half (Ring) that runs the dialplan, each the
 * other's peer, with the ids the request chose.
 */
function createLocalPair(
  world: World,
  local: LocalTarget,
  request: Pick<OriginateRequest, 'channelId' | 'otherChannelId'>,
): { leg: SimChannel; called: SimChannel } {
  const seq = world.nextLocalSequence();
  const common = {
    technology: 'Local',
    deviceName: `Local/${local.dialString}`,
    context: local.context,
    exten: local.exten,
  };
  const leg = createChannel(world, {
    ...common,
    ...(request.channelId ? { id: request.channelId } : {}),
    name: `Local/${local.dialString}-${seq};1`,
    state: 'Down',
  });
  const called = createChannel(world, {
    ...common,
    ...(request.otherChannelId ? { id: request.otherChannelId } : {}),
    name: `Local/${local.dialString}-${seq};2`,
    state: 'Ring',
  });
  leg.peer = called;
  called.peer = leg;
  leg.half = 1;
  called.half = 2;
  return { leg, called };
}

function checkIds(world: World, ...ids: (string | undefined)[]): void {
  for (const id of ids) {
    if (id !== undefined && world.channels.has(id))
      throw new SimError(409, 'Channel with given unique ID already exists');
  }
}

function checkOriginatorAndFormats(world: World, request: OriginateRequest): void {
  if (request.originator !== undefined && request.formats !== undefined) {
    throw new SimError(400, "Originator and formats can't both be specified");
  }
  if (request.originator !== undefined && !world.channel(request.originator)) {
    throw new SimError(400, 'Provided originator channel was not found');
  }
  for (const format of request.formats?.split(',') ?? []) {
    if (!world.services.formats.has(format.trim()))
      throw new SimError(400, `Provided format (${format}) was not found`);
  }
}

/** Applies originate variables: functions (`CALLERID(name)`) to the channel, the rest as variables. */
function applyVariables(
  world: World,
  ch: SimChannel,
  variables: Readonly<Record<string, unknown>>,
  functions: boolean,
): void {
  for (const [name, raw] of Object.entries(variables)) {
    const value = typeof raw === 'string' ? raw : JSON.stringify(raw);
    const fn = parseFunctionName(name);
    if (fn) {
      if (functions) writeChannelFunction(world, ch, fn.name, fn.args, value);
    } else world.setChannelVar(ch, name, value);
  }
}

function destinationOf(world: World, request: OriginateRequest): Destination {
  if (request.app) return stasisEntryFromText(request.app, request.appArgs);
  const context = request.context || 'default';
  const exten = request.extension!;
  if (request.label) {
    const resolved = resolveContinueTarget(
      world.services.dialplan,
      { context, exten, priority: 1 },
      { context, extension: exten, label: request.label },
    );
    if (resolved.kind === 'label-not-found') throw new SimError(400, 'Requested label can not be found');
    if (resolved.kind === 'illegal-priority') throw new SimError(400, 'Requested priority is illegal');
    return resolved.target;
  }
  return { context, exten, priority: request.priority && request.priority > 0 ? request.priority : 1 };
}

/** Technologies of phones, whose endpoints a simulator with `unknownEndpoints: 'ring'` makes as they are dialled. */
const PHONE_TECHNOLOGIES = new Set(['PJSIP', 'SIP', 'IAX2', 'DAHDI']);

/**
 * A channel to an endpoint (`PJSIP/bob`), or undefined when the endpoint cannot be dialled: a
 * technology that is not loaded, or a resource that is not configured. The real server's channel
 * driver then fails the request and the originate answers `500 {"error":"Allocation failed"}`.
 */
function endpointChannelInit(world: World, target: ParsedEndpoint, request: OriginateRequest) {
  const endpoint = ADDRESS_TECHNOLOGIES.has(target.technology)
    ? world.endpoints.ensure(target.technology, target.resource)
    : // Technology names are matched in any case, as the real server's channel driver lookup does.
      (world.endpoints.find(target.technology, target.resource) ??
      (world.endpoints.unknown === 'ring' && PHONE_TECHNOLOGIES.has(target.technology)
        ? world.endpoints.ensure(target.technology, target.resource)
        : undefined));
  if (!endpoint) return undefined;
  const technology = endpoint.technology;
  return {
    name: `${technology}/${target.resource}-${world.nextSequence(technology)}`,
    technology,
    endpoint,
    deviceName: `${technology}/${target.resource}`,
    context: request.context || 'default',
    exten: request.extension || 's',
  };
}

function armDialTimeout(world: World, leg: SimChannel, timeoutSec: number | undefined): void {
  const seconds = timeoutSec === undefined || timeoutSec <= 0 ? 30 : timeoutSec;
  leg.dialTimer = world.clock.setTimeout(() => {
    leg.dialTimer = undefined;
    // Observed: an unanswered originate ends like an interface hangup (soft request, Dial NOANSWER).
    if (leg.dialing) hangupChannel(world, leg, 16, 'ari');
  }, seconds * 1000);
}

/**
 * `POST /channels`: creates an outgoing channel and dials it. A Local channel is a pair: the
 * `;2` half runs the dialplan at `exten@context`, the `;1` half goes to the application (or the
 * dialplan location asked for) once `;2` answers. A channel to an endpoint rings its far end,
 * which answers by the simulator's policy or when the test driver says so.
 */
export function originate(world: World, request: OriginateRequest): SimChannel {
  const target = parseEndpoint(request.endpoint);
  if (!request.app && !request.extension) {
    throw new SimError(400, 'Application or extension must be specified');
  }
  checkIds(world, request.channelId);
  if (
    request.otherChannelId !== undefined &&
    world.channels.has(request.otherChannelId) &&
    target.technology === 'Local'
  ) {
    // Observed: the first half is made, then dropped when the second id is found taken.
    const local = localTarget(target.resource);
    const first = createChannel(world, {
      ...(request.channelId ? { id: request.channelId } : {}),
      name: `Local/${local.dialString}-${world.nextLocalSequence()};1`,
      technology: 'Local',
      deviceName: `Local/${local.dialString}`,
      state: 'Down',
      context: local.context,
      exten: local.exten,
    });
    hangupChannel(world, first, 0, 'none');
  }
  checkIds(world, request.otherChannelId);
  checkOriginatorAndFormats(world, request);
  const destination = destinationOf(world, request);
  const caller = request.callerId ? parseCallerId(request.callerId) : undefined;
  const variables = request.variables ?? {};

  if (target.technology === 'Local') {
    const local = localTarget(target.resource);
    const { leg, called } = createLocalPair(world, local, request);
    // The real server's asynchronous dispatch lets the originating app see the ;2 half's dialplan
    // events just before it enters Stasis there; subscribing it to ;2 now gives the same stream.
    const app = request.app ? world.bus.app(request.app) : undefined;
    if (app && !app.allChannels) app.channelIds.add(called.id);
    startDialing(world, leg, local.dialString, destination, request);
    if (caller) {
      leg.callerName = leg.connectedName = caller.name;
      leg.callerNumber = leg.connectedNumber = caller.number;
      world.channelChanged(leg);
    }
    applyVariables(world, leg, variables, true);
    applyVariables(world, called, variables, false);
    if (caller) {
      called.callerName = caller.name;
      called.callerNumber = caller.number;
    }
    called.connectedName = leg.callerName;
    called.connectedNumber = leg.callerNumber;
    world.channelChanged(called);
    // Recorded: the ;2 half's first dialplan steps (ChannelDialplan, STASISSTATUS, StasisStart)
    // come before the leg's first Dial event (bench-ivr-call.jsonl, 02-originate): the real
    // server's dialling thread raises it after ;2's own thread has started its dialplan.
    leg.dialAnnouncePending = true;
    startDialplan(world, called, { context: local.context, exten: local.exten, priority: 1 }, true);
    world.clock.setTimeout(() => announceDial(world, leg), 0);
    armDialTimeout(world, leg, request.timeoutSec);
    return leg;
  }

  const init = endpointChannelInit(world, target, request);
  if (!init) throw new SimError(500, 'Allocation failed', { error: 'Allocation failed' });
  const leg = createChannel(world, {
    ...init,
    ...(request.channelId ? { id: request.channelId } : {}),
    state: 'Down',
  });
  startDialing(world, leg, target.resource, destination, request);
  if (caller) {
    leg.callerName = leg.connectedName = caller.name;
    leg.callerNumber = leg.connectedNumber = caller.number;
    world.channelChanged(leg);
  }
  applyVariables(world, leg, variables, true);
  world.publish('Dial', dialFields(leg, ''), { channels: [leg] });
  ringFarEnd(world, leg);
  armDialTimeout(world, leg, request.timeoutSec);
  return leg;
}

/** Marks a leg as being dialed by an originate (`AppDial2` in its snapshot) and subscribes its app. */
function startDialing(
  world: World,
  leg: SimChannel,
  dialString: string,
  destination: Destination,
  request: OriginateRequest,
): void {
  leg.idleApp = ['AppDial2', '(Outgoing Line)'];
  leg.setApp('', '');
  world.channelChanged(leg);
  leg.dialing = true;
  leg.dialString = dialString;
  leg.afterAnswer = destination;
  // Originating into an application subscribes it to the new channel at once.
  const app = request.app ? world.bus.app(request.app) : undefined;
  if (app && !app.allChannels) app.channelIds.add(leg.id);
}

/**
 * The far end of an endpoint channel: it starts ringing once the originate has returned (the reply
 * shows the channel `Down`, as on the real server), then does what its endpoint's far-end
 * behaviour says (answer after a delay, refuse, or keep ringing). The timers exist only while the
 * leg is being dialed.
 */
export function ringFarEnd(world: World, leg: SimChannel): void {
  const slash = leg.endpointKey?.indexOf('/') ?? -1;
  const endpoint =
    leg.endpointKey === undefined
      ? undefined
      : world.endpoints.get(leg.endpointKey.slice(0, slash), leg.endpointKey.slice(slash + 1));
  const behaviour =
    endpoint?.farEnd === undefined ? 'answer' : farEndForAttempt(endpoint.farEnd, endpoint.dialled);
  if (endpoint) endpoint.dialled++;
  leg.farEndTimer = world.clock.setTimeout(() => {
    leg.farEndTimer = undefined;
    if (!leg.dialing || leg.hangingUp) return;
    setChannelState(world, leg, 'Ringing');
    world.publish('Dial', dialFields(leg, 'RINGING'), { channels: [leg] });
    if (behaviour === 'noAnswer') return;
    if (behaviour === 'busy' || behaviour === 'reject' || behaviour === 'unreachable') {
      leg.farEndTimer = world.clock.setTimeout(() => {
        leg.farEndTimer = undefined;
        if (leg.dialing && !leg.hangingUp) hangupChannel(world, leg, REFUSAL_CAUSES[behaviour], 'remote');
      }, 0);
      return;
    }
    const voice = isFarEndVoice(behaviour) ? behaviour : undefined;
    const after =
      behaviour === 'answer'
        ? world.services.farEnd.answerAfterMs
        : voice
          ? (voiceAnswerAfterMs(voice) ?? world.services.farEnd.answerAfterMs)
          : 'answerAfterMs' in behaviour
            ? behaviour.answerAfterMs
            : undefined;
    if (after === undefined) return;
    leg.farEndTimer = world.clock.setTimeout(() => {
      leg.farEndTimer = undefined;
      if (!leg.dialing || leg.hangingUp) return;
      answerDialedLeg(world, leg);
      if (voice) speakAfterAnswer(world, leg, voice);
    }, after);
  }, 0);
}

/**
 * `POST /channels/create`: a channel that enters its application at once and is dialed later
 * with `dial`. For a Local pair the `;2` half starts its dialplan at once, as observed.
 */
export function createForDial(world: World, request: OriginateRequest): SimChannel {
  const target = parseEndpoint(request.endpoint);
  checkIds(world, request.channelId, request.otherChannelId);
  checkOriginatorAndFormats(world, request);
  const variables = request.variables ?? {};
  let leg: SimChannel;
  let called: SimChannel | undefined;
  let local: LocalTarget | undefined;
  if (target.technology === 'Local') {
    local = localTarget(target.resource);
    ({ leg, called } = createLocalPair(world, local, request));
    leg.dialString = local.dialString;
  } else {
    const init = endpointChannelInit(world, target, request);
    if (!init) throw new SimError(500, 'Allocation failed', { error: 'Allocation failed' });
    leg = createChannel(world, {
      ...init,
      ...(request.channelId ? { id: request.channelId } : {}),
      state: 'Down',
    });
    leg.dialString = target.resource;
  }
  applyVariables(world, leg, variables, true);
  // The real server shows a missing app as `Stasis((null))`, which fails and ends the call.
  const entry = stasisEntryFromText(request.app ?? '(null)', request.appArgs);
  leg.setApp('Stasis', entry.appData);
  world.channelChanged(leg);
  if (!enterStasis(world, leg, entry.app, entry.args)) {
    hangupChannel(world, leg, 0, 'none');
    return leg;
  }
  if (called && local) {
    applyVariables(world, called, variables, false);
    startDialplan(world, called, { context: local.context, exten: local.exten, priority: 1 }, true);
  }
  return leg;
}

/** `POST /channels/{id}/dial`: dials a channel made with `create`. */
export function dialCreated(world: World, leg: SimChannel, timeoutSec: number | undefined): void {
  if (leg.state !== 'Down') throw new SimError(409, "Channel is not in the 'Down' state");
  leg.dialing = true;
  world.publish('Dial', dialFields(leg, ''), { channels: [leg] });
  if (leg.half === 1) {
    // Observed: the originating half of a Local pair is up at once; Dial ANSWER follows when ;2 answers.
    setChannelState(world, leg, 'Up');
    if (leg.peer?.state === 'Up') answerDialedLeg(world, leg);
    return;
  }
  ringFarEnd(world, leg);
  armDialTimeout(world, leg, timeoutSec);
}
