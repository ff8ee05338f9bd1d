import {
  AGENT_TOOL,
  AGENT_TOOL_RESULT,
  type AgentInput,
  type AgentOutcome,
  type AgentSessionResult,
  type AgentSettings,
  agentMachine,
  DEFAULT_AGENT_LIMITS,
} from '@ringflow/runtime/agent-session';
import { enqueueActions, sendTo } from 'xstate';
import { type ActionArgs, resolveValue, scopeOf } from '../compile/FlowContext.ts';
import type { Action, StateSpec, TransitionSpec } from '../compile/StateSpec.ts';
import { parseDuration } from '../schema/s.ts';
import { recordShape } from '../expr/TypeShape.ts';
import { type AgentParams, agentParams } from './agentParams.ts';
import { checkAgentTools, toolDesk, toolWork } from './agentTools.ts';
import { defineStep, type OutcomeSpec, type StepBuild } from './StepDefinition.ts';

/** What every outcome's result holds (`event.<field>`, and `vars.<as>`). */
const RESULT = {
  data: ['map', "the bot's end data (handoff, done, failed by the bot)"],
  message: ['string', 'what went wrong, or which limit was reached'],
  digit: ['string', 'the key that ended the session (key)'],
  turns: ['int', 'how many times the caller spoke'],
  interruptions: ['int', 'how many times the caller talked over the bot'],
  lastCallerText: ['string', 'what the caller said last'],
} as const satisfies OutcomeSpec['data'];

const OUTCOMES: readonly OutcomeSpec[] = [
  {
    name: 'handoff',
    kind: 'success',
    description: 'The bot hands the caller over (to a person, a queue).',
    data: RESULT,
  },
  { name: 'done', kind: 'success', description: 'The bot has finished with the caller.', data: RESULT },
  {
    name: 'failed',
    kind: 'failure',
    description:
      'The bot ended with failed, broke the protocol or closed the connection, or the audio could not be set up.',
    data: RESULT,
  },
  {
    name: 'unreachable',
    kind: 'failure',
    description: 'The bot could not be reached in time (connectTimeout).',
    data: RESULT,
  },
  {
    name: 'botSilent',
    kind: 'failure',
    description: "The bot did not answer the caller's words in time (botTimeout).",
    data: RESULT,
  },
  {
    name: 'callerSilent',
    kind: 'success',
    description: 'The caller said nothing in time once the bot had spoken (callerTimeout).',
    data: RESULT,
  },
  { name: 'timeout', kind: 'success', description: 'The session reached maxDuration.', data: RESULT },
  { name: 'key', kind: 'success', description: 'The caller pressed one of endKeys.', data: RESULT },
];

/** The session's settings from the step's parameters, evaluated for this call. */
function settingsOf(p: AgentParams, args: ActionArgs): AgentSettings {
  const scope = scopeOf(args.context, args.event);
  const context: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p.context ?? {})) context[k] = resolveValue(v, scope);
  const ms = (value: AgentParams['connectTimeout'], fallback: number) =>
    value === undefined ? fallback : (parseDuration(value) ?? fallback);
  const protocol = p.protocol ?? 'text';
  return {
    bot: resolveValue(p.bot, scope),
    protocol,
    limits: {
      connectMs: ms(p.connectTimeout, DEFAULT_AGENT_LIMITS.connectMs),
      botSilenceMs: ms(p.botTimeout, DEFAULT_AGENT_LIMITS.botSilenceMs),
      callerSilenceMs: ms(p.callerTimeout, DEFAULT_AGENT_LIMITS.callerSilenceMs),
      sessionMs: ms(p.maxDuration, DEFAULT_AGENT_LIMITS.sessionMs),
    },
    endKeys: p.endKeys ?? '',
    keysToBot: p.keysToBot ?? true,
    // An audio bot hears the caller itself and stops its own audio (clear); ringflow's barge-in is opt-in.
    bargeIn: p.bargeIn ?? protocol === 'text',
    context,
    ...(p.language !== undefined ? { language: p.language } : {}),
  };
}

/** The session machine's input: the call's host, its services and the settings. */
function inputOf(p: AgentParams, args: ActionArgs): AgentInput {
  const { host, call } = args.context;
  if (!host.agents) throw new Error('this flow runs without agent services (its host has no agents)');
  return {
    call: {
      channelId: call.channelId,
      ...(call.caller ? { caller: call.caller } : {}),
      ...(call.extension !== undefined ? { extension: call.extension } : {}),
      ...(call.language !== undefined ? { language: call.language } : {}),
    },
    ari: host.ari,
    application: host.application,
    clock: host.clock,
    newId: (kind) => host.newId(kind),
    services: host.agents,
    settings: settingsOf(p, args),
  };
}

