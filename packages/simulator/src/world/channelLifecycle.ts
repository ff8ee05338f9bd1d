import { reviewAudio } from './audioFlow.ts';
import type { SimEndpoint } from './Endpoints.ts';
import { causeText } from './hangupCauses.ts';
import { type ChannelState, SimChannel } from './SimChannel.ts';
import { stopChannelMedia } from './channelMedia.ts';
import { sendToDestination } from './sendToDestination.ts';
import { leaveStasis } from './stasis.ts';
import type { World } from './World.ts';

export interface NewChannel {
  readonly id?: string;
  readonly name: string;
  readonly technology: string;
  readonly endpoint?: SimEndpoint;
  readonly deviceName: string;
  readonly state: ChannelState;
  readonly context: string;
  readonly exten: string;
  readonly priority?: number;
  readonly callerName?: string;
  readonly callerNumber?: string;
  readonly language?: string;
}

/** Creates a channel and raises ChannelCreated. */
export function createChannel(world: World, init: NewChannel): SimChannel {
  const ch = new SimChannel({
    id: init.id ?? world.newUniqueId(),
    name: init.name,
    technology: init.technology,
    endpointKey: init.endpoint?.key,
    deviceName: init.deviceName,
    creationtime: world.now(),
    state: init.state,
    context: init.context,
    exten: init.exten,
    ...(init.priority === undefined ? {} : { priority: init.priority }),
  });
  ch.callerName = init.callerName ?? '';
  ch.callerNumber = init.callerNumber ?? '';
  if (init.language) ch.language = init.language;
  world.channels.set(ch.id, ch);
  init.endpoint?.channelIds.add(ch.id);
  world.markPublished(ch);
  world.publishChannel('ChannelCreated', ch);
  world.updateDevice(ch.deviceName, 1);
  return ch;
}

/** How a hangup came about, which decides the ChannelHangupRequest the real server raises. */
export type HangupOrigin =
  /** `DELETE /channels/{id}`: a soft hangup request (cause 32, soft). */
  | 'ari'
  /** The far end (the caller, or the other half of a Local pair) hung up: a hard request with the cause. */
  | 'remote'
  /** The dialplan ran Hangup() or ended: no request event for the channel itself. */
  | 'dialplan'
  /** The call never got going (Stasis failed at creation): no request events at all, on either half. */
  | 'none';

function livePeer(ch: SimChannel): SimChannel | undefined {
  const peer = ch.peer;
  return peer && !peer.hangingUp && !peer.destroyed ? peer : undefined;
}

/**
 * Hangs a channel up with a Q.850 cause, with the real server's sequence: the hangup request,
 * the channel leaves its bridge and application (StasisEnd, STASISSTATUS), its dialplan is woken
 * up, the other half of a Local pair hangs up with the same cause, and ChannelDestroyed follows.
 * When the `;1` half hangs up first, it asks `;2` to hang up (its ChannelHangupRequest) and is
 * destroyed before `;2` leaves its application and dialplan; when `;2` goes first, `;2` is
 * destroyed before `;1`.
 */
export function hangupChannel(world: World, ch: SimChannel, cause: number, origin: HangupOrigin): void {
  if (ch.hangingUp || ch.destroyed) return;
  requestHangup(world, ch, cause, origin);
  carryOutHangup(world, ch, cause, origin);
}

/** The hangup request: the channel is marked as hanging up and ChannelHangupRequest raised. */
function requestHangup(world: World, ch: SimChannel, cause: number, origin: HangupOrigin): void {
  ch.hangingUp = true;
  ch.hangupCause = cause;
  if (origin === 'ari') world.publishChannel('ChannelHangupRequest', ch, { cause: 32, soft: true });
  else if (origin === 'remote') world.publishChannel('ChannelHangupRequest', ch, { cause });
}

/** What the channel's own thread does once asked to hang up. */
function carryOutHangup(world: World, ch: SimChannel, cause: number, origin: HangupOrigin): void {
  clearDialTimers(world, ch);
  if (ch.dialing) {
    announceDial(world, ch);
    ch.dialing = false;
    world.publish('Dial', dialFields(ch, dialStatusOf(cause)), { channels: [ch] });
  }
  stopChannelMedia(ch);
  leaveStasis(world, ch, { kind: 'hungup' });
  if (ch.stasisStatusPending) {
    ch.stasisStatusPending = false;
    world.setChannelVar(ch, 'STASISSTATUS', 'SUCCESS');
  }
  // A channel running dialplan gets the PBX's own soft request once its application returns.
  if (ch.inDialplan && origin !== 'dialplan' && origin !== 'none')
    world.publishChannel('ChannelHangupRequest', ch, { cause: 16, soft: true });
  const wake = ch.wake;
  ch.wake = undefined;
  wake?.();
  const peer = livePeer(ch);
  if (peer && ch.half === 1 && origin !== 'none') {
    // The real server's ;1 thread queues the hangup on ;2 (raising its request) and is destroyed
    // at once; ;2's thread wakes up after that to leave its application and dialplan
    // (recorded: bench-ivr-call.jsonl, ChannelDestroyed of ;1 before STASISSTATUS of ;2).
    requestHangup(world, peer, cause, 'remote');
    ch.leftPeerBehind = true;
    finishIfIdle(world, ch);
    carryOutHangup(world, peer, cause, 'remote');
    return;
  }
  const peerOrigin = origin === 'none' ? 'none' : 'remote';
  if (peer && ch.half === 1) hangupChannel(world, peer, cause, peerOrigin);
  finishIfIdle(world, ch);
  if (peer && ch.half !== 1) hangupChannel(world, peer, cause, peerOrigin);
}

