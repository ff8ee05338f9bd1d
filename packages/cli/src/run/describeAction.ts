import type { RecordedAction, TimelineEntry } from '@ringflow/testing';

/**
 * A REST action in a few words for the live view: `play sound:hello-world`, `dial PJSIP/operator`.
 * A failure shows the status; a 404 on a channel that had already hung up (the server had said
 * so in `timeline`, the call's events) is no failure: it says who had left.
 *
 * @example describeAction(action) // 'record voicemail/c1'
 * describeAction(hangup404, timeline) // 'hang up c3 (normal)  (the caller had hung up already)'
 */
export function describeAction(a: RecordedAction, timeline: readonly TimelineEntry[] = []): string {
  const p = a.params;
  const gone = a.status === 404 ? goneBefore(a, timeline) : undefined;
  const failed =
    gone !== undefined
      ? `  (${gone} had hung up already)`
      : a.status !== undefined && a.status >= 400
        ? `  (answered ${a.status})`
        : '';
  const text = (() => {
    switch (a.operation) {
      case 'channels.answer':
        return 'answer';
      case 'channels.play':
      case 'channels.playWithId':
        return `play ${String(p.media)}`;
      case 'channels.record':
        return `record ${String(p.name)}`;
      case 'channels.hangup':
        return `hang up ${String(p.channelId)}${p.reason ? ` (${String(p.reason)})` : ''}`;
      case 'channels.originate':
      case 'channels.originateWithId':
        return `dial ${String(p.endpoint)}`;
      case 'channels.continueInDialplan':
        return `continue in the dialplan at ${[p.context, p.extension, p.label ?? p.priority].filter((x) => x !== undefined).join(',')}`;
      case 'channels.ring':
        return 'ringback to the caller';
      case 'channels.ringStop':
        return 'stop the ringback';
      case 'channels.startMoh':
        return `music on hold${p.mohClass ? ` (${String(p.mohClass)})` : ''}`;
      case 'channels.stopMoh':
        return 'stop the music on hold';
      case 'playbacks.stop':
        return `stop playback ${String(p.playbackId)}`;
      case 'bridges.createWithId':
      case 'bridges.create':
        return `create bridge ${String(p.bridgeId ?? '')}`.trimEnd();
      case 'bridges.destroy':
        return `destroy bridge ${String(p.bridgeId)}`;
      case 'bridges.addChannel':
        return `bridge ${String(p.channel)}`;
      case 'events.userEvent':
        return `user event ${String(p.eventName)} ${JSON.stringify((a.body as { variables?: unknown })?.variables ?? {})}`;
      default:
        return `${a.operation ?? a.method} ${a.path}`;
    }
  })();
  return text + failed;
}

/**
 * Who had hung up when the action's channel was found gone: `the caller` (the call's own channel,
 * the first to enter the application) or the channel's id; undefined when the server had not said
 * the channel ended (ChannelHangupRequest, StasisEnd or ChannelDestroyed) by the action's time.
 */
function goneBefore(a: RecordedAction, timeline: readonly TimelineEntry[]): string | undefined {
  const channelId = a.params.channelId;
  if (typeof channelId !== 'string') return undefined;
  const channelOf = (entry: TimelineEntry): string | undefined =>
    entry.kind === 'event' ? (entry.event.channel as { id?: string } | undefined)?.id : undefined;
  const ended = timeline.some(
    (entry) =>
      entry.kind === 'event' &&
      entry.at <= a.at &&
      ['ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed'].includes(entry.type) &&
      channelOf(entry) === channelId,
  );
  if (!ended) return undefined;
  const callers = timeline.find((entry) => entry.kind === 'event' && entry.type === 'StasisStart');
  return callers && channelOf(callers) === channelId ? 'the caller' : channelId;
}
