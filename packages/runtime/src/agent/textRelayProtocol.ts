/**
 * The text relay: how ringflow and a bot talk when ringflow does the speech (speech-to-text of
 * the caller, text-to-speech of the bot). One JSON object per WebSocket text message (or per
 * in-process message), `type` first. This file is the one description of the protocol: the
 * runtime's relay, @ringflow/testing's scripted bots and the demo bot all use it.
 *
 * A session: ringflow sends `setup`; the caller's words come as `caller` (partial ones with
 * `final: false`, then the utterance); the bot answers with `say` messages (streamed: each is
 * spoken as soon as it arrives, in order), may ask the flow for a `tool` and get a `toolResult`,
 * is told `interrupted` when the caller talked over it (the rest of its queued words were
 * dropped) and `key` for each key pressed (when keys go to the bot); it ends the session with
 * `end` and a result the flow routes on. ringflow sends `hangup` when the session ends otherwise
 * (the caller hung up, a time limit, a key that ends the step), then closes.
 */

export const TEXT_RELAY_PROTOCOL = 'ringflow-text-relay.1';

/** The results a bot may end a session with: the flow routes on them (`on: { handoff: ... }`). */
export const BOT_RESULTS = ['handoff', 'done', 'failed'] as const;
export type BotResult = (typeof BOT_RESULTS)[number];

/** ringflow → bot: the call, once the caller and the bot are connected. */
export interface SetupMessage {
  readonly type: 'setup';
  readonly protocol: typeof TEXT_RELAY_PROTOCOL;
  readonly call: {
    readonly id: string;
    readonly caller?: { readonly number: string; readonly name: string };
    readonly extension?: string;
    readonly language?: string;
  };
  /** What the flow gives the bot (the step's `context:`, evaluated). */
  readonly context: Readonly<Record<string, unknown>>;
}

/** ringflow → bot: what the caller said (`final: false` while they talk, then the utterance). */
export interface CallerMessage {
  readonly type: 'caller';
  readonly text: string;
  readonly final: boolean;
}

/** ringflow → bot: the caller talked over the bot; what it had still to say was dropped. */
export interface InterruptedMessage {
  readonly type: 'interrupted';
}

/** ringflow → bot: a key the caller pressed. */
export interface KeyMessage {
  readonly type: 'key';
  readonly digit: string;
}

/** ringflow → bot: the flow's answer to a `tool` request (`error` when it has none). */
export interface ToolResultMessage {
  readonly type: 'toolResult';
  readonly id: string;
  readonly result?: unknown;
  readonly error?: string;
}

/** ringflow → bot: the session is over without the bot's `end` (`reason` says why). */
export interface HangupMessage {
  readonly type: 'hangup';
  readonly reason: string;
}

export type RelayMessage =
  | SetupMessage
  | CallerMessage
  | InterruptedMessage
  | KeyMessage
  | ToolResultMessage
  | HangupMessage;

/** bot → ringflow: words to speak to the caller, spoken in order as they arrive. */
export interface SayMessage {
  readonly type: 'say';
  readonly text: string;
}

/** bot → ringflow: asks the flow for a tool (`tools:` of the agent step); answered by `toolResult`. */
export interface ToolMessage {
  readonly type: 'tool';
  readonly id: string;
  readonly name: string;
  readonly args?: Readonly<Record<string, unknown>>;
}

/** bot → ringflow: ends the session once its words are heard; the flow routes on `result`. */
export interface EndMessage {
  readonly type: 'end';
  readonly result: BotResult;
  readonly data?: Readonly<Record<string, unknown>>;
}

export type BotMessage = SayMessage | ToolMessage | EndMessage;

/** @internal A JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * @internal Reads a bot's `tool` or `end` (words both protocols share); undefined for other types.
 */
export function readToolOrEnd(
  value: Record<string, unknown>,
): ToolMessage | EndMessage | { readonly error: string } | undefined {
  switch (value.type) {
    case 'tool':
      if (typeof value.id !== 'string' || typeof value.name !== 'string')
        return { error: 'the bot sent tool without id and name (strings)' };
      if (value.args !== undefined && !isRecord(value.args))
        return { error: `the bot sent tool ${value.name} with args that are not an object` };
      return {
        type: 'tool',
        id: value.id,
        name: value.name,
        ...(value.args !== undefined ? { args: value.args } : {}),
      };
    case 'end':
      if (!(BOT_RESULTS as readonly unknown[]).includes(value.result))
        return {
          error: `the bot ended with result ${JSON.stringify(value.result)}: expected ${BOT_RESULTS.join(', ')}`,
        };
      if (value.data !== undefined && !isRecord(value.data))
        return { error: 'the bot ended with data that is not an object' };
      return {
        type: 'end',
        result: value.result as BotResult,
        ...(value.data !== undefined ? { data: value.data } : {}),
      };
    default:
      return undefined;
  }
}

/** @internal The JSON object of a bot's text message, or a sentence saying why it is not one. */
export function readJsonObject(
  text: string,
): { readonly value: Record<string, unknown> } | { readonly error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: `the bot sent text that is not JSON: ${text.slice(0, 60)}` };
  }
  return isRecord(value) ? { value } : { error: 'the bot sent JSON that is not an object' };
}

/**
 * Reads one message of a bot; a message that breaks the protocol gives a sentence saying what
 * is wrong (the relay ends the session as `failed` with it).
 * @example parseBotMessage('{"type":"say","text":"Hello"}') // { type: 'say', text: 'Hello' }
 */
export function parseBotMessage(text: string): BotMessage | { readonly error: string } {
  const read = readJsonObject(text);
  if ('error' in read) return read;
  const value = read.value;
  if (value.type === 'say')
    return typeof value.text === 'string'
      ? { type: 'say', text: value.text }
      : { error: 'the bot sent say without text (a string)' };
  return (
    readToolOrEnd(value) ?? {
      error: `the bot sent a message of type ${JSON.stringify(value.type)}: expected say, tool or end`,
    }
  );
}

/**
 * Reads one message of ringflow, for bots written in TypeScript (the demo bot, scripted bots);
 * undefined for anything else (a bot should ignore what it does not know).
 */
export function parseRelayMessage(text: string): RelayMessage | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (!isRecord(value) || typeof value.type !== 'string') return undefined;
    return ['setup', 'caller', 'interrupted', 'key', 'toolResult', 'hangup'].includes(value.type)
      ? (value as unknown as RelayMessage)
      : undefined;
  } catch {
    return undefined;
  }
}
