import { assign, sendParent, sendTo, setup } from 'xstate';
import type { AgentInput } from './AgentServices.ts';
import { relayActor } from './relayActor.ts';
import type { RelayIds, RelayReport } from './TextRelay.ts';

/** The outcomes of an agent session: the bot's results, then the ones ringflow decides. */
export const AGENT_OUTCOMES = [
  'handoff',
  'done',
  'failed',
  'unreachable',
  'botSilent',
  'callerSilent',
  'timeout',
  'key',
] as const;
export type AgentOutcome = (typeof AGENT_OUTCOMES)[number];

/** How a session ended: its outcome and what it carries. */
export interface AgentSessionResult {
  readonly outcome: AgentOutcome;
  /** The bot's `end` data (handoff, done, failed by the bot). */
  readonly data: Readonly<Record<string, unknown>>;
  /** What went wrong (failed, unreachable) or which limit was reached. */
  readonly message: string;
  /** The key that ended the session (outcome key). */
  readonly digit: string;
  /** What the caller said, utterance by utterance, and how often they talked over the bot. */
  readonly turns: number;
  readonly interruptions: number;
  readonly lastCallerText: string;
}

/** Sent to the machine that runs the session when the bot asks for a tool; answer with {@link AGENT_TOOL_RESULT}. */
export const AGENT_TOOL = 'ringflow.agent.tool';
export const AGENT_TOOL_RESULT = 'ringflow.agent.toolResult';