/**
 * Raises the first Dial event (empty dialstatus) of a Local `;1` leg that an originate held back
 * until its `;2` half's dialplan had started (recorded: the `;2` half's ChannelDialplan events
 * and StasisStart come before it). Anything that raises another Dial event of the leg, or
 * answers it, calls this first, so the empty one is always the first.
 */
export function announceDial(world: World, leg: SimChannel): void {
  if (!leg.dialAnnouncePending) return;
  leg.dialAnnouncePending = false;
  world.publish('Dial', dialFields(leg, ''), { channels: [leg] });
}

/** Stops the timers of a leg being dialed (its originate timeout, its far end's ringing and answer). */
export function clearDialTimers(world: World, ch: SimChannel): void {
  world.clock.clearTimeout(ch.dialTimer);
  world.clock.clearTimeout(ch.farEndTimer);
  ch.dialTimer = ch.farEndTimer = undefined;
}

/** The `dialstatus` of an originate that ended before an answer. */
export function dialStatusOf(cause: number): string {
  if (cause === 17) return 'BUSY';
  if (cause === 34 || cause === 42) return 'CONGESTION';
  if (cause === 1 || cause === 21 || cause === 38) return 'CHANUNAVAIL';
  return 'NOANSWER';
}

/** Fields of a Dial event about an originated leg. */
export function dialFields(peer: SimChannel, dialstatus: string): Record<string, unknown> {
  return { dialstatus, forward: '', dialstring: peer.dialString ?? '', peer: peer.snapshot() };
}

/**
 * Destroys a hung-up channel once nothing holds it: its dialplan has settled, the `;2` half of
 * its Local pair is gone, and it spies on no live channel (a snoop lives as long as its target).
 */
export function finishIfIdle(world: World, ch: SimChannel): void {
  if (ch.destroyed || !ch.hangingUp || ch.inDialplan) return;
  if (ch.half === 1 && ch.peer && !ch.peer.destroyed && !ch.leftPeerBehind) return;
  if (ch.snoopTarget !== undefined && world.channel(ch.snoopTarget)) return;
  destroyChannel(world, ch);
  if (ch.half === 2 && ch.peer?.hangingUp) finishIfIdle(world, ch.peer);
}

function destroyChannel(world: World, ch: SimChannel): void {
  ch.destroyed = true;
  ch.setApp('', '');
  world.publishChannel('ChannelDestroyed', ch, {
    cause: ch.hangupCause,
    cause_txt: causeText(ch.hangupCause),
  });
  world.channels.delete(ch.id);
  if (ch.endpointKey) {
    const slash = ch.endpointKey.indexOf('/');
    world.endpoints
      .get(ch.endpointKey.slice(0, slash), ch.endpointKey.slice(slash + 1))
      ?.channelIds.delete(ch.id);
  }
  for (const app of world.bus.activeApps()) app.channelIds.delete(ch.id);
  world.updateDevice(ch.deviceName, -1);
  for (const id of ch.snoopers ?? []) {
    const snoop = world.channels.get(id);
    if (!snoop) continue;
    if (!snoop.hangingUp) hangupChannel(world, snoop, 16, 'remote');
    else finishIfIdle(world, snoop);
  }
  // A Local half that is gone carries no more sound to its twin.
  reviewAudio(world, ch.peer);
}

/**
 * Answers a channel. When it is the called half of a Local pair or a dialed leg, the originating
 * side is answered too (Dial ANSWER) and goes where the originate asked: into its application or
 * the dialplan.
 */
export function answerChannel(world: World, ch: SimChannel): void {
  if (ch.state === 'Up' || ch.hangingUp) return;
  ch.state = 'Up';
  ch.ringing = false;
  world.channelChanged(ch);
  const leg = ch.half === 2 ? ch.peer : undefined;
  if (leg && !leg.hangingUp) answerDialedLeg(world, leg);
}

/** The far end of an originated leg answered: Up, Dial ANSWER, then its destination. */
export function answerDialedLeg(world: World, leg: SimChannel): void {
  announceDial(world, leg);
  clearDialTimers(world, leg);
  if (leg.state !== 'Up') {
    leg.state = 'Up';
    world.channelChanged(leg);
  }
  if (!leg.dialing) return;
  leg.dialing = false;
  world.publish('Dial', dialFields(leg, 'ANSWER'), { channels: [leg] });
  const next = leg.afterAnswer;
  leg.afterAnswer = undefined;
  if (!next) return;
  sendToDestination(world, leg, next);
}

/** Marks the state of a channel (ringing, up...) and raises ChannelStateChange. */
export function setChannelState(world: World, ch: SimChannel, state: ChannelState): void {
  if (ch.state === state) return;
  ch.state = state;
  world.channelChanged(ch);
}
