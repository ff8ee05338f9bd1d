import { FLOW_NAME, flowNameHint } from '../model/flowName.ts';
import { type Infer, s } from '../schema/s.ts';
import { agentToolSchema } from './agentTools.ts';
import { stepParams } from './StepDefinition.ts';

/** A bot: a WebSocket URL, or a name the application maps to a bot (`order-status-bot`). */
export const BOT_ADDRESS = /^(wss?:\/\/\S+|[A-Za-z_][A-Za-z0-9_.-]*)$/;

export const agentParams = stepParams(
  {
    bot: s.value(
      s.string({
        description:
          'The bot: a WebSocket URL (ws://host:port/path) speaking the protocol of `protocol`, or the name of a bot the application runs in process.',
        pattern: BOT_ADDRESS,
        patternHint: 'a ws:// or wss:// URL, or a bot name (letters, digits, _ . -)',
        examples: ['ws://127.0.0.1:9100/bot', 'order-status-bot'],
      }),
    ),
    protocol: s.optional(
      s.enum(['text', 'audio'], {
        description:
          "How ringflow talks with the bot: text (ringflow does speech-to-text and text-to-speech; JSON turns over the WebSocket) or audio (the bot gets the caller's audio frames and sends its own: speech-to-speech models, pipelines); see docs/agents.md.",
        default: 'text',
      }),
    ),
    context: s.optional(
      s.record(s.value(s.any()), {
        description:
          'What the bot is told about the call in its setup message (name -> literal or { expr }).',
      }),
    ),
    language: s.optional(
      s.string({ description: "The language the caller speaks (BCP 47, en-US); default the channel's." }),
    ),
    endKeys: s.optional(
      s.string({
        description: 'Keys that end the session (outcome key), e.g. "0" for an operator.',
        pattern: /^[0-9*#A-D]+$/,
        patternHint: 'DTMF keys (0-9, *, #, A-D)',
      }),
    ),
    keysToBot: s.optional(
      s.boolean({ description: 'Other keys the caller presses go to the bot.', default: true }),
    ),
    bargeIn: s.optional(
      s.boolean({
        description:
          "The caller talking over the bot stops the bot's audio (and the bot is told). Default true with protocol text; false with audio, where the bot stops its audio itself (clear).",
      }),
    ),
    connectTimeout: s.optional(
      s.duration({
        description: 'The bot must accept the connection within this (outcome unreachable).',
        default: '5s',
      }),
    ),
    botTimeout: s.optional(
      s.duration({
        description: "The bot must answer the caller's words within this (outcome botSilent).",
        default: '8s',
      }),
    ),
    callerTimeout: s.optional(
      s.duration({
        description:
          'The caller must start talking within this once the bot has spoken (outcome callerSilent).',
        default: '15s',
      }),
    ),
    maxDuration: s.optional(
      s.duration({ description: 'The whole session at most (outcome timeout).', default: '10m' }),
    ),
    tools: s.optional(
      s.record(agentToolSchema, {
        description:
          "Tools the bot may ask for: name -> { http: { url, method, headers, body, timeout } } (a webhook), { queue: <name> } (a queue's state), or a literal or { expr }; `event.args` holds the bot's arguments. The answer goes back to the bot.",
        keyPattern: FLOW_NAME,
        keyHint: flowNameHint('a tool'),
      }),
    ),
  },
  'Connects the caller with a bot (voice agent) and routes on how the conversation ended.',
);

export type AgentParams = Infer<typeof agentParams>;
