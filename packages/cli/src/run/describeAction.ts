import type { RecordedAction } from '@ringflow/testing';

/**
 * A REST action in a few words for the live view: `play sound:hello-world`, `dial PJSIP/operator`.
 *
 * @example describeAction(action) // 'record voicemail/c1'
 */
export function describeAction(a: RecordedAction): string {
  const p = a.params;
  const failed = a.status !== undefined && a.status >= 400 ? `  (answered ${a.status})` : '';
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
