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
 * @returns true when the session took the new channel as its own.
 * @example
 * if (followReplacement(state, event)) state.log('info', ...); // before the event is delivered
 */
export function followReplacement(state: SessionState, event: StreamEvent): boolean {
  if (!isEventType(event, 'StasisStart')) return false;
  const from = state.session.channelId;
  const to = event.channel.id;
  if (event.replace_channel?.id !== from || to === from || state.phase.name !== 'running') return false;
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
