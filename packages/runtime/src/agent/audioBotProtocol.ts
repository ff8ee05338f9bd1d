/**
 * The audio bot protocol: how ringflow and a bot talk when the bot does its own speech (a
 * speech-to-speech model, a Pipecat-style pipeline, an echo bot). One WebSocket, subprotocol
 * `ringflow-audio.1`; this file is the one description of it (the runtime's relay, the test bots
 * and the demo bot use it).
 *
 * - **Binary messages** are audio in the format `setup.media` gives (slin16: signed 16-bit
 *   little-endian mono at 16 kHz). ringflow sends the caller's audio as the server delivers it,
 *   one 20 ms frame (640 bytes) a message (a stretch may end with a short frame; gaps are not
 *   filled with silence). The bot sends its audio in messages of any whole number
 *   of samples up to {@link MAX_AUDIO_MESSAGE_BYTES}, as fast as it makes it: ringflow cuts it into
 *   frames and paces it to the server (MEDIA_XOFF/XON honoured), holding at most 60 s ahead.
 * - **Text messages** are JSON objects, `type` first. ringflow → bot: `setup` (the call, the
 *   context, the audio format), `mark` (a mark of the bot's was played, or cleared), `key`,
 *   `toolResult`, `interrupted` (ringflow's own barge-in dropped the bot's audio, with
 *   `bargeIn: true`), `hangup` (the session ended without the bot's `end`). Bot → ringflow:
 *   `mark` (tell me when the audio sent so far has been heard), `clear` (drop the audio not yet
 *   heard: the bot's barge-in), `tool`, `end` (once the audio sent has been heard). `setup`,
 *   `key`, `toolResult`, `interrupted`, `hangup`, `tool` and `end` are the text relay's words.
 */
import {
  type EndMessage,
  type HangupMessage,
  type InterruptedMessage,
  isRecord,
  type KeyMessage,
  readJsonObject,
  readToolOrEnd,
  type SetupMessage,
  type ToolMessage,
  type ToolResultMessage,
} from './textRelayProtocol.ts';

export const AUDIO_BOT_PROTOCOL = 'ringflow-audio.1';

/** The largest binary message a bot may send (the media socket's own limit). */
export const MAX_AUDIO_MESSAGE_BYTES = 65_535;

/** The audio of a session, told in `setup.media`. */
export interface AudioBotMedia {
  readonly format: 'slin16';
  readonly sampleRate: number;
  /** The frames ringflow sends: `frameMs` long, `frameBytes` each. */
  readonly frameMs: number;
  readonly frameBytes: number;
}

/** slin16 in 20 ms frames: what an agent session's media channel carries. */
export const AUDIO_BOT_MEDIA: AudioBotMedia = {
  format: 'slin16',
  sampleRate: 16_000,
  frameMs: 20,
  frameBytes: 640,
};

/** ringflow → bot: the call, once the caller and the bot are connected; audio follows. */
export interface AudioSetupMessage {
  readonly type: 'setup';
  readonly protocol: typeof AUDIO_BOT_PROTOCOL;
  readonly call: SetupMessage['call'];
  readonly context: SetupMessage['context'];
  readonly media: AudioBotMedia;
}

/** ringflow → bot: the audio the bot sent before its mark `name` was heard (`played`), or dropped (`played: false`: a clear, a barge-in). */
export interface MarkReachedMessage {
  readonly type: 'mark';
  readonly name: string;
  readonly played: boolean;
}

export type AudioRelayMessage =
  | AudioSetupMessage
  | MarkReachedMessage
  | InterruptedMessage
  | KeyMessage
  | ToolResultMessage
  | HangupMessage;

/** bot → ringflow: tell me (`mark` back) when the audio sent so far has been heard. */
export interface MarkMessage {
  readonly type: 'mark';
  readonly name: string;
}

/** bot → ringflow: drop the audio not yet heard (the bot's barge-in: ringflow sends FLUSH_MEDIA). */
export interface ClearMessage {
  readonly type: 'clear';
}

export type AudioBotMessage = MarkMessage | ClearMessage | ToolMessage | EndMessage;

/**
 * Reads one text message of an audio bot; a message that breaks the protocol gives a sentence
 * saying what is wrong (the relay ends the session as `failed` with it).
 * @example parseAudioBotMessage('{"type":"clear"}') // { type: 'clear' }
 */
export function parseAudioBotMessage(text: string): AudioBotMessage | { readonly error: string } {
  const read = readJsonObject(text);
  if ('error' in read) return read;
  const value = read.value;
  switch (value.type) {
    case 'clear':
      return { type: 'clear' };
    case 'mark':
      return typeof value.name === 'string' && value.name !== ''
        ? { type: 'mark', name: value.name }
        : { error: 'the bot sent mark without a name (a string)' };
    case 'say':
      return {
        error: `the bot sent say, a word of the text relay: this step speaks the audio protocol (${AUDIO_BOT_PROTOCOL}); send audio, or use protocol: text`,
      };
    default:
      return (
        readToolOrEnd(value) ?? {
          error: `the bot sent a message of type ${JSON.stringify(value.type)}: expected mark, clear, tool or end`,
        }
      );
  }
}

/** Checks one binary message of an audio bot: whole samples, not too large. */
export function audioMessageProblem(data: Uint8Array): string | undefined {
  if (data.byteLength % 2 !== 0)
    return `the bot sent ${data.byteLength} bytes of audio: slin16 comes in whole samples of 2 bytes`;
  if (data.byteLength > MAX_AUDIO_MESSAGE_BYTES)
    return `the bot sent ${data.byteLength} bytes of audio in one message: at most ${MAX_AUDIO_MESSAGE_BYTES}`;
  return undefined;
}

/**
 * Reads one text message of ringflow, for audio bots written in TypeScript; undefined for
 * anything else (a bot should ignore what it does not know).
 */
export function parseAudioRelayMessage(text: string): AudioRelayMessage | undefined {
  const read = readJsonObject(text);
  if ('error' in read || !isRecord(read.value) || typeof read.value.type !== 'string') return undefined;
  return ['setup', 'mark', 'interrupted', 'key', 'toolResult', 'hangup'].includes(read.value.type)
    ? (read.value as unknown as AudioRelayMessage)
    : undefined;
}