export interface AgentToolRequest {
  readonly type: typeof AGENT_TOOL;
  readonly id: string;
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

export interface AgentToolAnswer {
  readonly type: typeof AGENT_TOOL_RESULT;
  readonly id: string;
  readonly result?: unknown;
  readonly error?: string;
}

interface AgentContext extends RelayIds {
  readonly input: AgentInput;
  readonly outcome: AgentOutcome | undefined;
  readonly data: Readonly<Record<string, unknown>>;
  readonly message: string;
  readonly digit: string;
  readonly turns: number;
  readonly interruptions: number;
  readonly lastCallerText: string;
  /** The bot has words queued or playing. */
  readonly botTalking: boolean;
}

type AgentEvent =
  | RelayReport
  | AgentToolAnswer
  | { readonly type: 'StasisStart'; readonly channel?: { readonly id?: string } }
  | {
      readonly type: 'ChannelDtmfReceived';
      readonly digit?: string;
      readonly channel?: { readonly id?: string };
    };

/** Ends the session with an outcome (the first one decided wins). */
const end = (outcome: AgentOutcome, message?: string) =>
  ({ type: 'end', params: { outcome, message: message ?? '' } }) as const;
/** Ends it with the message of the relay's report. */
const endReported = (outcome: AgentOutcome) =>
  ({
    type: 'end',
    params: ({ event }: { event: AgentEvent }) => ({
      outcome,
      message: 'message' in event ? String(event.message) : '',
    }),
  }) as const;

/**
 * One agent session as a statechart: the caller talks with a bot while the flow stays in charge,
 * over the text relay or the audio protocol (`settings.protocol`; the relay actor differs, the
 * chart is the same: with audio, the caller's turn ends when they stop talking, the bot's speech
 * is a stretch of its audio, and the bot may clear its own audio). It connects the bot (`unreachable` when it cannot), then alternates the
 * caller's turn and the bot's: the caller's words go to the bot, which must answer within its
 * limit (`botSilent`); when it has spoken, the caller must talk within theirs (`callerSilent`);
 * caller speech while the bot talks flushes the bot's audio (barge-in). A key in `endKeys` ends
 * the session (`key`), other keys go to the bot; the whole session has a limit (`timeout`). The
 * bot ends it with `handoff`, `done` or `failed` once its last words were heard. Tool requests go
 * to the parent machine as {@link AGENT_TOOL} events and its {@link AGENT_TOOL_RESULT} goes back.
 * Its output is an {@link AgentSessionResult}.
 *
 * @example invoke: { id: 'agent', src: agentMachine, input: { call, ari, application, clock, newId, services, settings }, onDone: ... }
 */
export const agentMachine = setup({
  types: {} as { context: AgentContext; events: AgentEvent; input: AgentInput; output: AgentSessionResult },
  actors: { relay: relayActor },
  actions: {
    end: assign(({ context }, params: { outcome: AgentOutcome; message: string }) =>
      context.outcome !== undefined ? {} : { outcome: params.outcome, message: params.message },
    ),
    botCleared: assign(({ context }) => ({ botTalking: false, interruptions: context.interruptions + 1 })),
  },
  delays: {
    connect: ({ context }) => context.input.settings.limits.connectMs,
    botSilence: ({ context }) => context.input.settings.limits.botSilenceMs,
    callerSilence: ({ context }) => context.input.settings.limits.callerSilenceMs,
    session: ({ context }) => context.input.settings.limits.sessionMs,
  },
  guards: {
    mediaEntered: ({ context, event }) =>
      event.type === 'StasisStart' && event.channel?.id === context.mediaChannelId,
    ownKey: ({ context, event }) =>
      event.type === 'ChannelDtmfReceived' && event.channel?.id === context.input.call.channelId,
    endKey: ({ context, event }) =>
      event.type === 'ChannelDtmfReceived' &&
      event.channel?.id === context.input.call.channelId &&
      typeof event.digit === 'string' &&
      context.input.settings.endKeys.includes(event.digit),
    keysToBot: ({ context }) => context.input.settings.keysToBot,
    bargeIn: ({ context }) => context.input.settings.bargeIn,
    botTalking: ({ context }) => context.botTalking,
  },
}).createMachine({
  id: 'agent',
  context: ({ input }) => ({
    input,
    bridgeId: input.newId('bridge'),
    mediaChannelId: input.newId('channel'),
    outcome: undefined,
    data: {},
    message: '',
    digit: '',
    turns: 0,
    interruptions: 0,
    lastCallerText: '',
    botTalking: false,
  }),
  invoke: {
    id: 'relay',
    src: 'relay',
    input: ({ context }) => ({
      ...context.input,
      bridgeId: context.bridgeId,
      mediaChannelId: context.mediaChannelId,
    }),
  },
  on: {
    StasisStart: { guard: 'mediaEntered', actions: sendTo('relay', { type: 'mediaEntered' }) },
  },
  after: {
    session: { target: '.closing', actions: end('timeout', 'the session reached its time limit') },
  },
  initial: 'connecting',
  states: {
    connecting: {
      after: {
        connect: {
          target: 'closing',
          actions: end('unreachable', 'the bot did not answer in time'),
        },
      },
      on: {
        'relay.ready': 'talking',
        'relay.unreachable': { target: 'closing', actions: endReported('unreachable') },
        'relay.failed': { target: 'closing', actions: endReported('failed') },
      },
    },
    talking: {
      initial: 'callerTurn',
      on: {
        'relay.callerSaid': {
          target: '.botTurn',
          reenter: true,
          actions: assign(({ context, event }) => ({ turns: context.turns + 1, lastCallerText: event.text })),
        },
        'relay.botSays': { target: '.botSpeaking', actions: assign({ botTalking: true }) },
        'relay.botDone': { actions: assign({ botTalking: false }) },
        /** An audio bot stopped its own audio (its barge-in): the caller's turn. */
        'relay.botCleared': [
          { guard: ({ event }) => event.callerTalking, target: '.callerTalking', actions: 'botCleared' },
          { target: '.callerTurn', actions: 'botCleared' },
        ],
        'relay.tool': {
          target: '.botWorking',
          actions: sendParent(({ event }) => ({
            type: 'ringflow.agent.tool',
            id: event.id,
            name: event.name,
            args: event.args,
          })),
        },
        'ringflow.agent.toolResult': {
          target: '.botTurn',
          reenter: true,
          actions: sendTo('relay', ({ event }) => ({ ...event, type: 'toolResult' as const })),
        },
        'relay.botEnd': {
          target: 'ending',
          actions: assign(({ context, event }) =>
            context.outcome !== undefined ? {} : { outcome: event.result as AgentOutcome, data: event.data },
          ),
        },
        'relay.failed': { target: 'closing', actions: endReported('failed') },
        ChannelDtmfReceived: [
          {
            guard: 'endKey',
            target: 'closing',
            actions: [
              end('key', 'a key ended the session'),
              assign(({ event }) => ({ digit: 'digit' in event ? String(event.digit) : '' })),
            ],
          },
          {
            guard: ({ context, event }) =>
              context.input.settings.keysToBot &&
              event.type === 'ChannelDtmfReceived' &&
              event.channel?.id === context.input.call.channelId,
            actions: sendTo('relay', ({ event }) => ({
              type: 'key' as const,
              digit: 'digit' in event ? String(event.digit) : '',
            })),
          },
        ],
      },
      states: {
        /** The caller's turn: they must start talking in time. */
        callerTurn: {
          after: {
            callerSilence: {
              target: '#agent.closing',
              actions: end('callerSilent', 'the caller said nothing in time'),
            },
          },
          on: { 'relay.callerTalking': 'callerTalking' },
        },
        /** Words are on their way: a recogniser that never finishes gives the turn back. */
        callerTalking: { after: { callerSilence: 'callerTurn' } },
        /** The bot has the caller's words: it must answer in time. */
        botTurn: {
          after: {
            botSilence: {
              target: '#agent.closing',
              actions: end('botSilent', 'the bot did not answer in time'),
            },
          },
          on: { 'relay.callerTalking': 'callerTalking' },
        },
        /** The bot asked the flow for a tool: its answer restarts the bot's turn. */
        botWorking: {},
        botSpeaking: {
          on: {
            'relay.botDone': { target: 'callerTurn', actions: assign({ botTalking: false }) },
            'relay.callerTalking': {
              guard: 'bargeIn',
              target: 'callerTalking',
              actions: [
                sendTo('relay', { type: 'interrupt' }),
                assign(({ context }) => ({ interruptions: context.interruptions + 1, botTalking: false })),
              ],
            },
          },
        },
      },
    },
    /** The bot ended the session: its last words are heard first. */
    ending: {
      always: { guard: ({ context }) => !context.botTalking, target: 'closing' },
      on: {
        'relay.botSays': { actions: assign({ botTalking: true }) },
        'relay.botDone': { target: 'closing', actions: assign({ botTalking: false }) },
        'relay.botCleared': { target: 'closing', actions: 'botCleared' },
        'relay.failed': { target: 'closing' },
      },
      // No limit of its own: the audio ends (its mark comes back, or the relay gives up on it), or the session's limit.
    },
    closing: {
      entry: [
        sendTo('relay', ({ context }) => ({
          type: 'close' as const,
          ...(['handoff', 'done', 'failed'].includes(context.outcome ?? '') && context.message === ''
            ? {}
            : { reason: context.outcome ?? 'failed' }),
        })),
        ({ context }) => context.input.services.metrics?.ended(context.outcome ?? 'failed'),
      ],
      on: { 'relay.closed': 'closed' },
      after: { 5000: 'closed' },
    },
    closed: { type: 'final' },
  },
  output: ({ context }) => ({
    outcome: context.outcome ?? 'failed',
    data: context.data,
    message: context.message,
    digit: context.digit,
    turns: context.turns,
    interruptions: context.interruptions,
    lastCallerText: context.lastCallerText,
  }),
});
