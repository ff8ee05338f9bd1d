/**
 * Where each event about one call goes, in order: on a shared stream, only the copy the call
 * takes (see {@link SharedStreamCopies}); the StasisStart of its channel starts the call (see
 * {@link startOnStasisStart}); a DTMF digit of its channel goes to its type-ahead buffer; then
 * the event goes to the call's `events$` subscribers and its machine, and last the bookkeeping:
 * the call's channel leaving ends the call (see {@link finishSession}), its hangup cause is kept
 * for the end, and the resources the call owns follow their own events (see
 * {@link OwnedResources.follow}).
 */

import { isEventType, type StreamEvent } from '@ringflow/client';
import type { SessionState } from './SessionState.ts';
import { isRecovered } from '../recovery/recoverCall.ts';
import { followReplacement } from '../transfer/followReplacement.ts';
import { finishSession } from './sessionEnd.ts';
import { startOnStasisStart } from './sessionStart.ts';

/** The id of the channel an event is about, if it names one. */
function eventChannelId(event: StreamEvent): string | undefined {
  if (!('channel' in event)) return undefined;
  const { channel } = event;
  return typeof channel === 'object' && channel !== null && 'id' in channel && typeof channel.id === 'string'
    ? channel.id
    : undefined;
}

/** Takes one event the router found to be about the call where it goes. */
export function deliverEvent(state: SessionState, event: StreamEvent): void {
  if (state.ended) return;
  followReplacement(state, event);
  const channelId = eventChannelId(event);
  const isMain = channelId === state.session.channelId;
  if (state.copies) {
    if (state.app === undefined && isMain && isEventType(event, 'StasisStart')) state.app = event.application;
    if (!state.copies.takes(event, channelId, state.app)) return;
  }
  if (isMain && isEventType(event, 'StasisStart') && startOnStasisStart(state, event)) return;
  if (isMain && isEventType(event, 'ChannelDtmfReceived')) state.session.digits.push(event.digit);
  // The channel is leaving: a machine that ends on this event must not hang it up again.
  if (isMain && isEventType(event, 'StasisEnd', 'ChannelDestroyed')) state.leaving = true;
  dispatchEvent(state, event, channelId, isMain);
}

/**
 * Gives an event to the call's subscribers and machine, then does the session's bookkeeping
 * (also for events the session makes up: what a restored call missed).
 */
export function dispatchEvent(
  state: SessionState,
  event: StreamEvent,
  channelId = eventChannelId(event),
  isMain = channelId === state.session.channelId,
): void {
  // Noted before the machine sees the event: a machine that ends on it hangs up at once, and
  // the caller was first all the same.
  if (isMain) noteChannelEnd(state, event);
  state.eventStream?.next(event);
  state.session.tell(event);
  afterEvent(state, event, channelId, isMain);
}

/**
 * The call's channel ending before any leaving request of the application: hung up (the caller,
 * or the called party of an outbound call), or taken out of the application by someone else
 * (another client, a recovery that found it gone).
 */
function noteChannelEnd(state: SessionState, event: StreamEvent): void {
  if (isEventType(event, 'ChannelHangupRequest', 'ChannelDestroyed')) state.report().noteEndedBy('caller');
  else if (isEventType(event, 'StasisEnd')) state.report().noteEndedBy('server');
}

/** Bookkeeping once everyone has seen the event (see the top of this file). */
function afterEvent(
  state: SessionState,
  event: StreamEvent,
  channelId: string | undefined,
  isMain: boolean,
): void {
  if (!isMain) {
    if (state.owned.follow(event, channelId)) state.recorder?.changed();
  } else if (isEventType(event, 'StasisEnd')) {
    // A StasisEnd made up by a recovery: the channel was found gone, its own events lost.
    finishSession(state, isRecovered(event) ? 'reconciled' : state.machine ? 'completed' : 'unanswered');
  } else if (isEventType(event, 'ChannelHangupRequest')) {
    // A soft hangup request (the application's own DELETE, a Local peer's hang-up) is a request,
    // not the end: its `cause` may be the soft-hangup flag (32 for an ARI DELETE on a real server),
    // so the call's cause is taken from ChannelDestroyed then.
    if (event.soft !== true) state.report().noteCause(event);
  } else if (isEventType(event, 'ChannelDestroyed')) {
    state.report().noteCause(event);
    finishSession(state, state.machine ? 'completed' : 'unanswered');
  }
}