/**
 * agent: the caller talks with a bot (a voice agent) while the flow stays in charge. ringflow
 * bridges the caller with an external media channel, turns their speech into text for the bot and
 * the bot's words into speech (the text relay, docs/agents.md) or relays audio both ways
 * (`protocol: audio`), stops the bot when the caller talks over it, answers its tool requests from `tools:`, and ends the step with how the
 * conversation ended.
 * @example
 *   - agent: { bot: ws://127.0.0.1:9100/bot, endKeys: "0", as: chat, on: { handoff: agents, done: bye, failed: menu } }
 */
/** `event` in a tool's expressions: the bot's `tool` request. */
const TOOL_REQUEST_SHAPE = recordShape("the bot's tool request", {
  id: 'string',
  name: 'string',
  args: 'map<string, dyn>',
});

export const agentStep = defineStep({
  name: 'agent',
  description: 'Connects the caller with a bot (voice agent) and routes on how the conversation ended.',
  params: agentParams,
  bare: false,
  outcomes: OUTCOMES,
  possibleOutcomes: (p) => OUTCOMES.map((o) => o.name).filter((o) => o !== 'key' || (p.endKeys ?? '') !== ''),
  label: (p) => `agent ${typeof p.bot === 'string' ? p.bot : 'bot'}`,
  check: (p, path, { queues }) => checkAgentTools(p.tools, [...path, 'tools'], queues),
  // In a tool's expressions `event` is the bot's request.
  eventShapes: (p, path) =>
    Object.keys(p.tools ?? {}).map((name) => ({ path: [...path, 'tools', name], shape: TOOL_REQUEST_SHAPE })),
  compile: (p, build) => compileAgent(p, build),
});

function compileAgent(p: AgentParams, build: StepBuild): StateSpec {
  const id = `agent-${build.key}`;
  const desk = `${id}-tools`;
  const tools = p.tools ?? {};
  // XState's `sendTo` is typed against a machine's type parameters; as an engine `Action` it runs as is.
  const forward: Action = sendTo(id, ({ event }: ActionArgs) => event) as unknown as Action;
  // A tool answered at once goes straight to the session; a webhook is asked by the tool desk
  // (invoked beside the session, stopped with it), whose answer comes back here and is forwarded.
  const answer: Action = enqueueActions(({ enqueue, ...args }) => {
    const work = toolWork(tools, build.flow, args as unknown as ActionArgs);
    if (work.kind === 'answer') enqueue.sendTo(id, work.message);
    else enqueue.sendTo(desk, { ...work, type: 'ask' });
  }) as unknown as Action;
  const result = ({ event }: ActionArgs) => {
    const output = event.output as AgentSessionResult;
    const { outcome: _outcome, ...fields } = output;
    return fields;
  };
  const is =
    (outcome: AgentOutcome) =>
    ({ event }: ActionArgs) =>
      (event.output as AgentSessionResult | undefined)?.outcome === outcome;
  const routes: TransitionSpec[] = OUTCOMES.map((o) => ({
    guard: is(o.name as AgentOutcome),
    ...build.exit(o.name, result),
  }));
  return {
    initial: 'checking',
    states: {
      checking: {
        always: [
          {
            guard: ({ context }) => context.host.agents === undefined,
            ...build.exit('failed', () => ({
              message:
                'this flow runs without agent services: give the application its bots, media and speech (see docs/agents.md)',
            })),
          },
          { target: 'talking' },
        ],
      },
      talking: {
        invoke: [
          {
            id,
            src: agentMachine,
            input: (args: ActionArgs) => inputOf(p, args),
            onDone: routes,
            onError: build.exit('failed', ({ event }) => ({
              message: String((event.error as Error | undefined)?.message ?? event.error),
            })),
          },
          {
            id: desk,
            src: toolDesk,
            // The host, not its clock and fetch: in a call's snapshot the host is a marker.
            input: ({ context }: ActionArgs) => ({ host: context.host }),
          },
        ],
        on: {
          StasisStart: { actions: [forward] },
          ChannelDtmfReceived: { actions: [forward] },
          [AGENT_TOOL]: { actions: [answer] },
          [AGENT_TOOL_RESULT]: { actions: [forward] },
        },
      },
    },
  };
}
