/**
 * The text half of the media WebSocket protocol (chan_websocket), as recorded from a real server:
 * commands the application sends and events the server answers with, in the plain-text form
 * (`COMMAND arg`, `EVENT key:value ...`) or the JSON form (`{"command": ...}`, `{"event": ...}`).
 */

/** Control text longer than this gets no reply at all (observed: the server only logs). */
export const MAX_CONTROL_TEXT_BYTES = 128;

/** A command the server acts on. Unknown commands are `undefined` (no reply, observed). */
export type MediaCommand =
  | { readonly command: 'ANSWER' | 'HANGUP' | 'FLUSH_MEDIA' | 'REPORT_QUEUE_DRAINED' | 'GET_STATUS' }
  | { readonly command: 'PAUSE_MEDIA' | 'CONTINUE_MEDIA' | 'START_MEDIA_BUFFERING' }
  | { readonly command: 'MARK_MEDIA' | 'STOP_MEDIA_BUFFERING'; readonly id: string }
  | { readonly command: 'SET_MEDIA_DIRECTION'; readonly direction: string | undefined };

const SIMPLE = new Set([
  'ANSWER',
  'HANGUP',
  'FLUSH_MEDIA',
  'REPORT_QUEUE_DRAINED',
  'GET_STATUS',
  'PAUSE_MEDIA',
  'CONTINUE_MEDIA',
  'START_MEDIA_BUFFERING',
]);

/** What a control text is: a command, something ignored, or an error to report. */
export type ParsedControl =
  | { readonly kind: 'command'; readonly value: MediaCommand }
  | { readonly kind: 'ignored' }
  | { readonly kind: 'error'; readonly text: string };

/**
 * Reads one control text in the connection's format.
 *
 * @example
 * parseControl('MARK_MEDIA m1', 'plain-text'); // { kind: 'command', value: { command: 'MARK_MEDIA', id: 'm1' } }
 * parseControl('{"command":"GET_STATUS"}', 'json'); // { kind: 'command', value: { command: 'GET_STATUS' } }
 */
export function parseControl(text: string, format: 'plain-text' | 'json'): ParsedControl {
  if (Buffer.byteLength(text) > MAX_CONTROL_TEXT_BYTES) return { kind: 'ignored' };
  let name: string;
  let argument: string | undefined;
  let direction: string | undefined;
  if (format === 'json') {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return { kind: 'error', text: 'Unable to parse JSON command' };
    }
    if (typeof message !== 'object' || message === null) {
      return { kind: 'error', text: 'Unable to parse JSON command' };
    }
    const fields = message as Record<string, unknown>;
    name = typeof fields.command === 'string' ? fields.command : '';
    argument = typeof fields.correlation_id === 'string' ? fields.correlation_id : undefined;
    direction = typeof fields.direction === 'string' ? fields.direction : undefined;
  } else {
    const space = text.indexOf(' ');
    name = space < 0 ? text : text.slice(0, space);
    argument = space < 0 ? undefined : text.slice(space + 1).trim();
    // Observed: only the JSON form can change the direction.
    if (name === 'SET_MEDIA_DIRECTION') {
      return { kind: 'error', text: 'SET_MEDIA_DIRECTION only supports JSON format.\n' };
    }
  }
  if (SIMPLE.has(name)) return { kind: 'command', value: { command: name } as MediaCommand };
  if (name === 'MARK_MEDIA' || name === 'STOP_MEDIA_BUFFERING') {
    return { kind: 'command', value: { command: name, id: argument ?? '' } };
  }
  if (name === 'SET_MEDIA_DIRECTION') return { kind: 'command', value: { command: name, direction } };
  return { kind: 'ignored' };
}

/** Formats a server event in the connection's format (JSON: `event`, `channel_id`, then the fields). */
export function formatEvent(
  format: 'plain-text' | 'json',
  event: string,
  channelId: string,
  fields: Readonly<Record<string, string | number | boolean>> = {},
  plain?: string,
): string {
  if (format === 'json') return JSON.stringify({ event, channel_id: channelId, ...fields });
  return plain ?? event;
}

/** `ERROR` in either format (plain: `ERROR channel_id:<id> error_text:<text>`). */
export function formatError(format: 'plain-text' | 'json', channelId: string, text: string): string {
  return formatEvent(
    format,
    'ERROR',
    channelId,
    { error_text: text },
    `ERROR channel_id:${channelId} error_text:${text}`,
  );
}
