import { MAX_CONTROL_TEXT_BYTES, type MediaControlFormat } from './mediaLimits.ts';

/** Which way media flows after SET_MEDIA_DIRECTION, from the application's point of view. */
export type MediaDirection = 'both' | 'in' | 'out';

/**
 * A command an application sends on a media socket, with the JSON form's field names. The
 * plain-text form is `COMMAND [correlation_id]`; SET_MEDIA_DIRECTION exists in JSON only.
 */
export type MediaCommand =
  | {
      readonly command:
        | 'ANSWER'
        | 'HANGUP'
        | 'FLUSH_MEDIA'
        | 'REPORT_QUEUE_DRAINED'
        | 'GET_STATUS'
        | 'PAUSE_MEDIA'
        | 'CONTINUE_MEDIA'
        | 'START_MEDIA_BUFFERING';
    }
  | { readonly command: 'MARK_MEDIA' | 'STOP_MEDIA_BUFFERING'; readonly correlation_id: string }
  | { readonly command: 'SET_MEDIA_DIRECTION'; readonly direction: MediaDirection };

export type MediaCommandName = MediaCommand['command'];

const WITHOUT_ARGUMENT: ReadonlySet<string> = new Set([
  'ANSWER',
  'HANGUP',
  'FLUSH_MEDIA',
  'REPORT_QUEUE_DRAINED',
  'GET_STATUS',
  'PAUSE_MEDIA',
  'CONTINUE_MEDIA',
  'START_MEDIA_BUFFERING',
]);

/**
 * Writes a command in the connection's control format. Throws when the server could not take
 * it: SET_MEDIA_DIRECTION in plain text, an id with a space, text over 128 bytes.
 *
 * @example
 * formatMediaCommand({ command: 'MARK_MEDIA', correlation_id: 'm1' }, 'plain-text'); // 'MARK_MEDIA m1'
 * formatMediaCommand({ command: 'GET_STATUS' }, 'json'); // '{"command":"GET_STATUS"}'
 */
export function formatMediaCommand(command: MediaCommand, format: MediaControlFormat): string {
  let text: string;
  if (format === 'json') {
    text = JSON.stringify(command);
  } else {
    if (command.command === 'SET_MEDIA_DIRECTION') {
      throw new TypeError('SET_MEDIA_DIRECTION needs the JSON control format (transport_data f(json))');
    }
    if ('correlation_id' in command) {
      if (/\s/.test(command.correlation_id)) {
        throw new TypeError(`${command.command}: correlation id '${command.correlation_id}' has a space`);
      }
      text = command.correlation_id === '' ? command.command : `${command.command} ${command.correlation_id}`;
    } else {
      text = command.command;
    }
  }
  if (Buffer.byteLength(text) > MAX_CONTROL_TEXT_BYTES) {
    throw new TypeError(
      `${command.command} is ${Buffer.byteLength(text)} bytes written out; the server ignores control text over ${MAX_CONTROL_TEXT_BYTES}`,
    );
  }
  return text;
}

/** What a server makes of a control text: a command, something ignored (no reply), or an error to report. */
export type ParsedMediaCommand =
  | { readonly kind: 'command'; readonly command: MediaCommand }
  | { readonly kind: 'ignored' }
  | { readonly kind: 'error'; readonly text: string };

/**
 * Reads a control text as the server does (the simulator's side): unknown commands and text
 * over 128 bytes are ignored; errors carry the server's own text.
 *
 * @example
 * parseMediaCommand('MARK_MEDIA m1', 'plain-text'); // { kind: 'command', command: { command: 'MARK_MEDIA', correlation_id: 'm1' } }
 */
export function parseMediaCommand(text: string, format: MediaControlFormat): ParsedMediaCommand {
  if (Buffer.byteLength(text) > MAX_CONTROL_TEXT_BYTES) return { kind: 'ignored' };
  let name: string;
  let id: string | undefined;
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
    id = typeof fields.correlation_id === 'string' ? fields.correlation_id : undefined;
    direction = typeof fields.direction === 'string' ? fields.direction : undefined;
  } else {
    const space = text.indexOf(' ');
    name = space < 0 ? text : text.slice(0, space);
    id = space < 0 ? undefined : text.slice(space + 1).trim();
    if (name === 'SET_MEDIA_DIRECTION') {
      return { kind: 'error', text: 'SET_MEDIA_DIRECTION only supports JSON format.\n' };
    }
  }
  if (WITHOUT_ARGUMENT.has(name)) {
    return { kind: 'command', command: { command: name } as MediaCommand };
  }
  if (name === 'MARK_MEDIA' || name === 'STOP_MEDIA_BUFFERING') {
    return { kind: 'command', command: { command: name, correlation_id: id ?? '' } };
  }
  if (name === 'SET_MEDIA_DIRECTION') {
    if (direction !== 'both' && direction !== 'in' && direction !== 'out') {
      return {
        kind: 'error',
        text: `'${direction ?? ''}' is not a valid direction for SET_MEDIA_DIRECTION.\n`,
      };
    }
    return { kind: 'command', command: { command: name, direction } };
  }
  return { kind: 'ignored' };
}
