import type { MediaControlFormat } from './mediaLimits.ts';

/** The first message of every media connection: the channel, its format and frame size. */
export interface MediaStart {
  readonly event: 'MEDIA_START';
  /** The `websocket_client` id (the server connected out) or the UUID the application connected in with. */
  readonly connection_id: string;
  /** The media channel's name: `WebSocket/mt-media/0x7fc05c007140`. */
  readonly channel: string;
  readonly channel_id: string;
  /** `ulaw`, `slin16`, `opus`... */
  readonly format: string;
  /** Bytes of one frame; 0 for codecs passed through unframed. */
  readonly optimal_frame_size: number;
  /** Milliseconds of one frame. */
  readonly ptime: number;
  /** The channel's variables (JSON form only). */
  readonly channel_variables?: Readonly<Record<string, string>>;
}

/** STATUS, the answer to GET_STATUS: the server's playout queue, in frames. */
export interface MediaStatus {
  readonly event: 'STATUS';
  readonly channel_id: string;
  readonly queue_length: number;
  readonly xon_level: number;
  readonly xoff_level: number;
  readonly queue_full: boolean;
  readonly bulk_media: boolean;
  readonly media_paused: boolean;
}

/**
 * A message the server sends on a media socket, with the JSON form's field names. `channel_id`
 * of the marks and of the flow-control events is only in the JSON form.
 */
export type MediaEvent =
  | MediaStart
  | MediaStatus
  | {
      readonly event: 'MEDIA_MARK_PROCESSED' | 'MEDIA_BUFFERING_COMPLETED';
      readonly channel_id?: string;
      readonly correlation_id: string;
    }
  | { readonly event: 'QUEUE_DRAINED' | 'MEDIA_XOFF' | 'MEDIA_XON'; readonly channel_id?: string }
  | { readonly event: 'DTMF_END'; readonly channel_id: string; readonly digit: string }
  | { readonly event: 'ERROR'; readonly channel_id: string; readonly error_text: string };

export type MediaEventName = MediaEvent['event'];

type FieldType = 'string' | 'number' | 'boolean';

/** Each event's fields in the plain-text form's order (the JSON form puts `channel_id` first, but for MEDIA_START). */
const FIELDS: Readonly<Record<MediaEventName, Readonly<Record<string, FieldType>>>> = {
  MEDIA_START: {
    connection_id: 'string',
    channel: 'string',
    channel_id: 'string',
    format: 'string',
    optimal_frame_size: 'number',
    ptime: 'number',
  },
  STATUS: {
    channel_id: 'string',
    queue_length: 'number',
    xon_level: 'number',
    xoff_level: 'number',
    queue_full: 'boolean',
    bulk_media: 'boolean',
    media_paused: 'boolean',
  },
  MEDIA_MARK_PROCESSED: { correlation_id: 'string' },
  MEDIA_BUFFERING_COMPLETED: { correlation_id: 'string' },
  QUEUE_DRAINED: {},
  MEDIA_XOFF: {},
  MEDIA_XON: {},
  DTMF_END: { digit: 'string', channel_id: 'string' },
  ERROR: { channel_id: 'string', error_text: 'string' },
};

/** Events whose plain-text form is `NAME <correlation id>` rather than `key:value` fields. */
const POSITIONAL = new Set<string>(['MEDIA_MARK_PROCESSED', 'MEDIA_BUFFERING_COMPLETED']);

const isEventName = (name: string): name is MediaEventName => Object.hasOwn(FIELDS, name);

/**
 * Writes an event as the server does (the simulator's side).
 *
 * @example
 * formatMediaEvent({ event: 'MEDIA_MARK_PROCESSED', channel_id: 'ws1', correlation_id: 'm1' }, 'plain-text'); // 'MEDIA_MARK_PROCESSED m1'
 * formatMediaEvent({ event: 'DTMF_END', channel_id: 'ws1', digit: '5' }, 'json'); // '{"event":"DTMF_END","channel_id":"ws1","digit":"5"}'
 */
