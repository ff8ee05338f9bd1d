import type { StreamEvent } from '@ringflow/client';

type Fields = Record<string, unknown>;

function field(event: StreamEvent, name: string, key = 'id'): unknown {
  const value = (event as Fields)[name];
  return typeof value === 'object' && value !== null ? (value as Fields)[key] : undefined;
}

/**
 * One event as a short line, `Type subject detail`, with what a user of the interface would
 * notice and nothing that differs between runs (timestamps, server-assigned details):
 * `StasisStart ct-a [alpha,beta]`, `PlaybackFinished pb-1 done`, `ChannelDtmfReceived ct-b 1`.
 *
 * @example
 * log.events.filter(about('ct-a')).map(describeEvent); // ['StasisStart ct-a [alpha,beta]', ...]
 */
export function describeEvent(event: StreamEvent): string {
  const subject =
    field(event, 'channel') ??
    field(event, 'playback') ??
    field(event, 'recording', 'name') ??
    field(event, 'bridge') ??
    field(event, 'device_state', 'name') ??
    field(event, 'endpoint', 'resource');
  const parts = [event.type];
  if (subject !== undefined) parts.push(String(subject));
  const e = event as Fields;
  switch (event.type) {
    case 'StasisStart':
      parts.push(`[${(e.args as string[] | undefined)?.join(',') ?? ''}]`);
      break;
    case 'ChannelDtmfReceived':
      parts.push(String(e.digit));
      break;
    case 'ChannelStateChange':
      parts.push(String(field(event, 'channel', 'state')));
      break;
    case 'ChannelDestroyed':
      parts.push(`cause=${String(e.cause)}`);
      break;
    case 'ChannelUserevent':
      parts.push(String(e.eventname));
      break;
    case 'DeviceStateChanged':
      parts.push(String(field(event, 'device_state', 'state')));
      break;
    case 'ChannelVarset':
      parts.push(`${String(e.variable)}=${String(e.value)}`);
      break;
    default: {
      const state = field(event, 'playback', 'state') ?? field(event, 'recording', 'state');
      if (state !== undefined) parts.push(String(state));
    }
  }
  return parts.join(' ');
}

/** The resource an event is about (channel, playback, recording, bridge, device), for filtering. */
export function subjectOf(event: StreamEvent): string | undefined {
  const subject =
    field(event, 'channel') ??
    field(event, 'playback') ??
    field(event, 'recording', 'name') ??
    field(event, 'bridge') ??
    field(event, 'device_state', 'name');
  return subject === undefined ? undefined : String(subject);
}
