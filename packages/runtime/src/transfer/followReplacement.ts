import { isEventType, type StreamEvent } from '@ringflow/client';
import type { SessionState } from '../session/SessionState.ts';

/**
 * A phone transferred the call (a blind transfer, feature codes or SIP REFER): the server put a
 * new channel (the `;1` half of a Local pair) in the place of the call's own, and the new one
 * enters the application with `StasisStart` carrying `replace_channel`. The session follows it:
 * the new channel is the call's from now on (its events are the call's, the call ends when it
 * ends, a hang-up at the end is for it), and the replaced one is only a channel that leaves. The
 * event then goes on to the machine as usual (a flow updates its call's channel on it).
 *
 * A transfer of another channel the call owns (its `dial`'s called party) makes the channel in
 * its place the call's too (see {@link followOtherLeg}).
 *
 * @returns true when the session took the new channel as its own (its main channel).
 * @example
 * if (followReplacement(state, event)) state.log('info', ...); // before the event is delivered
 */
export function followReplacement(state: SessionState, event: StreamEvent): boolean {
  if (!isEventType(event, 'StasisStart')) return false;
  const from = state.session.channelId;
  const to = event.channel.id;
  const replaced = event.replace_channel?.id;
  if (replaced === undefined || to === replaced || state.phase.name !== 'running') return false;
  if (replaced !== from) {
    followOtherLeg(state, replaced, to, event.channel.name);
    return false;
  }
  state.session.own('channel', to, false);
  state.session.channelId = to;
  state.report().noteTransfer();
  state.host.metrics.callsTransferred.inc({ by: 'phone' });
  state.log('info', 'call transferred by a phone: it goes on on the channel that replaced its own', {
    replaced: from,
    channel: to,
    channelName: event.channel.name,
  });
  state.recorder?.changed();
  return true;
}

/**
 * A phone transferred another channel of the call (the called party of its `dial`, an agent):
 * the channel that took its place is the call's as the replaced one was (its events reach the
 * call, it is hung up at the end if still up), so the step that placed it can follow it.
 */
function followOtherLeg(state: SessionState, replaced: string, to: string, name: string): void {
  const owned = state.owned.get('channel', replaced);
  if (!owned) return;
  state.session.own('channel', to, owned.cleanup);
  state.log('info', "a phone transferred the call's other party: the call follows the channel in its place", {
    replaced,
    channel: to,
    channelName: name,
  });
}