export function formatMediaEvent(event: MediaEvent, format: MediaControlFormat): string {
  const values = event as unknown as Readonly<Record<string, unknown>>;
  const names = Object.keys(FIELDS[event.event]);
  if (format === 'json') {
    const ordered: Record<string, unknown> = { event: event.event };
    if (event.event !== 'MEDIA_START' && values.channel_id !== undefined)
      ordered.channel_id = values.channel_id;
    for (const name of names) if (values[name] !== undefined) ordered[name] = values[name];
    if (event.event === 'MEDIA_START') ordered.channel_variables = event.channel_variables ?? {};
    return JSON.stringify(ordered);
  }
  if (POSITIONAL.has(event.event)) {
    const id = String(values.correlation_id ?? '');
    return id === '' ? event.event : `${event.event} ${id}`;
  }
  return [event.event, ...names.map((name) => `${name}:${String(values[name])}`)].join(' ');
}

/** What a client makes of a text message: a known event, an event it does not know, or text that is not one. */
export type ParsedMediaEvent =
  | { readonly kind: 'event'; readonly event: MediaEvent }
  | { readonly kind: 'unknown'; readonly name: string; readonly text: string }
  | { readonly kind: 'malformed'; readonly reason: string; readonly text: string };

/**
 * Reads a text message from the server, in either control format (JSON when it starts with `{`).
 *
 * @example
 * parseMediaEvent('MEDIA_START connection_id:mt-media channel:WebSocket/mt-media/0x7f channel_id:ws1 format:ulaw optimal_frame_size:160 ptime:20');
 * // { kind: 'event', event: { event: 'MEDIA_START', connection_id: 'mt-media', ..., optimal_frame_size: 160, ptime: 20 } }
 */
export function parseMediaEvent(text: string): ParsedMediaEvent {
  const fields = text.trimStart().startsWith('{') ? jsonFields(text) : plainFields(text);
  if (typeof fields === 'string') return { kind: 'malformed', reason: fields, text };
  const name = fields.event;
  if (typeof name !== 'string') return { kind: 'malformed', reason: 'no event name', text };
  if (!isEventName(name)) return { kind: 'unknown', name, text };
  const event: Record<string, unknown> = { event: name };
  for (const [field, type] of Object.entries(FIELDS[name])) {
    const value = fields[field];
    if (value === undefined && field === 'correlation_id') {
      event[field] = '';
      continue;
    }
    if (typeof value !== type) {
      return {
        kind: 'malformed',
        reason: `${name}: ${field} should be a ${type}, got ${value === undefined ? 'nothing' : JSON.stringify(value)}`,
        text,
      };
    }
    event[field] = value;
  }
  if (typeof fields.channel_id === 'string') event.channel_id = fields.channel_id;
  if (
    name === 'MEDIA_START' &&
    typeof fields.channel_variables === 'object' &&
    fields.channel_variables !== null
  ) {
    event.channel_variables = fields.channel_variables;
  }
  return { kind: 'event', event: event as unknown as MediaEvent };
}

function jsonFields(text: string): Record<string, unknown> | string {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
    return 'JSON that is not an object';
  } catch (error) {
    return `not JSON: ${(error as Error).message}`;
  }
}

/** `NAME key:value key:value ...`, `NAME <id>`; `error_text` takes the rest of the line. */
function plainFields(text: string): Record<string, unknown> | string {
  const space = text.indexOf(' ');
  const name = space < 0 ? text : text.slice(0, space);
  if (!/^[A-Z_]+$/.test(name)) return `'${name.slice(0, 40)}' is not an event name`;
  const fields: Record<string, unknown> = { event: name };
  const rest = space < 0 ? '' : text.slice(space + 1);
  if (POSITIONAL.has(name)) {
    fields.correlation_id = rest.trim();
    return fields;
  }
  const types: Readonly<Record<string, FieldType>> = isEventName(name) ? FIELDS[name] : {};
  let last: string | undefined;
  let remaining = rest;
  while (remaining !== '') {
    const match = /^([a-z_]+):/.exec(remaining);
    if (match && last !== 'error_text') {
      const key = match[1]!;
      const afterKey = remaining.slice(match[0].length);
      const end = key === 'error_text' ? afterKey.length : afterKey.search(/ (?=[a-z_]+:)|$/);
      fields[key] = afterKey.slice(0, end);
      last = key;
      remaining = afterKey.slice(end).replace(/^ /, '');
    } else {
      return `unexpected text '${remaining.slice(0, 40)}'`;
    }
  }
  for (const [key, type] of Object.entries(types)) {
    const raw = fields[key];
    if (typeof raw !== 'string') continue;
    if (type === 'number' && /^-?\d+$/.test(raw)) fields[key] = Number(raw);
    if (type === 'boolean' && (raw === 'true' || raw === 'false')) fields[key] = raw === 'true';
  }
  return fields;
}
