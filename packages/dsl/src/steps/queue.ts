import { isEventType, isResourceGone } from '@ringflow/client/interface';
import type { QueueSettings } from '@ringflow/runtime';
import type { ActionArgs } from '../compile/FlowContext.ts';
import type { FlowQueue } from '../compile/FlowHost.ts';
import { effect, fireAndForget, isOwnChannel, setStep } from '../compile/effects.ts';
import type { Action, StateSpec, TransitionSpec } from '../compile/StateSpec.ts';
import { type Infer, parseDuration, s } from '../schema/s.ts';
import { diagnostic } from '../validate/Diagnostic.ts';
import { didYouMean } from '../validate/suggest.ts';
import { compileDial, type DialParams } from './dial.ts';
import { readField } from './readField.ts';
import { FAILED } from './restStep.ts';
import { defineStep, type StepBuild, stepParams } from './StepDefinition.ts';

/** The events a queue sends the calls waiting in it (the runtime's `QUEUE_OFFER`, `QUEUE_NO_AGENTS`). */
const OFFER = 'ringflow.queue.offer';
const NO_AGENTS = 'ringflow.queue.noAgents';

const params = stepParams(
  {
    name: s.string({ description: "The queue to wait in: one of the flow's queues (queues:)." }),
    maxWait: s.optional(
      s.duration({ description: 'How long the caller waits at most; then the step ends with timeout.' }),
    ),
    exitKey: s.optional(
      s.string({
        description:
          'A key that takes the caller out of the queue (outcome exited), e.g. "1" to leave a voicemail.',
        pattern: /^[0-9*#A-D]$/,
        patternHint: 'one key: 0-9, *, # or A-D',
      }),
    ),
    announce: s.optional(
      s.object(
        {
          every: s.optional(
            s.duration({ description: 'How often the caller hears the announcement.', default: '30s' }),
          ),
          position: s.optional(
            s.boolean({ description: "Say the caller's place in the queue.", default: true }),
          ),
          expectedWait: s.optional(
            s.boolean({
              description: 'Say the expected wait, once callers have been answered (in minutes).',
              default: true,
            }),
          ),
        },
        { description: 'Periodic announcements to the waiting caller (none when not given).' },
      ),
    ),
    callerId: s.optional(
      s.value(s.string({ description: 'Caller id shown to the agents, e.g. "Support <100>".' })),
    ),
  },
  'Puts the caller in a call queue: music on hold until an agent answers, then caller and agent talk.',
);

/** What the caller hears about its place: Asterisk's own queue sounds, in English by default. */
export function queueAnnouncement(
  position: number,
  expectedWaitMs: number | undefined,
  say: { readonly position: boolean; readonly expectedWait: boolean },
): string[] {
  const media: string[] = [];
  if (say.position && position > 0)
    media.push(
      ...(position === 1
        ? ['sound:queue-youarenext']
        : ['sound:queue-thereare', `number:${position}`, 'sound:queue-callswaiting']),
    );
  if (say.expectedWait && expectedWaitMs !== undefined) {
    const minutes = Math.round(expectedWaitMs / 60_000);
    media.push(
      ...(minutes < 1
        ? ['sound:queue-holdtime', 'sound:queue-less-than', 'number:1', 'sound:queue-minute']
        : [
            'sound:queue-holdtime',
            `number:${minutes}`,
            minutes === 1 ? 'sound:queue-minute' : 'sound:queue-minutes',
          ]),
    );
  }
  if (media.length > 0) media.push('sound:queue-thankyou');
  return media;
}

/** The event is the end of the step's announcement. */
function isOurPlayback({ context, event }: ActionArgs): boolean {
  return isEventType(event, 'PlaybackFinished') && event.playback.id === context.step.qPlayback;
}

/** The agents a queue's offer names (QueueOfferEvent.agents): the endpoints to ring. */
function offeredAgents(agents: unknown): string[] {
  return Array.isArray(agents) ? agents.filter((a): a is string => typeof a === 'string') : [];
}

/** How long the caller has waited so far, in seconds. */
function waited({ context }: ActionArgs): number {
  return Math.round((context.host.clock.now() - Number(context.step.qJoinedAt)) / 1000);
}

/**
 * queue: the caller waits in a call queue of the application with music on hold, hears its place
 * now and then, and is bridged with the first agent who answers.
 * @example
 *   - queue: { name: support, maxWait: 10m, exitKey: "1", announce: { every: 30s }, on: { timeout: voicemail, exited: voicemail } }
 * Outcomes: answered (the caller talked with an agent, who then hung up), timeout, exited,
 * noAgents, failed. A caller who hangs up while waiting is counted by the queue as abandoned; the
 * flow's hang-up handling runs as for any step.
 */
export const queueStep = defineStep({
  name: 'queue',
  description: 'Waits in a call queue until an agent answers, then connects the caller to them.',
  params,
  bare: false,
  outcomes: [
    {
      name: 'answered',
      kind: 'success',
      description: 'An agent answered and they talked; the agent hung up.',
      data: {
        agent: ['string', 'the agent who answered (its endpoint)'],
        channelId: ['string', "the agent's channel"],
        waited: ['int', 'seconds the caller waited'],
      },
    },
    {
      name: 'timeout',
      kind: 'success',
      description: 'Nobody answered within maxWait.',
      data: { waited: ['int', 'seconds the caller waited'] },
    },
    {
      name: 'exited',
      kind: 'success',
      description: 'The caller pressed the exit key.',
      data: { waited: ['int', 'seconds the caller waited'] },
    },
    {
      name: 'noAgents',
      kind: 'success',
      description:
        'No agent of the queue is logged in (on joining, or all logged out while the caller waited).',
      data: { waited: ['int', 'seconds the caller waited'] },
    },
    FAILED,
  ],
  possibleOutcomes: (p) => [
    'answered',
    ...(p.maxWait !== undefined ? ['timeout'] : []),
    ...(p.exitKey !== undefined ? ['exited'] : []),
    'noAgents',
    'failed',
  ],
  label: (p) => `queue ${p.name}`,
  check: (p, path, { queues }) =>
    typeof p.name !== 'string' || queues.includes(p.name)
      ? []
      : [
          diagnostic(
            'unknown-queue',
            [...path, 'name'],
            `No queue named "${p.name}".${didYouMean(p.name, queues) || ' Define it under queues: (its agents and ring strategy).'}`,
          ),
        ],
  compile: (p, build) => {
    const settings = build.flow.queue(p.name);
    if (!settings) throw new Error(`queue "${p.name}" is not defined under queues:`);
    return compileQueue(p, settings, build);
  },
});

type QueueParams = Infer<typeof params>;

/** The step's state ids, unique in the machine (other steps target them with `#id`). */
function ids(build: StepBuild) {
  const base = `queue-${build.key}`;
  return {
    ringing: `${base}-ringing`,
    missed: `${base}-missed`,
    talked: `${base}-talked`,
    leaving: `${base}-leaving`,
  };
}

function compileQueue(p: QueueParams, settings: QueueSettings, build: StepBuild): StateSpec {
  const id = ids(build);
  const queueOf = ({ context }: ActionArgs): FlowQueue => {
    const host = context.host;
    if (!host.queue) throw new Error('this flow runs without call queues (its host has no queue())');
    return host.queue(p.name, settings);
  };
  // The queue's own events (the runtime's QueueOfferEvent, QueueNoAgentsEvent) name it.
  const forThisQueue = ({ event }: ActionArgs) => event.queue === p.name;
  const answered = ({ context }: ActionArgs) => context.step.qAgent !== undefined;
  const maxWaitMs = p.maxWait === undefined ? undefined : parseDuration(p.maxWait);
  const announceMs = p.announce ? (parseDuration(p.announce.every ?? '30s') ?? 30_000) : undefined;
  const say = { position: p.announce?.position ?? true, expectedWait: p.announce?.expectedWait ?? true };
  const music = settings.musicClass ? { mohClass: settings.musicClass } : {};

  const startMusic = async ({ context }: ActionArgs) => {
    await context.host.ari.channels.startMoh({ channelId: context.call.channelId, ...music });
  };
  const stopMusic = async ({ context }: ActionArgs) => {
    try {
      await context.host.ari.channels.stopMoh({ channelId: context.call.channelId });
    } catch (error) {
      if (!isResourceGone(error)) throw error;
    }
  };
  // The caller leaves the queue with a reason, set on entering `leaving` (the step's exit action
  // runs before a transition's own actions, and must know the caller already left).
  const leaveWith = (reason: 'timeout' | 'exited', data: (a: ActionArgs) => Record<string, unknown>) => ({
    target: `#${id.leaving}`,
    actions: [setStep((a) => ({ qLeft: reason, qResult: data(a) }))],
  });

  // The agents are rung with the dial statechart; its outcomes come back into the queue here.
  const dialBuild: StepBuild = {
    key: `${build.key}-q`,
    flow: build.flow,
    exit: (outcome, data, before = []): TransitionSpec => {
      const facts = (a: ActionArgs) => (data ? data(a) : {});
      if (outcome === 'completed')
        return { target: `#${id.talked}`, actions: [...before, setStep((a) => ({ qResult: facts(a) }))] };
      // Not answered (busy, no answer, could not be called), or a failure once answered.
      return {
        target: `#${id.missed}`,
        actions: [...before, setStep((a) => ({ qMissed: outcome, qResult: facts(a) }))],
      };
    },
  };
  // The agents to ring come from the offer (`hooks.endpoints`), not from `endpoint`.
  const dialParams: DialParams = {
    endpoint: [],
    bridge: true,
    ringback: 'none',
    timeout: settings.ringTimeoutMs / 1000,
    ...(p.callerId !== undefined ? { callerId: p.callerId } : {}),
  };
  const ringing = compileDial(dialParams, dialBuild, {
    endpoints: ({ event }) => offeredAgents(event.agents),
    answered: [
      setStep((a) => ({ qAgent: a.context.step.endpoint, qWaited: waited(a), qMusic: false })),
      (a: ActionArgs) => queueOf(a).answered(String(a.context.step.endpoint)),
      fireAndForget(stopMusic, 'stop the queue music'),
    ],
  });

  const announcing: Record<string, StateSpec> =
    announceMs === undefined
      ? {}
      : {
          announcing: {
            entry: [setStep(({ context }) => ({ qPlayback: context.host.newId('playback') }))],
            effect: effect(
              async (args) => {
                const queue = queueOf(args);
                const media = queueAnnouncement(queue.position(), queue.expectedWaitMs(), say);
                if (media.length === 0) return 'nothing-to-say';
                await stopMusic(args);
                await args.context.host.ari.channels.play({
                  channelId: args.context.call.channelId,
                  playbackId: String(args.context.step.qPlayback),
                  media,
                  lang: args.context.call.language ?? build.flow.defaultLanguage,
                });
                return 'playing';
              },
              {
                onDone: [
                  {
                    guard: ({ event }: ActionArgs) => event.output === 'nothing-to-say',
                    target: 'holding',
                  },
                  { actions: [setStep(() => ({ qPlaying: true }))] },
                ],
                // A caller who cannot hear the announcement can still be answered.
                onError: { target: 'holding' },
                resume: 'await',
              },
            ),
            always: { guard: answered, target: 'silent' },
            on: {
              PlaybackFinished: {
                guard: isOurPlayback,
                target: 'holding',
              },
            },
            exit: [
              // Left before it ended (an offer, the exit key, the maximum wait, a hang-up): it stops.
              fireAndForget(async (args) => {
                const { context } = args;
                if (context.step.qPlaying !== true || isOurPlayback(args)) return;
                try {
                  await context.host.ari.playbacks.stop({ playbackId: String(context.step.qPlayback) });
                } catch (error) {
                  if (!isResourceGone(error)) throw error;
                }
              }, 'stop the queue announcement'),
              setStep(() => ({ qMusic: false, qPlaying: false })),
            ],
          },
        };

  const holdingEntry: Action[] = [
    // Music is on while the caller waits (and while agents ring); it was stopped for an announcement.
    fireAndForget(async (args) => {
      if (args.context.step.qMusic !== true) await startMusic(args);
    }, 'start the queue music'),
    setStep(() => ({ qMusic: true })),
  ];

  // Once an agent answered, the caller hears no more music or announcements.
  const silentOnceAnswered = { guard: answered, target: 'silent' };

  return {
    entry: [
      setStep(({ context }) => ({ qJoinedAt: context.host.clock.now(), qMusic: false })),
      (args: ActionArgs) => queueOf(args).join(),
    ],
    // However the step ends, the caller is out of the queue and its agent is free again.
    exit: [
      (args: ActionArgs) => {
        const { step } = args.context;
        const queue = queueOf(args);
        if (step.qAgent !== undefined) queue.agentFree(String(step.qAgent));
        else if (step.qLeft === undefined) queue.leave('abandoned');
      },
      fireAndForget(async (args) => {
        if (args.context.step.qMusic === true) await stopMusic(args);
      }, 'stop the queue music'),
    ],
    // Restored in a new process (calls survive their process): the queue there does not know
    // this caller yet. It joins again with its place and the agents its call rings, or the
    // agent it talks with stays busy.
    onResume: [
      (args: ActionArgs) => {
        const { step } = args.context;
        const queue = queueOf(args);
        if (step.qAgent !== undefined) return queue.talking(String(step.qAgent));
        const peers = (step.peers ?? []) as string[];
        const endpoints = (step.endpoints ?? []) as string[];
        const ringing = ((step.ringing ?? []) as string[]).map((id) => endpoints[peers.indexOf(id)] ?? '');
        queue.join({ joinedAt: Number(step.qJoinedAt), ringing: ringing.filter((e) => e !== '') });
      },
    ],
    on: {
      // The queue took the caller out already: nothing to leave.
      [NO_AGENTS]: { guard: forThisQueue, ...build.exit('noAgents', (a) => ({ waited: waited(a) })) },
      ...(p.exitKey !== undefined
        ? {
            ChannelDtmfReceived: {
              guard: (a: ActionArgs) =>
                isOwnChannel(a) &&
                !answered(a) &&
                isEventType(a.event, 'ChannelDtmfReceived') &&
                a.event.digit === p.exitKey,
              ...leaveWith('exited', (a) => ({ waited: waited(a) })),
            },
          }
        : {}),
    },
    ...(maxWaitMs !== undefined
      ? {
          after: {
            [maxWaitMs]: {
              guard: (a: ActionArgs) => !answered(a),
              ...leaveWith('timeout', (a) => ({ waited: waited(a) })),
            },
          },
        }
      : {}),
    initial: 'queued',
    states: {
      // What the caller hears and what the agents do go on side by side: announcements continue
      // while agents ring, as callers of a queue expect.
      queued: {
        type: 'parallel',
        states: {
          caller: {
            initial: 'holding',
            states: {
              holding: {
                entry: holdingEntry,
                always: silentOnceAnswered,
                ...(announceMs !== undefined ? { after: { [announceMs]: { target: 'announcing' } } } : {}),
              },
              ...announcing,
              silent: {},
            },
          },
          agents: {
            initial: 'idle',
            states: {
              idle: { on: { [OFFER]: { guard: forThisQueue, target: 'ringing' } } },
              ringing: { ...ringing, id: id.ringing },
              // Nobody offered answered (or the bridge failed once one did): wait for the next offer, or out.
              missed: {
                id: id.missed,
                entry: [
                  (args: ActionArgs) => {
                    if (!answered(args)) queueOf(args).unanswered();
                  },
                ],
                always: [
                  {
                    guard: answered,
                    ...build.exit(
                      'failed',
                      ({ context }) => (context.step.qResult ?? {}) as Record<string, unknown>,
                    ),
                  },
                  { target: 'idle' },
                ],
              },
            },
          },
        },
      },
      talked: {
        id: id.talked,
        always: build.exit('answered', (a) => ({
          agent: a.context.step.qAgent,
          channelId: readField(a.context.step.qResult, 'channelId'),
          waited: a.context.step.qWaited,
        })),
      },
      leaving: {
        id: id.leaving,
        entry: [(args: ActionArgs) => queueOf(args).leave(args.context.step.qLeft as 'timeout' | 'exited')],
        always: [
          {
            guard: ({ context }: ActionArgs) => context.step.qLeft === 'timeout',
            ...build.exit('timeout', ({ context }) => context.step.qResult as Record<string, unknown>),
          },
          build.exit('exited', ({ context }) => context.step.qResult as Record<string, unknown>),
        ],
      },
    },
  };
}
